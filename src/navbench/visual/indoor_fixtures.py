"""Parametric, seeded meshes of kitchen appliances, bathroom fixtures, lamps, plants and a
few other large indoor items; same contract as ``visual.indoor_furniture``."""

from __future__ import annotations

import numpy as np

from navbench.visual.compose import bar, blob, lathe, open_box, slab, tapered_tub
from navbench.visual.indoor_furniture import Size, pick
from navbench.visual.indoor_storage import cabinet_body
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cylinder

WHITES = ((0.96, 0.96, 0.95), (0.85, 0.86, 0.88), (0.25, 0.26, 0.28))


def appliance(rng: np.random.Generator) -> str:
    """White, steel or black enamel."""
    c = pick(rng, WHITES)
    return tinted("metal", c) if c[0] < 0.9 else tinted("plastic", c)


# --------------------------------------------------------------------------- kitchen
def fridge(size: Size, rng: np.random.Generator) -> list[Part]:
    """Tall body, freezer door below and fridge door above (or side by side), long handles."""
    w, h, d = size
    mat = appliance(rng)
    out = [slab(-w / 2, w / 2, 0.02, h, -d / 2, d / 2 - 0.04, mat), slab(-w / 2 + 0.03, w / 2 - 0.03, 0, 0.02, -d / 2, d / 2 - 0.06, "plastic_dark")]
    if w > 0.75 and rng.random() < 0.5:  # side by side
        for sx in (-1, 1):
            x0, x1 = (0.005, w / 2) if sx > 0 else (-w / 2, -0.005)
            out.append(slab(x0, x1, 0.03, h - 0.01, d / 2 - 0.04, d / 2 - 0.005, mat))
            out.append(bar((sx * 0.04, 0.45 * h, d / 2 + 0.01), (sx * 0.04, 0.85 * h, d / 2 + 0.01), 0.02, "chrome"))
    else:
        split = 0.35 * h
        out.append(slab(-w / 2, w / 2, 0.03, split - 0.005, d / 2 - 0.04, d / 2 - 0.005, mat))
        out.append(slab(-w / 2, w / 2, split + 0.005, h - 0.01, d / 2 - 0.04, d / 2 - 0.005, mat))
        hx = w / 2 - 0.06
        out.append(bar((hx, split - 0.25, d / 2 + 0.01), (hx, split - 0.05, d / 2 + 0.01), 0.02, "chrome"))
        out.append(bar((hx, split + 0.08, d / 2 + 0.01), (hx, split + 0.5, d / 2 + 0.01), 0.02, "chrome"))
    return out


def oven(size: Size, rng: np.random.Generator) -> list[Part]:
    """Range: body, dark glass door with a bar handle, control strip, four hob rings on top."""
    w, h, d = size
    mat = appliance(rng)
    out = [slab(-w / 2, w / 2, 0, h - 0.02, -d / 2, d / 2 - 0.02, mat),
           slab(-w / 2, w / 2, h - 0.02, h, -d / 2, d / 2, "plastic_dark"),
           slab(-w / 2 + 0.05, w / 2 - 0.05, 0.12, 0.68 * h, d / 2 - 0.02, d / 2, "screen"),
           bar((-w / 2 + 0.07, 0.72 * h, d / 2 + 0.01), (w / 2 - 0.07, 0.72 * h, d / 2 + 0.01), 0.02, "chrome"),
           slab(-w / 2, w / 2, 0.8 * h, h - 0.02, d / 2 - 0.03, d / 2, "plastic_dark")]
    for sx in (-1, 1):
        for sz in (-1, 1):
            out.append(cylinder(0.08, 0.006, "metal", segments=14, center=(sx * w / 4, h + 0.0, sz * d / 4)))
    for k in range(4):
        out.append(cylinder(0.015, 0.02, "chrome", segments=8, center=(-w / 2 + (k + 1) * w / 5, 0.9 * h, d / 2)))
    return out


