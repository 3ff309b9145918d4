"""Parametric, seeded meshes of casework: wardrobes, dressers, nightstands, cabinets, sideboards,
TV stands, bookshelves, kitchen counters and islands, filing cabinets and shoe racks. Same
contract as ``visual.indoor_furniture`` (local frame, front +Z, inside the box).

What tells these boxes apart is what a person uses to tell real ones apart: proportions, the
front's layout (full-height doors, stacked drawers, open shelves, glass doors with crockery),
the door style (flat slab, shaker frame, slatted), the hardware (long bars, knobs, brass cups),
legs or plinth, and the finish each category is commonly made in (``visual.finishes``).
"""

from __future__ import annotations

import numpy as np

from navbench.visual import finishes as fin
from navbench.visual.compose import bar, legs, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder

Size = tuple[float, float, float]
PROUD = 0.008  # shaker rails and slats stand this far proud of a front (m)


def _pull(rng: np.random.Generator, kind: str, x: float, y: float, z: float, length: float, metal: str,
          vertical: bool = False) -> list[Part]:
    """A pull on a front whose face is at ``z``: ``bar`` (on two stand-offs), ``knob`` or ``cup``."""
    if kind == "knob":
        return [box((0.028, 0.028, 0.025), metal, center=(x, y, z + 0.0125))]
    if kind == "cup":
        return [box((0.09, 0.03, 0.02), metal, center=(x, y, z + 0.01))]
    s = (0.012, length, 0.012) if vertical else (length, 0.012, 0.012)
    return [box(s, metal, center=(x, y, z + 0.026)),
            *(box((0.01, 0.01, 0.02), metal, center=(x + (0 if vertical else o), y + (o if vertical else 0), z + 0.01))
              for o in (-0.4 * length, 0.4 * length))]


def _front(x0: float, x1: float, y0: float, y1: float, z: float, mat: str, style: str) -> list[Part]:
    """A door or drawer front from ``z - 0.02`` to ``z``: a slab, plus four rails (shaker) or
    vertical slats (slatted) standing :data:`PROUD` in front of it."""
    out = [slab(x0, x1, y0, y1, z - 0.02, z, mat)]
    r = min(0.06, 0.18 * (x1 - x0), 0.18 * (y1 - y0))
    if style == "shaker" and r > 0.02:
        zz = (z, z + PROUD)
        out += [slab(x0, x1, y0, y0 + r, *zz, mat), slab(x0, x1, y1 - r, y1, *zz, mat),
                slab(x0, x0 + r, y0 + r, y1 - r, *zz, mat), slab(x1 - r, x1, y0 + r, y1 - r, *zz, mat)]
    elif style == "slatted":
        n = max(3, int((x1 - x0) / 0.035))
        for k in range(n):
            a = x0 + (k + 0.15) * (x1 - x0) / n
            out.append(slab(a, a + 0.6 * (x1 - x0) / n, y0 + 0.005, y1 - 0.005, z, z + PROUD, mat))
    return out


def _style(rng: np.random.Generator, mat: str) -> tuple[str, str]:
    """Door style and pull kind that suit a finish (painted: shaker and knobs or cups ...)."""
    base = mat.split("@")[0]
    if base == "painted":
        return str(rng.choice(["shaker", "shaker", "slab"])), str(rng.choice(["knob", "cup", "bar"]))
    if base in ("lacquer", "laminate"):
        return "slab", "bar"
    return str(rng.choice(["slab", "slab", "slatted"])), str(rng.choice(["bar", "knob"]))


