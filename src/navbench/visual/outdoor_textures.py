"""Outdoor procedural textures (numpy, seeded) and the outdoor material table.

Every generator is ``fn(rng, size) -> (size, size, 3) uint8`` and tiles seamlessly. Image
convention: column ``c`` is ``u = (c + 0.5) / size`` and row ``r`` is ``v = 1 - (r + 0.5) / size``
(row 0 is the *top* of the tile, as in a PNG). One tile covers :data:`TILE_M` ``[name]`` metres of
surface; callers set UVs = metres / ``TILE_M[name]``. Materials are
:class:`navbench.visual.materials.Material` entries.

Roads: ``road`` is a per-axis tile for a two-lane road: ``u`` runs along the road (one tile =
:data:`ROAD_TILE_M` m, i.e. one 3 m dash and one 3 m gap of the centre line) and ``v`` across
it over the *full* carriageway width (``v = 0`` at the right edge, ``v = 1`` at the left), so
the caller sets ``u = s / ROAD_TILE_M`` and ``v = t / width``; ``road_4lane`` is the same for
four lanes (:func:`road_material` picks one by width). For any other lane count or an exact
segment picture use :func:`road_markings`, which rasterises a whole segment.
Facades (``facade_brick`` red, ``facade_brick_brown``, ``facade_concrete``, ``facade_glass``,
``facade_render_<colour>`` painted render) cover one storey (:data:`STOREY_M` = 3 m) by one 3 m
bay with one window, so UVs = metres / 3 give one window row per storey;
:data:`FACADE_BY_COLOUR` maps the colour words of ``scene.meta["building_colours"]`` to them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from navbench.visual.materials import Material

STOREY_M = 3.0
ROAD_TILE_M = 6.0
LANE_M = 3.5


def _noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Tileable value noise in [0, 1] on a ``cells``² lattice (smoothstep, wrapping)."""
    cells = max(1, min(cells, size))
    g = rng.random((cells, cells))
    t = np.arange(size) * cells / size
    i0 = np.floor(t).astype(int)
    f = t - i0
    f = f * f * (3 - 2 * f)
    i1 = (i0 + 1) % cells
    rows = g[i0] * (1 - f)[:, None] + g[i1] * f[:, None]
    return rows[:, i0] * (1 - f)[None, :] + rows[:, i1] * f[None, :]


def _fbm(rng: np.random.Generator, size: int, base: int, octaves: int) -> np.ndarray:
    out, tot, amp = np.zeros((size, size)), 0.0, 1.0
    for k in range(octaves):
        out += amp * _noise(rng, size, base * 2**k)
        tot += amp
        amp /= 2
    return out / tot


def _mix(gray: np.ndarray, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> np.ndarray:
    """Float (H, W, 3) colour between ``lo`` and ``hi`` (0..1 RGB) by ``gray``."""
    g = np.clip(gray, 0, 1)[..., None]
    return np.asarray(lo) + g * (np.asarray(hi) - np.asarray(lo))


def _u8(img: np.ndarray) -> np.ndarray:
    return np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)