def dishwasher(size: Size, rng: np.random.Generator) -> list[Part]:
    """Body with one full front panel, a control strip on top and a recessed handle."""
    w, h, d = size
    mat = appliance(rng)
    return [slab(-w / 2, w / 2, 0.1, h, -d / 2, d / 2 - 0.02, mat),
            slab(-w / 2 + 0.02, w / 2 - 0.02, 0, 0.1, -d / 2, d / 2 - 0.05, "plastic_dark"),
            slab(-w / 2 + 0.005, w / 2 - 0.005, 0.1, h - 0.08, d / 2 - 0.02, d / 2, mat),
            slab(-w / 2, w / 2, h - 0.08, h, d / 2 - 0.02, d / 2, "plastic_dark"),
            bar((-0.15, h - 0.11, d / 2 + 0.012), (0.15, h - 0.11, d / 2 + 0.012), 0.02, "chrome")]


def washing_machine(size: Size, rng: np.random.Generator) -> list[Part]:
    """Cube with a round porthole door (chrome ring, dark glass) and a control panel."""
    w, h, d = size
    mat = appliance(rng)
    r = 0.33 * min(w, h)
    cy = 0.45 * h
    out = [slab(-w / 2, w / 2, 0, h, -d / 2, d / 2 - 0.03, mat),
           slab(-w / 2, w / 2, h - 0.12, h, d / 2 - 0.03, d / 2 - 0.01, "plastic_dark")]
    ring = cylinder(r, 0.02, "chrome", segments=20, center=(0, 0, 0))
    glass = cylinder(0.8 * r, 0.02, "screen", segments=20, center=(0, 0, 0))
    for p, z in ((ring, d / 2 - 0.02), (glass, d / 2 - 0.005)):
        v = p.vertices[:, [0, 2, 1]] * np.array([1, -1, 1]) + np.array([0, cy, z])  # face +Z
        out.append(Part(v, p.faces[:, ::-1].copy(), p.uv, p.material))
    out.append(cylinder(0.03, 0.02, "chrome", segments=10, center=(w / 2 - 0.1, h - 0.06, d / 2 - 0.02)))
    return out


def kitchen_sink(size: Size, rng: np.random.Generator) -> list[Part]:
    """Steel basin (open box) with a rim and a swan-neck faucet at the back."""
    w, h, d = size
    bh = 0.6 * h
    out = open_box(w, bh, d - 0.08, 0.02, "chrome", center_xz=(0, 0.04))
    out.append(slab(-w / 2, w / 2, bh - 0.015, bh, -d / 2, -d / 2 + 0.08, "chrome"))
    out.append(bar((0, bh, -d / 2 + 0.04), (0, h - 0.015, -d / 2 + 0.04), 0.025, "chrome"))
    out.append(bar((0, h - 0.015, -d / 2 + 0.04), (0, h - 0.015, -d / 2 + 0.18), 0.025, "chrome"))
    return out


