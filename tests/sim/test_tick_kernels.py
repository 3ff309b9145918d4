"""The compiled 50 Hz tick (sim.follow_kernels, sim.tick_kernels): hand-computed cases.

Follower commands on hand-drawn paths (default gains: kp 2.5 / ki 0.3 linear, kp 3.0 / ki 0.2
angular, dt 0.02 s, no derivative on the first command), and the contact scan on synthetic
contact arrays (support, collision, step edge, level-top corner, the 10-tick drop window, a
hole, tilt, wheel traction); two fresh processes give byte-identical records.
"""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from navbench.sim import tick_kernels as tk
from navbench.sim.controller import FollowerSettings, WaypointFollower

DT = 0.02
NAN = math.nan


def _lin(e: float) -> float:
    """First PID output on error ``e`` with the linear gains: kp e + ki (e dt)."""
    return 2.5 * e + 0.3 * (e * DT)


def _ang(e: float) -> float:
    return 3.0 * e + 0.2 * (e * DT)


def test_straight_segment_tracks_the_lookahead_point() -> None:
    f = WaypointFollower()
    f.set_path([(0.0, -2.0, NAN)], start=(0.0, 0.0))
    # yaw 0 faces -Z: the lookahead point (0, -0.3) is 0.3 m straight ahead
    assert f.command(0.0, 0.0, 0.0, DT) == pytest.approx((_lin(0.3), 0.0, 0.0), abs=1e-12)
    assert not f.reached and len(f.path) == 1


def test_lookahead_walks_past_a_bend() -> None:
    # segment (0, 0) → (0, -0.4), then east to (1, -0.4); the base is 0.35 m east of the
    # first segment's middle: projection (0, -0.2), 0.2 m to the bend, the remaining 0.1 m
    # along the second segment: target (0.1, -0.4) = 0.2 m ahead, 0.25 m to the left
    f = WaypointFollower(FollowerSettings(vy_max=5.0, omega_max=5.0))
    f.set_path([(0.0, -0.4, NAN), (1.0, -0.4, NAN)], start=(0.0, 0.0))
    vx, vy, w = f.command(0.35, -0.2, 0.0, DT)
    assert (vx, vy, w) == pytest.approx((_lin(0.2), _lin(0.25), _ang(math.atan2(0.25, 0.2))),
                                        abs=1e-12)
    assert len(f.path) == 2  # the bend is 0.40 m away: not passed


def test_waypoint_within_the_lookahead_is_passed_and_the_command_clipped() -> None:
    f = WaypointFollower()
    f.set_path([(0.0, -0.2, NAN), (1.0, -0.2, NAN)], start=(0.0, 0.0))
    vx, vy, w = f.command(0.0, 0.0, 0.0, DT)  # target (0.3, -0.2): 0.2 ahead, 0.3 right
    assert len(f.path) == 1
    assert (vx, vy, w) == pytest.approx((_lin(0.2), -0.3, -1.5), abs=1e-12)  # vy, ω clipped


@pytest.mark.parametrize(("a", "d"), [(0.1, 0.1), (0.5, 0.04), (0.02, 0.05)])
def test_braking_caps_speed_at_sqrt_2ad(a: float, d: float) -> None:
    f = WaypointFollower()
    f.brake_accel = a
    f.set_path([(0.0, -1.0, NAN)], start=(0.0, 0.0))
    vx, vy, _ = f.command(0.0, -1.0 + d, 0.0, DT)
    assert vy == 0.0 and min(_lin(d), math.sqrt(2 * a * d)) == pytest.approx(vx, abs=1e-12)
    if vx < _lin(d):
        assert vx**2 / (2 * a) == pytest.approx(d)  # stops exactly at the waypoint


def test_braking_stops_at_the_next_align_waypoint() -> None:
    f = WaypointFollower()
    f.brake_accel = 0.02
    f.set_path([(0.0, -1.0, NAN), (1.0, -1.0, NAN)], start=(0.0, 0.0), align=[True, False])
    vx, vy, _ = f.command(0.0, 0.0, 0.0, DT)
    assert (vx, vy) == pytest.approx((math.sqrt(2 * 0.02 * 1.0), 0.0), abs=1e-12)


def test_nonholonomic_base_turns_in_place_towards_a_target_behind_its_side() -> None:
    f = WaypointFollower(holonomic=False)
    f.set_path([(2.0, 0.0, NAN)], start=(0.0, 0.0))  # due east; the base faces north (-Z)
    assert f.command(0.0, 0.0, 0.0, DT) == (0.0, 0.0, -1.5)  # 3 · (-π/2), clipped


def test_final_waypoint_reached_when_settled_inside_the_tolerance() -> None:
    f = WaypointFollower()
    f.set_path([(0.0, -0.01, NAN)], start=(0.0, 0.0))
    assert f.command(0.0, 0.0, 0.0, DT) == (0.0, 0.0, 0.0) and f.reached and f.path == []


