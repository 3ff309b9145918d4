"""Privileged baselines (NavVerse App. 9 GT settings; CondVLN §4 oracle branch selector).

- :class:`OraclePathAgent` — streams the episode's reference path (NavVerse "GT Trajectory").
- :class:`OracleGoalAgent` — knows the goal positions, plans on a navmesh of the scene
  ("GT Goal").
- :class:`FirstBranchAgent` — reads the conditional program, ignores its conditions and takes
  outcome 0 (every condition assumed true); plans to that branch's subgoals and goal.
- :class:`OracleBranchAgent` — resolves the branch with the recorded condition truths
  (CondVLN §4), linearises the instruction, and navigates the resulting chain of targets.

All four use waypoint actions: the whole path is sent once, then empty ``append`` actions let
the follower run; the agent stops within ``arrive_distance`` of the path's end, or when it has
not moved ``stuck_distance`` in ``settle_time`` seconds within ``near_distance`` of the end
(blocked by the goal object itself), or in ``stuck_time`` seconds elsewhere.

Planning navmesh of oracle-goal / first-branch / oracle-branch (:class:`NavmeshPlanner`): by
default the dataset's own navmesh (privileged ``navmesh``), which a dataset built for an
embodiment erodes by that robot's clearance — so every goal the dataset says is reachable is
reachable, along paths the body fits. Without one (episodes outside a dataset), or with an
explicit ``clearance`` (m), a navmesh of the scene is built with ``agent_radius = clearance``
(default: the clearance of the embodiment whose radius the observation's ``robot_radius``
reports, :data:`navbench.nav.settings.EMBODIMENT_CLEARANCE`) and cached per scene id.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from navbench.agents.base import ActionSpace, Agent, ProgramFacts, Task
from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject, Observation
from navbench.sim.actions import Action, StopAction, WaypointAction

if TYPE_CHECKING:
    from navbench.nav import NavMesh
    from navbench.nav.query import ShortestPath
    from navbench.scene.model import Room, Scene, SceneObject
    from navbench.tasks.conditional import Evaluation


def path_waypoints(points: np.ndarray) -> tuple[tuple[float, float, float], ...]:
    """(x, z, yaw) waypoints through world points (N, 3): heading of the incoming segment,
    free (``nan``) at the end; repeated points are dropped."""
    out: list[tuple[float, float, float]] = []
    pts = np.asarray(points, float).reshape(-1, 3)
    for i in range(1, len(pts)):
        dx, dz = pts[i, 0] - pts[i - 1, 0], pts[i, 2] - pts[i - 1, 2]
        if math.hypot(dx, dz) < 1e-6:
            continue
        out.append((float(pts[i, 0]), float(pts[i, 2]), math.atan2(-dx, -dz)))
    if out:
        out[-1] = (out[-1][0], out[-1][1], math.nan)
    return tuple(out)


class PathFollowingAgent(Agent):
    """Base: send a world path once, then let the follower run and stop at its end."""

    action_space: ActionSpace = "waypoint"

    def __init__(self, arrive_distance: float = 0.15, stuck_time: float = 8.0,
                 stuck_distance: float = 0.1, near_distance: float = 0.75,
                 settle_time: float = 1.0) -> None:
        self.arrive_distance, self.stuck_time = float(arrive_distance), float(stuck_time)
        self.stuck_distance = float(stuck_distance)
        self.near_distance, self.settle_time = float(near_distance), float(settle_time)
        self._path = np.zeros((0, 3))
        self._sent = False
        self._anchor: tuple[float, np.ndarray] | None = None
        self.robot_radius: float | None = None
        self.diag: JSONObject = {}

    def plan(self, task: Task, start: np.ndarray) -> np.ndarray:
        """World points (N, 3) to follow from ``start`` (the first observed pose)."""
        raise NotImplementedError

    def reset(self, task: Task) -> None:
        self._task, self._sent, self._anchor = task, False, None
        self._path = np.zeros((0, 3))
        self.diag = {}

    def diagnostics(self) -> JSONObject:
        """JSON-able facts about the last episode (chosen branch, plan length...)."""
        return dict(self.diag)

    def act(self, observation: Observation) -> Action:
        pose = np.asarray(observation["pose"], float)
        t = float(observation.get("time", 0.0))
        if not self._sent:
            self._sent = True
            r = observation.get("robot_radius")
            self.robot_radius = None if r is None else float(r)
            self._path = np.asarray(self.plan(self._task, pose[:3]), float).reshape(-1, 3)
            self.diag["planned_points"] = len(self._path)
            wps = path_waypoints(np.vstack([pose[None, :3], self._path]))
            self._anchor = (t, pose[:3])
            if not wps:
                return StopAction()
            return WaypointAction(wps)
        end = self._path[-1]
        gap = math.hypot(pose[0] - end[0], pose[2] - end[2])
        if gap <= self.arrive_distance:
            return StopAction()
        assert self._anchor is not None
        wait = self.settle_time if gap <= self.near_distance else self.stuck_time
        if np.linalg.norm(pose[:3] - self._anchor[1]) > self.stuck_distance:
            self._anchor = (t, pose[:3])
        elif t - self._anchor[0] > wait:
            self.diag["stuck"] = gap > self.near_distance
            return StopAction()
        return WaypointAction((), append=True)


class OraclePathAgent(PathFollowingAgent):
    """Follows the episode's reference path (privileged ``reference_path``)."""

    name: ClassVar[str] = "oracle-path"
    privileged = frozenset({"reference_path"})

    def plan(self, task: Task, start: np.ndarray) -> np.ndarray:
        ref = np.asarray(task.privileged.get("reference_path", ()), float).reshape(-1, 3)
        if len(ref) == 0:
            raise ConfigError(f"oracle-path: episode {task.episode_id} has no reference path")
        return ref


