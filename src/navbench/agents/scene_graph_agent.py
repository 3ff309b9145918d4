"""The neurosymbolic ``scene-graph`` agent (no privileged information) and the perception-grounded
oracle-branch navigator (CondVLN §4).

Each agent step (0.1 s) the agent perceives (``agents.perception``: depth + semantic →
world-frame detections and typed floor patches), updates its own maps (``agents.mapping``:
occupancy, room regions, object tracks) and then:

1. **parses** the instruction into a program (``tasks.conditional.parse``);
2. **evaluates** the conditions in execution order on its *observed* scene graph, with the
   predicates of ``navbench.graph.relations`` (same :class:`~navbench.graph.GraphSettings`).
   A room is *covered* once :meth:`~navbench.agents.mapping.RoomMap.coverage` ≥
   ``coverage`` (default 0.8: at most 20 % of the room's estimated floor is unseen) or after
   two look-arounds inside it. A presence condition is true once the label is seen in a room
   of that type, false once every known room of that type is covered (or no such room exists
   after exploring everything reachable); a relation is decided once both referents are seen
   or their rooms are covered. Decided truths are kept. An undecided condition sends the agent
   to the least-covered known room of that type (walk to its floor nearest the unseen part,
   look around), or to the nearest frontier while no such room is known. When
   ``explore_budget`` (simulated s) runs out, undecided conditions are false;
3. **grounds** each target of the chosen branch ("the X [near the Y] in the Z") among observed
   tracks, exploring more if needed, and navigates to the reachable cell of its own map nearest
   the object's centre, in order (subgoals, then the goal), and stops there.

The agent plans only over floor it has seen (free cells ``clearance`` m from obstacles) and
looks around (360°) when it first enters a room. ObjectNav / PlaceNav: explore until an object
labelled with the goal category is seen, then go. Room types come from the floor labels
(``floor/<type>``, with recognition noise), else from the objects on the floor
(``perception.room_type``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from navbench.agents.base import ActionSpace, Agent, Task
from navbench.agents.mapping import Grid, ObjectMap, OccupancyMap, RoomMap, Track
from navbench.agents.perception import ROOM_CUES, NoiseModel, Perceiver, room_type
from navbench.sim.actions import Action, StopAction, WaypointAction


class _NeedError(Exception):
    """A condition or target cannot be decided yet: inspect ``room`` (or explore)."""

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self.room = room


class SceneGraphAgent(Agent):
    """Observation-only conditional navigator (see module docs).

    Args:
        noise: perception noise level (see :meth:`NoiseModel.level`) or a :class:`NoiseModel`.
        seed: noise seed (mixed with the episode id).
        clearance: planning clearance from obstacles (m).
        explore_budget: simulated seconds of search before undecided conditions become false.
        arrive: a target cell counts as reached within this distance (m).
        stop_after_decision: stop as soon as the branch is chosen (branch-selection probe).
        graph: :class:`~navbench.graph.GraphSettings` for predicates (default thresholds).
        grid_size: side of the agent's square map centred on its start (m).
        coverage: seen fraction of a room's floor above which the room counts as inspected.
    """

    name: ClassVar[str] = "scene-graph"
    action_space: ActionSpace = "waypoint"
    sensors = frozenset({"semantic"})
    needs_render: ClassVar[bool] = True
    needs_rgb: ClassVar[bool] = False  # depth + semantic only: the evaluation renders flat boxes

    def __init__(self, noise: float | NoiseModel = 0.0, seed: int = 0, clearance: float = 0.35,
                 explore_budget: float = 150.0, arrive: float = 0.3,
                 stop_after_decision: bool = False, graph: Any = None,
                 grid_size: float = 48.0, coverage: float = 0.8) -> None:
        self.noise = noise if isinstance(noise, NoiseModel) else NoiseModel.level(float(noise), seed)
        self.clearance, self.explore_budget = float(clearance), float(explore_budget)
        self.arrive, self.stop_after_decision = float(arrive), bool(stop_after_decision)
        self.graph, self.grid_size = graph, float(grid_size)
        self.coverage = float(coverage)
        self.perceiver = Perceiver(self.noise)
        self.diag: dict[str, Any] = {}

    # ------------------------------------------------------------------ episode state
    def reset(self, task: Task) -> None:
        self.task = task
        self.perceiver.reset(task.episode_id)
        self.occ: OccupancyMap | None = None
        self.rooms: RoomMap | None = None
        self.objects = ObjectMap()
        self.looks: dict[int, int] = {}  # look-arounds done inside each region
        self.fails: dict[int, int] = {}  # inspections of each region given up (stuck)
        self.entered: set[int] = set()
        self.visited = 0  # targets of the chosen branch already reached
        self.program = self.load_program(task)
        self.mode, self.goal_cell, self.mode_start = "idle", None, 0.0
        self.spin_targets: list[float] = []
        self.spin_at = (0.0, 0.0)
        self.region: int | None = None
        self._t = 0.0
        self._cov: dict[int, float] = {}
        self.anchor: tuple[float, np.ndarray] | None = None
        self.blocked: list[tuple[float, float]] = []
        self.exhausted = False  # no reachable frontier is left
        self.truths: dict[Any, bool] = {}
        self.choice: Any = None
        self.diag = {"assumed_false": [], "decisions": []}

    def load_program(self, task: Task) -> Any:
        """The program to execute (parsed from the instruction; ``None`` for goal tasks)."""
        if task.kind != "conditional" or not task.instruction:
            return None
        from navbench.tasks.conditional import parse

        return parse(task.instruction)

    def diagnostics(self) -> dict[str, Any]:
        """Chosen branch, decided conditions (truth, time, reason), map statistics (JSON-able)."""
        return dict(self.diag, tracks=len(self.objects.tracks),
                    rooms={str(k): v for k, v in self.region_types().items()})

    # ------------------------------------------------------------------ perception
    def _perceive(self, obs: Mapping[str, Any]) -> None:
        frame = self.perceiver.observe(obs)
        if frame is None:
            return
        pose = np.asarray(obs["pose"], float)
        if self.occ is None:
            grid = Grid((pose[0], pose[2]), self.grid_size)
            self.occ, self.rooms = OccupancyMap(grid), RoomMap(grid)
        assert self.rooms is not None
        floor = np.concatenate(frame.floors) if frame.floors else np.zeros((0, 3))
        self.occ.integrate(floor, frame.points, float(pose[1]))
        self.occ.mark_free((pose[0], pose[2]), 0.8 * float(obs.get("robot_radius", 0.3)))
        types = frame.floor_types or [""] * len(frame.floors)
        for patch, rt in zip(frame.floors, types, strict=True):
            self.rooms.integrate(patch, rt)
        for d in frame.detections:
            self.objects.add(d.label, d.lo, d.hi)

    def region_types(self) -> dict[int, str | None]:
        """Room region → recognised room type: its floor label (with recognition noise), else
        the type its objects suggest (:func:`~navbench.agents.perception.room_type`)."""
        if self.rooms is None:
            return {}
        by: dict[int, list[str]] = {}
        for t in self.objects.tracks:
            t.region = self.rooms.region_at(t.lo, t.hi)
            if t.region is not None:
                by.setdefault(t.region, []).append(t.label)
        types = sorted(set(ROOM_CUES.values()))
        out: dict[int, str | None] = {}
        for r in self.rooms.regions():
            typed = self.rooms.type_of(r)
            out[r] = typed if typed is not None else self.perceiver.confuse_room(
                r, room_type(by.get(r, [])), types)
        return out

    def covered(self, region: int) -> bool:
        """Whether a region counts as inspected: coverage threshold, two look-arounds inside it,
        or three inspections given up (stuck, or nothing reachable is left to explore)."""
        if self.looks.get(region, 0) >= 2 or self.fails.get(region, 0) >= 3:
            return True
        if region not in self._cov:
            assert self.rooms is not None and self.occ is not None
            self._cov[region] = self.rooms.coverage(region, self._state)[0]
        return self._cov[region] >= self.coverage

    # ------------------------------------------------------------------ symbolic layer
    def _regions(self, room: str, types: Mapping[int, str | None]) -> list[int]:
        return [r for r, t in types.items() if t == room]

    def _out_of_budget(self, t: float) -> bool:
        return t > self.explore_budget

    def _searched(self, room: str, types: Mapping[int, str | None]) -> str | None:
        """Why the search for things in ``room`` is over (``None`` while it is not)."""
        regs = self._regions(room, types)
        if regs and all(self.covered(r) for r in regs):
            return "covered"
        if not regs and self.exhausted:
            return "no such room"
        if self._out_of_budget(self._t):
            return "budget"
        return None

    def ground(self, ref: Any, types: Mapping[int, str | None], t: float) -> list[Track]:
        """Observed tracks matching a reference (label, qualifier, room); raises :class:`_NeedError`
        when none is seen yet and the room's search is not over."""
        regs = self._regions(ref.room, types)
        cands = [o for o in self.objects.tracks if o.label == ref.label and o.region in regs]
        q = ref.qualifier
        if q is not None and cands:
            cands = [o for o in cands if any(
                self.holds(o, q.predicate, a) for a in self.objects.tracks
                if a.label == q.anchor and a.region == o.region)]
        if cands or self._searched(ref.room, types):
            return sorted(cands, key=lambda o: -o.seen)
        raise _NeedError(ref.room)

    def holds(self, subject: Track, predicate: str, reference: Track) -> bool:
        """Whether "subject is <predicate> reference" on the observed boxes (graph semantics)."""
        from navbench.graph.relations import ObjectArrays, pair_metrics

        lo, hi = np.stack([reference.lo, subject.lo]), np.stack([reference.hi, subject.hi])
        arrs = ObjectArrays(("r", "s"), (reference.label, subject.label), 0.5 * (lo + hi), lo, hi,
                            0.5 * np.linalg.norm(hi - lo, axis=1))
        return bool(pair_metrics(arrs, self.graph).holds(predicate)[0, 1])

    def truth(self, cond: Any, types: Mapping[int, str | None], t: float) -> bool:
        """Truth of a condition on the observed graph (raises :class:`_NeedError` if undecided);
        a decided truth is kept for the rest of the episode."""
        from navbench.tasks.conditional import Presence

        if cond in self.truths:
            return self.truths[cond]
        if isinstance(cond, Presence):
            regs = self._regions(cond.room, types)
            if any(o.label == cond.label and o.region in regs for o in self.objects.tracks):
                value, why = True, "seen"
            else:
                why = self._searched(cond.room, types)  # type: ignore[assignment]
                if why is None:
                    raise _NeedError(cond.room)
                value = False
        else:
            subj, ref = self.ground(cond.subject, types, t), self.ground(cond.reference, types, t)
            value = any(self.holds(s, cond.predicate, r) for s in subj for r in ref if s is not r)
            why = f"{len(subj)}x{len(ref)} candidates"
        if why == "budget":
            self.diag["assumed_false"].append(str(cond))
        self.truths[cond] = value
        self.diag["decisions"].append([str(cond), value, round(t, 1), why])
        return value

    def choose(self, types: Mapping[int, str | None], t: float) -> Any:
        """The :class:`~navbench.tasks.conditional.Evaluation` of the program on the observed
        graph (raises :class:`_NeedError` while a condition is undecided)."""
        from navbench.tasks.conditional import evaluate

        return evaluate(self.program, lambda c: self.truth(c, types, t))

    def plan_targets(self, types: Mapping[int, str | None], t: float) -> list[Any]:
        """References to visit in order (subgoals then goal), or ``[label]`` for goal tasks."""
        if self.program is None:
            return [self.task.goal_category]
        if self.choice is None:
            self.choice = self.choose(types, t)
            self.diag.update(branch_path=list(self.choice.branch_path),
                             branch_index=int(self.choice.branch_index), decided_at=t)
        return [*self.choice.subgoals, self.choice.goal]

    # ------------------------------------------------------------------ decisions
    def think(self, pose: np.ndarray, t: float, depth: int = 0) -> Action:
        """Pick the next behaviour (go to a target, inspect a room, explore, stop)."""
        assert self.occ is not None and self.rooms is not None
        self._state, self._cov = self.occ.state(), {}
        types = self.region_types()
        here = self.rooms.region_at(pose[:3], pose[:3], margin=0.2)
        if here is not None and here not in self.entered and (
                self.choice is None or self.program is None):
            self.entered.add(here)  # first time in this room: look around
            self.region = here
            act = self._spin(pose, t)
            self.mode = "inspect-spin"
            return act
        field = self.occ.plan((pose[0], pose[2]), self.clearance)
        try:
            refs = self.plan_targets(types, t)
            if self.stop_after_decision and self.program is not None:
                return StopAction()
            if self.visited >= len(refs):
                return StopAction()
            ref = refs[self.visited]
            if isinstance(ref, str):
                tracks = [o for o in self.objects.tracks if o.label == ref]
                if not tracks and not (self.exhausted or self._out_of_budget(t)):
                    raise _NeedError("")
            else:
                tracks = self.ground(ref, types, t)
                if not tracks:  # search over and not found: any object with that label
                    tracks = [o for o in self.objects.tracks if o.label == ref.label]
            if not tracks:
                return StopAction()
            return self._go_object(field, tracks[0], pose, t)
        except _NeedError as need:
            regs = [r for r in self._regions(need.room, types) if not self.covered(r)] \
                if need.room else []
            best: tuple[float, tuple[int, int], int] | None = None
            toward: np.ndarray | None = None
            for r in regs:
                cells = self.rooms.cells_of(r)
                if len(cells) == 0:
                    continue
                _, unseen = self.rooms.coverage(r, self._state)
                c = (unseen if len(unseen) else cells).mean(axis=0)
                extra = np.full(field.cost.shape, np.inf)
                extra[cells[:, 0], cells[:, 1]] = 2.0 * self.occ.grid.cell * np.hypot(
                    cells[:, 0] - c[0], cells[:, 1] - c[1])
                cell = field.best(np.isfinite(extra), extra)
                if cell is None:  # not reachable on the known floor yet: explore toward it
                    toward = self.occ.grid.center_of(*cells.mean(axis=0))
                    continue
                cost = float(field.cost[cell] + extra[cell])
                if best is None or cost < best[0]:
                    best = (cost, cell, r)
            if best is not None:
                return self._start_move(field, best[1], "inspect", t, region=best[2])
            return self._explore(field, pose, t, depth, toward=toward)

    def _go_object(self, field: Any, trk: Track, pose: np.ndarray, t: float) -> Action:
        g = self.occ.grid  # type: ignore[union-attr]
        xs, zs = g.center_of(*np.indices(field.cost.shape))
        c = trk.center
        extra = 50.0 * np.hypot(xs - c[0], zs - c[2])
        cell = field.best(np.isfinite(field.cost), extra)
        if cell is None:
            return self._explore(field, pose, t)
        return self._start_move(field, cell, "target", t)

    def _explore(self, field: Any, pose: np.ndarray, t: float, depth: int = 0,
                 strict: bool = True, toward: Any = None) -> Action:
        """Go to the cheapest reachable frontier (seen floor next to unseen space), bigger
        frontiers and those nearer ``toward`` (x, z: a room seen but not yet reachable)
        preferred; frontiers inside covered rooms or near visited / given-up goals are tried
        last (``strict``); none left at all = the reachable space is exhausted (every room
        not yet covered is then given up)."""
        from scipy import ndimage

        assert self.occ is not None and self.rooms is not None
        mask = np.zeros(field.cost.shape, bool)
        size = np.zeros(field.cost.shape)
        for cells in self.occ.frontiers():
            mask[cells[:, 0], cells[:, 1]] = True
            size[cells[:, 0], cells[:, 1]] = len(cells) * self.occ.grid.cell
        done = [r for r in self.rooms.regions() if self.covered(r)] if strict else []
        if done:
            mask &= ~np.isin(self.rooms.room, [k for k in range(len(self.rooms.parent))
                                               if self.rooms.find(k) in done])
        reach = math.ceil((self.clearance + 0.3) / self.occ.grid.cell)
        size = ndimage.maximum_filter(size, size=2 * reach + 1)
        mask = ndimage.binary_dilation(mask, iterations=reach)
        xs, zs = self.occ.grid.center_of(*np.indices(mask.shape))
        mask &= np.hypot(xs - pose[0], zs - pose[2]) > 1.0
        for bx, bz in self.blocked if strict else ():
            mask &= np.hypot(xs - bx, zs - bz) > 1.0
        bonus = -np.minimum(size, 3.0)
        if toward is not None:
            bonus = bonus + np.hypot(xs - toward[0], zs - toward[1])
        cell = field.best(mask, bonus)
        if cell is None and strict:
            return self._explore(field, pose, t, depth, strict=False, toward=toward)
        if cell is None:
            self.exhausted = True
            for r in self.rooms.regions():
                self.fails[r] = 3
            if depth < 2 and (self.program is None or self.choice is None):
                return self.think(pose, t, depth + 1)  # decide with what was seen
            return StopAction()
        return self._start_move(field, cell, "explore", t)


    # ------------------------------------------------------------------ motion
    def _spin(self, pose: np.ndarray, t: float) -> Action:
        """Start a full turn on the spot (three 120° yaw targets, sent one after another)."""
        self.mode, self.mode_start = "spin", t
        y0 = float(pose[3])
        self.spin_targets = [y0 + k * 2.0 * math.pi / 3.0 for k in (1, 2, 3)]
        self.spin_at = (float(pose[0]), float(pose[2]))
        return self._spin_step(pose)

    def _spin_step(self, pose: np.ndarray) -> Action:
        """Advance the turn: next yaw target once the current one is within 15°."""
        tg = self.spin_targets
        if tg and abs((pose[3] - tg[0] + math.pi) % (2 * math.pi) - math.pi) < 0.26:
            tg.pop(0)
            if tg:
                return WaypointAction(((*self.spin_at, tg[0]),))
        if len(tg) == 3 and self._t == self.mode_start:
            return WaypointAction(((*self.spin_at, tg[0]),))
        return WaypointAction((), append=True)

    def _start_move(self, field: Any, cell: tuple[int, int], mode: str, t: float,
                    region: int | None = None) -> Action:
        path = field.path_to(*cell)
        self.mode, self.mode_start, self.region = mode, t, region
        self.goal_cell = path[-1] if len(path) else None
        self.anchor = None
        if len(path) < 2:
            return self._arrived(t)
        pts = np.vstack([path[::5], path[-1:]])
        wps = []
        for a, b in itertools.pairwise(pts):
            if math.hypot(*(b - a)) > 1e-6:
                wps.append((float(b[0]), float(b[1]), math.atan2(-(b[0] - a[0]), -(b[1] - a[1]))))
        if not wps:
            return self._arrived(t)
        wps[-1] = (wps[-1][0], wps[-1][1], math.nan)
        return WaypointAction(tuple(wps))

    def _arrived(self, t: float) -> Action:
        mode, self.mode = self.mode, "idle"
        if mode == "inspect":
            act = self._spin(self._pose, t)
            self.mode = "inspect-spin"
            return act
        if mode == "target":
            self.visited += 1
        elif mode == "explore" and self.goal_cell is not None:
            self.blocked.append((float(self.goal_cell[0]), float(self.goal_cell[1])))
        return self.think(self._pose, t)

    def act(self, observation: Mapping[str, Any]) -> Action:
        pose = np.asarray(observation["pose"], float)
        t = float(observation.get("time", 0.0))
        self._pose, self._t = pose, t
        self._perceive(observation)
        if t == 0.0 or (self.occ is None and self.mode != "spin"):  # look around first
            return self._spin(pose, t)
        if self.mode in ("spin", "inspect-spin"):
            act = self._spin_step(pose)
            if self.spin_targets and t - self.mode_start < 10.0:
                return act
            if self.mode == "inspect-spin" and self.region is not None:
                self.looks[self.region] = self.looks.get(self.region, 0) + 1
            self.mode = "idle"
            return self.think(pose, t)
        if self.mode == "idle":
            return self.think(pose, t)
        # moving
        if self.goal_cell is not None and math.hypot(pose[0] - self.goal_cell[0],
                                                     pose[2] - self.goal_cell[1]) <= self.arrive:
            return self._arrived(t)
        if self.anchor is None or np.linalg.norm(pose[:3] - self.anchor[1]) > 0.1:
            self.anchor = (t, pose[:3])
        elif t - self.anchor[0] > 3.0:  # stuck: give this goal up
            if self.goal_cell is not None:
                self.blocked.append((float(self.goal_cell[0]), float(self.goal_cell[1])))
            if self.mode == "target":
                return self._arrived(t)
            if self.mode == "inspect" and self.region is not None:
                self.fails[self.region] = self.fails.get(self.region, 0) + 1
            self.mode = "idle"
            return self.think(pose, t)
        if self.mode in ("explore", "inspect") and t - self.mode_start > 6.0:
            self.mode = "idle"  # re-decide with what the walk revealed
            return self.think(pose, t)
        return WaypointAction((), append=True)


