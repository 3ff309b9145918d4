"""habitat-lab ObjectNav v1 files (SPEC §4), in habitat's content layout.

``<dir>/<split>.json.gz``: ``{"episodes": [], "category_to_task_category_id",
"category_to_scene_annotation_category_id"}``: one mapping for the whole dataset (the same in
every split file), sorted category → 0..n-1; navbench scenes carry labels, not annotation
ids, so the scene-annotation mapping holds the same ids. One
``<dir>/content/<scene_id>.json.gz`` per scene with ``episodes`` (``goals: []``,
``object_category``) and ``goals_by_category["<basename(scene_id)>_<category>"]``: habitat
gives every episode of that scene and category this goal list, so navbench writes (and scores)
one goal list per key and refuses episodes of a key with other goals. Each goal is an
ObjectGoal dict: ``position``, ``radius``, ``object_id`` (the scene's instance id: the index of
the object in the scene's ``objects`` list, of the place in ``places`` for PlaceNav; without the
scene, the index among the file's goal names sorted), ``object_name`` (navbench id),
``object_category`` and ``view_points`` (ObjectViewLocation dicts: ``agent_state``
{``position``: an approach point on the navmesh, ``rotation``: yaw facing the goal position,
[x, y, z, w]}, ``iou``: null, not computed). habitat resolves goals per content file, so the
shared basename ``scene.json`` never collides. Extra navbench fields live in ``info``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.episodes.model import Episode, Goal, check_episode
from navbench.episodes.vlnce import episode_id_to_json
from navbench.errors import EpisodeFormatError, in_words
from navbench.geometry import yaw_of_direction, yaw_to_quaternion
from navbench.io import read_json, write_json_gz
from navbench.jsontypes import JSON, JSONObject
from navbench.paths import inside, safe_name

if TYPE_CHECKING:
    from navbench.scene.model import Scene

OBJECTNAV_EPISODE_KEYS = ("episode_id", "scene_id", "start_position", "start_rotation", "info",
                          "goals", "object_category")
#: Fields of habitat-lab's ``Episode`` / ``NavigationEpisode`` that HM3D / MP3D ObjectNav files
#: carry and navbench reads past (it never writes them: VLN-CE pins habitat 0.1.7, SPEC §4).
HABITAT_ONLY_EPISODE_KEYS = ("start_room", "shortest_paths", "scene_dataset_config",
                             "additional_obj_config_paths")


def goals_key(scene_id: str, category: str) -> str:
    """habitat's ``ObjectGoalNavEpisode.goals_key``."""
    return f"{os.path.basename(scene_id)}_{category}"


def task_categories(task: str, scenes: Iterable[Scene]) -> list[str]:
    """Every goal category ``task`` can ask for in ``scenes``, sorted: the object labels
    (``objectnav``) or place categories (``placenav``) of all of them."""
    if task == "placenav":
        return sorted({p.category for sc in scenes for p in sc.places})
    return sorted({o.label for sc in scenes for o in sc.objects})


def view_location(point: Sequence[float], goal: Sequence[float]) -> JSONObject:
    """habitat's ObjectViewLocation dict for a navigable ``point`` (m): ``agent_state`` with the
    yaw facing ``goal`` (XZ; yaw 0 when the two coincide), ``iou`` null (not computed)."""
    yaw = yaw_of_direction(goal[0] - point[0], goal[2] - point[2])
    return {"agent_state": {"position": [float(c) for c in point],
                            "rotation": yaw_to_quaternion(yaw)}, "iou": None}


def _instance_ids(scene: Scene | None, task: str, names: Sequence[str]) -> dict[str, int]:
    """navbench goal id → habitat ``object_id``: the index in the scene's ``objects`` (or
    ``places`` for PlaceNav), else (no scene) the index among ``names`` sorted."""
    if scene is None:
        return {nm: i for i, nm in enumerate(sorted(set(names)))}
    ids = [p.id for p in scene.places] if task == "placenav" else [o.id for o in scene.objects]
    return {x: i for i, x in enumerate(ids)}


