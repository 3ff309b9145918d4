"""Navigation-mesh settings and presets (indoor, outdoor, per embodiment)."""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from typing import Any

from navbench.errors import ConfigError
from navbench.jsontypes import JSONMapping, JSONObject

#: Box kinds whose top face is a walkable candidate.
WALKABLE_BOX_KINDS: tuple[str, ...] = (
    "floor", "ground", "sidewalk", "road", "crosswalk", "green", "stairs", "curb", "ramp", "terrain",
)
#: Surface classes that are walkable at their height ``y``.
WALKABLE_SURFACE_CLASSES: tuple[str, ...] = (
    "floor", "sidewalk", "road", "crosswalk", "green", "stairs",
)


@dataclass(frozen=True)
class NavSettings:
    """How a :class:`~navbench.nav.NavMesh` is built. Lengths in metres, angles in degrees.

    Attributes:
        cell_size: grid cell edge in XZ.
        agent_radius: the free space is eroded by this radius (Euclidean).
        agent_height: required headroom above a walkable surface.
        max_climb: largest step between neighbouring cells; obstacles lower than this
            above the surface are stepped over.
        max_slope_deg: steepest walkable mesh triangle.
        walkable_box_kinds: box kinds whose top faces are walkable candidates.
        walkable_surface_classes: surface classes that are walkable.
        snap_radius: query points farther than this from the navigable area do not snap.
        simplify_tolerance: Douglas–Peucker tolerance of the boundary polygons, in cells.
        los_tolerance: a straight segment is free if its clearance stays above
            ``agent_radius - los_tolerance * cell_size`` (absorbs polygon simplification).
    """

    cell_size: float = 0.05
    agent_radius: float = 0.1
    agent_height: float = 1.5
    max_climb: float = 0.2
    max_slope_deg: float = 45.0
    walkable_box_kinds: tuple[str, ...] = WALKABLE_BOX_KINDS
    walkable_surface_classes: tuple[str, ...] = WALKABLE_SURFACE_CLASSES
    snap_radius: float = 1.0
    simplify_tolerance: float = 0.25
    los_tolerance: float = 0.5

    def __post_init__(self) -> None:
        positive = ("cell_size", "agent_height", "snap_radius")
        for name in positive:
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ConfigError(f"NavSettings.{name}: expected a positive number, got {v!r}")
        for name in ("agent_radius", "max_climb", "simplify_tolerance", "los_tolerance"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                raise ConfigError(f"NavSettings.{name}: expected a number >= 0, got {v!r}")
        if not 0 <= self.max_slope_deg < 90:
            raise ConfigError(
                f"NavSettings.max_slope_deg: expected degrees in [0, 90), got {self.max_slope_deg!r}"
            )
        object.__setattr__(self, "walkable_box_kinds", tuple(self.walkable_box_kinds))
        object.__setattr__(self, "walkable_surface_classes", tuple(self.walkable_surface_classes))

    @classmethod
    # untyped: override values of any field type (floats, tuples); the dataclass stores them
    def preset(cls, name: str, **overrides: Any) -> NavSettings:
        """A named preset (``indoor``, ``outdoor``, ``spot``, ``turtlebot``) with optional overrides.

        ``indoor`` matches habitat's defaults (radius 0.1, height 1.5, climb 0.2, slope 45°)
        on a 0.05 m grid; ``outdoor`` uses 0.25 m cells for 1 km² blocks; ``spot``
        (radius 0.6, climb 0.2) and ``turtlebot`` (radius 0.18, climb 0.02) are embodiments
        (their ``agent_radius`` is the robot radius r_robot; the clearance planners keep for
        them is :data:`EMBODIMENT_CLEARANCE`).
        """
        if name not in PRESETS:
            raise ConfigError(
                f"navmesh preset: expected one of {sorted(PRESETS)}, got {name!r}"
            )
        return dataclasses.replace(PRESETS[name], **overrides)

    # untyped: new values of any field type, as dataclasses.replace takes them
    def replace(self, **changes: Any) -> NavSettings:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> JSONObject:
        """JSON-serialisable dict (tuples become lists)."""
        d = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: JSONMapping) -> NavSettings:
        """Inverse of :meth:`to_dict`; unknown keys raise :class:`ConfigError`."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ConfigError(f"NavSettings: unknown fields {sorted(unknown)}")
        kw: JSONObject = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return cls(**kw)

    def to_json(self) -> str:
        """Canonical JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), sort_keys=True)


PRESETS: dict[str, NavSettings] = {
    "indoor": NavSettings(),
    "outdoor": NavSettings(cell_size=0.25, agent_radius=0.25, snap_radius=2.0),
    "spot": NavSettings(cell_size=0.1, agent_radius=0.6, agent_height=1.0, max_climb=0.2,
                        snap_radius=1.5),
    "turtlebot": NavSettings(cell_size=0.05, agent_radius=0.18, agent_height=0.5,
                             max_climb=0.02, snap_radius=1.0),
}

#: Clearance (m) a planner keeps from obstacles so that the robot follows its paths without
#: touching them: footprint half-width plus follower slack, measured on procedural houses with
#: the verification rollout and oracle-path runs (Turtlebot's round 0.18 m hull never jams at
#: 0.25 m but brushes furniture at corners in ≈50% of episodes, because the 0.3 m-lookahead
#: follower cuts corners; at 0.32 m no episode collided in 64; Spot's 0.5 × 1.1 m hull jams on
#: ≈15% of paths at 0.4 m and on none at 0.5 m, where most goals in small rooms lose their
#: approach points). The single source of truth: ``navbench.sim.Embodiment.clearance``
#: and embodiment-specific datasets read it.
EMBODIMENT_CLEARANCE: dict[str, float] = {"spot": 0.4, "turtlebot": 0.32}

#: Clearance (m) at the ends of a reference path (starts and goal approach points), where the
#: robot stands, turns in place and faces the goal: the circumscribed radius of its footprint
#: plus 5 cm (Spot 0.5 × 1.1 m → 0.604 m; the round Turtlebot needs no more than its path
#: clearance). Along a path the body is aligned with the travel direction, so its half-width
#: matters there and :data:`EMBODIMENT_CLEARANCE` is enough.
EMBODIMENT_END_CLEARANCE: dict[str, float] = {"spot": 0.65, "turtlebot": 0.32}


def embodiment_clearance(name: str) -> float:
    """Planning clearance (m) of an embodiment (``spot`` 0.4, ``turtlebot`` 0.32)."""
    if name not in EMBODIMENT_CLEARANCE:
        raise ConfigError(f"embodiment: expected one of {sorted(EMBODIMENT_CLEARANCE)}, got {name!r}")
    return EMBODIMENT_CLEARANCE[name]


def embodiment_radius(name: str) -> float:
    """Robot radius r_robot (m) of an embodiment: its preset's ``agent_radius`` (spot 0.6,
    turtlebot 0.18); NavVerse success distance τ = 1.0 + r_robot."""
    embodiment_clearance(name)  # validates the name
    return PRESETS[name].agent_radius
