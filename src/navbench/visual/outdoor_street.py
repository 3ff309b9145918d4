"""Street furniture meshes: lights, poles, signs, meters, hydrants, bins, bollards, fences, clocks.

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred, front
towards +Z: sign faces, lamp arms, screens and traffic-light lenses point to +Z).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.compose import lathe, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder, sphere
from navbench.visual.shapes import extrude, rod, torus

Size = tuple[float, float, float]


def _pole(h: float, r: float, mat: str = "metal_dark", y0: float = 0.0) -> Part:
    return cylinder(r, h - y0, mat, segments=10, center=(0.0, y0 + (h - y0) / 2, 0.0))


def _polygon(n: int, r: float, rot: float = 0.0) -> list[tuple[float, float]]:
    return [(r * math.cos(rot + 2 * math.pi * k / n), r * math.sin(rot + 2 * math.pi * k / n)) for k in range(n)]


def _plate(pts: list[tuple[float, float]], cy: float, z: float, t: float, mat: str) -> Part:
    """A flat sign plate: (x, y-offset) outline centred at height ``cy``, thickness ``t`` at depth ``z``."""
    p = extrude([(x, y + cy) for x, y in pts], t, mat)
    return Part(p.vertices + np.array([0.0, 0.0, z]), p.faces, p.uv, mat)


def street_light(size: Size, rng: np.random.Generator) -> list[Part]:
    """A street light: tapered pole, an arm reaching forward (+Z) and a downward lamp head."""
    w, H, d = size
    r = 0.3 * min(w, d)
    mat = "metal_dark" if rng.random() < 0.6 else "metal"
    reach = float(rng.uniform(0.6, 0.85))
    parts = [cylinder(r, 0.93 * H, mat, segments=10, center=(0.0, 0.465 * H, 0.0), radius_top=0.55 * r),
             cylinder(1.5 * r, 0.6, mat, segments=10, center=(0.0, 0.3, 0.0))]
    parts.append(rod((0.0, 0.9 * H, 0.0), (0.0, 0.97 * H, reach * 0.6), 0.5 * r, mat, segments=6))
    parts.append(rod((0.0, 0.97 * H, reach * 0.6), (0.0, 0.975 * H, reach), 0.45 * r, mat, segments=6))
    parts.append(box((0.22, 0.07, 0.45), mat, center=(0.0, 0.97 * H, reach)))
    parts.append(box((0.16, 0.02, 0.36), "lamp_glow", center=(0.0, 0.97 * H - 0.045, reach)))
    return parts


def traffic_light(size: Size, rng: np.random.Generator) -> list[Part]:
    """A traffic light: pole with a head of three lenses (red top, amber, green) facing +Z."""
    w, H, d = size
    r = 0.25 * min(w, d)
    hh = min(0.26 * H, 0.95)
    hw = 0.3
    y_head = H - hh / 2
    housing = "metal_dark" if rng.random() < 0.6 else tinted("painted_metal", (0.85, 0.7, 0.1))
    parts = [_pole(H - hh, r, "metal_dark"),
             box((hw, hh, 0.22), housing, center=(0.0, y_head, 0.06)),
             box((hw + 0.1, hh + 0.08, 0.02), "plastic_dark", center=(0.0, y_head, -0.05))]
    for k, mat in enumerate(("signal_red", "signal_amber", "signal_green")):
        y = y_head + (1 - k) * hh / 3
        parts.append(cylinder(0.09, 0.02, mat, segments=12, center=(0.0, 0.0, 0.0)))
        p = parts[-1]
        v = p.vertices[:, [0, 2, 1]] * np.array([1.0, 1.0, 1.0]) + np.array([0.0, y, 0.18])
        parts[-1] = Part(v, p.faces[:, ::-1].copy(), p.uv, mat)
        parts.append(box((0.22, 0.015, 0.12), "metal_dark", center=(0.0, y + 0.1, 0.23)))  # visor
    return parts


def utility_pole(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wooden utility pole with a crossarm, insulators and (sometimes) a transformer can."""
    w, H, d = size
    r = 0.4 * min(w, d)
    wood = tinted("planks", (0.55, 0.42, 0.3))
    arm = 1.6
    parts = [cylinder(r, H, wood, segments=10, center=(0.0, H / 2, 0.0), radius_top=0.75 * r),
             box((arm, 0.1, 0.1), wood, center=(0.0, H - 0.45, 0.0))]
    for x in (-0.7, -0.25, 0.25, 0.7):
        parts.append(cylinder(0.04, 0.14, "ceramic", segments=8, center=(x, H - 0.33, 0.0)))
    if rng.random() < 0.5:
        parts.append(cylinder(0.22, 0.6, "metal", segments=12, center=(0.0, H - 1.4, 0.3)))
    return parts


