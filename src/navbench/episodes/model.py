"""The Episode record shared by every task, writer and reader (SPEC §4).

Positions are Habitat world-frame metres (+Y up, forward -Z); rotations are quaternions
``[x, y, z, w]``. An :class:`Episode` is format-neutral: the VLN-CE/R2R writer
(:mod:`navbench.episodes.vlnce`) and other writers map it onto their own layouts.

Conventions for ``info["navbench"]`` (navbench metadata; read by :mod:`navbench.metrics`):

- ``success_distance`` (m), ``task``, ``source``, ``scene``, ``scene_kind``, ``depth``,
  ``chain_length``, ... : free-form facts used for grouping results;
- ``subgoals``: ordered subgoals of the correct branch, each ``[x, y, z]`` or
  ``{"position": [x, y, z], ...}``;
- ``branch_goals``: goals of every *other* branch, same item forms;
- ``goals`` and ``object_category`` are reserved for the R2R writer (extra goal fields).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from navbench.jsontypes import JSONMapping, JSONObject

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


def _vec(v: Sequence[float], n: int, name: str) -> tuple[float, ...]:
    t = tuple(float(x) for x in v)
    if len(t) != n:
        raise ValueError(f"{name}: expected {n} numbers, got {len(t)}")
    return t


@dataclass(frozen=True)
class Goal:
    """One goal instance.

    Attributes:
        position: goal point (m, world frame); for objects, the object centre.
        radius: habitat's success radius for this goal (m), or ``None``.
        object_id: scene object id of the goal, if any.
        size: full extent ``(sx, sy, sz)`` of the goal object (m), if known; NavVerse's
            ``r_goal = ½ max(sx, sz)`` is derived from it.
        view_points: navigable points (m, world frame) next to the object from which it counts
            as reached (ObjectNav / PlaceNav approach points; habitat's ``view_points``), if any.
    """

    position: Vec3
    radius: float | None = None
    object_id: str | None = None
    size: Vec3 | None = None
    view_points: tuple[Vec3, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", _vec(self.position, 3, "Goal.position"))
        if self.radius is not None:
            object.__setattr__(self, "radius", float(self.radius))
        if self.size is not None:
            object.__setattr__(self, "size", _vec(self.size, 3, "Goal.size"))
        object.__setattr__(self, "view_points",
                           tuple(_vec(p, 3, "Goal.view_points[]") for p in self.view_points))

    @property
    def extent_radius(self) -> float:
        """NavVerse goal radius ``½ max(sx, sz)`` of the horizontal size (m); 0 when unknown."""
        if self.size is None:
            return 0.0
        return 0.5 * max(self.size[0], self.size[2])


def _goal(g: Goal | JSONMapping) -> Goal:
    """A :class:`Goal`, or one built from its fields (a JSON object)."""
    return g if isinstance(g, Goal) else Goal(**g)


@dataclass(frozen=True)
class Episode:
    """A navigation episode, independent of any file format.

    Attributes:
        episode_id: unique id in its split (a string; all-digit ids are written as ints).
        scene_id: scene path or id as the target simulator expects it.
        start_position: start of the agent base (m, world frame).
        start_rotation: start orientation quaternion ``[x, y, z, w]``.
        goals: goal instances (several for ObjectNav-like tasks; distances use the nearest).
        instruction_text: natural-language instruction, if the task has one.
        reference_path: reference locations for nDTW/SDTW (m).
        geodesic_distance: shortest-path length L from start to the nearest goal (m);
            ``nan`` = unknown, ``inf`` = unreachable.
        trajectory_id: R2R trajectory id (instructions sharing a path share it).
        object_category: goal category for ObjectNav-like tasks.
        info: extra fields (JSON-able); navbench metadata under ``info["navbench"]``.
    """

    episode_id: str
    scene_id: str
    start_position: Vec3
    start_rotation: Quat
    goals: tuple[Goal, ...]
    instruction_text: str | None = None
    reference_path: tuple[Vec3, ...] = ()
    geodesic_distance: float = math.nan
    trajectory_id: int = 0
    object_category: str | None = None
    info: JSONObject = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "episode_id", str(self.episode_id))
        object.__setattr__(
            self, "start_position", _vec(self.start_position, 3, "Episode.start_position")
        )
        object.__setattr__(
            self, "start_rotation", _vec(self.start_rotation, 4, "Episode.start_rotation")
        )
        object.__setattr__(
            self, "goals", tuple(_goal(g) for g in self.goals)
        )
        object.__setattr__(
            self,
            "reference_path",
            tuple(_vec(p, 3, "Episode.reference_path[]") for p in self.reference_path),
        )
        object.__setattr__(self, "geodesic_distance", float(self.geodesic_distance))
        object.__setattr__(self, "trajectory_id", int(self.trajectory_id))

    @property
    def navbench(self) -> JSONObject:
        """``info["navbench"]`` (an empty dict when absent)."""
        nb = self.info.get("navbench")
        return nb if isinstance(nb, dict) else {}


#: ``info.navbench`` fields checked at load: name → (accepted JSON types, expectation).
NAVBENCH_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "scene": ((str,), "a scene id string"),
    "task": ((str,), "a task name string"),
    "scene_kind": ((str,), "a scene kind string"),
    "program": ((dict,), "a program object"),
    "truths": ((dict,), "an object of condition truths"),
    "branch_path": ((list,), "a list of branch names (\"then\" / \"else\")"),
    "branch_index": ((int,), "an integer (the branch's position among the program's outcomes)"),
    "subgoals": ((list,), "a list of subgoals"),
    "branch_goals": ((list, dict), "a list or object of branch goals"),
    "oracle_text": ((str,), "a string"),
}


#: Largest accepted deviation of a start quaternion's norm from 1 (files round to ~6 digits;
#: a zero or scaled quaternion is no rotation at all).
QUAT_NORM_TOLERANCE = 1e-2


def _point(v: object) -> bool:
    """Three finite numbers (not bools): an ``[x, y, z]`` point."""
    return isinstance(v, (list, tuple)) and len(v) == 3 and all(_finite(c) for c in v)


def _point_items(items: object, field_: str) -> tuple[str, str, object] | None:
    """The first malformed item of a subgoal / branch-goal list, as (field, expectation, value);
    items are ``[x, y, z]`` or ``{"position": [x, y, z], ...}`` (SPEC §3 ground truth)."""
    if isinstance(items, dict) and not items:
        return None  # an empty object: no branch goals
    if not isinstance(items, list):
        return field_, "a list of [x, y, z] points or {position: [x, y, z]} objects", items
    for k, it in enumerate(items):
        if isinstance(it, dict):
            if not _point(it.get("position")):
                return f"{field_}[{k}].position", "3 finite numbers [x, y, z]", it.get("position", "missing")
        elif not _point(it):
            return f"{field_}[{k}]", "[x, y, z] or an object with a 'position'", it
    return None


def _finite(v: object) -> bool:
    return (not isinstance(v, bool) and isinstance(v, (int, float))
            and (isinstance(v, float) or abs(v) < 1e300) and math.isfinite(v))


def check_episode(e: Episode, file: str, where: str) -> Episode:
    """``e`` if its numbers are finite and its ``info.navbench`` fields have their types, else an
    :class:`~navbench.errors.EpisodeFormatError` naming ``file`` and the field under ``where``.

    Checked: start position / rotation (a unit quaternion within :data:`QUAT_NORM_TOLERANCE`),
    goal positions and view points, radii (finite, >= 0) and sizes (> 0), reference path points,
    ``geodesic_distance`` (>= 0; ``nan`` unknown and ``inf`` unreachable allowed),
    ``info.navbench.success_distance`` (τ: a finite number >= 0 or null), the types of
    :data:`NAVBENCH_FIELDS`, the program tree (it parses), every subgoal and branch goal (``[x, y, z]`` or ``{"position":
    [x, y, z]}``, finite) and ``direct_geodesic_distance`` (finite, >= 0, or null).
    """
    from navbench.errors import EpisodeFormatError

    def bad(field_: str, expected: str, got: object) -> EpisodeFormatError:
        return EpisodeFormatError(file, f"{where}.{field_}", expected, got)

    if not all(math.isfinite(c) for c in e.start_position):
        raise bad("start_position", "3 finite numbers", e.start_position)
    if not all(math.isfinite(c) for c in e.start_rotation):
        raise bad("start_rotation", "4 finite numbers", e.start_rotation)
    norm = math.sqrt(sum(c * c for c in e.start_rotation))
    if abs(norm - 1.0) > QUAT_NORM_TOLERANCE:
        raise bad("start_rotation", f"a unit quaternion [x, y, z, w] (norm 1 ± {QUAT_NORM_TOLERANCE:g})",
                  f"norm {norm:.4g}")
    for j, g in enumerate(e.goals):
        if not all(math.isfinite(c) for c in g.position):
            raise bad(f"goals[{j}].position", "3 finite numbers", g.position)
        if g.radius is not None and not (math.isfinite(g.radius) and g.radius >= 0):
            raise bad(f"goals[{j}].radius", "a finite number >= 0 or null", g.radius)
        if g.size is not None and not all(math.isfinite(c) and c > 0 for c in g.size):
            raise bad(f"goals[{j}].size", "3 finite positive numbers", g.size)
        for k, vp in enumerate(g.view_points):
            if not all(math.isfinite(c) for c in vp):
                raise bad(f"goals[{j}].view_points[{k}]", "3 finite numbers", vp)
    for j, p in enumerate(e.reference_path):
        if not all(math.isfinite(c) for c in p):
            raise bad(f"reference_path[{j}]", "3 finite numbers", p)
    if e.geodesic_distance < 0:
        raise bad("info.geodesic_distance", "a non-negative number", e.geodesic_distance)
    nb = e.info.get("navbench")
    if nb is None:
        return e
    if not isinstance(nb, dict):
        raise bad("info.navbench", "an object", nb)
    tau = nb.get("success_distance")
    if tau is not None and not (_finite(tau) and tau >= 0):
        raise bad("info.navbench.success_distance", "a finite number >= 0 (τ, metres) or null", tau)
    for key, (types, expected) in NAVBENCH_FIELDS.items():
        v = nb.get(key)
        if v is not None and not isinstance(v, types):
            raise bad(f"info.navbench.{key}", expected, v)
    for key in ("subgoals", "branch_goals"):
        found = None if nb.get(key) is None else _point_items(nb[key], f"info.navbench.{key}")
        if found is not None:
            raise bad(*found)
    if isinstance(nb.get("program"), dict):  # a program tree that parses (SPEC §3: Go | If | Seq)
        from navbench.tasks.conditional.program import program_from_dict

        program_from_dict(nb["program"], file, f"{where}.info.navbench.program")
    direct = nb.get("direct_geodesic_distance")
    if direct is not None and not (_finite(direct) and direct >= 0):
        raise bad("info.navbench.direct_geodesic_distance", "a finite number >= 0 (metres) or null", direct)
    return e
