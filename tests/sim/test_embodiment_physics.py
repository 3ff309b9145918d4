"""Embodiment capabilities measured on hand-built scenes: steps at several speeds, traction
(braking distance against the closed form v² / (2 μ g)), slope tilt and the 45° fall rule,
drops and gaps. The documented values are in ``navbench.sim.embodiments``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.scene.model import Mesh
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import VelocityAction

G = 9.81
SPEEDS = (0.1, 0.5, 1.5)  # commanded m/s (the Turtlebot clips to 0.46)


def drive(sim: Simulator, v: float, seconds: float) -> None:
    for _ in range(round(seconds / 0.1)):
        if sim.step(VelocityAction(v))[1]:
            break


def step_scene(h: float) -> Scene:
    """Floor; a step of height ``h`` from z = -1 to z = -9 (the robot drives -Z from z = 0)."""
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    curb = Box("curb", "curb", (0.0, h / 2, -5.0), (20.0, h, 8.0), label="curb")
    return Scene("step", "outdoor", "test", boxes=(floor, curb))


@pytest.mark.parametrize(("emb", "h", "climbs"), [
    (SPOT, 0.2, True), (SPOT, 0.25, False), (TURTLEBOT, 0.02, True), (TURTLEBOT, 0.03, False)])
def test_step_capability_is_speed_independent(emb, h, climbs):
    sim = Simulator(step_scene(h), emb)
    for v in SPEEDS:
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        drive(sim, v, 2.5 / min(v, emb.vx_max) + 2.0)
        _, y, z, _ = sim.pose()
        assert sim.label is None, v
        if climbs:  # on top of the step, well past its edge
            assert z < -2.0 and y == pytest.approx(h, abs=0.01), v
        else:  # the sole's front (half length ≤ 0.55 m) stops at the edge, on the floor
            assert -1.0 < z < -0.4 and abs(y) < 0.01, v
    assert not sim.records()["collision"].any()  # a curb is ground, not a collision


def brake_distance(emb, mu: float, v: float) -> float:
    floor = Box("floor", "floor", (0.0, -0.05, -20.0), (10.0, 0.1, 60.0), label="floor")
    sim = Simulator(Scene("flat", "indoor", "test", boxes=(floor,)), emb,
                    SimSettings(friction_override={"floor": mu}))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    drive(sim, v, v / (min(emb.force_cap, mu) * G) + 1.0)  # accelerate (traction-limited) + cruise
    assert -sim.data.qvel[2] == pytest.approx(v, abs=0.01)
    z0 = sim.pose()[2]
    drive(sim, 0.0, 2.0 * v / (min(emb.force_cap, mu) * G) + 1.0)
    return float(z0 - sim.pose()[2])


@pytest.mark.parametrize(("emb", "v", "mu"), [
    (SPOT, 1.0, 0.05), (SPOT, 1.0, 0.2), (SPOT, 1.0, 0.8),
    (TURTLEBOT, 0.4, 0.05), (TURTLEBOT, 0.4, 0.2), (TURTLEBOT, 0.4, 0.8)])
def test_braking_distance_matches_traction_closed_form(emb, v, mu):
    a = min(emb.force_cap, mu) * G  # Turtlebot's motor cap 0.5 g binds at μ = 0.8
    closed = v * v / (2.0 * a)
    # within 8% plus one 0.02 s control tick at speed v (the command starts on a tick)
    assert brake_distance(emb, mu, v) == pytest.approx(closed, abs=0.08 * closed + 0.02 * v)


def test_friction_scale_slows_acceleration_of_both_robots():
    floor = Box("floor", "floor", (0.0, -0.05, -10.0), (10.0, 0.1, 40.0), label="floor")
    scene = Scene("flat", "indoor", "test", boxes=(floor,))
    for emb in (SPOT, TURTLEBOT):
        out = []
        for scale in (1.0, 0.1):  # floor μ 0.8 → 0.08
            sim = Simulator(scene, emb, SimSettings(friction_scale=scale))
            sim.reset_to((0.0, 0.0, 0.0), 0.0)
            drive(sim, emb.vx_max, 0.3)
            out.append(-sim.data.qvel[2])
        # after 0.3 s: v = min(a t, vx_max) with a = min(force_cap, μ) g
        assert out[1] == pytest.approx(0.08 * G * 0.3, abs=0.03)
        assert out[0] == pytest.approx(min(emb.vx_max, min(emb.force_cap, 0.8) * G * 0.3), abs=0.03)


def ramp_scene(deg: float) -> Scene:
    """Flat terrain for z > 0, a plane rising at ``deg`` toward -Z over 3 m, then a plateau
    (a triangle mesh: the world rasterises it into a heightfield)."""
    t = math.tan(math.radians(deg))
    zs, ys = (6.0, 0.0, -3.0, -8.0), (0.0, 0.0, 3.0 * t, 3.0 * t)
    v = [(x, y, z) for z, y in zip(zs, ys, strict=True) for x in (-5.0, 5.0)]
    f = [(a, a + 1, a + 3) for a in (0, 2, 4)] + [(a, a + 3, a + 2) for a in (0, 2, 4)]
    mesh = Mesh("ramp", "terrain", np.array(v, float), np.array(f), label="terrain")
    return Scene(f"ramp{deg}", "outdoor", "test", meshes=(mesh,))


@pytest.mark.parametrize(("emb", "deg"), [(SPOT, 20.0), (SPOT, 30.0), (TURTLEBOT, 15.0)])
def test_body_tilts_with_the_slope(emb, deg):
    sim = Simulator(ramp_scene(deg), emb)
    sim.reset_to((0.0, 0.0, 1.0), 0.0)
    drive(sim, 0.5, 12.0)
    rec = sim.records()
    on_ramp = (rec["position"][:, 2] < -1.0) & (rec["position"][:, 2] > -2.0)
    assert on_ramp.any() and sim.label is None
    assert np.degrees(rec["tilt"][on_ramp]) == pytest.approx(deg, abs=1.0)
    assert sim.pose()[1] == pytest.approx(3.0 * math.tan(math.radians(deg)), abs=0.03)


def test_slope_beyond_traction_holds_the_turtlebot_back():
    # sin 30° = 0.5 = the Turtlebot's motor cap: it cannot drive up; Spot (cap 3 g, μ 0.7) can.
    sim = Simulator(ramp_scene(30.0), TURTLEBOT)
    sim.reset_to((0.0, 0.0, 1.0), 0.0)
    drive(sim, 0.5, 10.0)
    assert sim.pose()[1] < 0.5  # it slides back to the foot of the ramp (and may tip over)
    sim = Simulator(ramp_scene(30.0), SPOT)
    sim.reset_to((0.0, 0.0, 1.0), 0.0)
    drive(sim, 0.5, 12.0)
    assert sim.label is None
    assert sim.pose()[1] == pytest.approx(3.0 * math.tan(math.radians(30.0)), abs=0.05)


@pytest.mark.parametrize(("emb", "deg", "falls"), [
    (SPOT, 40.0, False), (SPOT, 50.0, True), (TURTLEBOT, 25.0, False)])
def test_standing_on_a_slope_tilts_the_body_and_past_45_degrees_falls(emb, deg, falls):
    # dropped level from just above the slope (front edge clear), settled for 2 s before t = 0
    sim = Simulator(ramp_scene(deg), emb, SimSettings(settle_time=2.0))
    half = emb.sole_size[2] / 2.0
    sim.reset_to((0.0, (1.5 + half) * math.tan(math.radians(deg)) + 0.01, -1.5), 0.0)
    drive(sim, 0.0, 1.0)
    if falls:
        assert sim.label == "fall" and sim.fall_reason == "tilt"
        assert sim.records()["tilt"][-1] > math.radians(45.0)
    else:
        assert sim.label is None
        assert math.degrees(sim.tilt()) == pytest.approx(deg, abs=1.0)


def ledge_scene(h: float) -> Scene:
    """A platform of height ``h`` for z > -1 and the floor beyond (a step down of ``h``)."""
    hi = Box("hi", "floor", (0.0, h - 0.05, 2.0), (20.0, 0.1, 6.0), label="floor")
    lo = Box("lo", "floor", (0.0, -0.05, -6.0), (20.0, 0.1, 10.0), label="floor")
    return Scene("ledge", "outdoor", "test", boxes=(hi, lo))


@pytest.mark.parametrize(("emb", "h", "survives"), [
    (SPOT, 0.35, True), (SPOT, 0.45, False), (TURTLEBOT, 0.04, True), (TURTLEBOT, 0.1, False)])
def test_step_down_with_the_drop_rule_survives_below_max_drop_at_every_speed(emb, h, survives):
    assert (h < emb.max_drop) == survives
    sim = Simulator(ledge_scene(h), emb, SimSettings(drop_rule=True))
    for v in SPEEDS:
        sim.reset_to((0.0, h, 0.5), 0.0)
        drive(sim, v, 2.0 / min(v, emb.vx_max) + 2.0)
        if survives:
            assert sim.label is None and sim.pose()[1] == pytest.approx(0.0, abs=0.01), v
        else:  # by the drop rule, or (Spot creeping at 0.1 m/s) tipping over the edge
            assert (sim.label, sim.fall_reason) in (("drop", "drop"), ("fall", "tilt")), v


@pytest.mark.parametrize(("emb", "gap"), [(SPOT, 0.4), (TURTLEBOT, 0.2)])
def test_gap_up_to_max_gap_is_crossed(emb, gap):
    assert gap <= emb.max_gap
    a = Box("a", "floor", (0.0, -0.05, 3.0), (20.0, 0.1, 6.0), label="floor")
    b = Box("b", "floor", (0.0, -0.05, -gap - 5.0), (20.0, 0.1, 10.0), label="floor")
    sim = Simulator(Scene("gap", "outdoor", "test", boxes=(a, b)), emb)
    for v in SPEEDS:
        sim.reset_to((0.0, 0.0, 1.0), 0.0)
        drive(sim, v, 2.0 / min(v, emb.vx_max) + 2.0)
        assert sim.label is None and sim.pose()[2] < -gap - 0.6, v
        assert sim.pose()[1] == pytest.approx(0.0, abs=0.01)


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_an_episode_does_not_depend_on_the_previous_one(emb):
    # the traction caps live in the MuJoCo model: reset must restore them
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    scene = Scene("flat", "indoor", "test", boxes=(floor,))

    def episode(sim: Simulator, v: float) -> np.ndarray:
        sim.reset_to((0.0, 0.0, 0.0), 0.3)
        for _ in range(20):
            sim.step(VelocityAction(v, 0.1, 0.5))
        return sim.records()["position"].copy()

    sim = Simulator(scene, emb)
    first = episode(sim, 0.5)
    episode(sim, -0.3)
    assert np.array_equal(episode(sim, 0.5), first)
    assert np.array_equal(episode(Simulator(scene, emb), 0.5), first)


@pytest.mark.parametrize(("emb", "h"), [(SPOT, 0.2), (TURTLEBOT, 0.02)])
def test_step_is_climbed_on_low_friction_too(emb, h):
    # pitched on the step's corner the sole pushes with the edge force, not with μ m g: Spot
    # used to stall on a 0.2 m curb at μ 0.27 (tilted 24°, needing sin 24° = 0.41 > μ)
    sim = Simulator(step_scene(h), emb, SimSettings(friction_scale=0.3))
    for v in SPEEDS:
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        drive(sim, v, 2.5 / min(v, emb.vx_max) + 3.0)
        _, y, z, _ = sim.pose()
        assert sim.label is None and z < -2.0 and y == pytest.approx(h, abs=0.01), v
