"""Contact sheets of every object category (and storefront category) seen from a robot camera.

Every category is placed once in a studio scene (a floor, a sky; small objects on a plain
pedestal), facing the camera, and photographed from the robot's head camera at 1.5 m and 4 m
in front of its box. Storefronts are photographed in a generated city from the sidewalk,
``distance`` metres in front of each category's first entrance. Tiles carry the category name
underneath (DejaVu Sans, shipped with matplotlib).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from navbench.scene.model import Box, Place, Scene, SceneKind, SceneObject
from navbench.sim.embodiments import Embodiment
from navbench.sim.snapshot import Snapshotter

DISTANCES = (1.5, 4.0)
PEDESTAL_H = 0.7


def _font(size: int) -> ImageFont.FreeTypeFont:
    from matplotlib import font_manager

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)


def studio_scene(categories: Iterable[tuple[str, tuple[float, float, float], bool]], kind: SceneKind) -> tuple[Scene, list[tuple[str, np.ndarray, float]]]:
    """One object per ``(label, size, on_pedestal)`` in a row along +X, each facing -Z (yaw 0).

    Returns the scene and per category ``(label, box centre, front distance)``: the camera
    stands at ``centre - (0, 0, depth/2 + d)`` looking +Z.
    """
    objects, boxes, spots = [], [], []
    x = 0.0
    cats = list(categories)
    for i, (label, size, top) in enumerate(cats):
        w, h, d = size
        x += max(w, d) / 2
        y0 = PEDESTAL_H if top else 0.0
        if top:
            boxes.append(Box(f"pedestal_{i}", "furniture", (x, PEDESTAL_H / 2, 0.0),
                             (max(0.5, w + 0.1), PEDESTAL_H, max(0.5, d + 0.1)), 0.0, "side table", None))
        c = (x, y0 + h / 2, 0.0)
        objects.append(SceneObject(f"o{i}", label, c, None, size=size, yaw=0.0))
        boxes.append(Box(f"b{i}", "object", c, size, 0.0, label, f"o{i}"))
        spots.append((label, np.array(c), max(d, 0.5 if top else 0.0) / 2))
        x += max(w, d) / 2 + 9.0
    boxes.append(Box("floor", "ground", (x / 2, -0.05, 0.0), (x + 40.0, 0.1, 60.0), 0.0, "floor", None))
    if kind == "indoor":  # a plain backdrop wall behind the row (indoors there is no sky)
        boxes.append(Box("backdrop", "wall", (x / 2, 6.0, 6.0), (x + 40.0, 12.0, 0.2), 0.0, "wall", None))
    return Scene("gallery", kind, "gallery", objects=tuple(objects), boxes=tuple(boxes)), spots


def _png_writer(im: Image.Image) -> Callable[[Path], None]:
    """A writer for :func:`~navbench.io.atomic_write_with` that saves ``im`` as PNG."""
    return lambda p: im.save(p, format="PNG")


def _mid3(ranges: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    """Midpoints (rounded to cm) of three (lo, hi) size ranges."""
    (a0, a1), (b0, b1), (c0, c1) = ranges
    return (round((a0 + a1) / 2, 2), round((b0 + b1) / 2, 2), round((c0 + c1) / 2, 2))


def _tile(img: np.ndarray, text: str, font: ImageFont.FreeTypeFont) -> Image.Image:
    im = Image.fromarray(img)
    band = int(font.size) + 6
    out = Image.new("RGB", (im.width, im.height + band), (255, 255, 255))
    out.paste(im, (0, 0))
    ImageDraw.Draw(out).text((4, im.height + 2), text, fill=(0, 0, 0), font=font)
    return out


#: White gutter between two categories' blocks (px); the two views of one category are split
#: by a thin grey line instead, so that every block reads as one category over its label.
GUTTER = 10
SPLIT = (110, 110, 110)


def contact_sheet(tiles: list[Image.Image], columns: int, gutter: int = 0) -> Image.Image:
    """Tiles in rows of ``columns``, ``gutter`` white pixels between neighbouring tiles."""
    w, h = tiles[0].size
    rows = math.ceil(len(tiles) / columns)
    sheet = Image.new("RGB", (columns * w + (columns - 1) * gutter, rows * h + (rows - 1) * gutter), (255, 255, 255))
    for k, t in enumerate(tiles):
        sheet.paste(t, ((k % columns) * (w + gutter), (k // columns) * (h + gutter)))
    return sheet


def category_sheet(categories: list[tuple[str, tuple[float, float, float], bool]], kind: SceneKind,
                   embodiment: Embodiment, *, size: tuple[int, int] = (160, 120), columns: int = 8,
                   seed: int = 0) -> Image.Image:
    """Two views (1.5 m, 4 m) of every category side by side, ``columns`` pairs per row: each
    pair one block over its label, blocks :data:`GUTTER` px apart."""
    scene, spots = studio_scene(categories, kind)
    snap = Snapshotter(scene, embodiment, width=size[0], height=size[1], seed=seed)
    font = _font(max(9, size[1] // 10))
    tiles = []
    try:
        for label, c, half_d in spots:
            views = []
            for dist in DISTANCES:
                pos = (c[0], 0.0, c[2] - half_d - dist)
                views.append(snap.view(pos, (c[0], 0.0, c[2])).rgb)
            pair = np.concatenate([views[0], np.full((size[1], 2, 3), SPLIT, np.uint8), views[1]], axis=1)
            tiles.append(_tile(pair, label, font))
    finally:
        snap.close()
    return contact_sheet(tiles, columns, GUTTER)


def storefront_sheet(city: Scene, embodiment: Embodiment, *, distance: float = 4.0,
                     size: tuple[int, int] = (320, 240), columns: int = 4, seed: int = 0) -> Image.Image:
    """Each storefront category's first place, seen from ``distance`` m in front of its entrance."""
    firsts: dict[str, Place] = {}
    for p in city.places:
        firsts.setdefault(p.category, p)
    snap = Snapshotter(city, embodiment, width=size[0], height=size[1], seed=seed)
    font = _font(max(10, size[1] // 14))
    tiles = []
    try:
        for cat in sorted(firsts):
            p = firsts[cat]
            e = np.asarray(p.entrance, float)
            yaw = float(p.yaw)
            out = np.array([-math.sin(yaw), 0.0, -math.cos(yaw)])  # the place faces the street
            view = snap.view(e + distance * out, e)
            tiles.append(_tile(view.rgb, f"{cat}: {p.name}", font))
    finally:
        snap.close()
    return contact_sheet(tiles, columns, GUTTER)


def write_gallery(out_dir: Path, embodiment: Embodiment, *, seed: int = 0, tile: tuple[int, int] = (160, 120),
                  city: Scene | None = None) -> list[Path]:
    """Write ``indoor.png``, ``outdoor.png`` and ``storefronts.png`` to ``out_dir``."""
    from navbench.io import atomic_write_with
    from navbench.scene.procgen.catalog import CATALOG
    from navbench.visual.outdoor_objects import OUTDOOR_SIZES

    indoor = [(c.label, _mid3(c.size), c.mode == "top") for c in CATALOG.values()]
    outdoor = [(k, v, False) for k, v in OUTDOOR_SIZES.items()]
    if city is None:
        from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

        city = generate_city(seed, OutdoorSettings(size=(300.0, 300.0)))
    sheets = {
        "indoor.png": category_sheet(indoor, "indoor", embodiment, size=tile, seed=seed),
        "outdoor.png": category_sheet(outdoor, "outdoor", embodiment, size=tile, seed=seed),
        "storefronts.png": storefront_sheet(city, embodiment, seed=seed),
    }
    paths = []
    for name, im in sheets.items():
        path = out_dir / name
        atomic_write_with(path, _png_writer(im))
        paths.append(path)
    return paths
