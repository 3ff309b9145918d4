"""Labels of the objects an instruction refers to, on the bird's-eye view of ``scene show``.

Samples ``--per-scene`` instructions on each of two generated 6-room houses and the real
ProcTHOR house, draws each scene as ``scene show`` does (10 in, 100 dpi), and counts the
instructions with a referenced object (a target, a qualifier anchor, the objects a condition
names) that has no label on the picture: on the plain picture and, where ``scene show`` takes
an instruction, on the picture drawn for that instruction. A label counts for an object when
its text is the object's label and it stands at the object's centre or carries the object's id
(``Text.get_gid()``, set for labels moved off their object with a leader line). Also prints
the drawing time per picture against the time of drawing without labels (same run).

Usage: python benchmarks/bench_bev_labels.py [--per-scene 10] [--seed 0] [--out DIR]
"""

from __future__ import annotations

import argparse
import inspect
import time
from pathlib import Path

from navbench.report.bev import render_scene_figure
from navbench.scene import Scene
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.sources import import_scene
from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    Presence,
    Program,
    Seq,
    generate_instructions,
)

PROCTHOR = Path("/work/shared/realdata/procthor")


def referenced(p: Program, scene: Scene) -> set[str]:
    """Object ids an instruction's program refers to (ids recorded by the generator)."""
    def ref(r: ObjectRef) -> set[str]:
        ids = {r.object_id} if r.object_id else set()
        if r.qualifier is not None and r.qualifier.anchor_id:
            ids.add(r.qualifier.anchor_id)
        return ids
    if isinstance(p, Go):
        return ref(p.target)
    if isinstance(p, Seq):
        return set().union(*(referenced(s, scene) for s in p.steps))
    assert isinstance(p, If)
    c = p.cond
    here = {o.id for o in scene.objects if o.label == c.label and o.room_id == c.room_id} \
        if isinstance(c, Presence) else ref(c.subject) | ref(c.reference)
    return here | referenced(p.then, scene) | referenced(p.else_, scene)


def labelled(fig: object, scene: Scene) -> set[str]:
    """Ids of the objects with a label on the drawn figure."""
    ax = fig.axes[0]  # type: ignore[attr-defined]
    at = {(t.get_text(), tuple(round(float(v), 6) for v in t.get_position())) for t in ax.texts}
    out = {t.get_gid() for t in ax.texts if t.get_gid()}
    for o in scene.objects:
        if (o.label, (round(o.center[0], 6), round(o.center[2], 6))) in at:
            out.add(o.id)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-scene", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="also save the pictures here")
    a = ap.parse_args()
    scenes = [generate_house(0, n_rooms=6), generate_house(1, n_rooms=6),
              import_scene(PROCTHOR / "house_0.json", "procthor", assets=PROCTHOR / "asset-database.json")]
    takes_refs = "referenced" in inspect.signature(render_scene_figure).parameters
    plain_missing = with_missing = n = 0
    t_labels = t_bare = 0.0
    for scene in scenes:
        t0 = time.perf_counter()
        fig = render_scene_figure(scene)
        t_labels += time.perf_counter() - t0
        t0 = time.perf_counter()
        render_scene_figure(scene, labels=False)
        t_bare += time.perf_counter() - t0
        if a.out is not None:
            a.out.mkdir(parents=True, exist_ok=True)
            fig.savefig(a.out / f"{scene.id}.png", dpi=100)
        shown = labelled(fig, scene)
        n_objects = len(scene.objects)
        for k, inst in enumerate(generate_instructions(scene, a.per_scene, a.seed)):
            refs = referenced(inst.program, scene)
            n += 1
            plain_missing += bool(refs - shown)
            if takes_refs:
                f2 = render_scene_figure(scene, referenced=refs)  # type: ignore[call-arg]
                with_missing += bool(refs - labelled(f2, scene))
                if a.out is not None and k < 2:
                    f2.savefig(a.out / f"{scene.id}_{k}.png", dpi=100)
        print(f"{scene.id}: {n_objects} objects, {len(shown)} labelled on the plain picture")
    print(f"instructions with a referenced object without a label: plain picture {plain_missing} "
          f"of {n}" + (f"; picture for the instruction {with_missing} of {n}" if takes_refs else
                       "; (scene show takes no instruction)"))
    print(f"drawing with labels: {t_labels / len(scenes):.2f} s per picture = "
          f"{t_labels / t_bare:.1f}x drawing without labels")


if __name__ == "__main__":
    main()
