"""Navigation-core benchmark: build time, query times and path-length error.

Scenes: a generated 6-room house (``navbench.scene.procgen.indoor``; a synthetic house of
boxes if that module is unavailable) with the ``indoor`` preset, a synthetic 1 km x 1 km
block grid (buildings as boxes on a ground slab) with the ``outdoor`` preset, and a
*generated* 500 m city (``generate_city(0)``: curbs, crosswalks, parks, 1,000 sidewalk objects,
200 parked cars) with the ``outdoor`` preset and with ``los_tolerance=0`` — query times and
how far its paths cut into the agent radius around the scene's blocking boxes (shapely).
On the generated city (after ``NavMesh.prepare_queries``), every ``find_path`` query also
runs, interleaved, three reference searches kept in ``benchmarks/nav_reference.py`` or the
package: the prepared search this session started from (landmark heuristic at push time,
three calls), the default search without precomputation (``visibility.astar``) and the
release-before-last A*; lengths and polylines are compared; times are wall clock and thread
CPU time (the p95 of wall time on a loaded machine is the scheduler's); the one-off
precomputation's time and memory are printed; a second workload asks
``--steps`` starts to each of ``--goals`` goals (an episode's per-step distance to goal)
through ``NavMesh.geodesic_distances`` (goal table built at the first start, then cached).

Reference for the house and the block grid, computed in the same run: the exact free space
from the scene's boxes with shapely (floor footprints minus every box that meets the headroom
column, eroded by the agent radius with round joins) and a brute-force visibility graph over
*all* its vertices (every pair checked with ``covers``), Dijkstra by networkx. Run:

    .venv/bin/python benchmarks/bench_nav.py [--queries 200] [--ref-queries 40]
    .venv/bin/python benchmarks/bench_nav.py --skip-house --skip-city --skip-strict  # city only
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import time
from collections.abc import Callable

import networkx as nx
import numpy as np
import shapely
import shapely.ops
from nav_reference import astar_before, astar_lists_eager  # benchmarks/ (the script's folder)
from shapely.geometry import LineString, Polygon

from navbench.geometry import box_corners_xz
from navbench.nav import NavMesh, NavSettings, oneoff, query
from navbench.nav import visibility as vis
from navbench.scene import Box, Scene


def synthetic_house() -> Scene:
    """Six 4 x 4 m rooms (3 x 2) with 0.1 m walls and 1 m doors, plus a few furniture boxes."""
    boxes = [Box("floor", "floor", (6, -0.05, 4), (12, 0.1, 8))]
    k = 0
    for x in (4.0, 8.0):  # vertical walls with a door in each room row
        for z0 in (0.0, 4.0):
            boxes += [Box(f"w{k}", "wall", (x, 1.25, z0 + 0.75), (0.1, 2.5, 1.5)),
                      Box(f"w{k + 1}", "wall", (x, 1.25, z0 + 3.0), (0.1, 2.5, 2.0))]
            k += 2
    for x0 in (0.0, 4.0, 8.0):  # horizontal wall z = 4 with a door per room column
        boxes += [Box(f"w{k}", "wall", (x0 + 0.75, 1.25, 4), (1.5, 2.5, 0.1)),
                  Box(f"w{k + 1}", "wall", (x0 + 3.0, 1.25, 4), (2.0, 2.5, 0.1))]
        k += 2
    for i, (x, z) in enumerate([(2, 2), (6, 1.5), (10, 2.5), (2, 6), (6.5, 6), (10, 6)]):
        boxes.append(Box(f"f{i}", "furniture", (x, 0.4, z), (1.2, 0.8, 0.7), yaw=0.3 * i))
    return Scene(id="synthetic_house", kind="indoor", source="bench", boxes=tuple(boxes))


def house() -> tuple[Scene, str]:
    try:
        from navbench.scene.procgen.indoor import generate_house

        return generate_house(0, n_rooms=6), "procgen generate_house(0, n_rooms=6)"
    except Exception as e:  # report and fall back
        return synthetic_house(), f"synthetic (procgen unavailable: {e})"


def city(seed: int = 0) -> Scene:
    """1 km x 1 km: 10 x 10 blocks of 100 m, one building of random size per block."""
    rng = np.random.default_rng(seed)
    boxes = [Box("ground", "ground", (500, -0.05, 500), (1000, 0.1, 1000))]
    for i, j in itertools.product(range(10), range(10)):
        w, d = rng.uniform(50, 82, size=2)
        cx = 100 * i + 50 + rng.uniform(-5, 5)
        cz = 100 * j + 50 + rng.uniform(-5, 5)
        boxes.append(Box(f"b{i}_{j}", "building", (cx, 10, cz), (w, 20, d)))
    return Scene(id="city_1km", kind="outdoor", source="bench", boxes=tuple(boxes))


def free_space(scene: Scene, s: NavSettings) -> shapely.Geometry:
    """Exact eroded free space (flat floors at y = 0) from the scene's boxes."""
    def poly(b: Box) -> Polygon:
        return Polygon(box_corners_xz(b.center, b.size, b.yaw))

    floors = [poly(b) for b in scene.boxes if b.kind in s.walkable_box_kinds]
    blocks = [poly(b) for b in scene.boxes
              if b.center[1] - b.size[1] / 2 < s.agent_height
              and b.center[1] + b.size[1] / 2 > s.max_climb]
    # floor slabs of adjacent rooms may leave float-sized gaps: close them (0.1 mm)
    floor = shapely.union_all([f.buffer(1e-4, join_style="mitre") for f in floors])
    free = floor.difference(shapely.union_all(blocks))
    return free.buffer(-s.agent_radius, quad_segs=8 if s.cell_size < 0.1 else 2)


