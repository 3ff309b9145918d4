"""Sidewalk objects (region-conditioned contextual groups, singles, corner signs) and parked cars.

Every block side facing a street gets a region type (``commercial`` when a storefront is on
it, ``construction`` with a small probability, else ``residential``; park and plaza blocks
give ``park`` / ``plaza``). Contextual groups (:data:`~navbench.scene.procgen.outdoor_groups.GROUPS`)
are drawn by region: ``curb`` groups stand in the furniture zone next to the curb (the walking
zone next to the facades stays free, and so do storefront clear zones, driveways and block
corners), some with members on the roadway beside the curb (cones, a delivery van); ``lot``
groups stand inside park and plaza lots (playgrounds, market stall rows). Any member of one
group is at least ``group_spacing`` metres from any member of another (NavVerse App. 7.4).
Stacked members (``parent_id``) rest on their support's top. Singles follow per-region
frequencies; stop signs / traffic lights stand at block corners past the crosswalk landing.
Parked vehicles come last (:mod:`navbench.scene.procgen.parking`), avoiding driveways,
hydrant gaps and group no-parking zones. Frame: Habitat, metres, yaw 0 faces -Z.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, SceneObject
from navbench.scene.procgen.outdoor_groups import (
    CATALOG,
    CORNER,
    FURNITURE_ZONE,
    GROUPS,
    NO_PARKING_AROUND,
    REGIONS,
    SINGLES,
    VEHICLES,
    GroupSpec,
    group_extent,
)
from navbench.scene.procgen.parking import NoParking, parked_vehicles, vehicle_yaw
from navbench.scene.procgen.streets import Block, BlockSide
from navbench.scene.procgen.urban import ROAD_Y, SIDEWALK_Y, Rect

if TYPE_CHECKING:
    from shapely.geometry import Polygon  # shapely ships no annotations: mypy sees Any

#: Region choice weights for contextual groups (normalised over the regions a city has), so
#: that the few commercial and construction sides get their groups (length-weighted sampling
#: would give almost all groups to residential sides).
GROUP_REGION_WEIGHT: dict[str, float] = {
    "commercial": 0.3, "residential": 0.25, "construction": 0.1, "park": 0.15, "plaza": 0.2,
}
GAP = 0.4  # free space between objects along the curb (m)
DRIVEWAY = 3.5  # driveway width at the curb (m)


@dataclass
class Placed:
    """Objects and boxes placed so far, with group membership and the layout facts tests read.

    Attributes:
        groups: group id -> member object ids; ``group_types``: group id -> template name.
        regions: ``"<block id>:<side>"`` -> region type of every street-facing block side.
        no_parking: curb intervals kept free of parked vehicles (driveways, hydrants, groups).
    """

    objects: list[SceneObject]
    boxes: list[Box]
    groups: dict[str, list[str]]
    group_types: dict[str, str] = field(default_factory=dict)
    regions: dict[str, str] = field(default_factory=dict)
    no_parking: list[NoParking] = field(default_factory=list)


@dataclass
class _GroupState:
    """Progress of the contextual-group pass: objects placed so far and group anchors (N, 2) XZ."""

    placed: int = 0
    anchors: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))


def _in_focus(x: float, z: float, focus: tuple[float, float, float] | None) -> bool:
    return focus is None or math.hypot(x - focus[0], z - focus[1]) <= focus[2]


def _add(out: Placed, oid: str, label: str, center: tuple[float, float, float],
         size: tuple[float, float, float], yaw: float, parent: str | None = None) -> None:
    out.objects.append(SceneObject(oid, label, center, None, size=size, yaw=yaw, parent_id=parent))
    out.boxes.append(Box(f"{oid}_geom", "object", center, size, yaw, label=label, ref=oid))


class Run(Protocol):
    """A straight stretch of curb whose furniture zone takes sidewalk objects: ``region``,
    usable ``[lo, hi]`` (m along it), ``taken`` intervals, and :meth:`frame`."""

    region: str
    lo: float
    hi: float
    taken: list[tuple[float, float]]

    def frame(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Origin on the curb at ``t``, unit along the curb and unit into the sidewalk."""
        ...