def clearance_for_radius(radius: float | None) -> float:
    """Planning clearance (m) of the embodiment whose robot radius is ``radius`` (m); an unknown
    radius is its own clearance, ``None`` gives Spot's."""
    from navbench.nav.settings import EMBODIMENT_CLEARANCE, embodiment_radius

    if radius is None:
        return EMBODIMENT_CLEARANCE["spot"]
    for name, c in EMBODIMENT_CLEARANCE.items():
        if abs(embodiment_radius(name) - radius) < 1e-9:
            return c
    return float(radius)


def end_clearance_for_radius(radius: float | None) -> float:
    """End clearance (m) of starts and approach points of the embodiment whose robot radius is
    ``radius`` (m; :data:`navbench.nav.settings.EMBODIMENT_END_CLEARANCE`, Spot's for ``None``);
    0 for an unknown radius."""
    from navbench.nav.settings import EMBODIMENT_END_CLEARANCE, embodiment_radius

    if radius is None:
        return EMBODIMENT_END_CLEARANCE["spot"]
    for name, c in EMBODIMENT_END_CLEARANCE.items():
        if abs(embodiment_radius(name) - radius) < 1e-9:
            return c
    return 0.0


class NavmeshPlanner:
    """Navmeshes per scene, shortest paths, object approach points (see the module docstring).

    Args:
        clearance: agent radius (m) of the navmesh built from the scene; ``None`` = use the
            dataset's navmesh when given (:meth:`use`), else the embodiment's clearance.
    """

    def __init__(self, clearance: float | None = None) -> None:
        self.clearance = None if clearance is None else float(clearance)
        self.robot_radius: float | None = None
        self._given: NavMesh | None = None
        self._cache: dict[tuple[str, float], NavMesh] = {}

    def use(self, navmesh: NavMesh | None, robot_radius: float | None = None) -> None:
        """The episode's dataset navmesh (``None``: none) and the robot radius (m) observed."""
        self._given, self.robot_radius = navmesh, robot_radius

    def navmesh(self, scene: Scene) -> NavMesh:
        """The navmesh to plan on in ``scene``: the dataset's, or a cached one built here."""
        from navbench.nav import NavMesh, NavSettings

        if self.clearance is None and self._given is not None:
            return self._given
        radius = self.clearance if self.clearance is not None else clearance_for_radius(self.robot_radius)
        nm = self._cache.get((scene.id, radius))
        if nm is None:
            kind = scene.kind if scene.kind in ("indoor", "outdoor", "hybrid") else "indoor"
            base = NavSettings.preset("outdoor" if kind == "hybrid" else kind,
                                      **({"cell_size": 0.1} if kind == "hybrid" else {}))
            settings = dataclasses.replace(base, agent_radius=radius)
            nm = self._cache[(scene.id, radius)] = NavMesh.build(scene, settings)
        return nm

    def path(self, scene: Scene, points: Sequence[np.ndarray]) -> np.ndarray:
        """Concatenated shortest path through ``points`` (start first); raises if unreachable."""
        nm = self.navmesh(scene)
        out = [np.asarray(points[0], float)]
        for a, b in itertools.pairwise(points):
            sp = nm.find_path(a, b)
            if sp.points is None:
                raise ConfigError(f"no path from {np.round(a, 2).tolist()} to "
                                  f"{np.round(b, 2).tolist()} in scene {scene.id!r}")
            out.extend(np.asarray(p, float) for p in sp.points[1:])
        return np.array(out)

    def approach(self, scene: Scene, obj: SceneObject, start: np.ndarray) -> np.ndarray:
        """A navigable point next to ``obj``: the navigable point nearest its centre, searched
        on rings around its footprint; raises if none is reachable from ``start``."""
        nm = self.navmesh(scene)
        c = np.asarray(obj.center, float)
        half = 0.5 * np.asarray(obj.size, float) if obj.size is not None else \
            np.full(3, obj.radius or 0.0)
        cands = [c]
        for m in (0.1, 0.3, 0.6, 1.0):
            hx, hz = half[0] + m, half[2] + m
            n = max(8, int(8 * (hx + hz)))
            for k in range(n):
                a = 2 * math.pi * k / n
                cands.append(c + np.array([hx * math.cos(a), 0.0, hz * math.sin(a)]))
        best: tuple[float, np.ndarray] | None = None
        for p in cands:
            s = nm.snap_point(np.array([p[0], c[1] - 0.5 * (half[1] if half[1] else 0.0), p[2]]))
            if s is None:
                s = nm.snap_point(np.array([p[0], start[1], p[2]]))
            if s is None:
                continue
            d = math.hypot(s[0] - c[0], s[2] - c[2])
            if (best is None or d < best[0] - 1e-9) and \
                    math.isfinite(nm.geodesic_distance(start, s)):
                best = (d, s)
            if best is not None and best[0] <= max(half[0], half[2]) + 0.15:
                break
        if best is None:
            raise ConfigError(f"object {obj.id!r} ({obj.label}) has no reachable navigable point nearby")
        return best[1]