class Reference:
    """Brute-force visibility graph over every vertex of the free-space polygons."""

    def __init__(self, free: shapely.Geometry) -> None:
        self.free = free
        shapely.prepare(free)
        polys = list(free.geoms) if hasattr(free, "geoms") else [free]
        pts = []
        for p in polys:
            for ring in (p.exterior, *p.interiors):
                pts.extend(ring.coords[:-1])
        self.pts = np.asarray(pts)
        n = len(self.pts)
        i, j = np.triu_indices(n, 1)
        segs = shapely.linestrings(np.stack([self.pts[i], self.pts[j]], axis=1))
        ok = shapely.covers(free, segs)
        self.g = nx.Graph()
        self.g.add_nodes_from(range(n))
        w = np.hypot(*(self.pts[i] - self.pts[j]).T)
        self.g.add_weighted_edges_from(zip(i[ok].tolist(), j[ok].tolist(), w[ok].tolist(), strict=True))
        self.pairs = len(i)

    def _inside(self, p: np.ndarray) -> np.ndarray:
        """p, or its nearest point in the free space (a grid point may lie a hair outside)."""
        if self.free.covers(shapely.Point(p)):
            return p
        q = shapely.ops.nearest_points(self.free, shapely.Point(p))[0]
        return np.array([q.x, q.y])

    def distance(self, a: np.ndarray, b: np.ndarray) -> float:
        a, b = self._inside(a), self._inside(b)
        if self.free.covers(LineString([a, b])):
            return float(np.hypot(*(a - b)))
        g = self.g.copy()
        for name, p in (("a", a), ("b", b)):
            segs = shapely.linestrings(np.stack([np.broadcast_to(p, self.pts.shape), self.pts], 1))
            ok = np.nonzero(shapely.covers(self.free, segs))[0]
            d = np.hypot(*(self.pts[ok] - p).T)
            g.add_weighted_edges_from((name, int(k), float(w)) for k, w in zip(ok, d, strict=True))
        try:
            return float(nx.shortest_path_length(g, "a", "b", weight="weight"))
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return math.inf


def pct(a: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(a), q))


