"""Parametric, seeded meshes of indoor furniture (beds, seats, tables, storage, appliances,
bathroom fixtures). Each builder is ``fn((w, h, d), rng) -> list[Part]`` in the local frame of
``visual.mesh`` (footprint centred, bottom at y = 0, front +Z); all parts stay inside the box."""

from __future__ import annotations

import numpy as np

from navbench.visual.compose import bar, blob, legs, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder

Size = tuple[float, float, float]

WOODS = ((0.62, 0.42, 0.25), (0.45, 0.3, 0.18), (0.8, 0.65, 0.45), (0.3, 0.2, 0.13), (0.9, 0.85, 0.78))
FABRICS = ((0.35, 0.4, 0.55), (0.55, 0.3, 0.28), (0.5, 0.5, 0.5), (0.3, 0.45, 0.35), (0.75, 0.68, 0.55),
           (0.2, 0.22, 0.28), (0.62, 0.55, 0.7))
PAINTED = ((0.95, 0.95, 0.93), (0.2, 0.22, 0.25), (0.55, 0.65, 0.7), (0.85, 0.8, 0.7))


def pick(rng: np.random.Generator, options: tuple) -> tuple:
    """One entry of a palette, with a ±6 % brightness jitter."""
    c = np.asarray(options[int(rng.integers(len(options)))], float)
    return tuple(np.clip(c * rng.uniform(0.94, 1.06), 0, 1))


def wood(rng: np.random.Generator) -> str:
    """A tinted wood material key."""
    return tinted("wood", pick(rng, WOODS))


def fabric(rng: np.random.Generator) -> str:
    """A tinted fabric material key."""
    return tinted("fabric", pick(rng, FABRICS))


def handle(x: float, y: float, z: float, length: float, vertical: bool = False) -> Part:
    """A small metal pull on a front face at ``z`` (m)."""
    s = (0.015, length, 0.015) if vertical else (length, 0.015, 0.015)
    return box(s, "chrome", center=(x, y, z + 0.0075))


# --------------------------------------------------------------------------- sleeping
def bed(size: Size, rng: np.random.Generator) -> list[Part]:
    """Frame on short legs, mattress, blanket, pillows at the head (back, -Z), headboard."""
    w, h, d = size
    frame = wood(rng)
    hb_t = min(0.06, d * 0.04)
    leg_h = 0.12 * h
    fr_top = 0.45 * h
    mat_top = 0.8 * h
    out = legs(w, d, leg_h, 0.06, frame)
    out.append(slab(-w / 2, w / 2, leg_h, fr_top, -d / 2 + hb_t, d / 2, frame))
    out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, fr_top, mat_top, -d / 2 + hb_t, d / 2 - 0.02, "fabric@f2f0ea"))
    out.append(slab(-w / 2 + 0.01, w / 2 - 0.01, mat_top - 0.1 * h, mat_top + 0.02 * h,
                    -d / 2 + hb_t + 0.35 * d, d / 2 - 0.01, fabric(rng)))
    n = 2 if w > 1.2 else 1
    pw = (w - 0.1) / n - 0.05
    for i in range(n):
        cx = -w / 2 + 0.05 + (i + 0.5) * (w - 0.1) / n
        out.append(box((pw, 0.14 * h, 0.3 * d * 0.5), "fabric@ffffff",
                       center=(cx, mat_top + 0.07 * h, -d / 2 + hb_t + 0.12 * d)))
    out.append(slab(-w / 2, w / 2, leg_h, h, -d / 2, -d / 2 + hb_t, frame))
    return out


