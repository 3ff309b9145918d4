"""Parametric, seeded meshes of small indoor objects that stand on furniture (tableware,
kitchen appliances, decor; electronics are in ``visual.indoor_electronics``); same contract as
``visual.indoor_furniture``."""

from __future__ import annotations

import numpy as np

from navbench.visual import finishes as fin
from navbench.visual.compose import bar, blob, decal, lathe, open_box, slab
from navbench.visual.indoor_electronics import BRIGHT, _facing, bright
from navbench.visual.indoor_furniture import FABRICS, Size, fabric, pick
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder


def _vessel(size: Size, profile: list[tuple[float, float]], material: str) -> Part:
    """A lathe of a unit profile (radius 0..1 of the half footprint, y 0..1 of the height)."""
    w, h, d = size
    return lathe([(r * min(w, d) / 2, y * h) for r, y in profile], material, segments=18)


# --------------------------------------------------------------------------- tableware, kitchen
def mug(size: Size, rng: np.random.Generator) -> list[Part]:
    """Open cylinder with a handle on +X."""
    w, h, d = size
    r = 0.38 * min(w, d)
    m = tinted("ceramic", pick(rng, BRIGHT))
    out = [cylinder(r, h, m, segments=16, center=(-0.1 * w, h / 2, 0), caps=False),
           cylinder(r, 0.01, m, segments=16, center=(-0.1 * w, 0.005, 0)),
           cylinder(r * 0.9, 0.005, "wood_dark", segments=16, center=(-0.1 * w, 0.8 * h, 0))]
    out.append(bar((r - 0.1 * w, 0.75 * h, 0), (w / 2 - 0.005, 0.65 * h, 0), 0.012, m))
    out.append(bar((w / 2 - 0.005, 0.65 * h, 0), (w / 2 - 0.005, 0.3 * h, 0), 0.012, m))
    out.append(bar((w / 2 - 0.005, 0.3 * h, 0), (r - 0.1 * w, 0.25 * h, 0), 0.012, m))
    return out


