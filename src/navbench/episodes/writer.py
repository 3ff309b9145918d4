"""Write a built dataset's files and ``manifest.json`` (layout: :mod:`navbench.episodes.dataset`).

One vocabulary per R2R task, shared by its splits (token ids agree across splits); likewise one
ObjectNav / PlaceNav category → id mapping, from all the dataset's scenes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.episodes.conditional_build import controls_record
from navbench.episodes.layout import GENERATOR, R2R_TASKS, SCHEMA, group_counts, renumber
from navbench.episodes.model import Episode
from navbench.episodes.vlnce import build_vocab, write_gt, write_r2r
from navbench.io import write_json
from navbench.jsontypes import JSONObject
from navbench.paths import check_id, inside
from navbench.scene.model import Scene
from navbench.tasks.conditional.settings import GENERATOR as CONDITIONAL_GENERATOR

if TYPE_CHECKING:
    from navbench.episodes.dataset import DatasetSettings, SceneResult
    from navbench.episodes.loader import Manifest


def _files(task: str, split: str) -> dict[str, str]:
    d = {"episodes": f"{task}/{split}/{split}.json.gz"}
    if task in R2R_TASKS:
        d["gt"] = f"{task}/{split}/{split}_gt.json.gz"
    return d


def write_dataset(root: Path, scenes: Sequence[Scene], results: Sequence[SceneResult],
                  tasks: Sequence[str], splits: dict[str, list[str]], seed: int,
                  settings: DatasetSettings, fractions: dict[str, float]) -> Manifest:
    """Write scenes, episode files and the manifest under ``root``; returns the :class:`Manifest`."""
    from navbench.episodes.conditional import oracle_linear
    from navbench.episodes.loader import Manifest
    from navbench.scene.io import save
    from navbench.scene.meshfile import copy_side_files

    for sc in scenes:
        check_id(sc.id, "scenes", f"scene {sc.id!r}: id")
        path = inside(root, "scenes", sc.id, "scene.json")
        save(copy_side_files(sc, path.parent), path)  # mesh side files beside it: the folder can move
    by_scene = {r.scene_id: r for r in results}
    out_tasks = [t for t in ("conditional", "conditional_oracle", "objectnav", "placenav", "route")
                 if t in tasks or (t == "conditional_oracle" and "conditional" in tasks)]
    counts: JSONObject = {}
    mix: JSONObject = {}
    files: JSONObject = {}
    dropped: JSONObject = {}
    for task in out_tasks:
        src = "conditional" if task == "conditional_oracle" else task
        per_split: dict[str, list[tuple[Episode, JSONObject | None]]] = {}
        for split, ids in splits.items():
            items = [it for sid in ids for it in by_scene[sid].episodes.get(src, [])]
            items = renumber(items)
            if task == "conditional_oracle":
                items = list(zip(oracle_linear([e for e, _ in items]), [g for _, g in items], strict=True))
            per_split[split] = items
        vocab = build_vocab(e.instruction_text for its in per_split.values() for e, _ in its
                            if e.instruction_text is not None)
        counts[task], files[task] = {}, {}
        for split, items in per_split.items():
            eps = [e for e, _ in items]
            f = _files(task, split)
            if task in R2R_TASKS:
                write_r2r(root / f["episodes"], eps, vocab=vocab)
                write_gt(root / f["gt"], {e.episode_id: g for e, g in items if g is not None})
            else:
                from navbench.episodes.habitat_objectnav import task_categories, write_objectnav

                # one category → id mapping for every split (habitat's ObjectGoalSensor value)
                write_objectnav(root / task / split, split, eps,
                                scenes=[s for s in scenes if s.id in splits[split]],
                                categories=task_categories(task, scenes))
            files[task][split] = f
            counts[task][split] = group_counts(eps)
        if src in tasks:
            dropped[task] = {sid: r.dropped.get(src, {}) for sid, r in sorted(by_scene.items())
                             if r.dropped.get(src)}
        if task == "conditional":
            mix = conditional_mix([e for its in per_split.values() for e, _ in its], scenes,
                                  settings.categories)
    scene_info: dict[str, JSONObject] = {  # manifest JSON records
        sc.id: {"kind": sc.kind, "source": sc.source, "rooms": len(sc.rooms),
                "objects": len(sc.objects), "places": len(sc.places),
                "split": next(k for k, v in splits.items() if sc.id in v),
                "scene": f"scenes/{sc.id}/scene.json", "navmesh": f"navmeshes/{sc.id}.npz",
                "embodiment": settings.embodiment_for(sc.kind)}
        for sc in scenes
    }
    present = sorted({sc.kind for sc in scenes})
    kinds: dict[str, dict[str, int]] = {}
    for v in scene_info.values():
        kinds.setdefault(v["split"], {}).setdefault(v["kind"], 0)
        kinds[v["split"]][v["kind"]] += 1
    doc = {
        "schema": SCHEMA,
        "generator": GENERATOR,
        "generator_versions": _versions(scenes),
        "seed": seed,
        "tasks": list(out_tasks),
        "split_fractions": fractions,
        "splits": splits,
        "scenes_by_kind": kinds,
        "embodiment": settings.embodiment,
        "embodiments": {k: settings.embodiment_for(k) for k in present},
        "navmesh_settings": {k: settings.nav_settings(k).to_dict() for k in present},
        "settings": settings.to_dict(),
        "counts": counts,
        "dropped": dropped,
        "resampled": {t: {sid: r.resampled[t] for sid, r in sorted(by_scene.items())
                          if r.resampled.get(t)} for t in tasks
                      if any(r.resampled.get(t) for r in results)},
        **({"conditional_mix": mix,
            "conditional_instructions": {"generator": CONDITIONAL_GENERATOR,
                                         **controls_record(settings, present)}}
           if "conditional" in tasks else {}),
        "files": files,
        "scenes": scene_info,
    }
    write_json(root / "manifest.json", doc)
    return Manifest.from_dict(doc, str(root / "manifest.json"))


def conditional_mix(eps: Sequence[Episode], scenes: Sequence[Scene],
                    categories: Sequence[str] | None) -> JSONObject:
    """Requested vs achieved category shares (after drops; ``max_deviation`` in share points,
    i.e. percentage points / 100), the share of episodes with subgoals, and the instruction
    audit census per category (:func:`navbench.tasks.conditional.audit_instructions`)."""
    from collections import Counter

    from navbench.episodes.conditional import episode_instruction
    from navbench.tasks.conditional import CATEGORIES, audit_instructions

    cats = list(categories or CATEGORIES)
    n = len(eps)
    got = Counter(e.navbench["category"] for e in eps)
    requested = {c: round(1 / len(cats), 6) for c in cats}
    achieved = {c: round(got[c] / n, 6) if n else 0.0 for c in cats}
    insts = [episode_instruction(e) for e in eps]
    return {
        "episodes": n,
        "requested": requested,
        "achieved": achieved,
        "max_deviation": round(max((abs(achieved[c] - requested[c]) for c in cats), default=0.0), 6),
        "subgoal_share": round(sum(bool(e.navbench["subgoals"]) for e in eps) / n, 6) if n else 0.0,
        "audit": audit_instructions(insts, {sc.id: sc for sc in scenes}),
    }


def _versions(scenes: Sequence[Scene]) -> dict[str, list[str]]:
    """The generator or converter versions the dataset's scenes were made with, by scene kind
    (from each scene's ``meta``: procedural ``version``, hybrids' ``hybrid_version`` and
    ``house_version``, loaders' ``converter_version``); a kind whose scenes carry none is left
    out."""
    out: dict[str, set[str]] = {}
    for sc in scenes:
        for key in ("version", "hybrid_version", "house_version", "converter_version"):
            v = sc.meta.get(key)
            if isinstance(v, str):
                out.setdefault(sc.kind, set()).add(v)
    return {k: sorted(v) for k, v in sorted(out.items())}
