"""Wheel traction (``navbench.sim.traction``): the friction budget against per-wheel forces
computed by hand, and the simulated wheeled base against closed forms on a flat floor —
skidding on a circle when v² / r > μ g, turn-in-place acceleration μ m g (b/2) / I_yaw —
with Spot (legged) unaffected."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from navbench.errors import ConfigError
from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import VelocityAction
from navbench.sim.embodiments import Embodiment
from navbench.sim.traction import lateral_slip, wheel_limits, wheel_scale

G = 9.81


def wheel_forces(fx: float, fy: float, tau: float, track: float) -> list[tuple[float, float]]:
    """(longitudinal, lateral) force of the right and left wheel, by statics."""
    return [(fx / 2 + tau / track, fy / 2), (fx / 2 - tau / track, fy / 2)]


@pytest.mark.parametrize(("fx", "fy", "tau"), [
    (10.0, 0.0, 0.0), (0.0, 10.0, 0.0), (0.0, 0.0, 1.0), (3.0, -4.0, 0.5), (-6.0, 2.0, -0.3)])
def test_scaled_demand_puts_the_worse_wheel_on_its_friction_circle(fx, fy, tau):
    mu_n, track = 4.0, 0.233  # N (both wheels), m
    k = wheel_scale(fx, fy, tau, mu_n, motor=1e9, half_track=track / 2)
    worst = max(math.hypot(*w) for w in wheel_forces(k * fx, k * fy, k * tau, track))
    assert worst == pytest.approx(mu_n / 2, rel=1e-9)  # each wheel carries N / 2


def test_motor_limit_bounds_the_wheel_drive_forces_only():
    # the motor bounds |F_wheel| ≤ motor / 2 in the rolling direction; side force is friction's
    k = wheel_scale(2.0, 0.0, 0.1, mu_n=100.0, motor=3.0, half_track=0.1)
    assert max(abs(w[0]) for w in wheel_forces(2.0 * k, 0.0, 0.1 * k, 0.2)) == pytest.approx(1.5)
    assert wheel_scale(0.0, 5.0, 0.0, mu_n=100.0, motor=3.0, half_track=0.1) == pytest.approx(20.0)
    assert math.isinf(wheel_scale(0.0, 0.0, 0.0, 1.0, 1.0, 0.1))


def test_limits_keep_the_error_direction_in_the_world_frame():
    # heading 90° (facing -X): a world error along -X is forward, motor-limited at 2 N
    cx, cz, ct = wheel_limits(-0.5, 0.0, math.pi / 2, 0.0, kv=100.0, mu_n=10.0, motor=2.0,
                              half_track=0.1)
    assert (cx, cz, ct) == pytest.approx((2.0, 0.0, 0.0))
    # the same error along +Z is sideways there: friction-limited at μ N = 10 N
    cx, cz, ct = wheel_limits(0.0, 0.5, math.pi / 2, 0.0, kv=100.0, mu_n=10.0, motor=2.0,
                              half_track=0.1)
    assert (cx, cz, ct) == pytest.approx((0.0, 10.0, 0.0))


def test_lateral_slip_of_a_hand_drawn_skid():
    t = np.arange(4) * 0.1
    yaw = np.full(4, math.pi / 2)  # facing -X: left is +Z
    pos = np.array([[0.0, 0.0, 0.0], [-0.1, 0.0, 0.0], [-0.2, 0.0, 0.03], [-0.3, 0.0, 0.03]])
    assert lateral_slip(pos, yaw, t) == pytest.approx([0.0, 0.3, 0.0], abs=1e-12)


def flat() -> Scene:
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (60.0, 0.1, 60.0), label="floor")
    return Scene("flat", "indoor", "test", boxes=(floor,))


def circle_run(emb: Embodiment, mu: float, v: float, r: float) -> tuple[float, float]:
    """Cruise straight at v, then command the circle (v, ω = v / r) for 4 s; returns the
    radius of the circle fitted to the last 2 s and the mean sideways slip there (m, m/s)."""
    sim = Simulator(flat(), emb, SimSettings(friction_override={"floor": mu}))
    sim.reset_to((0.0, 0.0, 10.0), 0.0)
    for _ in range(30):
        sim.step(VelocityAction(v, 0.0, 0.0))
    for _ in range(40):
        sim.step(VelocityAction(v, 0.0, v / r))
    rec = sim.records()
    q = rec["position"][-20:, [0, 2]]
    a = np.c_[2.0 * q, np.ones(len(q))]
    c = np.linalg.lstsq(a, (q**2).sum(1), rcond=None)[0]
    slip = lateral_slip(rec["position"][-21:], rec["yaw"][-21:], rec["t"][-21:])
    return math.sqrt(c[2] + c[0] ** 2 + c[1] ** 2), float(slip.mean())


@pytest.mark.parametrize(("mu", "holds"), [(0.1, True), (0.08, True), (0.05, False), (0.03, False)])
def test_wheeled_base_skids_on_a_circle_when_v2_over_r_exceeds_mu_g(mu, holds):
    v, r = 0.45, 0.3  # v² / r = 0.675 m/s² → μ* = 0.069
    assert (v * v / r <= mu * G) == holds
    radius, slip = circle_run(TURTLEBOT, mu, v, r)
    if holds:
        assert radius == pytest.approx(r, rel=0.03) and slip < 0.06
    else:
        assert slip > 0.15  # the wheels slide sideways


def spin_up(emb: Embodiment, mu: float) -> tuple[np.ndarray, float]:
    """Yaw rate after each agent step of a 1.5 rad/s turn in place from rest, and I_yaw."""
    sim = Simulator(flat(), emb, SimSettings(friction_override={"floor": mu}))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    w = []
    for _ in range(12):
        sim.step(VelocityAction(0.0, 0.0, 1.5))
        w.append(float(sim.data.qvel[3]))
    inertia = np.zeros((sim.model.nv, sim.model.nv))
    mujoco.mj_fullM(sim.model, sim.data, inertia)
    return np.array(w), float(inertia[3, 3])


@pytest.mark.parametrize("mu", [0.03, 0.05])
def test_turn_in_place_acceleration_is_traction_limited_at_low_mu(mu):
    w, inertia = spin_up(TURTLEBOT, mu)
    alpha = mu * TURTLEBOT.weight * (TURTLEBOT.wheel_track / 2) / inertia  # rad/s²
    assert 1.5 / alpha > 1.0  # still spinning up after 1 s
    # rate gained per 0.1 s agent step (the first control tick runs with the reset's caps)
    assert np.diff(w[:10]) == pytest.approx(np.full(9, 0.1 * alpha), rel=0.03)
    assert w[0] == pytest.approx(0.1 * alpha, abs=0.02 * alpha + 1e-3)


def test_turn_in_place_is_motor_limited_on_high_mu_and_legged_spot_is_not_traction_limited():
    w, _ = spin_up(TURTLEBOT, 0.8)
    assert w[1:].mean() == pytest.approx(1.5, abs=0.03)
    for mu in (0.03, 0.8):  # Spot re-plants its feet: the same spin-up on ice and on concrete
        w, _ = spin_up(SPOT, mu)
        assert w == pytest.approx(1.5, abs=0.01)


def test_low_friction_turning_is_byte_identical_across_runs():
    def run() -> np.ndarray:
        sim = Simulator(flat(), TURTLEBOT, SimSettings(friction_scale=0.05))
        sim.reset_to((0.0, 0.0, 0.0), 0.2)
        for k in range(30):
            sim.step(VelocityAction(0.45, 0.0, 1.5 if k % 10 < 5 else -1.5))
        r = sim.records()
        return np.concatenate([r["position"].ravel(), r["yaw"]])

    assert run().tobytes() == run().tobytes()


def test_wheeled_embodiment_needs_a_track():
    with pytest.raises(ConfigError, match="wheel_track"):
        Embodiment(name="w", radius=0.2, mass=4.0, sole_shape="round", sole_size=(0.3, 0.05, 0.3),
                   chamfer_height=0.02, hull_size=(0.3, 0.2, 0.3), hull_bottom=0.05,
                   force_cap=0.5, holonomic=False, max_drop=0.05, max_step=0.02, drive="wheeled")
    with pytest.raises(ConfigError, match="drive"):
        Embodiment(name="w", radius=0.2, mass=4.0, sole_shape="round", sole_size=(0.3, 0.05, 0.3),
                   chamfer_height=0.02, hull_size=(0.3, 0.2, 0.3), hull_bottom=0.05,
                   force_cap=0.5, holonomic=False, max_drop=0.05, max_step=0.02, drive="tracked")


def test_level_box_tops_marks_level_boxes_only():
    from navbench.sim.world import build_world, level_box_tops

    boxes = (Box("a", "floor", (0.0, -0.05, 0.0), (4.0, 0.1, 4.0), label="floor"),
             Box("b", "curb", (0.0, 0.1, 3.0), (4.0, 0.2, 1.0), yaw=0.7, label="curb"))
    w = build_world(Scene("s", "outdoor", "test", boxes=boxes), TURTLEBOT)
    level = level_box_tops(w.model)
    assert level[w.geom_id("box:a")] and level[w.geom_id("box:b")]  # a yawed box is still level
    assert not any(level[g] for g in w.robot_geoms)  # the robot's sole (mesh) and hull (cylinder)
    assert len(level) == w.model.ngeom


def test_wheeled_base_arrives_after_a_bend_without_a_final_yaw() -> None:
    """A Turtlebot on a flat floor drives 1 m, bends by 0.3–2.5 rad and drives L more; the path
    has no final yaw. It must arrive within the time to drive (1 + L) m at its 0.46 m/s top
    speed plus 3 s for the turn and settling. (Before: at its yaw-torque cap the servo hovered
    around 0.05 rad/s, the follower waited for the turn to settle, and 4 of these 21 paths never
    arrived in 30 s; the verify rollout called them 'stuck'.)"""
    from navbench.scene import Box, Scene
    from navbench.sim import TURTLEBOT, SimSettings, Simulator
    from navbench.sim.actions import WaypointAction

    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    sim = Simulator(Scene("f", "indoor", "t", boxes=(floor,)), TURTLEBOT, SimSettings())
    for turn in (0.3, 0.6, 0.9, 1.2, 1.5, 2.0, 2.5):
        for length in (0.5, 1.0, 2.0):
            sim.reset_to((0.0, 0.0, 0.0), 0.0)
            end = (-length * math.sin(turn), -1.0 - length * math.cos(turn), math.nan)
            sim.step(WaypointAction(((0.0, -1.0, math.nan), end)))
            limit = (1.0 + length) / 0.46 + 3.0
            while not sim.follower.reached and sim.time < limit:
                sim.step(WaypointAction((), append=True))
            assert sim.follower.reached, (turn, length, sim.time)