def run(name: str, scene: Scene, s: NavSettings, queries: int, ref_queries: int) -> None:
    t = time.perf_counter()
    nm = NavMesh.build(scene, s)
    build = time.perf_counter() - t
    nr, nc = nm.layers[0].labels.shape
    g = nm.graphs[0]
    print(f"\n== {name}: {nr}x{nc} cells ({nr * nc / 1e6:.2f} M), {len(nm.islands)} islands, "
          f"{len(g.nodes.pos)} graph nodes, {len(g.indices) // 2} edges")
    print(f"build: {build:.3f} s")
    _report_prep(nm)
    rng = np.random.default_rng(1)
    pairs = [(nm.sample_point(rng), nm.sample_point(rng)) for _ in range(queries)]
    times, lengths = [], []
    for a, b in pairs:
        t = time.perf_counter()
        d = nm.geodesic_distance(a, b)
        times.append(time.perf_counter() - t)
        lengths.append(d)
    print(f"geodesic query: median {pct(times, 50) * 1e3:.3f} ms, p95 {pct(times, 95) * 1e3:.3f} ms "
          f"(mean path {np.mean(lengths):.1f} m)")
    pts = [p for ab in pairs for p in ab]
    for qname, fn in (("is_navigable", nm.is_navigable), ("snap_point", nm.snap_point),
                      ("distance_to_obstacle", nm.distance_to_obstacle),
                      ("island_of", nm.island_of)):
        ts = []
        for p in pts:
            t = time.perf_counter()
            fn(p)
            ts.append(time.perf_counter() - t)
        print(f"{qname}: median {pct(ts, 50) * 1e6:.1f} µs")
    t = time.perf_counter()
    ref = Reference(free_space(scene, s))
    print(f"reference: {len(ref.pts)} vertices, {ref.pairs} pairs checked, "
          f"{ref.g.number_of_edges()} visible, {time.perf_counter() - t:.1f} s")
    errs, worst, rt = [], 0.0, []
    for (a, b), d in list(zip(pairs, lengths, strict=True))[:ref_queries]:
        t = time.perf_counter()
        r = ref.distance(np.array([a[0], a[2]]), np.array([b[0], b[2]]))
        rt.append(time.perf_counter() - t)
        if not (math.isfinite(r) and math.isfinite(d)) or r < 1e-6:
            continue
        e = (d - r) / r
        errs.append(e)
        worst = max(worst, abs(e))
    print(f"path length error vs exact reference ({len(errs)} paths): mean {np.mean(errs) * 100:+.3f}%, "
          f"mean |err| {np.mean(np.abs(errs)) * 100:.3f}%, worst {worst * 100:.3f}%")
    print(f"reference query (shapely + networkx): median {pct(rt, 50) * 1e3:.1f} ms -> "
          f"navmesh is {pct(rt, 50) / pct(times, 50):.0f}x faster")


def _with(search: Callable[..., tuple[float, int, np.ndarray]], nm: NavMesh, a: np.ndarray,
          b: np.ndarray, *extra: object) -> query.ShortestPath:
    """``find_path(a, b)`` through the general branches (``query._prepare``, ``_finish``) with
    ``search`` as the graph search (arguments of :func:`navbench.nav.visibility.astar`, then
    ``extra``)."""
    q = query._prepare(nm, a, np.asarray(b, float).reshape(-1, 3))
    if q is None:
        return query.NONE
    L, G = nm.layers[q.li], nm.graphs[q.li]
    n = G.nodes
    r = search(n.pos, n.prv, n.nxt, n.island, G.indptr, G.indices, G.weights, L.clear, L.x0, L.z0,
               L.cs, nm._thr, float(q.sa[0]), float(q.sa[2]), q.isl, q.gxz, nm._tiles(q.li),
               vis.TILE, *extra)
    return query._finish(nm, q, *r)


def _find_path_before(nm: NavMesh, a: np.ndarray, b: np.ndarray) -> query.ShortestPath:
    """``find_path`` with the release-before-last search (:func:`nav_reference.astar_before`)."""
    return _with(astar_before, nm, a, b)


def _find_path_eager(nm: NavMesh, a: np.ndarray, b: np.ndarray) -> query.ShortestPath:
    """``find_path`` with the prepared search this session started from
    (:func:`nav_reference.astar_lists_eager`: snapping, search and assembly in three calls)."""
    P = nm._prep_cache[0]
    return _with(astar_lists_eager, nm, a, b, P.m, P.cols, P.ptr, P.corners, P.lmd, oneoff.ACTIVE)


def _report_prep(nm: NavMesh) -> None:
    """Time and memory of the one-off query precomputation (``NavMesh.prepare_queries``, opt-in)."""
    if len(nm.graphs[0].nodes.pos) < query.PREP_MIN_CORNERS:
        print(f"one-off precomputation: not used ({len(nm.graphs[0].nodes.pos)} corners "
              f"< {query.PREP_MIN_CORNERS}: plain search)")
        return
    t = time.perf_counter()
    nm.prepare_queries()
    P = nm._prep(0)
    print(f"one-off precomputation (bucket lists, {P.lmd.shape[1]} landmarks): "
          f"{time.perf_counter() - t:.1f} s, {P.nbytes / 1e6:.1f} MB "
          f"({len(P.corners)} list entries, {P.corners.dtype})")