def cabinet_body(size: Size, rng: np.random.Generator, *, doors: int = 0, drawers: int = 0,
                 z_shift: float = 0.0, plinth: bool = True, material: str | None = None,
                 legs_h: float = 0.0, category: str = "cabinet", top_drawers: int = 1,
                 glass: bool = False) -> list[Part]:
    """A carcass with ``drawers`` rows stacked on top of ``doors`` side by side, fronts on +Z.

    The top drawer row holds ``top_drawers`` drawers side by side; ``glass``: doors are frames
    around glass with two shelves of crockery behind. Finish from ``visual.finishes``; door style
    and pulls from the finish; on a recessed dark plinth, on tapered legs (``legs_h``) or on
    the floor."""
    w, h, d = size
    mat = material or fin.case(rng, category)
    metal = fin.hardware(rng)
    style, pull = _style(rng, mat)
    z0, z1 = -d / 2 + z_shift, d / 2 + z_shift
    base = legs_h if legs_h > 0 else (0.08 if plinth else 0.0)
    out: list[Part] = []
    if legs_h > 0:  # tapered, slightly splayed legs
        for sx in (-1, 1):
            for sz in (-1, 1):
                top = (sx * (w / 2 - 0.05), legs_h, sz * (d / 2 - 0.05) + z_shift)
                foot = (sx * (w / 2 - 0.03), 0.012, sz * (d / 2 - 0.03) + z_shift)
                out.append(bar(foot, top, 0.03, mat if rng.random() < 0.6 else "black_metal"))
    elif plinth:
        out.append(slab(-w / 2 + 0.03, w / 2 - 0.03, 0, base, z0 + 0.02, z1 - 0.06, "plastic_dark"))
    out.append(slab(-w / 2, w / 2, base, h - 0.02, z0, z1 - 0.02, mat))
    out.append(slab(-w / 2, w / 2, h - 0.02, h, z0, z1, mat))  # top, flush with the fronts
    front_h = h - base - 0.03
    dr_h = front_h * (0.22 if doors else 1.0 / max(drawers, 1)) if drawers else 0.0
    y = h - 0.025
    for row in range(drawers):
        n = top_drawers if row == 0 else 1
        for k in range(n):
            x0 = -w / 2 + 0.004 + k * (w - 0.008) / n
            x1 = x0 + (w - 0.008) / n - 0.004
            out += _front(x0, x1, y - dr_h + 0.004, y, z1, mat, style if style != "slatted" else "slab")
            out += _pull(rng, pull, (x0 + x1) / 2, y - dr_h / 2, z1 + (PROUD if style == "shaker" else 0),
                         min(0.2, 0.35 * (x1 - x0)), metal)
        y -= dr_h
    if doors:
        dw = (w - 0.008) / doors
        for i in range(doors):
            x0 = -w / 2 + 0.004 + i * dw
            x1 = x0 + dw - 0.004
            if glass:
                out += _glass_door(x0, x1, base + 0.004, y, z1, mat, rng)
            else:
                out += _front(x0, x1, base + 0.004, y, z1, mat, style)
            hx = x1 - 0.05 if i % 2 == 0 else x0 + 0.05
            if doors == 1:
                hx = x1 - 0.05
            hy = base + (0.75 if h > 1.2 else 0.8) * (y - base) if h < 1.5 else base + 0.45 * (y - base)
            length = min(0.5 if h > 1.5 else 0.16, 0.4 * (y - base))
            out += _pull(rng, pull if pull != "cup" else "knob", hx, hy, z1 + (PROUD if style == "shaker" else 0),
                         length, metal, vertical=True)
    return out


def _glass_door(x0: float, x1: float, y0: float, y1: float, z: float, mat: str,
                rng: np.random.Generator) -> list[Part]:
    """A frame door around a pane, two shelves of plates and cups behind it."""
    r = min(0.05, 0.2 * (x1 - x0))
    out = [slab(x0, x1, y0, y0 + r, z - 0.02, z, mat), slab(x0, x1, y1 - r, y1, z - 0.02, z, mat),
           slab(x0, x0 + r, y0 + r, y1 - r, z - 0.02, z, mat), slab(x1 - r, x1, y0 + r, y1 - r, z - 0.02, z, mat),
           slab(x0 + r, x1 - r, y0 + r, y1 - r, z - 0.012, z - 0.008, "glass"),
           slab(x0 + r, x1 - r, y0 + r, y1 - r, z - 0.24, z - 0.22, tinted("paint", (0.92, 0.9, 0.86)))]
    cer = tinted("ceramic", fin.colour(rng, ((0.97, 0.97, 0.95), (0.55, 0.7, 0.8), (0.85, 0.8, 0.65))))
    for f in (0.33, 0.66):
        sy = y0 + f * (y1 - y0)
        out.append(slab(x0 + r, x1 - r, sy - 0.015, sy, z - 0.22, z - 0.03, mat))
        n = max(1, int((x1 - x0 - 2 * r) / 0.09))
        for k in range(n):
            cx = x0 + r + (k + 0.5) * (x1 - x0 - 2 * r) / n
            out.append(cylinder(0.035, 0.1, cer, segments=10, center=(cx, sy + 0.05, z - 0.12)))
    return out


