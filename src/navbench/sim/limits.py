"""Measured embodiment limits: step up, step down, slope and gap, at several commanded speeds.

Each trial builds a hand-made scene (boxes, or a triangle-mesh ramp that the world turns into
its heightfield), puts the robot on flat ground 1 m before the feature, facing it (-Z), and
drives straight at a constant body velocity ``v`` until the ground point is ``past`` metres
beyond the feature, the episode ends (``fall`` / ``drop``), the robot makes no progress for
:data:`STALL_TIME` seconds, or a time limit passes. A trial *passes* when the robot got beyond
the feature standing on the far ground (height within 3 cm of it), without a fall.

- step up ``h``: floor, then a box ``h`` tall (a curb);
- step down ``h``: a platform ``h`` high, then the floor;
- slope ``θ``: a ramp rising at θ over 3 m (a mesh: the heightfield path), then a plateau;
- gap ``w``: floor, a gap ``w`` wide with nothing below it for 5 m, floor.

:func:`limit` scans values upward and returns the largest value before the first failure (the
limit at that speed) with the outcome that ended the scan; :func:`measure_limits` does it for
every feature and speed. With ``drop_rule`` the simulator's drop rule is on
(:attr:`~navbench.sim.SimSettings.drop_rule`): a step down deeper than ``max_drop`` then ends
as ``drop``. ``benchmarks/bench_limits.py`` prints the README's table from it;
``tests/sim/test_embodiment_limits.py`` checks the documented values of
:mod:`navbench.sim.embodiments` at several speeds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from navbench.scene import Box, Scene
from navbench.scene.model import Mesh
from navbench.sim.actions import VelocityAction
from navbench.sim.embodiments import Embodiment
from navbench.sim.protocols import SimSettings
from navbench.sim.simulator import Simulator

#: Commanded speeds of the measurements (m/s; the Turtlebot clips to its 0.46 m/s).
SPEEDS = (0.1, 0.5, 1.0, 1.5)
#: No progress (``STALL_DISTANCE`` of the ground point) for this long ends a trial as
#: ``blocked`` (s); a robot that slips back for a moment at its limit and goes on is not.
STALL_TIME = 5.0
STALL_DISTANCE = 0.05
FEATURES = ("step_up", "step_down", "slope", "gap")


def _floor(name: str, y: float, z0: float, z1: float) -> Box:
    """A 20 m wide floor slab (0.1 m thick) with its top at ``y``, from z0 to z1 (z0 > z1)."""
    return Box(name, "floor", (0.0, y - 0.05, (z0 + z1) / 2.0), (20.0, 0.1, z0 - z1),
               label="floor")


def step_up_scene(h: float) -> Scene:
    """Floor for z > -1; a box ``h`` tall from z = -1 to -15 (its top is the far ground)."""
    curb = Box("curb", "curb", (0.0, h / 2.0, -8.0), (20.0, h, 14.0), label="curb")
    return Scene(f"step_up_{h:.3f}", "outdoor", "limits",
                 boxes=(_floor("floor", 0.0, 6.0, -15.0), curb))


def step_down_scene(h: float) -> Scene:
    """A platform with its top at ``h`` for z > -1; the floor (top 0) beyond."""
    return Scene(f"step_down_{h:.3f}", "outdoor", "limits",
                 boxes=(_floor("hi", h, 6.0, -1.0), _floor("lo", 0.0, -1.0, -15.0)))


def ramp_scene(deg: float, run: float = 3.0) -> Scene:
    """Flat for z > 0, a plane rising at ``deg`` toward -Z over ``run`` metres, then a plateau
    to z = -15 (one triangle mesh: the world rasterises it into its heightfield)."""
    top = run * math.tan(math.radians(deg))
    zs, ys = (6.0, 0.0, -run, -15.0), (0.0, 0.0, top, top)
    v = [(x, y, z) for z, y in zip(zs, ys, strict=True) for x in (-5.0, 5.0)]
    f = [(a, a + 1, a + 3) for a in (0, 2, 4)] + [(a, a + 3, a + 2) for a in (0, 2, 4)]
    mesh = Mesh("ramp", "terrain", np.array(v, float), np.array(f), label="terrain")
    return Scene(f"ramp_{deg:.1f}", "outdoor", "limits", meshes=(mesh,))


def gap_scene(w: float) -> Scene:
    """Floor for z > -1, nothing from z = -1 to -1 - ``w`` (5 m deep), floor beyond."""
    pit = Box("pit", "floor", (0.0, -5.05, -1.0 - w / 2.0), (20.0, 0.1, w + 2.0), label="floor")
    return Scene(f"gap_{w:.3f}", "outdoor", "limits",
                 boxes=(_floor("a", 0.0, 6.0, -1.0), _floor("b", 0.0, -1.0 - w, -15.0), pit))


@dataclass(frozen=True)
class Trial:
    """One drive at a feature.

    Attributes:
        passed: beyond the feature, on the far ground, no fall.
        outcome: ``"passed"``, ``"blocked"`` (no progress), ``"fall"`` / ``"drop"`` (the
            label), ``"sunk"`` (beyond the feature but below the far ground) or ``"slow"``
            (the time limit passed while it still moved).
        max_tilt: largest body tilt during the trial (degrees).
        final: the final ground point ``(y, z)`` (m).
    """

    passed: bool
    outcome: str
    max_tilt: float
    final: tuple[float, float]


def _scene_and_goal(feature: str, value: float, emb: Embodiment) -> tuple[Scene, float, float, float]:
    """Scene, start height, far-ground height and the z the ground point must pass."""
    half = emb.half_extents[1]
    if feature == "step_up":
        return step_up_scene(value), 0.0, value, -1.0 - half - 0.5
    if feature == "step_down":
        return step_down_scene(value), value, 0.0, -1.0 - half - 0.5
    if feature == "slope":
        top = 3.0 * math.tan(math.radians(value))
        return ramp_scene(value), 0.0, top, -3.0 - half - 0.5
    if feature == "gap":
        return gap_scene(value), 0.0, 0.0, -1.0 - value - half - 0.5
    raise ValueError(f"unknown feature {feature!r}; expected one of {FEATURES}")


def trial(emb: Embodiment, feature: str, value: float, speed: float, *,
          drop_rule: bool = False, settings: SimSettings | None = None) -> Trial:
    """Drive ``emb`` at ``speed`` m/s (clipped to its ``vx_max``) at one ``feature`` of size
    ``value`` (m, or degrees for ``slope``); see the module docs."""
    scene, y0, y_far, z_goal = _scene_and_goal(feature, value, emb)
    s = settings or SimSettings(drop_rule=drop_rule)
    sim = Simulator(scene, emb, s)
    start_z = 0.0 if feature != "slope" else 1.0
    sim.reset_to((0.0, y0, start_z), 0.0)
    v = min(speed, emb.vx_max)
    limit = (start_z - z_goal) / v + 2.0 * STALL_TIME + 5.0
    best_z, best_t = start_z, 0.0
    while sim.label is None and sim.time < limit:
        sim.step(VelocityAction(v))
        z = float(sim.pose()[2])
        if z < z_goal:
            break
        if z < best_z - STALL_DISTANCE:
            best_z, best_t = z, sim.time
        elif sim.time - best_t > STALL_TIME:
            break
    rec = sim.records()
    _, y, z, _ = sim.pose()
    tilt = float(np.degrees(rec["tilt"].max()))
    if sim.label is not None:
        outcome = str(sim.label)
    elif z < z_goal:
        outcome = "passed" if abs(y - y_far) <= 0.03 else "sunk"
    else:
        outcome = "blocked" if sim.time - best_t > STALL_TIME else "slow"
    return Trial(outcome == "passed", outcome, tilt, (float(y), float(z)))


@dataclass(frozen=True)
class Limit:
    """A measured limit at ``speed`` (m/s): ``value`` passed (``None``: not even the smallest
    value scanned); ``failure`` the outcome at ``next_value``, the smallest failed value
    (``None``: every value scanned passed), whose largest body tilt was ``failure_tilt``
    (degrees)."""

    feature: str
    speed: float
    value: float | None
    failure: str | None
    next_value: float | None
    failure_tilt: float | None


def limit(emb: Embodiment, feature: str, speed: float, *, drop_rule: bool = False,
          values: tuple[float, float, float, float] | None = None,
          run: Callable[..., Trial] = trial) -> Limit:
    """The limit of ``feature`` at ``speed``: values ``lo, lo + coarse, ...`` up to ``hi`` are
    tried in turn; at the first failure the interval since the last pass is tried again in
    ``fine`` steps. ``values`` = ``(lo, hi, coarse, fine)``, default :func:`scan_values`."""
    lo, hi, coarse, fine = values or scan_values(emb, feature)
    best: float | None = None
    fail: tuple[float, Trial] | None = None
    for v in np.round(np.arange(lo, hi + coarse / 2, coarse), 4):
        t = run(emb, feature, float(v), speed, drop_rule=drop_rule)
        if not t.passed:
            fail = float(v), t
            break
        best = float(v)
    if fail is not None and fine < coarse:
        start = lo if best is None else best + fine
        for v in np.round(np.arange(start, fail[0] - fine / 2, fine), 4):
            t = run(emb, feature, float(v), speed, drop_rule=drop_rule)
            if not t.passed:
                fail = float(v), t
                break
            best = float(v)
    if fail is None:
        return Limit(feature, speed, best, None, None, None)
    return Limit(feature, speed, best, fail[1].outcome, fail[0], fail[1].max_tilt)


def scan_values(emb: Embodiment, feature: str) -> tuple[float, float, float, float]:
    """``(lo, hi, coarse, fine)`` of :func:`limit` for ``feature`` (m; degrees for slopes):
    a climbable step of a few centimetres (the Turtlebot's) is scanned in 5 mm, others in
    1 cm; step downs and gaps up to 1.5 m in 10 cm then 1 cm (2 cm then 5 mm); slopes from 5°
    to 60° in 5° then 1°."""
    small = emb.max_step < 0.05
    if feature == "step_up":
        d = 0.005 if small else 0.01
        return d, 1.5 * emb.chamfer_height, d, d
    if feature in ("step_down", "gap"):
        return (0.02, 1.5, 0.02, 0.005) if small else (0.1, 1.5, 0.1, 0.01)
    if feature == "slope":
        return 5.0, 60.0, 5.0, 1.0
    raise ValueError(f"unknown feature {feature!r}; expected one of {FEATURES}")


def measure_limits(emb: Embodiment, speeds: Sequence[float] = SPEEDS,
                   features: Sequence[str] = FEATURES, *, drop_rule: bool = False) -> list[Limit]:
    """Every feature's :func:`limit` at every speed (speeds above ``vx_max`` are measured
    once, at ``vx_max``)."""
    out: list[Limit] = []
    for v in sorted({min(sp, emb.vx_max) for sp in speeds}):
        out.extend(limit(emb, f, v, drop_rule=drop_rule) for f in features)
    return out


__all__ = ["FEATURES", "SPEEDS", "STALL_DISTANCE", "STALL_TIME", "Limit", "Trial", "gap_scene", "limit",
           "measure_limits", "ramp_scene", "scan_values", "step_down_scene", "step_up_scene",
           "trial"]
