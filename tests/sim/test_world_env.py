"""World building (surfaces, heightfield, names, friction), NavEnv and verification rollouts."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from navbench.episodes import Episode, Goal
from navbench.geometry import yaw_to_quaternion
from navbench.scene import Box, Mesh, Scene, Surface
from navbench.sim import SPOT, NavEnv, Simulator
from navbench.sim.verify import verify_episode
from navbench.sim.world import build_world
from tests.conftest import two_room_scene

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (40.0, 0.1, 40.0), label="floor")


def _ray_down(world, x: float, z: float) -> tuple[float, str]:
    d = mujoco.MjData(world.model)
    mujoco.mj_forward(world.model, d)
    gid = np.zeros(1, np.int32)
    t = mujoco.mj_ray(world.model, d, np.array([x, 5.0, z]), np.array([0.0, -1.0, 0.0]),
                      np.array([1, 0, 0, 1, 0, 0], np.uint8), 1, -1, gid)
    return 5.0 - t, world.geoms[int(gid[0])].name


def test_concave_surface_with_hole_and_geom_names():
    # An L-shaped sidewalk at y = 0.15 with a square hole; holes and the notch are not solid.
    L = ((0, 0), (4, 0), (4, -1), (1, -1), (1, -4), (0, -4))
    hole = ((0.3, -0.3), (0.7, -0.3), (0.7, -0.7), (0.3, -0.7))
    s = Surface("sw", "sidewalk", L, y=0.15, friction=0.7, holes=(hole,))
    w = build_world(Scene("L", "outdoor", "t", surfaces=(s,), boxes=(FLOOR,)))
    assert _ray_down(w, 3.0, -0.5)[0] == pytest.approx(0.15)  # in the L
    assert _ray_down(w, 3.0, -3.0)[0] == pytest.approx(0.0)  # the notch: floor below
    assert _ray_down(w, 0.5, -0.5)[0] == pytest.approx(0.0)  # the hole
    name = _ray_down(w, 0.5, -2.0)[1]
    g = w.geoms[w.geom_id(name)]
    assert (g.ref, g.surface, g.friction, g.ground) == ("sw", "sidewalk", 0.7, True)
    assert w.model.geom_friction[w.geom_id(name)][0] == pytest.approx(0.7)


def test_mesh_scene_heightfield_follows_geometry():
    # A 4x4 m ground quad at y=0 and a 1 m high box-shaped block (top + 4 vertical walls).
    v = [(-2, 0, -2), (2, 0, -2), (2, 0, 2), (-2, 0, 2),
         (0, 1, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1), (0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)]
    f = [(0, 2, 1), (0, 3, 2), (4, 6, 5), (4, 7, 6), (8, 9, 5), (8, 5, 4), (9, 10, 6), (9, 6, 5),
         (10, 11, 7), (10, 7, 6), (11, 8, 4), (11, 4, 7)]
    m = Mesh("m", "terrain", np.array(v, float), np.array(f, np.int64), label="ground")
    w = build_world(Scene("mesh", "outdoor", "t", meshes=(m,)))
    assert _ray_down(w, 0.5, 0.5) == (pytest.approx(1.0, abs=0.06), "hfield")
    assert _ray_down(w, -1.5, 1.5)[0] == pytest.approx(0.0, abs=0.06)
    assert _ray_down(w, 1.6, -1.0)[0] == pytest.approx(0.0, abs=0.06)


def _episode(start, goal, path, yaw=None):
    if yaw is None:
        yaw = math.atan2(-(path[1][0] - start[0]), -(path[1][2] - start[2]))
    return Episode("e1", "s", start, yaw_to_quaternion(yaw), (Goal(goal, size=(0.4, 0.8, 0.4)),),
                   reference_path=tuple(path))


def test_verify_rollout_accepts_and_rejects():
    scene = Scene("flat", "indoor", "t", boxes=(FLOOR,))
    path = [(0.0, 0.0, 0.0), (0.0, 0.0, -4.0), (4.0, 0.0, -4.0)]
    ok = verify_episode(scene, _episode(path[0], (4.0, 0.0, -4.5), path))
    assert ok.accepted, ok
    assert ok.travelled == pytest.approx(8.0, abs=0.5) and 5.0 < ok.duration <= 100.0
    short = [(0.0, 0.0, 0.0), (0.0, 0.0, -2.0)]
    r = verify_episode(scene, _episode(short[0], (0.0, 0.0, -2.5), short))
    assert not r.accepted and r.oracle_success and r.reason == "too_short"
    r = verify_episode(scene, _episode(path[0], (20.0, 0.0, 20.0), path))
    assert not r.accepted and r.reason == "no_oracle_success"
    wall = Box("w", "wall", (2.0, 1.0, -4.0), (0.2, 2.0, 3.0), label="wall")
    r = verify_episode(Scene("blocked", "indoor", "t", boxes=(FLOOR, wall)),
                       _episode(path[0], (4.0, 0.0, -4.5), path), stuck_time=3.0,
                       allow_collisions=True)
    assert not r.accepted and r.reason == "stuck" and r.collided


def test_verify_rejects_a_path_that_brushes_an_obstacle():
    # Spot's body is 0.5 m wide: along a straight path 0.24 m from a wall's face it slides
    # along the wall (contacts are frictionless), 0.35 m away it does not touch it.
    path = [(0.0, 0.0, 0.0), (0.0, 0.0, -8.0)]
    for x_face, touches in ((0.24, True), (0.35, False)):
        wall = Box("w", "wall", (x_face + 0.1, 1.0, -4.0), (0.2, 2.0, 12.0), label="wall")
        scene = Scene("side", "indoor", "t", boxes=(FLOOR, wall))
        r = verify_episode(scene, _episode(path[0], (0.0, 0.0, -8.5), path))
        assert r.collided == touches
        assert r.accepted != touches and r.reason == ("collision" if touches else "ok")
        if touches:  # pressed against the wall it cannot settle on the last waypoint
            r = verify_episode(scene, _episode(path[0], (0.0, 0.0, -8.5), path),
                               allow_collisions=True)
            assert r.reason == "stuck" and r.oracle_success


def test_navenv_discrete_episode():
    scene = two_room_scene()
    ep = _episode((2.0, 0.0, -2.0), (3.0, 0.0, -2.0), [(2.0, 0.0, -2.0), (3.0, 0.0, -2.0)])
    env = NavEnv(scene, [ep], SPOT, action_type="discrete")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["episode_id"] == "e1"
    obs, reward, term, trunc, info = env.step(1)  # forward 0.25 m towards the goal
    # habitat's shaping: progress 0.25 m − 0.01 slack; then + 2.5 − 0.01 on the successful stop
    assert reward == pytest.approx(0.25 - 0.01, abs=0.03) and not term and not trunc
    obs, reward, term, trunc, info = env.step(0)  # stop within τ = 1.6 m → success
    assert term and not trunc and info["label"] == "success" and reward == pytest.approx(2.49)
    env.close()


def test_turtlebot_traction_depends_on_friction():
    from navbench.sim import TURTLEBOT
    from navbench.sim.actions import VelocityAction

    def speed(mu: float) -> float:
        ice = Box("ice", "floor", (0.0, -0.05, 0.0), (40.0, 0.1, 40.0), label="floor", ref="s")
        surf = Surface("s", "floor", ((-20, 20), (20, 20), (20, -20), (-20, -20)), friction=mu)
        sim = Simulator(Scene("f", "indoor", "t", boxes=(ice,), surfaces=(surf,)), TURTLEBOT)
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        for _ in range(3):
            sim.step(VelocityAction(0.7))
        return -sim.data.qvel[2]

    # Traction cap μ m g: acceleration ≤ μ g, so after 0.3 s v ≤ μ g · 0.3.
    assert 0.0 < speed(0.05) <= 0.05 * 9.81 * 0.3 + 1e-3
    assert speed(1.0) > 0.3
