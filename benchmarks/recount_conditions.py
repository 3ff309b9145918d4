"""Independent recount of blind priors, margins and truths on generated conditional instructions.

Scenes: 20 procedural houses (seeds 0..19), the real ProcTHOR house
(``/work/shared/realdata/procthor``) and 4 Gibson 3D Scene Graph files built as the tests build
them; 60 instructions per scene (1,500). Instructions are drawn with the label / room-type
statistics of all these scenes when this navbench has them (``room_label_stats``). Figures come
from :mod:`tests.conditional.recount`, which shares no truth, margin or prior code with the
generator. Prints one row per category and per source, then the scene facts.

    python benchmarks/recount_conditions.py [--out DIR] [--per-scene 60] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conditional.recount import recount, scene_facts
from tests.conditional.sources import gibson, houses, procthor

from navbench.scene.io import load, save
from navbench.tasks import conditional as cond


def scene_set(folder: Path) -> dict:
    """The 25 scenes, written once under ``folder`` and read back from there."""
    if not (folder / "done").is_file():
        with tempfile.TemporaryDirectory() as tmp:
            scenes = [*houses(20), procthor(), *gibson(Path(tmp), 4)]
        for s in scenes:
            save(s, folder / s.id / "scene.json")
        (folder / "done").write_text("25 scenes\n")
    return {s.id: s for s in (load(p) for p in sorted(folder.glob("*/scene.json")))}


def generate(scenes: dict, per_scene: int) -> list[dict]:
    stats = None
    if hasattr(cond, "room_label_stats"):
        stats = cond.room_label_stats(list(scenes.values()))
    out = []
    for s in scenes.values():
        kw = {} if stats is None else {"label_stats": stats}
        for i in cond.generate_instructions(s, per_scene, seed=0, **kw):
            out.append({"scene_id": i.scene_id, "category": i.category,
                        "program": cond.program_to_dict(i.program), "truths": dict(i.truths),
                        "branch_index": i.branch_index})
    return out


def _f(v: object) -> str:
    return "-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("/tmp/navbench_recount_scenes"))
    ap.add_argument("--per-scene", type=int, default=60)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    scenes = scene_set(a.out)
    t = time.perf_counter()
    recs = generate(scenes, a.per_scene)
    t_gen = time.perf_counter() - t
    figures = recount(recs, scenes)
    cols = ["n", "presence_n", "presence_majority", "presence_ever", "presence_frequency",
            "presence_pairs", "relation_n", "relation_majority", "relation_predicate",
            "relation_triplet", "branch_best", "chance", "evaluated_relations", "margin",
            "qualified", "qual_margin", "mismatch",
            "small", "outside", "targets"]
    print(f"{len(recs)} instructions on {len(scenes)} scenes (generated in {t_gen:.1f} s)")
    print("group".ljust(22) + " ".join(c[:11].rjust(11) for c in cols))
    for g, row in figures.items():
        print(g.ljust(22) + " ".join(_f(row.get(c)).rjust(11) for c in cols))
    print("scene facts per source:", scene_facts(scenes))
    if a.json:
        a.json.write_text(json.dumps({"figures": figures, "scenes": scene_facts(scenes)}, indent=1))


if __name__ == "__main__":
    main()
