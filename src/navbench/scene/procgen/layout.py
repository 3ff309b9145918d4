"""House floor plans: footprint, recursive room partition, room types, doors and walls.

Everything here is 2D in the XZ ground plane (metres, Habitat frame: north = -Z, east = +X).
Rooms are axis-aligned rectangles ``(x0, z0, x1, z1)`` that tile an irregular rectilinear
footprint (a rectangle, an L or a T). Walls are centred on room edges, so a room's floor
rectangle reaches the wall centre lines and the free floor starts half a wall thickness inside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import PortalKind

Rect = tuple[float, float, float, float]
"""An axis-aligned XZ rectangle ``(x0, z0, x1, z1)`` with ``x0 < x1`` and ``z0 < z1`` (m)."""

_EPS = 1e-6

#: Target floor area range (m²) per room type.
ROOM_AREAS: dict[str, tuple[float, float]] = {
    "living room": (16.0, 30.0),
    "kitchen": (8.0, 14.0),
    "dining room": (9.0, 15.0),
    "bedroom": (9.0, 16.0),
    "bathroom": (4.0, 8.0),
    "office": (7.0, 12.0),
    "laundry room": (4.0, 7.0),
}
#: Shortest allowed room side (m) per room type (hallways use their own width range).
MIN_SIDE: dict[str, float] = {"bathroom": 1.7, "laundry room": 1.7, "bedroom": 2.7, "dining room": 2.8}
DEFAULT_MIN_SIDE = 2.4
MAX_ASPECT = 2.6
#: How many rooms of each extra type a house may have beyond its core rooms.
_EXTRA_CAPS: dict[str, int] = {
    "dining room": 1, "bedroom": 2, "office": 1, "bathroom": 1, "laundry room": 1,
}


@dataclass(frozen=True)
class RoomCell:
    """A rectangular room of the plan."""

    id: str
    label: str
    rect: Rect


@dataclass(frozen=True)
class Door:
    """A door opening in a wall line.

    ``axis`` is ``"x"`` for a wall on the line ``x = coord`` (running along Z) and ``"z"`` for
    the line ``z = coord``. The opening spans ``[lo, hi]`` along the line. ``direction`` is the
    unit XZ passage direction from ``rooms[0]`` into ``rooms[1]`` (``OUTDOOR`` for the exit).
    """

    id: str
    kind: PortalKind
    rooms: tuple[str, str]
    axis: str
    coord: float
    lo: float
    hi: float
    direction: tuple[float, float]

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def center_xz(self) -> tuple[float, float]:
        m = 0.5 * (self.lo + self.hi)
        return (self.coord, m) if self.axis == "x" else (m, self.coord)

    @property
    def yaw(self) -> float:
        return yaw_of_direction(*self.direction)


@dataclass(frozen=True)
class WallSeg:
    """A straight wall piece on a line (see :class:`Door` for ``axis``/``coord``), [lo, hi]."""

    axis: str
    coord: float
    lo: float
    hi: float
    thickness: float


@dataclass(frozen=True)
class Plan:
    """A complete floor plan: rooms, doors (interior + one exit) and wall pieces."""

    shape: str
    rooms: tuple[RoomCell, ...]
    doors: tuple[Door, ...]
    walls: tuple[WallSeg, ...]
    t_int: float
    t_ext: float


class PlanRejectedError(Exception):
    """The sampled plan breaks a constraint; the caller retries with a new random stream."""


# --------------------------------------------------------------------------- room types


def room_program(n: int, rng: np.random.Generator) -> list[str]:
    """Room labels for ``n`` rooms (1–10), ordered so that list neighbours should touch.

    Houses with more than 5 rooms get a hallway (returned first).
    """
    if n == 1:
        return ["living room"]
    if n == 2:
        return [str(x) for x in rng.choice([["kitchen", "living room"], ["living room", "bedroom"]])]
    if n == 3:
        return [str(x) for x in rng.choice([["kitchen", "living room", "bedroom"],
                                            ["living room", "bedroom", "bathroom"]])]
    public = ["kitchen", "living room"]
    private = ["bedroom", "bathroom"]
    n_extra = n - 4 - (1 if n > 5 else 0)
    pool = [k for k, c in _EXTRA_CAPS.items() for _ in range(c)]
    extras = [str(x) for x in rng.choice(pool, size=n_extra, replace=False)] if n_extra else []
    if "dining room" in extras:
        extras.remove("dining room")
        public = [["dining room", "kitchen", "living room"],
                  ["kitchen", "dining room", "living room"],
                  ["living room", "kitchen", "dining room"]][int(rng.integers(3))]
    elif rng.random() < 0.5:
        public = public[::-1]
    beds = ["bedroom"] * (1 + extras.count("bedroom"))
    baths = ["bathroom"] * (1 + extras.count("bathroom"))
    others = [e for e in extras if e not in ("bedroom", "bathroom")]
    private = []
    for i in range(max(len(beds), len(baths))):  # each bathroom right after a bedroom
        private += beds[i:i + 1] + baths[i:i + 1]
    private += others
    order = public + private if rng.random() < 0.5 else private[::-1] + public[::-1]
    return (["hallway"] if n > 5 else []) + order


# --------------------------------------------------------------------------- partition


def _split_1d(rect: Rect, areas: list[float], axis: int,
              mins: list[float] | None = None) -> list[Rect]:
    """Cut ``rect`` into strips along ``axis`` (0: cuts across x, 1: across z) ∝ ``areas``.

    With ``mins``, no strip is narrower than its minimum (the others shrink to make room).
    """
    x0, z0, x1, z1 = rect
    length = (x1 - x0) if axis == 0 else (z1 - z0)
    total = sum(areas)
    lens = [a / total * length for a in areas]
    if mins is not None:
        fixed = [False] * len(lens)
        for _ in range(len(lens)):
            short = [i for i, v in enumerate(lens) if not fixed[i] and v < mins[i]]
            if not short:
                break
            for i in short:
                fixed[i], lens[i] = True, mins[i]
            free = [i for i in range(len(lens)) if not fixed[i]]
            room = length - sum(lens[i] for i in range(len(lens)) if fixed[i])
            if not free or room <= 0:
                raise PlanRejectedError("strip too short for its rooms")
            fsum = sum(areas[i] for i in free)
            for i in free:
                lens[i] = areas[i] / fsum * room
    out: list[Rect] = []
    acc = 0.0
    for k, v in enumerate(lens):
        a, b = acc, length if k == len(lens) - 1 else acc + v
        acc += v
        if axis == 0:
            out.append((x0 + a, z0, x0 + b, z1))
        else:
            out.append((x0, z0 + a, x1, z0 + b))
    return out


def treemap(rect: Rect, areas: list[float]) -> list[Rect]:
    """Recursive guillotine partition of ``rect`` into cells ∝ ``areas`` (order preserved).

    The list is cut where the two halves' sums are closest, across the longer side.
    """
    if len(areas) == 1:
        return [rect]
    total = sum(areas)
    acc = np.cumsum(areas)[:-1]
    k = int(np.argmin(np.abs(acc - total / 2))) + 1
    x0, z0, x1, z1 = rect
    axis = 0 if (x1 - x0) >= (z1 - z0) else 1
    a, b = _split_1d(rect, [float(acc[k - 1]), total - float(acc[k - 1])], axis)
    return treemap(a, areas[:k]) + treemap(b, areas[k:])


def _group_split(areas: list[float], fractions: list[float]) -> list[int]:
    """Cut indices splitting ``areas`` into contiguous non-empty groups ≈ ``fractions``."""
    n, g = len(areas), len(fractions)
    total = sum(areas)
    acc = np.concatenate([[0.0], np.cumsum(areas)])
    cuts = [0]
    target = 0.0
    for j in range(g - 1):
        target += fractions[j] * total
        lo, hi = cuts[-1] + 1, n - (g - 1 - j)
        best = min(range(lo, hi + 1), key=lambda i: abs(acc[i] - target))
        cuts.append(best)
    return [*cuts, n]


def _transform(rects: list[Rect], rng: np.random.Generator) -> list[Rect]:
    """Random transpose / mirror, then centre the footprint on the origin."""
    if rng.random() < 0.5:
        rects = [(z0, x0, z1, x1) for x0, z0, x1, z1 in rects]
    xs = max(r[2] for r in rects)
    zs = max(r[3] for r in rects)
    if rng.random() < 0.5:
        rects = [(xs - x1, z0, xs - x0, z1) for x0, z0, x1, z1 in rects]
    if rng.random() < 0.5:
        rects = [(x0, zs - z1, x1, zs - z0) for x0, z0, x1, z1 in rects]
    cx, cz = xs / 2, zs / 2
    return [(round(x0 - cx, 4), round(z0 - cz, 4), round(x1 - cx, 4), round(z1 - cz, 4))
            for x0, z0, x1, z1 in rects]


def partition(labels: list[str], rng: np.random.Generator,
              shape_weights: tuple[float, float, float],
              hallway_width: tuple[float, float]) -> tuple[str, list[Rect]]:
    """Footprint shape (``rect``, ``L`` or ``T``) and one rectangle per label (same order)."""
    has_hall = labels[0] == "hallway"
    rooms = labels[1:] if has_hall else labels
    areas = [float(rng.uniform(*ROOM_AREAS[lb])) for lb in rooms]
    w = np.asarray(shape_weights, dtype=float)
    shape = "rect" if len(rooms) < 2 or (has_hall and len(rooms) < 3) else str(
        rng.choice(["rect", "L", "T"], p=w / w.sum()))
    wing_frac = float(rng.uniform(0.2, 0.4)) if shape != "rect" else 0.0
    rects: list[Rect] = []
    if has_hall:
        dn, ds = float(rng.uniform(3.0, 4.5)), float(rng.uniform(3.0, 4.5))
        hw = float(rng.uniform(*hallway_width))
        main_f = 1.0 - wing_frac
        fr = [main_f * dn / (dn + ds), main_f * ds / (dn + ds)] + ([wing_frac] if wing_frac else [])
        cuts = _group_split(areas, fr)
        groups = [areas[cuts[i]:cuts[i + 1]] for i in range(len(fr))]
        labs = [rooms[cuts[i]:cuts[i + 1]] for i in range(len(fr))]
        mins = [[MIN_SIDE.get(lb, DEFAULT_MIN_SIDE) for lb in g] for g in labs]
        width = max((sum(groups[0]) + sum(groups[1])) / (dn + ds),
                    sum(max(a / dn, m) for a, m in zip(groups[0], mins[0], strict=True)),
                    sum(max(a / ds, m) for a, m in zip(groups[1], mins[1], strict=True)))
        rects += _split_1d((0.0, 0.0, width, dn), groups[0], 0, mins[0])
        hall = (0.0, dn, width, dn + hw)
        rects += _split_1d((0.0, dn + hw, width, dn + hw + ds), groups[1], 0, mins[1])
        main = (0.0, 0.0, width, dn + hw + ds)
        wing_areas = groups[2] if wing_frac else []
    else:
        if wing_frac:
            cuts = _group_split(areas, [1.0 - wing_frac, wing_frac])
            main_areas, wing_areas = areas[: cuts[1]], areas[cuts[1]:]
        else:
            main_areas, wing_areas = areas, []
        a_m = sum(main_areas)
        aspect = float(rng.uniform(1.0, 1.6))
        width = math.sqrt(a_m * aspect)
        main = (0.0, 0.0, width, a_m / width)
        rects += treemap(main, main_areas)
    if wing_areas:
        a_w = sum(wing_areas)
        wd = float(rng.uniform(3.0, 4.5))
        ww = a_w / wd
        max_w = main[2] - (2.0 if shape == "T" else 1.0)
        if ww > max_w:
            ww = max_w
            wd = a_w / ww
        if shape == "L":
            x0 = 0.0 if rng.random() < 0.5 else main[2] - ww
        else:
            x0 = float(rng.uniform(1.0, main[2] - ww - 1.0)) if main[2] - ww > 2.0 else 0.0
        wing = (x0, main[3], x0 + ww, main[3] + wd)
        wl = labels[len(labels) - len(wing_areas):]
        rects += treemap(wing, wing_areas) if len(wing_areas) < 3 else _split_1d(
            wing, wing_areas, 0 if ww >= wd else 1, [MIN_SIDE.get(lb, DEFAULT_MIN_SIDE) for lb in wl])
    if has_hall:
        rects.insert(0, hall)
    rects = _transform(rects, rng)
    for lb, r in zip(labels, rects, strict=True):
        sx, sz = r[2] - r[0], r[3] - r[1]
        short, long_ = min(sx, sz), max(sx, sz)
        if lb == "hallway":
            continue
        if short < MIN_SIDE.get(lb, DEFAULT_MIN_SIDE) or long_ / short > MAX_ASPECT:
            raise PlanRejectedError(f"{lb} of {sx:.2f} x {sz:.2f} m")
    return shape, rects


# --------------------------------------------------------------------------- adjacency


def shared_edge(a: Rect, b: Rect) -> tuple[str, float, float, float] | None:
    """The common wall of two touching rectangles: ``(axis, coord, lo, hi)``, or ``None``."""
    for axis, (a0, a1, b0, b1, alo, ahi, blo, bhi) in (
        ("x", (a[0], a[2], b[0], b[2], a[1], a[3], b[1], b[3])),
        ("z", (a[1], a[3], b[1], b[3], a[0], a[2], b[0], b[2])),
    ):
        for c1, c2 in ((a1, b0), (a0, b1)):
            if abs(c1 - c2) < _EPS:
                lo, hi = max(alo, blo), min(ahi, bhi)
                if hi - lo > _EPS:
                    return axis, c1, lo, hi
    return None


def _direction(axis: str, coord: float, src: Rect) -> tuple[float, float]:
    """Unit direction leaving ``src`` through its edge on the given line."""
    if axis == "x":
        return (1.0, 0.0) if abs(src[2] - coord) < _EPS else (-1.0, 0.0)
    return (0.0, 1.0) if abs(src[3] - coord) < _EPS else (0.0, -1.0)