@dataclass
class LineRun:
    """A :class:`Run` along any straight curb: the curb point at ``t`` is ``origin + t·along``,
    ``inward`` points from the curb into the sidewalk (imported maps' curbs have any direction)."""

    region: str
    lo: float
    hi: float
    taken: list[tuple[float, float]]
    origin: np.ndarray
    along: np.ndarray
    inward: np.ndarray

    def frame(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Origin on the curb at ``t``, unit along the curb and unit into the sidewalk."""
        return self.origin + t * self.along, self.along, self.inward


@dataclass(frozen=True)
class CornerSite:
    """A curb whose ends may take a corner sign: ends ``a``/``b`` (XZ), ``normal`` from the
    sidewalk towards the street, region, and which ends stand at a junction."""

    a: tuple[float, float]
    b: tuple[float, float]
    normal: tuple[float, float]
    region: str
    ends: tuple[bool, bool] = (True, True)


@dataclass
class _Run:
    """A usable stretch of furniture zone along one block side (``t`` along +X or +Z)."""

    side: BlockSide
    region: str
    lo: float
    hi: float
    taken: list[tuple[float, float]]

    def frame(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Origin on the curb at ``t``, unit along the curb and unit into the sidewalk."""
        (ax, az), (bx, _bz) = self.side.curb
        nx, nz = self.side.normal
        if abs(bx - ax) > 0:
            return np.array([t, az]), np.array([1.0, 0.0]), np.array([-nx, -nz])
        return np.array([ax, t]), np.array([0.0, 1.0]), np.array([-nx, -nz])


def side_regions(blocks: list[Block], storefront_sides: set[str], construction_prob: float,
                 rng: np.random.Generator) -> dict[str, str]:
    """Region type of every street-facing block side, keyed ``"<block id>:<side>"``."""
    out: dict[str, str] = {}
    for b in blocks:
        for s in b.sides:
            if not s.on_road:
                continue
            key = f"{b.id}:{s.side}"
            if b.kind in ("park", "plaza"):
                out[key] = b.kind
            elif key in storefront_sides:
                out[key] = "commercial"
            else:
                out[key] = "construction" if rng.random() < construction_prob else "residential"
    return out


def _runs(blocks: list[Block], regions: dict[str, str], clear_zones: list[Rect], corner: float) -> list[_Run]:
    runs: list[_Run] = []
    for b in blocks:
        for s in b.sides:
            if not s.on_road:
                continue
            (ax, az), (bx, bz) = s.curb
            along_x = abs(bx - ax) > 0
            lo, hi = (ax, bx) if along_x else (az, bz)
            run = _Run(s, regions[f"{b.id}:{s.side}"], lo + corner, hi - corner, [])
            fixed = az if along_x else ax
            n = s.normal[1] if along_x else s.normal[0]
            inner = fixed - n * b.sidewalk  # facade side of the sidewalk
            zlo, zhi = min(fixed, inner), max(fixed, inner)
            for c in clear_zones:  # storefront clear zones / driveways on this side
                a0, a1, f0, f1 = (c[0], c[2], c[1], c[3]) if along_x else (c[1], c[3], c[0], c[2])
                if f1 > zlo + 1e-6 and f0 < zhi - 1e-6:
                    run.taken.append((a0, a1))
            if run.hi - run.lo > 2.0:
                runs.append(run)
    return runs


def _free(run: Run, a: float, b: float) -> bool:
    return run.lo <= a and b <= run.hi and all(b + GAP <= t0 or a - GAP >= t1 for t0, t1 in run.taken)


#: One member box of a placed group: (label, centre xyz, size xyz, yaw, support index or -1).
_Member = tuple[str, tuple[float, float, float], tuple[float, float, float], float, int]


def _layout(spec: GroupSpec, origin: np.ndarray, eu: np.ndarray, ev: np.ndarray) -> list[_Member]:
    """World boxes ``(label, centre, size, yaw, support)`` of a group template in a frame."""
    face = yaw_of_direction(float(-ev[0]), float(-ev[1]))
    out: list[tuple[str, tuple[float, float, float], tuple[float, float, float], float, int]] = []
    for m in spec.members:
        size = CATALOG[m.label]
        x, z = (origin + m.u * eu + m.v * ev).tolist()
        if m.label in VEHICLES:
            h = eu if round(m.yaw / 90) % 2 == 0 else ev
            yaw = vehicle_yaw(float(h[0]), float(h[1]))
        else:
            yaw = face + math.radians(m.yaw)
        if m.on >= 0:
            sup = out[m.on]
            base = sup[1][1] + sup[2][1] / 2
        else:
            base = ROAD_Y if (spec.zone == "curb" and m.v < 0) else SIDEWALK_Y
        out.append((m.label, (x, base + size[1] / 2, z), size, yaw, m.on))
    return out


@dataclass
class _Lot:
    """A park or plaza interior: its rectangle, region and the pond kept free (if any);
    ``shape`` (imported maps' lots of any outline) must hold every member's footprint."""

    rect: Rect
    region: str
    pond: Rect | None
    shape: Polygon | None = None


def place_sidewalk_objects(
    blocks: list[Block], regions: dict[str, str], clear_zones: list[Rect], lots: list[_Lot], n: int,
    rng: np.random.Generator, out: Placed, focus: tuple[float, float, float] | None = None,
    group_fraction: float = 0.4, group_spacing: float = 8.0, corner: float = 5.0, tries: int = 20,
    corner_share: float = 0.1,
) -> None:
    """Up to ``n`` objects: contextual groups first (≈ ``group_fraction``), corner signs (at
    most ``corner_share`` of ``n``), then singles."""
    runs = [r for r in _runs(blocks, regions, clear_zones, corner)
            if focus is None or any(_in_focus(o[0], o[1], focus)
                                     for o in (r.frame(float(t))[0] for t in np.linspace(r.lo, r.hi, 16)))]
    lots = [lt for lt in lots if focus is None or _in_focus((lt.rect[0] + lt.rect[2]) / 2,
                                                           (lt.rect[1] + lt.rect[3]) / 2, focus)]
    out.regions.update(regions)
    sites = [CornerSite(s.curb[0], s.curb[1], s.normal, regions[f"{b.id}:{s.side}"])
             for b in blocks for s in b.sides if s.on_road]
    furnish(runs, lots, sites, n, rng, out, focus, group_fraction, group_spacing, tries, corner_share)


def furnish(runs: Sequence[Run], lots: list[_Lot], sites: list[CornerSite], n: int, rng: np.random.Generator,
            out: Placed, focus: tuple[float, float, float] | None = None, group_fraction: float = 0.4,
            group_spacing: float = 8.0, tries: int = 20, corner_share: float = 0.1,
            spot_ok: Callable[[float, float], bool] | None = None) -> None:
    """Up to ``n`` objects on ``runs`` and ``lots``: contextual groups first (≈
    ``group_fraction``, region-conditioned, members of different groups ≥ ``group_spacing``
    apart), corner signs at ``sites`` (at most ``corner_share`` of ``n``), then singles;
    ``spot_ok(x, z)`` may veto a corner sign's spot."""
    if not runs and not lots:
        return
    p = np.array([r.hi - r.lo for r in runs]) if runs else np.zeros(0)
    p = p / p.sum() if len(p) else p
    present = sorted({r.region for r in runs} | {lt.region for lt in lots}, key=REGIONS.index)
    rw = np.array([GROUP_REGION_WEIGHT[r] for r in present])
    rw = rw / rw.sum()
    by_region = {r: [k for k, run in enumerate(runs) if run.region == r] for r in present}
    region_runs = {r: ([runs[k] for k in ks], p[ks] / p[ks].sum() if ks else p[ks]) for r, ks in by_region.items()}
    state = _GroupState()
    budget = round(n * group_fraction)
    fails = 0
    while state.placed < budget and fails < tries * 10:
        region = present[int(rng.choice(len(present), p=rw))]
        rlots = [lt for lt in lots if lt.region == region]
        ks = by_region[region]
        if rlots and (not ks or rng.random() < 0.5):
            ok = _try_lot_group(rlots, rng, out, focus, group_spacing, budget, state)
        else:
            ok = _try_curb_group(*region_runs[region], rng, out, focus, group_spacing, budget, state)
        fails = 0 if ok else fails + 1
    placed = state.placed
    placed += _corners(sites, rng, out, focus, min(n - placed, round(n * corner_share)), ok=spot_ok)
    _singles(runs, p, rng, out, focus, n - placed, tries)


def _spaced(pts: np.ndarray, anchors: np.ndarray, spacing: float) -> bool:
    if not len(anchors):
        return True
    return bool(np.linalg.norm(pts[:, None, :] - anchors[None, :, :], axis=2).min() >= spacing)


def _commit(out: Placed, name: str, boxes: list[_Member], state: _GroupState) -> None:
    gid = f"group_{len(out.groups)}"
    ids = [f"{gid}_{k}" for k in range(len(boxes))]
    for oid, (label, c, size, yaw, sup) in zip(ids, boxes, strict=True):
        _add(out, oid, label, c, size, yaw, ids[sup] if sup >= 0 else None)
    out.groups[gid] = ids
    out.group_types[gid] = name
    pts = np.array([[c[0], c[2]] for _l, c, *_ in boxes])
    state.anchors = np.vstack([state.anchors, pts])
    state.placed += len(boxes)


def _choose(rng: np.random.Generator, region: str, zone: str) -> str | None:
    names = [k for k, g in GROUPS.items() if g.zone == zone and region in g.regions]
    if not names:
        return None
    w = np.array([GROUPS[k].weight for k in names])
    return names[int(rng.choice(len(names), p=w / w.sum()))]


def _try_curb_group(runs: Sequence[Run], p: np.ndarray, rng: np.random.Generator, out: Placed,
                    focus: tuple[float, float, float] | None, spacing: float, budget: int, state: _GroupState) -> bool:
    if not runs:
        return False
    run = runs[int(rng.choice(len(runs), p=p))]
    name = _choose(rng, run.region, "curb")
    if name is None:
        return False
    spec = GROUPS[name]
    if state.placed + len(spec.members) > budget:
        return False
    u0, _v0, u1, _v1 = group_extent(spec)
    a = float(rng.uniform(run.lo, max(run.lo, run.hi - (u1 - u0))))
    if not _free(run, a, a + u1 - u0):
        return False
    origin, eu, ev = run.frame(a - u0)
    boxes = _layout(spec, origin, eu, ev)
    pts = np.array([[c[0], c[2]] for _l, c, *_ in boxes])
    if not all(_in_focus(x, z, focus) for x, z in pts) or not _spaced(pts, state.anchors, spacing):
        return False
    _commit(out, name, boxes, state)
    run.taken.append((a, a + u1 - u0))
    mid = origin + ((u0 + u1) / 2) * eu
    out.no_parking.append(NoParking(float(mid[0]), float(mid[1]), (u1 - u0) / 2 + spec.no_parking, name))
    return True


def _try_lot_group(lots: list[_Lot], rng: np.random.Generator, out: Placed,
                   focus: tuple[float, float, float] | None, spacing: float, budget: int, state: _GroupState) -> bool:
    lot = lots[int(rng.integers(len(lots)))]
    name = _choose(rng, lot.region, "lot")
    if name is None:
        return False
    spec = GROUPS[name]
    if state.placed + len(spec.members) > budget:
        return False
    k = int(rng.integers(4))
    eu = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]][k])
    ev = np.array([-eu[1], eu[0]])
    u0, v0, u1, v1 = group_extent(spec)
    corners = np.array([u * eu + v * ev for u in (u0, u1) for v in (v0, v1)])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    x0, z0, x1, z1 = lot.rect
    margin = 1.5
    if x1 - x0 - 2 * margin < hi[0] - lo[0] or z1 - z0 - 2 * margin < hi[1] - lo[1]:
        return False
    ox = float(rng.uniform(x0 + margin - lo[0], x1 - margin - hi[0]))
    oz = float(rng.uniform(z0 + margin - lo[1], z1 - margin - hi[1]))
    if lot.pond is not None:
        px0, pz0, px1, pz1 = lot.pond
        if ox + hi[0] > px0 - 1 and ox + lo[0] < px1 + 1 and oz + hi[1] > pz0 - 1 and oz + lo[1] < pz1 + 1:
            return False
    boxes = _layout(spec, np.array([ox, oz]), eu, ev)
    pts = np.array([[c[0], c[2]] for _l, c, *_ in boxes])
    if not all(_in_focus(x, z, focus) for x, z in pts) or not _spaced(pts, state.anchors, spacing):
        return False
    if lot.shape is not None and not _inside(lot.shape, boxes):
        return False
    _commit(out, name, boxes, state)
    return True


