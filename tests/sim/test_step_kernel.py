"""The compiled agent step (`navbench.sim.step_kernel`) against the simulator's Python loop.

Both make the same MuJoCo calls in the same order, so every record array must be
byte-identical (an independent method: the Python loop steps through the bindings and reads
the contacts through them). Episodes: a procedural house (waypoints streamed through rooms,
against walls and furniture, both robots), velocity and discrete actions, μ × 0.1, a drop off a
ledge and a tilt on a 50° slope.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.scene.model import Mesh
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator, mjc
from navbench.sim.actions import DiscreteAction, StopAction, VelocityAction, WaypointAction
from navbench.sim.embodiments import Embodiment

pytestmark = pytest.mark.skipif(not mjc.available(), reason=mjc.unavailable_reason())

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
Episode = Callable[[Simulator], None]


def both(scene: Scene, emb: Embodiment, episode: Episode,
         settings: SimSettings | None = None) -> dict[str, np.ndarray]:
    """Run ``episode`` on the Python loop and on the compiled step; assert equal records."""
    out = []
    for compiled in (False, True):
        sim = Simulator(scene, emb, settings, compiled=compiled)
        assert sim.compiled == compiled
        episode(sim)
        out.append((sim.records(), sim.label, sim.fall_reason))
    (py, label, why), (cc, label_c, why_c) = out
    assert (label_c, why_c) == (label, why)
    assert py.keys() == cc.keys()
    for k in py:
        assert py[k].dtype == cc[k].dtype and np.array_equal(py[k], cc[k]), k
        assert py[k].tobytes() == cc[k].tobytes(), k
    return py


def _house_tour(sim: Simulator) -> None:
    rooms = sim.scene.rooms
    x, z = rooms[0].centroid
    sim.reset_to((x, rooms[0].floor_y, z), 0.3)
    pts = [(*r.centroid, math.nan) for r in rooms[1:3]] + [(x, z, 0.5)]
    sim.step(WaypointAction.of(pts[:1]))
    for k in range(60):  # stream the rest, one waypoint every 10 steps
        more = pts[1 + k // 10:2 + k // 10] if k % 10 == 9 else []
        act = WaypointAction.of(more, append=True) if more else WaypointAction((), append=True)
        if sim.step(act)[1]:
            return


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_house_tour_with_streamed_waypoints(emb: Embodiment) -> None:
    from navbench.scene.procgen.indoor import generate_house

    rec = both(generate_house(0, n_rooms=3), emb, _house_tour)
    assert len(rec["t"]) > 30 and np.ptp(rec["position"][:, 0]) > 0.5  # it moved


STEP_WALL = Scene("sw", "indoor", "test", boxes=(
    FLOOR, Box("step", "floor", (0.0, 0.05, -2.0), (4.0, 0.1, 1.0), label="floor"),
    Box("wall", "wall", (1.0, 0.5, 0.0), (0.1, 1.0, 2.0), label="wall")))


def _velocity_and_discrete(sim: Simulator) -> None:
    sim.reset_to((0.0, 0.0, 0.0), -math.pi / 2)  # facing +X, the wall 0.95 m ahead
    for k in range(35):
        sim.step(VelocityAction(0.6, 0.2, 0.0 if k < 12 else 0.8 * math.sin(k / 3.0)))
    for kind in ("left", "forward", "right", "forward", "forward"):
        sim.step(DiscreteAction(kind))
    sim.step(StopAction())


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
@pytest.mark.parametrize("mu", [1.0, 0.1])
def test_velocity_and_discrete_actions_over_a_step_and_a_wall(emb: Embodiment, mu: float) -> None:
    rec = both(STEP_WALL, emb, _velocity_and_discrete, SimSettings(friction_scale=mu))
    assert rec["stop"][-1] and rec["label"][-1] == "stopped" and rec["collision"].any()


@pytest.mark.parametrize(("agent_dt", "control_dt"), [(0.02, 0.02), (0.2, 0.005)])
def test_one_tick_per_step_and_one_physics_step_per_tick(agent_dt: float,
                                                         control_dt: float) -> None:
    settings = SimSettings(agent_dt=agent_dt, control_dt=control_dt)
    rec = both(STEP_WALL, SPOT, _velocity_and_discrete, settings)
    assert rec["t"][1] == pytest.approx(agent_dt)


def test_drop_off_a_ledge() -> None:
    high = Box("high", "floor", (0.0, 0.4, 3.0), (20.0, 0.8, 6.0), label="floor")

    def episode(sim: Simulator) -> None:
        sim.reset_to((0.0, 0.8, 3.0), 0.0)
        while not sim.step(VelocityAction(0.8))[1] and sim.time < 8.0:
            pass

    rec = both(Scene("ledge", "outdoor", "test", boxes=(FLOOR, high)), SPOT, episode,
               SimSettings(drop_rule=True))
    assert rec["label"][-1] == "drop"


def test_tilt_on_a_50_degree_slope() -> None:
    t = math.tan(math.radians(50.0))
    zs, ys = (6.0, 0.0, -3.0, -8.0), (0.0, 0.0, 3.0 * t, 3.0 * t)
    v = [(x, y, z) for z, y in zip(zs, ys, strict=True) for x in (-5.0, 5.0)]
    f = [(a, a + 1, a + 3) for a in (0, 2, 4)] + [(a, a + 3, a + 2) for a in (0, 2, 4)]
    ramp = Scene("ramp", "outdoor", "test",
                 meshes=(Mesh("ramp", "terrain", np.array(v, float), np.array(f), label="t"),))
    half = SPOT.sole_size[2] / 2.0

    def episode(sim: Simulator) -> None:
        sim.reset_to((0.0, (1.5 + half) * t + 0.01, -1.5), 0.0)
        for _ in range(10):
            if sim.step(VelocityAction(0.0))[1]:
                break

    rec = both(ramp, SPOT, episode, SimSettings(settle_time=2.0))
    assert rec["label"][-1] == "fall" and rec["tilt"][-1] > math.radians(45.0)


def test_drop_and_tilt_falls_are_reported_by_the_compiled_step() -> None:
    # the two fall episodes above, checked for the reason the compiled step reports
    high = Box("high", "floor", (0.0, 0.4, 3.0), (20.0, 0.8, 6.0), label="floor")
    sim = Simulator(Scene("ledge", "outdoor", "test", boxes=(FLOOR, high)), SPOT,
                    SimSettings(drop_rule=True))
    assert sim.compiled
    sim.reset_to((0.0, 0.8, 3.0), 0.0)
    while not sim.step(VelocityAction(0.8))[1]:
        pass
    assert (sim.label, sim.fall_reason) in (("drop", "drop"), ("fall", "tilt"))
    assert 3.0 - sim.pose()[2] > 3.0 - 0.55  # it went over the edge at z = 0 (nose first)


_OFF = """
import sys
sys.path.insert(0, {src!r})
from navbench.scene import Box, Scene
from navbench.sim import SPOT, Simulator
from navbench.sim.actions import VelocityAction
scene = Scene("f", "indoor", "test", boxes=(Box("floor", "floor", (0, -0.05, 0), (9, 0.1, 9)),))
sim = Simulator(scene, SPOT)
sim.reset_to((0.0, 0.0, 0.0), 0.0)
sim.step(VelocityAction(0.5))
print(sim.compiled, round(float(sim.pose()[2]), 2) < 0.0)
try:
    Simulator(scene, SPOT, compiled=True)
