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
import io
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from navbench.io import ARRAY_READ_ERRORS, atomic_write_bytes
from navbench.rng import derive

#: Bump when a generator's output changes (invalidates cached images).
TEXTURE_VERSION = "4"  # 4: wood species, laminates, fabrics, floors at real scale; pictures

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
def fabric(rng: np.random.Generator, size: int) -> np.ndarray:
    """Woven fabric: fine warp/weft stripes over soft noise (white base, tinted by material)."""
    x = np.arange(size)
    weave = 0.5 + 0.25 * (np.sin(x * 2 * np.pi * 32 / size)[:, None] + np.sin(x * 2 * np.pi * 32 / size)[None, :])
    g = 0.6 * weave + 0.4 * fractal(rng, size, 8, 3)
    return _rgb(g, (0.7, 0.7, 0.7), (1.0, 1.0, 1.0))


def paint(rng: np.random.Generator, size: int) -> np.ndarray:
    """Painted plaster: faint low-frequency noise (white base, tinted by material)."""
    return _rgb(fractal(rng, size, 4, 4), (0.9, 0.9, 0.9), (1.0, 1.0, 1.0))


def _indoor() -> dict[str, TextureFn]:
    from navbench.visual.decor_textures import DECOR_TEXTURES
    from navbench.visual.indoor_textures import MATERIAL_TEXTURES

    return {"fabric": fabric, "paint": paint, **MATERIAL_TEXTURES, **DECOR_TEXTURES}


#: Indoor texture generators by texture key: plaster and a generic weave here, materials at real
#: scale in ``visual.indoor_textures``, pictures (views, rugs, art, screens, sky) in
#: ``visual.decor_textures``.
INDOOR_TEXTURES: dict[str, TextureFn] = _indoor()


def tile_metres(key: str) -> float:
    """Metres of surface one tile of texture ``key`` covers (1.0 when not listed)."""
    from navbench.visual.indoor_textures import INDOOR_TILE_M
    from navbench.visual.outdoor_textures import TILE_M

    return TILE_M.get(key) or INDOOR_TILE_M.get(key, 1.0)


def px_scale(key: str) -> int:
    """Factor on the build's ``texture_size`` for texture ``key``: 2 for fine wood grain,
    parquet and pictures (a 1 m plank course or a rug seen from 1.5 m needs ~2 px per cm)."""
    from navbench.visual.decor_textures import DECOR_TEXTURES
    from navbench.visual.indoor_textures import SPECIES

    fine = {*SPECIES, "parquet_oak", "parquet_walnut", "parquet_pale", "herringbone", *DECOR_TEXTURES}
    return 2 if key in fine else 1


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
        buf = io.BytesIO()
        np.save(buf, img, allow_pickle=False)
        atomic_write_bytes(path, buf.getvalue())
    return img
