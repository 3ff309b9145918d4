"""A start beside a curb: the robot is put down on the highest ground under its footprint.

Hand-drawn scene: floor top y = 0; a curb of height h whose edge runs along z = -e. A Spot
start at the origin facing -Z has its footprint (half length 0.55 m) over the curb for e <
0.55 m. Before, the sole started inside the curb and the contact solver threw the robot up
(an episode of the demo city fell this way, a 'drop' 0.4 s after the start).
"""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, Simulator
from navbench.sim.actions import VelocityAction
from navbench.sim.embodiments import GROUP_HFIELD, GROUP_STATIC
from navbench.sim.proximity import highest_ground


def curb_scene(h: float, edge: float) -> Scene:
    """Floor (top 0); a curb of height ``h`` over z < -edge."""
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
    curb = Box("curb", "curb", (0.0, h / 2, -edge - 4.0), (20.0, h, 8.0), label="curb")
    return Scene("curb", "outdoor", "test", boxes=(floor, curb))


def _highest(sim: Simulator, yaw: float) -> float:
    m, d = sim.model, sim.data
    mujoco.mj_forward(m, d)
    w, h = sim.embodiment.half_extents
    groups = np.zeros(6, np.uint8)
    groups[[GROUP_STATIC, GROUP_HFIELD]] = 1
    return highest_ground(m, d, np.array([g.ground for g in sim.world.geoms]), groups,
                          sim.world.robot_body, 0.0, 0.0, 0.0, yaw, w, h, 0.22)


def test_highest_ground_under_the_footprint_by_hand():
    sim = Simulator(curb_scene(0.2, 0.3), SPOT)
    # facing -Z: the front edge (z = -0.55) is over the curb → its top, 0.2 m
    assert _highest(sim, 0.0) == pytest.approx(0.2, abs=1e-6)
    # facing +X (yaw -90°): the footprint spans z in ±0.25 (half width): all over the floor
    assert _highest(sim, -math.pi / 2) == pytest.approx(0.0, abs=1e-6)
    # a curb above the probe's reach (0.22 m) is not ground under the footprint
    high = Simulator(curb_scene(0.3, 0.3), SPOT)
    assert _highest(high, 0.0) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize(("emb", "h", "edge"), [(SPOT, 0.2, 0.3), (SPOT, 0.1, 0.45),
                                                 (TURTLEBOT, 0.02, 0.1)])
def test_start_beside_a_curb_is_not_thrown_up(emb, h, edge):
    sim = Simulator(curb_scene(h, edge), emb)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    y0 = sim.pose()[1]
    # put down, not thrown: the base lies between the floor and the curb top, and is at rest
    assert -0.01 < y0 < h + 0.01
    assert float(np.abs(sim.data.qvel[:3]).max()) < 0.05
    for _ in range(20):  # stand 2 s, then drive onto the curb
        assert not sim.step(VelocityAction(0.0))[1]
    for _ in range(30):
        if sim.step(VelocityAction(0.5))[1]:
            break
    assert sim.label is None
    assert sim.pose()[1] == pytest.approx(h, abs=0.01)
    assert float(sim.records()["position"][:, 1].max()) < h + 0.05  # never thrown above the curb
