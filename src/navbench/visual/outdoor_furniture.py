"""Outdoor furniture, kiosks, vending, market and utility meshes (playgrounds: ``outdoor_playground``).

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred, front
towards +Z: a bench's seat faces +Z with its back at -Z; screens and openings face +Z).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.compose import legs, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder, sphere
from navbench.visual.shapes import extrude, rod, torus

Size = tuple[float, float, float]
_BRIGHT = ((0.8, 0.15, 0.1), (0.1, 0.35, 0.75), (0.1, 0.55, 0.25), (0.95, 0.7, 0.1), (0.9, 0.9, 0.88))


def _colour(rng: np.random.Generator, base: str = "painted_metal") -> str:
    return tinted(base, _BRIGHT[int(rng.integers(len(_BRIGHT)))])


def bench(size: Size, rng: np.random.Generator) -> list[Part]:
    """A park bench: slatted wooden seat and back on two metal side frames (gap under the seat)."""
    w, H, d = size
    frame = "metal_dark" if rng.random() < 0.7 else tinted("painted_metal", (0.1, 0.3, 0.18))
    seat_y = 0.5 * H
    wood = tinted("planks", np.array((1.0, 0.9, 0.8)) * rng.uniform(0.8, 1.1))
    parts: list[Part] = []
    for x in (-0.42 * w, 0.42 * w):
        parts.append(slab(x - 0.03, x + 0.03, 0.0, seat_y - 0.03, 0.3 * d, 0.4 * d, frame))  # front leg
        parts.append(slab(x - 0.03, x + 0.03, 0.0, H, -0.5 * d, -0.4 * d, frame))  # back leg and back post
        parts.append(slab(x - 0.03, x + 0.03, seat_y - 0.06, seat_y - 0.03, -0.45 * d, 0.45 * d, frame))
    for k in range(4):  # seat slats
        z = -0.4 * d + (k + 0.5) * 0.85 * d / 4
        parts.append(slab(-w / 2, w / 2, seat_y - 0.03, seat_y, z - 0.08 * d, z + 0.08 * d, wood))
    for k in range(3):  # back slats
        y = seat_y + 0.12 * H + k * 0.12 * H
        parts.append(slab(-w / 2, w / 2, y, y + 0.08 * H, -0.4 * d, -0.36 * d, wood))
    return parts


def picnic_table(size: Size, rng: np.random.Generator) -> list[Part]:
    """A picnic table: plank top, two attached bench planks and A-frame legs."""
    w, H, d = size
    wood = tinted("planks", np.array((1.0, 0.9, 0.8)) * rng.uniform(0.8, 1.1))
    tw = 0.45 * d
    parts = [slab(-w / 2, w / 2, H - 0.05, H, -tw / 2, tw / 2, wood)]
    seat_h = 0.55 * H
    for z0, z1 in ((-0.5 * d, -0.28 * d), (0.28 * d, 0.5 * d)):  # the two bench planks
        parts.append(slab(-w / 2, w / 2, seat_h - 0.05, seat_h, z0, z1, wood))
    for x in (-0.38 * w, 0.38 * w):
        for s in (-1, 1):
            parts.append(rod((x, 0.0, s * 0.4 * d), (x, H - 0.05, s * 0.05 * d), 0.035, wood, segments=6))
        parts.append(slab(x - 0.04, x + 0.04, seat_h - 0.12, seat_h - 0.05, -0.5 * d, 0.5 * d, wood))
    return parts


def table(size: Size, rng: np.random.Generator) -> list[Part]:
    """An outdoor café table: round or square top on a pedestal or four metal legs."""
    w, H, d = size
    top = "metal" if rng.random() < 0.5 else tinted("planks", (1.0, 0.95, 0.9))
    if rng.random() < 0.5:
        r = 0.5 * min(w, d)
        return [cylinder(r, 0.03, top, segments=20, center=(0.0, H - 0.015, 0.0)),
                cylinder(0.035, H - 0.03, "metal_dark", segments=8, center=(0.0, (H - 0.03) / 2, 0.0)),
                cylinder(0.3 * r, 0.03, "metal_dark", segments=12, center=(0.0, 0.015, 0.0))]
    return [slab(-w / 2, w / 2, H - 0.03, H, -d / 2, d / 2, top), *legs(w, d, H - 0.03, 0.035, "metal_dark", inset=0.03)]


def chair(size: Size, rng: np.random.Generator) -> list[Part]:
    """A café chair: seat, backrest (at -Z) and four legs, metal or plastic."""
    w, H, d = size
    mat = "metal" if rng.random() < 0.4 else _colour(rng, "plastic")
    sy = 0.5 * H
    return ([slab(-w / 2, w / 2, sy - 0.03, sy, -d / 2, d / 2, mat),
             slab(-w / 2, w / 2, sy + 0.12 * H, H, -d / 2, -d / 2 + 0.03, mat)]
            + legs(w, d, sy - 0.03, 0.03, mat, round_=True)
            + [rod((x, sy, -d / 2 + 0.015), (x, sy + 0.13 * H, -d / 2 + 0.015), 0.015, mat) for x in (-0.4 * w, 0.4 * w)])


def umbrella(size: Size, rng: np.random.Generator) -> list[Part]:
    """A patio umbrella: a weighted base, a pole and a wide octagonal canopy (beyond the box)."""
    w, H, d = size
    R = 3.8 * min(w, d)  # ~1.1 m for the 0.3 m box: within the 8x allowance
    cols = ((0.8, 0.15, 0.1), (0.95, 0.92, 0.85), (0.1, 0.35, 0.6), (0.15, 0.5, 0.25))
    canvas = tinted("canvas", cols[int(rng.integers(len(cols)))])
    ch = 0.16 * H
    parts = [cylinder(0.45 * min(w, d), 0.08, "concrete", segments=12, center=(0.0, 0.04, 0.0)),
             cylinder(0.02, H - 0.02, "metal", segments=6, center=(0.0, (H - 0.02) / 2, 0.0)),
             cylinder(R, ch, canvas, segments=8, center=(0.0, H - 0.02 - ch / 2, 0.0), radius_top=0.04),
             cylinder(R * 1.0, 0.06, canvas, segments=8, center=(0.0, H - 0.02 - ch - 0.03, 0.0), caps=False),
             sphere(0.03, "metal", rings=4, segments=6, center=(0.0, H - 0.03, 0.0))]
    return parts


def patio_heater(size: Size, rng: np.random.Generator) -> list[Part]:
    """A mushroom patio heater: round base, gas column, glowing emitter and a wide reflector hood."""
    w, H, d = size
    R = 0.5 * min(w, d)
    body = "metal" if rng.random() < 0.5 else "metal_dark"
    return [cylinder(0.9 * R, 0.08 * H, body, segments=14, center=(0.0, 0.04 * H, 0.0), radius_top=0.7 * R),
            cylinder(0.09 * R * 2, 0.62 * H, body, segments=10, center=(0.0, 0.08 * H + 0.31 * H, 0.0)),
            cylinder(0.12, 0.18 * H, "lamp_glow", segments=10, center=(0.0, 0.79 * H, 0.0)),
            cylinder(R, 0.08 * H, body, segments=16, center=(0.0, 0.92 * H, 0.0), radius_top=0.12 * R),
            cylinder(0.05, 0.04 * H, "metal", segments=8, center=(0.0, 0.98 * H, 0.0))]


def bus_shelter(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bus shelter: glass back and side walls, a roof, posts, a bench and an advert panel."""
    w, H, d = size
    frame = "metal_dark" if rng.random() < 0.6 else "metal"
    t = 0.06
    parts = [slab(-w / 2, w / 2, H - 0.12, H, -d / 2, d / 2, frame),
             slab(-w / 2 + t, w / 2 - t, 0.1, H - 0.15, -d / 2 + 0.02, -d / 2 + 0.04, "glass"),
             slab(-w / 2 + 0.01, -w / 2 + 0.03, 0.1, H - 0.15, -d / 2 + t, 0.2 * d, "glass"),
             slab(w / 2 - 0.03, w / 2 - 0.01, 0.1, H - 0.15, -d / 2 + t, 0.2 * d, "glass")]
    for x in (-w / 2 + t / 2, w / 2 - t / 2):
        for z in (-d / 2 + t / 2, 0.2 * d):
            parts.append(box((t, H - 0.12, t), frame, center=(x, (H - 0.12) / 2, z)))
    parts.append(slab(-0.35 * w, 0.2 * w, 0.42, 0.47, -d / 2 + 0.06, -d / 2 + 0.4, "metal"))  # bench
    parts.append(slab(0.28 * w, 0.46 * w, 0.3, 2.0, -d / 2 + 0.045, -d / 2 + 0.1, "lamp_glow"))  # advert
    parts.append(slab(-0.45 * w, -0.1 * w, H - 0.3, H - 0.12, 0.45 * d, d / 2, tinted("sign_plate", (0.05, 0.3, 0.6))))
    return parts