# --------------------------------------------------------------------------- seating
def chair(size: Size, rng: np.random.Generator) -> list[Part]:
    """Four legs, a seat at ~48 % height, a back rising from the rear (-Z) edge."""
    w, h, d = size
    mat = wood(rng) if rng.random() < 0.7 else tinted("metal", pick(rng, PAINTED))
    seat_y = 0.5 * h
    t = 0.04
    out = legs(w, d, seat_y - 0.04, t, mat, round_=bool(rng.random() < 0.4))
    out.append(slab(-w / 2, w / 2, seat_y - 0.04, seat_y, -d / 2, d / 2, mat))
    if rng.random() < 0.5:
        out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, seat_y, seat_y + 0.03, -d / 2 + 0.04, d / 2 - 0.02,
                        fabric(rng)))
    for sx in (-1, 1):  # back posts
        out.append(slab(sx * w / 2 - (t if sx > 0 else 0), sx * w / 2 + (0 if sx > 0 else t), seat_y, h,
                        -d / 2, -d / 2 + t, mat))
    if rng.random() < 0.5:  # solid back panel
        out.append(slab(-w / 2 + t, w / 2 - t, seat_y + 0.4 * (h - seat_y), h - 0.02, -d / 2 + 0.01,
                        -d / 2 + 0.03, mat))
    else:  # rails
        for f in (0.45, 0.7, 0.95):
            y = seat_y + f * (h - seat_y)
            out.append(slab(-w / 2 + t, w / 2 - t, y - 0.03, y, -d / 2 + 0.005, -d / 2 + t - 0.005, mat))
    return out


def stool(size: Size, rng: np.random.Generator) -> list[Part]:
    """Round seat on three or four thin legs with a foot ring."""
    w, h, d = size
    r = min(w, d) / 2
    mat = tinted("metal", pick(rng, PAINTED)) if rng.random() < 0.5 else wood(rng)
    out = [cylinder(r, 0.05, wood(rng), segments=16, center=(0, h - 0.025, 0))]
    n = 3 + int(rng.integers(2))
    for k in range(n):
        a = 2 * np.pi * k / n
        out.append(bar((0.8 * r * np.cos(a), 0.0125, 0.8 * r * np.sin(a)),
                       (0.45 * r * np.cos(a), h - 0.05, 0.45 * r * np.sin(a)), 0.025, mat))
    out.append(cylinder(0.62 * r, 0.02, mat, segments=12, center=(0, 0.35 * h, 0), caps=False))
    return out


def office_chair(size: Size, rng: np.random.Generator) -> list[Part]:
    """Five-spoke base on casters, gas column, seat cushion, tall back, arm rests."""
    w, h, d = size
    dark = "plastic_dark"
    up = fabric(rng) if rng.random() < 0.6 else tinted("leather", (0.1, 0.1, 0.1))
    r = min(w, d) / 2 - 0.03
    out = []
    for k in range(5):
        a = 2 * np.pi * k / 5 + 0.3
        p = (r * np.cos(a), 0.05, r * np.sin(a))
        out.append(bar((0, 0.07, 0), p, 0.035, dark))
        out.append(cylinder(0.025, 0.05, "rubber", segments=8, center=(p[0], 0.025, p[2])))
    seat_y = 0.47 * h
    out.append(cylinder(0.03, seat_y - 0.1, "chrome", segments=10, center=(0, 0.05 + (seat_y - 0.1) / 2, 0)))
    out.append(slab(-w / 2 + 0.04, w / 2 - 0.04, seat_y - 0.06, seat_y + 0.03, -d / 2 + 0.08, d / 2 - 0.02, up))
    out.append(slab(-w / 2 + 0.07, w / 2 - 0.07, seat_y + 0.08, h, -d / 2, -d / 2 + 0.07, up))
    out.append(bar((0, seat_y, -d / 2 + 0.1), (0, seat_y + 0.1, -d / 2 + 0.04), 0.03, dark))
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.03)
        out.append(slab(x - 0.025, x + 0.025, seat_y, seat_y + 0.2, -0.02, 0.02, dark))
        out.append(slab(x - 0.03, x + 0.03, seat_y + 0.2, seat_y + 0.23, -0.15 * d, 0.25 * d, dark))
    return out


