"""Agent action records (NavVerse App. 6.2) and their conversion to follower targets.

Three interfaces share one control stack:

- :class:`WaypointAction` — a world-frame path ``[(x, z, yaw), ...]`` (yaw ``nan`` = any),
  streamed: the simulator replaces (or extends, ``append=True``) the follower's path and returns
  after one agent step (0.1 s) without waiting for it to be reached.
- :class:`DiscreteAction` — ``"forward"`` (0.25 m), ``"left"`` / ``"right"`` (15°) or ``"stop"``,
  turned into one waypoint relative to the current pose; the simulator runs until it is reached
  (~1 s) or the primitive times out. Step sizes live in :class:`DiscreteConfig`.
- :class:`VelocityAction` — body-frame ``(vx, vy, ω)`` straight to the base servos for 0.1 s.
- :class:`StopAction` — end the episode (success is judged on the stop).

Habitat's integer action ids (0 STOP, 1 FORWARD, 2 LEFT, 3 RIGHT) convert with
:meth:`DiscreteAction.from_id`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from navbench.errors import ConfigError
from navbench.geometry import heading_vector, wrap_angle

DiscreteKind = Literal["forward", "left", "right", "stop"]
DISCRETE_IDS: tuple[DiscreteKind, ...] = ("stop", "forward", "left", "right")


@dataclass(frozen=True)
class DiscreteConfig:
    """Discrete primitive sizes and limits.

    Attributes:
        forward_step: forward distance per ``forward`` (m).
        turn_angle: rotation per ``left`` / ``right`` (radians).
        timeout: simulated seconds after which an unfinished primitive is abandoned.
    """

    forward_step: float = 0.25
    turn_angle: float = math.radians(15.0)
    timeout: float = 3.0


@dataclass(frozen=True)
class WaypointAction:
    """A streamed world-frame waypoint path ``((x, z, yaw), ...)``; yaw ``nan`` = any heading."""

    waypoints: tuple[tuple[float, float, float], ...]
    append: bool = False

    @staticmethod
    def of(points: Sequence[Sequence[float]], append: bool = False) -> WaypointAction:
        """Build from (x, z) or (x, z, yaw) rows."""
        rows = []
        for i, p in enumerate(points):
            if len(p) not in (2, 3):
                raise ConfigError(f"waypoint {i}: expected (x, z) or (x, z, yaw), got {p!r}")
            rows.append((float(p[0]), float(p[1]), float(p[2]) if len(p) == 3 else math.nan))
        if not rows:
            raise ConfigError("a WaypointAction needs at least one waypoint")
        return WaypointAction(tuple(rows), append)


@dataclass(frozen=True)
class DiscreteAction:
    """A discrete primitive: ``"forward"``, ``"left"``, ``"right"`` or ``"stop"``."""

    kind: DiscreteKind

    def __post_init__(self) -> None:
        if self.kind not in DISCRETE_IDS:
            raise ConfigError(f"discrete action must be one of {DISCRETE_IDS}, got {self.kind!r}")

    @staticmethod
    def from_id(action_id: int) -> DiscreteAction:
        """Habitat / VLN-CE ids: 0 STOP, 1 MOVE_FORWARD, 2 TURN_LEFT, 3 TURN_RIGHT."""
        if not 0 <= int(action_id) < len(DISCRETE_IDS):
            raise ConfigError(f"discrete action id must be in 0..3, got {action_id!r}")
        return DiscreteAction(DISCRETE_IDS[int(action_id)])


@dataclass(frozen=True)
class VelocityAction:
    """Body-frame velocity: vx forward (m/s), vy left (m/s), omega counter-clockwise (rad/s)."""

    vx: float
    vy: float = 0.0
    omega: float = 0.0


@dataclass(frozen=True)
class StopAction:
    """Declare arrival; ends the episode."""


Action = WaypointAction | DiscreteAction | VelocityAction | StopAction


def discrete_target(
    kind: DiscreteKind, x: float, z: float, yaw: float, config: DiscreteConfig
) -> tuple[float, float, float]:
    """The single world-frame waypoint ``(x, z, yaw)`` a primitive commands from pose (x, z, yaw)."""
    if kind == "forward":
        d = heading_vector(yaw) * config.forward_step
        return x + float(d[0]), z + float(d[1]), yaw
    if kind == "left":
        return x, z, wrap_angle(yaw + config.turn_angle)
    if kind == "right":
        return x, z, wrap_angle(yaw - config.turn_angle)
    raise ConfigError(f"primitive {kind!r} has no waypoint")
