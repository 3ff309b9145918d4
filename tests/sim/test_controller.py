"""Waypoint follower, PID and actions: pure Python, checked against a kinematic integrator."""

from __future__ import annotations

import math

import pytest

from navbench.errors import ConfigError
from navbench.sim.actions import DiscreteAction, DiscreteConfig, WaypointAction, discrete_target
from navbench.sim.controller import PID, WaypointFollower, body_to_world, clip, world_to_body


def _run(f: WaypointFollower, x: float, z: float, yaw: float, steps: int = 2000):
    """Integrate a perfect kinematic base (it moves exactly as commanded) at 50 Hz."""
    dt = 0.02
    vmax = 0.0
    for i in range(steps):
        vx, vy, w = f.command(x, z, yaw, dt)
        vmax = max(vmax, abs(vx))
        assert abs(vx) <= 1.5 + 1e-12 and abs(vy) <= 0.3 + 1e-12 and abs(w) <= 1.5 + 1e-12
        if not f.holonomic:
            assert vy == 0.0
        dx, dz = body_to_world(vx, vy, yaw)
        x, z, yaw = x + dx * dt, z + dz * dt, yaw + w * dt
        if f.reached:
            return x, z, yaw, i * dt
    raise AssertionError("not reached")


def test_body_world_frames_by_hand():
    # yaw 0 faces -Z: forward (1, 0) is world (0, -1); left is -X (west).
    assert body_to_world(1.0, 0.0, 0.0) == pytest.approx((0.0, -1.0))
    assert body_to_world(0.0, 1.0, 0.0) == pytest.approx((-1.0, 0.0))
    # yaw +90° (counter-clockwise) faces -X.
    assert body_to_world(1.0, 0.0, math.pi / 2) == pytest.approx((-1.0, 0.0))
    assert world_to_body(*body_to_world(0.3, -0.2, 1.1), 1.1) == pytest.approx((0.3, -0.2))


def test_pid_terms_by_hand():
    pid = PID(2.0, 1.0, 0.5, i_limit=10)
    assert pid.update(1.0, 0.1) == pytest.approx(2.0 + 0.1)  # no derivative on the first step
    assert pid.update(0.5, 0.1) == pytest.approx(1.0 + 0.15 + 0.5 * (-5.0))


@pytest.mark.parametrize("holonomic", [True, False])
def test_follower_reaches_final_waypoint_within_tolerance(holonomic):
    f = WaypointFollower(holonomic=holonomic)
    goal = (2.0, -3.0, 0.7)
    f.set_path([(1.0, -1.0, math.nan), (1.5, -2.5, math.nan), goal], start=(0.0, 0.0))
    x, z, yaw, _ = _run(f, 0.0, 0.0, 0.0)
    assert math.hypot(x - goal[0], z - goal[1]) < 0.03
    assert abs(math.remainder(yaw - goal[2], 2 * math.pi)) < math.radians(3.0)


def test_follower_free_heading_and_streaming_append():
    f = WaypointFollower()
    f.set_path([(0.0, -1.0, math.nan)], start=(0.0, 0.0))
    f.set_path([(1.0, -1.0, math.nan)], append=True)
    assert len(f.path) == 2
    x, z, _, _ = _run(f, 0.0, 0.0, 0.0)
    assert math.hypot(x - 1.0, z + 1.0) < 0.03


def test_discrete_targets_by_hand():
    c = DiscreteConfig()
    x, z, yaw = discrete_target("forward", 1.0, 2.0, math.pi / 2, c)  # facing -X
    assert (x, z, yaw) == pytest.approx((0.75, 2.0, math.pi / 2))
    assert discrete_target("left", 0, 0, 0.0, c)[2] == pytest.approx(math.radians(15))
    assert discrete_target("right", 0, 0, 0.0, c)[2] == pytest.approx(-math.radians(15))
    assert DiscreteAction.from_id(1).kind == "forward"
    with pytest.raises(ConfigError):
        DiscreteAction.from_id(7)
    with pytest.raises(ConfigError):
        WaypointAction.of([(1.0,)])


def test_clip_by_hand() -> None:
    assert [clip(v, 1.5) for v in (-2.0, -1.5, 0.3, 1.5, 2.0, math.inf)] == \
        [-1.5, -1.5, 0.3, 1.5, 1.5, 1.5]
    assert clip(math.nan, 1.5) == 1.5  # as max(-1.5, min(1.5, nan))
    assert clip(-0.25, 0.0) == 0.0 and clip(0.25, math.inf) == 0.25
