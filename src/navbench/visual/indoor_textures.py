"""Procedural indoor material textures at real scale: wood species, laminates and paint,
fabrics, leather, wicker, floor tiles, parquet and carpet (numpy, seeded, seamless).

Same contract as ``visual.textures`` (``fn(rng, size) -> (size, size, 3) uint8``, row 0 = the
top). One tile covers :data:`INDOOR_TILE_M` ``[key]`` metres of surface; the visual build
divides metric UVs by it, so grain, weave and tiles keep their physical size on every object.
Grain runs along ``u`` (image columns); ``mesh.box`` lays ``u`` along each face's longer side.

Scales (what a person sees at 1–3 m): hardwood growth rings 3–12 mm apart with pores and ray
flecks, planks 0.14 m × 1.2 m, ceramic floor tiles 0.3 m or 0.6 m with 3 mm grout, mosaic
0.05 m, carpet loops ~3 mm, plain weave ~1.5 mm, wicker strands 20 mm.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

RGB = tuple[float, float, float]
TextureFn = Callable[[np.random.Generator, int], np.ndarray]


# --------------------------------------------------------------------------- noise helpers
def noise2(rng: np.random.Generator, size: int, cu: int, cv: int) -> np.ndarray:
    """Tileable value noise in [0, 1] on a ``cv`` × ``cu`` lattice (rows × columns; smoothstep,
    wrapping): ``cu < cv`` stretches features along ``u``."""
    cu, cv = max(1, min(cu, size)), max(1, min(cv, size))
    g = rng.random((cv, cu))

    def axis(n: int, cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t = np.arange(n) * cells / n
        i0 = np.floor(t).astype(int)
        f = t - i0
        return i0, (i0 + 1) % cells, f * f * (3 - 2 * f)

    r0, r1, fr = axis(size, cv)
    c0, c1, fc = axis(size, cu)
    rows = g[r0] * (1 - fr)[:, None] + g[r1] * fr[:, None]
    return rows[:, c0] * (1 - fc)[None, :] + rows[:, c1] * fc[None, :]


def fbm2(rng: np.random.Generator, size: int, cu: int, cv: int, octaves: int = 3) -> np.ndarray:
    """Octaves of :func:`noise2` (lattice doubled, amplitude halved each octave), in [0, 1]."""
    out, tot, amp = np.zeros((size, size)), 0.0, 1.0
    for k in range(octaves):
        out += amp * noise2(rng, size, cu * 2**k, cv * 2**k)
        tot += amp
        amp /= 2
    return out / tot


def ramp(gray: np.ndarray, lo: RGB, hi: RGB) -> np.ndarray:
    """Float (H, W, 3) colour from ``lo`` (gray 0) to ``hi`` (gray 1)."""
    g = np.clip(gray, 0, 1)[..., None]
    return np.asarray(lo) + g * (np.asarray(hi) - np.asarray(lo))


def u8(img: np.ndarray) -> np.ndarray:
    """Float 0..1 image → uint8."""
    return np.clip(np.asarray(img) * 255 + 0.5, 0, 255).astype(np.uint8)


def _grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel (u, v) in [0, 1): u along columns, v along rows (row 0 = v 0)."""
    c = (np.arange(size) + 0.5) / size
    return np.broadcast_to(c[None, :], (size, size)), np.broadcast_to(c[:, None], (size, size))


