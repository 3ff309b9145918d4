"""habitat-lab ObjectNav v1 files (SPEC §4), in habitat's content layout.

``<dir>/<split>.json.gz``: ``{"episodes": [], "category_to_task_category_id",
"category_to_scene_annotation_category_id"}`` (identical keys); one
``<dir>/content/<scene_id>.json.gz`` per scene with ``episodes`` (``goals: []``,
``object_category``) and ``goals_by_category["<basename(scene_id)>_<category>"]``: ObjectGoal
dicts (``position``, ``radius``, ``object_id`` (int index), ``object_name`` (navbench id),
``object_category``, ``view_points: []``). habitat resolves goals per content file, so the
shared basename ``scene.json`` never collides. Extra navbench fields live in ``info``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.episodes.model import Episode, Goal, check_episode
from navbench.episodes.vlnce import episode_id_to_json
from navbench.errors import EpisodeFormatError
from navbench.io import read_json, write_json_gz
from navbench.jsontypes import JSON, JSONObject
from navbench.paths import inside, safe_name

if TYPE_CHECKING:
    from navbench.scene.model import Scene

OBJECTNAV_EPISODE_KEYS = ("episode_id", "scene_id", "start_position", "start_rotation", "info",
                          "goals", "object_category")


def goals_key(scene_id: str, category: str) -> str:
    """habitat's ``ObjectGoalNavEpisode.goals_key``."""
    return f"{os.path.basename(scene_id)}_{category}"


def write_objectnav(folder: str | Path, split: str, episodes: Sequence[Episode], scenes: Sequence[Scene] = ()) -> Path:
    """Write ``folder/<split>.json.gz`` and ``folder/content/<scene>.json.gz`` (atomic, reproducible)."""
    folder = Path(folder)
    cats = sorted({e.object_category for e in episodes if e.object_category is not None})
    ids = {c: i for i, c in enumerate(cats)}
    by_scene: dict[str, list[Episode]] = {}
    for e in episodes:
        if e.object_category is None:
            raise EpisodeFormatError(str(folder), f"episode {e.episode_id}.object_category", "a category")
        by_scene.setdefault(str(e.navbench.get("scene", e.scene_id)), []).append(e)
    for sid in [s.id for s in scenes if s.id not in by_scene]:
        by_scene[sid] = []
    for sid, eps in sorted(by_scene.items()):
        goals: dict[str, list[JSONObject]] = {}
        out_eps = []
        for e in eps:
            key = goals_key(e.scene_id, e.object_category)  # type: ignore[arg-type]
            known = goals.setdefault(key, [])
            names = [g["object_name"] for g in known]
            for g in e.goals:
                if g.object_id not in names:
                    known.append({"position": list(g.position), "radius": g.radius,
                                  "object_id": len(known), "object_name": g.object_id,
                                  "object_category": e.object_category, "view_points": [],
                                  })
                    names.append(g.object_id)
            info = dict(e.info)
            info["geodesic_distance"] = e.geodesic_distance
            info["navbench"] = {**e.navbench, "goal_ids": [g.object_id for g in e.goals],
                                "goal_sizes": [None if g.size is None else list(g.size) for g in e.goals],
                                "reference_path": [list(p) for p in e.reference_path]}
            out_eps.append({"episode_id": episode_id_to_json(e.episode_id), "scene_id": e.scene_id,
                            "start_position": list(e.start_position), "start_rotation": list(e.start_rotation),
                            "info": info, "goals": [], "object_category": e.object_category})
        write_json_gz(inside(folder / "content", f"{safe_name(sid)}.json.gz"),
                      {"episodes": out_eps, "goals_by_category": dict(sorted(goals.items()))})
    return write_json_gz(folder / f"{split}.json.gz", {
        "episodes": [], "category_to_task_category_id": ids,
        "category_to_scene_annotation_category_id": dict(ids)})


def read_objectnav(path: str | Path) -> list[Episode]:
    """Read a split file and its ``content/`` files back into :class:`Episode` records."""
    path = Path(path)
    try:
        top = read_json(path)
    except (OSError, ValueError) as e:
        raise EpisodeFormatError(str(path), "<file>", "gzip/UTF-8 JSON", str(e)) from None
    if not isinstance(top, dict) or "category_to_task_category_id" not in top:
        raise EpisodeFormatError(str(path), "category_to_task_category_id", "an ObjectNav split file")
    if (not isinstance(top["category_to_task_category_id"], dict)
            or not isinstance(top.get("category_to_scene_annotation_category_id", {}), dict)):
        raise EpisodeFormatError(str(path), "category_to_task_category_id", "an object of category ids")
    if set(top["category_to_task_category_id"]) != set(top.get("category_to_scene_annotation_category_id", {})):
        raise EpisodeFormatError(str(path), "category_to_scene_annotation_category_id", "the same keys as category_to_task_category_id")
    out: list[Episode] = []
    files = [path, *sorted((path.parent / "content").glob("*.json.gz"))]
    for f in files:
        try:
            d = top if f == path else read_json(f)
        except (OSError, ValueError) as e:
            raise EpisodeFormatError(str(f), "<file>", "gzip/UTF-8 JSON", str(e)) from None
        if not isinstance(d, dict) or not isinstance(d.get("episodes", []), list):
            raise EpisodeFormatError(str(f), "episodes", "an object with an 'episodes' list")
        gbc = d.get("goals_by_category", {})
        for i, ep in enumerate(d.get("episodes", [])):
            w = f"episodes[{i}]"
            try:
                out.append(check_episode(_objectnav_episode(ep, gbc, str(f), w), str(f), w))
            except EpisodeFormatError:
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                raise EpisodeFormatError(str(f), w, "a habitat ObjectNav episode with its goals in "
                                         "goals_by_category", f"{type(e).__name__}: {e}") from None
    return sorted(out, key=lambda e: int(e.episode_id) if e.episode_id.isdigit() else 0)


def _objectnav_episode(ep: JSON, gbc: JSON, f: str, w: str) -> Episode:
    """One content-file episode (``ep``) with its goals from ``gbc`` (errors name ``f`` / ``w``)."""
    bad = set(ep) - set(OBJECTNAV_EPISODE_KEYS)
    if bad:
        raise EpisodeFormatError(str(f), f"{w}.{sorted(bad)[0]}", "no such key; extras belong in 'info'")
    key = goals_key(ep["scene_id"], ep["object_category"])
    if key not in gbc:
        raise EpisodeFormatError(str(f), f"goals_by_category.{key}", "goals for the episode's category")
    info = dict(ep["info"])
    nb = dict(info.get("navbench", {}))
    wanted = nb.pop("goal_ids", None)
    sizes = nb.pop("goal_sizes", None)
    ref = nb.pop("reference_path", [])
    info["navbench"] = nb
    geo = info.pop("geodesic_distance", float("nan"))
    by_name = {g["object_name"]: g for g in gbc[key]}
    names = wanted if wanted is not None else list(by_name)
    goals = tuple(Goal(tuple(by_name[nm]["position"]), by_name[nm]["radius"], nm,
                       None if sizes is None or sizes[j] is None else tuple(sizes[j]))
                  for j, nm in enumerate(names))
    return Episode(str(ep["episode_id"]), ep["scene_id"], tuple(ep["start_position"]),
                   tuple(ep["start_rotation"]), goals, None, tuple(tuple(p) for p in ref),
                   float(geo), 0, ep["object_category"], info)
