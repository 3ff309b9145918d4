"""Buildings on city blocks and storefront places on their road-facing facades.

Each built block's lot is lined with buildings on parcels along its four sides (front
facades flush with the inner edge of the sidewalk); a parcel is a plain box, an L-shape (two
boxes) or left empty (yard). Storefronts are placed on facades that face a street: the place
footprint is the facade segment, the entrance is a point on the sidewalk in front of it, the
yaw faces the street and a sign box (``kind="sign"``, label = category) hangs on the facade.
Frame: Habitat, metres; yaw 0 faces -Z (north).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, Place
from navbench.scene.procgen.streets import Block, BlockSide
from navbench.scene.procgen.urban import PLACE_CATEGORIES, SIDEWALK_Y, Rect
from navbench.scene.storefront_geometry import sign_box_geometry


@dataclass
class Building:
    """A building: one or more axis-aligned box parts (XZ rects) sharing one height."""

    id: str
    parts: list[Rect]
    height: float
    side: BlockSide
    block_id: str
    front: tuple[float, float]  # the facade interval along the side's axis
    colour: str = ""  # facade colour name (route landmarks; the visual layer may paint it)


#: Facade colours of procedural buildings (name -> relative frequency): plain renders and
#: brick dominate, a few bright facades stand out (what direction givers name).
FACADE_COLOURS: dict[str, float] = {
    "white": 3.0, "grey": 3.0, "beige": 2.5, "red": 2.0, "brown": 2.0, "yellow": 1.0,
    "blue": 0.7, "green": 0.6, "orange": 0.5, "pink": 0.4,
}


def paint_buildings(buildings: list[Building], rng: np.random.Generator) -> None:
    """Give every building a facade colour drawn from :data:`FACADE_COLOURS`."""
    names = list(FACADE_COLOURS)
    w = np.array([FACADE_COLOURS[c] for c in names])
    for b, k in zip(buildings, rng.choice(len(names), size=len(buildings), p=w / w.sum()), strict=True):
        b.colour = names[int(k)]


@dataclass(frozen=True)
class BuildingSettings:
    """Building parameters (metres)."""

    height: tuple[float, float] = (6.0, 40.0)
    depth: tuple[float, float] = (10.0, 22.0)
    parcel: tuple[float, float] = (12.0, 35.0)
    empty_prob: float = 0.1
    l_shape_prob: float = 0.3


def _side_parcels(lo: float, hi: float, rng: np.random.Generator, parcel: tuple[float, float]) -> list[tuple[float, float]]:
    """Split ``[lo, hi]`` into parcels of width within ``parcel`` (the last one absorbs the rest)."""
    out: list[tuple[float, float]] = []
    x = lo
    while hi - x > 1e-6:
        w = float(rng.uniform(*parcel))
        if hi - (x + w) < parcel[0]:
            w = hi - x
        out.append((x, x + w))
        x += w
    return out


def place_buildings(block: Block, rng: np.random.Generator, cfg: BuildingSettings, start: int) -> list[Building]:
    """Buildings along the four sides of ``block``'s lot; ids ``bldg_<start + k>``."""
    x0, z0, x1, z1 = block.lot
    w, d = x1 - x0, z1 - z0
    if w < 8 or d < 8:
        return []
    dns = min(float(rng.uniform(*cfg.depth)), d / 2 - 1.0)
    dew = min(float(rng.uniform(*cfg.depth)), w / 2 - 1.0)
    out: list[Building] = []
    sides = {s.side: s for s in block.sides}
    runs: list[tuple[str, float, float]] = [("n", x0, x1), ("s", x0, x1)]
    if z1 - dns - (z0 + dns) > cfg.parcel[0]:
        runs += [("w", z0 + dns, z1 - dns), ("e", z0 + dns, z1 - dns)]
    for side, lo, hi in runs:
        for a, b in _side_parcels(lo, hi, rng, cfg.parcel):
            if rng.random() < cfg.empty_prob:
                continue
            depth = dns if side in "ns" else dew
            back = depth * float(rng.uniform(0.5, 0.8))
            l_shape = rng.random() < cfg.l_shape_prob and b - a > 14
            wing = (a, a + (b - a) / 2) if rng.random() < 0.5 else (a + (b - a) / 2, b)

            def rect(u0: float, u1: float, dep: float, side: str = side) -> Rect:
                if side == "n":
                    return (u0, z0, u1, z0 + dep)
                if side == "s":
                    return (u0, z1 - dep, u1, z1)
                if side == "w":
                    return (x0, u0, x0 + dep, u1)
                return (x1 - dep, u0, x1, u1)

            parts = [rect(a, b, back), rect(wing[0], wing[1], depth)] if l_shape else [rect(a, b, depth)]
            if l_shape:  # the deep wing must not overlap the front part: trim it behind
                r0, r1 = parts
                if side == "n":
                    parts[1] = (r1[0], r0[3], r1[2], r1[3])
                elif side == "s":
                    parts[1] = (r1[0], r1[1], r1[2], r0[1])
                elif side == "w":
                    parts[1] = (r0[2], r1[1], r1[2], r1[3])
                else:
                    parts[1] = (r1[0], r1[1], r0[0], r1[3])
            lo_h, hi_h = cfg.height
            h = float(lo_h + (hi_h - lo_h) * rng.beta(1.6, 3.0))
            out.append(Building(f"bldg_{start + len(out)}", parts, h, sides[side], block.id, (a, b)))
    return out


