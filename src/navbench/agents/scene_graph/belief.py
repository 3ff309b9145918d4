"""Belief state of the scene-graph agent: everything it has mapped, decided and planned in one
episode, updated from perception frames (:class:`~navbench.agents.perception.Frame`).

World frame (x, y, z) in metres; map cells are ``(i, j)`` indices of the agent's own
:class:`~navbench.agents.mapping.Grid` (0.1 m cells, centred on where the first frame was seen).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np

from navbench.agents.mapping import Grid, ObjectMap, OccupancyMap, RoomMap
from navbench.agents.perception import ROOM_CUES, Frame, room_type

if TYPE_CHECKING:
    from navbench.tasks.conditional import Condition, Evaluation, Program

#: What the agent is doing: ``idle`` (decide next step), ``spin`` (the look-around at the start),
#: ``inspect-spin`` (a look-around inside a room), or walking: ``inspect`` (to a room's unseen
#: part), ``target`` (to an object of the chosen branch), ``explore`` (to a frontier).
Mode = Literal["idle", "spin", "inspect-spin", "inspect", "target", "explore"]
#: Modes in which the agent turns on the spot.
SPIN_MODES: frozenset[Mode] = frozenset({"spin", "inspect-spin"})
#: Modes in which the agent follows a planned path.
WalkMode = Literal["inspect", "target", "explore"]
WALK_MODES: frozenset[Mode] = frozenset({"inspect", "target", "explore"})

#: One recorded decision: condition text, truth, simulated time (s, 0.1 s resolution), reason.
Decision = list[str | bool | float]


class RoomConfuser(Protocol):
    """Room-type recognition noise (:meth:`~navbench.agents.perception.Perceiver.confuse_room`)."""

    def __call__(self, key: int, rtype: str | None, types: Sequence[str]) -> str | None: ...


@dataclass
class Motion:
    """The current behaviour and its progress.

    Attributes
    ----------
    mode : Mode
        What the agent is doing.
    start : float
        Simulated time the mode started (s).
    goal_cell : tuple of float or None
        ``(x, z)`` end of the path being walked (m, world frame).
    spin_targets : list of float
        Remaining yaw targets of a look-around (rad).
    spin_at : tuple of float
        ``(x, z)`` where the look-around turns (m).
    region : int or None
        Room region being inspected (or looked around in).
    anchor : tuple or None
        ``(time s, position (3,) m)`` of the last progress while walking (stuck detection).
    """

    mode: Mode = "idle"
    start: float = 0.0
    goal_cell: tuple[float, float] | None = None
    spin_targets: list[float] = field(default_factory=list)
    spin_at: tuple[float, float] = (0.0, 0.0)
    region: int | None = None
    anchor: tuple[float, np.ndarray] | None = None


@dataclass
class Belief:
    """What the agent knows in one episode (maps, decisions, progress); mutable, one per reset.

    Attributes
    ----------
    program : Program or None
        The program being executed (``None`` for ObjectNav / PlaceNav).
    goal_category : str or None
        Goal label of ObjectNav / PlaceNav tasks.
    occ, rooms : OccupancyMap, RoomMap or None
        The agent's occupancy and room-region maps (created on the first frame).
    objects : ObjectMap
        Observed object tracks.
    looks, fails : dict of int to int
        Per room region: look-arounds done inside it; inspections given up (stuck).
    entered : set of int
        Regions the agent has been inside (and looked around in).
    visited : int
        Targets of the chosen branch already reached.
    blocked : list of tuple of float
        ``(x, z)`` goals given up or reached while exploring (m); avoided by later frontiers.
    exhausted : bool
        No reachable frontier is left.
    truths : dict
        Decided conditions and their truth (kept for the episode).
    choice : Evaluation or None
        The chosen branch, once every needed condition is decided.
    assumed_false : list of str
        Conditions made false by the exploration budget.
    decisions : list of Decision
        Every decided condition: ``[text, truth, time s, reason]``.
    extra : dict
        Further JSON-able diagnostics (chosen branch path and index, decision time, ...).
    motion : Motion
        Current behaviour.
    time : float
        Simulated time of the current observation (s).
    pose : numpy.ndarray
        Current pose ``(x, y, z, yaw)`` (m, rad).
    """

    program: Program | None = None
    goal_category: str | None = None
    occ: OccupancyMap | None = None
    rooms: RoomMap | None = None
    objects: ObjectMap = field(default_factory=ObjectMap)
    looks: dict[int, int] = field(default_factory=dict)
    fails: dict[int, int] = field(default_factory=dict)
    entered: set[int] = field(default_factory=set)
    visited: int = 0
    blocked: list[tuple[float, float]] = field(default_factory=list)
    exhausted: bool = False
    truths: dict[Condition, bool] = field(default_factory=dict)
    choice: Evaluation | None = None
    assumed_false: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    motion: Motion = field(default_factory=Motion)
    time: float = 0.0
    pose: np.ndarray = field(default_factory=lambda: np.zeros(4))
    #: map state (:meth:`OccupancyMap.state`) and region coverage cached for one decision
    state: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int8))
    coverage_cache: dict[int, float] = field(default_factory=dict)

    def integrate(self, frame: Frame, pose: np.ndarray, robot_radius: float,
                  grid_size: float) -> None:
        """Add one perception frame seen from ``pose`` (x, y, z, yaw; m, rad) to the maps.

        The maps are created on the first frame: a square of side ``grid_size`` (m) centred on
        the agent; the body's own footprint (0.8 × ``robot_radius``, m) is marked free.
        """
        if self.occ is None or self.rooms is None:
            grid = Grid((pose[0], pose[2]), grid_size)
            self.occ, self.rooms = OccupancyMap(grid), RoomMap(grid)
        floor = np.concatenate(frame.floors) if frame.floors else np.zeros((0, 3))
        self.occ.integrate(floor, frame.points, float(pose[1]))
        self.occ.mark_free((pose[0], pose[2]), 0.8 * robot_radius)
        types = frame.floor_types or [""] * len(frame.floors)
        for patch, rt in zip(frame.floors, types, strict=True):
            self.rooms.integrate(patch, rt)
        for d in frame.detections:
            self.objects.add(d.label, d.lo, d.hi)

    def refresh(self) -> None:
        """Recompute the map state and drop cached coverages (before each decision)."""
        assert self.occ is not None
        self.state, self.coverage_cache = self.occ.state(), {}

    def region_types(self, confuse: RoomConfuser) -> dict[int, str | None]:
        """Room region → recognised room type: its floor label, else the type its objects
        suggest (:func:`~navbench.agents.perception.room_type`) passed through ``confuse``.

        Also assigns each object track its region (``Track.region``).
        """
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
            out[r] = typed if typed is not None else confuse(r, room_type(by.get(r, [])), types)
        return out

    def covered(self, region: int, threshold: float) -> bool:
        """Whether a region counts as inspected: seen fraction of its floor ≥ ``threshold``,
        two look-arounds inside it, or three inspections given up (stuck, or nothing reachable
        is left to explore). Uses the map state of the last :meth:`refresh`."""
        if self.looks.get(region, 0) >= 2 or self.fails.get(region, 0) >= 3:
            return True
        if region not in self.coverage_cache:
            assert self.rooms is not None
            self.coverage_cache[region] = self.rooms.coverage(region, self.state)[0]
        return self.coverage_cache[region] >= threshold

    def diagnostics(self, confuse: RoomConfuser) -> dict[str, object]:
        """JSON-able summary: decisions, assumed-false conditions, branch, tracks, room types."""
        return {"assumed_false": self.assumed_false, "decisions": self.decisions, **self.extra,
                "tracks": len(self.objects.tracks),
                "rooms": {str(k): v for k, v in self.region_types(confuse).items()}}


__all__ = ["SPIN_MODES", "WALK_MODES", "Belief", "Decision", "Mode", "Motion", "RoomConfuser",
           "WalkMode"]