# ---------------------------------------------------------------- contact scan
# geoms: 0 floor (ground, μ 0.5), 1 wall, 2 a level box top (ground, μ 1.0), 3 the robot
LUT = np.array([[1.0, 0.5, 0.0], [0.0, 0.8, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]])
AX, AZ, AYAW = 0, 1, 2


def _sc(wheeled: bool = False) -> np.ndarray:
    """Weight 100 N, mass 10 kg, force cap 60 N, climb 30 N, max_drop 0.1 m, tilt 45°."""
    sc = np.zeros(tk.NSC)
    sc[[tk.SC_CAPX, tk.SC_CAPZ, tk.SC_CAP, tk.SC_CLIMB, tk.SC_WEIGHT, tk.SC_MASS]] = \
        [60.0, 60.0, 60.0, 30.0, 100.0, 10.0]
    sc[[tk.SC_MAX_DROP, tk.SC_HOLE_DROP, tk.SC_TILT_UP, tk.SC_MAX_TILT]] = \
        [0.1, 0.3, math.cos(math.radians(45.0)) + 1e-9, math.radians(45.0)]
    sc[[tk.SC_KV, tk.SC_HALF_TRACK, tk.SC_WHEELED, tk.SC_AX, tk.SC_AZ, tk.SC_AYAW]] = \
        [10.0, 0.1, float(wheeled), AX, AZ, AYAW]
    sc[tk.SC_NREC], sc[tk.SC_HEAD] = 1, 1  # history: the start height 0
    return sc


class Scan:
    """Synthetic robot state for ``tick_kernels.scan``."""

    def __init__(self, wheeled: bool = False) -> None:
        self.sc, self.fr = _sc(wheeled), np.zeros((3, 2))
        self.qpos, self.qvel, self.ctrl = np.zeros(4), np.zeros(4), np.zeros(3)
        self.xmat, self.fs = np.eye(3).ravel(), np.full(31, math.inf)

    def __call__(self, contacts: list[tuple[int, float, float]], ex: float = 0.0,
                 ez: float = 0.0) -> int:
        """Contacts ``(static geom, height y, normal y)`` with the robot geom 3."""
        n = len(contacts)
        geom = np.array([(3, g) for g, _, _ in contacts], np.int32).reshape(n, 2)
        pos = np.zeros((n, 3))
        frame = np.zeros((n, 9))
        for k, (_, y, ny) in enumerate(contacts):
            pos[k, 1], frame[k, 1] = y, ny
        return int(tk.scan(geom, pos, frame, LUT, self.sc, self.fr, self.qpos, self.qvel,
                           self.ctrl, self.xmat, self.fs, ex, ez))

    @property
    def caps(self) -> tuple[float, float]:
        return float(self.sc[tk.SC_CAPX]), float(self.sc[tk.SC_CAPZ])


def test_support_splits_the_friction_cap_along_the_error_and_sets_braking() -> None:
    s = Scan()
    assert s([(0, 0.0, 1.0), (0, 0.001, 1.0)], ex=3.0, ez=-4.0) == 0
    assert s.caps == pytest.approx((0.6 * 50.0, 0.8 * 50.0))  # min(60, 0.5 · 100) = 50 N
    assert s.fr.ravel().tolist() == pytest.approx([-30.0, 30.0, -40.0, 40.0, 0.0, 0.0])
    assert s.fs[30] == pytest.approx(0.8 * 50.0 / 10.0) and s.sc[tk.SC_COLLIDED] == 0.0
    assert s([(0, 0.0, 1.0)]) == 0 and s.caps == pytest.approx((50 * 0.5**0.5,) * 2)


def test_wall_contact_is_a_collision_and_supportless_caps_are_zero() -> None:
    s = Scan()
    assert s([(1, 0.3, 0.0)], ex=1.0) == 0
    assert s.sc[tk.SC_COLLIDED] == 1.0 and s.caps == (0.0, 0.0)


def test_high_steep_contact_is_an_edge_with_the_climb_cap() -> None:
    s = Scan()
    # 1 cm above the lowest ground contact with a normal 60° off vertical: a step edge
    assert s([(0, 0.0, 1.0), (0, 0.01, 0.5)], ex=0.0, ez=2.0) == 0
    assert s.caps == pytest.approx((0.0, 30.0)) and s.fs[30] == math.inf  # no braking update
    s2 = Scan()  # the same contact steep but only 2 mm above: support at the lowest level,
    # tilted: the cap along the ground is 50 N, the planar force 50 / cos θ (θ clamped at 45°)
    assert s2([(0, 0.0, 1.0), (0, 0.002, 0.5)], ez=2.0) == 0
    assert s2.caps == pytest.approx((0.0, 50.0 * math.sqrt(2.0)))