# --------------------------------------------------------------------------- bathroom
def toilet(size: Size, rng: np.random.Generator) -> list[Part]:
    """Close-coupled toilet (front +Z): a pedestal from the floor that carries the bowl and,
    at the back, the cistern sitting on it; a seat ring, the lid raised against the cistern
    and a flush button on top."""
    w, h, d = size
    c = "ceramic"
    tank_d = 0.24 * d
    seat_y = 0.52 * h
    bowl_d = d - tank_d + 0.04
    bz = -d / 2 + tank_d - 0.04 + bowl_d / 2  # bowl centre (z)
    # pedestal: a waisted column under the bowl that runs back under the cistern
    ped = lathe([(0.0, 0.0), (0.62, 0.0), (0.5, 0.25), (0.46, 0.6), (0.0, 0.6)], c, segments=18,
                scale_xz=(w / 2 * 0.8, bowl_d / 2 * 0.8))
    out = [Part(ped.vertices * np.array([1, seat_y, 1]) + np.array([0, 0, bz]), ped.faces, ped.uv, c)]
    out.append(slab(-0.28 * w, 0.28 * w, 0, seat_y - 0.02, -d / 2 + 0.04, bz, c))
    bowl = lathe([(0.0, 0.55), (0.62, 0.55), (0.92, 0.8), (1.0, 0.97), (0.94, 1.0), (0.78, 0.96), (0.5, 0.8),
                  (0.0, 0.76)], c, segments=22, scale_xz=(w / 2 * 0.98, bowl_d / 2 * 0.98))  # hollow bowl
    out.append(Part(bowl.vertices * np.array([1, seat_y, 1]) + np.array([0, 0, bz]), bowl.faces, bowl.uv, c))
    out.append(cylinder(1.0, 0.004, tinted("ceramic", (0.62, 0.72, 0.78)), segments=16, center=(0, 0, 0)))
    wv = out[-1].vertices * np.array([w / 2 * 0.4, 1.0, bowl_d / 2 * 0.35]) + np.array([0, 0.8 * seat_y, bz])
    out[-1] = Part(wv, out[-1].faces, out[-1].uv, out[-1].material)  # water
    # cistern on the back of the pedestal / bowl, touching it (no gap)
    out.append(slab(-0.46 * w, 0.46 * w, seat_y - 0.03, h - 0.02, -d / 2 + 0.005, -d / 2 + tank_d, c))
    out.append(slab(-0.48 * w, 0.48 * w, h - 0.02, h, -d / 2, -d / 2 + tank_d + 0.01, c))  # cistern lid
    out.append(cylinder(0.022, 0.008, "chrome", segments=12, center=(0, h + 0.002, -d / 2 + tank_d / 2)))
    seat_col = tinted("plastic", pick(rng, ((0.97, 0.97, 0.97), (0.97, 0.97, 0.97), (0.15, 0.15, 0.15))))
    ring = lathe([(0.62, 0.0), (1.0, 0.0), (1.0, 1.0), (0.62, 1.0), (0.62, 0.0)], seat_col, segments=22,
                 scale_xz=(w / 2 * 0.95, bowl_d / 2 * 0.92))
    out.append(Part(ring.vertices * np.array([1, 0.025, 1]) + np.array([0, seat_y, bz + 0.01]), ring.faces, ring.uv,
                    seat_col))
    lid = cylinder(1.0, 0.02, seat_col, segments=20)  # raised lid, leaning on the cistern
    half = min(bowl_d / 2 * 0.85, (h - seat_y - 0.06) / 2)
    lv = lid.vertices[:, [0, 2, 1]] * np.array([w / 2 * 0.9, half, 1.0])
    lv = lv + np.array([0.0, seat_y + 0.03 + half, -d / 2 + tank_d + 0.025])
    out.append(Part(lv, lid.faces[:, ::-1].copy(), lid.uv, seat_col))
    return out


def sink(size: Size, rng: np.random.Generator) -> list[Part]:
    """Vanity cabinet (or pedestal) with a white basin top, faucet and a mirror-less splash."""
    w, h, d = size
    if rng.random() < 0.5:
        out = cabinet_body((w, h - 0.2, d - 0.02), rng, doors=2 if w > 0.55 else 1, plinth=False, z_shift=-0.01,
                           category="cabinet")
    else:
        out = [cylinder(0.08, h - 0.2, "ceramic", segments=14, center=(0, (h - 0.2) / 2, -0.05))]
    out += open_box(w, 0.12, d, 0.03, "ceramic", center_xz=(0, 0), y0=h - 0.2)
    out.append(bar((0, h - 0.08, -d / 2 + 0.05), (0, h - 0.01, -d / 2 + 0.05), 0.03, "chrome"))
    out.append(bar((0, h - 0.015, -d / 2 + 0.05), (0, h - 0.015, -d / 2 + 0.14), 0.02, "chrome"))
    return out