def write_objectnav(folder: str | Path, split: str, episodes: Sequence[Episode],
                    scenes: Sequence[Scene] = (), categories: Iterable[str] | None = None) -> Path:
    """Write ``folder/<split>.json.gz`` and ``folder/content/<scene>.json.gz`` (atomic,
    reproducible). ``categories``: the dataset's category catalogue (pass the same one for
    every split, e.g. :func:`task_categories` of all its scenes); default: the episodes'.

    Raises:
        EpisodeFormatError: an episode without a category or outside ``categories``, a goal
            without an object id (or one its scene lacks), or two episodes of one scene and
            category with different goals (habitat would give both the same ones).
    """
    folder = Path(folder)
    for e in episodes:
        if e.object_category is None:
            raise EpisodeFormatError(str(folder), f"episode {e.episode_id}.object_category", "a category")
    cats = sorted(set(categories) if categories is not None
                  else {str(e.object_category) for e in episodes})
    ids = {c: i for i, c in enumerate(cats)}
    by_scene: dict[str, list[Episode]] = {}
    for e in episodes:
        if e.object_category not in ids:
            raise EpisodeFormatError(str(folder), f"episode {e.episode_id}.object_category",
                                     "a category of the dataset's catalogue", e.object_category)
        by_scene.setdefault(str(e.navbench.get("scene", e.scene_id)), []).append(e)
    for sid in [s.id for s in scenes if s.id not in by_scene]:
        by_scene[sid] = []
    scene_index = {s.id: s for s in scenes}
    for sid, eps in sorted(by_scene.items()):
        f = str(inside(folder / "content", f"{safe_name(sid)}.json.gz"))
        names = [str(g.object_id) for e in eps for g in e.goals]
        task = str(eps[0].navbench.get("task", "objectnav")) if eps else "objectnav"
        inst = _instance_ids(scene_index.get(sid), task, names)
        goals: dict[str, list[JSONObject]] = {}
        first: dict[str, tuple[Goal, ...]] = {}
        out_eps = []
        for e in eps:
            cat = str(e.object_category)
            key = goals_key(e.scene_id, cat)
            if key not in first:
                first[key] = e.goals
                goals[key] = [_goal_dict(g, cat, inst, f, e.episode_id) for g in e.goals]
            elif set(e.goals) != set(first[key]):  # ids, positions, radii, sizes, view points
                raise EpisodeFormatError(f, f"episode {e.episode_id}.goals",
                                         f"the goals of every other {cat!r} episode of the scene "
                                         f"(habitat gives all of them goals_by_category[{key!r}])",
                                         sorted(str(g.object_id) for g in e.goals))
            order = {g.object_id: j for j, g in enumerate(first[key])}
            mine = sorted(e.goals, key=lambda g: order[g.object_id])
            info = dict(e.info)
            info["geodesic_distance"] = e.geodesic_distance
            sizes = [None if g.size is None else list(g.size) for g in mine]
            info["navbench"] = {**e.navbench, "goal_ids": [g.object_id for g in mine],
                                "goal_sizes": sizes,
                                "reference_path": [list(p) for p in e.reference_path]}
            out_eps.append({"episode_id": episode_id_to_json(e.episode_id), "scene_id": e.scene_id,
                            "start_position": list(e.start_position), "start_rotation": list(e.start_rotation),
                            "info": info, "goals": [], "object_category": cat})
        write_json_gz(f, {"episodes": out_eps, "goals_by_category": dict(sorted(goals.items()))})
    return write_json_gz(folder / f"{split}.json.gz", {
        "episodes": [], "category_to_task_category_id": ids,
        "category_to_scene_annotation_category_id": dict(ids)})