def _inside(shape: Polygon, boxes: list[_Member]) -> bool:
    """Whether every member box's footprint lies in ``shape``."""
    import shapely

    from navbench.geometry import box_corners_xz

    fps = shapely.polygons(np.stack([box_corners_xz(c, size, yaw) for _l, c, size, yaw, _s in boxes]))
    return bool(shapely.contains(shape, fps).all())


def _corners(sites: list[CornerSite], rng: np.random.Generator, out: Placed,
             focus: tuple[float, float, float] | None, n: int, prob: float = 0.3,
             ok: Callable[[float, float], bool] | None = None) -> int:
    """A stop sign / traffic light / street sign at some block corners, 3.6 m past the corner
    along one side (beyond the 3 m crosswalk landing), 0.4 m inside the curb."""
    k = 0
    for site in sites:
        if k >= n:
            continue
        region = site.region
        (ax, az), (bx, bz) = site.a, site.b
        for end in (0, 1):
            if k >= n or not site.ends[end] or rng.random() >= prob:
                continue
            label = CORNER[region][int(rng.integers(len(CORNER[region])))]
            ux, uz = (bx - ax, bz - az)
            ln = math.hypot(ux, uz)
            ux, uz = ux / ln, uz / ln
            t = 3.6 if end == 0 else ln - 3.6
            nx, nz = site.normal
            x, z = ax + ux * t - nx * 0.4, az + uz * t - nz * 0.4
            if not _in_focus(x, z, focus) or (ok is not None and not ok(x, z)):
                continue
            size = CATALOG[label]
            _add(out, f"corner_{k}", label, (x, SIDEWALK_Y + size[1] / 2, z), size,
                 yaw_of_direction(ux if end == 0 else -ux, uz if end == 0 else -uz))
            k += 1
    return k