def bathtub(size: Size, rng: np.random.Generator) -> list[Part]:
    """A built-in tub: a panelled apron, a wide rim round a basin that slopes in to its floor,
    a mixer tap with two handles and a hand shower on its hose at the back of one end."""
    w, h, d = size
    rim = 0.08
    inner = tapered_tub((w - 2 * rim - 0.2, d - 2 * rim - 0.12), (w - 2 * rim, d - 2 * rim), h - 0.1, 0.004,
                        tinted("ceramic", (0.97, 0.98, 0.99)), y0=0.1)
    out = [  # apron and ends up to the rim; the basin is open
        slab(-w / 2, w / 2, 0, h, d / 2 - rim, d / 2, "ceramic"), slab(-w / 2, w / 2, 0, h, -d / 2, -d / 2 + rim, "ceramic"),
        slab(-w / 2, -w / 2 + rim, 0, h, -d / 2 + rim, d / 2 - rim, "ceramic"),
        slab(w / 2 - rim, w / 2, 0, h, -d / 2 + rim, d / 2 - rim, "ceramic"),
        slab(-w / 2 + rim, w / 2 - rim, 0, 0.1, -d / 2 + rim, d / 2 - rim, "ceramic"), inner]
    tap_x = -w / 2 + rim / 2
    out += [cylinder(0.02, 0.05, "chrome", segments=10, center=(tap_x, h + 0.025, 0)),
            bar((tap_x, h + 0.045, 0), (tap_x + 0.12, h + 0.035, 0), 0.022, "chrome"),
            cylinder(0.025, 0.03, "chrome", segments=10, center=(tap_x, h + 0.015, -0.09)),
            cylinder(0.025, 0.03, "chrome", segments=10, center=(tap_x, h + 0.015, 0.09)),
            bar((tap_x, h + 0.015, -0.16), (tap_x + 0.02, h + 0.05, -0.22), 0.025, "chrome")]  # hand shower
    return out


def shower(size: Size, rng: np.random.Generator) -> list[Part]:
    """Low tray, two glass panels on the open sides, a pipe and a shower head at the back."""
    w, h, d = size
    out = open_box(w, 0.08, d, 0.04, "ceramic")
    out.append(slab(-w / 2, w / 2, h - 0.03, h, d / 2 - 0.03, d / 2, "chrome"))
    out.append(slab(-w / 2, -w / 2 + 0.01, 0.08, h - 0.03, -d / 2, d / 2, "glass"))
    out.append(slab(-w / 2 + 0.01, 0.05, 0.08, h - 0.03, d / 2 - 0.015, d / 2 - 0.005, "glass"))
    for x in (w / 2 - 0.03, -w / 2 + 0.005):
        out.append(slab(x - 0.0, x + 0.025, 0.08, h - 0.03, d / 2 - 0.03, d / 2, "chrome"))
    out.append(bar((0, 1.0, -d / 2 + 0.02), (0, 0.9 * h, -d / 2 + 0.02), 0.02, "chrome"))
    out.append(bar((0, 0.9 * h, -d / 2 + 0.02), (0, 0.9 * h, -d / 2 + 0.2), 0.02, "chrome"))
    out.append(cylinder(0.07, 0.03, "chrome", segments=14, center=(0, 0.9 * h - 0.02, -d / 2 + 0.22)))
    return out


def towel_rack(size: Size, rng: np.random.Generator) -> list[Part]:
    """Two posts on feet with two rails and a draped towel."""
    w, h, d = size
    out = []
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.015)
        out.append(slab(x - 0.015, x + 0.015, 0, h, -0.015, 0.015, "chrome"))
        out.append(slab(x - 0.015, x + 0.015, 0, 0.02, -d / 2, d / 2, "chrome"))
    for y in (0.55 * h, 0.92 * h):
        out.append(bar((-w / 2 + 0.03, y, 0), (w / 2 - 0.03, y, 0), 0.02, "chrome"))
    col = tinted("fabric", pick(rng, ((0.95, 0.95, 0.95), (0.4, 0.6, 0.8), (0.85, 0.5, 0.45), (0.6, 0.75, 0.55))))
    out.append(slab(-0.35 * w, 0.35 * w, 0.45 * h, 0.93 * h, -0.03, 0.03, col))
    return out


