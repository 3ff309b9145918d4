"""Doors, the entrance and wall pieces of a house floor plan (2D, XZ, metres).

Walls are centred on room edges; exterior pieces use the thicker wall ``t_ext``. Doors sit
in shared room edges, clear of the perpendicular walls; bathrooms get exactly one door.
"""

from __future__ import annotations

import itertools

import numpy as np

from navbench.scene.model import OUTDOOR
from navbench.scene.procgen.layout import (
    _EPS,
    Door,
    Plan,
    PlanRejectedError,
    Rect,
    RoomCell,
    WallSeg,
    _direction,
    partition,
    room_program,
    shared_edge,
)


def _usable(lo: float, hi: float, t_ext: float) -> tuple[float, float]:
    """The part of a wall interval where a door may go (clear of the perpendicular walls)."""
    m = t_ext / 2 + 0.1
    return lo + m, hi - m


_DOOR_PREF = {"hallway": 0.0, "living room": 0.5, "dining room": 0.5, "kitchen": 0.6}


def plan_doors(cells: list[RoomCell], rng: np.random.Generator, t_ext: float,
               door_width: tuple[float, float], extra_door_rate: float) -> list[Door]:
    """Interior doors: a random spanning tree of the room adjacency plus a few extra loops.

    Bathrooms get exactly one door, to a hallway or a bedroom. Raises :class:`PlanRejectedError`
    when no such tree exists or the kitchen touches neither a dining nor a living room.
    """
    n = len(cells)
    cand: list[tuple[float, int, int, tuple[str, float, float, float]]] = []
    touching: list[set[str]] = [set() for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            e = shared_edge(cells[i].rect, cells[j].rect)
            if e is None:
                continue
            if e[3] - e[2] >= 1.0:
                touching[i].add(cells[j].label)
                touching[j].add(cells[i].label)
            lo, hi = _usable(e[2], e[3], t_ext)
            if hi - lo < door_width[0]:
                continue
            li, lj = cells[i].label, cells[j].label
            if "bathroom" in (li, lj):
                other = lj if li == "bathroom" else li
                if other not in ("hallway", "bedroom"):
                    continue
                w = 0.0
            else:
                w = min(_DOOR_PREF.get(li, 1.0), _DOOR_PREF.get(lj, 1.0)) + (
                    1.0 if li == lj == "bedroom" else 0.0)
            cand.append((w + float(rng.uniform(0.0, 1.0)), i, j, e))
    labels = [c.label for c in cells]
    for i, c in enumerate(cells):
        if c.label == "kitchen" and ({"dining room", "living room"} & set(labels)) and not (
                {"dining room", "living room"} & touching[i]):
            raise PlanRejectedError("kitchen touches neither dining nor living room")
    cand.sort(key=lambda t: t[0])
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    chosen: list[tuple[int, int, tuple[str, float, float, float]]] = []
    n_doors = [0] * n
    rest = []
    for _, i, j, e in cand:
        bath = labels[i] == "bathroom" or labels[j] == "bathroom"
        if bath and ((labels[i] == "bathroom" and n_doors[i]) or (labels[j] == "bathroom" and n_doors[j])):
            continue
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[ri] = rj
            chosen.append((i, j, e))
            n_doors[i] += 1
            n_doors[j] += 1
        elif not bath:
            rest.append((i, j, e))
    if len({find(i) for i in range(n)}) > 1:
        raise PlanRejectedError("rooms cannot all be connected by doors")
    for i, j, e in rest:
        if rng.random() < extra_door_rate:
            chosen.append((i, j, e))
    doors: list[Door] = []
    for k, (i, j, (axis, coord, lo, hi)) in enumerate(chosen):
        ulo, uhi = _usable(lo, hi, t_ext)
        w = min(float(rng.uniform(*door_width)), uhi - ulo)
        mid = ulo + w / 2 + float(rng.random()) * max(0.0, uhi - ulo - w)
        doors.append(Door(f"door_{k}", "door", (cells[i].id, cells[j].id), axis, coord,
                          mid - w / 2, mid + w / 2, _direction(axis, coord, cells[i].rect)))
    return doors


def _edges(r: Rect) -> list[tuple[str, float, float, float]]:
    x0, z0, x1, z1 = r
    return [("x", x0, z0, z1), ("x", x1, z0, z1), ("z", z0, x0, x1), ("z", z1, x0, x1)]


def wall_pieces(cells: list[RoomCell]) -> list[tuple[str, float, float, float, list[int]]]:
    """Elementary wall pieces ``(axis, coord, lo, hi, room indices)``; one room = exterior."""
    lines: dict[tuple[str, float], list[tuple[float, float, int]]] = {}
    for k, c in enumerate(cells):
        for axis, coord, lo, hi in _edges(c.rect):
            lines.setdefault((axis, round(coord, 6)), []).append((lo, hi, k))
    out = []
    for (axis, coord), segs in sorted(lines.items()):
        pts = sorted({round(v, 6) for s in segs for v in s[:2]})
        for lo, hi in itertools.pairwise(pts):
            mid = 0.5 * (lo + hi)
            owners = [k for a, b, k in segs if a < mid < b]
            if owners:
                out.append((axis, coord, lo, hi, owners))
    return out


def plan_exit(cells: list[RoomCell], pieces: list[tuple[str, float, float, float, list[int]]],
              rng: np.random.Generator, t_ext: float, width: tuple[float, float]) -> Door:
    """The entrance door on an exterior wall, preferring hallway, living room, kitchen, ..."""
    runs: dict[int, list[tuple[str, float, float, float]]] = {}
    for axis, coord, lo, hi, owners in pieces:
        if len(owners) != 1:
            continue
        lst = runs.setdefault(owners[0], [])
        if lst and lst[-1][0] == axis and lst[-1][1] == coord and abs(lst[-1][3] - lo) < _EPS:
            lst[-1] = (axis, coord, lst[-1][2], hi)
        else:
            lst.append((axis, coord, lo, hi))
    pref = ["hallway", "living room", "kitchen", "dining room", "office", "bedroom",
            "laundry room", "bathroom"]
    order = sorted(range(len(cells)), key=lambda k: (pref.index(cells[k].label), k))
    for k in order:
        ok = [r for r in runs.get(k, []) if _usable(r[2], r[3], t_ext)[1]
              - _usable(r[2], r[3], t_ext)[0] >= width[0]]
        if not ok:
            continue
        axis, coord, lo, hi = ok[int(rng.integers(len(ok)))]
        ulo, uhi = _usable(lo, hi, t_ext)
        w = min(float(rng.uniform(*width)), uhi - ulo)
        c = ulo + w / 2 + float(rng.random()) * max(0.0, uhi - ulo - w)
        return Door("exit_0", "exit", (cells[k].id, OUTDOOR), axis, coord, c - w / 2, c + w / 2,
                    _direction(axis, coord, cells[k].rect))
    raise PlanRejectedError("no exterior wall long enough for the entrance")


def plan_walls(pieces: list[tuple[str, float, float, float, list[int]]], doors: list[Door],
               t_int: float, t_ext: float) -> list[WallSeg]:
    """Wall pieces minus door openings; free ends are extended by ``t_ext / 2`` to close corners."""
    by_line: dict[tuple[str, float], list[tuple[float, float, float]]] = {}
    for axis, coord, lo, hi, owners in pieces:
        t = t_ext if len(owners) == 1 else t_int
        lst = by_line.setdefault((axis, coord), [])
        if lst and lst[-1][2] == t and abs(lst[-1][1] - lo) < _EPS:
            lst[-1] = (lst[-1][0], hi, t)
        else:
            lst.append((lo, hi, t))
    gaps: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for d in doors:
        gaps.setdefault((d.axis, round(d.coord, 6)), []).append((d.lo, d.hi))
    out: list[WallSeg] = []
    for (axis, coord), segs in by_line.items():
        holes = sorted(gaps.get((axis, coord), []))
        for lo, hi, t in segs:
            parts = [(lo, hi, True, True)]  # (lo, hi, extend_lo, extend_hi)
            for glo, ghi in holes:
                nxt = []
                for a, b, ea, eb in parts:
                    if ghi <= a or glo >= b:
                        nxt.append((a, b, ea, eb))
                        continue
                    if glo > a:
                        nxt.append((a, glo, ea, False))
                    if ghi < b:
                        nxt.append((ghi, b, False, eb))
                parts = nxt
            for a, b, ea, eb in parts:
                a2 = a - (t_ext / 2 if ea else 0.0)
                b2 = b + (t_ext / 2 if eb else 0.0)
                if b2 - a2 > 1e-3:
                    out.append(WallSeg(axis, coord, a2, b2, t))
    return out


def make_plan(n_rooms: int, rng: np.random.Generator, *, shape_weights: tuple[float, float, float],
              hallway_width: tuple[float, float], wall_thickness: tuple[float, float],
              door_width: tuple[float, float], exit_width: tuple[float, float],
              extra_door_rate: float) -> Plan:
    """One attempt at a floor plan; raises :class:`PlanRejectedError` if a constraint fails."""
    labels = room_program(n_rooms, rng)
    shape, rects = partition(labels, rng, shape_weights, hallway_width)
    cells = [RoomCell(f"room_{k}", lb, r) for k, (lb, r) in enumerate(zip(labels, rects, strict=True))]
    t_a, t_b = sorted(float(v) for v in rng.uniform(*wall_thickness, size=2))
    t_int, t_ext = round(t_a, 3), round(t_b, 3)
    doors = plan_doors(cells, rng, t_ext, door_width, extra_door_rate) if n_rooms > 1 else []
    pieces = wall_pieces(cells)
    doors.append(plan_exit(cells, pieces, rng, t_ext, exit_width))
    walls = plan_walls(pieces, doors, t_int, t_ext)
    return Plan(shape, tuple(cells), tuple(doors), tuple(walls), t_int, t_ext)
