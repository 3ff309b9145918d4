"""Playground meshes: slide, swing set, seesaw, basketball hoop.

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred, front
towards +Z: the hoop's rim faces +Z, the slide runs down towards +X).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.compose import slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cone
from navbench.visual.outdoor_furniture import _colour
from navbench.visual.shapes import extrude, rod, torus

Size = tuple[float, float, float]


def slide(size: Size, rng: np.random.Generator) -> list[Part]:
    """A playground slide: a ladder at -X, a platform and a chute sloping down towards +X."""
    w, H, d = size
    col = _colour(rng, "plastic")
    ph = 0.65 * H
    x0 = -w / 2 + 0.55
    parts: list[Part] = []
    for z in (-0.4 * d, 0.4 * d):
        parts.append(rod((-w / 2 + 0.05, 0.0, z), (x0 - 0.05, ph + 0.05, z), 0.03, "metal", segments=6))
        parts.append(box((0.06, H, 0.06), "metal", center=(x0, H / 2, z)))
        parts.append(rod((x0, H - 0.05, z), (x0 + 0.4, H - 0.05, z), 0.025, "metal", segments=6))
        parts.append(box((0.06, ph, 0.06), "metal", center=(x0 + 0.4, ph / 2, z)))
    for k in range(1, 6):
        f = k / 6
        p = (-w / 2 + 0.05 + f * (x0 - 0.1 + w / 2), f * (ph + 0.05))
        parts.append(rod((p[0], p[1], -0.4 * d), (p[0], p[1], 0.4 * d), 0.02, "metal", segments=6))
    parts.append(slab(x0, x0 + 0.45, ph, ph + 0.05, -0.45 * d, 0.45 * d, col))
    chute = [(x0 + 0.45, ph + 0.05), (w / 2 - 0.3, 0.25), (w / 2, 0.2), (w / 2, 0.14), (w / 2 - 0.3, 0.19),
             (x0 + 0.45, ph - 0.02)]
    parts.append(extrude(chute, 0.6 * d, col))
    for z in (-0.32 * d, 0.32 * d):
        rail = extrude([(x0 + 0.45, ph + 0.05), (w / 2 - 0.3, 0.25), (w / 2 - 0.3, 0.38), (x0 + 0.45, ph + 0.2)], 0.04, col)
        parts.append(Part(rail.vertices + np.array([0.0, 0.0, z]), rail.faces, rail.uv, col))
    return parts



def swing_set(size: Size, rng: np.random.Generator) -> list[Part]:
    """A swing set: two A-frames joined by a top beam, with two seats hung on chains."""
    w, H, d = size
    frame = _colour(rng)
    parts = [rod((-w / 2 + 0.05, H - 0.05, 0.0), (w / 2 - 0.05, H - 0.05, 0.0), 0.05, frame, segments=8)]
    for x in (-w / 2 + 0.05, w / 2 - 0.05):
        for s in (-1, 1):
            parts.append(rod((x, 0.0, s * (d / 2 - 0.05)), (x, H - 0.05, 0.0), 0.04, frame, segments=8))
    seat_y = 0.45
    for x in (-0.2 * w, 0.2 * w):
        for dx in (-0.2, 0.2):
            parts.append(rod((x + dx, H - 0.1, 0.0), (x + dx, seat_y, 0.0), 0.008, "metal", segments=4))
        parts.append(box((0.45, 0.04, 0.18), "rubber", center=(x, seat_y, 0.0)))
    return parts



def seesaw(size: Size, rng: np.random.Generator) -> list[Part]:
    """A seesaw: a tilted plank on a central pivot with handles and seats at both ends."""
    w, H, d = size
    col = _colour(rng)
    tilt = math.atan2(0.6 * H - 0.15, w / 2) * float(rng.choice((-1, 1)))
    ph = 0.45 * H
    parts = [extrude([(-0.3 * d, 0.0), (0.3 * d, 0.0), (0.05 * d, ph), (-0.05 * d, ph)], 0.35 * d, "metal_dark",
                     plane="zy")]
    plank = box((w * 0.96, 0.06, 0.25 * d), col)
    c, s = math.cos(tilt), math.sin(tilt)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    parts.append(Part(plank.vertices @ rot.T + np.array([0.0, ph + 0.03, 0.0]), plank.faces, plank.uv, col))
    for e in (-1, 1):
        x = e * 0.4 * w * c
        y = ph + 0.06 + e * 0.4 * w * s
        parts.append(rod((x, y, -0.4 * d), (x, y, 0.4 * d), 0.02, "metal", segments=6))
        parts.append(rod((x, y, 0.0), (x, y + 0.15, 0.0), 0.02, "metal", segments=6))
    return parts



def basketball_hoop(size: Size, rng: np.random.Generator) -> list[Part]:
    """A basketball hoop: a weighted base at -Z, a pole, a backboard and an orange rim at +Z."""
    w, H, d = size
    zb = -d / 2 + 0.3
    rim_y = min(3.05, 0.87 * H)
    base = "plastic_dark" if rng.random() < 0.5 else tinted("plastic", (0.1, 0.3, 0.7))
    return [slab(-0.45 * w, 0.45 * w, 0.0, 0.3, -d / 2, -d / 2 + 0.6, base),
            box((0.12, rim_y + 0.2, 0.12), "metal_dark", center=(0.0, (rim_y + 0.2) / 2, zb)),
            rod((0.0, rim_y + 0.15, zb), (0.0, rim_y + 0.15, d / 2 - 0.6), 0.04, "metal_dark", segments=6),
            slab(-w / 2, w / 2, rim_y - 0.15, H, d / 2 - 0.62, d / 2 - 0.58, "plastic"),
            slab(-0.15 * w, 0.15 * w, rim_y, rim_y + 0.3, d / 2 - 0.575, d / 2 - 0.57, "sign_red"),
            torus(0.225, 0.012, "plastic_orange", center=(0.0, rim_y, d / 2 - 0.3), axis="y", segments=16, sides=5),
            cone(0.2, 0.4, "fabric", segments=10, center=(0.0, rim_y - 0.2, d / 2 - 0.3))]


PLAYGROUND_BUILDERS = {"slide": slide, "swing set": swing_set, "seesaw": seesaw, "basketball hoop": basketball_hoop}