# --------------------------------------------------------------------------- wood
def grain(rng: np.random.Generator, size: int, rings: float, figure: float, pores: float,
          boards: int = 4) -> np.ndarray:
    """Flat-sawn grain along ``u`` in [0, 1] (1 = earlywood, light): ``rings`` growth rings
    across the tile, bent by ``figure`` (cathedral arches), ``pores`` the contrast of the fine
    streaks; ``boards`` glued boards across the tile, each with its own ring phase."""
    _, v = _grid(size)
    bend = fbm2(rng, size, 2, 3, 3) * 2 - 1
    wob = noise2(rng, size, 2, 12) - 0.5
    row = np.minimum((v * boards).astype(int), boards - 1)
    phase = rng.random(boards)[row]
    r = (v * rings + figure * bend * rings * 0.08 + 0.25 * wob + phase * rings)
    f = r - np.floor(r)
    late = np.clip((f - 0.62) / 0.3, 0, 1) ** 1.5  # sharp dark latewood band
    streak = noise2(rng, size, 3, size // 2)  # pores: long thin streaks along u
    fleck = noise2(rng, size, size // 8, size // 3) > 0.93  # ray flecks (oak)
    g = 1.0 - 0.55 * late - pores * (streak - 0.5) - 0.12 * fleck * pores * 4
    board_tone = rng.uniform(0.93, 1.06, boards)[row]
    return np.clip(g * board_tone * (0.94 + 0.12 * fbm2(rng, size, 2, 4, 2)), 0, 1.1)


#: Wood species: (dark colour, light colour, rings per 0.6 m tile, figure, pore contrast).
SPECIES: dict[str, tuple[RGB, RGB, float, float, float]] = {
    "oak": ((0.48, 0.32, 0.17), (0.78, 0.6, 0.4), 70.0, 1.0, 0.22),
    "walnut": ((0.17, 0.1, 0.06), (0.45, 0.3, 0.19), 55.0, 1.6, 0.16),
    "cherry": ((0.36, 0.16, 0.09), (0.64, 0.36, 0.23), 80.0, 0.8, 0.12),
    "maple": ((0.72, 0.58, 0.4), (0.93, 0.84, 0.67), 90.0, 0.5, 0.06),
    "pine": ((0.62, 0.4, 0.18), (0.95, 0.8, 0.55), 35.0, 1.4, 0.05),
}


def _species(name: str) -> TextureFn:
    lo, hi, rings, figure, pores = SPECIES[name]

    def fn(rng: np.random.Generator, size: int) -> np.ndarray:
        return u8(ramp(grain(rng, size, rings, figure, pores), lo, hi))
    fn.__doc__ = f"{name.capitalize()} boards, grain along u (tile {WOOD_TILE_M} m)."
    return fn


def laminate_wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Printed wood-look laminate: low-contrast regular grain, light oak tone (tile 0.6 m)."""
    g = 0.6 + 0.4 * grain(rng, size, 40.0, 0.6, 0.04, boards=2)
    return u8(ramp(g, (0.55, 0.42, 0.28), (0.86, 0.74, 0.58)))


def laminate(rng: np.random.Generator, size: int) -> np.ndarray:
    """Solid-colour melamine: a faint fine speckle on white (tinted by the material)."""
    g = 0.95 + 0.03 * rng.random((size, size)) + 0.02 * noise2(rng, size, 16, 16)
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


def painted_wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Paint over wood: brush strokes along u and the grain faintly showing through (white
    base, tinted by the material)."""
    g = grain(rng, size, 40.0, 0.8, 0.02)
    brush = noise2(rng, size, 2, size // 4)
    return u8(ramp(0.9 + 0.05 * g + 0.04 * brush, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


# --------------------------------------------------------------------------- floors
def _planks(rng: np.random.Generator, size: int, lo: RGB, hi: RGB, rows: int, per_row: int) -> np.ndarray:
    """Plank floor: ``rows`` plank courses across the tile, ``per_row`` joints along each,
    staggered; each plank its own grain and tone; dark 1-2 px joints."""
    u, v = _grid(size)
    row = np.minimum((v * rows).astype(int), rows - 1)
    shift = rng.random(rows)[row]
    along = (u * per_row + shift) % per_row
    plank = row * per_row + np.floor(along).astype(int)
    n = rows * per_row
    tone = rng.uniform(0.82, 1.12, n)[plank]
    g = grain(rng, size, 14.0 * rows / 2, 1.0, 0.12, boards=rows)
    joint = ((along % 1.0) * size / per_row < 1.5) | ((v * rows) % 1.0 * size / rows < 1.2)
    img = ramp(g * tone, lo, hi)
    img[joint] *= 0.45
    return u8(img)


def parquet_oak(rng: np.random.Generator, size: int) -> np.ndarray:
    """Oak planks 0.15 m × 1.2 m, staggered (tile 1.2 m: 8 courses, one joint each)."""
    return _planks(rng, size, (0.45, 0.3, 0.16), (0.8, 0.62, 0.42), 8, 1)


def parquet_walnut(rng: np.random.Generator, size: int) -> np.ndarray:
    """Dark walnut planks 0.15 m × 1.2 m (tile 1.2 m)."""
    return _planks(rng, size, (0.2, 0.12, 0.07), (0.5, 0.34, 0.22), 8, 1)


def parquet_pale(rng: np.random.Generator, size: int) -> np.ndarray:
    """Pale ash / whitewashed planks 0.15 m × 1.2 m (tile 1.2 m)."""
    return _planks(rng, size, (0.62, 0.54, 0.44), (0.92, 0.86, 0.76), 8, 1)


def herringbone(rng: np.random.Generator, size: int) -> np.ndarray:
    """Herringbone parquet: 0.1 m × 0.4 m oak blocks, alternately along u and v (tile 0.8 m).

    Cell (a, b) of the 0.1 m grid with d = (a − b) mod 8: d < 4 is cell d of a block along u
    starting at (a − d, b); d ≥ 4 is cell d − 4 of a block along v ending at (a, b + d − 4).
    The pattern repeats every 8 cells, so the tile is seamless."""
    u, v = _grid(size)
    x, y = u * 8, v * 8
    a, b = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - a, y - b
    d = (a - b) % 8
    along_u = d < 4
    ox = np.where(along_u, a - d, a) % 8
    oy = np.where(along_u, b, b + d - 4) % 8
    tone = rng.uniform(0.8, 1.12, 64)[ox * 8 + oy]
    pos = np.where(along_u, d + fx, (d - 4) + (1 - fy))  # position along the block (0..4)
    across = np.where(along_u, fy, fx)
    fine = noise2(rng, size, 32, 32)
    g = (0.78 + 0.22 * np.sin(across * 7.0 + 2.5 * fine + pos * 0.4)) * tone
    e = 1.2 / (size / 8)
    joint = (across < e) | (across > 1 - e) | (pos < e) | (pos > 4 - e)
    img = ramp(g, (0.45, 0.3, 0.16), (0.8, 0.62, 0.42))
    img[joint] *= 0.5
    return u8(img)


def _tiles(rng: np.random.Generator, size: int, nu: int, nv: int, grout_px: float, tone: float,
           stagger: bool = False) -> np.ndarray:
    """``nu`` × ``nv`` tiles per texture tile (staggered rows: running bond) with grout lines,
    white base (tinted by the material); each tile's shade varies by ``tone``; glaze mottle."""
    u, v = _grid(size)
    row = np.floor(v * nv).astype(int)
    cu = u * nu + ((row % 2) * 0.5 if stagger else 0.0)
    col = np.floor(cu).astype(int) % nu
    shade = rng.uniform(1 - tone, 1.0, nu * nv)[row * nu + col]
    g = shade * (0.96 + 0.04 * fbm2(rng, size, 8, 8, 2))
    grout = ((v * nv) % 1.0 * size / nv < grout_px) | ((cu % 1.0) * size / nu < grout_px)
    g = np.where(grout, 0.62, g)
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


def tile(rng: np.random.Generator, size: int) -> np.ndarray:
    """Ceramic floor tiles 0.3 m square, 3 mm grout (tile 0.6 m: 2 × 2; white base, tinted)."""
    return _tiles(rng, size, 2, 2, max(1.0, size * 0.005), 0.08)


def tile_large(rng: np.random.Generator, size: int) -> np.ndarray:
    """Large-format porcelain 0.6 m × 0.6 m, cement-like mottle (tile 1.2 m: 2 × 2)."""
    base = _tiles(rng, size, 2, 2, max(1.0, size * 0.0025), 0.05) / 255.0
    mottle = 0.9 + 0.1 * fbm2(rng, size, 6, 6, 4)
    return u8(base * mottle[..., None])


def tile_mosaic(rng: np.random.Generator, size: int) -> np.ndarray:
    """Bathroom mosaic: 0.05 m squares, each its own shade (tile 0.4 m: 8 × 8)."""
    return _tiles(rng, size, 8, 8, max(1.0, size * 0.01), 0.22)


def tile_checker(rng: np.random.Generator, size: int) -> np.ndarray:
    """Black-and-white checkerboard tiles 0.3 m (tile 0.6 m: 2 × 2)."""
    u, v = _grid(size)
    chk = ((np.floor(u * 2) + np.floor(v * 2)) % 2).astype(bool)
    base = _tiles(rng, size, 2, 2, max(1.0, size * 0.005), 0.04) / 255.0
    base[chk] *= 0.16
    return u8(base)


def stone(rng: np.random.Generator, size: int) -> np.ndarray:
    """Limestone slabs 0.6 m × 0.6 m: fossil speckle and soft clouding, no veins (tile 1.2 m)."""
    cloud = fbm2(rng, size, 4, 4, 4)
    speck = (rng.random((size, size)) > 0.985) * 0.08
    base = _tiles(rng, size, 2, 2, max(1.0, size * 0.003), 0.05) / 255.0
    g = base[..., 0] * (0.88 + 0.12 * cloud) - speck
    return u8(ramp(g, (0.0, 0.0, 0.0), (0.93, 0.89, 0.8)))


def carpet(rng: np.random.Generator, size: int) -> np.ndarray:
    """Loop pile: ~3 mm loops, a soft tonal drift (tile 0.5 m; white base, tinted)."""
    u, v = _grid(size)
    loops = 0.5 + 0.25 * (np.sin(u * 2 * np.pi * 160) + np.sin(v * 2 * np.pi * 160))
    g = 0.55 * rng.random((size, size)) + 0.25 * loops + 0.2 * fbm2(rng, size, 4, 4, 3)
    return u8(ramp(g, (0.72, 0.72, 0.72), (1.0, 1.0, 1.0)))


# --------------------------------------------------------------------------- textiles, leather
def linen(rng: np.random.Generator, size: int) -> np.ndarray:
    """Plain weave with slubs (thicker threads): ~1.5 mm threads (tile 0.25 m; white base)."""
    u, v = _grid(size)
    n = size // 2
    warp = np.sin(u * 2 * np.pi * n) * 0.5 + 0.5
    weft = np.sin(v * 2 * np.pi * n) * 0.5 + 0.5
    slub = noise2(rng, size, 4, size // 2) * 0.5 + noise2(rng, size, size // 2, 4) * 0.5
    g = 0.55 + 0.18 * (warp * weft) + 0.25 * slub + 0.05 * rng.random((size, size))
    return u8(ramp(g, (0.55, 0.55, 0.55), (1.0, 1.0, 1.0)))


def velvet(rng: np.random.Generator, size: int) -> np.ndarray:
    """Velvet: pile crushed in soft patches, light catching it (tile 0.5 m; white base)."""
    g = 0.72 + 0.22 * fbm2(rng, size, 3, 5, 4) + 0.05 * rng.random((size, size))
    return u8(ramp(g, (0.5, 0.5, 0.5), (1.0, 1.0, 1.0)))


def tweed(rng: np.random.Generator, size: int) -> np.ndarray:
    """Tweed / boucle: multi-tone flecks in a twill (tile 0.25 m; white base)."""
    u, v = _grid(size)
    twill = np.sin((u + v) * 2 * np.pi * size / 6) * 0.5 + 0.5
    fleck = rng.random((size, size))
    g = 0.62 + 0.16 * twill + 0.3 * (fleck - 0.5) + 0.1 * (fleck > 0.93)
    return u8(ramp(g, (0.45, 0.45, 0.45), (1.0, 1.0, 1.0)))


def knit(rng: np.random.Generator, size: int) -> np.ndarray:
    """Chunky knit (throws, blankets): V-stitch columns ~12 mm (tile 0.3 m; white base)."""
    u, v = _grid(size)
    cols = 24
    x = (u * cols) % 1.0
    y = v * cols * 1.4 + np.abs(x - 0.5) * 1.2
    stitch = np.abs(np.sin(np.pi * y))
    edge = np.abs(x - 0.5) > 0.46
    g = 0.55 + 0.4 * stitch - 0.25 * edge + 0.05 * rng.random((size, size))
    return u8(ramp(g, (0.45, 0.45, 0.45), (1.0, 1.0, 1.0)))


def leather(rng: np.random.Generator, size: int) -> np.ndarray:
    """Pebbled grain and worn patches (tile 0.3 m; white base, tinted)."""
    pebble = noise2(rng, size, size // 3, size // 3)
    wear = fbm2(rng, size, 2, 2, 4)
    g = 0.8 + 0.1 * pebble + 0.12 * wear
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


def brushed(rng: np.random.Generator, size: int) -> np.ndarray:
    """Brushed metal: fine streaks along u (tile 0.3 m; white base, tinted)."""
    streak = noise2(rng, size, 2, size)
    g = 0.82 + 0.14 * streak + 0.04 * fbm2(rng, size, 4, 4, 2)
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


# --------------------------------------------------------------------------- baskets, grilles
def wicker(rng: np.random.Generator, size: int) -> np.ndarray:
    """Woven wicker / rattan: strands over and under upright stakes, 20 mm (tile 0.2 m;
    natural colour; a white tint keeps it, others stain it)."""
    u, v = _grid(size)
    n = 10
    row = np.floor(v * n).astype(int)
    x = (u * n / 2 + 0.5 * (row % 2)) % 1.0
    y = (v * n) % 1.0
    over = x < 0.5
    strand = np.sin(np.pi * y) ** 0.6 * np.where(over, 1.0, 0.62)
    gap = (np.abs(x - 0.5) < 0.04) | (x < 0.04)
    g = strand * (0.85 + 0.15 * noise2(rng, size, 3, n * 4)) * np.where(gap, 0.5, 1.0)
    return u8(ramp(g, (0.3, 0.2, 0.1), (0.95, 0.82, 0.58)))


def perforated(rng: np.random.Generator, size: int) -> np.ndarray:
    """Moulded plastic with rows of oblong holes (a laundry hamper; tile 0.1 m: 4 × 3 holes;
    white base, tinted; the holes dark)."""
    u, v = _grid(size)
    x = (u * 4) % 1.0
    y = (v * 3) % 1.0
    hole = (np.abs(x - 0.5) < 0.28) & (np.abs(y - 0.5) < 0.14)
    g = np.where(hole, 0.12, 0.95 + 0.03 * rng.random((size, size)))
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


def grille(rng: np.random.Generator, size: int) -> np.ndarray:
    """Speaker grille: a close grid of dark holes in a dark mesh (tile 0.04 m)."""
    u, v = _grid(size)
    x = (u * 8) % 1.0
    y = (v * 8 + 0.5 * (np.floor(u * 8) % 2)) % 1.0
    hole = (x - 0.5) ** 2 + (y - 0.5) ** 2 < 0.09
    g = np.where(hole, 0.05, 0.3 + 0.04 * rng.random((size, size)))
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


#: Metres of surface one tile covers (the visual build divides metric UVs by it).
WOOD_TILE_M = 0.6
INDOOR_TILE_M: dict[str, float] = {
    **{k: WOOD_TILE_M for k in SPECIES}, "laminate_wood": 0.6, "laminate": 0.5, "painted_wood": 0.6,
    "parquet_oak": 1.2, "parquet_walnut": 1.2, "parquet_pale": 1.2, "herringbone": 0.8,
    "tile": 0.6, "tile_large": 1.2, "tile_mosaic": 0.4, "tile_checker": 0.6, "stone": 1.2,
    "carpet": 0.5, "linen": 0.25, "velvet": 0.5, "tweed": 0.25, "knit": 0.3, "leather": 0.3,
    "brushed": 0.3, "wicker": 0.2, "perforated": 0.1, "grille": 0.04,
}

#: Generators by texture key.
MATERIAL_TEXTURES: dict[str, TextureFn] = {
    **{k: _species(k) for k in SPECIES}, "laminate_wood": laminate_wood, "laminate": laminate,
    "painted_wood": painted_wood, "parquet_oak": parquet_oak, "parquet_walnut": parquet_walnut,
    "parquet_pale": parquet_pale, "herringbone": herringbone, "tile": tile, "tile_large": tile_large,
    "tile_mosaic": tile_mosaic, "tile_checker": tile_checker, "stone": stone, "carpet": carpet,
    "linen": linen, "velvet": velvet, "tweed": tweed, "knit": knit, "leather": leather,
    "brushed": brushed, "wicker": wicker, "perforated": perforated, "grille": grille,
}