def _goal_dict(g: Goal, category: str, inst: dict[str, int], f: str, eid: str) -> JSONObject:
    """One ObjectGoal dict (habitat's keys only)."""
    if g.object_id is None or g.object_id not in inst:
        raise EpisodeFormatError(f, f"episode {eid}.goals.object_id",
                                 "the id of an object (PlaceNav: a place) of the scene",
                                 g.object_id)
    return {"position": list(g.position), "radius": g.radius, "object_id": inst[g.object_id],
            "object_name": g.object_id, "object_category": category,
            "view_points": [view_location(p, g.position) for p in g.view_points]}


def read_objectnav(path: str | Path) -> list[Episode]:
    """Read a split file and its ``content/`` files back into :class:`Episode` records.

    An episode's goals are all of ``goals_by_category[key]`` (habitat's semantics); a file whose
    ``info.navbench.goal_ids`` names other goals, whose category is not in
    ``category_to_task_category_id``, or whose ``object_id`` stands for two goals of a scene is
    rejected (:class:`~navbench.errors.EpisodeFormatError`).
    """
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
    cats = top["category_to_task_category_id"]
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
        if d.get("episodes"):
            _check_instance_ids(gbc, str(f))
        for i, ep in enumerate(d.get("episodes", [])):
            w = f"episodes[{i}]"
            try:
                if ep["object_category"] not in cats:
                    raise EpisodeFormatError(str(f), f"{w}.object_category",
                                             "a key of category_to_task_category_id",
                                             ep["object_category"])
                out.append(check_episode(_objectnav_episode(ep, gbc, str(f), w), str(f), w))
            except EpisodeFormatError:
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                raise EpisodeFormatError(str(f), w, "a habitat ObjectNav episode with its goals in "
                                         "goals_by_category", in_words(e)) from None
    return sorted(out, key=lambda e: int(e.episode_id) if e.episode_id.isdigit() else 0)


def _check_instance_ids(gbc: JSON, f: str) -> None:
    """One ``object_id`` per ``object_name`` and back, across a content file's goal lists."""
    try:
        pairs = {(g["object_id"], g["object_name"]) for gs in gbc.values() for g in gs}
    except (KeyError, TypeError, AttributeError) as e:
        raise EpisodeFormatError(f, "goals_by_category", "lists of ObjectGoal objects",
                                 in_words(e)) from None
    for k in (0, 1):
        seen: dict[object, object] = {}
        for p in sorted(pairs, key=str):
            if seen.setdefault(p[k], p[1 - k]) != p[1 - k]:
                raise EpisodeFormatError(f, "goals_by_category",
                                         "one object_id per object_name (habitat's instance id)",
                                         p[k])


def _objectnav_episode(ep: JSON, gbc: JSON, f: str, w: str) -> Episode:
    """One content-file episode (``ep``) with its goals from ``gbc`` (errors name ``f`` / ``w``)."""
    bad = set(ep) - set(OBJECTNAV_EPISODE_KEYS) - set(HABITAT_ONLY_EPISODE_KEYS)
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
    names = [g["object_name"] for g in gbc[key]]
    if wanted is not None and sorted(map(str, wanted)) != sorted(map(str, names)):
        raise EpisodeFormatError(str(f), f"{w}.info.navbench.goal_ids",
                                 f"the object_name of every goal of goals_by_category.{key} "
                                 "(habitat scores all of them)", wanted)
    size_of = {} if wanted is None or sizes is None else dict(zip(wanted, sizes, strict=True))
    goals = []
    for g in gbc[key]:
        size = size_of.get(g["object_name"])
        vps = tuple(tuple(v["agent_state"]["position"]) for v in g.get("view_points") or ())
        goals.append(Goal(tuple(g["position"]), g["radius"], g["object_name"],
                          None if size is None else tuple(size), vps))
    return Episode(str(ep["episode_id"]), ep["scene_id"], tuple(ep["start_position"]),
                   tuple(ep["start_rotation"]), tuple(goals), None, tuple(tuple(p) for p in ref),
                   float(geo), 0, ep["object_category"], info)