def flag_pole(size: Size, rng: np.random.Generator) -> list[Part]:
    """A flag pole: white pole, gold ball on top and a flag flying towards +X."""
    w, H, d = size
    r = 0.3 * min(w, d)
    cols = ((0.8, 0.1, 0.1), (0.1, 0.25, 0.65), (0.1, 0.55, 0.25), (0.95, 0.8, 0.1))
    flag = tinted("fabric", cols[int(rng.integers(len(cols)))])
    fl = 3.2 * min(w, d)
    fh = 0.62 * fl
    parts = [cylinder(r, 0.98 * H, "plastic", segments=10, center=(0.0, 0.49 * H, 0.0), radius_top=0.6 * r),
             sphere(0.02 * H / 2 + r * 0.6, "bronze", rings=5, segments=8, center=(0.0, 0.985 * H, 0.0)),
             box((fl, fh, 0.015), flag, center=(r + fl / 2, 0.95 * H - fh / 2, 0.0)),
             box((fl * 0.98, fh * 0.3, 0.017), "plastic", center=(r + fl / 2, 0.95 * H - fh / 2, 0.0))]
    return parts


def stop_sign(size: Size, rng: np.random.Generator) -> list[Part]:
    """A stop sign: a red octagon with a white rim on a grey post, facing +Z."""
    w, H, _d = size
    R = w / 2 * float(rng.uniform(0.88, 1.0))
    cy = H - R
    rot = math.pi / 8
    return [_pole(cy, 0.03, "metal" if rng.random() < 0.5 else "metal_dark"),
            _plate(_polygon(8, R, rot), cy, 0.035, 0.02, "reflective_white"),
            _plate(_polygon(8, 0.88 * R, rot), cy, 0.048, 0.01, "sign_red"),
            box((0.9 * R, 0.22 * R, 0.004), "reflective_white", center=(0.0, cy, 0.055))]


def street_sign(size: Size, rng: np.random.Generator) -> list[Part]:
    """A street-name sign: a post topped by two crossed green name blades."""
    w, H, d = size
    green = tinted("sign_plate", (0.0, 0.42, 0.25)) if rng.random() < 0.7 else tinted("sign_plate", (0.05, 0.25, 0.6))
    bl = w * 0.98
    parts = [_pole(H - 0.05, 0.03, "metal"),
             box((bl, 0.18, 0.02), green, center=(0.0, H - 0.12, 0.0)),
             box((bl * 0.98, 0.02, 0.022), "reflective_white", center=(0.0, H - 0.2, 0.0))]
    parts.append(box((min(bl, d * 0.98) if d < bl else bl, 0.18, 0.02), green, center=(0.0, H - 0.34, 0.0)))
    parts.append(box((0.04, 0.18, min(0.8, d * 0.98)), green, center=(0.0, H - 0.34, 0.0)))
    return parts


