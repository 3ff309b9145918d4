"""Parametric, seeded meshes of home electronics (TV, monitor, keyboard, laptop, printer,
speaker, game console, remote control, alarm clock); same contract as
``visual.indoor_furniture``. Each carries the detail that names it: a lit picture on a screen,
keys on a keyboard, a paper tray and control panel on a printer, a grille and cones on a
speaker, a dial on a clock.
"""

from __future__ import annotations

import numpy as np

from navbench.visual import finishes as fin
from navbench.visual.compose import bar, decal, lay_flat, slab
from navbench.visual.indoor_furniture import Size, pick
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder

BRIGHT = ((0.8, 0.2, 0.15), (0.2, 0.45, 0.75), (0.95, 0.8, 0.2), (0.25, 0.6, 0.35), (0.9, 0.9, 0.88),
          (0.15, 0.15, 0.15), (0.85, 0.45, 0.6))


def bright(rng: np.random.Generator, base: str = "plastic") -> str:
    """A vivid tinted material key."""
    return tinted(base, pick(rng, BRIGHT))


def _facing(p: Part, cy: float, z: float) -> Part:
    """A vertical-axis cylinder turned to face +Z, its centre at height ``cy`` and depth ``z``."""
    v = p.vertices[:, [0, 2, 1]] * np.array([1, -1, 1]) + np.array([0, cy, z])
    return Part(v, p.faces[:, ::-1].copy(), p.uv, p.material)


def tv(size: Size, rng: np.random.Generator) -> list[Part]:
    """Thin black bezel around a lit picture, on a centre foot or two splayed feet."""
    w, h, d = size
    y0 = 0.08 * h
    out = [slab(-w / 2, w / 2, y0, h, -0.025, 0.015, "plastic_dark"),
           decal(-w / 2 + 0.012, w / 2 - 0.012, y0 + 0.012, h - 0.012, 0.018, "screen_tv")]
    if rng.random() < 0.5:
        out += [slab(-0.18 * w, 0.18 * w, 0, 0.015, -d / 2, d / 2, "plastic_dark"),
                slab(-0.03, 0.03, 0.015, y0 + 0.05, -0.035, -0.02, "plastic_dark")]
    else:
        for sx in (-1, 1):
            x = sx * 0.4 * w
            out.append(bar((x, 0.013, d / 2 - 0.012), (x, y0 + 0.02, -0.01), 0.018, "plastic_dark"))
            out.append(bar((x, 0.013, -d / 2 + 0.012), (x, y0 + 0.02, -0.01), 0.018, "plastic_dark"))
    return out


def monitor(size: Size, rng: np.random.Generator) -> list[Part]:
    """A screen showing a desktop in a thin bezel, on a neck and a flat foot."""
    w, h, d = size
    case = "plastic_dark" if rng.random() < 0.7 else tinted("metal", (0.75, 0.76, 0.78))
    return [slab(-w / 2, w / 2, 0.28 * h, h, -0.02, 0.012, case),
            decal(-w / 2 + 0.01, w / 2 - 0.01, 0.28 * h + 0.012, h - 0.01, 0.015, "screen_desktop"),
            slab(-0.025, 0.025, 0.01, 0.28 * h + 0.1 * h, -d / 2 + 0.03, -0.02, case),
            slab(-0.12 * w, 0.12 * w, 0, 0.012, -d / 2, d / 2 * 0.6, case)]


def keyboard(size: Size, rng: np.random.Generator) -> list[Part]:
    """A low tray with five rows of key caps (a picture of the key layout on its top)."""
    w, h, d = size
    dark = rng.random() < 0.6
    tray = "plastic_dark" if dark else tinted("plastic", (0.92, 0.92, 0.9))
    keys = tinted("keyboard_keys", (0.32, 0.32, 0.34) if dark else (1.0, 1.0, 1.0))
    top = lay_flat(decal(-w / 2 + 0.008, w / 2 - 0.008, -d / 2 + 0.006, d / 2 - 0.006, 0.0, keys))
    top = Part(top.vertices + np.array([0, h, 0]), top.faces, top.uv, keys)
    return [slab(-w / 2, w / 2, 0, h - 0.002, -d / 2, d / 2, tray), top]


def laptop(size: Size, rng: np.random.Generator) -> list[Part]:
    """A closed laptop: base, lid with a glowing logo, a dark hinge strip and side ports."""
    w, h, d = size
    mat = tinted("metal", pick(rng, ((0.75, 0.76, 0.78), (0.25, 0.25, 0.27), (0.8, 0.72, 0.65))))
    return [slab(-w / 2, w / 2, 0, 0.5 * h, -d / 2, d / 2, mat),
            slab(-w / 2 + 0.004, w / 2 - 0.004, 0.5 * h, 0.6 * h, -d / 2 + 0.004, d / 2 - 0.002, "plastic_dark"),
            slab(-w / 2, w / 2, 0.6 * h, h, -d / 2, d / 2, mat),
            cylinder(0.022, 0.001, "bulb", segments=12, center=(0, h + 0.0005, -0.02)),
            slab(-w / 2 + 0.02, w / 2 - 0.02, 0.1 * h, 0.9 * h, -d / 2 - 0.001, -d / 2 + 0.006, "plastic_dark"),
            slab(w / 2, w / 2 + 0.001, 0.15 * h, 0.45 * h, -0.05, 0.0, "plastic_dark")]