def building_boxes(b: Building) -> list[Box]:
    """Static boxes (``kind="building"``) of a building, standing on the ground (y = 0)."""
    return [
        Box(f"{b.id}_{k}", "building", ((r[0] + r[2]) / 2, SIDEWALK_Y + b.height / 2, (r[1] + r[3]) / 2),
            (r[2] - r[0], b.height, r[3] - r[1]), 0.0, label="building", ref=b.id)
        for k, r in enumerate(b.parts)
    ]


_NAMES = ("Blue", "Corner", "Golden", "Maple", "Union", "Harbor", "Sunny", "Oak", "Central", "Little",
          "Green", "Royal", "Ruby", "Silver", "Elm", "Lucky", "Park", "River", "Metro", "Nova")


@dataclass(frozen=True)
class Storefront:
    """A placed storefront: the place, its sign box and the clear zone kept free of props."""

    place: Place
    sign: Box
    clear_zone: Rect


def _facade_line(b: Building) -> tuple[str, float]:
    """Axis along the facade (``"x"`` or ``"z"``) and the facade's fixed coordinate."""
    r = b.parts[0]
    s = b.side.side
    return {"n": ("x", r[1]), "s": ("x", r[3]), "w": ("z", r[0]), "e": ("z", r[2])}[s]


def storefront(b: Building, category: str, pid: str, sidewalk: float, rng: np.random.Generator) -> Storefront:
    """A storefront of ``category`` centred on ``b``'s front facade, facing the street."""
    axis, c = _facade_line(b)
    nx, nz = b.side.normal
    a0, a1 = b.front
    width = min(float(rng.uniform(6.0, 10.0)), (a1 - a0) - 1.0)
    mid = (a0 + a1) / 2
    u0, u1 = mid - width / 2, mid + width / 2
    depth = 0.3  # the shop front protrudes 0.3 m from the facade
    n = nx if axis == "z" else nz  # outward normal component along the fixed axis
    # The sign (visual/storefront.py draws it over this box): SIGN_BAND up, where both robots'
    # cameras see all of it from 3-15 m, across the front between the 0.25 m piers.
    s0, s1 = u0 + 0.25, u1 - 0.25
    smid = (s0 + s1) / 2
    sy, sz, sh, sd = sign_box_geometry(SIDEWALK_Y)
    if axis == "x":
        fp = (u0, min(c, c + n * depth), u1, max(c, c + n * depth))
        entrance = (mid, SIDEWALK_Y, c + n * 1.0)
        sign_c = (smid, sy, c + n * sz)
        clear = (u0, min(c, c + n * sidewalk), u1, max(c, c + n * sidewalk))
    else:
        fp = (min(c, c + n * depth), u0, max(c, c + n * depth), u1)
        entrance = (c + n * 1.0, SIDEWALK_Y, mid)
        sign_c = (c + n * sz, sy, smid)
        clear = (min(c, c + n * sidewalk), u0, max(c, c + n * sidewalk), u1)
    yaw = yaw_of_direction(nx, nz)
    name = f"{_NAMES[int(rng.integers(len(_NAMES)))]} {category.title()}"
    x0, z0, x1, z1 = fp
    place = Place(pid, category, name, entrance, ((x0, z1), (x1, z1), (x1, z0), (x0, z0)), yaw, b.id)
    sign = Box(f"{pid}_sign", "sign", sign_c, (s1 - s0, sh, sd), yaw, label=category, ref=pid)
    return Storefront(place, sign, clear)


