"""Rendered facades look like the colour word route instructions use for them.

A street of buildings, one per word of ``FACADE_COLOURS``, named in
``meta["building_colours"]``, seen from Spot's camera both in the shade (facades facing +Z, away
from the sun) and in the sun. The judge is independent of the visual layer's palette: the
facade's mean pixel (its pixels picked by the semantic render, windows included) after a
white-patch exposure correction (every mean divided by the largest channel mean among the
facades of that row), classified as the nearest colour (CIEDE2000 in CIELAB) among the xkcd
colour-survey names (matplotlib's ``XKCD_COLORS``: what people called colours) whose head noun
(last word) is one of the words; the head noun must be the facade's word.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.colors import XKCD_COLORS, to_rgb
from skimage.color import deltaE_ciede2000, rgb2lab

from navbench.scene.model import Box, Scene
from navbench.scene.procgen.buildings import FACADE_COLOURS
from navbench.sim import SPOT
from navbench.sim.snapshot import Snapshotter
from navbench.visual.build import build_visuals
from navbench.visual.outdoor_textures import FACADE_BY_COLOUR, OUTDOOR_TEXTURES, STOREY_M

W, H = 64, 48
WORDS = list(FACADE_COLOURS)
PITCH = 14.0  # m between building centres along x; each is 10 m wide, 12 m deep, 12 m tall


def street() -> Scene:
    """Building i (``bldg_i``, word ``WORDS[i]``) spans x 14i ± 5, z in [-12, 0], y in [0, 12]."""
    boxes = [Box("slab", "ground", (0.0, -0.4, 0.0), (400.0, 0.8, 400.0), 0.0, "ground", "lot")]
    boxes += [Box(f"b{i}", "building", (PITCH * i, 6.0, -6.0), (10.0, 12.0, 12.0), 0.0, "building",
                  f"bldg_{i}") for i in range(len(WORDS))]
    colours = {f"bldg_{i}": w for i, w in enumerate(WORDS)}
    return Scene("street", "outdoor", "handmade", boxes=tuple(boxes),
                 meta={"building_colours": colours})


@pytest.fixture(scope="module")
def facades() -> dict[str, list[np.ndarray]]:
    """Per row (``"shade"``: from z = 9 facing -Z; ``"sun"``: from z = -21 facing +Z), the
    facade pixels (N, 3) of each building, in ``WORDS`` order."""
    snap = Snapshotter(street(), SPOT, width=W, height=H)
    out: dict[str, list[np.ndarray]] = {}
    for row, z, yaw in (("shade", 9.0, 0.0), ("sun", -21.0, math.pi)):
        out[row] = []
        for i in range(len(WORDS)):
            view = snap.view((PITCH * i, 0.0, z), yaw=yaw)
            ids = [k for k, (ref, _) in view.labels.items() if ref == f"bldg_{i}"]
            mask = np.isin(view.semantic, ids)
            assert mask.sum() > 0.15 * W * H, (row, WORDS[i])
            out[row].append(view.rgb[mask].astype(float))
    snap.close()
    return out


def _survey() -> tuple[list[str], np.ndarray]:
    """xkcd survey names whose head noun is one of ``WORDS``, and their CIELAB colours."""
    names = [n for n in (k.removeprefix("xkcd:") for k in XKCD_COLORS) if n.split()[-1] in WORDS]
    lab = rgb2lab(np.array([[to_rgb(XKCD_COLORS[f"xkcd:{n}"]) for n in names]]))[0]
    return names, lab


@pytest.mark.parametrize("row", ["shade", "sun"])
def test_each_facade_is_nearest_its_colour_word(facades: dict[str, list[np.ndarray]],
                                                row: str) -> None:
    names, ref = _survey()
    assert {n.split()[-1] for n in names} == set(WORDS)  # every word has survey colours
    means = np.array([px.mean(axis=0) for px in facades[row]])
    seen = rgb2lab((means / means.max())[None])[0]  # white patch: the brightest channel -> 1
    for word, mean, lab in zip(WORDS, means, seen, strict=True):
        d = deltaE_ciede2000(ref, np.broadcast_to(lab, ref.shape))
        named = names[int(np.argmin(d))]
        assert named.split()[-1] == word, (row, word, mean.round(), named)


def test_facades_keep_texture_detail(facades: dict[str, list[np.ndarray]]) -> None:
    # not a flat colour on screen: windows and wall texture spread the luminance
    for px in facades["sun"]:
        assert (px @ np.array([0.299, 0.587, 0.114])).std() > 12


@pytest.mark.parametrize("word", WORDS)
def test_facade_walls_are_textured_not_flat(word: str) -> None:
    # the wall beside the window (x < 0.6 m or > 2.4 m; window frame spans 0.72-2.28 m), away
    # from string courses (0.2 < y < 2.9 m): its luminance varies from pixel to pixel
    n = 150
    img = OUTDOOR_TEXTURES[FACADE_BY_COLOUR[word]](np.random.default_rng(0), n).astype(float)
    c = (np.arange(n) + 0.5) / n * STOREY_M
    x, y = c[None, :], (STOREY_M - c)[:, None]
    wall = ((x < 0.6) | (x > 2.4)) & (y > 0.2) & (y < 2.9)
    lum = img @ np.array([0.299, 0.587, 0.114])
    assert lum[wall].std() > 4.0, word
    assert len(np.unique(img[wall], axis=0)) > 50, word


def test_buildings_without_a_colour_word_keep_brick_concrete_or_glass() -> None:
    scene = street()
    plain = Scene(scene.id, scene.kind, scene.source, boxes=scene.boxes, meta={})
    vis = build_visuals(plain, seed=0)
    mats = {vis.box_materials[f"b{i}"] for i in range(len(WORDS))}
    assert mats == {"facade_brick", "facade_concrete", "facade_glass"}  # 10 seeded picks of 3
