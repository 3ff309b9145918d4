"""Surface clutter by room type: the small things that stand on worktops, tables, desks,
dressers and shelves (bottles, jars, a utensil pot, a knife block, magazines, paper, a pen pot,
trays, toiletries, folded towels ...). Each item is its own segmentation entity (``ref``
``<furniture id>/clutter<k>``, label the item's name). Items are never catalogue categories (a
clutter vase would be a false ObjectNav goal), never overlap the scene's own small objects on
that surface and never change the navmesh (visual only, on top of furniture).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import shapely

from navbench.rng import derive
from navbench.scene.model import Scene, SceneObject
from navbench.visual import finishes as fin
from navbench.visual.compose import bar, blob, lathe, slab
from navbench.visual.interior import Fitting
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, cylinder

ItemFn = Callable[[np.random.Generator], list[Part]]


def _pick(rng: np.random.Generator, cols: tuple[tuple[float, float, float], ...]) -> tuple[float, float, float]:
    c = cols[int(rng.integers(len(cols)))]
    return (float(c[0]), float(c[1]), float(c[2]))


def bottle(rng: np.random.Generator) -> list[Part]:
    """Wine / oil bottle: dark glass body, shoulder, neck, a cap or cork; a paper label."""
    r, h = float(rng.uniform(0.035, 0.045)), float(rng.uniform(0.26, 0.32))
    glass = tinted("plastic", _pick(rng, ((0.1, 0.25, 0.12), (0.25, 0.12, 0.06), (0.55, 0.6, 0.3), (0.12, 0.12, 0.14))))
    out = [lathe([(0, 0), (r, 0), (r, 0.62 * h), (0.35 * r, 0.78 * h), (0.3 * r, h), (0, h)], glass, segments=12),
           cylinder(1.02 * r, 0.09 * h, tinted("paper", _pick(rng, ((0.95, 0.93, 0.85), (0.9, 0.85, 0.6)))), segments=12,
                    center=(0, 0.3 * h, 0), caps=False)]
    return out


def jar(rng: np.random.Generator) -> list[Part]:
    """Storage jar: a glass cylinder of pasta / beans / sugar with a wooden or metal lid."""
    r, h = float(rng.uniform(0.045, 0.06)), float(rng.uniform(0.12, 0.2))
    fill = tinted("plastic_matte", _pick(rng, ((0.95, 0.85, 0.5), (0.6, 0.35, 0.2), (0.98, 0.98, 0.96), (0.8, 0.5, 0.2))))
    return [cylinder(r, 0.8 * h, fill, segments=12, center=(0, 0.4 * h, 0)),
            cylinder(1.04 * r, 0.15 * h, fin.species(rng) if rng.random() < 0.5 else "stainless", segments=12,
                     center=(0, 0.875 * h, 0))]


def utensil_pot(rng: np.random.Generator) -> list[Part]:
    """A ceramic pot holding a wooden spoon, a spatula and a whisk handle."""
    pot = tinted("ceramic", _pick(rng, ((0.95, 0.95, 0.93), (0.2, 0.3, 0.5), (0.7, 0.3, 0.2))))
    out = [cylinder(0.055, 0.14, pot, segments=12, center=(0, 0.07, 0))]
    for k, (dx, dz) in enumerate(((0.02, 0.0), (-0.015, 0.015), (0.0, -0.02))):
        mat = fin.species(rng, "maple") if k != 1 else "black_metal"
        out.append(bar((dx, 0.05, dz), (dx * 3, 0.3, dz * 3), 0.012, mat))
    return out


def knife_block(rng: np.random.Generator) -> list[Part]:
    """A slanted wooden block with four black knife handles."""
    wood = fin.species(rng)
    out = [slab(-0.06, 0.06, 0.0, 0.2, -0.05, 0.06, wood)]
    for k in range(4):
        x = -0.04 + 0.027 * k
        out.append(bar((x, 0.2, -0.01), (x, 0.3, -0.04), 0.016, "black_metal"))
    return out


def paper_towel(rng: np.random.Generator) -> list[Part]:
    """A roll of kitchen paper on a stand."""
    return [cylinder(0.065, 0.01, "stainless", segments=14, center=(0, 0.005, 0)),
            cylinder(0.012, 0.3, "stainless", segments=8, center=(0, 0.15, 0)),
            cylinder(0.06, 0.26, "paper", segments=14, center=(0, 0.14, 0))]


def magazines(rng: np.random.Generator) -> list[Part]:
    """A stack of two to four glossy magazines, slightly askew."""
    out = []
    for k in range(int(rng.integers(2, 5))):
        a = float(rng.uniform(-0.25, 0.25))
        c, s = math.cos(a), math.sin(a)
        p = slab(-0.105, 0.105, 0.006 * k, 0.006 * (k + 1) - 0.001, -0.14, 0.14,
                 tinted("plastic", _pick(rng, ((0.85, 0.2, 0.2), (0.95, 0.95, 0.9), (0.2, 0.4, 0.7), (0.95, 0.8, 0.2)))))
        rot = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
        out.append(Part(p.vertices @ rot.T, p.faces, p.uv, p.material))
    return out


def paper_stack(rng: np.random.Generator) -> list[Part]:
    """A ream of A4 paper beside a ring binder lying flat."""
    return [slab(-0.105, 0.105, 0.0, 0.03, -0.15, 0.15, "paper"),
            slab(0.12, 0.25, 0.0, 0.05, -0.16, 0.16, tinted("plastic", _pick(rng, ((0.1, 0.3, 0.7), (0.8, 0.1, 0.1), (0.1, 0.1, 0.1)))))]


def pen_pot(rng: np.random.Generator) -> list[Part]:
    """A pot of pens and pencils."""
    out = [cylinder(0.035, 0.1, tinted("metal", (0.3, 0.3, 0.32)), segments=10, center=(0, 0.05, 0))]
    for k in range(5):
        a = 2 * math.pi * k / 5
        col = tinted("plastic", _pick(rng, ((0.1, 0.2, 0.8), (0.9, 0.1, 0.1), (0.1, 0.1, 0.1), (0.95, 0.8, 0.1))))
        out.append(bar((0.012 * math.cos(a), 0.03, 0.012 * math.sin(a)),
                       (0.03 * math.cos(a), 0.16, 0.03 * math.sin(a)), 0.008, col))
    return out


def tray(rng: np.random.Generator) -> list[Part]:
    """A shallow tray with a carafe or two glasses on it."""
    mat = fin.species(rng) if rng.random() < 0.5 else tinted("lacquer", (0.1, 0.1, 0.1))
    out = [slab(-0.2, 0.2, 0.0, 0.01, -0.14, 0.14, mat)]
    for x0, x1, z0, z1 in ((-0.2, 0.2, -0.14, -0.13), (-0.2, 0.2, 0.13, 0.14), (-0.2, -0.19, -0.13, 0.13),
                           (0.19, 0.2, -0.13, 0.13)):
        out.append(slab(x0, x1, 0.01, 0.035, z0, z1, mat))
    out.append(lathe([(0, 0), (0.045, 0), (0.05, 0.12), (0.018, 0.2), (0.018, 0.24), (0, 0.24)], "glass", segments=12,
                     center=(-0.07, 0.01, 0)))
    out.append(cylinder(0.03, 0.09, "glass", segments=10, center=(0.08, 0.055, 0.03), radius_top=0.034))
    return out


def bowl(rng: np.random.Generator) -> list[Part]:
    """An empty decorative bowl (wood or glazed stoneware) on a low foot."""
    mat = fin.species(rng, "walnut") if rng.random() < 0.5 else tinted(
        "ceramic", _pick(rng, ((0.2, 0.3, 0.45), (0.85, 0.8, 0.7), (0.3, 0.45, 0.35))))
    return [lathe([(0, 0), (0.05, 0), (0.06, 0.02), (0.13, 0.07), (0.12, 0.075), (0.05, 0.03), (0, 0.03)], mat,
                  segments=18)]


def sculpture(rng: np.random.Generator) -> list[Part]:
    """A small abstract sculpture: stacked stone pebbles or a twisted metal figure on a plinth."""
    if rng.random() < 0.5:
        stone = tinted("ceramic", _pick(rng, ((0.3, 0.3, 0.3), (0.85, 0.83, 0.78), (0.55, 0.5, 0.45))))
        out, y = [], 0.0
        for k, r in enumerate((0.06, 0.05, 0.04, 0.03)):
            out.append(blob(r, stone, (0.005 * k, y + 0.45 * r, 0), rng, scale=(1.0, 0.45, 0.9)))
            y += 0.85 * r
        return out
    metal = ("brass", "black_metal", "chrome")[int(rng.integers(3))]
    out = [slab(-0.05, 0.05, 0.0, 0.03, -0.05, 0.05, "black_metal")]
    pts = [(0.0, 0.03, 0.0), (0.03, 0.12, 0.01), (-0.02, 0.2, -0.02), (0.02, 0.27, 0.01)]
    for a, b in itertools.pairwise(pts):
        out.append(bar(a, b, 0.015, metal))
    return out


def storage_box(rng: np.random.Generator) -> list[Part]:
    """A lidded storage box (card or woven)."""
    mat = tinted(*(("wicker", (1.0, 1.0, 1.0)) if rng.random() < 0.4 else
                   ("linen", _pick(rng, ((0.85, 0.8, 0.7), (0.4, 0.45, 0.5), (0.95, 0.95, 0.93))))))
    w, h, d = float(rng.uniform(0.2, 0.3)), float(rng.uniform(0.1, 0.16)), float(rng.uniform(0.15, 0.22))
    return [slab(-w / 2, w / 2, 0, h - 0.02, -d / 2, d / 2, mat), slab(-w / 2 - 0.005, w / 2 + 0.005, h - 0.025, h,
                                                                       -d / 2 - 0.005, d / 2 + 0.005, mat)]


def toiletries(rng: np.random.Generator) -> list[Part]:
    """A toothbrush mug with two brushes beside a lotion bottle."""
    mug = tinted("ceramic", _pick(rng, ((0.95, 0.95, 0.93), (0.6, 0.75, 0.8))))
    out = [cylinder(0.035, 0.1, mug, segments=12, center=(0, 0.05, 0))]
    for k, col in enumerate(((0.2, 0.5, 0.9), (0.9, 0.3, 0.4))):
        out.append(bar((0.01 * (2 * k - 1), 0.06, 0), (0.025 * (2 * k - 1), 0.19, 0.01), 0.01, tinted("plastic", col)))
    lotion = tinted("plastic", _pick(rng, ((0.95, 0.95, 0.95), (0.7, 0.85, 0.95), (0.95, 0.8, 0.85))))
    out.append(cylinder(0.03, 0.16, lotion, segments=10, center=(0.09, 0.08, 0.0)))
    out.append(cylinder(0.012, 0.03, "plastic_dark", segments=8, center=(0.09, 0.175, 0.0)))
    return out


def towels(rng: np.random.Generator) -> list[Part]:
    """Two or three folded towels stacked."""
    out = []
    for k in range(int(rng.integers(2, 4))):
        col = tinted("knit", _pick(rng, ((0.98, 0.98, 0.97), (0.7, 0.8, 0.9), (0.9, 0.8, 0.7), (0.6, 0.7, 0.6))))
        out.append(slab(-0.15, 0.15, 0.05 * k, 0.05 * (k + 1) - 0.004, -0.12, 0.12, col))
    return out


def perfume(rng: np.random.Generator) -> list[Part]:
    """Two perfume bottles (glass blocks with metal caps)."""
    out = []
    for k, x in enumerate((-0.03, 0.035)):
        h = 0.09 + 0.03 * k
        out.append(slab(x - 0.025, x + 0.025, 0.0, h, -0.015, 0.015,
                        tinted("ceramic", _pick(rng, ((0.95, 0.85, 0.6), (0.85, 0.6, 0.7), (0.7, 0.8, 0.9))))))
        out.append(cylinder(0.012, 0.025, "brass", segments=8, center=(x, h + 0.0125, 0)))
    return out


def phone(rng: np.random.Generator) -> list[Part]:
    """A smartphone lying face down beside a pair of glasses."""
    return [slab(-0.035, 0.035, 0.0, 0.008, -0.075, 0.075, "plastic_dark"),
            slab(0.06, 0.18, 0.0, 0.012, -0.02, 0.02, "black_metal")]


#: Item builders by label (none is a catalogue category).
ITEMS: dict[str, ItemFn] = {
    "bottle": bottle, "jar": jar, "utensil pot": utensil_pot, "knife block": knife_block,
    "paper towel": paper_towel, "magazine": magazines, "paper": paper_stack, "pen pot": pen_pot,
    "tray": tray, "bowl": bowl, "sculpture": sculpture, "storage box": storage_box,
    "toiletries": toiletries, "towel": towels, "perfume": perfume, "phone": phone,
}
#: What lies on which furniture (by its category).
ON: dict[str, tuple[str, ...]] = {
    "counter": ("bottle", "jar", "jar", "utensil pot", "knife block", "paper towel"),
    "kitchen island": ("bottle", "jar", "tray", "bowl"),
    "dining table": ("bottle", "tray", "bowl"),
    "coffee table": ("magazine", "tray", "bowl", "sculpture"),
    "side table": ("magazine", "phone", "sculpture"),
    "console table": ("bowl", "sculpture", "storage box", "tray"),
    "sideboard": ("bowl", "sculpture", "bottle", "storage box"),
    "tv stand": ("sculpture", "storage box", "magazine"),
    "desk": ("paper", "pen pot", "phone", "storage box"),
    "dresser": ("perfume", "storage box", "tray", "towel"),
    "nightstand": ("phone", "perfume", "magazine"),
    "cabinet": ("storage box", "bowl", "sculpture"),
    "bookshelf": ("storage box", "sculpture"),
    "washing machine": ("towel",),
    "shoe rack": ("storage box",),
    "filing cabinet": ("paper", "storage box"),
}


def clutter(scene: Scene, seed: int) -> list[Fitting]:
    """Up to three items on each furniture top of :data:`ON` (at least 0.15 m² of it free),
    placed by rejection sampling clear of the scene's objects standing on it (8 cm apart)."""
    out = []
    on_top: dict[str, list[SceneObject]] = {}
    for o in scene.objects:
        if o.parent_id:
            on_top.setdefault(o.parent_id, []).append(o)
    for o in scene.objects:
        if o.label not in ON or o.size is None or o.parent_id:
            continue
        rng = derive(seed, "clutter", o.id)
        w, h, d = o.size
        if w * d < 0.15:
            continue
        c, s = math.cos(o.yaw), math.sin(o.yaw)
        rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
        taken = [_footprint(x) for x in on_top.get(o.id, [])]
        n = int(rng.integers(1, 4)) if w * d > 0.3 else 1
        pool = ON[o.label]
        for k in range(n):
            label = pool[int(rng.integers(len(pool)))]
            parts = ITEMS[label](rng)
            v = np.vstack([p.vertices for p in parts])
            lo, hi = v.min(axis=0), v.max(axis=0)
            r = 0.5 * float(np.hypot(hi[0] - lo[0], hi[2] - lo[2]))
            for _ in range(12):
                lx = float(rng.uniform(-w / 2 + r + 0.03, w / 2 - r - 0.03)) if w > 2 * r + 0.06 else 0.0
                lz = float(rng.uniform(-d / 2 + r + 0.03, d / 2 - r - 0.03)) if d > 2 * r + 0.06 else 0.0
                p = np.array([lx, 0.0, lz]) @ rot.T + np.asarray(o.center, float)
                disc = shapely.Point(p[0], p[2]).buffer(r + 0.04)
                if not any(disc.intersects(t) for t in taken):
                    break
            else:
                continue
            taken.append(disc)
            a = o.yaw + float(rng.uniform(-0.4, 0.4))
            ca, sa = math.cos(a), math.sin(a)
            ra = np.array([[ca, 0.0, sa], [0.0, 1.0, 0.0], [-sa, 0.0, ca]])
            top = np.array([p[0], o.center[1] + h / 2 + 0.001, p[2]])
            world = tuple(Part(q.vertices @ ra.T + top, q.faces, q.uv, q.material) for q in parts)
            out.append(Fitting(f"{o.id}/clutter{k}", label, world))
    return out


def _footprint(o: SceneObject) -> shapely.Polygon:
    assert o.size is not None
    c, s = math.cos(o.yaw), math.sin(o.yaw)
    hx, hz = o.size[0] / 2, o.size[2] / 2
    return shapely.Polygon([(o.center[0] + c * x + s * z, o.center[2] - s * x + c * z)
                            for x, z in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))])