except RuntimeError as e:
    print(e)
"""


def test_navbench_mjc_0_keeps_the_python_loop() -> None:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = dict(os.environ, NAVBENCH_MJC="0")
    out = subprocess.run([sys.executable, "-c", _OFF.format(src=src)], env=env,
                         capture_output=True, text=True, check=True, timeout=300).stdout
    assert out.splitlines() == ["False True",
                                "Simulator(compiled=True): disabled by NAVBENCH_MJC=0"]


def test_kernel_caches_are_keyed_on_the_modules_they_inline(tmp_path: Path) -> None:
    import hashlib
    import types

    import numba as nb

    from navbench.sim import follow_kernels, step_kernel, traction
    from navbench.sim import tick_kernels as tk

    def stamp_of(kernel: object) -> object:
        return kernel._cache._cache_file._source_stamp  # numba's index of the on-disk cache

    srcs = [Path(str(m.__file__)).read_bytes() for m in (tk, follow_kernels, traction, mjc)]
    assert stamp_of(step_kernel.advance)[1] == hashlib.sha256(b"".join(srcs)).hexdigest()
    assert stamp_of(tk.tick)[1] == hashlib.sha256(b"".join(srcs[1:3])).hexdigest()
    # an edit in a dependency changes the key (numba then ignores the cached index)
    dep = tmp_path / "dep.py"
    mod = types.ModuleType("dep")
    mod.__file__ = str(dep)
    keys = []
    for text in (b"x = 1\n", b"x = 2\n"):
        dep.write_bytes(text)
        kernel = nb.njit(cache=True)(lambda: 1)
        tk.key_cache_on((kernel,), (mod,))
        keys.append(stamp_of(kernel)[1])
    assert keys == [hashlib.sha256(t).hexdigest() for t in (b"x = 1\n", b"x = 2\n")]