# --------------------------------------------------------------------------- lamps, plants
def lamp(size: Size, rng: np.random.Generator) -> list[Part]:
    """Base, stem and a conical (glowing) shade on top; tall lamps get a wide foot."""
    w, h, d = size
    r = min(w, d) / 2
    mat = tinted("metal", pick(rng, ((0.75, 0.6, 0.3), (0.2, 0.2, 0.2), (0.85, 0.85, 0.85))))
    shade_h = float(np.clip(0.3 * h, 0.12, 0.35))
    base_r = 0.8 * r if h > 1.0 else 0.55 * r
    out = []
    if h < 1.0 and rng.random() < 0.5:  # ceramic jar base
        out.append(lathe([(0, 0), (0.5 * r, 0), (0.65 * r, 0.25 * h), (0.3 * r, 0.5 * h), (0, 0.5 * h)],
                         tinted("ceramic", pick(rng, ((0.3, 0.5, 0.6), (0.9, 0.88, 0.8), (0.6, 0.3, 0.25)))),
                         segments=16))
    else:
        out.append(cylinder(base_r, 0.03, mat, segments=16, center=(0, 0.015, 0)))
    out.append(cylinder(0.012 if h < 1 else 0.015, h - shade_h * 0.6, mat, segments=8, center=(0, (h - shade_h * 0.6) / 2, 0)))
    out.append(cylinder(r, shade_h, "lampshade", segments=20, center=(0, h - shade_h / 2, 0), radius_top=0.6 * r))
    out.append(blob(0.03, "bulb", (0, h - shade_h * 0.55, 0), rng))
    return out


