"""Procedural textures (numpy, seeded) and their on-disk cache.

A texture generator is ``fn(rng, size) -> (size, size, 3) uint8`` image that tiles seamlessly
(periodic noise), one tile covering one metre of surface by default (see ``mesh.box``'s UVs).
Indoor generators live in :data:`INDOOR_TEXTURES`; outdoor ones in
``visual/outdoor_textures.py`` (``OUTDOOR_TEXTURES``, same signature). :func:`texture` returns
the image for ``(key, seed, size)`` from the cache, or generates and stores it.

Cache: ``$NAVBENCH_CACHE/visual`` (else ``$XDG_CACHE_HOME/navbench/visual``, else
``~/.cache/navbench/visual``), one ``.npy`` per content hash (key, seed, size, generator
version); files are written to a temporary name and renamed, so concurrent processes are safe.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from navbench.io import ARRAY_READ_ERRORS
from navbench.rng import derive

#: Bump when a generator's output changes (invalidates cached images).
TEXTURE_VERSION = "3"  # 3: red brick redder; brown brick and painted render facades

TextureFn = Callable[[np.random.Generator, int], np.ndarray]


def cache_dir(cache: str | Path | None = None) -> Path:
    """The texture cache folder: ``cache`` if given, else from the environment (see module doc)."""
    if cache is not None:
        return Path(cache)
    if os.environ.get("NAVBENCH_CACHE"):
        return Path(os.environ["NAVBENCH_CACHE"]) / "visual"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "navbench" / "visual"


# --------------------------------------------------------------------------- noise helpers
def periodic_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Tileable value noise in [0, 1]: a random ``cells``² grid, bilinear, wrapping."""
    g = rng.random((cells, cells))
    t = np.arange(size) * cells / size
    i0 = np.floor(t).astype(int)
    f = t - i0
    f = f * f * (3 - 2 * f)  # smoothstep
    i1 = (i0 + 1) % cells
    rows = g[i0] * (1 - f)[:, None] + g[i1] * f[:, None]
    return rows[:, i0] * (1 - f)[None, :] + rows[:, i1] * f[None, :]


def fractal(rng: np.random.Generator, size: int, base: int = 4, octaves: int = 4) -> np.ndarray:
    """Sum of ``octaves`` periodic noises (cells ``base·2^k``, amplitude ``2^-k``), in [0, 1]."""
    out = np.zeros((size, size))
    amp, tot = 1.0, 0.0
    for k in range(octaves):
        out += amp * periodic_noise(rng, size, min(base * 2**k, size))
        tot += amp
        amp /= 2
    return out / tot


