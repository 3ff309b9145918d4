"""``navbench dataset check DATASET``: re-validate a (possibly hand-edited) dataset directory.

Checks, collecting every problem instead of stopping at the first:

- **format**: ``manifest.json``, every scene file, navmesh and episode / GT file loads with the
  readers' validation (field types, finite numbers, unit start quaternions, τ, subgoal and
  branch-goal points, program trees, safe paths inside the dataset); episode scene references
  resolve to a scene of the manifest, and an episode's ``scene_id`` (the file habitat-lab
  loads) is that scene's file;
- **manifest against the files** (:func:`manifest_problems`): every task × split the manifest
  lists has its files, its counts match the episodes read, its splits name its scenes, and
  every R2R episode has its ``_gt`` record;
- **programs** (conditional, :mod:`navbench.episodes.check_program`): the program names objects
  and rooms of the scene, and its truths select the recorded branch path, goal and subgoals;
- **reachability**: every start lies on the navmesh (within :data:`SNAP_TOLERANCE` m) and a goal
  is reachable from it by the evaluator's rule (:func:`~navbench.episodes.reachability.
  start_geodesic`: a finite geodesic to a goal, or, for an object goal whose centre lies in
  furniture too far from the floor to snap, a reachable reference-path end within τ of it);
- **τ**: ``info.navbench.success_distance`` (when present) is a finite number > 0, and a
  conditional episode's reference path ends within τ of its goal;
- **subgoals** (conditional): every subgoal is reachable, and the recorded
  ``geodesic_distance`` equals start → subgoals → goal on the navmesh within
  :data:`LENGTH_TOLERANCE` (relative) + 0.05 m;
- **rooms** (conditional, route: goals that are navigable points): the goal, every subgoal and
  every branch goal of a target object in a room (``room_id``) lies inside that room's floor
  polygon (XZ, :func:`navbench.geometry.point_in_polygon`), not through a wall
  (:mod:`navbench.episodes.approach`).

The command also checks that each episode's action budget covers its reference path
(:func:`navbench.eval.budget_check.check_budgets`, downstream of this module: the CLI joins both).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.episodes.approach import object_room
from navbench.episodes.check_program import program_problems
from navbench.episodes.model import Episode
from navbench.episodes.reachability import start_geodesic
from navbench.errors import FormatError, NavbenchError
from navbench.geometry import point_in_polygon
from navbench.jsontypes import JSON, JSONObject

if TYPE_CHECKING:
    from navbench.episodes.loader import Dataset
    from navbench.nav import NavMesh
    from navbench.scene.model import Scene

#: Largest distance (m) from a start to the navigable surface accepted.
SNAP_TOLERANCE = 0.2
#: Relative tolerance of the recorded path length against the navmesh's.
LENGTH_TOLERANCE = 0.02


@dataclass(frozen=True)
class Problem:
    """One finding: the file, the field (JSON path or episode id) and what is wrong."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}"


def _problem(err: NavbenchError, file: str, field: str) -> Problem:
    """A reader's error as a problem: a :class:`FormatError` keeps its own file and field (its
    message without the "FILE: field 'F': " prefix, which the report prints anyway)."""
    if isinstance(err, FormatError):
        text, prefix = str(err), f"{err.file}: field '{err.field}': "
        return Problem(err.file, err.field, text.removeprefix(prefix))
    return Problem(file, field, str(err))


@dataclass
class CheckReport:
    """What :func:`check_dataset` looked at and found."""

    files: int = 0
    episodes: int = 0
    problems: list[Problem] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def _positions(items: JSON) -> list[np.ndarray]:
    out = []
    for it in items or []:
        p = it.get("position") if isinstance(it, dict) else it
        out.append(np.asarray(p, dtype=float).reshape(3))
    return out


def _xyz(p: np.ndarray) -> list[float]:
    return [round(float(c), 3) for c in p]


