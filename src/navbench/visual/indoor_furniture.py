"""Parametric, seeded meshes of indoor furniture (beds, seats, tables; casework is in
``visual.indoor_storage``). Each builder is ``fn((w, h, d), rng) -> list[Part]`` in the local frame of
``visual.mesh`` (footprint centred, bottom at y = 0, front +Z); all parts stay inside the box."""

from __future__ import annotations

import numpy as np

from navbench.visual import finishes as fin
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


def wood(rng: np.random.Generator, category: str = "table") -> str:
    """A wood (or painted) finish for ``category`` (``visual.finishes``)."""
    return fin.case(rng, category)


def fabric(rng: np.random.Generator, leather: bool = False) -> str:
    """An upholstery material key (linen, velvet, tweed; ``leather`` allowed or not)."""
    return fin.upholstery(rng, leather)


def handle(x: float, y: float, z: float, length: float, vertical: bool = False) -> Part:
    """A small metal pull on a front face at ``z`` (m)."""
    s = (0.015, length, 0.015) if vertical else (length, 0.015, 0.015)
    return box(s, "chrome", center=(x, y, z + 0.0075))


# --------------------------------------------------------------------------- sleeping
def bed(size: Size, rng: np.random.Generator) -> list[Part]:
    """Frame on short legs, mattress, a duvet folded back below the pillows, pillows at the
    head (back, -Z) and a headboard (wooden, or an upholstered panel half of the time)."""
    w, h, d = size
    frame = wood(rng, "bed")
    hb_t = min(0.06, d * 0.04)
    leg_h = 0.12 * h
    fr_top = 0.45 * h
    mat_top = 0.8 * h
    out = legs(w, d, leg_h, 0.06, frame)
    out.append(slab(-w / 2, w / 2, leg_h, fr_top, -d / 2 + hb_t, d / 2, frame))
    out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, fr_top, mat_top, -d / 2 + hb_t, d / 2 - 0.02, "linen@f4f2ee"))
    duvet = fin.bedding(rng)
    z_fold = -d / 2 + hb_t + 0.3 * d
    out.append(slab(-w / 2 + 0.005, w / 2 - 0.005, mat_top - 0.12 * h, mat_top + 0.03 * h, z_fold, d / 2 - 0.005, duvet))
    out.append(slab(-w / 2 + 0.01, w / 2 - 0.01, mat_top + 0.03 * h, mat_top + 0.05 * h, z_fold, z_fold + 0.18,
                    "linen@f7f6f2"))  # the sheet folded over the duvet
    if rng.random() < 0.6:  # a throw across the foot
        out.append(slab(-w / 2, w / 2, mat_top - 0.1 * h, mat_top + 0.045 * h, d / 2 - 0.45, d / 2 - 0.1,
                        fin.upholstery(rng, leather=False)))
    n = 2 if w > 1.2 else 1
    pw = (w - 0.1) / n - 0.05
    for i in range(n):
        cx = -w / 2 + 0.05 + (i + 0.5) * (w - 0.1) / n
        out.append(blob(0.5, "linen@fbfaf7", (cx, mat_top + 0.07 * h, -d / 2 + hb_t + 0.11 * d), rng,
                        scale=(pw, 0.14 * h, 0.16 * d)))
    if rng.random() < 0.5:
        out.append(slab(-w / 2, w / 2, leg_h, h, -d / 2, -d / 2 + hb_t, frame))
    else:  # upholstered headboard panel on the frame
        up = fabric(rng)
        out.append(slab(-w / 2, w / 2, leg_h, fr_top, -d / 2, -d / 2 + hb_t, frame))
        out.append(slab(-w / 2, w / 2, fr_top, h, -d / 2, -d / 2 + hb_t, up))
    return out