def phone_booth(size: Size, rng: np.random.Generator) -> list[Part]:
    """A phone booth: red British-style (glazed, domed roof) or a steel-and-glass booth."""
    w, H, d = size
    red = rng.random() < 0.5
    col = tinted("painted_metal", (0.75, 0.05, 0.05)) if red else "metal"
    t = 0.08
    parts = [slab(-w / 2, w / 2, 0.0, 0.08, -d / 2, d / 2, col)]
    for x in (-w / 2 + t / 2, w / 2 - t / 2):
        for z in (-d / 2 + t / 2, d / 2 - t / 2):
            parts.append(box((t, 0.88 * H, t), col, center=(x, 0.44 * H, z)))
    panes = [((-w / 2 + t, w / 2 - t), (d / 2 - 0.03, d / 2 - 0.01)), ((-w / 2 + t, w / 2 - t), (-d / 2 + 0.01, -d / 2 + 0.03)),
             ((-w / 2 + 0.01, -w / 2 + 0.03), (-d / 2 + t, d / 2 - t)), ((w / 2 - 0.03, w / 2 - 0.01), (-d / 2 + t, d / 2 - t))]
    for (x0, x1), (z0, z1) in panes:
        parts.append(slab(x0, x1, 0.1, 0.78 * H, z0, z1, "glass"))
    parts.append(slab(-w / 2, w / 2, 0.78 * H, 0.88 * H, -d / 2, d / 2, col))
    parts.append(slab(-w / 2 + t, w / 2 - t, 0.8 * H, 0.86 * H, d / 2 - 0.005, d / 2 + 0.0, "lamp_glow"))
    if red:
        parts.append(extrude([(-w / 2, 0.88 * H), (w / 2, 0.88 * H), (0.3 * w, H), (-0.3 * w, H)], d, col))
    else:
        parts.append(slab(-w / 2, w / 2, 0.88 * H, H, -d / 2, d / 2, col))
    parts.append(box((0.25 * w, 0.3, 0.12), "metal_dark", center=(0.0, 0.55 * H, -d / 2 + 0.1)))  # the phone
    return parts