def bus_stop_sign(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bus stop sign: a post with a round 'bus' disc above a timetable panel."""
    w, H, _d = size
    R = 0.45 * w
    disc_c = H - R
    disc = ((0.05, 0.35, 0.15), (0.75, 0.05, 0.06), (0.05, 0.25, 0.6))[int(rng.integers(3))]
    parts = [_pole(H - 0.02, 0.03, "metal"),
             _plate(_polygon(20, R), disc_c, 0.03, 0.02, tinted("sign_plate", disc)),
             _plate(_polygon(20, 0.75 * R), disc_c, 0.042, 0.006, "plastic_yellow"),
             box((0.8 * w, 0.5, 0.03), "plastic", center=(0.0, disc_c - R - 0.35, 0.03)),
             box((0.7 * w, 0.4, 0.034), "paper", center=(0.0, disc_c - R - 0.35, 0.03))]
    return parts


def sandwich_board(size: Size, rng: np.random.Generator) -> list[Part]:
    """A sandwich board: an A-frame of two boards hinged at the top (chalkboard faces)."""
    w, H, d = size
    tilt = math.atan2(d / 2 - 0.02, H) * float(rng.uniform(0.8, 1.0))
    frame = "planks" if rng.random() < 0.6 else tinted("painted_metal", (0.1, 0.1, 0.1))
    parts = []
    for s in (-1, 1):
        zc = s * (d / 4)
        b = box((w, H / math.cos(tilt) * 0.98, 0.025), frame)
        v = b.vertices @ np.array([[1, 0, 0], [0, math.cos(tilt), s * math.sin(tilt)],
                                   [0, -s * math.sin(tilt), math.cos(tilt)]]).T
        parts.append(Part(v + np.array([0.0, H / 2, zc]), b.faces, b.uv, frame))
        c = box((w * 0.82, H * 0.7, 0.03), "plastic_dark")
        v = c.vertices @ np.array([[1, 0, 0], [0, math.cos(tilt), s * math.sin(tilt)],
                                   [0, -s * math.sin(tilt), math.cos(tilt)]]).T
        parts.append(Part(v + np.array([0.0, H / 2, zc * 1.04]), c.faces, c.uv, "plastic_dark"))
    return parts


def parking_meter(size: Size, rng: np.random.Generator) -> list[Part]:
    """A parking meter: a post carrying a meter head with a screen and a coin slot facing +Z."""
    w, H, d = size
    head = 0.35 * H
    body = tinted("plastic", (0.2, 0.3, 0.5) if rng.random() < 0.5 else (0.15, 0.15, 0.17))
    return [_pole(H - head, 0.035, "metal"),
            box((0.8 * w, head, 0.7 * d), body, center=(0.0, H - head / 2, 0.0)),
            box((0.55 * w, 0.3 * head, 0.02), "screen", center=(0.0, H - 0.35 * head, 0.35 * d)),
            box((0.3 * w, 0.05 * head, 0.02), "lamp_glow", center=(0.0, H - 0.75 * head, 0.35 * d))]


def fire_hydrant(size: Size, rng: np.random.Generator) -> list[Part]:
    """A fire hydrant: a red (or yellow) barrel with a dome cap, a top nut and three outlets."""
    w, H, d = size
    r = 0.3 * min(w, d)
    col = "plastic_red" if rng.random() < 0.7 else "plastic_yellow"
    col = tinted("painted_metal", (0.8, 0.08, 0.06) if col == "plastic_red" else (0.95, 0.75, 0.1))
    parts = [lathe([(0.0, 0.0), (1.35 * r, 0.0), (1.35 * r, 0.06 * H), (r, 0.08 * H), (r, 0.72 * H),
                    (1.1 * r, 0.72 * H), (1.1 * r, 0.76 * H), (0.7 * r, 0.88 * H), (0.0, 0.9 * H)], col, segments=14),
             cylinder(0.25 * r, 0.1 * H, col, segments=6, center=(0.0, 0.95 * H, 0.0))]
    y = 0.55 * H
    for a, b in (((-r, y, 0.0), (-w / 2, y, 0.0)), ((r, y, 0.0), (w / 2, y, 0.0)), ((0.0, y, r), (0.0, y, d / 2))):
        parts.append(rod(a, b, 0.35 * r, col, segments=8))
    return parts


def mailbox(size: Size, rng: np.random.Generator) -> list[Part]:
    """A mailbox: a blue US collection box on legs (rounded top) or a red pillar box."""
    w, H, d = size
    if rng.random() < 0.5:
        r = 0.45 * min(w, d)
        red = tinted("painted_metal", (0.75, 0.05, 0.05))
        return [cylinder(r, 0.86 * H, red, segments=16, center=(0.0, 0.43 * H, 0.0)),
                lathe([(r * 1.05, 0.86 * H), (r * 1.05, 0.9 * H), (0.6 * r, 0.98 * H), (0.0, H)], red, segments=16),
                box((0.6 * r, 0.05, 0.05), "plastic_dark", center=(0.0, 0.75 * H, r - 0.01))]
    blue = tinted("painted_metal", (0.1, 0.2, 0.55))
    leg_h = 0.2 * H
    hb = H - leg_h
    prof = [(-w / 2, leg_h), (w / 2, leg_h), (w / 2, leg_h + 0.7 * hb), (w * 0.3, H - 0.02), (0.0, H), (-w * 0.3, H - 0.02),
            (-w / 2, leg_h + 0.7 * hb)]
    parts = [extrude(prof, d, blue, plane="xy")]
    for x in (-0.4 * w, 0.4 * w):
        for z in (-0.4 * d, 0.4 * d):
            parts.append(box((0.05, leg_h, 0.05), blue, center=(x, leg_h / 2, z)))
    parts.append(box((0.6 * w, 0.06, 0.03), "metal", center=(0.0, leg_h + 0.72 * hb, d / 2)))
    return parts


def newspaper_box(size: Size, rng: np.random.Generator) -> list[Part]:
    """A newspaper vending box on a pedestal, with a window and a coin box facing +Z."""
    w, H, d = size
    cols = ((0.8, 0.1, 0.1), (0.1, 0.3, 0.7), (0.9, 0.75, 0.1), (0.1, 0.45, 0.2))
    col = tinted("painted_metal", cols[int(rng.integers(len(cols)))])
    ped = 0.25 * H
    return [box((0.3 * w, ped, 0.3 * d), "metal_dark", center=(0.0, ped / 2, 0.0)),
            slab(-w / 2, w / 2, ped, H - 0.03, -d / 2, d / 2, col),
            slab(-w / 2 - 0.0, w / 2, H - 0.03, H, -d / 2, d / 2, "metal_dark"),
            box((0.7 * w, 0.3 * H, 0.02), "glass", center=(0.0, ped + 0.55 * (H - ped), d / 2 - 0.005)),
            box((0.65 * w, 0.26 * H, 0.01), "paper", center=(0.0, ped + 0.55 * (H - ped), d / 2 - 0.02)),
            box((0.2 * w, 0.1 * H, 0.03), "metal", center=(0.3 * w, H - 0.1 * H, d / 2 - 0.01))]


def trash_can(size: Size, rng: np.random.Generator) -> list[Part]:
    """A street trash can: round slatted bin with a domed lid and an opening, or a square one."""
    w, H, d = size
    col = tinted("painted_metal", (0.1, 0.3, 0.18) if rng.random() < 0.5 else (0.1, 0.1, 0.11))
    r = 0.48 * min(w, d)
    parts = [cylinder(r * 0.9, 0.8 * H, col, segments=16, center=(0.0, 0.4 * H, 0.0))]
    for k in range(12):  # vertical slats
        a = 2 * math.pi * k / 12
        parts.append(box((0.06, 0.78 * H, 0.03), col, center=(r * 0.95 * math.cos(a), 0.4 * H, r * 0.95 * math.sin(a))))
    parts.append(lathe([(r, 0.8 * H), (r, 0.85 * H), (0.6 * r, 0.97 * H), (0.0, H)], "metal_dark", segments=16))
    parts.append(box((0.6 * r, 0.08 * H, 0.05), "plastic_dark", center=(0.0, 0.84 * H, 0.9 * r)))
    return parts


def recycling_bin(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wheelie recycling bin: tapered body, hinged lid with handle, two wheels at the back."""
    w, H, d = size
    col = tinted("plastic", (0.1, 0.35, 0.8) if rng.random() < 0.5 else (0.1, 0.5, 0.2))
    rw = 0.1 * H
    body = [(-0.42 * d, rw * 0.6), (0.42 * d, rw * 0.6), (0.47 * d, 0.92 * H), (-0.5 * d, 0.92 * H)]
    parts = [extrude(body, 0.9 * w, col, plane="zy"),
             slab(-w / 2, w / 2, 0.92 * H, H, -d / 2, d / 2, col),
             box((0.5 * w, 0.08 * H, 0.04), "plastic_dark", center=(0.0, 0.95 * H, -d / 2 + 0.02)),
             box((0.4 * w, 0.25 * H, 0.01), "reflective_white", center=(0.0, 0.6 * H, 0.45 * d + 0.005))]
    for x in (-0.4 * w, 0.4 * w):
        parts.append(torus(rw * 0.6, rw * 0.4, "tyre", center=(x, rw, -0.42 * d), axis="x", segments=12, sides=6))
    return parts


def dumpster(size: Size, rng: np.random.Generator) -> list[Part]:
    """A dumpster: steel container with a sloped front, two plastic lids and corner castors."""
    w, H, d = size
    col = tinted("painted_metal", (0.12, 0.38, 0.2) if rng.random() < 0.5 else (0.1, 0.25, 0.55))
    c = 0.12 * H
    prof = [(-d / 2, c), (0.35 * d, c), (d / 2, 0.9 * H), (-d / 2, 0.9 * H)]
    parts = [extrude(prof, w, col, plane="zy"),
             slab(-w / 2, -0.01, 0.9 * H, H, -d / 2, d / 2, "plastic_dark"),
             slab(0.01, w / 2, 0.9 * H, H, -d / 2, d / 2, "plastic_dark"),
             box((w * 1.0, 0.06, 0.06), "metal_dark", center=(0.0, 0.6 * H, 0.5 * d - 0.1 * d))]
    for x in (-0.42 * w, 0.42 * w):
        for z in (-0.38 * d, 0.3 * d):
            parts.append(cylinder(0.05, c, "rubber", segments=8, center=(x, c / 2, z)))
    return parts


def bollard(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bollard: a cylinder with a domed top and a reflective band."""
    w, H, d = size
    r = 0.45 * min(w, d)
    col = "metal_dark" if rng.random() < 0.6 else tinted("painted_metal", (0.9, 0.75, 0.1))
    return [cylinder(r, 0.88 * H, col, segments=14, center=(0.0, 0.44 * H, 0.0)),
            lathe([(r, 0.88 * H), (0.8 * r, 0.96 * H), (0.0, H)], col, segments=14),
            cylinder(r * 1.02, 0.06 * H, "reflective_white", segments=14, center=(0.0, 0.78 * H, 0.0))]


def fence(size: Size, rng: np.random.Generator) -> list[Part]:
    """A fence: posts every ~1.5 m with two rails and pickets (wood) or vertical bars (metal)."""
    w, H, d = size
    metal = rng.random() < 0.4
    mat = "metal_dark" if metal else tinted("planks", (0.95, 0.93, 0.88) if rng.random() < 0.5 else (0.7, 0.55, 0.4))
    n = max(2, math.ceil(w / 1.5) + 1)
    t = min(d, 0.09)
    parts: list[Part] = []
    for k in range(n):
        x = -w / 2 + t / 2 + k * (w - t) / (n - 1)
        parts.append(box((t, H, t), mat, center=(0.0 + x, H / 2, 0.0)))
    for y in (0.25 * H, 0.8 * H):
        parts.append(box((w, 0.05, t * 0.5), mat, center=(0.0, y, 0.0)))
    m = int(w / 0.15)
    for k in range(m):
        x = -w / 2 + (k + 0.5) * w / m
        if metal:
            parts.append(rod((x, 0.05 * H, 0.0), (x, 0.97 * H, 0.0), 0.01, mat, segments=5))
        else:
            parts.append(box((0.08, 0.92 * H, t * 0.3), mat, center=(x, 0.46 * H + 0.04 * H, t * 0.35)))
    return parts


def street_clock(size: Size, rng: np.random.Generator) -> list[Part]:
    """A street clock: an ornate post with a two-faced round clock head (white dial, black hands)."""
    w, H, d = size
    col = tinted("painted_metal", (0.1, 0.25, 0.15) if rng.random() < 0.5 else (0.08, 0.08, 0.09))
    R = 0.45 * min(w, d)
    cy = H - R
    parts = [cylinder(0.3 * min(w, d), 0.08 * H, col, segments=12, center=(0.0, 0.04 * H, 0.0)),
             cylinder(0.07, cy - R - 0.08 * H, col, segments=10, center=(0.0, 0.08 * H + (cy - R - 0.08 * H) / 2, 0.0)),
             _plate(_polygon(24, R), cy, 0.0, 0.16, col)]
    hour, minute = rng.uniform(0, 2 * math.pi, 2)
    for s in (-1, 1):
        parts.append(_plate(_polygon(24, 0.85 * R), cy, s * 0.081, 0.004, "plastic"))
        for ang, ln in ((hour, 0.45), (minute, 0.72)):
            x, y = ln * R * math.sin(ang) / 2, ln * R * math.cos(ang) / 2
            parts.append(rod((0.0, cy, s * 0.085), (2 * x * s, cy + 2 * y, s * 0.085), 0.012, "plastic_black", segments=4))
    return parts


def electrical_box(size: Size, rng: np.random.Generator) -> list[Part]:
    """A utility cabinet: a grey box on a plinth with two doors, a vent and a warning label."""
    w, H, d = size
    col = tinted("painted_metal", (0.6, 0.62, 0.6) if rng.random() < 0.6 else (0.35, 0.42, 0.32))
    p = 0.08 * H
    return [slab(-w / 2, w / 2, 0.0, p, -d / 2, d / 2, "concrete"),
            slab(-w * 0.48, w * 0.48, p, H - 0.04, -d * 0.46, d * 0.46, col),
            slab(-w / 2, w / 2, H - 0.04, H, -d / 2, d / 2, col),
            box((0.01, 0.8 * (H - p), 0.01), "metal_dark", center=(0.0, p + 0.45 * (H - p), 0.465 * d)),
            box((0.3 * w, 0.08 * H, 0.01), "metal_dark", center=(-0.22 * w, p + 0.15 * (H - p), 0.465 * d)),
            box((0.1 * w, 0.08 * H, 0.01), "plastic_yellow", center=(0.22 * w, p + 0.7 * (H - p), 0.465 * d))]


def ev_charger(size: Size, rng: np.random.Generator) -> list[Part]:
    """An EV charger: a slim pillar with a screen, a green status strip and a holstered cable."""
    w, H, d = size
    col = "plastic" if rng.random() < 0.6 else "plastic_dark"
    return [slab(-w / 2, w / 2, 0.0, 0.04, -d / 2, d / 2, "concrete"),
            slab(-0.4 * w, 0.4 * w, 0.04, H, -0.35 * d, 0.35 * d, col),
            box((0.5 * w, 0.14 * H, 0.01), "screen", center=(0.0, 0.78 * H, 0.355 * d)),
            box((0.05 * w, 0.5 * H, 0.01), "signal_green", center=(0.3 * w, 0.55 * H, 0.355 * d)),
            box((0.15 * w, 0.1 * H, 0.12 * d), "plastic_dark", center=(-0.15 * w, 0.55 * H, 0.42 * d)),
            torus(0.12 * w, 0.015, "rubber", center=(-0.15 * w, 0.42 * H, 0.38 * d), axis="z", segments=12, sides=5)]


STREET_BUILDERS = {
    "street light": street_light, "traffic light": traffic_light, "utility pole": utility_pole,
    "flag pole": flag_pole, "stop sign": stop_sign, "street sign": street_sign, "bus stop sign": bus_stop_sign,
    "sandwich board": sandwich_board, "parking meter": parking_meter, "fire hydrant": fire_hydrant,
    "mailbox": mailbox, "newspaper box": newspaper_box, "trash can": trash_can, "recycling bin": recycling_bin,
    "dumpster": dumpster, "bollard": bollard, "fence": fence, "street clock": street_clock,
    "electrical box": electrical_box, "ev charger": ev_charger,
}
