"""Planner of the scene-graph agent: from a :class:`~navbench.agents.scene_graph.belief.Belief`
to the next waypoint action (go to a target, inspect a room, explore a frontier, look around,
stop).

Decisions chain (an arrival starts the next decision at once; an exhausted map re-decides with
what was seen, at most twice): each step returns either an action or :class:`Rethink`, and
:meth:`Planner.think` loops until an action comes out. Map cells are ``(i, j)`` of the agent's
grid, positions ``(x, z)`` in metres (world frame), times simulated seconds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from navbench.agents.mapping import PlanField, Track
from navbench.agents.scene_graph.belief import SPIN_MODES, Belief, RoomConfuser, WalkMode
from navbench.agents.scene_graph.reasoning import NeedRoom, Reasoner, regions_of
from navbench.sim.actions import Action, StopAction, WaypointAction

if TYPE_CHECKING:
    from navbench.tasks.conditional import ObjectRef

#: Targets to visit in order: references of the chosen branch, or a goal label (ObjectNav).
Targets = list["ObjectRef | str"]
#: ``(types, t) -> targets``; raises :class:`NeedRoom` while the branch is undecided.
TargetsFn = Callable[[dict[int, str | None], float], Targets]


@dataclass(frozen=True)
class Rethink:
    """Decide again (``depth``: how many times an exhausted map already forced it)."""

    depth: int = 0


@dataclass(frozen=True)
class PlannerSettings:
    """Motion thresholds: planning ``clearance`` from obstacles (m); a path's end counts as
    reached within ``arrive`` (m); ``stop_after_decision``: stop as soon as the branch is chosen
    (branch-selection probe)."""

    clearance: float = 0.35
    arrive: float = 0.3
    stop_after_decision: bool = False


class Planner:
    """Chooses the agent's behaviour on its belief (see module docs).

    Parameters
    ----------
    belief : Belief
        The episode's belief, updated in place (motion, visited targets, blocked goals).
    reasoner : Reasoner
        Decides conditions and grounds references.
    settings : PlannerSettings
        Motion thresholds.
    targets, confuse : TargetsFn, RoomConfuser
        The task's targets (the agent's ``plan_targets`` hook); room-type recognition noise.
    """

    def __init__(self, belief: Belief, reasoner: Reasoner, settings: PlannerSettings,
                 targets: TargetsFn, confuse: RoomConfuser) -> None:
        self.b, self.reasoner, self.s = belief, reasoner, settings
        self.targets, self.confuse = targets, confuse

    def step(self) -> Action:
        """The action for the belief's current pose and time (perception already integrated)."""
        b, m = self.b, self.b.motion
        pose, t = b.pose, b.time
        if t == 0.0 or (b.occ is None and m.mode != "spin"):  # look around first
            return self._spin()
        if m.mode in SPIN_MODES:
            act = self._spin_step()
            if m.spin_targets and t - m.start < 10.0:
                return act
            if m.mode == "inspect-spin" and m.region is not None:
                b.looks[m.region] = b.looks.get(m.region, 0) + 1
            m.mode = "idle"
            return self.think()
        if m.mode == "idle":
            return self.think()
        # walking
        if m.goal_cell is not None and math.hypot(pose[0] - m.goal_cell[0],
                                                  pose[2] - m.goal_cell[1]) <= self.s.arrive:
            return self._resolve(self._arrived())
        if m.anchor is None or np.linalg.norm(pose[:3] - m.anchor[1]) > 0.1:
            m.anchor = (t, pose[:3])
        elif t - m.anchor[0] > 3.0:  # stuck: give this goal up
            if m.goal_cell is not None:
                b.blocked.append(m.goal_cell)
            if m.mode == "target":
                return self._resolve(self._arrived())
            if m.mode == "inspect" and m.region is not None:
                b.fails[m.region] = b.fails.get(m.region, 0) + 1
            m.mode = "idle"
            return self.think()
        if m.mode in ("explore", "inspect") and t - m.start > 6.0:
            m.mode = "idle"  # re-decide with what the walk revealed
            return self.think()
        return WaypointAction((), append=True)

    def think(self, depth: int = 0) -> Action:
        """Decide until an action comes out (see module docs)."""
        step: Action | Rethink = Rethink(depth)
        while isinstance(step, Rethink):
            step = self._decide(step.depth)
        return step

    def _resolve(self, step: Action | Rethink) -> Action:
        """``step`` if it is an action, else the result of deciding again."""
        return self.think(step.depth) if isinstance(step, Rethink) else step

    def _decide(self, depth: int) -> Action | Rethink:
        """One decision: look around in a new room, go to the next target, inspect the room an
        undecided condition needs, or explore."""
        b, m = self.b, self.b.motion
        assert b.occ is not None and b.rooms is not None
        pose, t = b.pose, b.time
        b.refresh()
        types = b.region_types(self.confuse)
        here = b.rooms.region_at(pose[:3], pose[:3], margin=0.2)
        if here is not None and here not in b.entered and (
                b.choice is None or b.program is None):
            b.entered.add(here)  # first time in this room: look around
            m.region = here
            act = self._spin()
            m.mode = "inspect-spin"
            return act
        field = b.occ.plan((pose[0], pose[2]), self.s.clearance)
        try:
            refs = self.targets(types, t)
            if self.s.stop_after_decision and b.program is not None:
                return StopAction()
            if b.visited >= len(refs):
                return StopAction()
            ref = refs[b.visited]
            if isinstance(ref, str):
                tracks = [o for o in b.objects.tracks if o.label == ref]
                if not tracks and not (b.exhausted or self.reasoner.out_of_budget(t)):
                    raise NeedRoom("")
            else:
                tracks = self.reasoner.ground(b, ref, types)
                if not tracks:  # search over and not found: any object with that label
                    tracks = [o for o in b.objects.tracks if o.label == ref.label]
            if not tracks:
                return StopAction()
            return self._go_object(field, tracks[0])
        except NeedRoom as need:
            return self._inspect(field, need.room, types, depth)

    def _inspect(self, field: PlanField, room: str, types: dict[int, str | None],
                 depth: int) -> Action | Rethink:
        """Walk to the reachable floor of the least-costly uncovered region of type ``room``,
        nearest its unseen part; explore (toward it, when seen but unreachable) otherwise."""
        b = self.b
        assert b.occ is not None and b.rooms is not None
        regs = [r for r in regions_of(room, types) if not b.covered(r, self.reasoner.coverage)] \
            if room else []
        best: tuple[float, tuple[int, int], int] | None = None
        toward: tuple[float, float] | None = None
        for r in regs:
            cells = b.rooms.cells_of(r)
            if len(cells) == 0:
                continue
            _, unseen = b.rooms.coverage(r, b.state)
            c = (unseen if len(unseen) else cells).mean(axis=0)
            extra = np.full(field.cost.shape, np.inf)
            extra[cells[:, 0], cells[:, 1]] = 2.0 * b.occ.grid.cell * np.hypot(
                cells[:, 0] - c[0], cells[:, 1] - c[1])
            cell = field.best(np.isfinite(extra), extra)
            if cell is None:  # not reachable on the known floor yet: explore toward it
                tx, tz = b.occ.grid.center_of(*cells.mean(axis=0))
                toward = (float(tx), float(tz))
                continue
            cost = float(field.cost[cell] + extra[cell])
            if best is None or cost < best[0]:
                best = (cost, cell, r)
        if best is not None:
            return self._start_move(field, best[1], "inspect", region=best[2])
        return self._explore(field, depth, toward=toward)

    def _go_object(self, field: PlanField, trk: Track) -> Action | Rethink:
        """Walk to the reachable cell nearest the track's centre (explore if none)."""
        assert self.b.occ is not None
        xs, zs = self.b.occ.grid.center_of(*np.indices(field.cost.shape))
        c = trk.center
        extra = 50.0 * np.hypot(xs - c[0], zs - c[2])
        cell = field.best(np.isfinite(field.cost), extra)
        if cell is None:
            return self._explore(field, 0)
        return self._start_move(field, cell, "target")

    def _explore(self, field: PlanField, depth: int,
                 toward: tuple[float, float] | None = None) -> Action | Rethink:
        """Go to the cheapest reachable frontier (seen floor next to unseen space), bigger
        frontiers and those nearer ``toward`` (x, z: a room seen but not yet reachable)
        preferred; frontiers inside covered rooms or near blocked goals are tried only when no
        other is left; none left at all = the reachable space is exhausted (every room not yet
        covered is then given up and, while the branch is undecided, the agent re-decides)."""
        from scipy import ndimage

        b, pose = self.b, self.b.pose
        assert b.occ is not None and b.rooms is not None
        for strict in (True, False):
            mask = np.zeros(field.cost.shape, bool)
            size = np.zeros(field.cost.shape)
            for cells in b.occ.frontiers():
                mask[cells[:, 0], cells[:, 1]] = True
                size[cells[:, 0], cells[:, 1]] = len(cells) * b.occ.grid.cell
            done = [r for r in b.rooms.regions() if b.covered(r, self.reasoner.coverage)] \
                if strict else []
            if done:
                mask &= ~np.isin(b.rooms.room, [k for k in range(len(b.rooms.parent))
                                                if b.rooms.find(k) in done])
            reach = math.ceil((self.s.clearance + 0.3) / b.occ.grid.cell)
            size = ndimage.maximum_filter(size, size=2 * reach + 1)
            mask = ndimage.binary_dilation(mask, iterations=reach)
            xs, zs = b.occ.grid.center_of(*np.indices(mask.shape))
            mask &= np.hypot(xs - pose[0], zs - pose[2]) > 1.0
            for bx, bz in b.blocked if strict else ():
                mask &= np.hypot(xs - bx, zs - bz) > 1.0
            bonus = -np.minimum(size, 3.0)
            if toward is not None:
                bonus = bonus + np.hypot(xs - toward[0], zs - toward[1])
            cell = field.best(mask, bonus)
            if cell is not None:
                return self._start_move(field, cell, "explore")
        b.exhausted = True
        for r in b.rooms.regions():
            b.fails[r] = 3
        if depth < 2 and (b.program is None or b.choice is None):
            return Rethink(depth + 1)  # decide with what was seen
        return StopAction()

    def _spin(self) -> Action:
        """Start a full turn on the spot (three 120° yaw targets, sent one after another)."""
        b, m = self.b, self.b.motion
        m.mode, m.start = "spin", b.time
        y0 = float(b.pose[3])
        m.spin_targets = [y0 + k * 2.0 * math.pi / 3.0 for k in (1, 2, 3)]
        m.spin_at = (float(b.pose[0]), float(b.pose[2]))
        return self._spin_step()

    def _spin_step(self) -> Action:
        """Advance the turn: next yaw target once the current one is within 15°."""
        b, m = self.b, self.b.motion
        tg = m.spin_targets
        if tg and abs((b.pose[3] - tg[0] + math.pi) % (2 * math.pi) - math.pi) < 0.26:
            tg.pop(0)
            if tg:
                return WaypointAction(((*m.spin_at, tg[0]),))
        if len(tg) == 3 and b.time == m.start:
            return WaypointAction(((*m.spin_at, tg[0]),))
        return WaypointAction((), append=True)

    def _start_move(self, field: PlanField, cell: tuple[int, int], mode: WalkMode,
                    region: int | None = None) -> Action | Rethink:
        """Follow the planned path to ``cell`` (waypoints every 5 cells, facing along it)."""
        m = self.b.motion
        path = field.path_to(*cell)
        m.mode, m.start, m.region = mode, self.b.time, region
        m.goal_cell = (float(path[-1][0]), float(path[-1][1])) if len(path) else None
        m.anchor = None
        if len(path) < 2:
            return self._arrived()
        pts = np.vstack([path[::5], path[-1:]])
        wps = []
        for a, c in itertools.pairwise(pts):
            if math.hypot(*(c - a)) > 1e-6:
                wps.append((float(c[0]), float(c[1]), math.atan2(-(c[0] - a[0]), -(c[1] - a[1]))))
        if not wps:
            return self._arrived()
        wps[-1] = (wps[-1][0], wps[-1][1], math.nan)
        return WaypointAction(tuple(wps))

    def _arrived(self) -> Action | Rethink:
        """End of a walk: look around after reaching a room to inspect, count a reached
        target, block a reached frontier; then decide again."""
        b, m = self.b, self.b.motion
        mode, m.mode = m.mode, "idle"
        if mode == "inspect":
            act = self._spin()
            m.mode = "inspect-spin"
            return act
        if mode == "target":
            b.visited += 1
        elif mode == "explore" and m.goal_cell is not None:
            b.blocked.append(m.goal_cell)
        return Rethink(0)


__all__ = ["Planner", "PlannerSettings", "Rethink", "Targets", "TargetsFn"]