def nightstand(size: Size, rng: np.random.Generator) -> list[Part]:
    """A small chest of two drawers, or one drawer over an open cubby, on legs or a plinth."""
    w, h, d = size
    mat = fin.case(rng, "nightstand")
    on_legs = rng.random() < 0.5
    base = 0.16 * h if on_legs else 0.0
    if rng.random() < 0.5:
        return cabinet_body(size, rng, drawers=2, plinth=not on_legs, legs_h=base, material=mat)
    t = 0.02
    out = legs(w, d, base, 0.03, mat, inset=0.02) if on_legs else []
    out += [slab(-w / 2, w / 2, h - t, h, -d / 2, d / 2, mat), slab(-w / 2, w / 2, base, base + t, -d / 2, d / 2, mat),
            slab(-w / 2, -w / 2 + t, base, h, -d / 2, d / 2, mat), slab(w / 2 - t, w / 2, base, h, -d / 2, d / 2, mat),
            slab(-w / 2 + t, w / 2 - t, base, h, -d / 2, -d / 2 + t, mat)]
    dr0 = base + 0.58 * (h - base)
    out.append(slab(-w / 2 + t, w / 2 - t, dr0 - t, dr0, -d / 2, d / 2, mat))
    out += _front(-w / 2 + 0.004, w / 2 - 0.004, dr0 + 0.003, h - t - 0.003, d / 2, mat, "slab")
    out += _pull(rng, "knob", 0.0, (dr0 + h - t) / 2, d / 2, 0.1, fin.hardware(rng))
    return out


def dresser(size: Size, rng: np.random.Generator) -> list[Part]:
    """A chest of three or four drawer rows, the top row split in two or three small drawers."""
    rows = 3 + int(rng.integers(2))
    on_legs = rng.random() < 0.35
    return cabinet_body(size, rng, drawers=rows, top_drawers=int(rng.integers(2, 4)), category="dresser",
                        plinth=not on_legs, legs_h=0.12 * size[1] if on_legs else 0.0)