# --------------------------------------------------------------------------- seating
def chair(size: Size, rng: np.random.Generator) -> list[Part]:
    """Four legs, a seat at ~48 % height, a back rising from the rear (-Z) edge."""
    w, h, d = size
    mat = wood(rng, "chair") if rng.random() < 0.75 else "black_metal"
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
    mat = "black_metal" if rng.random() < 0.5 else wood(rng, "chair")
    seat = fabric(rng, leather=True) if rng.random() < 0.4 else wood(rng, "chair")
    out = [cylinder(r, 0.05, seat, segments=16, center=(0, h - 0.025, 0))]
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
    up = tinted("tweed", (0.2, 0.2, 0.22)) if rng.random() < 0.5 else tinted("leather", (0.1, 0.1, 0.1))
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
    up = fabric(rng, leather=True)
    arm = min(0.2, 0.12 * w + 0.06)
    back = min(0.25, 0.28 * d)
    foot = 0.08
    seat_y = 0.5 * h
    n = seats or max(1, round((w - 2 * arm) / 0.6))
    out = legs(w - 0.05, d - 0.05, foot, 0.05, wood(rng, "chair") if rng.random() < 0.6 else "black_metal")
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
    up = fabric(rng, leather=True)
    out = legs(w - 0.04, d - 0.04, 0.06, 0.04, wood(rng, "chair"))
    if rng.random() < 0.5:
        out.append(cylinder(min(w, d) / 2, h - 0.06, up, segments=20, center=(0, 0.06 + (h - 0.06) / 2, 0)))
    else:
        out.append(slab(-w / 2, w / 2, 0.06, h - 0.03, -d / 2, d / 2, up))
        out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, h - 0.03, h, -d / 2 + 0.02, d / 2 - 0.02, up))
    return out


def bench(size: Size, rng: np.random.Generator) -> list[Part]:
    """An entryway bench: a seat (slatted wood, or a seat cushion half of the time) on two
    trestle ends, a shoe shelf below with a pair of shoes and a woven basket."""
    w, h, d = size
    mat = wood(rng, "bench")
    cushion = rng.random() < 0.5
    top = h - (0.06 if cushion else 0.0)
    out = []
    n = 3
    for i in range(n):
        z0 = -d / 2 + i * d / n
        out.append(slab(-w / 2, w / 2, top - 0.04, top, z0 + 0.01, z0 + d / n - 0.01, mat))
    if cushion:
        out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, top, h, -d / 2 + 0.015, d / 2 - 0.015, fabric(rng)))
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.04)
        out.append(slab(x - 0.03, x + 0.03, 0, top - 0.04, -d / 2 + 0.01, d / 2 - 0.01, mat))
    out.append(slab(-w / 2 + 0.07, w / 2 - 0.07, 0.1, 0.13, -d / 2 + 0.02, d / 2 - 0.02, mat))
    shoe = tinted("leather", pick(rng, ((0.1, 0.1, 0.1), (0.45, 0.28, 0.15), (0.85, 0.85, 0.85))))
    for dx in (0.0, 0.09):
        out.append(slab(-w / 2 + 0.12 + dx, -w / 2 + 0.19 + dx, 0.13, 0.21, -0.11, 0.13, shoe))
    out.append(slab(w / 2 - 0.38, w / 2 - 0.1, 0.13, 0.13 + min(0.2, top - 0.2), -d / 2 + 0.05, d / 2 - 0.05,
                    tinted("wicker", (1.0, 1.0, 1.0))))
    return out


# --------------------------------------------------------------------------- tables
def table(size: Size, rng: np.random.Generator, *, apron: bool = True, shelf: bool = False) -> list[Part]:
    """A top (~4 cm) over four legs (square or tapered), or a round top on a pedestal."""
    w, h, d = size
    mat = wood(rng, "table")
    top = min(0.045, 0.1 * h)
    if abs(w - d) < 0.08 and rng.random() < 0.5:  # round pedestal table
        r = min(w, d) / 2
        return [cylinder(r, top, mat, segments=24, center=(0, h - top / 2, 0)),
                cylinder(0.05, h - top, mat, segments=10, center=(0, (h - top) / 2, 0)),
                cylinder(0.45 * r, 0.04, mat, segments=16, center=(0, 0.02, 0))]
    t = float(np.clip(0.06 * min(w, d), 0.03, 0.07))
    leg_mat = mat if rng.random() < 0.7 else "black_metal"
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
    mat = wood(rng, "desk")
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


def coat_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """A pole on a tripod foot with hooks and a coat or two."""
    w, h, d = size
    mat = wood(rng, "chair") if rng.random() < 0.6 else "black_metal"
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