def _find_path_session(nm: NavMesh, a: np.ndarray, b: np.ndarray) -> query.ShortestPath:
    """``find_path`` without precomputation (:func:`navbench.nav.visibility.astar`: full
    start/goal scans, Euclidean heuristic)."""
    return _with(vis.astar, nm, a, b)


def _same(d: float, r: float) -> bool:
    return (math.isinf(d) and math.isinf(r)) or abs(d - r) <= 1e-6 * max(r, 1.0)


def generated_city(size: float, queries: int, goals: int, steps: int, strict: bool = True) -> None:
    """Query times and clearance of paths on a generated city (see the module docstring);
    ``strict``: also with ``los_tolerance=0``."""
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    scene = generate_city(0, OutdoorSettings(size=(size, size)))
    ground = ("sidewalk", "road", "crosswalk", "green", "ground", "water")
    variants = [("outdoor preset", NavSettings.preset("outdoor"))]
    if strict:
        variants.append(("outdoor, los_tolerance=0", NavSettings.preset("outdoor", los_tolerance=0.0)))
    for label, s in variants:
        # blocking at sidewalk level (y = 0): bottom below the headroom, top above the climb
        blocks = shapely.union_all([Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in scene.boxes
                                    if b.kind not in ground and b.center[1] - b.size[1] / 2 < s.agent_height
                                    and b.center[1] + b.size[1] / 2 > s.max_climb])
        shapely.prepare(blocks)
        t = time.perf_counter()
        nm = NavMesh.build(scene, s)
        print(f"\n== generated {size:.0f} m city ({len(scene.boxes)} boxes), {label}: "
              f"{len(nm.graphs[0].nodes.pos)} graph nodes, build {time.perf_counter() - t:.1f} s")
        _report_prep(nm)
        rng = np.random.default_rng(1)
        pairs = [(nm.sample_point(rng), nm.sample_point(rng)) for _ in range(queries)]
        # one-off queries: find_path and the reference searches, each in its own pass over
        # the pairs (as a user's sequence of queries sees the caches), two rounds in
        # alternating order; wall and CPU (thread) time; same lengths (1e-6) and, for the
        # session's prepared search, the same polyline
        searches: dict[str, Callable[[np.ndarray, np.ndarray], query.ShortestPath]] = {
            "find_path": nm.find_path,
            "prepared, this session's start (eager heuristic, 3 calls)":
                functools.partial(_find_path_eager, nm),
            "no precomputation (visibility.astar, the default)": functools.partial(_find_path_session, nm),
            "release before last (astar_before)": functools.partial(_find_path_before, nm)}
        for fn in searches.values():
            fn(*pairs[0])  # JIT warm-up
        wall: dict[str, list[float]] = {k: [] for k in searches}
        cpu: dict[str, list[float]] = {k: [] for k in searches}
        res: dict[str, list[query.ShortestPath]] = {}
        for rnd in range(2):
            for name in (list(searches) if rnd == 0 else list(searches)[::-1]):
                fn, out = searches[name], []
                for a, b in pairs:
                    t, c = time.perf_counter(), time.thread_time()
                    out.append(fn(a, b))
                    wall[name].append(time.perf_counter() - t)
                    cpu[name].append(time.thread_time() - c)
                res[name] = out
        mine, eager = res["find_path"], res[list(searches)[1]]
        same = sum(all(_same(sp.geodesic_distance, res[k][i].geodesic_distance) for k in res)
                   for i, sp in enumerate(mine))
        same_line = sum((r.points is None and sp.points is None) or (
            r.points is not None and sp.points is not None
            and np.array_equal(np.array(r.points), np.array(sp.points)))
            for sp, r in zip(mine, eager, strict=True))
        cut, n_inf = [], 0
        for sp in mine:
            if sp.points is None:
                n_inf += 1
            elif len(sp.points) >= 2:
                line = LineString([(p[0], p[2]) for p in sp.points])
                cut.append(s.agent_radius - line.distance(blocks))
        cut_a = np.array(cut)
        print(f"one-off find_path, {len(pairs)} pairs x 2 rounds ({n_inf} unreachable), ms median / p95, "
              f"wall | thread CPU, ratio = reference / find_path (CPU medians):")
        for name in wall:
            w, c = wall[name], cpu[name]
            ratio = "" if name == "find_path" else f"  x{pct(c, 50) / pct(cpu['find_path'], 50):.2f}"
            print(f"  {name:60s} {pct(w, 50) * 1e3:6.3f} / {pct(w, 95) * 1e3:6.3f} | "
                  f"{pct(c, 50) * 1e3:6.3f} / {pct(c, 95) * 1e3:6.3f}{ratio}")
        print(f"same lengths as every reference (1e-6): {same}/{len(pairs)}; same polyline as the "
              f"session's prepared search: {same_line}/{len(pairs)}")
        print(f"paths cutting into the radius by more than half a cell: {(cut_a > s.cell_size / 2).sum()} of "
              f"{len(cut_a)}, worst {cut_a.max() * 100:.1f} cm")
        # an episode's per-step distances: `steps` starts to one goal, `goals` episodes
        nm.geodesic_distances(pairs[0][:1], pairs[0][1])  # JIT warm-up
        build_t, per_q, old_q, worst, same = [], [], [], 0.0, 0
        for _ in range(goals):
            g = nm.sample_point(rng)
            starts = [nm.sample_point(rng) for _ in range(steps)]
            t = time.perf_counter()
            ds = [float(nm.geodesic_distances(starts[:1], g)[0])]
            build_t.append(time.perf_counter() - t)
            for p in starts[1:]:
                t = time.perf_counter()
                ds.append(float(nm.geodesic_distances([p], g)[0]))
                per_q.append(time.perf_counter() - t)
            for p, d in zip(starts, ds, strict=True):
                t = time.perf_counter()
                r = _find_path_before(nm, p, g).geodesic_distance
                old_q.append(time.perf_counter() - t)
                same += _same(d, r)
                if math.isfinite(r) and r > 0:
                    worst = max(worst, abs(d - r) / r)
        new_mean = (sum(build_t) + sum(per_q)) / (goals * steps)
        print(f"geodesic_distances, {goals} goals x {steps} starts: goal table (first start) median "
              f"{pct(build_t, 50) * 1e3:.1f} ms; later starts median {pct(per_q, 50) * 1e3:.3f} ms, "
              f"p95 {pct(per_q, 95) * 1e3:.3f} ms; previous search median {pct(old_q, 50) * 1e3:.3f} ms, "
              f"p95 {pct(old_q, 95) * 1e3:.3f} ms -> median x{pct(old_q, 50) / pct(per_q, 50):.1f}, "
              f"p95 x{pct(old_q, 95) / pct(per_q, 95):.1f}, mean with tables x{np.mean(old_q) / new_mean:.1f}; "
              f"same lengths {same}/{len(old_q)}, worst rel. diff {worst:.1e}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--ref-queries", type=int, default=40)
    ap.add_argument("--skip-city", action="store_true")
    ap.add_argument("--generated-size", type=float, default=500.0, help="generated city side (m); 0 = skip")
    ap.add_argument("--goals", type=int, default=10, help="generated city: goals of the per-step workload")
    ap.add_argument("--steps", type=int, default=100, help="generated city: starts per goal")
    ap.add_argument("--skip-house", action="store_true")
    ap.add_argument("--skip-strict", action="store_true", help="generated city: only the outdoor preset")
    args = ap.parse_args()
    hs, how = house()
    t = time.perf_counter()
    NavMesh.build(hs, NavSettings.preset("indoor"))  # JIT warm-up (numba cache)
    print(f"warm-up build (includes JIT on a fresh machine): {time.perf_counter() - t:.2f} s")
    if not args.skip_house:
        print(f"house: {how}")
        run("6-room house, indoor preset", hs, NavSettings.preset("indoor"), args.queries,
            args.ref_queries)
    if not args.skip_city:
        run("1 km² block grid, outdoor preset", city(), NavSettings.preset("outdoor"),
            args.queries, args.ref_queries)
    if args.generated_size > 0:
        generated_city(args.generated_size, args.queries, args.goals, args.steps, not args.skip_strict)


if __name__ == "__main__":
    main()
