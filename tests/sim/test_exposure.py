"""The exposure model: closed-form gains and tone curve, the compiled path against the numpy
one, and a window seen from a lit room several times brighter than the wall around it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import ndimage

from navbench.sim.exposure import (
    DAYLIGHT_RATIO,
    KNEE,
    expose,
    expose_coded,
    gains,
    linear_to_srgb,
    shoulder,
    srgb_to_linear,
    tone_lut,
)


def test_shoulder_is_the_identity_below_the_knee_then_smooth_and_bounded() -> None:
    x = np.linspace(0, KNEE, 50)
    assert np.allclose(shoulder(x), x)
    y = shoulder(np.linspace(0, 5, 2001))
    assert (np.diff(y) > 0).all() and y.max() < 1.0 and shoulder(np.array([1e3]))[0] <= 1.0
    eps = 1e-6  # slope 1 on both sides of the knee
    assert (shoulder(np.array([KNEE + eps]))[0] - KNEE) / eps == pytest.approx(1.0, abs=1e-4)


def test_gains_meter_the_frame_log_mean() -> None:
    for f in (0.0, 0.1, 0.5, 1.0):
        g_room, g_day = gains(f)
        assert g_room == pytest.approx(DAYLIGHT_RATIO ** -f)
        assert g_day / g_room == pytest.approx(DAYLIGHT_RATIO)  # daylight always R times the room
        # exposed light levels (room 1 · g_room, daylight R · g_room): their frame mean in log is 0
        assert (1 - f) * math.log(g_room) + f * math.log(g_day) == pytest.approx(0.0, abs=1e-12)


def test_a_half_daylight_frame_by_hand() -> None:
    rgb = np.full((2, 2, 3), 128, np.uint8)
    day = np.array([[True, False], [True, False]])
    out = expose(rgb, day)
    lin = ((128 / 255 + 0.055) / 1.055) ** 2.4  # 0.2158
    g = DAYLIGHT_RATIO ** 0.5
    for gain, col in ((g, 0), (1 / g, 1)):
        x = lin * gain
        y = x if x <= KNEE else KNEE + (1 - KNEE) * (1 - math.exp(-(x - KNEE) / (1 - KNEE)))
        enc = 1.055 * y ** (1 / 2.4) - 0.055
        assert out[0, col, 0] == round(enc * 255)
    assert expose(rgb, np.zeros((2, 2), bool)) is rgb and expose(rgb, np.ones((2, 2), bool)) is rgb


def test_compiled_path_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (37, 53, 3)).astype(np.uint8)
    code = rng.integers(0, 9, (37, 53)).astype(np.uint8)
    day_of_code = (np.arange(9) % 3 == 0).astype(np.uint8)
    assert np.array_equal(expose_coded(rgb, code, day_of_code), expose(rgb, day_of_code[code].astype(bool)))


def test_srgb_round_trip_and_lut_identity_at_unit_gain_below_the_knee() -> None:
    v = np.linspace(0, 1, 256)
    assert np.allclose(linear_to_srgb(srgb_to_linear(v)), v)
    lut = tone_lut(1.0)
    below = srgb_to_linear(np.arange(256) / 255) <= KNEE
    assert (lut[below] == np.arange(256)[below]).all()


def test_window_daylight_several_times_brighter_than_the_wall() -> None:
    """From a lit room, a window's pane against its wall: the mean linear luminance ratio. The
    Turtlebot's level camera faces the wall squarely, so the wall's z-depth is one value and
    the pane (3 mm off the wall; the casing and bars stand 2 cm or more) is told by depth."""
    from navbench.sim import TURTLEBOT
    from navbench.sim.snapshot import Snapshotter
    from tests.visual.test_furnish import house

    snap = Snapshotter(house(), TURTLEBOT, width=96, height=72)
    try:
        view = snap.view((1.2, 0.0, 1.6), (0.0, 0.0, 1.6))
    finally:
        snap.close()
    lum = srgb_to_linear(view.rgb / 255.0) @ np.array([0.2126, 0.7152, 0.0722])
    labels = view.labels
    win = np.isin(view.semantic, [k for k, v in labels.items() if v[1] == "window"])
    wall = np.isin(view.semantic, [k for k, v in labels.items() if v[1] == "wall"])
    wall_depth = float(np.median(view.depth[wall]))
    pane = ndimage.binary_erosion(win & (view.depth > wall_depth - 0.006))  # not the casings' edges
    assert pane.sum() > 20 and wall.sum() > 20
    assert lum[pane].mean() / lum[wall].mean() >= 4.0