def sofa(size: Size, rng: np.random.Generator, seats: int | None = None) -> list[Part]:
    """Plinth, seat cushions, back cushions along -Z, two arm rests, small feet."""
    w, h, d = size
    up = fabric(rng) if rng.random() < 0.75 else tinted("leather", pick(rng, ((0.35, 0.2, 0.12), (0.12, 0.1, 0.1))))
    arm = min(0.2, 0.12 * w + 0.06)
    back = min(0.25, 0.28 * d)
    foot = 0.08
    seat_y = 0.5 * h
    n = seats or max(1, round((w - 2 * arm) / 0.6))
    out = legs(w - 0.05, d - 0.05, foot, 0.05, wood(rng))
    out.append(slab(-w / 2 + arm, w / 2 - arm, foot, seat_y - 0.12, -d / 2 + back, d / 2, up))
    cw = (w - 2 * arm) / n
    for i in range(n):
        x0 = -w / 2 + arm + i * cw
        out.append(slab(x0 + 0.01, x0 + cw - 0.01, seat_y - 0.12, seat_y, -d / 2 + back, d / 2 - 0.01, up))
        out.append(slab(x0 + 0.01, x0 + cw - 0.01, seat_y, h - 0.05, -d / 2 + back - 0.04, -d / 2 + back + 0.1, up))
    out.append(slab(-w / 2, w / 2, foot, h, -d / 2, -d / 2 + back, up))
    for sx in (-1, 1):
        x0, x1 = (w / 2 - arm, w / 2) if sx > 0 else (-w / 2, -w / 2 + arm)
        out.append(slab(x0, x1, foot, 0.72 * h, -d / 2, d / 2, up))
    return out


def armchair(size: Size, rng: np.random.Generator) -> list[Part]:
    """A one-seat sofa."""
    return sofa(size, rng, seats=1)


def ottoman(size: Size, rng: np.random.Generator) -> list[Part]:
    """Upholstered cushion block (square or round) on short feet."""
    w, h, d = size
    up = fabric(rng)
    out = legs(w - 0.04, d - 0.04, 0.06, 0.04, wood(rng))
    if rng.random() < 0.5:
        out.append(cylinder(min(w, d) / 2, h - 0.06, up, segments=20, center=(0, 0.06 + (h - 0.06) / 2, 0)))
    else:
        out.append(slab(-w / 2, w / 2, 0.06, h - 0.03, -d / 2, d / 2, up))
        out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, h - 0.03, h, -d / 2 + 0.02, d / 2 - 0.02, up))
    return out


def bench(size: Size, rng: np.random.Generator) -> list[Part]:
    """A slatted seat on two trestle legs, optional shoe shelf."""
    w, h, d = size
    mat = wood(rng)
    out = []
    n = 3
    for i in range(n):
        z0 = -d / 2 + i * d / n
        out.append(slab(-w / 2, w / 2, h - 0.04, h, z0 + 0.01, z0 + d / n - 0.01, mat))
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.08)
        out.append(slab(x - 0.03, x + 0.03, 0, h - 0.04, -d / 2 + 0.02, d / 2 - 0.02, mat))
    out.append(slab(-w / 2 + 0.08, w / 2 - 0.08, 0.12, 0.15, -d / 2 + 0.04, d / 2 - 0.04, mat))
    return out


