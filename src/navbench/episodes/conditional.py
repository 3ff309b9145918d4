"""Conditional VLN episodes from conditional instructions (CondVLN §3.1.5, SPEC §4).

For each :class:`~navbench.tasks.conditional.Instruction`: a start is sampled on the largest
navmesh island (inside the house in indoor-to-outdoor scenes, :mod:`navbench.episodes.starts`)
at least ``min_start_distance`` (and τ) of geodesic distance from its first target, from its
goal and from every other target the instruction names (every branch's goal and subgoals), and
more than τ (Euclidean, as branch outcomes are scored) from every other branch's goal point, so
that an agent stopping at once is never scored at a branch goal; the reference path runs start →
each subgoal's approach point → the goal's approach point (:mod:`navbench.episodes.approach`;
approach points are navigable points within ``approach_fraction × τ`` of the object's XZ
footprint; starts and subgoals' approach points keep the embodiment's end clearance, where a
long body turns in place). ``geodesic_distance`` is the length of that path (through the
subgoals; the direct geodesic distance from the start to the goal point, habitat's d_0 and
SPEC §5's L, is kept as ``info.navbench.direct_geodesic_distance``).
Instructions whose pathfinding fails, or one of whose other branches' targets cannot be reached
(so that branch could not be executed, and an agent taking it could not be scored), are dropped
and counted by reason. The oracle-linear copy differs only in ``instruction_text``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from navbench.episodes.approach import (
    Approach,
    join_legs,
    object_approach,
    object_room,
    path_through,
)
from navbench.episodes.instruction_controls import InstructionControls
from navbench.episodes.model import Episode, Goal
from navbench.episodes.starts import start_sampler
from navbench.errors import ConfigError
from navbench.geometry import quat4, vec3, yaw_of_direction, yaw_to_quaternion
from navbench.jsontypes import JSONObject
from navbench.nav import NavMesh
from navbench.rng import derive
from navbench.scene.model import Scene
from navbench.tasks.conditional import (
    Instruction,
    InstructionSettings,
    program_from_dict,
    program_to_dict,
)
from navbench.tasks.conditional import targets as program_targets

_SCALAR_AXES = ("cross_room", "evidence_observability", "horizon")


@dataclass(frozen=True)
class ConditionalEpisodeSettings:
    """Options of :func:`conditional_episodes`.

    Attributes:
        success_distance: τ (m); ``None`` = CondVLN's 0.5 for single-room scenes, 1.0 otherwise.
        start_facing: ``"random"`` (uniform yaw) or ``"path"`` (faces the reference path).
        min_start_distance: shortest allowed geodesic distance (m) from the start to the first
            target, to the goal point and to the nearest approach point of every other target
            of the instruction (other branches' goals and subgoals, later subgoals; τ if
            larger), so that no target of any branch is reached at the start and the episode
            asks for some navigation.
        approach_fraction: approach points lie within this fraction of τ of the target (XZ).
        start_tries: start samples per instruction before it is dropped (32: in small houses
            few starts are far from every branch's goal; an accepted start is the first one
            that passes, so more tries only rescue instructions that would be dropped).
        branch_separation: every other branch's goal must lie more than this many τ from the
            correct goal (Euclidean), so that no stopping point is within τ of two branch goals
            and "which branch did the agent end at" is well defined; ``0`` disables the check.
        end_clearance: starts and subgoals' approach points keep this clearance (m) from
            obstacles where it exceeds the navmesh's ``agent_radius``: the robot turns in place there (from the random start heading;
            back out of a subgoal) and a long body sweeps its circumscribed radius
            (:data:`navbench.nav.settings.EMBODIMENT_END_CLEARANCE`, as ObjectNav starts and
            goals keep; the dataset builder sets the embodiment's). Goal approach points do
            not: the path ends there, at a free heading, and clear ones would leave many
            goals in small rooms without any.
    """

    success_distance: float | None = None
    start_facing: str = "random"
    min_start_distance: float = 2.0
    approach_fraction: float = 0.8
    start_tries: int = 32
    branch_separation: float = 2.0
    end_clearance: float = 0.0

    def __post_init__(self) -> None:
        if self.start_facing not in ("random", "path"):
            raise ConfigError(f"start_facing: expected 'random' or 'path', got {self.start_facing!r}")
        if self.success_distance is not None and not self.success_distance > 0:
            raise ConfigError(f"success_distance: expected > 0 m, got {self.success_distance}")
        if not 0 < self.approach_fraction <= 1:
            raise ConfigError(f"approach_fraction: expected a value in (0, 1], got {self.approach_fraction}")
        if self.branch_separation < 0:
            raise ConfigError(f"branch_separation: expected >= 0, got {self.branch_separation}")
        if self.start_tries < 1 or self.min_start_distance < 0:
            raise ConfigError("start_tries: expected >= 1; min_start_distance: expected >= 0")
        if not self.end_clearance >= 0:
            raise ConfigError(f"end_clearance: expected >= 0 m, got {self.end_clearance}")


def default_success_distance(scene: Scene) -> float:
    """CondVLN τ: 0.5 m for single-room scenes, 1.0 m for multi-room ones."""
    return 0.5 if len(scene.rooms) <= 1 else 1.0


def instruction_settings(scene: Scene, settings: ConditionalEpisodeSettings | None = None,
                         navmesh: NavMesh | None = None, controls: InstructionControls | None = None,
                         embodiment: str | None = None) -> InstructionSettings:
    """Sampler settings whose targets are ``branch_separation × τ`` apart (footprint gap), so
    that few instructions are later dropped as ``branch_goals_close``, and, with ``navmesh``,
    only objects with approach points on its largest island (:func:`target_approach`) as
    targets, so that none is dropped as ``no_approach`` or ``branch_unreachable``; the rest
    from ``controls`` (the smallest reference from ``embodiment``'s camera unless set)."""
    s = settings or ConditionalEpisodeSettings()
    tau = s.success_distance if s.success_distance is not None else default_success_distance(scene)
    targets = None if navmesh is None else frozenset(
        o.id for o in scene.objects if target_approach(scene, navmesh, o.id, tau, s) is not None)
    return (controls or InstructionControls()).sampler_settings(
        embodiment, min_target_gap=s.branch_separation * tau, targets=targets)


def target_approach(scene: Scene, navmesh: NavMesh, object_id: str, tau: float,
                    settings: ConditionalEpisodeSettings, turn: bool = False) -> Approach | None:
    """Approach points of a target object on the largest island (within
    ``approach_fraction × τ`` of its footprint, inside the object's room if it is in one);
    ``None`` for an unknown object or none. With ``turn`` (a subgoal: the path goes on from
    there, often back the way it came, and a long body turns in place on it), only those at
    least ``end_clearance`` from obstacles."""
    o = scene.object_index.get(object_id)
    if o is None:
        return None
    reach, room = settings.approach_fraction * tau, object_room(scene, o)
    clear = settings.end_clearance if turn else 0.0
    return object_approach(navmesh, o, 0, reach, min_clearance=clear, room=room)


def scene_path(scene_id: str) -> str:
    """Episode ``scene_id``: the scene file relative to the dataset root (habitat-style path)."""
    return f"scenes/{scene_id}/scene.json"


def path_yaw(path: np.ndarray, min_step: float = 0.1) -> float:
    """Yaw (rad) facing from the path's first point to the first point ≥ ``min_step`` m away (XZ)."""
    for p in path[1:]:
        d = p - path[0]
        if math.hypot(d[0], d[2]) >= min_step:
            return yaw_of_direction(d[0], d[2])
    return 0.0


def _vec(p: np.ndarray) -> list[float]:
    return [float(v) for v in p]


def conditional_episodes(
    scene: Scene,
    navmesh: NavMesh,
    instructions: Sequence[Instruction],
    seed: int,
    settings: ConditionalEpisodeSettings | None = None,
) -> tuple[list[Episode], Counter[str]]:
    """Episodes for ``instructions`` and the count of dropped ones by reason.

    Episode ids are the instruction ids (``"{scene}:{k}"``); dataset writers renumber them.
    Reasons: ``no_approach`` (a target has no navigable point within reach on the largest
    island; a subgoal none that keeps ``end_clearance``), ``no_path`` (no start on the
    largest island that keeps ``end_clearance`` reaches the targets with a first leg and a
    start→goal distance ≥ ``min_start_distance``), ``start_near_branch`` (every start
    that passed those checks lay within ``min_start_distance`` of another target of the
    instruction, or within τ of another branch's goal point), ``branch_unreachable`` (another
    branch's target has no approach point reachable from the start), ``branch_goals_close``
    (another branch's goal lies within ``branch_separation × τ`` of the correct goal),
    ``no_island`` (empty navmesh). Every instruction is kept or counted under one reason.
    """
    s = settings or ConditionalEpisodeSettings()
    tau = s.success_distance if s.success_distance is not None else default_success_distance(scene)
    dropped: Counter[str] = Counter()
    out: list[Episode] = []
    if not navmesh.islands:
        dropped["no_island"] += len(instructions)
        return out, dropped
    cache: dict[tuple[str, bool], Approach | None] = {}

    def approach(oid: str, turn: bool = False) -> Approach | None:
        if (oid, turn) not in cache:
            cache[oid, turn] = target_approach(scene, navmesh, oid, tau, s, turn)
        return cache[oid, turn]

    sample = start_sampler(scene, navmesh)
    far = max(s.min_start_distance, tau)
    for ins in instructions:
        ids = [*ins.subgoal_ids, ins.goal_id]
        targets = [approach(i, turn=k < len(ids) - 1) for k, i in enumerate(ids)]
        if any(t is None for t in targets):
            dropped["no_approach"] += 1
            continue
        others = _other_targets(ins, ids, approach)
        rng = derive(seed, scene.id, "conditional", ins.id)
        legs = None
        near_branch = False
        for _ in range(s.start_tries):
            start = sample(rng)
            if start is None or not _clear_start(navmesh, start, s.end_clearance):
                continue
            legs = path_through(navmesh, start, targets)  # type: ignore[arg-type]
            if legs is not None and legs[0].length >= far and \
                    navmesh.geodesic_distance(start, legs[-1].end) >= far:
                if not _near_other_target(navmesh, legs[0].points[0], others, far, tau):
                    break
                near_branch = True
            legs = None
        if legs is None:
            dropped["start_near_branch" if near_branch else "no_path"] += 1
            continue
        path = join_legs(legs[0].points[0], legs)
        yaw = path_yaw(path) if s.start_facing == "path" else float(rng.uniform(-math.pi, math.pi))
        ep = _episode(scene, navmesh, ins, path, legs, yaw, tau, approach)
        if not all(b["reachable"] for b in ep.info["navbench"]["branch_goals"]):
            dropped["branch_unreachable"] += 1
            continue
        if _branch_goals_close(ep, s.branch_separation * tau):
            dropped["branch_goals_close"] += 1
            continue
        out.append(ep)
    return out, dropped


def _clear_start(navmesh: NavMesh, start: np.ndarray, end_clearance: float) -> bool:
    """Whether ``start`` keeps ``end_clearance`` (m) from obstacles (always, when the navmesh's
    own ``agent_radius`` is at least that much)."""
    return end_clearance <= navmesh.settings.agent_radius or \
        navmesh.distance_to_obstacle(start) >= end_clearance


def _other_targets(ins: Instruction, checked: Sequence[str],
                   approach: Callable[[str], Approach | None]) -> list[tuple[Approach, bool]]:
    """(approach points, is another branch's goal) of every target the instruction names beyond
    the first target and the goal (which the start check measures along the path): later
    subgoals, other branches' goals and subgoals; targets without approach points are left out
    (where another branch's goal has none, the instruction is dropped as
    ``branch_unreachable``)."""
    branch_goals = set(ins.branch_goal_ids)
    skip = {ins.goal_id} | ({checked[0]} - branch_goals)
    out: list[tuple[Approach, bool]] = []
    for oid in dict.fromkeys(str(r.object_id) for r in program_targets(ins.program)):
        ap = approach(oid) if oid not in skip else None
        if ap is not None:
            out.append((ap, oid in branch_goals))
    return out


def _near_other_target(navmesh: NavMesh, start: np.ndarray, others: Sequence[tuple[Approach, bool]],
                       far: float, tau: float) -> bool:
    """Whether ``start`` (the snapped start) lies within ``far`` m (geodesic) of another target's
    nearest approach point, or, for another branch's goal, within ``tau`` m (Euclidean, as
    :func:`~navbench.metrics.branch.branch_confusion` scores it) of that point — the point
    :func:`_episode` records as the branch goal. Unreachable targets are not near."""
    for ap, is_goal in others:
        sp = navmesh.find_path(start, ap.points)
        if sp.goal_index is None or not math.isfinite(sp.geodesic_distance):
            continue
        if sp.geodesic_distance < far:
            return True
        if is_goal and float(np.linalg.norm(ap.points[sp.goal_index] - start)) <= tau:
            return True
    return False


def _branch_goals_close(ep: Episode, min_distance: float) -> bool:
    """Whether another branch's goal lies within ``min_distance`` m of the correct goal."""
    if min_distance <= 0:
        return False
    goal = np.asarray(ep.goals[0].position)
    return any(float(np.linalg.norm(np.asarray(b["position"]) - goal)) <= min_distance
               for b in ep.info["navbench"]["branch_goals"])


def _episode(scene: Scene, navmesh: NavMesh, ins: Instruction, path: np.ndarray, legs: list,
             yaw: float, tau: float, approach: Callable[[str], Approach | None]) -> Episode:
    objs = scene.object_index
    start = path[0]
    goal_obj = objs[ins.goal_id]
    subgoals = [
        {"position": _vec(leg.end), "object_id": oid, "label": objs[oid].label}
        for oid, leg in zip(ins.subgoal_ids, legs[:-1], strict=True)
    ]
    branch_goals = []
    for oid in ins.branch_goal_ids:
        ap = approach(oid)
        sp = navmesh.find_path(start, ap.points) if ap is not None else None
        ok = sp is not None and sp.goal_index is not None and math.isfinite(sp.geodesic_distance)
        pos = ap.points[sp.goal_index] if ok else np.asarray(objs[oid].center)  # type: ignore[union-attr]
        branch_goals.append({"position": _vec(pos), "object_id": oid, "label": objs[oid].label,
                             "reachable": bool(ok)})
    direct = navmesh.geodesic_distance(start, legs[-1].end)  # to the goal point (d_0, L)
    start_room = scene.room_at(float(start[0]), float(start[2]), float(start[1]))
    evaluated = ins.axes.get("evaluated", [])
    cond_rooms = ins.axes.get("condition_rooms", {})
    nb: JSONObject = {
        "task": "conditional",
        "scene": scene.id,
        "scene_kind": scene.kind,
        "source": scene.source,
        "success_distance": tau,
        "instruction_id": ins.id,
        "category": ins.category,
        "depth": ins.depth,
        "chain_length": ins.chain_length,
        **{k: ins.axes[k] for k in _SCALAR_AXES if k in ins.axes},
        "start_room": None if start_room is None else start_room.id,
        "evidence_at_start": bool(start_room is not None
                                  and any(cond_rooms.get(c) == start_room.id for c in evaluated)),
        "goal_object_id": ins.goal_id,
        "goal_label": goal_obj.label,
        "direct_geodesic_distance": float(direct),
        "program": program_to_dict(ins.program),
        "truths": dict(ins.truths),
        "branch_path": list(ins.branch_path),
        "branch_index": ins.branch_index,
        "n_branches": ins.n_branches,
        "subgoals": subgoals,
        "branch_goals": branch_goals,
        "axes": dict(ins.axes),
        "conditional_text": ins.text,
        "oracle_text": ins.linear_text,
    }
    return Episode(
        episode_id=ins.id,
        scene_id=scene_path(scene.id),
        start_position=vec3(start),
        start_rotation=quat4(yaw_to_quaternion(yaw)),
        goals=(Goal(vec3(legs[-1].end), tau, ins.goal_id),),
        instruction_text=ins.text,
        reference_path=tuple(vec3(p) for p in path),
        geodesic_distance=float(sum(leg.length for leg in legs)),
        info={"navbench": nb},
    )


def oracle_linear(episodes: Sequence[Episode]) -> list[Episode]:
    """The oracle-linear copy (CondVLN §4): only ``instruction_text`` changes (to ``oracle_text``)."""
    out = []
    for e in episodes:
        text = e.navbench.get("oracle_text")
        if not isinstance(text, str) or not text:
            raise ConfigError(f"episode {e.episode_id}: info.navbench.oracle_text missing; not a conditional episode")
        out.append(replace(e, instruction_text=text))
    return out


def episode_instruction(e: Episode) -> Instruction:
    """The :class:`~navbench.tasks.conditional.Instruction` a conditional episode was made
    from (``info.navbench``: program, truths, branch, goals, axes, texts)."""
    nb = e.navbench
    return Instruction(
        str(nb.get("source_id", e.episode_id)), nb["scene"], nb["category"],
        nb["conditional_text"], program_from_dict(nb["program"], f"episode {e.episode_id}",
                                                  "info.navbench.program"),
        dict(nb["truths"]), tuple(nb["branch_path"]), nb["branch_index"], nb["n_branches"],
        nb["goal_object_id"], tuple(g["object_id"] for g in nb["subgoals"]),
        tuple(g["object_id"] for g in nb["branch_goals"]), dict(nb.get("axes", {})),
        str(nb.get("oracle_text", "")))