def _episode_problems(e: Episode, nm: NavMesh, file: str) -> list[str]:
    found: list[str] = []
    start = np.asarray(e.start_position, float)
    snapped = nm.snap_point(start)
    if snapped is None or float(np.linalg.norm(np.asarray(snapped)[[0, 2]] - start[[0, 2]])) > SNAP_TOLERANCE:
        found.append(f"start_position {_xyz(start)} is not on the navmesh "
                     f"(tolerance {SNAP_TOLERANCE} m)")
        return found
    goals = [np.asarray(g.position, float) for g in e.goals]
    if not goals:
        return [*found, "no goals"]
    if not math.isfinite(start_geodesic(nm, e)):  # the evaluator's rule (object goals in furniture)
        found.append("no goal is reachable from the start")
    nb = e.navbench
    if (nb.get("task") in ("conditional", "route") or "program" in nb) and not (e.instruction_text or "").strip():
        found.append("instruction: expected the instruction text the agent follows, got none")
    tau = nb.get("success_distance")
    if tau is not None and not tau > 0:
        found.append(f"info.navbench.success_distance: expected τ > 0, got {tau!r}")
    if nb.get("task") == "conditional" or "program" in nb:
        if tau is not None and e.reference_path:
            end = np.asarray(e.reference_path[-1], float)
            d = min(float(np.linalg.norm(end - g)) for g in goals)
            if d > float(tau) + 1e-6:
                found.append(f"reference_path ends {d:.3f} m from the goal, beyond τ = {tau}")
        try:
            subs = _positions(nb.get("subgoals"))
        except (TypeError, ValueError):
            return [*found, "info.navbench.subgoals: expected [x, y, z] or {position: [x, y, z]} items"]
        length, here = 0.0, start
        for k, p in enumerate([*subs, goals[0]]):
            leg = nm.geodesic_distance(here, p)
            if not math.isfinite(leg):
                what = f"subgoal {k}" if k < len(subs) else "the goal"
                found.append(f"{what} at {_xyz(p)} is not reachable from the previous point")
                return found
            length, here = length + leg, p
        rec = e.geodesic_distance
        if math.isfinite(rec) and abs(rec - length) > LENGTH_TOLERANCE * length + 0.05:
            found.append(f"info.geodesic_distance {rec:.3f} m, but start → subgoals → goal is "
                         f"{length:.3f} m on the navmesh")
    return found


def room_problems(e: Episode, scene: Scene) -> list[str]:
    """Goal / subgoal / branch-goal points of in-room targets that lie outside the target's
    room (conditional and route episodes, whose goals are approach points)."""
    nb = e.navbench
    if nb.get("task") not in ("conditional", "route") and "program" not in nb:
        return []
    items: list[tuple[str, object, object]] = [("goal", g.object_id, g.position) for g in e.goals]
    for key, what in (("subgoals", "subgoal"), ("branch_goals", "branch goal")):
        for k, it in enumerate(nb.get(key) or []):
            if isinstance(it, dict):
                items.append((f"{what} {k}", it.get("object_id"), it.get("position")))
    found = []
    for what, oid, pos in items:
        room = object_room(scene, oid) if isinstance(oid, str) else None
        if room is None:  # outdoors, or not a scene object (a place)
            continue
        try:
            p = np.asarray(pos, dtype=float).reshape(3)
        except (TypeError, ValueError):
            continue  # malformed positions are reported by the format rules
        if not point_in_polygon((p[0], p[2]), room.floor_polygon):
            there = scene.room_at(float(p[0]), float(p[2]), float(p[1]))
            found.append(f"{what} at {_xyz(p)} is outside room {room.id!r} of its target object "
                         f"{oid!r} (it lies in {'room ' + repr(there.id) if there else 'no room'})")
    return found