# --------------------------------------------------------------------------- tables
def table(size: Size, rng: np.random.Generator, *, apron: bool = True, shelf: bool = False) -> list[Part]:
    """A top (~4 cm) over four legs (square or tapered), or a round top on a pedestal."""
    w, h, d = size
    mat = wood(rng)
    top = min(0.045, 0.1 * h)
    if abs(w - d) < 0.08 and rng.random() < 0.5:  # round pedestal table
        r = min(w, d) / 2
        return [cylinder(r, top, mat, segments=24, center=(0, h - top / 2, 0)),
                cylinder(0.05, h - top, mat, segments=10, center=(0, (h - top) / 2, 0)),
                cylinder(0.45 * r, 0.04, mat, segments=16, center=(0, 0.02, 0))]
    t = float(np.clip(0.06 * min(w, d), 0.03, 0.07))
    leg_mat = mat if rng.random() < 0.7 else "metal_dark"
    out = [slab(-w / 2, w / 2, h - top, h, -d / 2, d / 2, mat)]
    out += legs(w, d, h - top, t, leg_mat, inset=0.03)
    if apron:
        out.append(slab(-w / 2 + 0.05, w / 2 - 0.05, h - top - 0.08, h - top, -d / 2 + 0.05, d / 2 - 0.05, mat))
    if shelf:
        out.append(slab(-w / 2 + 0.05, w / 2 - 0.05, 0.12 * h, 0.12 * h + 0.025, -d / 2 + 0.05, d / 2 - 0.05, mat))
    return out


def coffee_table(size: Size, rng: np.random.Generator) -> list[Part]:
    """A low table with a lower shelf."""
    return table(size, rng, apron=False, shelf=True)


def desk(size: Size, rng: np.random.Generator) -> list[Part]:
    """A top over a drawer pedestal on one side and a leg pair on the other, modesty panel."""
    w, h, d = size
    mat = wood(rng) if rng.random() < 0.6 else tinted("plastic", pick(rng, PAINTED))
    top = 0.035
    pw = min(0.42, 0.35 * w)
    side = 1 if rng.random() < 0.5 else -1
    out = [slab(-w / 2, w / 2, h - top, h, -d / 2, d / 2, mat)]
    px0, px1 = (w / 2 - pw, w / 2) if side > 0 else (-w / 2, -w / 2 + pw)
    out.append(slab(px0, px1, 0, h - top, -d / 2, d / 2 - 0.02, mat))
    for k in range(3):
        y0 = k * (h - top) / 3
        out.append(slab(px0 + 0.02, px1 - 0.02, y0 + 0.02, y0 + (h - top) / 3 - 0.02, d / 2 - 0.02, d / 2, mat))
        out.append(handle((px0 + px1) / 2, y0 + (h - top) / 3 - 0.06, d / 2, 0.1))
    lx = -w / 2 + 0.03 if side > 0 else w / 2 - 0.03
    for sz in (-1, 1):
        out.append(slab(lx - 0.025, lx + 0.025, 0, h - top, sz * (d / 2 - 0.03) - 0.025, sz * (d / 2 - 0.03) + 0.025,
                        mat))
    out.append(slab(min(lx, px0), max(lx, px1), 0.35 * h, h - top, -d / 2 + 0.02, -d / 2 + 0.04, mat))
    return out


def kitchen_island(size: Size, rng: np.random.Generator) -> list[Part]:
    """Cabinet base with doors on the front, stone top overhanging at the back for stools."""
    w, h, d = size
    out = cabinet_body((w, h - 0.04, d - 0.25), rng, doors=max(2, round(w / 0.6)), z_shift=0.125,
                       plinth=True)
    out.append(slab(-w / 2, w / 2, h - 0.04, h, -d / 2, d / 2, tinted("stone", pick(rng, ((0.95, 0.95, 0.93), (0.3, 0.3, 0.32))))))
    return out