#: OSM-like storefront frequencies (relative weights, sum 100) of the 17 place categories.
#: Source reasoning: OpenStreetMap tag counts (taginfo, amenity=* / shop=* / tourism=hotel /
#: leisure=fitness_centre) put amenity=restaurant first by a wide margin, then shop=convenience,
#: amenity=cafe and amenity=fast_food, with clothes shops, hairdressers, bars, pharmacies, banks
#: and supermarkets next and bookshops, florists, post offices, gyms and ice-cream shops rare
#: (each well under 2% of the storefront-like POIs). The weights are rounded shares of those
#: orders of magnitude over the 17 categories (not a download; no data ships with navbench).
STOREFRONT_FREQUENCY: dict[str, float] = {
    "restaurant": 20.0, "convenience store": 13.0, "cafe": 11.0, "fast food": 9.0,
    "clothing store": 7.0, "hair salon": 7.0, "bar": 5.0, "pharmacy": 5.0, "bakery": 4.0,
    "supermarket": 4.0, "bank": 4.0, "hotel": 3.0, "florist": 2.0, "bookstore": 2.0,
    "gym": 1.5, "post office": 1.5, "ice cream shop": 1.0,
}
assert set(STOREFRONT_FREQUENCY) == set(PLACE_CATEGORIES) and abs(sum(STOREFRONT_FREQUENCY.values()) - 100) < 1e-9


def storefront_categories(n: int, rng: np.random.Generator, min_per_category: int = 1,
                          categories: tuple[str, ...] = PLACE_CATEGORIES) -> list[str]:
    """``n`` storefront categories: ``min_per_category`` of each (while ``n`` allows, every
    PlaceNav category stays possible), the rest drawn from :data:`STOREFRONT_FREQUENCY`."""
    base = [c for c in categories for _ in range(min_per_category)][:n]
    w = np.array([STOREFRONT_FREQUENCY.get(c, 1.0) for c in categories])
    extra = rng.choice(len(categories), size=max(0, n - len(base)), p=w / w.sum())
    out = base + [categories[int(i)] for i in extra]
    return [out[int(i)] for i in rng.permutation(len(out))]


def place_storefronts(
    buildings: list[Building], sidewalk_of: dict[str, float], per_category: int,
    rng: np.random.Generator, categories: tuple[str, ...] = PLACE_CATEGORIES, min_per_category: int = 1,
) -> list[Storefront]:
    """``per_category x len(categories)`` storefronts (as candidates allow) on distinct
    street-facing buildings, categories from :func:`storefront_categories`.

    Candidates are buildings whose side faces a street and whose facade is at least 7 m wide.
    """
    cand = [b for b in buildings if b.side.on_road and b.front[1] - b.front[0] >= 7.0]
    order = rng.permutation(len(cand))
    n = min(len(cand), per_category * len(categories))
    cats = storefront_categories(n, rng, min(min_per_category, per_category), categories)
    out: list[Storefront] = []
    for k in range(n):
        b = cand[int(order[k])]
        out.append(storefront(b, cats[k], f"place_{k}", sidewalk_of[b.block_id], rng))
    return out