def _singles(runs: Sequence[Run], p: np.ndarray, rng: np.random.Generator, out: Placed,
             focus: tuple[float, float, float] | None, n: int, tries: int) -> None:
    if not runs:
        return
    fails = 0
    k = 0
    while k < n and fails < tries * 10:
        run = runs[int(rng.choice(len(runs), p=p))]
        table = SINGLES[run.region]
        labels = list(table)
        w = np.array([table[x] for x in labels])
        label = labels[int(rng.choice(len(labels), p=w / w.sum()))]
        size = CATALOG[label]
        a = float(rng.uniform(run.lo, run.hi - size[0]))
        across = FURNITURE_ZONE / 2 if label in ("tree", "palm tree") else 0.2 + size[2] / 2
        origin, _eu, ev = run.frame(a + size[0] / 2)
        x, z = (origin + across * ev).tolist()
        if not (_free(run, a, a + size[0]) and _in_focus(x, z, focus)):
            fails += 1
            continue
        fails = 0
        _add(out, f"obj_{k}", label, (x, SIDEWALK_Y + size[1] / 2, z), size,
             yaw_of_direction(float(-ev[0]), float(-ev[1])))
        run.taken.append((a, a + size[0]))
        if label in NO_PARKING_AROUND:
            out.no_parking.append(NoParking(float(origin[0]), float(origin[1]), NO_PARKING_AROUND[label],
                                            label))
        k += 1


