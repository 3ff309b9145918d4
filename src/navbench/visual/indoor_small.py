"""Parametric, seeded meshes of small indoor objects that stand on furniture (electronics,
tableware, decor); same contract as ``visual.indoor_furniture``."""

from __future__ import annotations

import numpy as np

from navbench.visual.compose import bar, blob, lathe, open_box, slab
from navbench.visual.indoor_furniture import FABRICS, Size, fabric, pick, wood
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder

BRIGHT = ((0.8, 0.2, 0.15), (0.2, 0.45, 0.75), (0.95, 0.8, 0.2), (0.25, 0.6, 0.35), (0.9, 0.9, 0.88),
          (0.15, 0.15, 0.15), (0.85, 0.45, 0.6))


def bright(rng: np.random.Generator, base: str = "plastic") -> str:
    """A vivid tinted material key."""
    return tinted(base, pick(rng, BRIGHT))


def _vessel(size: Size, profile: list[tuple[float, float]], material: str) -> Part:
    """A lathe of a unit profile (radius 0..1 of the half footprint, y 0..1 of the height)."""
    w, h, d = size
    return lathe([(r * min(w, d) / 2, y * h) for r, y in profile], material, segments=18)


# --------------------------------------------------------------------------- electronics
def tv(size: Size, rng: np.random.Generator) -> list[Part]:
    """Thin black bezel with a dark screen on a low foot."""
    w, h, d = size
    out = [slab(-w / 2, w / 2, 0.08 * h, h, -0.02, 0.02, "plastic_dark"),
           slab(-w / 2 + 0.015, w / 2 - 0.015, 0.08 * h + 0.015, h - 0.015, 0.02, 0.025, "screen"),
           slab(-0.15 * w, 0.15 * w, 0, 0.015, -d / 2, d / 2, "plastic_dark"),
           slab(-0.03, 0.03, 0.015, 0.08 * h, -0.02, 0.02, "plastic_dark")]
    return out


def monitor(size: Size, rng: np.random.Generator) -> list[Part]:
    """Screen panel on a neck and a flat foot."""
    w, h, d = size
    return [slab(-w / 2, w / 2, 0.3 * h, h, -0.015, 0.015, "plastic_dark"),
            slab(-w / 2 + 0.01, w / 2 - 0.01, 0.3 * h + 0.01, h - 0.01, 0.015, 0.02, "screen"),
            slab(-0.025, 0.025, 0.01, 0.3 * h + 0.1 * h, -d / 2 + 0.02, -0.015, "plastic_dark"),
            slab(-0.12 * w, 0.12 * w, 0, 0.012, -d / 2, d / 2, "plastic_dark")]


def keyboard(size: Size, rng: np.random.Generator) -> list[Part]:
    """Flat tray with rows of key caps."""
    w, h, d = size
    mat = "plastic_dark" if rng.random() < 0.6 else "plastic"
    keys = "plastic" if mat == "plastic_dark" else "plastic_dark"
    out = [slab(-w / 2, w / 2, 0, 0.5 * h, -d / 2, d / 2, mat)]
    for r in range(4):
        z = -d / 2 + (r + 0.6) * d / 4.6
        out.append(slab(-w / 2 + 0.01, w / 2 - 0.01, 0.5 * h, h, z, z + 0.7 * d / 4.6, keys))
    return out


def laptop(size: Size, rng: np.random.Generator) -> list[Part]:
    """A closed laptop: base, a lid with a logo, a dark hinge strip at the back."""
    w, h, d = size
    mat = tinted("metal", pick(rng, ((0.75, 0.76, 0.78), (0.25, 0.25, 0.27))))
    return [slab(-w / 2, w / 2, 0, 0.55 * h, -d / 2, d / 2, mat),
            slab(-w / 2, w / 2, 0.55 * h, 0.62 * h, -d / 2 + 0.005, d / 2, "plastic_dark"),
            slab(-w / 2, w / 2, 0.62 * h, h, -d / 2, d / 2, mat),
            slab(-0.04, 0.04, h, h + 0.0005, -0.04, 0.04, "chrome"),
            slab(-w / 2 + 0.02, w / 2 - 0.02, 0.5 * h, 0.9 * h, -d / 2 - 0.0, -d / 2 + 0.01, "plastic_dark")]


