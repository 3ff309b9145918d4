"""The sky: a seeded skybox of six cube faces (MuJoCo's layout, stacked top to bottom) showing
a blue gradient paling to a hazy horizon and cumulus clouds on a cloud deck, plus the
horizon colour that distance haze fades to (``sim.appearance`` sets MuJoCo's fog to it).

Face directions (measured on MuJoCo 4.0's renderer with this repository's Y-up world): for a
texel at column ``a`` and row ``b`` of a face (both scaled to [-1, 1], row 0 = the first row
of the face's data) the view direction is, by face: +X ``(1, a, -b)``, -X ``(-1, -a, -b)``,
+Z ``(a, -b, 1)``, -Z ``(a, b, -1)``, -Y ``(a, -1, -b)``, +Y ``(-a, 1, -b)`` (faces 0-5).
"""

from __future__ import annotations

import numpy as np

from navbench.rng import derive

#: Zenith and horizon colours (0..1 RGB); the fog / haze colour is the horizon's.
ZENITH = (0.3, 0.5, 0.84)
HORIZON = (0.8, 0.86, 0.92)
CLOUD = (0.97, 0.97, 0.96)
CLOUD_SHADE = (0.72, 0.75, 0.8)


def face_directions(size: int) -> np.ndarray:
    """(6, size, size, 3) unit view directions of every texel of the six faces (module doc)."""
    c = (np.arange(size) + 0.5) / size * 2 - 1
    a, b = np.meshgrid(c, c)  # a: column, b: row
    one = np.ones_like(a)
    faces = [(one, a, -b), (-one, -a, -b), (a, -b, one), (a, b, -one), (a, -one, -b), (-a, one, -b)]
    d = np.stack([np.stack(f, axis=-1) for f in faces])
    return d / np.linalg.norm(d, axis=-1, keepdims=True)


def _lattice_noise(rng: np.random.Generator, x: np.ndarray, z: np.ndarray, cells: int) -> np.ndarray:
    """Value noise in [0, 1] at arbitrary (x, z) (lattice of spacing 1, wrapping every ``cells``)."""
    g = rng.random((cells, cells))
    x0, z0 = np.floor(x), np.floor(z)
    fx, fz = x - x0, z - z0
    fx, fz = fx * fx * (3 - 2 * fx), fz * fz * (3 - 2 * fz)
    i0, k0 = x0.astype(np.int64) % cells, z0.astype(np.int64) % cells
    i1, k1 = (i0 + 1) % cells, (k0 + 1) % cells
    top = g[k0, i0] * (1 - fx) + g[k0, i1] * fx
    bot = g[k1, i0] * (1 - fx) + g[k1, i1] * fx
    return top * (1 - fz) + bot * fz


def sky_faces(seed: int, size: int = 128) -> np.ndarray:
    """The skybox image: (6·size, size, 3) uint8, faces in MuJoCo's order (module doc)."""
    rng = derive(seed, "sky")
    d = face_directions(size)
    up = d[..., 1]
    t = np.clip(up, 0.0, 1.0) ** 0.55
    sky = np.asarray(HORIZON) + (np.asarray(ZENITH) - np.asarray(HORIZON)) * t[..., None]
    # clouds on a deck: (x, z) where the ray meets a plane 1 unit up, ~4 lattice cells per unit
    h = np.maximum(up, 0.04)
    px, pz = d[..., 0] / h * 2.5, d[..., 2] / h * 2.5
    n = np.zeros_like(up)
    amp, tot = 1.0, 0.0
    for k in range(5):
        n += amp * _lattice_noise(rng, px * 2**k, pz * 2**k, 64 * 2**k)
        tot += amp
        amp /= 2
    n /= tot
    cover = np.clip((n - 0.52) * 4.0, 0.0, 1.0) * np.clip((up - 0.03) / 0.25, 0.0, 1.0)
    shade = np.clip((n - 0.6) * 3.0, 0.0, 1.0)  # thicker cloud: a greyer underside
    cloud = np.asarray(CLOUD) + (np.asarray(CLOUD_SHADE) - np.asarray(CLOUD)) * shade[..., None]
    img = sky * (1 - cover[..., None]) + cloud * cover[..., None]
    below = up < 0.0
    img[below] = np.asarray(HORIZON) * (0.92 + 0.08 * np.exp(up[below] * 6))[..., None]
    return np.clip(img.reshape(6 * size, size, 3) * 255 + 0.5, 0, 255).astype(np.uint8)