def _grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) per pixel in [0, 1): u along columns, v up (row 0 = top)."""
    c = (np.arange(size) + 0.5) / size
    return c[None, :].repeat(size, 0), (1.0 - c)[:, None].repeat(size, 1)


# --------------------------------------------------------------------------- ground
def asphalt(rng: np.random.Generator, size: int) -> np.ndarray:
    """Dark asphalt with aggregate speckle (tile 4 m)."""
    g = 0.6 * _fbm(rng, size, 4, 4) + 0.4 * rng.random((size, size))
    return _u8(_mix(g, (0.16, 0.16, 0.17), (0.32, 0.32, 0.33)))


def _paint_lines(img: np.ndarray, u: np.ndarray, v: np.ndarray, width_m: float, length_m: float,
                 lanes: int, offset_m: float = 0.0) -> np.ndarray:
    """Edge lines (solid white), lane dividers (dashed white) and centre line (solid-ish yellow)."""
    t = v * width_m  # metres from the right edge
    s = u * length_m + offset_m
    white, yellow = np.array((0.92, 0.92, 0.9)), np.array((0.95, 0.78, 0.15))
    edge = (np.abs(t - 0.3) < 0.075) | (np.abs(t - (width_m - 0.3)) < 0.075)
    img[edge] = white
    dash = (s % 6.0) < 3.0
    for k in range(1, lanes):
        c = width_m * k / lanes
        if lanes % 2 == 0 and k == lanes // 2 and lanes >= 4:  # solid double yellow centre line
            img[(np.abs(t - c - 0.15) < 0.06) | (np.abs(t - c + 0.15) < 0.06)] = yellow
        elif lanes % 2 == 0 and k == lanes // 2:
            img[(np.abs(t - c) < 0.075) & dash] = yellow
        else:
            img[(np.abs(t - c) < 0.075) & dash] = white
    return img


def road(rng: np.random.Generator, size: int) -> np.ndarray:
    """Two-lane road tile: 6 m along (u) by the full width across (v); see the module doc."""
    u, v = _grid(size)
    return _u8(_paint_lines(asphalt(rng, size) / 255.0, u, v, 2 * LANE_M, ROAD_TILE_M, 2))


def road_4lane(rng: np.random.Generator, size: int) -> np.ndarray:
    """Four-lane road tile (double yellow centre, dashed white lane lines), like :func:`road`."""
    u, v = _grid(size)
    return _u8(_paint_lines(asphalt(rng, size) / 255.0, u, v, 4 * LANE_M, ROAD_TILE_M, 4))


def road_material(width_m: float) -> str:
    """The road material for a carriageway ``width_m`` wide: ``road_4lane`` from 3 lanes' width."""
    return "road_4lane" if width_m >= 3 * 3.25 else "road"


def road_markings(length_m: float, width_m: float, rng: np.random.Generator, *, lanes: int = 2,
                  px_per_m: float = 16.0) -> np.ndarray:
    """A whole road segment's image: (round(width·px), round(length·px), 3) uint8.

    Columns run along the segment from its start (u = 0) to its end (u = 1); rows across it,
    row 0 at the left edge (v = 1) seen looking from the start towards the end. Dashes are
    3 m on / 3 m off from the start; edge lines 0.3 m inside each edge, 0.15 m wide.
    """
    w = max(2, round(width_m * px_per_m))
    n = max(2, round(length_m * px_per_m))
    u = ((np.arange(n) + 0.5) / n)[None, :].repeat(w, 0)
    v = (1.0 - (np.arange(w) + 0.5) / w)[:, None].repeat(n, 1)
    g = 0.6 * _noise(rng, max(w, n), 16)[:w, :n] + 0.4 * rng.random((w, n))
    base = _mix(g, (0.16, 0.16, 0.17), (0.32, 0.32, 0.33))
    return _u8(_paint_lines(base, u, v, width_m, length_m, lanes))


def crosswalk(rng: np.random.Generator, size: int) -> np.ndarray:
    """Zebra crossing on asphalt: one 0.5 m white bar and one 0.5 m gap along u (tile 1 m)."""
    u, _ = _grid(size)
    img = asphalt(rng, size) / 255.0
    bar = u < 0.5
    wear = _fbm(rng, size, 8, 3)
    img[bar] = _mix(wear, (0.78, 0.78, 0.76), (0.95, 0.95, 0.93))[bar]
    return _u8(img)


