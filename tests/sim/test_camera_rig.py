"""Camera rigs: presets, the override parser, intrinsics by closed form, centre-pixel depth
against an independent ray cast on the collision boxes, depth range and noise, unchanged
physics, byte-identical frames, the rig in the agent protocol and in runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.agents.base import Task
from navbench.agents.wire import decode_task, encode_task
from navbench.errors import ConfigError
from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import DiscreteAction
from navbench.sim.camera_rig import (
    HABITAT_VLNCE,
    PROCTHOR,
    ROBOT,
    CameraRig,
    parse_camera,
    rig_of_json,
)

WALL_Z = -3.0  # the near face of the wall box (its centre at z = -3.1, 0.2 m thick)


def room() -> Scene:
    """A floor, a wall across the view 3 m ahead (face at z = -3), a yawed cabinet 1.2 m high
    in front of it to the right, and a wall 15 m behind the robot."""
    boxes = (
        Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 40.0), label="floor"),
        Box("wall", "wall", (0.0, 1.5, WALL_Z - 0.1), (8.0, 3.0, 0.2), label="wall"),
        Box("cab", "furniture", (0.9, 0.6, -2.2), (0.8, 1.2, 0.5), yaw=0.5, label="cabinet"),
        Box("back", "wall", (0.0, 1.5, 15.1), (8.0, 3.0, 0.2), label="wall"),
    )
    return Scene("rig", "indoor", "handmade", boxes=boxes)


def ray_box(o: np.ndarray, d: np.ndarray, b: Box) -> float:
    """Entry parameter t of the ray o + t d into box ``b`` (slab method in the box frame;
    yaw θ about +Y), ``inf`` when it misses."""
    c, s = math.cos(b.yaw), math.sin(b.yaw)
    rot_t = np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])  # world → box frame
    lo_o, lo_d = rot_t @ (o - np.asarray(b.center)), rot_t @ d
    half = np.asarray(b.size) / 2.0
    with np.errstate(divide="ignore"):
        t1, t2 = (-half - lo_o) / lo_d, (half - lo_o) / lo_d
    near, far = np.max(np.minimum(t1, t2)), np.min(np.maximum(t1, t2))
    return float(near) if near <= far and near > 0 else math.inf


def test_presets_and_parser():
    assert parse_camera(None) is ROBOT and parse_camera("robot").is_default
    assert parse_camera("habitat-vlnce") == HABITAT_VLNCE
    assert (HABITAT_VLNCE.height, HABITAT_VLNCE.pitch, HABITAT_VLNCE.hfov, HABITAT_VLNCE.size,
            HABITAT_VLNCE.depth_range) == (1.25, 0.0, 90.0, (224, 224), (0.0, 10.0))
    assert PROCTHOR.height == pytest.approx(1.576, abs=1e-3) and PROCTHOR.size == (400, 300)
    r = parse_camera(" height=1.4, pitch=15, hfov=79 ,size=320x240,forward=0.1,near=0.05,far=50,depth=0.1-8,noise=0.01")
    assert (r.name, r.height, r.pitch, r.hfov, r.size, r.forward, r.near, r.far, r.depth_range,
            r.depth_noise) == ("custom", 1.4, 15.0, 79.0, (320, 240), 0.1, 0.05, 50.0, (0.1, 8.0), 0.01)
    assert parse_camera("procthor,pitch=30").pitch == 30.0 and parse_camera("procthor,pitch=30").name == "procthor"
    assert rig_of_json(r.to_json()) == r and rig_of_json(None) is ROBOT


@pytest.mark.parametrize("text, msg", [
    ("fisheye", "unknown preset 'fisheye'"),
    ("habitat-vlnce,zoom=2", "unknown key 'zoom'"),
    ("height=tall", "height: expected a number in [0.05, 10]"),
    ("height=nan", "height: expected a number"),
    ("hfov=190", "hfov: expected a number in [1, 170]"),
    ("size=224", "size: expected WxH"),
    ("size=8x8", "size: expected WxH with 16..4096"),
    ("depth=10-1", "depth: expected MIN-MAX"),
    ("near=5,far=1", "expected near < far"),
    ("habitat-vlnce,noise", "expected key=value"),
    ("", "expected a preset"),
])
def test_parser_errors_are_one_line(text, msg):
    with pytest.raises(ConfigError) as e:
        parse_camera(text)
    assert msg in str(e.value) and "\n" not in str(e.value) and str(e.value).startswith("--camera")


@pytest.fixture(scope="module")
def habitat_sim():
    sim = Simulator(room(), SPOT, SimSettings(render=True, visuals=False, camera=HABITAT_VLNCE))
    obs = sim.reset_to((0.3, 0.0, 0.0), 0.0)  # facing -Z (north), the cabinet ahead to the right
    yield sim, obs
    sim.close()


def test_intrinsics_by_closed_form(habitat_sim):
    sim, obs = habitat_sim
    assert obs["rgb"].shape == (224, 224, 3) and obs["depth"].shape == (224, 224)
    # fx = (W/2) / tan(HFOV/2) = 112 / tan 45° = 112 px; principal point at the image centre
    np.testing.assert_allclose(obs["intrinsics"], [[112.0, 0.0, 111.5], [0.0, 112.0, 111.5], [0, 0, 1]],
                               atol=1e-9)
    info = sim.camera_info
    assert info is not None and info["rig"] == "habitat-vlnce"
    assert (info["fx"], info["fy"], info["cx"], info["cy"], info["width"], info["height"]) == \
        pytest.approx((112.0, 112.0, 111.5, 111.5, 224, 224))
    assert info["height_m"] == pytest.approx(1.25) and info["pitch_deg"] == 0.0
    assert info["hfov_deg"] == pytest.approx(90.0) and info["depth_max_m"] == 10.0
    # ProcTHOR: 400×300 with AI2-THOR's 65° vertical field: fy = 150 / tan 32.5°
    p = PROCTHOR.describe(SPOT)
    assert p["fy"] == pytest.approx(150.0 / math.tan(math.radians(32.5)), rel=1e-4)
    assert p["fx"] == pytest.approx(p["fy"]) and p["vfov_deg"] == pytest.approx(65.0, abs=1e-3)


def test_centre_depth_equals_ray_cast_on_the_collision_boxes(habitat_sim):
    sim, obs = habitat_sim
    scene, k = sim.scene, obs["intrinsics"]
    eye = np.array([0.3, 1.25, 0.0])  # habitat: the camera at the agent's centre, 1.25 m up, level
    checked = 0
    for u, v in ((112, 112), (111, 111), (112, 150), (150, 112), (170, 130), (60, 100)):
        d = np.array([(u - k[0, 2]) / k[0, 0], -(v - k[1, 2]) / k[1, 1], -1.0])  # yaw 0: camera = world axes
        t = min(ray_box(eye, d, b) for b in scene.boxes)
        assert math.isfinite(t)
        assert obs["depth"][v, u] == pytest.approx(t, abs=2e-3)  # z-depth: the ray's z step is 1
        checked += 1
    assert checked == 6
    # the wall straight ahead is 3 m away; the centre row sees it at z = 3.0 m
    assert obs["depth"][112, 112] == pytest.approx(3.0, abs=2e-3)


def test_depth_range_and_noise():
    scene = room()
    far = Simulator(scene, SPOT, SimSettings(render=True, visuals=False, camera=HABITAT_VLNCE))
    try:
        obs = far.reset_to((0.0, 0.0, 0.0), math.pi)  # facing the back wall 15 m away
        assert obs["depth"][112, 112] == np.float32(10.0)  # habitat's MAX_DEPTH: clipped
    finally:
        far.close()
    rig = parse_camera("habitat-vlnce,noise=0.01,size=64x64")
    sims = [Simulator(scene, SPOT, SimSettings(render=True, visuals=False, camera=rig)) for _ in range(2)]
    try:
        a, b = (s.reset_to((-2.5, 0.0, 0.0), 0.0)["depth"] for s in sims)
        assert a.tobytes() == b.tobytes()  # same start, same noise
        wall = a[16:30, 20:44]  # the fronto-parallel wall 3 m ahead: constant true z-depth 3 m
        assert wall.mean() == pytest.approx(3.0, abs=0.03)
        assert wall.std() == pytest.approx(0.01 * 3.0**2, rel=0.2)  # σ(z) = σ₁ z²
    finally:
        for s in sims:
            s.close()


def test_only_the_sensor_moves():
    """Same records with and without a rig: the body, its physics and footprint are unchanged."""
    recs = []
    for rig in (None, HABITAT_VLNCE):
        sim = Simulator(room(), TURTLEBOT, SimSettings(camera=rig))
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        for _ in range(3):
            sim.step(DiscreteAction("forward"))
        recs.append(sim.records())
        assert sim.embodiment.radius == TURTLEBOT.radius and sim.embodiment.sole_size == TURTLEBOT.sole_size
        sim.close()
    for key in ("position", "yaw", "tilt", "collision"):
        assert np.array_equal(recs[0][key], recs[1][key])


def test_same_seed_byte_identical_frames():
    frames = []
    for _ in range(2):
        sim = Simulator(room(), SPOT, SimSettings(render=True, camera=parse_camera("procthor,size=80x60")))
        obs = sim.reset_to((0.3, 0.0, 0.0), 0.2)
        frames.append((obs["rgb"].tobytes(), obs["depth"].tobytes(), obs["semantic"].tobytes()))
        sim.close()
    assert frames[0] == frames[1]


def test_the_rig_reaches_the_agent_and_the_wire(habitat_sim):
    from navbench.agents.rollout import run_episode
    from navbench.episodes import Episode, Goal

    sim, _ = habitat_sim

    class Probe:
        action_space = "discrete"
        needs_render = True

        def reset(self, task: Task) -> None:
            self.task = task

        def act(self, obs):
            return "STOP"

    agent = Probe()
    ep = Episode("e0", "rig", (0.3, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.3, 0.0, -1.0)),))
    run_episode(sim, agent, ep)
    cam = agent.task.camera
    assert cam is not None and cam["fx"] == pytest.approx(112.0) and cam["height_m"] == pytest.approx(1.25)
    back = decode_task(encode_task(agent.task))
    assert back.camera == dict(cam)
    with pytest.raises(ConfigError, match=r"task.camera.fx: expected a finite number"):
        decode_task({"episode_id": "e", "camera": {**cam, "fx": "wide"}})


def test_rig_label_for_reports():
    assert HABITAT_VLNCE.label() == "habitat-vlnce (1.25 m, pitch 0°, HFOV 90°, 224×224, depth 0–10 m)"
    assert ROBOT.label().startswith("robot")
    assert CameraRig("custom", height=1.4).label() == "custom (1.4 m)"


def test_navenv_takes_a_rig():
    from navbench.episodes import Episode, Goal
    from navbench.sim import NavEnv

    ep = Episode("e0", "rig", (0.3, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.3, 0.0, -2.0)),))
    env = NavEnv(room(), [ep], SPOT, SimSettings(render=True, visuals=False), camera="habitat-vlnce")
    try:
        obs, _ = env.reset(seed=0)
        assert env.observation_space["rgb"].shape == obs["rgb"].shape == (224, 224, 3)
        assert env.observation_space["depth"].shape == obs["depth"].shape == (224, 224, 1)
        assert obs["depth"][112, 112, 0] == pytest.approx(3.0, abs=2e-3)  # the wall, level at 1.25 m
        assert env.observation_space.contains(obs)
    finally:
        env.close()