# --------------------------------------------------------------------------- storage
def cabinet_body(size: Size, rng: np.random.Generator, *, doors: int = 0, drawers: int = 0,
                 z_shift: float = 0.0, plinth: bool = True, material: str | None = None,
                 legs_h: float = 0.0) -> list[Part]:
    """A carcass with ``drawers`` stacked on top of ``doors`` side by side, fronts on +Z."""
    w, h, d = size
    mat = material or (wood(rng) if rng.random() < 0.6 else tinted("plastic", pick(rng, PAINTED)))
    z0, z1 = -d / 2 + z_shift, d / 2 + z_shift
    base = legs_h if legs_h > 0 else (0.08 if plinth else 0.0)
    out = legs(w, d, legs_h, 0.04, "metal_dark") if legs_h > 0 else []
    if plinth and legs_h <= 0:
        out.append(slab(-w / 2 + 0.03, w / 2 - 0.03, 0, base, z0, z1 - 0.05, "plastic_dark"))
    out.append(slab(-w / 2, w / 2, base, h, z0, z1 - 0.02, mat))
    front_h = h - base - 0.02
    dr_h = front_h * (0.25 if doors else 1.0 / max(drawers, 1)) if drawers else 0.0
    y = h - 0.01
    for _ in range(drawers):
        out.append(slab(-w / 2 + 0.01, w / 2 - 0.01, y - dr_h + 0.01, y, z1 - 0.02, z1, mat))
        out.append(handle(0.0, y - dr_h / 2, z1, min(0.2, 0.3 * w)))
        y -= dr_h
    if doors:
        dw = w / doors
        for i in range(doors):
            x0 = -w / 2 + i * dw
            out.append(slab(x0 + 0.01, x0 + dw - 0.01, base + 0.01, y - 0.01, z1 - 0.02, z1, mat))
            hx = x0 + dw - 0.05 if i % 2 == 0 else x0 + 0.05
            out.append(handle(hx, base + 0.7 * (y - base), z1, min(0.15, 0.4 * (y - base)), vertical=True))
    return out


def nightstand(size: Size, rng: np.random.Generator) -> list[Part]:
    """A small chest of two drawers on short legs."""
    _w, h, _d = size
    return cabinet_body(size, rng, drawers=2, plinth=False, legs_h=0.1 * h, material=wood(rng))