def plant(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tapered pot with soil and a clump of lumpy foliage (or a tall leafy column)."""
    w, h, d = size
    r = min(w, d) / 2
    pot_h = float(np.clip(0.3 * h, 0.08, 0.4))
    pot = tinted("ceramic", pick(rng, ((0.75, 0.4, 0.25), (0.9, 0.9, 0.88), (0.2, 0.2, 0.22), (0.4, 0.5, 0.45))))
    out = [cylinder(0.75 * r, pot_h, pot, segments=14, center=(0, pot_h / 2, 0), radius_top=0.6 * r * 1.0 + 0.15 * r),
           cylinder(0.68 * r, 0.01, "soil", segments=14, center=(0, pot_h - 0.01, 0))]
    green = tinted("foliage", pick(rng, ((0.25, 0.5, 0.2), (0.18, 0.42, 0.22), (0.35, 0.55, 0.25))))
    fh = h - pot_h
    out.append(cylinder(0.04 * r + 0.005, fh * 0.5, "wood_dark", segments=6, center=(0, pot_h + fh * 0.25, 0)))
    n = 3 + int(rng.integers(3))
    for _ in range(n):
        a = rng.uniform(0, 2 * np.pi)
        rr = float(rng.uniform(0.35, 0.5)) * r
        ry = min(1.6 * rr, 0.3 * fh)
        cy = min(pot_h + fh * float(rng.uniform(0.45, 0.7)), h - 1.07 * ry)
        off = float(rng.uniform(0, 0.6)) * (r - rr)
        out.append(blob(rr, green, (off * np.cos(a), cy, off * np.sin(a)), rng, scale=(1.0, ry / rr, 1.0)))
    return out


def trash_can(size: Size, rng: np.random.Generator) -> list[Part]:
    """A slightly tapered bin with a lid and a pedal."""
    w, h, d = size
    r = min(w, d) / 2
    mat = tinted("metal", pick(rng, ((0.8, 0.8, 0.8), (0.2, 0.2, 0.22), (0.7, 0.2, 0.2), (0.9, 0.9, 0.88))))
    return [cylinder(0.88 * r, h - 0.04, mat, segments=16, center=(0, (h - 0.04) / 2, 0), radius_top=0.97 * r),
            cylinder(r, 0.04, mat, segments=16, center=(0, h - 0.02, 0), radius_top=0.9 * r),
            box((0.1, 0.02, 0.06), "plastic_dark", center=(0, 0.03, 0.88 * r))]


def laundry_basket(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tall hamper widening to the top, woven wicker or perforated plastic, with hand-holds
    under the rim, a rim band and laundry heaped above it (shirts, towels in several colours)."""
    w, h, d = size
    wicker = rng.random() < 0.6
    body = tinted("wicker", pick(rng, ((1.0, 1.0, 1.0), (0.8, 0.75, 0.7), (0.95, 0.95, 0.92)))) if wicker else \
        tinted("perforated", pick(rng, ((0.95, 0.95, 0.95), (0.55, 0.7, 0.85), (0.75, 0.75, 0.78))))
    rim = tinted("wicker", (0.7, 0.6, 0.5)) if wicker else body
    top = 0.78 * h
    out = [tapered_tub((0.82 * w, 0.82 * d), (w, d), top, 0.012, body)]
    out.append(slab(-w / 2, w / 2, top - 0.04, top, -d / 2, -d / 2 + 0.015, rim))
    out.append(slab(-w / 2, w / 2, top - 0.04, top, d / 2 - 0.015, d / 2, rim))
    out.append(slab(-w / 2, -w / 2 + 0.015, top - 0.04, top, -d / 2, d / 2, rim))
    out.append(slab(w / 2 - 0.015, w / 2, top - 0.04, top, -d / 2, d / 2, rim))
    for sx in (-1, 1):  # hand-holds: dark slots under the rim on both ends
        out.append(slab(sx * w / 2 - 0.004, sx * w / 2 + 0.004, top - 0.12, top - 0.07, -0.07, 0.07, "plastic_dark"))
    cols = ((0.95, 0.95, 0.95), (0.3, 0.4, 0.65), (0.8, 0.3, 0.3), (0.4, 0.6, 0.45), (0.9, 0.8, 0.5))
    for k in range(4):
        c = tinted("linen" if k % 2 else "knit", pick(rng, cols))
        cx, cz = rng.uniform(-0.2, 0.2) * w, rng.uniform(-0.2, 0.2) * d
        r = 0.22 * min(w, d)
        cy = min(top + (h - top) * (0.05 + 0.22 * k), h - 0.6 * r)
        out.append(blob(r, c, (cx, cy, cz), rng, scale=(1.5, 0.55, 1.2)))
    return out


def piano(size: Size, rng: np.random.Generator) -> list[Part]:
    """Upright piano: tall cabinet, key bed with white keys and black keys, legs, pedals."""
    w, h, d = size
    body = tinted("wood", pick(rng, ((0.08, 0.06, 0.05), (0.35, 0.2, 0.12))))
    kb_y = 0.68 * h
    out = [slab(-w / 2, w / 2, 0, h, -d / 2, -d / 2 + 0.35 * d, body),
           slab(-w / 2, w / 2, kb_y - 0.06, kb_y, -d / 2 + 0.35 * d, d / 2, body),
           slab(-w / 2 + 0.06, w / 2 - 0.06, kb_y, kb_y + 0.02, -d / 2 + 0.35 * d, d / 2 - 0.02, "ceramic"),
           slab(-w / 2, -w / 2 + 0.05, 0, kb_y + 0.1, -d / 2, d / 2, body),
           slab(w / 2 - 0.05, w / 2, 0, kb_y + 0.1, -d / 2, d / 2, body),
           slab(-w / 2, w / 2, kb_y + 0.02, h, -d / 2 + 0.35 * d, -d / 2 + 0.4 * d, body)]
    n = int((w - 0.12) / 0.045)
    for k in range(n):
        if k % 7 in (0, 1, 3, 4, 5):
            x = -w / 2 + 0.06 + (k + 0.7) * 0.045
            if x + 0.015 < w / 2 - 0.06:
                out.append(slab(x - 0.008, x + 0.008, kb_y + 0.02, kb_y + 0.035, -d / 2 + 0.35 * d, d / 2 - 0.1 * d, "plastic_dark"))
    for x in (-0.06, 0.0, 0.06):
        out.append(box((0.03, 0.015, 0.08), "chrome", center=(x, 0.05, -d / 2 + 0.35 * d + 0.04)))
    return out