def paving(rng: np.random.Generator, size: int) -> np.ndarray:
    """Sidewalk paving: 2x2 square slabs per tile (tile 1 m, slabs 0.5 m) with dark joints."""
    k = size // 2
    idx = np.arange(size) // k
    tone = rng.uniform(0.85, 1.0, (2, 2))[idx][:, idx]
    g = tone * (0.75 + 0.25 * _fbm(rng, size, 8, 3))
    m = np.arange(size) % k
    joint = (m[:, None] < max(1, size // 128)) | (m[None, :] < max(1, size // 128))
    g = np.where(joint, 0.35, g)
    return _u8(_mix(g, (0.0, 0.0, 0.0), (0.72, 0.70, 0.66)))


def curb(rng: np.random.Generator, size: int) -> np.ndarray:
    """Light granite curb stone with a joint every metre (tile 1 m)."""
    g = 0.5 * _fbm(rng, size, 8, 3) + 0.5 * rng.random((size, size))
    img = _mix(g, (0.58, 0.58, 0.57), (0.82, 0.82, 0.8))
    img[:, : max(1, size // 100)] = 0.3
    return _u8(img)


def grass(rng: np.random.Generator, size: int) -> np.ndarray:
    """Lawn: green patches plus blade streaks (tile 2 m)."""
    patch = _fbm(rng, size, 4, 4)
    blades = rng.random((size, size))
    blades = 0.5 * (blades + np.roll(blades, 1, axis=0))
    g = 0.55 * patch + 0.45 * blades
    return _u8(_mix(g, (0.13, 0.30, 0.08), (0.42, 0.62, 0.22)))


def water(rng: np.random.Generator, size: int) -> np.ndarray:
    """Water: blue with soft ripple bands (tile 4 m)."""
    n = _fbm(rng, size, 4, 4)
    _, v = _grid(size)
    rip = 0.5 + 0.5 * np.sin(2 * np.pi * (6 * v + 3 * n))
    return _u8(_mix(0.6 * rip + 0.4 * n, (0.07, 0.22, 0.36), (0.25, 0.48, 0.62)))


def sand(rng: np.random.Generator, size: int) -> np.ndarray:
    """Sand: fine grain (tile 1 m)."""
    g = 0.5 * rng.random((size, size)) + 0.5 * _fbm(rng, size, 8, 3)
    return _u8(_mix(g, (0.72, 0.62, 0.42), (0.92, 0.84, 0.62)))


def concrete(rng: np.random.Generator, size: int) -> np.ndarray:
    """Grey concrete with pores (tile 2 m)."""
    g = 0.7 * _fbm(rng, size, 4, 5) + 0.3 * rng.random((size, size))
    g = np.where(rng.random((size, size)) < 0.01, 0.1, g)
    return _u8(_mix(g, (0.5, 0.5, 0.49), (0.75, 0.75, 0.73)))


# --------------------------------------------------------------------------- facades
#: Self-illumination of brick / concrete / render facades: walls in the shade (ambient 0.3 +
#: headlight 0.25) would show a white render as mid grey.
FACADE_EMISSION = 0.2
RGB = tuple[float, float, float]
#: Brick colours (0..1 RGB before the per-brick tone).
BRICK_RED: RGB = (0.66, 0.1, 0.06)
BRICK_BROWN: RGB = (0.46, 0.24, 0.1)
#: Painted render (plaster) colours by the colour word a person would use for them.
RENDER_COLOURS: dict[str, RGB] = {
    "white": (0.96, 0.95, 0.92), "beige": (0.87, 0.77, 0.58), "yellow": (0.95, 0.8, 0.25),
    "orange": (0.95, 0.5, 0.14), "pink": (0.95, 0.6, 0.7), "blue": (0.33, 0.5, 0.82),
    "green": (0.38, 0.66, 0.36),
}


def _window(img: np.ndarray, u: np.ndarray, v: np.ndarray, rng: np.random.Generator,
            frame: tuple[float, float, float]) -> np.ndarray:
    """One window per 3 m x 3 m tile: 1.4 m wide, 1.6 m tall, sill at 0.9 m, with a frame."""
    x, y = u * STOREY_M, v * STOREY_M
    outer = (np.abs(x - 1.5) < 0.78) & (y > 0.82) & (y < 2.58)
    glass = (np.abs(x - 1.5) < 0.7) & (y > 0.9) & (y < 2.5)
    mullion = glass & ((np.abs(x - 1.5) < 0.03) | (np.abs(y - 1.9) < 0.03))
    sill = (np.abs(x - 1.5) < 0.85) & (y > 0.78) & (y < 0.9)
    img[outer] = frame
    lit = float(rng.random())
    sky = _mix(0.6 * v + 0.4 * _fbm(rng, v.shape[0], 4, 2), (0.12, 0.16, 0.2), (0.42 + 0.25 * lit, 0.5 + 0.15 * lit, 0.58))
    img[glass] = sky[glass]
    img[mullion] = frame
    img[sill] = (0.78, 0.77, 0.74)
    return img


def _brick(rng: np.random.Generator, size: int, colour: RGB) -> np.ndarray:
    """Brick bond (0.25 m x 0.075 m courses) of ``colour`` (0..1 RGB, each brick's tone varies
    by x0.75-1.1) with one window per storey bay (tile 3 m)."""
    u, v = _grid(size)
    x, y = u * STOREY_M, v * STOREY_M
    course = np.floor(y / 0.075).astype(int)
    shift = (course % 2) * 0.125
    bx = (x + shift) % 0.25
    by = y % 0.075
    mortar = (bx < 0.012) | (by < 0.01)
    n_b = 40 * 12
    tone = rng.uniform(0.75, 1.1, n_b)[(course * 12 + np.floor((x + shift) / 0.25).astype(int)) % n_b]
    brick = np.asarray(colour) * tone[..., None]
    img = np.where(mortar[..., None], np.array((0.52, 0.49, 0.45)), brick)
    return _u8(_window(img, u, v, rng, (0.9, 0.88, 0.82)))


def facade_brick(rng: np.random.Generator, size: int) -> np.ndarray:
    """Red brick with one window per storey bay (tile 3 m)."""
    return _brick(rng, size, BRICK_RED)


def facade_brick_brown(rng: np.random.Generator, size: int) -> np.ndarray:
    """Brown brick with one window per storey bay (tile 3 m)."""
    return _brick(rng, size, BRICK_BROWN)


def facade_concrete(rng: np.random.Generator, size: int) -> np.ndarray:
    """Concrete panels (1.5 m joints) with one window per storey bay (tile 3 m)."""
    u, v = _grid(size)
    img = concrete(rng, size) / 255.0
    x, y = u * STOREY_M, v * STOREY_M
    joint = (np.abs(x % 1.5) < 0.015) | (y % 3.0 < 0.02)
    img[joint] = img[joint] * 0.6
    return _u8(_window(img, u, v, rng, (0.22, 0.22, 0.24)))


def facade_glass(rng: np.random.Generator, size: int) -> np.ndarray:
    """Glass curtain wall: two panes per bay, a dark spandrel band per storey (tile 3 m)."""
    u, v = _grid(size)
    x, y = u * STOREY_M, v * STOREY_M
    refl = _fbm(rng, size, 2, 3)
    img = _mix(0.5 * v + 0.5 * refl, (0.12, 0.22, 0.3), (0.45, 0.62, 0.72))
    spandrel = y < 0.7
    img[spandrel] = (0.16, 0.18, 0.2)
    mull = (np.abs(x % 1.5) < 0.04) | (np.abs(y - 0.7) < 0.04) | (y > 2.96)
    img[mull] = (0.55, 0.57, 0.6)
    return _u8(img)


def facade_render(rng: np.random.Generator, size: int, colour: RGB) -> np.ndarray:
    """Painted render of ``colour`` (0..1 RGB): trowelled plaster (lightness x0.8-1.08 by
    mottling and grain), rain streaks below the sill, a darker string course at each storey's
    floor line, one window per storey bay (dark frame) (tile 3 m)."""
    u, v = _grid(size)
    x, y = u * STOREY_M, v * STOREY_M
    shade = 0.8 + 0.2 * _fbm(rng, size, 3, 5) + 0.08 * rng.random((size, size))
    streak = (np.abs(x - 1.5) < 0.7) & (y > 0.25) & (y < 0.78)
    fade = np.clip((y - 0.25) / 0.53, 0, 1) * (0.5 + 0.5 * _fbm(rng, size, 16, 1)[0][None, :])
    shade = np.where(streak, shade * (1 - 0.14 * fade), shade)
    img = np.asarray(colour) * shade[..., None]
    band = (y < 0.12) | (y > 2.96)
    img[band] = img[band] * 0.82
    return _u8(_window(img, u, v, rng, (0.24, 0.24, 0.26)))


def _render_fn(colour: RGB) -> Callable[[np.random.Generator, int], np.ndarray]:
    def fn(rng: np.random.Generator, size: int) -> np.ndarray:
        return facade_render(rng, size, colour)
    return fn


#: Facade texture / material key by the colour word of ``scene.meta["building_colours"]``: red
#: and brown brick, grey concrete, the other words painted render of that colour.
FACADE_BY_COLOUR: dict[str, str] = {
    "red": "facade_brick", "brown": "facade_brick_brown", "grey": "facade_concrete",
    **{c: f"facade_render_{c}" for c in RENDER_COLOURS},
}


# --------------------------------------------------------------------------- vegetation, wood
def foliage(rng: np.random.Generator, size: int) -> np.ndarray:
    """Leaf clumps: dark gaps between lit leaves (tile 1 m; white-ish green, tinted by rgba)."""
    g = 0.55 * _fbm(rng, size, 8, 3) + 0.45 * (rng.random((size, size)) > 0.5)
    return _u8(_mix(g, (0.35, 0.45, 0.3), (1.0, 1.0, 0.9)))


def bark(rng: np.random.Generator, size: int) -> np.ndarray:
    """Bark with vertical grooves (u around the trunk, v up; tile 1 m)."""
    u, _ = _grid(size)
    n = _fbm(rng, size, 4, 4)
    groove = 0.5 + 0.5 * np.sin(2 * np.pi * (14 * u + 1.5 * n))
    return _u8(_mix(0.6 * groove + 0.4 * rng.random((size, size)), (0.2, 0.13, 0.08), (0.45, 0.33, 0.22)))


def planks(rng: np.random.Generator, size: int) -> np.ndarray:
    """Weathered outdoor wood: grain along u, four planks per tile across v (tile 1 m)."""
    _, v = _grid(size)
    n = _fbm(rng, size, 4, 3)
    grain = 0.5 + 0.5 * np.sin(2 * np.pi * (40 * v + 4 * n))
    tone = rng.uniform(0.8, 1.1, 4)[np.minimum((v * 4).astype(int), 3)]
    gap = (v * 4) % 1.0 < 0.04
    g = np.where(gap, 0.1, (0.55 + 0.45 * grain) * tone)
    return _u8(_mix(g, (0.3, 0.2, 0.12), (0.72, 0.55, 0.36)))


#: Outdoor texture generators by name.
OUTDOOR_TEXTURES: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "asphalt": asphalt, "road": road, "road_4lane": road_4lane, "crosswalk": crosswalk, "paving": paving, "curb": curb,
    "grass": grass, "water": water, "sand": sand, "concrete": concrete,
    "facade_brick": facade_brick, "facade_brick_brown": facade_brick_brown,
    "facade_concrete": facade_concrete, "facade_glass": facade_glass,
    **{f"facade_render_{c}": _render_fn(rgb) for c, rgb in RENDER_COLOURS.items()},
    "foliage": foliage, "bark": bark, "planks": planks,
}


#: Metres of surface one tile of each outdoor texture covers (set UVs = metres / TILE_M).
TILE_M: dict[str, float] = {
    "asphalt": 4.0, "road": ROAD_TILE_M, "road_4lane": ROAD_TILE_M, "crosswalk": 1.0, "paving": 1.0, "curb": 1.0, "grass": 2.0,
    "water": 4.0, "sand": 1.0, "concrete": 2.0, "facade_brick": STOREY_M, "facade_concrete": STOREY_M,
    "facade_glass": STOREY_M, "foliage": 1.0, "bark": 1.0, "planks": 1.0,
    **{k: STOREY_M for k in FACADE_BY_COLOUR.values()},
}


def _m(r: float, g: float, b: float, texture: str | None = None, spec: float = 0.1,
       shine: float = 0.2, refl: float = 0.0, a: float = 1.0, emission: float = 0.0) -> Material:
    return Material((r, g, b, a), texture, spec, shine, refl, emission)


#: Vehicle paint colours (tints of ``car_paint``), RGB in 0..1.
PAINTS: dict[str, tuple[float, float, float]] = {
    "red": (0.7, 0.06, 0.06), "blue": (0.08, 0.2, 0.6), "white": (0.92, 0.92, 0.9),
    "black": (0.05, 0.05, 0.06), "silver": (0.65, 0.66, 0.68), "green": (0.1, 0.4, 0.2),
    "yellow": (0.95, 0.75, 0.1), "grey": (0.35, 0.36, 0.38),
}

#: Outdoor base materials (keys never shadow the indoor table's; builders also use the indoor
#: ``glass``, ``rubber``, ``chrome``, ``metal``, ``metal_dark``, ``plastic``, ``screen``,
#: ``fabric``, ``bulb`` and tint them with ``visual.materials.tinted``).
OUTDOOR_MATERIALS: dict[str, Material] = {
    "car_paint": _m(0.7, 0.06, 0.06, None, 0.8, 0.8, 0.15),
    "glass_dark": _m(0.1, 0.13, 0.16, None, 1.0, 1.0, 0.3, a=0.9),
    "tyre": _m(0.05, 0.05, 0.05, None, 0.05, 0.05),
    "painted_metal": _m(0.1, 0.32, 0.2, None, 0.4, 0.4),
    "reflective_white": _m(1.0, 1.0, 1.0, None, 0.6, 0.6),
    "sign_plate": _m(0.0, 0.42, 0.25, None, 0.5, 0.5),
    "sign_red": _m(0.78, 0.05, 0.06, None, 0.5, 0.5),
    "plastic_red": _m(0.8, 0.08, 0.06, None, 0.3, 0.4),
    "plastic_orange": _m(0.98, 0.42, 0.05, None, 0.3, 0.4),
    "plastic_yellow": _m(0.98, 0.8, 0.1, None, 0.3, 0.4),
    "plastic_green": _m(0.12, 0.55, 0.2, None, 0.3, 0.4),
    "plastic_black": _m(0.05, 0.05, 0.06, None, 0.3, 0.4),
    "signal_red": _m(0.95, 0.1, 0.05, None, 0.8, 0.8, emission=0.6),
    "signal_amber": _m(0.95, 0.6, 0.05, None, 0.8, 0.8, emission=0.3),
    "signal_green": _m(0.1, 0.85, 0.3, None, 0.8, 0.8, emission=0.3),
    "lamp_glow": _m(1.0, 0.95, 0.8, None, 0.0, 0.0, emission=0.8),
    "canvas": _m(0.9, 0.9, 0.88, None, 0.05, 0.05),
    "bark": _m(1.0, 1.0, 1.0, "bark", 0.05, 0.05),
    "leaves": _m(0.55, 0.8, 0.4, "foliage", 0.1, 0.1),
    "palm_leaves": _m(0.45, 0.7, 0.3, "foliage", 0.1, 0.1),
    "flower": _m(0.95, 0.45, 0.65, None, 0.1, 0.1),
    "terracotta": _m(0.72, 0.36, 0.22, None, 0.1, 0.1),
    "planks": _m(1.0, 1.0, 1.0, "planks", 0.1, 0.1),
    "concrete": _m(1.0, 1.0, 1.0, "concrete", 0.1, 0.1),
    "granite": _m(0.62, 0.6, 0.58, "concrete", 0.2, 0.2),
    "bronze": _m(0.45, 0.32, 0.18, None, 0.7, 0.6, 0.1),
    "water": _m(1.0, 1.0, 1.0, "water", 0.9, 0.9, 0.3, a=0.9),
    "sand": _m(1.0, 1.0, 1.0, "sand", 0.05, 0.05),
    "asphalt": _m(1.0, 1.0, 1.0, "asphalt", 0.1, 0.1),
    "road": _m(1.0, 1.0, 1.0, "road", 0.1, 0.1),
    "road_4lane": _m(1.0, 1.0, 1.0, "road_4lane", 0.1, 0.1),
    "crosswalk": _m(1.0, 1.0, 1.0, "crosswalk", 0.1, 0.1),
    "paving": _m(1.0, 1.0, 1.0, "paving", 0.1, 0.1),
    "curb": _m(1.0, 1.0, 1.0, "curb", 0.1, 0.1),
    "grass": _m(1.0, 1.0, 1.0, "grass", 0.05, 0.05),
    "facade_glass": _m(1.0, 1.0, 1.0, "facade_glass", 0.8, 0.8, 0.25),
    **{k: _m(1.0, 1.0, 1.0, k, 0.1, 0.1, emission=FACADE_EMISSION)
       for k in FACADE_BY_COLOUR.values()},
    "shop_frame": _m(0.15, 0.15, 0.16, None, 0.4, 0.4),
    "shop_window": _m(0.22, 0.3, 0.36, None, 1.0, 1.0, 0.3, a=0.92),
    "door_wood": _m(0.55, 0.35, 0.2, "planks", 0.2, 0.2),
    "awning": _m(0.9, 0.9, 0.9, None, 0.05, 0.05),
}