def test_sloped_support_scales_the_planar_cap_by_one_over_cos() -> None:
    # a 30° support: min(force_cap 60 N, μ 0.5 · 100 N) = 50 N along the ground, so the planar
    # (horizontal) force may reach 50 / cos 30° = 57.7 N and braking 0.8 of that per kg
    s = Scan()
    c30 = math.cos(math.radians(30.0))
    assert s([(0, 0.0, c30)], ez=1.0) == 0
    assert s.caps == pytest.approx((0.0, 50.0 / c30)) and s.fs[30] == pytest.approx(0.8 * 5.0 / c30)
    s2 = Scan()  # within 5° of vertical: level, no scaling
    assert s2([(0, 0.0, math.cos(math.radians(4.0)))], ez=1.0) == 0 and s2.caps == (0.0, 50.0)


def test_tilted_normal_on_a_level_box_top_is_its_corner() -> None:
    s = Scan()
    assert s([(2, 0.0, math.cos(math.radians(10.0)))], ex=1.0) == 0
    assert s.caps == pytest.approx((30.0, 0.0))
    assert s([(2, 0.0, 1.0)], ex=1.0) == 0 and s.caps == pytest.approx((60.0, 0.0))  # μ 1


def test_drop_compares_with_the_lowest_support_of_the_last_ten_ticks() -> None:
    for ticks_up, fall in ((9, 0), (10, tk.DROP)):
        s = Scan()
        assert s([(0, -0.06, 1.0)]) == 0  # a dip of 0.06 m (within max_drop), then level
        for _ in range(ticks_up):
            assert s([(0, 0.0, 1.0)]) == 0
        # 0.15 m below level is a drop once the dip has left the 10-tick history; before,
        # the ground is only 0.09 m below the dip
        assert s([(0, -0.15, 1.0)]) == fall


def test_slope_descends_without_a_drop_and_a_hole_is_one() -> None:
    s = Scan()
    for k in range(40):  # 9 mm per tick: 0.09 m per 10 ticks
        assert s([(0, -0.009 * k, 1.0)]) == 0
    s = Scan()
    s.qpos[1] = -0.25
    assert s([]) == 0
    s.qpos[1] = -0.31  # 2 max_drop + 0.1 = 0.3 m below the last support, unsupported
    assert s([]) == tk.DROP


@pytest.mark.parametrize(("deg", "fall"), [(44.0, 0), (50.0, tk.TILT)])
def test_tilt_beyond_45_degrees_is_a_fall(deg: float, fall: int) -> None:
    s = Scan()
    a = math.radians(deg)
    s.xmat[:] = [1.0, 0.0, 0.0, 0.0, math.cos(a), -math.sin(a), 0.0, math.sin(a), math.cos(a)]
    assert s([(0, 0.0, 1.0)]) == fall


def test_wheeled_turn_in_place_gets_mu_n_times_half_track() -> None:
    s = Scan(wheeled=True)
    s.ctrl[AYAW] = 3.0  # yaw-rate error 3 rad/s, no planar error
    assert s([(0, 0.0, 1.0)]) == 0
    assert s.caps == (0.0, 0.0) and s.fr[AYAW].tolist() == pytest.approx([-5.0, 5.0])


_EPISODE = """
import hashlib, math
from navbench.scene import Box, Scene
from navbench.sim import TURTLEBOT, SPOT, Simulator
from navbench.sim.actions import VelocityAction, WaypointAction
boxes = (Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor"),
         Box("step", "floor", (0.0, 0.05, -2.0), (4.0, 0.1, 1.0), label="floor"),
         Box("wall", "wall", (1.0, 0.5, 0.0), (0.1, 1.0, 2.0), label="wall"))
h = hashlib.sha256()
for emb in (SPOT, TURTLEBOT):
    sim = Simulator(Scene("s", "indoor", "handmade", boxes=boxes), emb)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    sim.step(WaypointAction.of([(0.0, -2.0, math.nan), (0.8, -0.5, 0.5)]))
    while sim.label is None and not sim.follower.reached and sim.time < 8.0:
        sim.step(WaypointAction((), append=True))
    for k in range(10):
        sim.step(VelocityAction(0.4, 0.1, 0.3 * math.sin(k)))
    for v in sim.records().values():
        h.update(v.tobytes())
print(h.hexdigest())
"""


def test_same_episode_in_two_fresh_processes_gives_byte_identical_records() -> None:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env_code = f"import sys; sys.path.insert(0, {src!r})\n" + _EPISODE
    out = [subprocess.run([sys.executable, "-c", env_code], capture_output=True, text=True,
                          check=True, timeout=300).stdout.strip() for _ in range(2)]
    assert len(out[0]) == 64 and out[0] == out[1]
    assert hashlib.sha256(b"").hexdigest() not in out
