"""The robot's collision geometry (``sim.robot.add_robot``): on static boxes two capsule feet
inside the chamfered sole carry it and the sole mesh, lifted ``FOOT_LIFT``, meets step edges;
mesh surfaces meet the full sole.
Checked against hand-computed sizes, an independent convex hull (scipy) and hand-built scenes."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
from scipy.spatial import ConvexHull

from navbench.scene import Box, Scene
from navbench.scene.model import Surface
from navbench.sim import SPOT, TURTLEBOT, Simulator
from navbench.sim.actions import VelocityAction
from navbench.sim.embodiments import COLLIDE_BOX, COLLIDE_CONVEX
from navbench.sim.robot import FOOT_LIFT


def test_feet_sizes_by_hand():
    r, fx, fz = SPOT.feet()  # c = 0.22, β = 45° (front), 60° (sides), 0.5 × 1.1 m sole
    assert r == 0.04
    assert fx == pytest.approx(0.25 - 0.22 / math.sqrt(3.0) - 0.04 / math.sqrt(3.0), abs=1e-12)
    assert fz == pytest.approx(0.55 - 0.22 - 0.04 * (math.sqrt(2.0) - 1.0), abs=1e-12)
    r, fx, fz = TURTLEBOT.feet()  # c = 0.022 → r = c / 2; 16-gon of radius 0.17 − 0.022
    e = 0.148 * math.cos(math.pi / 16.0) - 0.011 * (math.sqrt(2.0) - 1.0)
    assert (r, fx, fz) == pytest.approx((0.011, e / math.sqrt(2.0), e / math.sqrt(2.0)), abs=1e-12)


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_feet_and_lifted_mesh_lie_inside_the_full_sole(emb):
    hull = ConvexHull(emb.sole_vertices())
    normals, offsets = hull.equations[:, :3], hull.equations[:, 3]  # n·p + d ≤ 0 inside
    r, fx, fz = emb.feet()
    c = emb.chamfer_height
    for x in (-fx, fx):
        for z in (-fz, fz):
            centre = np.array([x, r - c, z])  # body frame: the ground point is at y = -c
            # each end sphere is inside every face plane (tangent to the bottom and chamfers)
            assert (normals @ centre + offsets).max() <= -r + 1e-9
    lifted = emb.sole_vertices(lift=FOOT_LIFT)
    assert (normals @ lifted.T + offsets[:, None]).max() <= 1e-9  # a subset of the sole
    assert lifted[:, 1].min() == pytest.approx(FOOT_LIFT - c, abs=1e-12)


def _flat() -> Scene:
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    return Scene("flat", "indoor", "test", boxes=(floor,))


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_only_the_feet_touch_level_ground(emb):
    sim = Simulator(_flat(), emb)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    m, d = sim.model, sim.data
    names = {m.geom(int(max(g))).name for g in d.contact.geom}
    assert names == {"robot/foot0", "robot/foot1"}  # not the lifted or the full sole mesh
    assert d.ncon == 4  # two per capsule: the support rectangle's corners
    assert abs(sim.pose()[1]) < 5e-4  # the feet's bottom is the ground point
    assert float(m.body_mass[sim.world.robot_body]) == pytest.approx(emb.mass)
    # the outer geoms bound the robot (obstacle distances); the inner ones lie inside them
    assert [m.geom(g).name for g in sim.world.robot_geoms] == ["robot/sole", "robot/hull"]
    assert [m.geom(g).name for g in sim.world.robot_inner_geoms] == \
        ["robot/foot0", "robot/foot1", "robot/sole_lifted"]
    sole = sim.world.geom_id("robot/sole")  # boxes only: the full sole never collides
    assert (int(m.geom_contype[sole]), int(m.geom_conaffinity[sole])) == (0, 0)


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_mesh_surfaces_carry_the_full_sole_and_crossing_onto_them_is_level(emb):
    """Convex mesh prisms (surfaces) meet the full sole only (a capsule-mesh test costs more than
    the old mesh-mesh one); a box floor and a prism at the same height join without a step."""
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 6.0), label="floor")
    walk = Surface("sw", "sidewalk", ((-10.0, -3.0), (-10.0, -15.0), (10.0, -15.0), (10.0, -3.0)))
    sim = Simulator(Scene("mix", "outdoor", "test", boxes=(floor,), surfaces=(walk,)), emb)
    m, d = sim.model, sim.data
    box = int(mujoco.mjtGeom.mjGEOM_BOX)
    assert {(int(m.geom_type[g]) == box, int(m.geom_contype[g])) for g in sim.world.static_geoms} \
        == {(True, COLLIDE_BOX), (False, COLLIDE_CONVEX)}
    assert int(m.geom_conaffinity[sim.world.geom_id("robot/sole")]) == COLLIDE_CONVEX
    sim.reset_to((0.0, 0.0, -6.0), 0.0)
    assert {m.geom(int(max(g))).name for g in d.contact.geom} == {"robot/sole"}
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    heights = []
    while sim.pose()[2] > -6.0 and not sim.step(VelocityAction(emb.vx_max))[1]:
        heights.append(sim.pose()[1])
    assert sim.label is None and min(heights) > -1e-3 and max(heights) < 1e-3
    assert float(np.max(sim.records()["tilt"])) < math.radians(0.5)


@pytest.mark.parametrize(("emb", "h"), [(SPOT, 0.001), (SPOT, 0.005), (SPOT, 0.05),
                                        (TURTLEBOT, 0.001), (TURTLEBOT, 0.005), (TURTLEBOT, 0.02)])
def test_small_steps_are_ridden_over_slowly_without_pitching_up(emb, h):
    """A step lower than the feet's lift above the mesh must not catch a foot's vertical face
    (a box foot did: Spot reared up 40° on a 1 mm step at 0.1 m/s)."""
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    curb = Box("curb", "curb", (0.0, h / 2, -5.0), (20.0, h, 8.0), label="curb")
    sim = Simulator(Scene("step", "outdoor", "test", boxes=(floor, curb)), emb)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    for _ in range(round(2.5 / 0.1 / 0.1)):  # 2.5 m at 0.1 m/s
        if sim.step(VelocityAction(0.1))[1]:
            break
    assert sim.label is None
    _, y, z, _ = sim.pose()
    assert z < -2.0 and y == pytest.approx(h, abs=1e-3)  # on top, past the edge
    # resting with the front foot on the step and the back one on the floor, the body pitches
    # by atan(h / 2 fz); riding over (chamfer push, tilt spring) it may swing to twice that
    # (measured: 0.5-0.9 of the bound; the old all-mesh sole pitched the same within 0.1°)
    _, _, fz = emb.feet()
    assert float(np.max(sim.records()["tilt"])) < math.atan2(h, fz) + math.radians(1.0)
