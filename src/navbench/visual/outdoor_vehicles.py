"""Vehicle meshes: cars (sedan, hatchback, SUV, van-like), van, truck, bus, two-wheelers, carts.

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred).
The scene build places a mesh with the box's ``yaw + π`` (mesh +Z = the box's facing
direction, box -Z), so mesh -X is box +X. A vehicle runs along the longer horizontal side of
its box: X-long boxes (the catalogue's, x = length along the heading = box +X, as the
outdoor content builds them) get the front at mesh **-X**; Z-long boxes (today's 1.9 x 1.6 x
4.6 cars driving towards box -Z at yaw 0) get the front at mesh **+Z**. Builders model the
vehicle along +X; :func:`along_longest` turns it. Wheels are tori (material ``tyre``) resting
on y = 0 with their axles across the vehicle.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from navbench.visual.compose import slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, transform
from navbench.visual.outdoor_textures import PAINTS
from navbench.visual.shapes import extrude, rod, torus

Size = tuple[float, float, float]
CAR_BODIES = ("sedan", "hatchback", "suv", "van-like")


def paint(rng: np.random.Generator, names: tuple[str, ...] = tuple(PAINTS)) -> str:
    """A ``car_paint`` tint drawn from :data:`PAINTS` (with a small per-instance shade)."""
    c = np.asarray(PAINTS[str(rng.choice(names))]) * rng.uniform(0.9, 1.05)
    return tinted("car_paint", c)


def wheel(x: float, z: float, r: float, width: float, *, hub: str = "chrome", spokes: int = 0) -> list[Part]:
    """A tyre (torus, outer radius ``r``) touching y = 0 at (x, z) plus a hub disc; axle along Z.

    With ``spokes`` the hub is a small boss with that many thin spokes to the rim (bicycles).
    """
    minor = min(0.35 * r, width / 2)
    half = 0.8 * minor  # the hub sits inside the tyre's sidewalls
    if not spokes:
        return [torus(r - minor, minor, "tyre", center=(x, r, z), axis="z", segments=16, sides=6),
                rod((x, r, z - half), (x, r, z + half), r - 1.2 * minor, hub, segments=12)]
    out = [torus(r - minor, minor, "tyre", center=(x, r, z), axis="z", segments=20, sides=5),
           rod((x, r, z - 2 * half), (x, r, z + 2 * half), 0.1 * r, hub, segments=8)]
    for k in range(spokes):
        a = 2 * math.pi * k / spokes
        rim = (x + (r - 1.5 * minor) * math.cos(a), r + (r - 1.5 * minor) * math.sin(a), z)
        out.append(rod((x, r, z), rim, 0.004, hub, segments=4))
    return out


def _wheels4(xf: float, xr: float, zs: float, r: float, tw: float) -> list[Part]:
    out: list[Part] = []
    for x in (xf, xr):
        for z in (-zs, zs):
            out += wheel(x, z, r, tw)
    return out


def car(size: Size, rng: np.random.Generator) -> list[Part]:
    """A car whose body type (sedan, hatchback, SUV, van-like) and paint are drawn from ``rng``."""
    body = str(rng.choice(CAR_BODIES))
    L, H, W = size[0] * (0.86 if body == "hatchback" else 1.0), size[1], size[2]  # hatchbacks are short
    col = paint(rng)
    r = min(0.22 * H, 0.085 * L, 0.4) * float(rng.uniform(0.95, 1.05)) * (1.12 if body == "suv" else 1.0)
    tw = min(0.2 * W, 0.25)
    belt = {"sedan": 0.55, "hatchback": 0.56, "suv": 0.6, "van-like": 0.5}[body] * H
    # cabin (bottom front, bottom rear, roof front, roof rear) as fractions of L from the centre
    cab = {"sedan": (0.22, -0.3, 0.05, -0.2), "hatchback": (0.18, -0.47, 0.0, -0.44),
           "suv": (0.22, -0.47, 0.08, -0.46), "van-like": (0.32, -0.48, 0.18, -0.47)}[body]
    y0 = (0.75 if body == "suv" else 0.45) * r
    nose = 0.8 * belt if body != "van-like" else 0.7 * belt
    prof = [(-L / 2, y0), (L / 2, y0), (L / 2, nose), (L / 2 - 0.12 * L, belt), (-L / 2 + 0.03 * L, belt),
            (-L / 2, belt - 0.08 * H)]
    parts = [extrude(prof, W * 0.94, col)]
    bf, br, rf, rr = (c * L for c in cab)
    roof_t = 0.05 * H
    parts.append(extrude([(br, belt), (bf, belt), (rf, H - roof_t), (rr, H - roof_t)], W * 0.86, "glass_dark"))
    parts.append(extrude([(rr, H - roof_t), (rf, H - roof_t), (rf - 0.01 * L, H), (rr + 0.01 * L, H)], W * 0.86, col))
    # B-pillar between the side windows (painted), door seams are implied by the pillar
    bx = (bf + br) / 2 + 0.05 * L
    parts.append(box((0.06, H - roof_t - belt, W * 0.865), col, center=(bx, (belt + H - roof_t) / 2, 0.0)))
    for z in (-0.33 * W, 0.33 * W):  # head lights and tail lights
        parts.append(box((0.03, 0.06 * H, 0.18 * W), "lamp_glow", center=(L / 2 - 0.005, nose - 0.06 * H, z)))
        parts.append(box((0.03, 0.07 * H, 0.16 * W), "signal_red", center=(-L / 2 + 0.005, belt - 0.12 * H, z)))
    parts.append(box((0.04, 0.06 * H, 0.9 * W), "plastic_dark", center=(L / 2 - 0.01, y0 + 0.05 * H, 0.0)))
    parts += _wheels4(0.33 * L, -0.32 * L, W / 2 - tw / 2, r, tw)
    return parts


def van(size: Size, rng: np.random.Generator) -> list[Part]:
    """A delivery van: tall box body, short sloped bonnet, cab windows, rear doors."""
    L, H, W = size
    col = paint(rng, ("white", "white", "silver", "blue", "yellow", "grey"))
    r = min(0.17 * H, 0.07 * L, 0.42)
    tw = min(0.18 * W, 0.26)
    y0 = 0.4 * r
    belt = 0.5 * H
    prof = [(-L / 2, y0), (L / 2, y0), (L / 2, 0.42 * H), (L / 2 - 0.1 * L, belt), (L / 2 - 0.22 * L, H),
            (-L / 2, H)]
    parts = [extrude(prof, W * 0.95, col)]
    wf = [(L / 2 - 0.11 * L, belt + 0.02 * H), (L / 2 - 0.21 * L, H - 0.05 * H), (L / 2 - 0.3 * L, H - 0.05 * H),
          (L / 2 - 0.3 * L, belt + 0.02 * H)]
    parts.append(extrude(wf, W * 0.955, "glass_dark"))
    parts.append(box((0.02, 0.5 * H, 0.012), "plastic_dark", center=(-L / 2, 0.5 * H, 0.0)))  # rear door seam
    for z in (-0.36 * W, 0.36 * W):
        parts.append(box((0.03, 0.06 * H, 0.14 * W), "lamp_glow", center=(L / 2 - 0.005, 0.36 * H, z)))
        parts.append(box((0.03, 0.12 * H, 0.08 * W), "signal_red", center=(-L / 2 + 0.005, 0.45 * H, z)))
    parts += _wheels4(0.32 * L, -0.3 * L, W / 2 - tw / 2, r, tw)
    return parts


def truck(size: Size, rng: np.random.Generator) -> list[Part]:
    """A box truck: cab in front (+X) with windscreen, cargo box behind, six wheels."""
    L, H, W = size
    cab_col = paint(rng, ("red", "white", "blue", "green", "yellow"))
    box_col = tinted("car_paint", (0.9, 0.9, 0.88) if rng.random() < 0.6 else PAINTS["silver"])
    r = min(0.16 * H, 0.07 * L, 0.5)
    tw = min(0.15 * W, 0.3)
    cab_l = min(0.27 * L, 2.2)
    y0 = 0.6 * r
    xc0 = L / 2 - cab_l
    cab_h = 0.8 * H
    prof = [(xc0, y0), (L / 2, y0), (L / 2, 0.55 * cab_h), (L / 2 - 0.15 * cab_l, cab_h), (xc0, cab_h)]
    parts = [extrude(prof, W * 0.94, cab_col)]
    parts.append(extrude([(L / 2 - 0.02 * cab_l, 0.58 * cab_h), (L / 2 - 0.14 * cab_l, 0.95 * cab_h),
                          (L / 2 - 0.6 * cab_l, 0.95 * cab_h), (L / 2 - 0.6 * cab_l, 0.58 * cab_h)],
                         W * 0.945, "glass_dark"))
    parts.append(slab(-L / 2, xc0 - 0.08, 1.9 * r, H, -W / 2, W / 2, box_col))
    parts.append(slab(-L / 2 + 0.2, xc0 + 0.1, y0, 1.9 * r, -0.3 * W, 0.3 * W, "metal_dark"))  # chassis
    for z in (-0.36 * W, 0.36 * W):
        parts.append(box((0.03, 0.05 * H, 0.12 * W), "lamp_glow", center=(L / 2 - 0.005, 0.3 * cab_h, z)))
        parts.append(box((0.03, 0.06 * H, 0.1 * W), "signal_red", center=(-L / 2 + 0.005, 2.2 * r, z)))
    zs = W / 2 - tw / 2
    for x in (L / 2 - 0.55 * cab_l, -0.22 * L, -0.36 * L):
        for z in (-zs, zs):
            parts += wheel(x, z, r, tw, hub="metal")
    return parts


def bus(size: Size, rng: np.random.Generator) -> list[Part]:
    """A city bus: long box with a window band on both sides and the windscreen, doors, 4 wheels."""
    L, H, W = size
    col = paint(rng, ("white", "yellow", "blue", "red", "green"))
    r = min(0.16 * H, 0.05 * L, 0.52)
    tw = min(0.14 * W, 0.32)
    y0 = 0.55 * r
    parts = [slab(-L / 2, L / 2, y0, H, -W / 2 * 0.97, W / 2 * 0.97, col)]
    band = (0.45 * H, 0.85 * H)
    parts.append(slab(-L / 2 + 0.25, L / 2 - 0.05, band[0], band[1], -W / 2, W / 2, "glass_dark"))
    for k in range(1, 8):  # window pillars
        x = -L / 2 + 0.25 + k * (L - 0.3) / 8
        parts.append(slab(x - 0.05, x + 0.05, band[0], band[1], -W / 2 - 0.004, W / 2 + 0.004, col))
    parts.append(slab(L / 2 - 0.02, L / 2 + 0.0, 0.3 * H, 0.9 * H, -0.45 * W, 0.45 * W, "glass_dark"))
    for x0 in (L / 2 - 1.6, -0.05 * L):  # doors on the kerb side (+Z)
        parts.append(slab(x0, x0 + 1.2, y0 + 0.05, 0.85 * H, W / 2 * 0.97, W / 2, "glass_dark"))
    parts.append(slab(L / 2 - 0.02, L / 2, 0.88 * H, 0.97 * H, -0.35 * W, 0.35 * W, "lamp_glow"))  # route sign
    zs = W / 2 - tw / 2
    for x in (0.3 * L, -0.28 * L):
        for z in (-zs, zs):
            parts += wheel(x, z, r, tw, hub="metal")
    return parts


def motorcycle(size: Size, rng: np.random.Generator) -> list[Part]:
    """A motorcycle: two spoked-less wheels, engine block, tank, seat, handlebar (length along X)."""
    L, H, W = size
    col = paint(rng, ("red", "black", "blue", "silver", "yellow"))
    r = min(0.3 * H, 0.17 * L)
    tw = min(0.3 * W, 0.16)
    xf, xr = L / 2 - r, -L / 2 + r
    parts = wheel(xf, 0.0, r, tw) + wheel(xr, 0.0, r, tw)
    parts.append(rod((xf, r, 0.0), (xf - 0.1 * L, 0.85 * H, 0.0), 0.035, "chrome"))  # fork
    parts.append(slab(-0.12 * L, 0.15 * L, 0.7 * r, 1.55 * r, -0.15 * W, 0.15 * W, "metal_dark"))  # engine
    parts.append(extrude([(-0.05 * L, 0.62 * H), (0.22 * L, 0.66 * H), (0.2 * L, 0.78 * H), (0.0, 0.76 * H)],
                         0.3 * W, col))  # tank
    parts.append(slab(-0.32 * L, -0.04 * L, 0.62 * H, 0.7 * H, -0.13 * W, 0.13 * W, "leather"))  # seat
    parts.append(rod((xr, r, 0.0), (-0.1 * L, 0.6 * H, 0.0), 0.03, "metal_dark"))  # swing arm
    parts.append(rod((xf - 0.1 * L, 0.85 * H, -0.45 * W), (xf - 0.1 * L, 0.85 * H, 0.45 * W), 0.02, "chrome"))
    parts.append(box((0.04, 0.1, 0.14), "lamp_glow", center=(xf - 0.06 * L, 0.75 * H, 0.0)))
    return parts


def scooter(size: Size, rng: np.random.Generator) -> list[Part]:
    """A kick/e-scooter: low deck on two small wheels, a steering stem and a T handlebar."""
    L, H, W = size
    col = tinted("plastic", PAINTS[str(rng.choice(("black", "green", "red", "grey", "blue")))])
    r = min(0.1 * H, 0.1 * L)
    tw = min(0.1 * W, 0.05)
    xf, xr = L / 2 - r, -L / 2 + r
    parts = wheel(xf, 0.0, r, tw) + wheel(xr, 0.0, r, tw)
    parts.append(slab(xr + 0.05, xf - 0.08, 0.8 * r, 1.3 * r, -0.3 * W, 0.3 * W, col))  # deck
    parts.append(rod((xf, r, 0.0), (xf - 0.05 * L, 0.97 * H, 0.0), 0.02, "metal"))  # stem
    parts.append(rod((xf - 0.05 * L, 0.97 * H, -0.48 * W), (xf - 0.05 * L, 0.97 * H, 0.48 * W), 0.015, "metal_dark"))
    return parts


def bicycle(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bicycle: two large thin wheels, diamond frame, saddle, handlebar (length along X)."""
    L, H, W = size
    col = paint(rng)
    r = min(0.34 * H, 0.2 * L)
    tw = 0.04
    xf, xr = L / 2 - r, -L / 2 + r
    parts = wheel(xf, 0.0, r, tw, hub="metal", spokes=12) + wheel(xr, 0.0, r, tw, hub="metal", spokes=12)
    bb = (0.0, r, 0.0)  # bottom bracket
    seat = (-0.12 * L, 0.85 * H, 0.0)
    head = (xf - 0.1 * L, 0.82 * H, 0.0)
    for a, b in ((bb, seat), (bb, head), (seat, head), (bb, (xr, r, 0.0)), (seat, (xr, r, 0.0)),
                 ((xf, r, 0.0), head)):
        parts.append(rod(a, b, 0.018, col, segments=6))
    parts.append(rod(head, (head[0] - 0.02, 0.95 * H, 0.0), 0.015, "metal_dark", segments=6))
    parts.append(rod((head[0] - 0.02, 0.95 * H, -0.45 * W), (head[0] - 0.02, 0.95 * H, 0.45 * W), 0.015, "rubber"))
    parts.append(box((0.22, 0.05, 0.1), "leather", center=(seat[0], 0.88 * H, 0.0)))
    return parts