def printer(size: Size, rng: np.random.Generator) -> list[Part]:
    """An inkjet printer: body with a dark scanner lid, sheets standing in the rear paper tray,
    a pulled-out output tray with a printed sheet at the front, a control panel with a small
    lit screen and three buttons."""
    w, h, d = size
    body = tinted("plastic", pick(rng, ((0.92, 0.92, 0.9), (0.2, 0.2, 0.22), (0.6, 0.62, 0.64))))
    lid = "plastic_dark" if rng.random() < 0.6 else body
    out = [slab(-w / 2, w / 2, 0, 0.72 * h, -d / 2 + 0.06, d / 2 - 0.06, body),
           slab(-w / 2 + 0.01, w / 2 - 0.01, 0.72 * h, 0.8 * h, -d / 2 + 0.07, d / 2 - 0.08, lid),
           slab(-w / 2 + 0.04, w / 2 - 0.04, 0.3 * h, 0.36 * h, d / 2 - 0.06, d / 2 - 0.055, "plastic_dark"),
           slab(-w / 2 + 0.06, w / 2 - 0.06, 0.25 * h, 0.28 * h, d / 2 - 0.06, d / 2, body),  # output tray
           slab(-w / 2 + 0.08, w / 2 - 0.08, 0.28 * h, 0.29 * h, d / 2 - 0.1, d / 2 - 0.01, "paper"),
           slab(-w / 2 + 0.03, w / 2 - 0.03, 0.4 * h, 0.8 * h, -d / 2 + 0.03, -d / 2 + 0.06, body)]  # rear tray
    for k in range(3):  # sheets standing in the rear tray
        z = -d / 2 + 0.045 - 0.004 * k
        out.append(slab(-w / 2 + 0.06, w / 2 - 0.06, 0.5 * h, h - 0.01 * k, z, z + 0.002, "paper"))
    px0, px1 = w / 2 - 0.17, w / 2 - 0.02
    out.append(slab(px0, px1, 0.6 * h, 0.72 * h, d / 2 - 0.08, d / 2 - 0.055, "plastic_dark"))  # panel
    out.append(decal(px0 + 0.01, px0 + 0.07, 0.625 * h, 0.695 * h, d / 2 - 0.054, "screen_desktop"))
    for k in range(3):
        x = px0 + 0.09 + 0.02 * k
        out.append(box((0.012, 0.012, 0.004), "chrome" if k else "signal_green", center=(x, 0.66 * h, d / 2 - 0.053)))
    return out


def speaker(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bookshelf speaker: a cabinet with a woofer cone, a tweeter dome and a bass port, or
    (half of them) a fabric grille over the whole front."""
    w, h, d = size
    cab = fin.species(rng) if rng.random() < 0.5 else tinted("lacquer", pick(rng, ((0.08, 0.08, 0.09), (0.95, 0.95, 0.94))))
    out = [slab(-w / 2, w / 2, 0, h, -d / 2, d / 2 - 0.012, cab)]
    if rng.random() < 0.5:
        out.append(decal(-w / 2 + 0.006, w / 2 - 0.006, 0.006, h - 0.006, d / 2, "grille"))
        return out
    out.append(slab(-w / 2, w / 2, 0, h, d / 2 - 0.012, d / 2 - 0.006, "plastic_dark"))  # baffle
    for cy, r, mat in ((0.38 * h, 0.38 * w, "rubber"), (0.78 * h, 0.14 * w, "chrome")):
        out.append(_facing(cylinder(r, 0.01, "black_metal", segments=18), cy, d / 2 - 0.004))  # surround ring
        out.append(_facing(cylinder(0.82 * r, 0.012, mat, segments=18, radius_top=0.3 * r), cy, d / 2 + 0.002))
    out.append(_facing(cylinder(0.08 * w + 0.01, 0.004, "rubber", segments=12), 0.1 * h, d / 2 - 0.002))
    return out


def game_console(size: Size, rng: np.random.Generator) -> list[Part]:
    """Slim box with a glowing strip and a controller beside it."""
    w, h, d = size
    mat = "plastic_dark" if rng.random() < 0.6 else "plastic"
    return [slab(-w / 2, w / 2 - 0.12 * w, 0, h, -d / 2, d / 2, mat),
            slab(-w / 2 + 0.02, w / 2 - 0.14 * w, 0.7 * h, 0.8 * h, d / 2, d / 2 + 0.001, "bulb"),
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
    """Twin-bell alarm clock: a round case with a dial (numerals, hands), two bells with a
    hammer between them, two feet."""
    w, h, d = size
    m = tinted("lacquer", pick(rng, ((0.85, 0.12, 0.1), (0.15, 0.35, 0.8), (0.95, 0.75, 0.1), (0.2, 0.6, 0.3),
                                     (0.9, 0.45, 0.6))))
    r = min(0.42 * w, 0.36 * h)
    cy = 0.06 * h + r
    out = [_facing(cylinder(r, d * 0.7, m, segments=20), cy, 0.0),
           decal(-0.8 * r, 0.8 * r, cy - 0.8 * r, cy + 0.8 * r, d * 0.35 + 0.002, "clock_face")]
    for sx in (-1, 1):
        out.append(cylinder(0.34 * r, 0.22 * h, m, segments=12, center=(sx * 0.6 * r, cy + 0.95 * r, 0),
                            radius_top=0.02))
        out.append(bar((sx * 0.5 * r, cy - 0.7 * r, 0), (sx * 0.7 * r, 0.005, 0), 0.012, "chrome"))
    out.append(bar((0, cy + r, 0), (0, min(h - 0.005, cy + 1.3 * r), 0), 0.008, "chrome"))
    return out