def cup(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tapered tumbler."""
    return [_vessel(size, [(0, 0), (0.75, 0), (1.0, 1.0), (0.92, 1.0), (0.7, 0.08), (0, 0.08)],
                    tinted("glass", pick(rng, ((0.7, 0.85, 0.9), (0.9, 0.9, 0.9)))))]


def plate(size: Size, rng: np.random.Generator) -> list[Part]:
    """A shallow dish with a raised rim."""
    return [_vessel(size, [(0, 0), (0.6, 0), (1.0, 1.0), (0.92, 1.0), (0.6, 0.3), (0, 0.3)],
                    tinted("ceramic", pick(rng, ((0.97, 0.97, 0.95), (0.8, 0.85, 0.9), (0.9, 0.8, 0.6)))))]


def fruit_bowl(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bowl with a few apples/oranges heaped inside."""
    w, h, d = size
    out = [_vessel((w, 0.6 * h, d), [(0, 0), (0.4, 0), (1.0, 1.0), (0.93, 1.0), (0.4, 0.1), (0, 0.1)],
                   tinted("ceramic", pick(rng, BRIGHT)))]
    r = min(0.16 * min(w, d), 0.3 * h)
    for k in range(4):
        a = 2 * np.pi * k / 4 + rng.uniform(0, 0.5)
        col = tinted("plastic", pick(rng, ((0.8, 0.1, 0.1), (0.95, 0.55, 0.1), (0.6, 0.8, 0.2), (0.95, 0.85, 0.2))))
        out.append(blob(r, col, (0.45 * r * 2 * np.cos(a), 0.3 * h + r, 0.45 * r * 2 * np.sin(a)), rng))
    out.append(blob(r, tinted("plastic", (0.8, 0.1, 0.1)), (0, h - 1.07 * r, 0), rng))
    return out


def pot(size: Size, rng: np.random.Generator) -> list[Part]:
    """Cooking pot: open steel cylinder with a lid, a knob and two side handles."""
    w, h, d = size
    r = 0.4 * min(w, d)
    m = tinted("metal", pick(rng, ((0.8, 0.8, 0.82), (0.2, 0.2, 0.22), (0.7, 0.25, 0.15))))
    return [cylinder(r, 0.85 * h, m, segments=18, center=(0, 0.425 * h, 0)),
            cylinder(r * 1.02, 0.05 * h, m, segments=18, center=(0, 0.875 * h, 0), radius_top=0.5 * r),
            cylinder(0.1 * r, 0.1 * h, "plastic_dark", segments=8, center=(0, 0.95 * h, 0)),
            slab(-w / 2, -r, 0.65 * h, 0.72 * h, -0.02, 0.02, "plastic_dark"),
            slab(r, w / 2, 0.65 * h, 0.72 * h, -0.02, 0.02, "plastic_dark")]


def kettle(size: Size, rng: np.random.Generator) -> list[Part]:
    """Electric jug kettle on its power base: a tapered body with a water window, a spout at
    the front, a tall handle at the back with the switch and its light, a lid with a knob."""
    w, h, d = size
    m = tinted(*(("stainless", (0.85, 0.86, 0.87)) if rng.random() < 0.4 else
                 ("plastic", pick(rng, ((0.95, 0.95, 0.95), (0.15, 0.15, 0.15), (0.7, 0.15, 0.15), (0.55, 0.7, 0.8))))))
    r = 0.34 * min(w, d)
    cz = -0.05 * d
    out = [cylinder(r * 1.1, 0.05 * h, "plastic_dark", segments=18, center=(0, 0.025 * h, cz)),
           cylinder(r, 0.72 * h, m, segments=18, center=(0, 0.05 * h + 0.36 * h, cz), radius_top=0.8 * r),
           cylinder(0.8 * r, 0.03 * h, "plastic_dark", segments=18, center=(0, 0.785 * h, cz), radius_top=0.7 * r),
           cylinder(0.12 * r, 0.05 * h, "plastic_dark", segments=8, center=(0, 0.82 * h, cz)),
           slab(-0.035, 0.035, 0.15 * h, 0.6 * h, cz + 0.98 * r - 0.02, cz + 0.98 * r - 0.005, "glass")]
    tip = (0, 0.82 * h, d / 2 - 0.005)  # spout: a tapering bar rising forward from the body
    out.append(bar((0, 0.6 * h, cz + 0.85 * r), tip, 0.03, m))
    hb, ht = (0, 0.2 * h, cz - 0.95 * r), (0, 0.78 * h, cz - 0.85 * r)
    out += [bar(hb, (0, 0.2 * h, -d / 2 + 0.015), 0.025, m), bar((0, 0.2 * h, -d / 2 + 0.015), (0, 0.85 * h, -d / 2 + 0.015), 0.028, m),
            bar((0, 0.85 * h, -d / 2 + 0.015), ht, 0.025, m)]
    out.append(box((0.016, 0.012, 0.02), "signal_red", center=(0, 0.86 * h, -d / 2 + 0.03)))  # switch light
    return out


def microwave(size: Size, rng: np.random.Generator) -> list[Part]:
    """Box with a dark window door on the left and a keypad column on the right."""
    w, h, d = size
    m = tinted("metal", pick(rng, ((0.85, 0.85, 0.86), (0.2, 0.2, 0.22), (0.95, 0.95, 0.94))))
    return [slab(-w / 2, w / 2, 0.01, h, -d / 2, d / 2 - 0.01, m),
            slab(-w / 2 + 0.02, w / 2 - 0.14, 0.04, h - 0.04, d / 2 - 0.01, d / 2, "screen"),
            slab(w / 2 - 0.12, w / 2 - 0.02, 0.05, h - 0.05, d / 2 - 0.01, d / 2, "plastic_dark"),
            slab(-w / 2 + 0.02, w / 2 - 0.02, 0, 0.01, -d / 2 + 0.02, d / 2 - 0.03, "rubber")]


def toaster(size: Size, rng: np.random.Generator) -> list[Part]:
    """Rounded box with two bread slots on top and a lever on the side."""
    w, h, d = size
    m = tinted("metal", pick(rng, ((0.85, 0.85, 0.86), (0.7, 0.15, 0.15), (0.95, 0.9, 0.8))))
    out = [slab(-w / 2, w / 2 - 0.02, 0, 0.92 * h, -d / 2, d / 2, m)]
    for sz in (-1, 1):
        out.append(slab(-0.35 * w, 0.3 * w, 0.92 * h, h, sz * 0.2 * d - 0.015, sz * 0.2 * d + 0.015, "plastic_dark"))
    out.append(slab(w / 2 - 0.02, w / 2, 0.5 * h, 0.6 * h, -0.02, 0.02, "plastic_dark"))
    return out


def coffee_machine(size: Size, rng: np.random.Generator) -> list[Part]:
    """An espresso machine (body, cup warmer on top, group head with a portafilter handle
    sticking out, drip tray with a grille, a cup under the spout, round buttons and a
    pressure gauge) or, a third of the time, a drip brewer with a glass carafe of coffee."""
    w, h, d = size
    m = tinted("stainless", (0.86, 0.87, 0.88)) if rng.random() < 0.5 else \
        tinted("plastic", pick(rng, ((0.12, 0.12, 0.13), (0.8, 0.15, 0.12), (0.93, 0.92, 0.88))))
    zf = d / 2
    if rng.random() < 0.35:  # drip brewer
        out = [slab(-w / 2, w / 2, 0, h, -d / 2, -d / 2 + 0.4 * d, m),
               slab(-w / 2, w / 2, 0.72 * h, h, -d / 2 + 0.4 * d, zf, m),
               slab(-w / 2, w / 2, 0, 0.06 * h, -d / 2 + 0.4 * d, zf, m),
               cylinder(0.3 * min(w, d), 0.5 * h, "glass", segments=14, center=(0, 0.06 * h + 0.25 * h, 0.1 * d),
                        radius_top=0.22 * min(w, d)),
               cylinder(0.27 * min(w, d), 0.22 * h, tinted("plastic", (0.2, 0.1, 0.05)), segments=14,
                        center=(0, 0.06 * h + 0.11 * h, 0.1 * d), radius_top=0.26 * min(w, d)),
               box((0.02, 0.02, 0.006), "signal_red", center=(w / 4, 0.04 * h, zf + 0.003))]
        return out
    bd = -d / 2 + 0.55 * d  # front face of the body
    out = [slab(-w / 2, w / 2, 0, h - 0.02, -d / 2, bd, m),
           slab(-w / 2, w / 2, h - 0.02, h, -d / 2, bd, "chrome"),  # cup warmer
           slab(-w / 2 + 0.01, w / 2 - 0.01, 0, 0.07 * h, bd, zf - 0.01, "chrome"),  # drip tray
           slab(-w / 2 + 0.02, w / 2 - 0.02, 0.07 * h, 0.075 * h, bd + 0.01, zf - 0.02, "grille"),
           cylinder(0.035, 0.05 * h, "chrome", segments=14, center=(0, 0.72 * h, bd + 0.04)),  # group head
           cylinder(0.032, 0.04 * h, "chrome", segments=14, center=(0, 0.67 * h, bd + 0.04)),  # portafilter
           bar((0, 0.67 * h, bd + 0.06), (0, 0.66 * h, zf - 0.005), 0.022, "plastic_dark"),  # its handle
           cylinder(0.03, 0.07, "ceramic", segments=12, center=(0, 0.075 * h + 0.035, bd + 0.04), radius_top=0.036)]
    out.append(_facing(cylinder(0.03, 0.01, "clock_face", segments=14), 0.85 * h, bd + 0.005))  # gauge
    for k in range(3):
        out.append(_facing(cylinder(0.01, 0.01, "chrome" if k else "signal_green", segments=8),
                           0.85 * h, bd + 0.005))
        out[-1] = Part(out[-1].vertices + np.array([0.05 + 0.025 * k - w * 0.0, 0.0, 0.0]), out[-1].faces,
                       out[-1].uv, out[-1].material)
    out.append(slab(-w / 2 - 0.0, -w / 2 + 0.02, 0.3 * h, 0.95 * h, -d / 2 + 0.02, -d / 2 + 0.15 * d, "glass"))
    return out


def cutting_board(size: Size, rng: np.random.Generator) -> list[Part]:
    """An end-grain wooden board with a handle, a chef's knife lying on it and a few slices
    (tomato, cucumber) beside a half vegetable."""
    w, h, d = size
    m = fin.species(rng, ("maple", "oak", "walnut")[int(rng.integers(3))])
    out = [slab(-w / 2, w / 2 - 0.07, 0, h, -d / 2, d / 2, m), slab(w / 2 - 0.07, w / 2, 0, h, -0.035, 0.035, m),
           slab(-0.3 * w, 0.2 * w, h, h + 0.003, 0.25 * d, 0.25 * d + 0.04, "stainless"),  # blade
           slab(0.2 * w, 0.38 * w, h, h + 0.015, 0.25 * d + 0.005, 0.25 * d + 0.035, "black_metal")]  # handle
    veg = tinted("plastic_matte", pick(rng, ((0.85, 0.15, 0.1), (0.35, 0.6, 0.2), (0.95, 0.6, 0.1))))
    for k in range(3):
        out.append(cylinder(0.03, 0.008, veg, segments=12, center=(-0.25 * w + 0.065 * k, h + 0.004, -0.15 * d)))
    out.append(blob(0.035, veg, (0.18 * w, h + 0.012, -0.15 * d), rng, scale=(1.0, 0.45, 1.0)))
    return out


def soap_dispenser(size: Size, rng: np.random.Generator) -> list[Part]:
    """A pump bottle: a pale glazed or plastic body with a label band, a chrome collar, pump
    stem and a pump head whose spout points forward."""
    w, h, d = size
    body = tinted("ceramic", pick(rng, ((0.95, 0.95, 0.93), (0.75, 0.88, 0.95), (0.95, 0.8, 0.85), (0.8, 0.92, 0.8),
                                        (0.55, 0.6, 0.62))))
    bh = 0.66 * h
    return [_vessel((w, bh, d), [(0, 0), (0.95, 0), (1.0, 0.08), (1.0, 0.85), (0.55, 1.0), (0, 1.0)], body),
            cylinder(0.49 * min(w, d), 0.3 * bh, "paper@fbfaf5", segments=16, center=(0, 0.45 * bh, 0), caps=False),
            cylinder(0.22 * w, 0.06 * h, "chrome", segments=12, center=(0, bh + 0.03 * h, 0)),
            cylinder(0.07 * w, 0.18 * h, "chrome", segments=8, center=(0, bh + 0.15 * h, 0)),
            slab(-0.16 * w, 0.16 * w, 0.9 * h, 0.97 * h, -0.16 * d, 0.2 * d, "chrome"),
            bar((0, 0.94 * h, 0.15 * d), (0, 0.9 * h, d / 2 - 0.004), 0.01, "chrome")]


def laundry_detergent(size: Size, rng: np.random.Generator) -> list[Part]:
    """A jug with a handle and a coloured cap."""
    w, h, d = size
    m = bright(rng)
    return [slab(-w / 2, w / 2, 0, 0.82 * h, -d / 2, d / 2, m),
            slab(-w / 2, -w / 2 + 0.3 * w, 0.82 * h, h, -0.02, 0.02, m),
            cylinder(0.12 * w, 0.12 * h, bright(rng), segments=10, center=(0.25 * w, 0.88 * h, 0))]


def vase(size: Size, rng: np.random.Generator) -> list[Part]:
    """A glazed lathed vase (round-bellied or slender, seeded) holding a bunch of flowers on
    green stems, or (a fifth of the time) a few bare branches."""
    w, h, d = size
    belly = rng.uniform(0.75, 1.0)
    neck = rng.uniform(0.35, 0.55)
    vh = float(rng.uniform(0.5, 0.62)) * h
    m = tinted("ceramic", pick(rng, ((0.2, 0.35, 0.6), (0.95, 0.95, 0.93), (0.7, 0.3, 0.2), (0.3, 0.55, 0.45),
                                     (0.1, 0.1, 0.12), (0.85, 0.75, 0.45))))
    out = [_vessel((0.8 * w, vh, 0.8 * d), [(0, 0), (0.55, 0), (belly, 0.35), (neck, 0.85), (neck + 0.1, 1.0),
                                             (0, 1.0)], m)]
    mouth = (neck + 0.05) * 0.4 * min(w, d)
    stems = "foliage@2e6b2a"
    branches = rng.random() < 0.2
    heads = [tinted("plastic_matte", pick(rng, ((0.95, 0.3, 0.35), (0.98, 0.85, 0.2), (0.95, 0.95, 0.95),
                                                 (0.75, 0.4, 0.85), (0.98, 0.55, 0.2)))) for _ in range(2)]
    n = int(rng.integers(5, 9))
    for k in range(n):
        a = 2 * np.pi * (k / n + rng.uniform(0, 0.1))
        spread = float(rng.uniform(0.55, 1.0))
        tip = (spread * 0.42 * w * np.cos(a), float(rng.uniform(0.8, 0.97)) * h - 0.03, spread * 0.42 * d * np.sin(a))
        base = (0.3 * mouth * np.cos(a), vh - 0.01, 0.3 * mouth * np.sin(a))
        out.append(bar(base, tip, 0.006, "wood_dark" if branches else stems))
        if not branches:
            out.append(blob(0.03 + 0.012 * float(rng.random()), heads[k % 2], tip, rng))
        else:
            out.append(bar(tip, (tip[0] * 1.05, min(h - 0.005, tip[1] + 0.03), tip[2] * 0.9), 0.004, "wood_dark"))
    return out


def candle(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wax column on a holder with a flame."""
    w, h, d = size
    r = 0.35 * min(w, d)
    return [cylinder(0.5 * min(w, d), 0.1 * h, "chrome", segments=12, center=(0, 0.05 * h, 0)),
            cylinder(r, 0.75 * h, tinted("paper", pick(rng, ((0.97, 0.95, 0.88), (0.8, 0.2, 0.2), (0.9, 0.85, 0.6)))),
                     segments=12, center=(0, 0.1 * h + 0.375 * h, 0)),
            blob(0.25 * r, "bulb", (0, 0.92 * h, 0), rng, scale=(1.0, 2.0, 1.0))]


def book(size: Size, rng: np.random.Generator) -> list[Part]:
    """Lying book: two covers, cream page block, spine on -X."""
    w, h, d = size
    c = tinted("paper", pick(rng, (*FABRICS, (0.8, 0.2, 0.15))))
    t = 0.12 * h
    return [slab(-w / 2, w / 2, 0, t, -d / 2, d / 2, c), slab(-w / 2, w / 2, h - t, h, -d / 2, d / 2, c),
            slab(-w / 2, -w / 2 + 0.01, t, h - t, -d / 2, d / 2, c),
            slab(-w / 2 + 0.01, w / 2 - 0.005, t, h - t, -d / 2 + 0.005, d / 2 - 0.005, "paper")]


def tissue_box(size: Size, rng: np.random.Generator) -> list[Part]:
    """Printed box with a tissue puffing out of the top slot."""
    w, h, d = size
    return [slab(-w / 2, w / 2, 0, 0.8 * h, -d / 2, d / 2, bright(rng, "paper")),
            blob(0.2 * w, "paper", (0, 0.85 * h, 0), rng, scale=(1.0, 0.2 * h / max(0.2 * w, 1e-3), 0.6))]


def picture_frame(size: Size, rng: np.random.Generator) -> list[Part]:
    """An upright photo frame: a moulded frame (wood, black or silver), a white mat, a photo
    behind glass, and a rear stand."""
    w, h, d = size
    fm = fin.case(rng, "frame") if rng.random() < 0.6 else ("black_metal", "chrome")[int(rng.integers(2))]
    t = 0.1 * min(w, h)
    z0, z1 = -0.01, 0.012
    out = [slab(-w / 2, w / 2, 0, t, z0, z1, fm), slab(-w / 2, w / 2, h - t, h, z0, z1, fm),
           slab(-w / 2, -w / 2 + t, t, h - t, z0, z1, fm), slab(w / 2 - t, w / 2, t, h - t, z0, z1, fm),
           slab(-w / 2 + t, w / 2 - t, t, h - t, z0, z0 + 0.008, "paper@faf8f2")]  # mat
    m = 0.08 * min(w, h)
    out.append(decal(-w / 2 + t + m, w / 2 - t - m, t + m, h - t - m, z0 + 0.01, "photo"))
    out.append(bar((0, 0.6 * h, z0), (0, 0.005, -d / 2 + 0.005), 0.012, fm if fm != "chrome" else "black_metal"))
    return out


def jewelry_box(size: Size, rng: np.random.Generator) -> list[Part]:
    """A lidded box with a gold clasp."""
    w, h, d = size
    m = tinted("leather", pick(rng, ((0.5, 0.1, 0.15), (0.1, 0.1, 0.3), (0.3, 0.2, 0.12))))
    return [slab(-w / 2, w / 2, 0, 0.65 * h, -d / 2, d / 2, m),
            slab(-w / 2 - 0.0, w / 2, 0.67 * h, h, -d / 2, d / 2, m),
            box((0.02, 0.02, 0.006), tinted("chrome", (0.9, 0.75, 0.3)), center=(0, 0.65 * h, d / 2 - 0.003))]


def potted_plant(size: Size, rng: np.random.Generator) -> list[Part]:
    """A small pot plant (same shape family as ``plant``)."""
    from navbench.visual.indoor_fixtures import plant

    return plant(size, rng)


def pillow(size: Size, rng: np.random.Generator) -> list[Part]:
    """A plump cushion: flattened lumpy ellipsoid."""
    w, h, d = size
    return [blob(0.5, fabric(rng), (0, h / 2, 0), rng, scale=(0.9 * w, 0.9 * h, 0.9 * d))]


def kitchen_bin(size: Size, rng: np.random.Generator) -> list[Part]:
    """Open crate-like bin (fallback for small containers)."""
    w, h, d = size
    return open_box(w, h, d, 0.01, bright(rng))