def shopping_cart(size: Size, rng: np.random.Generator) -> list[Part]:
    """A shopping cart: wire basket (thin bars) on a chassis with four castors and a handle."""
    L, H, W = size
    mat = "chrome" if rng.random() < 0.7 else tinted("plastic", PAINTS["red"])
    r = 0.06
    parts: list[Part] = []
    for x in (-0.4 * L, 0.4 * L):
        for z in (-0.4 * W, 0.4 * W):
            parts.append(torus(0.7 * r, 0.3 * r, "tyre", center=(x, r, z), axis="z", segments=10, sides=5))
    y0, y1 = 0.45 * H, 0.9 * H
    parts.append(slab(-0.45 * L, 0.45 * L, 2 * r, 2 * r + 0.03, -0.42 * W, 0.42 * W, "metal"))
    for x in (-0.4 * L, 0.4 * L):
        for z in (-0.4 * W, 0.4 * W):
            parts.append(rod((x, 2 * r, z), (x, y0, z), 0.012, "metal", segments=6))
    parts.append(slab(-0.5 * L, 0.4 * L, y0, y0 + 0.02, -0.45 * W, 0.45 * W, mat))  # basket floor
    for k in range(6):  # side wires
        x = -0.5 * L + k * 0.9 * L / 5
        for z in (-0.45 * W, 0.45 * W):
            parts.append(rod((x, y0, z), (x, y1, z), 0.006, mat, segments=4))
    for y in (y0 + 0.5 * (y1 - y0), y1):
        for z in (-0.45 * W, 0.45 * W):
            parts.append(rod((-0.5 * L, y, z), (0.4 * L, y, z), 0.008, mat, segments=4))
        parts.append(rod((0.4 * L, y, -0.45 * W), (0.4 * L, y, 0.45 * W), 0.008, mat, segments=4))
    for z in (-0.45 * W, 0.45 * W):  # handle arms from the basket's back corners
        parts.append(rod((-0.5 * L, y1, z), (-0.5 * L, H - 0.02, z), 0.01, mat, segments=4))
    parts.append(rod((-0.5 * L, H - 0.02, -0.48 * W), (-0.5 * L, H - 0.02, 0.48 * W), 0.018, tinted("plastic", PAINTS["red"])))
    return parts


def along_longest(fn: Callable[[Size, np.random.Generator], list[Part]]) -> Callable[[Size, np.random.Generator], list[Part]]:
    """Wrap a builder that models its vehicle front at +X: front to mesh -X in X-long boxes,
    to mesh +Z in Z-long ones (see the module docstring)."""
    def build(size: Size, rng: np.random.Generator) -> list[Part]:
        if size[2] <= size[0]:
            return [transform(p, yaw=math.pi) for p in fn(size, rng)]
        return [transform(p, yaw=-math.pi / 2) for p in fn((size[2], size[1], size[0]), rng)]

    build.__doc__, build.__name__ = fn.__doc__, fn.__name__
    return build


VEHICLE_BUILDERS = {k: along_longest(f) for k, f in {
    "car": car, "van": van, "truck": truck, "bus": bus, "motorcycle": motorcycle,
    "scooter": scooter, "bicycle": bicycle, "shopping cart": shopping_cart,
}.items()}
