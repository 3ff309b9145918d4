"""Wheel traction of a differential drive: one friction budget for drive, side force and yaw.

A differential-drive base (two driven wheels of track ``b``, passive casters that carry no
traction) transmits every horizontal force through its two wheel contacts. In the body frame
(``fx`` forward, ``fy`` left, N; ``tau`` yaw torque about +Y, N m) the wheel forces are

- longitudinal: ``F_R = fx / 2 + tau / b`` and ``F_L = fx / 2 - tau / b`` (torque = wheel
  force difference × half track ``b / 2``),
- lateral: ``fy / 2`` each (the non-holonomic constraint is held by friction only),

and each wheel, loaded with ``N / 2``, stays in static contact while its force lies inside its
friction circle ``F_long² + F_lat² ≤ (μ N / 2)²``. The worse wheel bounds the whole base:

    (|fx| + |tau| / (b / 2))² + fy² ≤ (μ N)²                                   (1)

and the wheel motors bound the longitudinal wheel forces, ``|fx| + |tau| / (b / 2) ≤ F_motor``.
Consequences (closed forms the tests check): a base on a circle of radius r at speed v skids
outward when ``v² / r > μ g`` (pure side force ``m v² / r`` against ``μ m g``); turning in place
accelerates the yaw at most at ``μ N (b / 2) / I_yaw``; accelerating or braking while turning
leaves less for either. A legged base (feet re-plant every step) keeps the simpler model of
:mod:`navbench.sim.embodiments`: planar force ≤ ``min(force_cap, μ) m g``, yaw uncapped.

The simulator's velocity servos saturate almost always (their gains are large), so
:func:`wheel_limits` scales the servo *demand* (force and torque the servos ask for) onto the
boundary of (1) and of the motor limit, keeping the demand's direction; that is the largest force
the contact can transmit in the direction the controller pushes.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np


@nb.njit(cache=True)  # called from the compiled contact scan (sim.tick_kernels) at 50 Hz
def wheel_scale(fx: float, fy: float, tau: float, mu_n: float, motor: float,
                half_track: float) -> float:
    """Largest ``k ≥ 0`` such that ``k · (fx, fy, tau)`` satisfies the friction budget (1) and
    the motor limit (module docs); ``inf`` for a zero demand.

    Args:
        fx, fy: body-frame planar force demand (N; forward, left).
        tau: yaw torque demand (N m).
        mu_n: μ N, friction coefficient times the normal load of the drive wheels (N).
        motor: motor limit on ``|fx| + |tau| / (b / 2)`` (N).
        half_track: half the wheel track b / 2 (m).

    >>> round(wheel_scale(0.0, 10.0, 0.0, 5.0, 100.0, 0.1), 6)  # pure side force: μ N / |fy|
    0.5
    >>> round(wheel_scale(0.0, 0.0, 2.0, 5.0, 100.0, 0.1), 6)  # pure torque: μ N (b/2) / |tau|
    0.25
    >>> round(wheel_scale(4.0, 3.0, 0.0, 5.0, 2.0, 0.1), 6)  # motor-limited drive: 2 / 4
    0.5
    """
    g = abs(fx) + abs(tau) / half_track  # the worse wheel's longitudinal share, ×2
    k = math.inf
    r = math.hypot(g, fy)
    if r > 0.0:
        k = max(mu_n, 0.0) / r
    if g > 0.0:
        k = min(k, max(motor, 0.0) / g)
    return k


@nb.njit(cache=True)
def wheel_limits(ex: float, ez: float, yaw: float, ew: float, kv: float,
                 mu_n: float, motor: float, half_track: float) -> tuple[float, float, float]:
    """Force caps for the world-axis planar servos and the yaw servo of a wheeled base.

    Args:
        ex, ez: world-frame velocity error of the planar servos (m/s, Habitat X and Z).
        yaw: base heading (rad; 0 faces -Z, counter-clockwise positive seen from above).
        ew: yaw-rate error of the yaw servo (rad/s).
        kv: servo gain (N s/m for the planar servos, the same number in N m s/rad for yaw).
        mu_n, motor, half_track: as in :func:`wheel_scale`.

    Returns:
        ``(cap_x, cap_z, cap_yaw)``: non-negative force bounds (N, N, N m) such that the servo
        forces ``kv · (ex, ez)`` and ``kv · ew`` scaled onto them lie on the boundary of the
        traction budget (module docs), split over the world axes along the error direction.
        A zero demand gets each limit on its own (no yaw torque: ``min(motor, μ N)`` per axis).

    >>> cx, cz, ct = wheel_limits(0.0, 0.0, 0.0, 3.0, 10.0, 5.0, 100.0, 0.1)  # turn in place
    >>> round(cx, 6), round(cz, 6), round(ct, 6)  # all of μ N goes to the yaw: μ N b / 2
    (0.0, 0.0, 0.5)
    """
    s, c = math.sin(yaw), math.cos(yaw)
    fwd, left = -s * ex - c * ez, -c * ex + s * ez  # body components of the planar error
    k = wheel_scale(kv * fwd, kv * left, kv * ew, mu_n, motor, half_track)
    if math.isinf(k):
        cap = min(max(motor, 0.0), max(mu_n, 0.0))
        return cap * math.sqrt(0.5), cap * math.sqrt(0.5), 0.0
    return k * kv * abs(ex), k * kv * abs(ez), k * kv * abs(ew)


def lateral_slip(position: np.ndarray, yaw: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Sideways speed of the base between consecutive records (m/s, one value per interval).

    The displacement of the ground point over each interval, projected on the body's left
    axis at the interval's mean heading, divided by its duration: ≈ 0 for a wheeled base that
    rolls (non-holonomic), the skid speed when its wheels slide sideways.

    Args:
        position: ``(N, 3)`` ground points (m, Habitat frame).
        yaw: ``(N,)`` headings (rad).
        t: ``(N,)`` times (s).

    >>> p = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, -0.1], [-0.05, 0.0, -0.2]])
    >>> lateral_slip(p, np.zeros(3), np.array([0.0, 0.1, 0.2])).round(3).tolist()
    [0.0, 0.5]
    """
    position, yaw, t = np.asarray(position, float), np.asarray(yaw, float), np.asarray(t, float)
    if len(t) < 2:
        return np.zeros(0)
    d = np.diff(position[:, [0, 2]], axis=0)
    dy = np.diff(yaw)
    mid = yaw[:-1] + 0.5 * np.arctan2(np.sin(dy), np.cos(dy))
    left = -np.cos(mid) * d[:, 0] + np.sin(mid) * d[:, 1]  # body left = (-cos, +sin) in (x, z)
    dt = np.maximum(np.diff(t), 1e-9)
    return np.abs(left) / dt


__all__ = ["lateral_slip", "wheel_limits", "wheel_scale"]