def check_dataset(root: str | Path, *, loaded: Mapping[str, tuple[Scene, NavMesh]] | None = None) -> CheckReport:
    """Check the dataset at ``root`` (see the module docs); never raises for a bad dataset.

    ``loaded``: scenes and navmeshes already read, by scene id (re-checking many edits of one
    dataset); the others are read from the dataset.

    Raises:
        NavbenchError: only when ``root`` has no readable ``manifest.json`` at all.
    """
    from navbench.episodes.loader import load_dataset

    ds = load_dataset(root)  # manifest problems are fatal: nothing else can be located
    rep = CheckReport(files=1, problems=[])
    problems = rep.problems
    assert problems is not None
    navmeshes: dict[str, NavMesh] = {}
    scenes: dict[str, Scene] = {}
    for sid in sorted(ds.manifest.scenes):
        rep.files += 2
        if loaded is not None and sid in loaded:
            scenes[sid], navmeshes[sid] = loaded[sid]
            continue
        try:
            scene = ds.scene(sid)
            if scene.id != sid:
                problems.append(Problem(str(ds.scene_path(sid)), "id",
                                        f"expected {sid!r} (the manifest's key), got {scene.id!r}"))
            navmeshes[sid] = ds.navmesh(sid)
            scenes[sid] = scene
        except NavbenchError as err:
            problems.append(_problem(err, f"scene {sid}", "<file>"))
    problems.extend(manifest_problems(ds))
    for task in ds.tasks:
        for split in ds.splits:
            try:
                path = ds.path(task, split)
            except NavbenchError:
                continue  # reported by manifest_problems
            rep.files += 1
            try:
                eps = ds.episodes(task, split)
                if task not in ("objectnav", "placenav"):
                    rep.files += 1
                    gt = ds.gt(task, split)
                    problems.extend(Problem(str(ds.path(task, split, "gt")), f"episode {e.episode_id}",
                                            "no ground-truth record (locations, actions)")
                                    for e in eps if e.episode_id not in gt)
            except NavbenchError as err:
                problems.append(_problem(err, str(path), "<file>"))
                continue
            total = _count(ds.manifest.counts, task, split)
            if total is not None and total != len(eps):
                problems.append(Problem(str(ds.root / "manifest.json"), f"counts.{task}.{split}.total",
                                        f"the file holds {len(eps)} episodes, the manifest says {total}"))
            for e in eps:
                rep.episodes += 1
                sid = str(e.navbench.get("scene") or Path(e.scene_id).name.split(".")[0])
                where = f"episode {e.episode_id}"
                entry = ds.manifest.scenes.get(sid)
                want = entry.get("scene") if isinstance(entry, dict) else None
                if want is not None and e.scene_id != want:  # habitat-lab loads scene_id
                    problems.append(Problem(str(path), f"{where}.scene_id", f"expected {want!r} "
                                            f"(the file of scene {sid!r}), got {e.scene_id!r}"))
                if sid not in navmeshes:
                    known = sid in ds.manifest.scenes
                    problems.append(Problem(str(path), where, f"scene {sid!r} "
                                            + ("could not be loaded" if known else "is not in the manifest")))
                    continue
                problems.extend(Problem(str(path), where, m)
                                for m in _episode_problems(e, navmeshes[sid], str(path)))
                problems.extend(Problem(str(path), where, m) for m in room_problems(e, scenes[sid]))
                problems.extend(Problem(str(path), where, m) for m in program_problems(e, scenes[sid]))
    return rep


def _count(counts: JSONObject, task: str, split: str) -> int | None:
    t = counts.get(task)
    s = t.get(split) if isinstance(t, dict) else None
    n = s.get("total") if isinstance(s, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def manifest_problems(ds: Dataset) -> list[Problem]:
    """The manifest against the files: every task × split it lists has its files (episodes, and
    ``_gt`` for R2R tasks), no files of tasks it does not list, every split's scene is one of its
    scenes, and every count it gives is a number."""
    mf = str(ds.root / "manifest.json")
    found = []
    files = ds.manifest.files
    for task in ds.tasks:
        for split in ds.splits:
            entry = files.get(task, {}).get(split) if isinstance(files.get(task), dict) else None
            kinds = ("episodes",) if task in ("objectnav", "placenav") else ("episodes", "gt")
            for kind in kinds:
                if not isinstance(entry, dict) or not isinstance(entry.get(kind), str):
                    found.append(Problem(mf, f"files.{task}.{split}.{kind}", f"a path (the manifest lists "
                                         f"task {task!r} and split {split!r}), got none"))
    for task in sorted(set(files) - set(ds.tasks)):
        found.append(Problem(mf, f"files.{task}", f"a task of 'tasks' {list(ds.tasks)}, got files of {task!r}"))
    for split, ids in ds.manifest.splits.items():
        for sid in ids:
            if sid not in ds.manifest.scenes:
                found.append(Problem(mf, f"splits.{split}", f"scene {sid!r} is not in 'scenes'"))
    for task, per in ds.manifest.counts.items():
        for split, c in (per.items() if isinstance(per, dict) else []):
            n = c.get("total") if isinstance(c, dict) else None
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
                found.append(Problem(mf, f"counts.{task}.{split}.total", f"a count >= 0, got {n!r}"))
    return found