def information_kiosk(size: Size, rng: np.random.Generator) -> list[Part]:
    """An information kiosk: a slim pylon with a city map panel and an 'i' roundel on top."""
    w, H, d = size
    col = _colour(rng)
    parts = [slab(-w / 2, w / 2, 0.0, H * 0.88, -d / 2, d / 2, col),
             slab(-0.42 * w, 0.42 * w, 0.25 * H, 0.82 * H, d / 2, d / 2 + 0.0, "paper"),
             slab(-0.4 * w, 0.4 * w, 0.27 * H, 0.8 * H, -d / 2 - 0.0, -d / 2, "lamp_glow"),
             slab(-w / 2, w / 2, 0.88 * H, 0.9 * H, -d / 2, d / 2, "metal_dark")]
    disc = cylinder(0.09 * H * 0.55, 0.04, tinted("sign_plate", (0.05, 0.3, 0.65)), segments=16)
    v = disc.vertices[:, [0, 2, 1]] + np.array([0.0, 0.95 * H, 0.0])
    parts.append(Part(v, disc.faces[:, ::-1].copy(), disc.uv, disc.material))
    parts.append(box((0.02, 0.05 * H, 0.045), "reflective_white", center=(0.0, 0.945 * H, 0.0)))
    return parts


def vending_machine(size: Size, rng: np.random.Generator) -> list[Part]:
    """A vending machine: a coloured cabinet with a lit glass front of product rows and a keypad."""
    w, H, d = size
    col = _colour(rng)
    parts = [slab(-w / 2, w / 2, 0.0, H, -d / 2, d / 2 - 0.02, col),
             slab(-0.45 * w, 0.2 * w, 0.3 * H, 0.95 * H, d / 2 - 0.02, d / 2, "glass"),
             box((0.12 * w, 0.2 * H, 0.02), "screen", center=(0.33 * w, 0.65 * H, d / 2 - 0.01)),
             box((0.6 * w, 0.1 * H, 0.02), "plastic_dark", center=(-0.12 * w, 0.15 * H, d / 2 - 0.01))]
    prod = ("plastic_red", "plastic_yellow", "plastic_orange", "plastic")
    for row in range(5):
        y = 0.35 * H + row * 0.11 * H
        parts.append(slab(-0.44 * w, 0.19 * w, y, y + 0.01, -0.2 * d, d / 2 - 0.025, "metal"))
        for k in range(5):
            x = -0.4 * w + k * 0.12 * w
            parts.append(cylinder(0.025, 0.08 * H, prod[(row + k) % 4], segments=6, center=(x, y + 0.045 * H, 0.3 * d)))
    return parts