class OracleGoalAgent(PathFollowingAgent):
    """Plans a shortest path to the nearest goal on the scene's navmesh (``goals``, ``scene``)."""

    name: ClassVar[str] = "oracle-goal"
    privileged = frozenset({"goals", "scene", "navmesh"})

    def __init__(self, clearance: float | None = None, **kw: float) -> None:
        super().__init__(**kw)
        self.planner = NavmeshPlanner(clearance)

    def plan(self, task: Task, start: np.ndarray) -> np.ndarray:
        scene = task.privileged["scene"]
        self.planner.use(task.privileged.get("navmesh"), self.robot_radius)
        goals = np.asarray(task.privileged["goals"], float).reshape(-1, 3)
        nm = self.planner.navmesh(scene)
        sp = nm.find_path(start, goals)
        if sp.points is None and task.success_distance is not None:
            from navbench.episodes.approach import object_room

            radii = np.asarray(task.privileged.get("goal_radii", np.zeros(len(goals))), float)
            ids = task.privileged.get("goal_object_ids") or [None] * len(goals)
            rooms = [None if scene is None else object_room(scene, i) for i in ids]
            sp = self._near_goals(nm, start, goals, radii, float(task.success_distance), rooms)
        if sp.points is None:
            raise ConfigError(f"oracle-goal: no path to any goal of episode {task.episode_id}")
        self.diag["goal_index"] = None if sp.goal_index is None else int(sp.goal_index)
        return np.array(sp.points, float)


    @staticmethod
    def _near_goals(nm: NavMesh, start: np.ndarray, goals: np.ndarray, radii: np.ndarray, tau: float,
                    rooms: Sequence[Room | None] | None = None, margin: float = 0.1) -> ShortestPath:
        """Shortest path to navigable points whose NavVerse distance to some goal
        (``‖p − g‖ − r``, 3D) is at most ``tau − margin``, for goals too deep inside furniture
        to snap onto the navmesh; inside the goal's room (``rooms[k]``, as the dataset builder
        restricts approach points) when it has one."""
        from navbench.episodes.approach import approach_points
        from navbench.geometry import goal_surface_distance

        island = nm.island_of(start)
        pts = []
        for g, r, room in zip(goals, radii, rooms or [None] * len(goals), strict=True):
            a = None if island is None else approach_points(
                nm, (g[0], g[2]), (g[0], g[2]), island, tau + r, y=g[1] - 1.0, room=room)
            if a is not None:
                ok = [p for p in a.points if goal_surface_distance(p, [g], [r]) <= tau - margin]
                pts += ok
        return nm.find_path(start, np.asarray(pts)) if pts else nm.find_path(start, goals)