def _rgb(gray: np.ndarray, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> np.ndarray:
    g = np.clip(gray, 0, 1)[..., None]
    img = np.asarray(lo) + g * (np.asarray(hi) - np.asarray(lo))
    return np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- indoor generators
def wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Wood grain along the image rows (u): stretched noise bands plus rings."""
    n = fractal(rng, size, 4, 4)
    v = np.arange(size)[:, None] / size
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (v * 10 + 2.5 * n))
    return _rgb(0.55 * rings + 0.45 * n, (0.45, 0.28, 0.14), (0.78, 0.58, 0.36))


def parquet(rng: np.random.Generator, size: int) -> np.ndarray:
    """Planks 1/8 tile wide with staggered joints and per-plank tone."""
    grain = fractal(rng, size, 8, 3)
    rows = np.arange(size) * 8 // size
    tone = rng.uniform(0.75, 1.1, 8)[rows][:, None]
    offs = rng.integers(0, size, 8)[rows][:, None]
    col = (np.arange(size)[None, :] + offs) % size
    joint = (col < 2) | (np.arange(size)[:, None] % (size // 8) < 1)
    g = (0.4 + 0.6 * grain) * tone
    g = np.where(joint, 0.15, g)
    return _rgb(g, (0.3, 0.18, 0.08), (0.8, 0.6, 0.38))


def tile(rng: np.random.Generator, size: int) -> np.ndarray:
    """Square ceramic tiles (4 per tile side) with grout lines and slight tone variation."""
    k = 4
    cell = np.arange(size) * k // size
    tone = rng.uniform(0.9, 1.0, (k, k))[cell][:, cell]
    m = np.arange(size) % (size // k)
    grout = (m[:, None] < 2) | (m[None, :] < 2)
    g = tone * (0.92 + 0.08 * fractal(rng, size, 8, 2))
    return _rgb(np.where(grout, 0.55, g), (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


def carpet(rng: np.random.Generator, size: int) -> np.ndarray:
    """Fine fibre noise."""
    g = 0.7 * rng.random((size, size)) + 0.3 * fractal(rng, size, 16, 2)
    return _rgb(g, (0.75, 0.75, 0.75), (1.0, 1.0, 1.0))


def stone(rng: np.random.Generator, size: int) -> np.ndarray:
    """Large stone slabs (2 per side) with veined noise."""
    n = fractal(rng, size, 4, 5)
    veins = np.abs(np.sin(2 * np.pi * (3 * n)))
    m = np.arange(size) % (size // 2)
    joint = (m[:, None] < 2) | (m[None, :] < 2)
    g = np.where(joint, 0.3, 0.7 + 0.3 * veins)
    return _rgb(g, (0.5, 0.5, 0.48), (0.95, 0.94, 0.9))


def fabric(rng: np.random.Generator, size: int) -> np.ndarray:
    """Woven fabric: fine warp/weft stripes over soft noise (white base, tinted by material)."""
    x = np.arange(size)
    weave = 0.5 + 0.25 * (np.sin(x * 2 * np.pi * 32 / size)[:, None] + np.sin(x * 2 * np.pi * 32 / size)[None, :])
    g = 0.6 * weave + 0.4 * fractal(rng, size, 8, 3)
    return _rgb(g, (0.7, 0.7, 0.7), (1.0, 1.0, 1.0))


def leather(rng: np.random.Generator, size: int) -> np.ndarray:
    """Fine pebbled grain (white base, tinted by material)."""
    g = fractal(rng, size, 32, 2)
    return _rgb(g, (0.75, 0.75, 0.75), (1.0, 1.0, 1.0))


def paint(rng: np.random.Generator, size: int) -> np.ndarray:
    """Painted plaster: faint low-frequency noise (white base, tinted by material)."""
    return _rgb(fractal(rng, size, 4, 4), (0.9, 0.9, 0.9), (1.0, 1.0, 1.0))


def brushed(rng: np.random.Generator, size: int) -> np.ndarray:
    """Brushed metal: streaks along the rows."""
    streak = rng.random(size)[:, None] * np.ones((1, size))
    g = 0.7 * streak + 0.3 * fractal(rng, size, 8, 2)
    return _rgb(g, (0.8, 0.8, 0.8), (1.0, 1.0, 1.0))


#: Indoor texture generators by texture key.
INDOOR_TEXTURES: dict[str, TextureFn] = {
    "wood": wood, "parquet": parquet, "tile": tile, "carpet": carpet, "stone": stone,
    "fabric": fabric, "leather": leather, "paint": paint, "brushed": brushed,
}


def all_generators() -> dict[str, TextureFn]:
    """Indoor and outdoor generators by key."""
    from navbench.visual.outdoor_textures import OUTDOOR_TEXTURES

    return {**INDOOR_TEXTURES, **OUTDOOR_TEXTURES}


def texture_hash(key: str, seed: int, size: int) -> str:
    """Content hash of a texture's inputs (its cache file name)."""
    h = hashlib.blake2b(f"{key}|{seed}|{size}|{TEXTURE_VERSION}".encode(), digest_size=10)
    return h.hexdigest()


def texture(key: str, seed: int, size: int = 256, *, cache: str | Path | None = None,
            generators: dict[str, TextureFn] | None = None, use_cache: bool = True) -> np.ndarray:
    """The (size, size, 3) uint8 image of texture ``key`` for ``seed`` (cached on disk).

    Raises:
        KeyError: no generator for ``key``.
    """
    gens = generators if generators is not None else all_generators()
    fn = gens[key]
    path = cache_dir(cache) / f"{key.replace(' ', '_')}-{texture_hash(key, seed, size)}.npy"
    if use_cache and path.exists():
        try:
            img = np.load(path, allow_pickle=False)
            if img.shape == (size, size, 3) and img.dtype == np.uint8:
                return img
        except ARRAY_READ_ERRORS:
            pass  # a corrupt file is regenerated below
    img = np.ascontiguousarray(fn(derive(seed, "texture", key), size), dtype=np.uint8)
    if img.shape != (size, size, 3):
        raise ValueError(f"texture {key!r}: generator returned {img.shape}, expected {(size, size, 3)}")
    if use_cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.save(f, img, allow_pickle=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return img
