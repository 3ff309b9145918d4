"""Compiled 50 Hz waypoint follower (numba): the math of :class:`navbench.sim.controller.
WaypointFollower` over array state, so the simulator's control tick makes no Python-level calls.

State layout (owned by ``WaypointFollower``; indices below):

- ``path``: ``(N, 3)`` float64 waypoints ``(x, z, yaw)`` (m, m, rad; yaw ``nan`` = any heading),
  ``align``: ``(N,)`` uint8 align flags;
- ``fs``: float64 — settings ``P_*`` (``FollowerSettings`` order) then state ``S_*``: segment
  start (x, z), previous pose (x, z, yaw), the three PID integrals and previous errors, the
  braking deceleration (m/s²);
- ``fi``: int64 — next waypoint index, flags (segment start / previous pose / PID derivative
  known, segment starts at an align waypoint, reached, holonomic) and the cached stop waypoint.

The float operations are those of the former pure-Python follower, in the same order;
``math.hypot`` / ``atan2`` are libm's here (CPython's ``hypot`` is its own), so results can
differ from it in the last bit.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

# fs: settings (FollowerSettings field order) ...
P_LOOK, P_POS_TOL, P_YAW_TOL, P_VX, P_VY, P_W = 0, 1, 2, 3, 4, 5
P_KPL, P_KIL, P_KDL, P_KPA, P_KIA, P_KDA, P_ILIM = 6, 7, 8, 9, 10, 11, 12
P_FACE, P_TIP, P_SSPEED, P_STURN, P_ATOL, P_AYTOL = 13, 14, 15, 16, 17, 18
# ... then state
S_SEGX, S_SEGZ, S_PX, S_PZ, S_PYAW = 19, 20, 21, 22, 23
S_INT = 24  # PID integrals: forward, left, yaw (24, 25, 26)
S_ERR = 27  # PID previous errors (27, 28, 29)
S_BRAKE = 30
NF = 31
# fi
I_I, I_SEG, I_PREV = 0, 1, 2
I_DER = 3  # PID previous error known: forward, left, yaw (3, 4, 5)
I_SEGALIGN, I_KEYI, I_KEYN, I_STOP, I_REACHED, I_HOLO = 6, 7, 8, 9, 10, 11
NI = 12


@nb.njit(cache=True)
def wrap(a):
    """``navbench.geometry.wrap_angle``: wrap to (-π, π]."""
    a = np.fmod(a + math.pi, 2.0 * math.pi)  # C fmod (exact; numba has no math.fmod)
    if a <= 0.0:
        a += 2.0 * math.pi
    return a - math.pi


@nb.njit(cache=True)
def pid(fs, fi, k, err, dt):
    """PID ``k`` (0 forward, 1 left, 2 yaw) update: integral clamp, no derivative on the first
    step; the (unclipped) output."""
    if k == 2:
        kp, ki, kd = fs[P_KPA], fs[P_KIA], fs[P_KDA]
    else:
        kp, ki, kd = fs[P_KPL], fs[P_KIL], fs[P_KDL]
    lim = fs[P_ILIM]
    v = fs[S_INT + k] + err * dt
    v = v if v < lim else lim
    fs[S_INT + k] = v if v > -lim else -lim
    d = 0.0 if fi[I_DER + k] == 0 or dt <= 0 else (err - fs[S_ERR + k]) / dt
    fs[S_ERR + k] = err
    fi[I_DER + k] = 1
    return kp * err + ki * fs[S_INT + k] + kd * d


@nb.njit(cache=True)
def target(path, align, fs, fi, x, z):
    """Lookahead target ``(tx, tz, final)``; passes intermediate waypoints within the lookahead
    (never an align waypoint) and walks ``lookahead`` metres along the rest of the path."""
    look = fs[P_LOOK]
    last = path.shape[0] - 1
    i = fi[I_I]
    if i < last and align[i] == 0 and math.hypot(path[i, 0] - x, path[i, 1] - z) < look:
        while i < last and align[i] == 0 and math.hypot(path[i, 0] - x, path[i, 1] - z) < look:
            fs[S_SEGX], fs[S_SEGZ], fi[I_SEG] = path[i, 0], path[i, 1], 1
            i += 1
        fi[I_SEGALIGN] = 0
        fi[I_I] = i
    if i == last and math.hypot(path[last, 0] - x, path[last, 1] - z) < look:
        return path[last, 0], path[last, 1], True
    ax, az = (fs[S_SEGX], fs[S_SEGZ]) if fi[I_SEG] else (x, z)
    sx, sz = path[i, 0] - ax, path[i, 1] - az
    seg = math.hypot(sx, sz)
    t = 0.0 if seg < 1e-9 else max(0.0, min(1.0, ((x - ax) * sx + (z - az) * sz) / seg**2))
    cx, cz = ax + t * sx, az + t * sz
    remaining = look
    k = i
    while True:
        nx, nz = path[k, 0], path[k, 1]
        d = math.hypot(nx - cx, nz - cz)
        if d >= remaining:
            f = remaining / d
            return cx + f * (nx - cx), cz + f * (nz - cz), False
        remaining -= d
        cx, cz = nx, nz
        if k == last or align[k] != 0:
            return nx, nz, k == last
        k += 1


@nb.njit(cache=True)
def brake(path, align, fs, fi, x, z, vx, vy):
    """``(vx, vy)`` scaled down to ``sqrt(2 a d)``, d = distance to the next stop waypoint."""
    n = path.shape[0]
    if fi[I_KEYI] != fi[I_I] or fi[I_KEYN] != n:
        stop = n - 1
        for k in range(fi[I_I], n - 1):
            if align[k] != 0:
                stop = k
                break
        fi[I_STOP], fi[I_KEYI], fi[I_KEYN] = stop, fi[I_I], n
    s = fi[I_STOP]
    vmax = math.sqrt(2.0 * max(fs[S_BRAKE], 0.0) * math.hypot(path[s, 0] - x, path[s, 1] - z))
    v = math.hypot(vx, vy)
    if v > vmax:
        f = vmax / v
        return vx * f, vy * f
    return vx, vy


@nb.njit(cache=True)
def clip(v, m):
    """``max(-m, min(m, v))``."""
    v = v if v < m else m
    return v if v > -m else -m


@nb.njit(cache=True)
def command(path, align, fs, fi, x, z, yaw, dt):
    """Body-frame ``(vx, vy, ω)`` (m/s, m/s, rad/s) for the pose ``(x, z, yaw)``; updates the
    state (``WaypointFollower.command``)."""
    n = path.shape[0]
    if fi[I_REACHED] != 0 or n == 0:
        fi[I_REACHED] = 1
        return 0.0, 0.0, 0.0
    had_prev, qx, qz, qyaw = fi[I_PREV] != 0, fs[S_PX], fs[S_PZ], fs[S_PYAW]
    fs[S_PX], fs[S_PZ], fs[S_PYAW], fi[I_PREV] = x, z, yaw, 1
    tx, tz, final = target(path, align, fs, fi, x, z)
    hold = False  # hold the segment's heading (a segment from or near an align waypoint)
    i = fi[I_I]
    if i < n - 1 and align[i] != 0:
        ax, az, bx, bz = path[i, 0], path[i, 1], path[i + 1, 0], path[i + 1, 1]
        out_yaw = math.atan2(-(bx - ax), -(bz - az)) if math.hypot(bx - ax, bz - az) > 1e-9 \
            else math.nan
        if math.hypot(ax - x, az - z) < fs[P_ATOL]:
            err = 0.0 if math.isnan(out_yaw) else wrap(out_yaw - yaw)
            if abs(err) >= fs[P_AYTOL]:  # turn in place on the align waypoint
                s, c = math.sin(yaw), math.cos(yaw)
                dx, dz = ax - x, az - z
                vx = pid(fs, fi, 0, -s * dx - c * dz, dt)
                vy = pid(fs, fi, 1, -c * dx + s * dz, dt)
                w = pid(fs, fi, 2, err, dt)
                if fi[I_HOLO] == 0:
                    vx, vy = 0.0, 0.0
                return clip(vx, fs[P_VX]), clip(vy, fs[P_VY]), clip(w, fs[P_W])
            fs[S_SEGX], fs[S_SEGZ], fi[I_SEG], fi[I_I], fi[I_SEGALIGN] = ax, az, 1, i + 1, 1
            tx, tz, final = target(path, align, fs, fi, x, z)
        else:  # arriving: no spinning after the bearing to a close target
            hold = math.hypot(ax - x, az - z) < fs[P_LOOK]
    fx, fz, fyaw = path[n - 1, 0], path[n - 1, 1], path[n - 1, 2]
    dist_final = math.hypot(fx - x, fz - z)
    yaw_goal = fyaw if (final and dist_final < fs[P_FACE]) else math.nan
    if final and dist_final < fs[P_POS_TOL]:
        speed = turn = 0.0  # settled: slower than settle_speed (and settle_turn with a yaw)
        if had_prev and dt > 0:
            speed = math.hypot(x - qx, z - qz) / dt
            if not math.isnan(fyaw):
                turn = abs(wrap(yaw - qyaw)) / dt
        if speed < fs[P_SSPEED] and turn < fs[P_STURN]:
            yaw_err = 0.0 if math.isnan(fyaw) else wrap(fyaw - yaw)
            if abs(yaw_err) < fs[P_YAW_TOL]:
                fi[I_REACHED], fi[I_I] = 1, n
                return 0.0, 0.0, 0.0
    sn, cs = math.sin(yaw), math.cos(yaw)  # world → body
    dx, dz = tx - x, tz - z
    ef, el = -sn * dx - cs * dz, -cs * dx + sn * dz
    seg_yaw = math.nan
    i = fi[I_I]
    if (fi[I_SEGALIGN] != 0 or hold) and fi[I_SEG] != 0 and i < n:
        bx, bz = path[i, 0] - fs[S_SEGX], path[i, 1] - fs[S_SEGZ]
        if math.hypot(bx, bz) > 1e-9:
            seg_yaw = math.atan2(-bx, -bz)
    if not math.isnan(yaw_goal):
        yaw_err = wrap(yaw_goal - yaw)
    elif not math.isnan(seg_yaw):
        yaw_err = wrap(seg_yaw - yaw)  # straight through the door, body aligned
    elif math.hypot(ef, el) > fs[P_POS_TOL]:
        yaw_err = math.atan2(el, ef)  # face the target (direction of travel)
    else:
        yaw_err = 0.0
    vx = pid(fs, fi, 0, ef, dt)
    vy = pid(fs, fi, 1, el, dt)
    w = pid(fs, fi, 2, yaw_err, dt)
    if fs[S_BRAKE] < math.inf:
        vx, vy = brake(path, align, fs, fi, x, z, vx, vy)
    if fi[I_HOLO] == 0:
        vy = 0.0
        if final and dist_final < fs[P_LOOK] and abs(el) < fs[P_POS_TOL]:
            pass  # straight in/out along the heading; ω from the final yaw (if any)
        elif math.hypot(ef, el) >= fs[P_POS_TOL]:
            bearing = math.atan2(el, ef)
            if final and dist_final < fs[P_FACE] and abs(bearing) > math.pi / 2:
                bearing = wrap(bearing + math.pi)  # back up onto a close final target
            w = fs[P_KPA] * bearing
            vx = vx if abs(bearing) < fs[P_TIP] else 0.0
        else:
            vx = 0.0
    return clip(vx, fs[P_VX]), clip(vy, fs[P_VY]), clip(w, fs[P_W])
