"""Road-works meshes: traffic cone, traffic barrel, striped barrier, construction sign.

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred, front
towards +Z: sign faces and barrier boards face +Z).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.compose import slab
from navbench.visual.mesh import Part, box, cylinder
from navbench.visual.outdoor_street import _plate, _polygon
from navbench.visual.shapes import rod

Size = tuple[float, float, float]


def traffic_cone(size: Size, rng: np.random.Generator) -> list[Part]:
    """A traffic cone: orange cone on a square base with two white reflective bands."""
    w, H, d = size
    b = 0.04 * H
    r = 0.36 * min(w, d)
    parts = [box((w, b, d), "plastic_orange", center=(0.0, b / 2, 0.0)),
             cylinder(r, H - b, "plastic_orange", segments=16, center=(0.0, b + (H - b) / 2, 0.0), radius_top=0.08 * r)]
    bands = ((0.35, 0.45), (0.6, 0.68)) if rng.random() < 0.6 else ((0.3, 0.42), (0.52, 0.6), (0.7, 0.76))
    for f0, f1 in bands:
        r0, r1 = r * (1 - f0 * 0.92), r * (1 - f1 * 0.92)
        parts.append(cylinder(r0 + 0.004, (f1 - f0) * (H - b), "reflective_white", segments=16,
                              center=(0.0, b + (f0 + f1) / 2 * (H - b), 0.0), radius_top=r1 + 0.004, caps=False))
    return parts



def traffic_barrel(size: Size, rng: np.random.Generator) -> list[Part]:
    """A traffic barrel: an orange drum with alternating white bands on a black base ring."""
    w, H, d = size
    r = 0.46 * min(w, d)
    parts = [cylinder(r * 1.08, 0.08 * H, "plastic_black", segments=16, center=(0.0, 0.04 * H, 0.0))]
    n = int(rng.integers(4, 7))
    for k in range(n):
        y0 = 0.08 * H + k * 0.92 * H / n
        mat = "plastic_orange" if k % 2 == 0 else "reflective_white"
        parts.append(cylinder(r * (1 - 0.04 * k), 0.92 * H / n, mat, segments=16,
                              center=(0.0, y0 + 0.46 * H / n, 0.0), radius_top=r * (1 - 0.04 * (k + 1))))
    return parts



def _striped_board(x0: float, x1: float, y0: float, y1: float, z: float, t: float, stripes: int,
                   colour: str = "sign_red") -> list[Part]:
    out = []
    for k in range(stripes):
        a, b = x0 + (x1 - x0) * k / stripes, x0 + (x1 - x0) * (k + 1) / stripes
        out.append(slab(a, b, y0, y1, z - t / 2, z + t / 2, colour if k % 2 == 0 else "reflective_white"))
    return out



def barrier(size: Size, rng: np.random.Generator) -> list[Part]:
    """A road barrier: two A-frame legs carrying two red-and-white striped rails."""
    w, H, d = size
    parts: list[Part] = []
    for x in (-0.42 * w, 0.42 * w):
        for s in (-1, 1):
            parts.append(rod((x, 0.0, s * 0.45 * d), (x, 0.95 * H, 0.0), 0.025, "metal_dark", segments=6))
    colour = "sign_red" if rng.random() < 0.5 else "plastic_orange"
    rails = ((0.75 * H, H), (0.4 * H, 0.62 * H)) if rng.random() < 0.6 else ((0.8 * H, H), (0.55 * H, 0.72 * H),
                                                                          (0.3 * H, 0.47 * H))
    for y0, y1 in rails:
        parts += _striped_board(-w / 2, w / 2, y0, y1, 0.04, 0.025, 8, colour)
    return parts



def construction_sign(size: Size, rng: np.random.Generator) -> list[Part]:
    """A construction sign: an orange diamond with a black border on a folding stand."""
    w, H, d = size
    R = w / 2
    cy = H - R
    parts = [_plate(_polygon(4, R, math.pi / 2), cy, 0.0, 0.02, "plastic_black"),
             _plate(_polygon(4, 0.86 * R, math.pi / 2), cy, 0.012, 0.01, "plastic_orange"),
             box((0.1 * R, 0.6 * R, 0.005) if rng.random() < 0.5 else (0.6 * R, 0.1 * R, 0.005), "plastic_black",
                 center=(0.0, cy + 0.05 * R, 0.02))]
    for s in (-1, 1):
        parts.append(rod((s * 0.3 * w, 0.0, 0.4 * d), (s * 0.1 * w, cy, 0.0), 0.015, "metal", segments=5))
        parts.append(rod((s * 0.3 * w, 0.0, -0.45 * d), (s * 0.1 * w, cy, 0.0), 0.015, "metal", segments=5))
    return parts


ROADWORKS_BUILDERS = {
    "traffic cone": traffic_cone, "traffic barrel": traffic_barrel, "barrier": barrier,
    "construction sign": construction_sign,
}