def atm(size: Size, rng: np.random.Generator) -> list[Part]:
    """A free-standing ATM: a cabinet with a sloped fascia carrying a screen, keypad and card slot."""
    w, H, d = size
    col = "metal" if rng.random() < 0.5 else tinted("painted_metal", (0.1, 0.25, 0.55))
    fy = 0.55 * H
    prof = [(-d / 2, 0.0), (d / 2, 0.0), (d / 2, fy), (0.1 * d, 0.8 * H), (-d / 2, H)]
    parts = [extrude(prof, w, col, plane="zy")]
    tilt = math.atan2(d / 2 - 0.1 * d, 0.8 * H - fy)
    cy, cz = fy + 0.6 * (0.8 * H - fy), d / 2 - 0.6 * (d / 2 - 0.1 * d)
    scr = box((0.55 * w, 0.02, 0.4 * d), "screen")
    c, s = math.cos(tilt), math.sin(tilt)
    rot = np.array([[1, 0, 0], [0, c, s], [0, -s, c]])
    parts.append(Part(scr.vertices @ rot.T + np.array([0.0, cy, cz]), scr.faces, scr.uv, "screen"))
    parts.append(box((0.35 * w, 0.08, 0.18 * d), "metal_dark", center=(0.0, fy - 0.02, d / 2 - 0.09 * d)))
    parts.append(box((0.9 * w, 0.12 * H, 0.01), "lamp_glow", center=(0.0, 0.92 * H, -d / 2 + 0.3 * d)))
    return parts


def drinking_fountain(size: Size, rng: np.random.Generator) -> list[Part]:
    """A drinking fountain: a pedestal with a basin and a spout on top."""
    w, H, d = size
    col = "metal" if rng.random() < 0.5 else "concrete"
    r = 0.45 * min(w, d)
    return [cylinder(0.5 * r, 0.85 * H, col, segments=12, center=(0.0, 0.425 * H, 0.0)),
            cylinder(r, 0.12 * H, col, segments=16, center=(0.0, 0.91 * H, 0.0), radius_top=r * 1.05),
            cylinder(0.8 * r, 0.01, "water", segments=16, center=(0.0, 0.975 * H, 0.0)),
            rod((0.0, 0.97 * H, -0.6 * r), (0.0, H - 0.01, -0.3 * r), 0.015, "chrome", segments=6)]