class GroundedOracleBranchAgent(SceneGraphAgent):
    """CondVLN §4 oracle branch, grounded by perception: the instruction is linearised with the
    recorded condition truths (privileged ``program`` only), and the resulting "go to the X
    [near the Y] in the Z" chain is grounded on the agent's own observed scene graph."""

    name: ClassVar[str] = "oracle-branch-grounded"
    privileged = frozenset({"program"})

    def load_program(self, task: Task) -> Any:
        from navbench.tasks.conditional import evaluate, linearize, parse

        facts = task.privileged.get("program")
        if not facts:
            return super().load_program(task)
        text = linearize(facts["program"], facts["truths"])
        self.linear = text
        try:
            return parse(text)
        except Exception:  # the linearised route is also available as a structure
            ev = evaluate(facts["program"], facts["truths"])
            from navbench.tasks.conditional import Go, Seq

            gos = [Go(r) for r in (*ev.subgoals, ev.goal)]
            return gos[0] if len(gos) == 1 else Seq(tuple(gos))

    def plan_targets(self, types: Mapping[int, str | None], t: float) -> list[Any]:
        first = self.choice is None
        refs = super().plan_targets(types, t)
        facts = self.task.privileged.get("program")
        if facts and first:
            from navbench.tasks.conditional import evaluate

            ev = evaluate(facts["program"], facts["truths"])
            self.diag.update(branch_path=list(ev.branch_path), branch_index=int(ev.branch_index),
                             linear_instruction=self.linear)
        return refs


__all__ = ["GroundedOracleBranchAgent", "SceneGraphAgent"]