def printer(size: Size, rng: np.random.Generator) -> list[Part]:
    """Body with a paper tray out front, an output slot and a small control panel."""
    w, h, d = size
    mat = pick(rng, ((0.9, 0.9, 0.88), (0.2, 0.2, 0.22)))
    m = tinted("plastic", mat)
    return [slab(-w / 2, w / 2, 0, 0.8 * h, -d / 2, d / 2 - 0.04, m),
            slab(-w / 2 + 0.03, w / 2 - 0.03, 0.8 * h, h, -d / 2, -d / 2 + 0.6 * d, m),
            slab(-w / 2 + 0.05, w / 2 - 0.05, 0.1 * h, 0.15 * h, d / 2 - 0.04, d / 2, m),
            slab(-w / 2 + 0.06, w / 2 - 0.06, 0.5 * h, 0.52 * h, d / 2 - 0.06, d / 2 - 0.02, "paper"),
            slab(w / 2 - 0.12, w / 2 - 0.02, 0.8 * h - 0.01, 0.8 * h + 0.005, d / 2 - 0.12, d / 2 - 0.05, "screen")]


def speaker(size: Size, rng: np.random.Generator) -> list[Part]:
    """Cabinet with a tweeter and a woofer cone on the front."""
    w, h, d = size
    out = [slab(-w / 2, w / 2, 0, h, -d / 2, d / 2 - 0.01, wood(rng) if rng.random() < 0.5 else "plastic_dark")]
    for cy, r in ((0.72 * h, 0.18 * w), (0.35 * h, 0.38 * w)):
        c = cylinder(r, 0.012, "rubber", segments=16)
        v = c.vertices[:, [0, 2, 1]] * np.array([1, -1, 1]) + np.array([0, cy, d / 2 - 0.006])
        out.append(Part(v, c.faces[:, ::-1].copy(), c.uv, c.material))
    return out


def game_console(size: Size, rng: np.random.Generator) -> list[Part]:
    """Slim box with a glowing strip and a controller beside it."""
    w, h, d = size
    mat = "plastic_dark" if rng.random() < 0.6 else "plastic"
    return [slab(-w / 2, w / 2 - 0.12 * w, 0, h, -d / 2, d / 2, mat),
            slab(-w / 2 + 0.02, w / 2 - 0.14 * w, 0.7 * h, 0.8 * h, d / 2, d / 2 + 0.0, "bulb"),
            slab(w / 2 - 0.1 * w, w / 2, 0, 0.4 * h, d / 2 - 0.4 * d, d / 2 - 0.1 * d, "plastic_dark")]


def remote_control(size: Size, rng: np.random.Generator) -> list[Part]:
    """Slim bar with a few buttons."""
    w, h, d = size
    out = [slab(-w / 2, w / 2, 0, 0.7 * h, -d / 2, d / 2, "plastic_dark")]
    for k in range(4):
        z = -d / 2 + (k + 1) * d / 5
        out.append(box((0.5 * w, 0.3 * h, 0.02 * d + 0.01), bright(rng), center=(0, 0.85 * h, z)))
    return out


def alarm_clock(size: Size, rng: np.random.Generator) -> list[Part]:
    """Box clock with a dark face, two bells on top."""
    w, h, d = size
    m = bright(rng)
    out = [slab(-w / 2, w / 2, 0, 0.75 * h, -d / 2, d / 2 - 0.004, m),
           slab(-w / 2 + 0.01, w / 2 - 0.01, 0.1 * h, 0.65 * h, d / 2 - 0.004, d / 2, "screen")]
    for sx in (-1, 1):
        out.append(cylinder(0.2 * w, 0.25 * h, "chrome", segments=10, center=(sx * 0.25 * w, 0.875 * h, 0), radius_top=0.05 * w))
    return out


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
    """Jug body on a base, a handle at the back and a spout at the front."""
    w, h, d = size
    m = tinted("plastic", pick(rng, ((0.95, 0.95, 0.95), (0.15, 0.15, 0.15), (0.7, 0.15, 0.15))))
    r = 0.35 * min(w, d)
    return [cylinder(r * 1.1, 0.05 * h, "plastic_dark", segments=16, center=(0, 0.025 * h, -0.1 * d)),
            cylinder(r, 0.75 * h, m, segments=16, center=(0, 0.05 * h + 0.375 * h, -0.1 * d), radius_top=0.8 * r),
            bar((0, 0.3 * h, -0.1 * d - r), (0, 0.95 * h, -d / 2 + 0.01), 0.025, m),
            bar((0, 0.65 * h, -0.1 * d + 0.8 * r), (0, 0.85 * h, d / 2 - 0.01), 0.02, m)]


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
    """Tall back column with water tank, a head over a drip tray, and a cup."""
    w, h, d = size
    m = tinted("plastic", pick(rng, ((0.15, 0.15, 0.15), (0.85, 0.85, 0.86), (0.6, 0.1, 0.1))))
    return [slab(-w / 2, w / 2, 0, h, -d / 2, -d / 2 + 0.45 * d, m),
            slab(-w / 2, w / 2, 0.7 * h, h, -d / 2 + 0.45 * d, d / 2, m),
            slab(-w / 2, w / 2, 0, 0.08 * h, -d / 2 + 0.45 * d, d / 2, "chrome"),
            cylinder(0.035, 0.09, "ceramic", segments=12, center=(0, 0.08 * h + 0.045, 0.2 * d)),
            slab(-w / 2 + 0.02, w / 2 - 0.02, 0.75 * h, 0.9 * h, d / 2, d / 2 + 0.0, "screen")]