def bike_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bike rack: a row of inverted-U steel hoops on a ground rail."""
    w, H, d = size
    n = max(2, int(w / 0.7))
    mat = "metal" if rng.random() < 0.6 else "metal_dark"
    parts = [slab(-w / 2, w / 2, 0.0, 0.03, -0.05, 0.05, mat)]
    r = min(0.45 * d, 0.25)
    for k in range(n):
        x = -w / 2 + (k + 0.5) * w / n
        for z in (-r, r):
            parts.append(rod((x, 0.0, z), (x, H - r, z), 0.025, mat, segments=6))
        seg = 6
        for j in range(seg):
            a0, a1 = math.pi * j / seg, math.pi * (j + 1) / seg
            parts.append(rod((x, H - r + r * math.sin(a0) * 0.96, r * math.cos(a0)),
                             (x, H - r + r * math.sin(a1) * 0.96, r * math.cos(a1)), 0.025, mat, segments=6))
    return parts


def portable_toilet(size: Size, rng: np.random.Generator) -> list[Part]:
    """A portable toilet: a tall plastic cabin with a door (+Z), a vent pipe and a light roof."""
    w, H, d = size
    col = tinted("plastic", ((0.1, 0.35, 0.75), (0.1, 0.5, 0.25), (0.9, 0.5, 0.1))[int(rng.integers(3))])
    return [slab(-w / 2, w / 2, 0.0, 0.92 * H, -d / 2, d / 2, col),
            slab(-0.4 * w, 0.4 * w, 0.05, 0.88 * H, d / 2, d / 2 + 0.0, col),
            box((0.05, 0.15, 0.04), "metal", center=(0.3 * w, 0.45 * H, d / 2)),
            box((0.15 * w, 0.05, 0.01), "signal_red", center=(0.0, 0.7 * H, d / 2 + 0.0)),
            extrude([(-w / 2, 0.92 * H), (w / 2, 0.92 * H), (0.0, H)], d, "plastic"),
            cylinder(0.04, 0.12 * H, "plastic_dark", segments=8, center=(-0.35 * w, 0.9 * H, -0.35 * d))]


def market_stall(size: Size, rng: np.random.Generator) -> list[Part]:
    """A market stall: a counter with produce, four posts and a striped canvas roof."""
    w, H, d = size
    cols = ((0.85, 0.15, 0.1), (0.1, 0.4, 0.75), (0.1, 0.55, 0.25))
    c = cols[int(rng.integers(3))]
    parts = [slab(-w / 2 + 0.05, w / 2 - 0.05, 0.0, 0.9, -d / 2 + 0.3, d / 2 - 0.2, "planks")]
    for x in (-w / 2 + 0.04, w / 2 - 0.04):
        for z in (-d / 2 + 0.04, d / 2 - 0.04):
            parts.append(box((0.06, 0.82 * H, 0.06), "planks", center=(x, 0.41 * H, z)))
    n = 6
    for k in range(n):  # striped roof sloping down to the front
        x0, x1 = -w / 2 + k * w / n, -w / 2 + (k + 1) * w / n
        mat = tinted("canvas", c) if k % 2 == 0 else "canvas"
        prof = [(-d / 2, H - 0.02), (d / 2, 0.82 * H), (d / 2, 0.82 * H - 0.03), (-d / 2, H - 0.05)]
        p = extrude(prof, x1 - x0, mat, plane="zy")
        parts.append(Part(p.vertices + np.array([(x0 + x1) / 2, 0.0, 0.0]), p.faces, p.uv, mat))
    fruit = ("plastic_red", "plastic_orange", "plastic_yellow", "plastic_green")
    for k in range(8):
        x = -0.4 * w + k * 0.8 * w / 7
        parts.append(sphere(0.08, fruit[k % 4], rings=4, segments=8, center=(x, 0.97, 0.1 * d)))
    return parts


def food_cart(size: Size, rng: np.random.Generator) -> list[Part]:
    """A food cart: a metal box on two wheels with a serving hatch, an umbrella canopy and a handle."""
    w, H, d = size
    col = _colour(rng)
    r = 0.16 * H
    body = (r * 0.9, 0.5 * H)
    parts = [slab(-w / 2 + 0.15, w / 2 - 0.2, body[0], body[1], -d / 2 + 0.05, d / 2 - 0.05, col),
             slab(-0.3 * w, 0.25 * w, 0.3 * H, 0.45 * H, d / 2 - 0.05, d / 2 - 0.03, "metal"),
             rod((w / 2 - 0.2, 0.45 * H, -0.3 * d), (w / 2, 0.48 * H, -0.3 * d), 0.02, "metal"),
             rod((w / 2 - 0.2, 0.45 * H, 0.3 * d), (w / 2, 0.48 * H, 0.3 * d), 0.02, "metal"),
             rod((0.0, body[1], 0.0), (0.0, 0.88 * H, 0.0), 0.025, "metal"),
             cylinder(0.5 * min(w, d), 0.12 * H, tinted("canvas", (0.95, 0.75, 0.1)), segments=10,
                      center=(0.0, 0.94 * H, 0.0), radius_top=0.03)]
    for z in (-d / 2 + 0.05, d / 2 - 0.05):
        parts.append(torus(r * 0.75, r * 0.25, "tyre", center=(-0.1 * w, r, z), axis="z", segments=12, sides=6))
    parts.append(box((0.06, body[0], 0.06), "metal", center=(-w / 2 + 0.2, body[0] / 2, 0.0)))
    return parts


def crate(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wooden crate: slatted sides with corner posts (or a plastic crate with hand holes)."""
    w, H, d = size
    mat = tinted("planks", (1.0, 0.9, 0.75)) if rng.random() < 0.6 else _colour(rng, "plastic")
    t = 0.02
    parts = [slab(-w / 2, w / 2, 0.0, t, -d / 2, d / 2, mat)]
    for k in range(3):  # slats
        y0 = 0.05 * H + k * 0.32 * H
        y1 = y0 + 0.24 * H
        parts += [slab(-w / 2, w / 2, y0, y1, d / 2 - t, d / 2, mat), slab(-w / 2, w / 2, y0, y1, -d / 2, -d / 2 + t, mat),
                  slab(-w / 2, -w / 2 + t, y0, y1, -d / 2, d / 2, mat), slab(w / 2 - t, w / 2, y0, y1, -d / 2, d / 2, mat)]
    for sx in (-1, 1):
        for sz in (-1, 1):
            parts.append(box((0.04, H, 0.04), mat, center=(sx * (w / 2 - 0.02), H / 2, sz * (d / 2 - 0.02))))
    return parts


