"""Waypoint follower and PID (NavVerse App. 6.3): pure Python, no MuJoCo.

The follower tracks a world-frame waypoint path ``[(x, z, yaw), ...]`` (yaw may be ``nan`` =
"any heading") with a lookahead distance (0.3 m): the target is the point of the remaining
path 0.3 m ahead of the robot's projection on it, or the last waypoint once that is nearer.
Intermediate waypoints are passed when the robot is within the lookahead of them; the *last*
waypoint is reached when the position error is < 0.03 m and the yaw error < 3°. A PID per body
axis turns the error to the target into a body-frame velocity ``(vx, vy, ω)`` (vx forward =
−Z of the body, vy left, ω counter-clockwise seen from above), clipped to |vx| ≤ 1.5 m/s,
|vy| ≤ 0.3 m/s, |ω| ≤ 1.5 rad/s. Non-holonomic bases (vy ≡ 0) turn towards the target first.
Runs at 50 Hz in the simulator; paths can be replaced or extended at any time (streaming).

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
from dataclasses import dataclass, field

from navbench.geometry import wrap_angle


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
    """Clip ``v`` to ``[-limit, limit]``."""
    return max(-limit, min(limit, v))


def world_to_body(dx: float, dz: float, yaw: float) -> tuple[float, float]:
    """A world XZ vector in body coordinates ``(forward, left)`` for a base with ``yaw``."""
    s, c = math.sin(yaw), math.cos(yaw)
    # forward = (-sin, -cos), left = (-cos, +sin) in (x, z)
    return -s * dx - c * dz, -c * dx + s * dz


def body_to_world(vx: float, vy: float, yaw: float) -> tuple[float, float]:
    """A body-frame planar vector ``(forward, left)`` in world XZ."""
    s, c = math.sin(yaw), math.cos(yaw)
    return -s * vx - c * vy, -c * vx + s * vy


@dataclass
class WaypointFollower:
    """Tracks a streamed waypoint path; call :meth:`command` at the control rate."""

    settings: FollowerSettings = field(default_factory=FollowerSettings)
    holonomic: bool = True
    _path: list[tuple[float, float, float]] = field(default_factory=list)
    _i: int = 0  # index of the next waypoint not yet passed
    _seg_start: tuple[float, float] | None = None
    _prev: tuple[float, float, float] | None = None
    _align: list[bool] = field(default_factory=list)
    _seg_align: bool = False  # the current segment starts at an align waypoint
    _stop_key: tuple[int, int] = (-1, -1)  # (waypoint index, path length) of _stop_at
    _stop_at: int = 0  # index of the next waypoint where the base stops (align or final)
    reached: bool = True
    brake_accel: float = math.inf

    def __post_init__(self) -> None:
        s = self.settings
        self._pid_f = PID(s.kp_lin, s.ki_lin, s.kd_lin, s.i_limit)
        self._pid_l = PID(s.kp_lin, s.ki_lin, s.kd_lin, s.i_limit)
        self._pid_w = PID(s.kp_ang, s.ki_ang, s.kd_ang, s.i_limit)

    @property
    def path(self) -> list[tuple[float, float, float]]:
        """Remaining waypoints (x, z, yaw)."""
        return self._path[self._i :]

    def set_path(self, waypoints: Sequence[Sequence[float]], start: Sequence[float] | None = None,
                 append: bool = False, align: Sequence[bool] | None = None) -> None:
        """Replace (or extend) the path; ``start`` = current (x, z) starts the first segment;
        ``align``: one flag per waypoint (module docs; the final waypoint's flag is ignored)."""
        pts = [(float(w[0]), float(w[1]), float(w[2]) if len(w) > 2 else math.nan)
               for w in waypoints]
        flags = [False] * len(pts) if align is None else [bool(a) for a in align]
        if len(flags) != len(pts):
            raise ValueError(f"align: expected {len(pts)} flags, got {len(flags)}")
        if append and not self.reached:
            self._path.extend(pts)
            self._align.extend(flags)
        else:
            self._path, self._align, self._i = pts, flags, 0
            self._seg_align = False
            self._seg_start = None if start is None else (float(start[0]), float(start[1]))
            for p in (self._pid_f, self._pid_l, self._pid_w):
                p.reset()
            self._prev = None
        self._stop_key = (-1, -1)
        self.reached = not self._path[self._i :]

    def clear(self) -> None:
        """Drop the path (the next command is zero velocity)."""
        self._path, self._align, self._i, self.reached = [], [], 0, True
        self._seg_align, self._stop_key = False, (-1, -1)

    def _target(self, x: float, z: float) -> tuple[float, float, bool]:
        """Lookahead target (x, z) and whether it is the final waypoint."""
        look = self.settings.lookahead
        path, align, hypot = self._path, self._align, math.hypot
        last = len(path) - 1
        i = self._i
        # Pass intermediate waypoints within the lookahead (align waypoints: see command).
        if i < last and not align[i] and hypot(path[i][0] - x, path[i][1] - z) < look:
            while i < last and not align[i] and hypot(path[i][0] - x, path[i][1] - z) < look:
                self._seg_start = path[i][:2]
                i += 1
            self._seg_align = False
            self._i = i
        if i == last and hypot(path[last][0] - x, path[last][1] - z) < look:
            return path[last][0], path[last][1], True
        # Project onto the current segment, then walk `look` metres along the remaining path.
        a = self._seg_start if self._seg_start is not None else (x, z)
        b = path[i]
        sx, sz = b[0] - a[0], b[1] - a[1]
        seg = hypot(sx, sz)
        t = 0.0 if seg < 1e-9 else max(0.0, min(1.0, ((x - a[0]) * sx + (z - a[1]) * sz) / seg**2))
        px, pz = a[0] + t * sx, a[1] + t * sz
        remaining = look
        k = i
        cx, cz = px, pz
        while True:
            nx, nz = path[k][0], path[k][1]
            d = hypot(nx - cx, nz - cz)
            if d >= remaining:
                f = remaining / d
                return cx + f * (nx - cx), cz + f * (nz - cz), False
            remaining -= d
            cx, cz = nx, nz
            if k == last or align[k]:
                return nx, nz, k == last
            k += 1

    def _brake(self, x: float, z: float, vx: float, vy: float) -> tuple[float, float]:
        """(vx, vy) scaled down to the speed from which ``brake_accel`` stops the base at the
        next stop waypoint (module docs)."""
        key = (self._i, len(self._path))
        if key != self._stop_key:
            last = len(self._path) - 1
            self._stop_at = next((k for k in range(self._i, last) if self._align[k]), last)
            self._stop_key = key
        px, pz, _ = self._path[self._stop_at]
        vmax = math.sqrt(2.0 * max(self.brake_accel, 0.0) * math.hypot(px - x, pz - z))
        v = math.hypot(vx, vy)
        if v > vmax:
            f = vmax / v
            return vx * f, vy * f
        return vx, vy

    def _settled(self, prev: tuple[float, float, float] | None, x: float, z: float, yaw: float,
                 dt: float, turning: bool = True) -> bool:
        """Whether the base moved slower than ``settle_speed`` (and, if ``turning`` counts,
        turned slower than ``settle_turn``) since the previous command at ``prev`` (x, z, yaw),
        ``dt`` seconds ago (0 speed without one)."""
        s = self.settings
        speed = turn = 0.0
        if prev is not None and dt > 0:
            speed = math.hypot(x - prev[0], z - prev[1]) / dt
            if turning:
                turn = abs(wrap_angle(yaw - prev[2])) / dt
        return speed < s.settle_speed and turn < s.settle_turn

    def command(self, x: float, z: float, yaw: float, dt: float) -> tuple[float, float, float]:
        """Body-frame velocity ``(vx, vy, ω)`` for the pose ``(x, z, yaw)``; updates ``reached``."""
        s = self.settings
        if self.reached or not self._path:
            self.reached = True
            return 0.0, 0.0, 0.0
        prev, self._prev = self._prev, (x, z, yaw)
        tx, tz, final = self._target(x, z)
        hold = False  # hold the segment's heading (a segment from or near an align waypoint)
        i = self._i
        if i < len(self._path) - 1 and self._align[i]:
            (ax, az, _), (bx, bz, _) = self._path[i], self._path[i + 1]
            out_yaw = math.atan2(-(bx - ax), -(bz - az)) if math.hypot(bx - ax, bz - az) > 1e-9 \
                else math.nan
            if math.hypot(ax - x, az - z) < s.align_tol:
                err = 0.0 if math.isnan(out_yaw) else wrap_angle(out_yaw - yaw)
                if abs(err) >= s.align_yaw_tol:  # turn in place on the align waypoint
                    ef, el = world_to_body(ax - x, az - z, yaw)
                    vx, vy = self._pid_f.update(ef, dt), self._pid_l.update(el, dt)
                    w = self._pid_w.update(err, dt)
                    if not self.holonomic:
                        vx, vy = 0.0, 0.0
                    return clip(vx, s.vx_max), clip(vy, s.vy_max), clip(w, s.omega_max)
                self._seg_start, self._i, self._seg_align = (ax, az), i + 1, True
                tx, tz, final = self._target(x, z)
            else:  # arriving: no spinning after the bearing to a close target
                hold = math.hypot(ax - x, az - z) < s.lookahead
        fx, fz, fyaw = self._path[-1]
        dist_final = math.hypot(fx - x, fz - z)
        yaw_goal = fyaw if (final and dist_final < s.face_path_distance) else math.nan
        # without a final yaw, a slow residual turn on the spot does not keep it from arriving
        # (a wheeled base's yaw servo at its traction cap hovers around 0.05 rad/s)
        if final and dist_final < s.pos_tol and \
                self._settled(prev, x, z, yaw, dt, turning=not math.isnan(fyaw)):
            yaw_err = 0.0 if math.isnan(fyaw) else wrap_angle(fyaw - yaw)
            if abs(yaw_err) < s.yaw_tol:
                self.reached = True
                self._i = len(self._path)
                return 0.0, 0.0, 0.0
        sn, cs = math.sin(yaw), math.cos(yaw)  # world_to_body, inlined
        dx, dz = tx - x, tz - z
        ef, el = -sn * dx - cs * dz, -cs * dx + sn * dz
        seg_yaw = math.nan
        if (self._seg_align or hold) and self._seg_start is not None and \
                self._i < len(self._path):
            sx, sz = self._seg_start
            bx, bz = self._path[self._i][0] - sx, self._path[self._i][1] - sz
            if math.hypot(bx, bz) > 1e-9:
                seg_yaw = math.atan2(-bx, -bz)
        if not math.isnan(yaw_goal):
            yaw_err = wrap_angle(yaw_goal - yaw)
        elif not math.isnan(seg_yaw):
            yaw_err = wrap_angle(seg_yaw - yaw)  # straight through the door, body aligned
        elif math.hypot(ef, el) > s.pos_tol:
            yaw_err = math.atan2(el, ef)  # face the target (direction of travel)
        else:
            yaw_err = 0.0
        vx = self._pid_f.update(ef, dt)
        vy = self._pid_l.update(el, dt)
        w = self._pid_w.update(yaw_err, dt)
        if self.brake_accel < math.inf:
            vx, vy = self._brake(x, z, vx, vy)
        if not self.holonomic:
            vy = 0.0
            if final and dist_final < s.lookahead and abs(el) < s.pos_tol:
                pass  # straight in/out along the heading; ω from the final yaw (if any)
            elif math.hypot(ef, el) >= s.pos_tol:
                bearing = math.atan2(el, ef)
                if final and dist_final < s.face_path_distance and abs(bearing) > math.pi / 2:
                    bearing = wrap_angle(bearing + math.pi)  # back up onto a close final target
                w = self._pid_w.kp * bearing
                vx = vx if abs(bearing) < s.turn_in_place else 0.0
            else:
                vx = 0.0
        # clip(v, m) = max(-m, min(m, v)), written out (50 Hz hot path)
        vm, ym, wm = s.vx_max, s.vy_max, s.omega_max
        vx = vx if vx < vm else vm
        vy = vy if vy < ym else ym
        w = w if w < wm else wm
        return (vx if vx > -vm else -vm), (vy if vy > -ym else -ym), (w if w > -wm else -wm)