def cutting_board(size: Size, rng: np.random.Generator) -> list[Part]:
    """A wooden board with a handle cut-out end."""
    w, h, d = size
    m = wood(rng)
    return [slab(-w / 2, w / 2 - 0.06, 0, h, -d / 2, d / 2, m), slab(w / 2 - 0.06, w / 2, 0, h, -0.04, 0.04, m)]


def soap_dispenser(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bottle with a pump head and spout."""
    w, h, d = size
    return [_vessel((w, 0.75 * h, d), [(0, 0), (1.0, 0), (1.0, 0.9), (0.4, 1.0), (0, 1.0)], bright(rng, "ceramic")),
            cylinder(0.1 * w, 0.25 * h, "chrome", segments=8, center=(0, 0.875 * h, 0)),
            bar((0, 0.95 * h, 0), (0, 0.95 * h, d / 2 - 0.003), 0.008, "chrome")]


def laundry_detergent(size: Size, rng: np.random.Generator) -> list[Part]:
    """A jug with a handle and a coloured cap."""
    w, h, d = size
    m = bright(rng)
    return [slab(-w / 2, w / 2, 0, 0.82 * h, -d / 2, d / 2, m),
            slab(-w / 2, -w / 2 + 0.3 * w, 0.82 * h, h, -0.02, 0.02, m),
            cylinder(0.12 * w, 0.12 * h, bright(rng), segments=10, center=(0.25 * w, 0.88 * h, 0))]


def vase(size: Size, rng: np.random.Generator) -> list[Part]:
    """A lathed vase (round-bellied or slender, seeded) with an optional flower bunch."""
    w, h, d = size
    belly = rng.uniform(0.8, 1.0)
    neck = rng.uniform(0.35, 0.6)
    m = tinted("ceramic", pick(rng, ((0.2, 0.35, 0.6), (0.9, 0.9, 0.88), (0.7, 0.3, 0.2), (0.3, 0.55, 0.45))))
    out = [_vessel((w, 0.8 * h, d), [(0, 0), (0.55, 0), (belly, 0.35), (neck, 0.85), (neck + 0.1, 1.0), (0, 1.0)], m)]
    if rng.random() < 0.6:
        r = 0.35 * min(w, d)
        out.append(blob(r, tinted("plastic", pick(rng, BRIGHT)), (0, 0.9 * h, 0), rng,
                        scale=(1.0, 0.09 * h / r, 1.0)))
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
    """An upright frame (four bars) around a coloured picture, with a rear stand."""
    w, h, d = size
    fm = wood(rng) if rng.random() < 0.6 else "metal_dark"
    t = 0.12 * min(w, h)
    z0, z1 = -0.01, 0.01
    out = [slab(-w / 2, w / 2, 0, t, z0, z1, fm), slab(-w / 2, w / 2, h - t, h, z0, z1, fm),
           slab(-w / 2, -w / 2 + t, t, h - t, z0, z1, fm), slab(w / 2 - t, w / 2, t, h - t, z0, z1, fm),
           slab(-w / 2 + t, w / 2 - t, t, h - t, z0, z0 + 0.012, tinted("paper", pick(rng, BRIGHT + FABRICS)))]
    out.append(bar((0, 0.6 * h, z0), (0, 0.005, -d / 2 + 0.005), 0.01, fm))
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