def place_cars(roads: list[tuple[Rect, int, str]], n: int, rng: np.random.Generator, out: Placed,
               focus: tuple[float, float, float] | None = None) -> None:
    """Up to ``n`` parked vehicles (ids ``car_<k>``) along the curbs, outside no-parking zones."""
    add_vehicles(parked_vehicles(roads, out.no_parking, rng), n, rng, out, focus)


def add_vehicles(spots: list[tuple[str, tuple[float, float, float], float]], n: int, rng: np.random.Generator,
                 out: Placed, focus: tuple[float, float, float] | None = None) -> None:
    """Up to ``n`` of the candidate ``spots`` ``(label, centre, yaw)`` drawn at random (ids ``car_<k>``)."""
    cand = [v for v in spots if _in_focus(v[1][0], v[1][2], focus)]
    pick = sorted(int(i) for i in rng.permutation(len(cand))[: min(n, len(cand))])
    for k, i in enumerate(pick):
        label, c, yaw = cand[i]
        _add(out, f"car_{k}", label, c, CATALOG[label], yaw)


def driveway_zones(sides: list[tuple[BlockSide, tuple[float, float]]], prob: float,
                   rng: np.random.Generator) -> tuple[list[NoParking], list[Rect]]:
    """Driveways in front of residential buildings: curb no-parking zones and sidewalk rects
    (``DRIVEWAY`` m wide, full sidewalk depth ``1.6`` m band kept free of objects)."""
    zones: list[NoParking] = []
    rects: list[Rect] = []
    for side, (a, b) in sides:
        if b - a < DRIVEWAY + 4 or rng.random() >= prob:
            continue
        t = float(rng.uniform(a + 2 + DRIVEWAY / 2, b - 2 - DRIVEWAY / 2))
        (ax, az), (bx, _bz) = side.curb
        nx, nz = side.normal
        if abs(bx - ax) > 0:
            zones.append(NoParking(t, az, DRIVEWAY / 2, "driveway"))
            rects.append((t - DRIVEWAY / 2, min(az, az - nz * 2), t + DRIVEWAY / 2, max(az, az - nz * 2)))
        else:
            zones.append(NoParking(ax, t, DRIVEWAY / 2, "driveway"))
            rects.append((min(ax, ax - nx * 2), t - DRIVEWAY / 2, max(ax, ax - nx * 2), t + DRIVEWAY / 2))
    return zones, rects
