"""Waypoint follower and PID (NavVerse App. 6.3): no MuJoCo; compiled (numba) tick.

The follower tracks a world-frame waypoint path ``[(x, z, yaw), ...]`` (yaw may be ``nan`` =
"any heading") with a lookahead distance (0.3 m): the target is the point of the remaining
path 0.3 m ahead of the robot's projection on it, or the last waypoint once that is nearer.
Intermediate waypoints are passed when the robot is within the lookahead of them; the *last*
waypoint is reached when the position error is < 0.03 m and the yaw error < 3°. A PID per body
axis turns the error to the target into a body-frame velocity ``(vx, vy, ω)`` (vx forward =
−Z of the body, vy left, ω counter-clockwise seen from above), clipped to |vx| ≤ 1.5 m/s,
|vy| ≤ 0.3 m/s, |ω| ≤ 1.5 rad/s. Non-holonomic bases (vy ≡ 0) turn towards the target first.
Runs at 50 Hz in the simulator; paths can be replaced or extended at any time (streaming).
The follower's math is compiled (:mod:`navbench.sim.follow_kernels`, over array state);
:class:`PID`, :func:`world_to_body` and :func:`body_to_world` are the same math in plain Python.

*Align* waypoints (``set_path(..., align=flags)``; :mod:`navbench.sim.doors` places them on
both sides of a door): the lookahead never passes one; the base drives onto it (< 0.05 m),
turns in place to the heading of the next segment (< 4°) and only then goes on, and on a
segment that starts at one, and within the lookahead of one, a holonomic base holds the
segment's heading instead of facing the lookahead target (it drives straight through the door,
body aligned, and arrives without turning).

Braking: ``brake_accel`` (m/s², set by the simulator from the traction of the surface under the
robot, ``min(force_cap, μ) g`` with a 20 % reserve) caps the commanded planar speed at
``sqrt(2 a d)``, d = straight distance to the next point where the base must stop (the final or
the next align waypoint), so it stops there instead of sliding past on low-μ ground.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from navbench.sim import follow_kernels as fk


@dataclass(frozen=True)
class FollowerSettings:
    """Tracking and PID parameters (defaults: NavVerse App. 6.3 plus our gains).

    Attributes:
        lookahead: lookahead distance (m).
        pos_tol: position tolerance of the final waypoint (m).
        yaw_tol: yaw tolerance of the final waypoint (radians).
        vx_max, vy_max, omega_max: output clip limits (m/s, m/s, rad/s).
        kp_lin, ki_lin, kd_lin: PID gains on the body-frame position error (1/s, 1/s², -).
        kp_ang, ki_ang, kd_ang: PID gains on the yaw error.
        i_limit: anti-windup clamp of each integral term (m·s or rad·s).
        face_path_distance: beyond this distance from the final waypoint, the heading target
            is the direction of travel; nearer, it is the final waypoint's yaw (m).
        turn_in_place: non-holonomic bases stop translating while the bearing to the target
            exceeds this angle (radians).
        settle_speed, settle_turn: the final waypoint counts as reached only once the base
            moves slower than these (m/s, rad/s), so it stops inside the tolerance, not on it
            (the turn rate counts only when the final waypoint has a yaw).
        align_tol, align_yaw_tol: an align waypoint is reached within this distance (m); the
            base turns in place on it until the next segment's heading is within this (radians).
    """

    lookahead: float = 0.3
    pos_tol: float = 0.03
    yaw_tol: float = math.radians(3.0)
    vx_max: float = 1.5
    vy_max: float = 0.3
    omega_max: float = 1.5
    kp_lin: float = 2.5
    ki_lin: float = 0.3
    kd_lin: float = 0.05
    kp_ang: float = 3.0
    ki_ang: float = 0.2
    kd_ang: float = 0.05
    i_limit: float = 0.2
    face_path_distance: float = 0.5
    turn_in_place: float = math.radians(35.0)
    settle_speed: float = 0.05
    settle_turn: float = 0.05
    align_tol: float = 0.05
    align_yaw_tol: float = math.radians(4.0)


@dataclass(slots=True)  # slots: faster attribute access in the 50 Hz loop
class PID:
    """Scalar PID with integral clamp; ``update(err, dt)`` returns the (unclipped) output."""

    kp: float
    ki: float
    kd: float
    i_limit: float = math.inf
    _i: float = 0.0
    _prev: float | None = None

    def reset(self) -> None:
        """Forget the integral and derivative state."""
        self._i, self._prev = 0.0, None

    def update(self, err: float, dt: float) -> float:
        """One step with error ``err`` over ``dt`` seconds."""
        lim, v = self.i_limit, self._i + err * dt
        v = v if v < lim else lim  # max(-lim, min(lim, v)), written out (50 Hz)
        self._i = v if v > -lim else -lim
        d = 0.0 if self._prev is None or dt <= 0 else (err - self._prev) / dt
        self._prev = err
        return self.kp * err + self.ki * self._i + self.kd * d


def clip(v: float, limit: float) -> float:
    """Clip ``v`` to ``[-limit, limit]`` (``max(-limit, min(limit, v))``, NaN → ``limit``,
    written out: the builtins cost ~0.7 µs per call, at every velocity action)."""
    m = v if v < limit else limit
    return m if m > -limit else -limit


def world_to_body(dx: float, dz: float, yaw: float) -> tuple[float, float]:
    """A world XZ vector in body coordinates ``(forward, left)`` for a base with ``yaw``."""
    s, c = math.sin(yaw), math.cos(yaw)
    # forward = (-sin, -cos), left = (-cos, +sin) in (x, z)
    return -s * dx - c * dz, -c * dx + s * dz


def body_to_world(vx: float, vy: float, yaw: float) -> tuple[float, float]:
    """A body-frame planar vector ``(forward, left)`` in world XZ."""
    s, c = math.sin(yaw), math.cos(yaw)
    return -s * vx - c * vy, -c * vx + s * vy


class WaypointFollower:
    """Tracks a streamed waypoint path; call :meth:`command` at the control rate.

    The path, align flags and PID state are arrays (:mod:`navbench.sim.follow_kernels` has
    the layout); :meth:`command` is one compiled call, and the simulator's control tick calls
    the same kernel on :attr:`state` directly."""

    def __init__(self, settings: FollowerSettings | None = None, holonomic: bool = True) -> None:
        self.settings = s = settings or FollowerSettings()
        fs = np.zeros(fk.NF)
        fs[: fk.S_SEGX] = [s.lookahead, s.pos_tol, s.yaw_tol, s.vx_max, s.vy_max, s.omega_max,
                          s.kp_lin, s.ki_lin, s.kd_lin, s.kp_ang, s.ki_ang, s.kd_ang, s.i_limit,
                          s.face_path_distance, s.turn_in_place, s.settle_speed, s.settle_turn,
                          s.align_tol, s.align_yaw_tol]
        fs[fk.S_BRAKE] = math.inf
        fi = np.zeros(fk.NI, np.int64)
        fi[fk.I_REACHED], fi[fk.I_HOLO] = 1, int(holonomic)
        fi[fk.I_KEYI] = fi[fk.I_KEYN] = -1
        self._fs, self._fi = fs, fi
        self._path = np.zeros((0, 3))
        self._align = np.zeros(0, np.uint8)

    @property
    def state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(path, align, fs, fi)``: the kernel's arrays (``follow_kernels`` layout); the path
        arrays are replaced by :meth:`set_path` / :meth:`clear`, ``fs`` and ``fi`` never."""
        return self._path, self._align, self._fs, self._fi

    @property
    def holonomic(self) -> bool:
        """Whether the base can translate sideways (vy); otherwise it turns towards the target."""
        return bool(self._fi[fk.I_HOLO])

    @property
    def reached(self) -> bool:
        """Whether the final waypoint is reached (also ``True`` without a path)."""
        return bool(self._fi[fk.I_REACHED])

    @property
    def brake_accel(self) -> float:
        """Braking deceleration that caps the speed before stop waypoints (m/s², module docs)."""
        return float(self._fs[fk.S_BRAKE])

    @brake_accel.setter
    def brake_accel(self, a: float) -> None:
        self._fs[fk.S_BRAKE] = a

    @property
    def path(self) -> list[tuple[float, float, float]]:
        """Remaining waypoints (x, z, yaw)."""
        rows: list[list[float]] = self._path[int(self._fi[fk.I_I]):].tolist()
        return [(r[0], r[1], r[2]) for r in rows]

    def set_path(self, waypoints: Sequence[Sequence[float]], start: Sequence[float] | None = None,
                 append: bool = False, align: Sequence[bool] | None = None) -> None:
        """Replace (or extend) the path; ``start`` = current (x, z) starts the first segment;
        ``align``: one flag per waypoint (module docs; the final waypoint's flag is ignored)."""
        pts = np.array([(float(w[0]), float(w[1]), float(w[2]) if len(w) > 2 else math.nan)
                        for w in waypoints], float).reshape(-1, 3)
        flags = np.zeros(len(pts), np.uint8) if align is None else \
            np.array([bool(a) for a in align], np.uint8)
        if len(flags) != len(pts):
            raise ValueError(f"align: expected {len(pts)} flags, got {len(flags)}")
        fs, fi = self._fs, self._fi
        if append and not self.reached:
            self._path = np.concatenate([self._path, pts])
            self._align = np.concatenate([self._align, flags])
        else:
            self._path, self._align = pts, flags
            fi[fk.I_I] = fi[fk.I_SEGALIGN] = fi[fk.I_PREV] = 0
            fi[fk.I_SEG] = start is not None
            if start is not None:
                fs[fk.S_SEGX], fs[fk.S_SEGZ] = float(start[0]), float(start[1])
            fs[fk.S_INT : fk.S_INT + 3] = 0.0  # PID.reset of the three axes
            fi[fk.I_DER : fk.I_DER + 3] = 0
        fi[fk.I_KEYI] = fi[fk.I_KEYN] = -1
        fi[fk.I_REACHED] = fi[fk.I_I] >= len(self._path)

    def clear(self) -> None:
        """Drop the path (the next command is zero velocity)."""
        self._path, self._align = np.zeros((0, 3)), np.zeros(0, np.uint8)
        fi = self._fi
        fi[fk.I_I] = fi[fk.I_SEGALIGN] = 0
        fi[fk.I_REACHED] = 1
        fi[fk.I_KEYI] = fi[fk.I_KEYN] = -1

    def command(self, x: float, z: float, yaw: float, dt: float) -> tuple[float, float, float]:
        """Body-frame velocity ``(vx, vy, ω)`` for the pose ``(x, z, yaw)``; updates ``reached``."""
        vx, vy, w = fk.command(self._path, self._align, self._fs, self._fi, float(x), float(z),
                               float(yaw), float(dt))
        return float(vx), float(vy), float(w)