def dresser(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wide chest of three to four drawers on a plinth."""
    return cabinet_body(size, rng, drawers=3 + int(rng.integers(2)))


def wardrobe(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tall carcass with two or three full-height doors and a cornice."""
    w, h, d = size
    n = 2 if w < 1.3 else 3
    out = cabinet_body((w, h - 0.05, d), rng, doors=n, drawers=0)
    out.append(slab(-w / 2, w / 2, h - 0.05, h, -d / 2, d / 2, out[1].material))
    return out


def cabinet(size: Size, rng: np.random.Generator) -> list[Part]:
    """Two doors under one drawer row."""
    return cabinet_body(size, rng, doors=2, drawers=int(rng.integers(2)))


def sideboard(size: Size, rng: np.random.Generator) -> list[Part]:
    """Long low cabinet on legs: three or four doors under a drawer row."""
    _w, h, _d = size
    return cabinet_body(size, rng, doors=3 + int(rng.integers(2)), drawers=1, plinth=False, legs_h=0.15 * h)


def tv_stand(size: Size, rng: np.random.Generator) -> list[Part]:
    """Low console: open middle shelf between two closed doors."""
    w, h, d = size
    mat = wood(rng) if rng.random() < 0.5 else tinted("plastic", pick(rng, PAINTED))
    t = 0.025
    out = [slab(-w / 2, w / 2, h - t, h, -d / 2, d / 2, mat), slab(-w / 2, w / 2, 0.05, 0.05 + t, -d / 2, d / 2, mat),
           slab(-w / 2, w / 2, 0.05, h, -d / 2, -d / 2 + t, mat),
           slab(-w / 2 + 0.02, w / 2 - 0.02, 0, 0.05, -d / 2 + 0.02, d / 2 - 0.04, "plastic_dark")]
    for x in (-w / 2, -w / 6, w / 6, w / 2):
        x0 = min(max(x - t / 2, -w / 2), w / 2 - t)
        out.append(slab(x0, x0 + t, 0.05, h - t, -d / 2, d / 2, mat))
    for sx in (-1, 1):
        x0, x1 = (w / 6, w / 2) if sx > 0 else (-w / 2, -w / 6)
        out.append(slab(x0 + 0.01, x1 - 0.01, 0.08, h - 0.03, d / 2 - 0.02, d / 2, mat))
    out.append(slab(-w / 6, w / 6, (h + 0.05) / 2, (h + 0.05) / 2 + t, -d / 2, d / 2 - 0.02, mat))
    return out


def bookshelf(size: Size, rng: np.random.Generator, books: bool = True) -> list[Part]:
    """Open shelving: sides, back, 4–6 shelves, rows of coloured books."""
    w, h, d = size
    mat = wood(rng)
    t = 0.025
    out = [slab(-w / 2, -w / 2 + t, 0, h, -d / 2, d / 2, mat), slab(w / 2 - t, w / 2, 0, h, -d / 2, d / 2, mat),
           slab(-w / 2 + t, w / 2 - t, 0, h, -d / 2, -d / 2 + 0.01, mat)]
    n = int(np.clip(round(h / 0.38), 2, 6))
    gap = (h - t) / n
    for i in range(n + 1):
        y = i * gap
        out.append(slab(-w / 2 + t, w / 2 - t, y, y + t, -d / 2, d / 2, mat))
        if books and i < n and rng.random() < 0.85:
            x = -w / 2 + t + 0.01
            end = w / 2 - t - rng.uniform(0.05, 0.3) * w
            while x < end:
                bw = float(rng.uniform(0.02, 0.05))
                bh = float(rng.uniform(0.6, 0.9)) * (gap - t)
                col = tinted("paper", pick(rng, (*FABRICS, (0.8, 0.2, 0.15), (0.9, 0.8, 0.3))))
                out.append(slab(x, min(x + bw, end), y + t, y + t + bh, -d / 2 + 0.02, d / 2 - 0.03, col))
                x += bw + 0.003
    return out


def shoe_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """Two or three slatted open shelves with a few pairs of shoes."""
    w, _h, d = size
    out = bookshelf(size, rng, books=False)
    for k in range(int(rng.integers(2, 5))):
        x = -w / 2 + 0.08 + k * 0.17
        if x + 0.14 > w / 2 - 0.03:
            break
        col = tinted("leather", pick(rng, ((0.1, 0.1, 0.1), (0.4, 0.25, 0.15), (0.9, 0.9, 0.9))))
        out.append(slab(x, x + 0.06, 0.025, 0.1, -d / 2 + 0.03, d / 2 - 0.02, col))
        out.append(slab(x + 0.07, x + 0.13, 0.025, 0.1, -d / 2 + 0.03, d / 2 - 0.02, col))
    return out


def filing_cabinet(size: Size, rng: np.random.Generator) -> list[Part]:
    """Grey steel cabinet of two to four drawers with label holders and handles."""
    _w, h, _d = size
    n = int(np.clip(round(h / 0.32), 2, 4))
    return cabinet_body(size, rng, drawers=n, plinth=False,
                        material=tinted("metal", pick(rng, ((0.6, 0.62, 0.64), (0.3, 0.32, 0.35), (0.85, 0.85, 0.82)))))


def coat_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """A pole on a tripod foot with hooks and a coat or two."""
    w, h, d = size
    mat = wood(rng) if rng.random() < 0.6 else "metal_dark"
    r = min(w, d) / 2
    out = [cylinder(0.02, h - 0.02, mat, segments=10, center=(0, (h - 0.02) / 2, 0)),
           cylinder(0.03, 0.03, mat, segments=10, center=(0, h - 0.015, 0))]
    for k in range(3):
        a = 2 * np.pi * k / 3
        out.append(bar((0, 0.25, 0), (r * 0.9 * np.cos(a), 0.0125, r * 0.9 * np.sin(a)), 0.025, mat))
        out.append(bar((0, h - 0.15, 0), (0.35 * r * np.cos(a + 1), h - 0.08, 0.35 * r * np.sin(a + 1)), 0.015, mat))
    if rng.random() < 0.7:
        out.append(blob(0.14, fabric(rng), (0.1 * r, h - 0.45, 0.25 * r), rng, scale=(0.9, 2.2, 0.6)))
    return out