def pallet(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wooden pallet: top deck boards on three stringers of blocks, bottom boards (forklift gaps)."""
    w, H, d = size
    wood = tinted("planks", np.array((0.95, 0.85, 0.65)) * rng.uniform(0.85, 1.05))
    t = 0.22 * H
    parts = []
    for k in range(7):
        z = -d / 2 + (k + 0.5) * d / 7
        parts.append(slab(-w / 2, w / 2, H - t, H, z - 0.045, z + 0.045, wood))
    for x in (-w / 2 + 0.05, 0.0, w / 2 - 0.05):
        parts.append(slab(x - 0.05, x + 0.05, 0.0, t, -d / 2, d / 2, wood))
        for z in (-d / 2 + 0.05, 0.0, d / 2 - 0.05):
            parts.append(slab(x - 0.05, x + 0.05, t, H - t, z - 0.05, z + 0.05, wood))
    return parts


def generator(size: Size, rng: np.random.Generator) -> list[Part]:
    """A portable generator: an engine block in a tubular frame with a fuel tank and two wheels."""
    w, H, d = size
    col = tinted("painted_metal", ((0.9, 0.7, 0.1), (0.8, 0.15, 0.1), (0.15, 0.4, 0.2))[int(rng.integers(3))])
    r = 0.14 * H
    parts = [slab(-0.4 * w, 0.35 * w, 0.2 * H, 0.7 * H, -0.4 * d, 0.4 * d, col),
             slab(-0.25 * w, 0.2 * w, 0.7 * H, 0.9 * H, -0.3 * d, 0.3 * d, "metal_dark"),
             box((0.2 * w, 0.3 * H, 0.02), "metal_dark", center=(0.1 * w, 0.45 * H, 0.41 * d))]
    for z in (-0.45 * d, 0.45 * d):
        parts.append(rod((-0.45 * w, 0.15 * H, z), (-0.45 * w, H - 0.03, z), 0.02, "metal_dark", segments=6))
        parts.append(rod((0.4 * w, 0.0, z), (0.4 * w, H - 0.03, z), 0.02, "metal_dark", segments=6))
        parts.append(rod((-0.45 * w, H - 0.03, z), (0.4 * w, H - 0.03, z), 0.02, "metal_dark", segments=6))
        parts.append(torus(r * 0.65, r * 0.35, "tyre", center=(-0.4 * w, r, z), axis="z", segments=12, sides=6))
    parts.append(rod((-0.45 * w, H - 0.03, -0.45 * d), (-0.45 * w, H - 0.03, 0.45 * d), 0.02, "metal_dark", segments=6))
    return parts


FURNITURE_BUILDERS = {
    "bench": bench, "picnic table": picnic_table, "table": table, "chair": chair, "umbrella": umbrella,
    "patio heater": patio_heater, "bus shelter": bus_shelter, "phone booth": phone_booth,
    "information kiosk": information_kiosk, "vending machine": vending_machine, "atm": atm,
    "drinking fountain": drinking_fountain, "bike rack": bike_rack, "portable toilet": portable_toilet,
    "market stall": market_stall, "food cart": food_cart, "crate": crate, "pallet": pallet,
    "generator": generator,
}