def wardrobe(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tall carcass with two or three full-height doors (one may be a mirror), long bar
    pulls, a cornice on top and a plinth."""
    w, h, d = size
    n = 2 if w < 1.3 else 3
    out = cabinet_body((w, h - 0.05, d), rng, doors=n, drawers=0, category="wardrobe")
    mat = out[1].material
    out.append(slab(-w / 2 - 0.0, w / 2, h - 0.05, h, -d / 2, d / 2, mat))  # cornice
    if rng.random() < 0.4:  # a mirror on the middle / right door
        dw = (w - 0.008) / n
        i = n // 2
        x0 = -w / 2 + 0.004 + i * dw + 0.06
        out.append(slab(x0, x0 + dw - 0.12, 0.25, h - 0.3, d / 2, d / 2 + 0.004, "mirror"))
    return out


def cabinet(size: Size, rng: np.random.Generator) -> list[Part]:
    """Two doors under a drawer row, or (a third of them) a display cabinet with glass doors."""
    glass = rng.random() < 0.35
    return cabinet_body(size, rng, doors=2, drawers=0 if glass else int(rng.integers(2)), glass=glass,
                        top_drawers=2)


def sideboard(size: Size, rng: np.random.Generator) -> list[Part]:
    """Long low cabinet on tapered legs: three or four doors under a drawer row."""
    _w, h, _d = size
    return cabinet_body(size, rng, doors=3 + int(rng.integers(2)), drawers=1, plinth=False, legs_h=0.18 * h,
                        category="sideboard", top_drawers=2)


def tv_stand(size: Size, rng: np.random.Generator) -> list[Part]:
    """Low wide console: an open middle bay with a media box (green light) and a game console,
    closed doors or drawers either side, on a plinth or feet."""
    w, h, d = size
    mat = fin.case(rng, "tv stand")
    t = 0.025
    base = 0.05
    out = [slab(-w / 2, w / 2, h - t, h, -d / 2, d / 2, mat), slab(-w / 2, w / 2, base, base + t, -d / 2, d / 2, mat),
           slab(-w / 2, w / 2, base, h, -d / 2, -d / 2 + t, mat)]
    if rng.random() < 0.5:
        out.append(slab(-w / 2 + 0.02, w / 2 - 0.02, 0, base, -d / 2 + 0.02, d / 2 - 0.04, "plastic_dark"))
    else:
        out += legs(w, d, base, 0.04, "black_metal", inset=0.03)
    for x in (-w / 2, -w / 6, w / 6, w / 2):
        x0 = min(max(x - t / 2, -w / 2), w / 2 - t)
        out.append(slab(x0, x0 + t, base, h - t, -d / 2, d / 2, mat))
    drawers = rng.random() < 0.5
    metal = fin.hardware(rng)
    for sx in (-1, 1):
        x0, x1 = (w / 6 + t / 2, w / 2 - 0.004) if sx > 0 else (-w / 2 + 0.004, -w / 6 - t / 2)
        if drawers:
            mid = (base + t + h - t) / 2
            for y0, y1 in ((base + t, mid - 0.003), (mid + 0.003, h - t)):
                out += _front(x0, x1, y0, y1, d / 2, mat, "slab")
                out += _pull(rng, "bar", (x0 + x1) / 2, (y0 + y1) / 2, d / 2, 0.12, metal)
        else:
            out += _front(x0, x1, base + t, h - t, d / 2, mat, "slab")
    shelf = (base + t + h - t) / 2
    out.append(slab(-w / 6, w / 6, shelf, shelf + t, -d / 2, d / 2 - 0.02, mat))
    out.append(slab(-0.12, 0.12, base + t, base + t + 0.05, -d / 4, d / 4, "plastic_dark"))  # media box
    out.append(box((0.008, 0.006, 0.003), "signal_green", center=(0.09, base + t + 0.035, d / 4 + 0.0015)))
    out.append(slab(-0.13, 0.1, shelf + t, shelf + t + 0.05, -d / 4, d / 4, "plastic_dark"))  # console
    out.append(slab(-0.12, 0.09, shelf + t + 0.02, shelf + t + 0.024, d / 4, d / 4 + 0.002, "bulb"))
    return out


def bookshelf(size: Size, rng: np.random.Generator, books: bool = True) -> list[Part]:
    """Open shelving: sides, back, 4–6 shelves, rows of coloured books (some leaning, some
    lying in a stack) and a box or two."""
    w, h, d = size
    mat = fin.case(rng, "bookshelf" if books else "shoe rack")
    t = 0.025
    out = [slab(-w / 2, -w / 2 + t, 0, h, -d / 2, d / 2, mat), slab(w / 2 - t, w / 2, 0, h, -d / 2, d / 2, mat),
           slab(-w / 2 + t, w / 2 - t, 0, h, -d / 2, -d / 2 + 0.01, mat)]
    n = int(np.clip(round(h / 0.38), 2, 6))
    gap = (h - t) / n
    covers = ((0.35, 0.4, 0.55), (0.55, 0.3, 0.28), (0.3, 0.45, 0.35), (0.75, 0.68, 0.55), (0.2, 0.22, 0.28),
              (0.8, 0.2, 0.15), (0.9, 0.8, 0.3), (0.92, 0.9, 0.85))
    for i in range(n + 1):
        y = i * gap
        out.append(slab(-w / 2 + t, w / 2 - t, y, y + t, -d / 2, d / 2, mat))
        if books and i < n and rng.random() < 0.85:
            x = -w / 2 + t + 0.01
            end = w / 2 - t - rng.uniform(0.05, 0.3) * w
            while x < end:
                bw = float(rng.uniform(0.02, 0.05))
                bh = float(rng.uniform(0.6, 0.9)) * (gap - t)
                col = tinted("paper", fin.colour(rng, covers, 0.08))
                out.append(slab(x, min(x + bw, end), y + t, y + t + bh, -d / 2 + 0.02, d / 2 - 0.03, col))
                x += bw + 0.003
            if end < w / 2 - t - 0.15:  # a stack of books lying flat in the gap
                for k in range(int(rng.integers(2, 5))):
                    col = tinted("paper", fin.colour(rng, covers, 0.08))
                    out.append(slab(end + 0.02, w / 2 - t - 0.02, y + t + k * 0.03, y + t + (k + 1) * 0.03 - 0.002,
                                    -d / 2 + 0.04, d / 2 - 0.05, col))
    return out


def shoe_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """Two or three open shelves with a few pairs of shoes."""
    w, _h, d = size
    out = bookshelf(size, rng, books=False)
    for k in range(int(rng.integers(2, 5))):
        x = -w / 2 + 0.08 + k * 0.17
        if x + 0.14 > w / 2 - 0.03:
            break
        col = tinted("leather", fin.colour(rng, ((0.1, 0.1, 0.1), (0.4, 0.25, 0.15), (0.9, 0.9, 0.9))))
        out.append(slab(x, x + 0.06, 0.025, 0.1, -d / 2 + 0.03, d / 2 - 0.02, col))
        out.append(slab(x + 0.07, x + 0.13, 0.025, 0.1, -d / 2 + 0.03, d / 2 - 0.02, col))
    return out


def filing_cabinet(size: Size, rng: np.random.Generator) -> list[Part]:
    """Steel cabinet of two to four drawers, each with a label holder and a recessed handle."""
    w, h, d = size
    n = int(np.clip(round(h / 0.32), 2, 4))
    mat = tinted("metal", fin.colour(rng, ((0.6, 0.62, 0.64), (0.3, 0.32, 0.35), (0.85, 0.85, 0.82))))
    out = [slab(-w / 2, w / 2, 0, h, -d / 2, d / 2 - 0.02, mat)]
    dh = (h - 0.02) / n
    for k in range(n):
        y0 = 0.01 + k * dh
        out.append(slab(-w / 2 + 0.005, w / 2 - 0.005, y0 + 0.004, y0 + dh - 0.004, d / 2 - 0.02, d / 2, mat))
        out.append(slab(-0.04, 0.04, y0 + 0.7 * dh, y0 + 0.7 * dh + 0.03, d / 2, d / 2 + 0.003, "paper"))
        out.append(slab(-0.07, 0.07, y0 + 0.5 * dh - 0.015, y0 + 0.5 * dh + 0.015, d / 2, d / 2 + 0.012, "chrome"))
    return out


def counter(size: Size, rng: np.random.Generator) -> list[Part]:
    """Kitchen base units: doors under a drawer row on a recessed plinth, a worktop of stone,
    wood block or laminate."""
    w, h, d = size
    out = cabinet_body((w, h - 0.04, d - 0.03), rng, doors=max(1, round(w / 0.6)), drawers=1, z_shift=-0.015,
                       category="counter", top_drawers=max(1, round(w / 0.6)))
    out.append(slab(-w / 2, w / 2, h - 0.04, h, -d / 2, d / 2, _worktop(rng)))
    return out


def _worktop(rng: np.random.Generator) -> str:
    r = rng.random()
    if r < 0.55:
        return tinted("stone", fin.colour(rng, ((1.0, 1.0, 1.0), (0.35, 0.35, 0.37), (0.85, 0.8, 0.72))))
    if r < 0.8:
        return fin.species(rng, "oak")
    return tinted("laminate", fin.colour(rng, ((0.96, 0.96, 0.95), (0.2, 0.2, 0.22))))


def kitchen_island(size: Size, rng: np.random.Generator) -> list[Part]:
    """Base units with doors on the front, a worktop overhanging at the back for stools."""
    w, h, d = size
    out = cabinet_body((w, h - 0.04, d - 0.25), rng, doors=max(2, round(w / 0.6)), z_shift=0.125, plinth=True,
                       category="kitchen island")
    out.append(slab(-w / 2, w / 2, h - 0.04, h, -d / 2, d / 2, _worktop(rng)))
    return out
