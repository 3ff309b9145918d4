"""MuJoCo's C calls from numba (`navbench.sim.mjc`), checked against closed forms."""

from __future__ import annotations

import os
import subprocess
import sys

import mujoco
import numba as nb
import numpy as np
import pytest

from navbench.sim import mjc

pytestmark = pytest.mark.skipif(not mjc.available(), reason=mjc.unavailable_reason())

BOX = ('<mujoco><worldbody><geom type="plane" size="5 5 .1"/><body pos="0 0 {z}">'
       '<freejoint/><geom type="box" size=".1 .2 .1"/></body></worldbody></mujoco>')


def model(z: float) -> tuple[mujoco.MjModel, mujoco.MjData]:
    m = mujoco.MjModel.from_xml_string(BOX.format(z=z))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    return m, d


@nb.njit
def _steps(ma, da, n):  # type: ignore[no-untyped-def]
    for _ in range(n):
        mjc.step(mjc.ptr(ma), mjc.ptr(da))


@nb.njit
def _dist(ma, da, out):  # type: ignore[no-untyped-def]
    return mjc.geom_distance(mjc.ptr(ma), mjc.ptr(da), 0, 1, 10.0, mjc.ptr(out.ctypes.data))


@nb.njit
def _ray(ma, da, pnt, vec, gid, normal):  # type: ignore[no-untyped-def]
    return mjc.ray(mjc.ptr(ma), mjc.ptr(da), mjc.ptr(pnt.ctypes.data), mjc.ptr(vec.ctypes.data),
                   mjc.ptr(0), 1, -1, mjc.ptr(gid.ctypes.data), mjc.ptr(normal.ctypes.data))


def test_resting_box_contacts_are_its_four_bottom_corners() -> None:
    _, d = model(0.0999)  # 0.1 mm into the plane
    lay = mjc.layout().array
    assert mjc.read_ncon(d._address, lay) == 4
    geom, pos, frame = mjc.contacts(d._address, lay)
    assert geom.tolist() == [[0, 1]] * 4
    corners = sorted((round(x, 6), round(y, 6)) for x, y in pos[:, :2])
    assert corners == [(-0.1, -0.2), (-0.1, 0.2), (0.1, -0.2), (0.1, 0.2)]
    np.testing.assert_allclose(pos[:, 2], -0.00005, atol=1e-9)  # midway through the overlap
    np.testing.assert_allclose(frame[:, :3], [[0.0, 0.0, 1.0]] * 4)  # normal: up


def test_no_contacts_in_the_air() -> None:
    _, d = model(1.0)
    lay = mjc.layout().array
    assert mjc.read_ncon(d._address, lay) == 0
    assert [len(a) for a in mjc.contacts(d._address, lay)] == [0, 0, 0]


def test_compiled_steps_fall_like_free_fall() -> None:
    m, d = model(2.0)
    n = 100  # 0.2 s at the default 2 ms, semi-implicit Euler: z drops g·dt²·n(n+1)/2
    _steps(m._address, d._address, n)
    dt, g = m.opt.timestep, 9.81
    assert d.time == pytest.approx(n * dt)
    assert d.qpos[2] == pytest.approx(2.0 - g * dt * dt * n * (n + 1) / 2, abs=1e-9)


def test_geom_distance_and_ray_closed_forms() -> None:
    m, d = model(0.5)
    ft = np.zeros(6)
    assert _dist(m._address, d._address, ft) == pytest.approx(0.4)  # bottom face 0.4 m up
    gid, normal = np.zeros(1, np.int32), np.zeros(3)
    hit = _ray(m._address, d._address, np.array([0.05, 0.0, 2.0]), np.array([0.0, 0.0, -1.0]),
               gid, normal)
    assert hit == pytest.approx(1.4) and gid[0] == 1  # the box's top face at z 0.6
    np.testing.assert_allclose(normal, [0.0, 0.0, 1.0])


def test_env_switch_turns_it_off() -> None:
    env = dict(os.environ, NAVBENCH_MJC="0")
    out = subprocess.run([sys.executable, "-c", "from navbench.sim import mjc;"
                          "print(mjc.available(), mjc.unavailable_reason())"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False disabled by NAVBENCH_MJC=0"
