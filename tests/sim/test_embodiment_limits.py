"""Documented embodiment limits (``navbench.sim.embodiments``) measured on hand-built scenes at
several commanded speeds (``navbench.sim.limits``): steps, step downs (NavVerse's tilt rule and
the optional drop rule), mesh ramps up to the crest and beyond, gaps; and the heightfield that
carries a robot on mesh terrain."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.sim import SPOT, TURTLEBOT, Simulator
from navbench.sim.limits import Trial, limit, ramp_scene, trial
from navbench.sim.world import heightfield_from_meshes

FAST = (0.5, 1.5)  # commanded m/s (the Turtlebot clips to 0.46); 0.1 m/s runs are slow tests


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
@pytest.mark.parametrize("speed", [0.1, *FAST])
def test_documented_step_and_gap_hold_at_every_speed(emb, speed):
    assert trial(emb, "step_up", emb.max_step, speed).passed
    # the sole's vertical face above the chamfer meets a taller step at every speed
    t = trial(emb, "step_up", emb.chamfer_height + 0.01, speed)
    assert t.outcome == "blocked" and t.final[0] == pytest.approx(0.0, abs=0.01)
    assert trial(emb, "gap", emb.max_gap, speed).passed


@pytest.mark.parametrize(("emb", "deg"), [(SPOT, 35.0), (SPOT, 40.0), (TURTLEBOT, 15.0)])
@pytest.mark.parametrize("speed", FAST)
def test_mesh_ramp_is_climbed_to_the_plateau_without_sinking(emb, deg, speed):
    # before, the heightfield dropped everything 2 m above the scene's lowest point (the
    # plateau of these ramps) and kept 50 contacts on one end of Spot's sole: it fell through
    t = trial(emb, "slope", deg, speed)
    assert t.passed, t
    assert t.final[0] == pytest.approx(3.0 * math.tan(math.radians(deg)), abs=0.03)
    assert t.max_tilt == pytest.approx(deg, abs=1.5)


@pytest.mark.slow
@pytest.mark.parametrize(("emb", "deg"), [(SPOT, 40.0), (TURTLEBOT, 15.0)])
def test_mesh_ramp_is_climbed_at_creeping_speed(emb, deg):
    assert trial(emb, "slope", deg, 0.1).passed


def test_a_slope_past_45_degrees_tips_spot_over():
    t = trial(SPOT, "slope", 46.0, 0.5)
    assert t.outcome == "fall" and t.max_tilt > 45.0


@pytest.mark.parametrize("speed", FAST)
def test_step_down_is_decided_by_tilt_without_the_drop_rule(speed):
    # NavVerse's only fall is tilt > 45°: off a 1 m ledge Spot lands upright and drives on,
    # the Turtlebot off 0.3 m likewise
    for emb, h in ((SPOT, 1.0), (TURTLEBOT, 0.3)):
        t = trial(emb, "step_down", h, speed)
        assert t.passed and t.max_tilt < 45.0, (emb.name, t)


def test_creeping_off_a_ledge_tips_spot_over():
    # at 0.1 m/s the body pivots on the edge until its nose touches the floor below
    assert trial(SPOT, "step_down", 0.3, 0.1).passed
    t = trial(SPOT, "step_down", 0.45, 0.1)
    assert t.outcome == "fall" and t.max_tilt > 45.0


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
@pytest.mark.parametrize("speed", FAST)
def test_drop_rule_ends_a_step_down_of_max_drop(emb, speed):
    assert trial(emb, "step_down", emb.max_drop - 0.01, speed, drop_rule=True).passed
    t = trial(emb, "step_down", emb.max_drop, speed, drop_rule=True)
    assert t.outcome == "drop" and t.max_tilt < 45.0


def test_robot_on_flat_mesh_terrain_stands_on_both_ends():
    # MuJoCo keeps ≤ 50 contacts per geom pair: the full sole on the 5 cm heightfield had
    # them all on its back 0.3 m; the feet carry it front and back like on a box floor
    for emb in (SPOT, TURTLEBOT):
        sim = Simulator(ramp_scene(20.0), emb)
        sim.reset_to((0.0, 0.0, 3.0), 0.0)
        d, m = sim.data, sim.model
        z = np.array([d.contact[k].pos[2] for k in range(d.ncon)])
        pairs = {tuple(sorted(d.contact[k].geom)) for k in range(d.ncon)}
        per_pair = [sum(tuple(sorted(d.contact[k].geom)) == p for k in range(d.ncon)) for p in pairs]
        assert max(per_pair) < 50, emb.name
        _, _, fz = emb.feet()
        assert z.min() == pytest.approx(3.0 - fz, abs=0.02) and \
            z.max() == pytest.approx(3.0 + fz, abs=0.02), emb.name
        assert abs(sim.pose()[1]) < 0.01 and math.degrees(sim.tilt()) < 0.5
        assert {m.geom(g).name for p in pairs for g in p} >= {"hfield", "robot/foot0", "robot/foot1"}


def test_heightfield_keeps_ground_higher_than_the_headroom_above_the_lowest_point():
    # a 2.52 m ramp (40° over 3 m): its plateau used to be cut off as "ceiling"; a ceiling
    # 2.5 m above a floor cell is still dropped
    scene = ramp_scene(40.0)
    m = scene.meshes[0]
    h, (x0, z0, _, _), base = heightfield_from_meshes([(m.vertices, m.faces)], cell=0.05)
    col = round((0.0 - x0) / 0.05)
    plateau = h[round((-10.0 - z0) / 0.05), col]
    assert base == 0.0 and plateau == pytest.approx(3.0 * math.tan(math.radians(40.0)), abs=1e-9)
    floor = np.array([(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1)], float)
    ceiling = floor + np.array([0.0, 2.5, 0.0])
    tris = np.array([(0, 1, 2), (0, 2, 3), (4, 5, 6), (4, 6, 7)])
    h2, *_ = heightfield_from_meshes([(np.vstack([floor, ceiling]), tris)], cell=0.1)
    assert float(h2.max()) == 0.0


def test_limit_scans_coarse_then_fine_and_stops_at_the_first_failure():
    calls: list[float] = []

    def run(emb, feature, value, speed, drop_rule=False):  # passes up to 0.37 m
        calls.append(value)
        ok = value <= 0.37 + 1e-9
        return Trial(ok, "passed" if ok else "fall", 0.0, (0.0, 0.0))

    r = limit(SPOT, "step_down", 0.5, values=(0.1, 1.5, 0.1, 0.01), run=run)
    assert r.value == pytest.approx(0.37) and r.failure == "fall" and r.next_value == pytest.approx(0.38)
    assert calls == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.37, 0.38])
    every = limit(SPOT, "step_down", 0.5, values=(0.1, 0.3, 0.1, 0.01), run=run)
    assert every.value == pytest.approx(0.3) and every.failure is None
