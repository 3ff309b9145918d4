"""OSM import at scale: a dense synthetic district of >= 10^6 nodes (``osm_district.py --dense``)
through ``navbench scenes import-osm`` (parse, geometry, terrain, buildings, places, furniture,
validation and the scene.json write), in a child process: wall time and peak memory. Target:
<= 120 s and <= 3 GB on 2 cores. Reference measured in the same run: the same generator at about
a tenth of the nodes, so the printed ratio shows how the import scales (1.0 = linear in nodes).
Also a single 200,000-vertex building (the per-outline vertex cap simplifies it).

The wall time counts both cores (terrain tiles are built by two forked workers); the CPU time
printed is user + system of the import and its workers.

Usage: python benchmarks/bench_osm.py [--blocks 45] [--ref-blocks 14] [--keep DIR]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from osm_district import KX, KZ, LAT0, LON0, district


def _tree_pss_kb(root: int) -> int:
    """Proportional set size (KiB) of process ``root`` and all its descendants (Linux): shared
    pages of forked workers counted once in all, not once per process as RSS would."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += kids.get(pid, [])
        try:
            total += sum(int(line.split()[1]) for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
                         if line.startswith("Pss:"))
        except (OSError, IndexError, ValueError):
            continue
    return total


def run_import(src: Path, out: Path) -> tuple[float, float]:
    """Wall seconds and peak memory (GB) of ``navbench scenes import-osm src -o out`` in a child:
    the summed PSS of the importer and its forked workers, sampled every 0.2 s (on systems
    without /proc: the largest single process's peak RSS). Also prints the CPU seconds (user +
    system) and the load average: on a shared machine the wall time is the CPU time stretched
    by the other jobs."""
    exe = Path(sys.executable).parent / "navbench"
    t0 = time.perf_counter()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen([str(exe), "scenes", "import-osm", str(src), "-o", str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    peak_kb = 0
    proc = Path("/proc").is_dir()
    while p.poll() is None:
        if proc:
            peak_kb = max(peak_kb, _tree_pss_kb(p.pid))
        time.sleep(0.2)
    stdout, stderr = p.communicate()
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"import failed: {stderr.strip()[-500:]}")
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = peak_kb * 1024 / 1e9 if proc else max(ru1.ru_maxrss, ru0.ru_maxrss) / 1e6
    cpu = ru1.ru_utime + ru1.ru_stime - ru0.ru_utime - ru0.ru_stime
    print("   ", stdout.strip()[:300])
    print(f"    cpu {cpu:.1f} s, load average {os.getloadavg()[0]:.1f}")
    return dt, peak


def big_building(path: Path, n: int = 200_000) -> None:
    """One street and one building whose outline has ``n`` vertices (a 40 m circle)."""
    nodes, refs = [], []
    for k in range(n):
        a = 2 * math.pi * k / n
        x, z = 40 * math.cos(a), 40 + 40 * math.sin(a) + 10
        nodes.append(f'<node id="{k + 1}" lat="{LAT0 - z / KZ:.9f}" lon="{LON0 + x / KX:.9f}"/>')
        refs.append(k + 1)
    nodes.append(f'<node id="{n + 1}" lat="{LAT0:.9f}" lon="{LON0 - 100 / KX:.9f}"/>')
    nodes.append(f'<node id="{n + 2}" lat="{LAT0:.9f}" lon="{LON0 + 100 / KX:.9f}"/>')
    nd = "".join(f'<nd ref="{r}"/>' for r in [*refs, refs[0]])
    ways = [f'<way id="1">{nd}<tag k="building" v="yes"/></way>',
            f'<way id="2"><nd ref="{n + 1}"/><nd ref="{n + 2}"/><tag k="highway" v="residential"/></way>']
    path.write_text('<?xml version="1.0"?>\n<osm version="0.6">\n' + "\n".join(nodes + ways) + "\n</osm>\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", type=int, default=45, help="district side in blocks (45: about 1.08 million nodes)")
    ap.add_argument("--ref-blocks", type=int, default=14)
    ap.add_argument("--keep", type=Path, default=None, help="keep the generated files here")
    a = ap.parse_args()
    from navbench.scene.sources.osm_ground import tile_workers

    print(f"terrain tile workers: {tile_workers()} (NAVBENCH_WORKERS overrides), load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        d = a.keep or Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        rows = []
        for name, blocks in (("reference", a.ref_blocks), ("scale", a.blocks)):
            src = d / f"district_{blocks}.osm"
            c = district(src, blocks, seed=0, dense=True)
            print(f"{name}: {src.name}: {c['nodes']:,} nodes, {c['ways']:,} ways, "
                  f"{src.stat().st_size / 1e6:.0f} MB")
            dt, gb = run_import(src, d / f"district_{blocks}.json")
            rows.append((name, c["nodes"], dt, gb))
            print(f"  import: {dt:.1f} s, peak {gb:.2f} GB")
        (_, n0, t0, _), (_, n1, t1, g1) = rows
        print(f"seconds per node, scale / reference: {(t1 / n1) / (t0 / n0):.2f}")
        ok = n1 >= 1_000_000 and t1 <= 120 and g1 <= 3.0
        print(f"target >= 1e6 nodes in <= 120 s and <= 3 GB: {'OK' if ok else 'MISSED'} "
              f"({n1:,} nodes, {t1:.1f} s, {g1:.2f} GB)")
        src = d / "big_building.osm"
        big_building(src)
        dt, gb = run_import(src, d / "big_building.json")
        print(f"one 200,000-vertex building: {dt:.1f} s, peak {gb:.2f} GB")


if __name__ == "__main__":
    main()