class _BranchAgent(PathFollowingAgent):
    """Navigates the targets of one branch of the conditional program (``program``, ``scene``):
    to the nearest navigable point within ``approach_fraction × τ`` of each target's footprint
    (as the dataset builder does), else to the ring search of :meth:`NavmeshPlanner.approach`."""

    privileged = frozenset({"program", "scene", "navmesh"})

    def __init__(self, clearance: float | None = None, approach_fraction: float = 0.8,
                 **kw: float) -> None:
        super().__init__(**kw)
        self.planner = NavmeshPlanner(clearance)
        self.approach_fraction = float(approach_fraction)

    def select(self, facts: ProgramFacts) -> Evaluation:
        """The :class:`~navbench.tasks.conditional.Evaluation` of the chosen branch."""
        raise NotImplementedError

    def plan(self, task: Task, start: np.ndarray) -> np.ndarray:
        facts = task.privileged.get("program")
        if not facts:
            raise ConfigError(f"{self.name}: episode {task.episode_id} has no conditional program "
                              "(info.navbench.program)")
        ev = self.select(facts)
        self.diag.update(branch_path=list(ev.branch_path), branch_index=int(ev.branch_index))
        scene = task.privileged["scene"]
        self.planner.use(task.privileged.get("navmesh"), self.robot_radius)
        objs = {o.id: o for o in scene.objects}
        targets = []
        for ref in (*ev.subgoals, ev.goal):
            if ref.object_id not in objs:
                raise ConfigError(f"{self.name}: target {ref.object_id!r} is not in scene {scene.id!r}")
            targets.append(objs[ref.object_id])
        path = self._approach_path(scene, targets, np.asarray(start, float), task.success_distance)
        if path is not None:
            return path
        pts = [np.asarray(start, float)]
        for obj in targets:
            pts.append(self.planner.approach(scene, obj, pts[-1]))
        return self.planner.path(scene, pts)

    def _approach_path(self, scene: Scene, targets: Sequence[SceneObject], start: np.ndarray,
                       tau: float | None) -> np.ndarray | None:
        """The dataset's own construction (:mod:`navbench.episodes.approach`): nearest approach
        point within ``approach_fraction × τ`` of each target's footprint, in order, on the
        start's island, those of subgoals keeping the robot's end clearance where they can
        (:func:`end_clearance_for_radius`: a long body turns there; as
        :func:`navbench.episodes.conditional.target_approach` does); ``None`` when a target has
        none (then :meth:`NavmeshPlanner.approach`)."""
        from navbench.episodes.approach import join_legs, object_approach, object_room, path_through

        nm = self.planner.navmesh(scene)
        island = nm.island_of(start)
        if island is None or tau is None:
            return None
        reach = self.approach_fraction * float(tau)
        clear = end_clearance_for_radius(self.robot_radius)
        aps = []
        for k, o in enumerate(targets):
            room = object_room(scene, o)
            a = None
            if k < len(targets) - 1 and clear > nm.settings.agent_radius:  # a subgoal
                a = object_approach(nm, o, island, reach, room=room, min_clearance=clear)
            aps.append(a if a is not None else object_approach(nm, o, island, reach, room=room))
        found = [a for a in aps if a is not None]
        if len(found) < len(aps):
            return None
        legs = path_through(nm, start, found)
        return None if legs is None else join_legs(start, legs)


class FirstBranchAgent(_BranchAgent):
    """Ignores the conditions: always the first branch (outcome 0)."""

    name: ClassVar[str] = "first-branch"

    def select(self, facts: ProgramFacts) -> Evaluation:
        from navbench.tasks.conditional import evaluate

        return evaluate(facts["program"], lambda _c: True)


class OracleBranchAgent(_BranchAgent):
    """CondVLN §4: the branch from the recorded condition truths (the linearised instruction)."""

    name: ClassVar[str] = "oracle-branch"

    def select(self, facts: ProgramFacts) -> Evaluation:
        from navbench.tasks.conditional import evaluate, linearize

        self.diag["linear_instruction"] = linearize(facts["program"], facts["truths"])
        return evaluate(facts["program"], facts["truths"])
