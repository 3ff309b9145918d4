"""Cars on lanes and sidewalk objects (singles and contextual groups) for procedural cities.

Cars stand in lane centres of road segments (right-hand traffic), at least 7.5 m apart.
Sidewalk objects stand in the furniture zone next to the curb (the walking zone next to the
facades stays free), never in front of a storefront or near a block corner (crosswalk
landings). Contextual groups (bike rack + bicycles, bus shelter + bench + trash can, ...)
keep at least ``group_spacing`` metres between any member of one group and any member of
another (NavVerse App. 7.4). Sizes are ``(along the curb, height, across)`` in metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, SceneObject
from navbench.scene.procgen.streets import Block, BlockSide
from navbench.scene.procgen.urban import LANE_WIDTH, ROAD_Y, SIDEWALK_Y, Rect

#: Single sidewalk objects: label -> (size (along, height, across), relative frequency).
SINGLES: dict[str, tuple[tuple[float, float, float], float]] = {
    "tree": ((0.6, 6.0, 0.6), 4.0),
    "street light": ((0.3, 6.0, 0.3), 3.0),
    "trash can": ((0.6, 1.0, 0.6), 2.0),
    "bench": ((1.8, 0.9, 0.6), 1.5),
    "fire hydrant": ((0.35, 0.8, 0.35), 1.0),
    "planter": ((1.0, 0.8, 1.0), 1.0),
    "mailbox": ((0.5, 1.2, 0.5), 0.5),
}
#: Contextual groups: name -> members laid out along the curb (label, size).
GROUPS: dict[str, tuple[tuple[str, tuple[float, float, float]], ...]] = {
    "bike parking": (("bike rack", (2.0, 0.8, 0.5)), ("bicycle", (1.7, 1.0, 0.5)),
                     ("bicycle", (1.7, 1.0, 0.5))),
    "bus stop": (("bus shelter", (3.5, 2.5, 1.4)), ("bench", (1.8, 0.9, 0.6)),
                 ("trash can", (0.6, 1.0, 0.6))),
    "rest area": (("bench", (1.8, 0.9, 0.6)), ("trash can", (0.6, 1.0, 0.6)),
                  ("planter", (1.0, 0.8, 1.0))),
    "newsstand": (("newspaper box", (0.5, 1.1, 0.5)), ("newspaper box", (0.5, 1.1, 0.5)),
                  ("trash can", (0.6, 1.0, 0.6))),
    "cafe terrace": (("table", (0.8, 0.75, 0.8)), ("chair", (0.5, 0.9, 0.5)),
                     ("chair", (0.5, 0.9, 0.5)), ("umbrella", (0.3, 2.4, 0.3))),
}
CAR_SIZE = (1.9, 1.6, 4.6)  # width (x), height, length (z) with yaw 0 (driving along -Z)
GAP = 0.4  # free space between objects along the curb (m)
FURNITURE_ZONE = 1.6  # depth of the furniture zone next to the curb (m)


@dataclass
class Placed:
    """Objects and boxes placed so far, with the contextual group membership."""

    objects: list[SceneObject]
    boxes: list[Box]
    groups: dict[str, list[str]]


def _in_focus(x: float, z: float, focus: tuple[float, float, float] | None) -> bool:
    return focus is None or math.hypot(x - focus[0], z - focus[1]) <= focus[2]


def _add(out: Placed, oid: str, label: str, center: tuple[float, float, float],
         size: tuple[float, float, float], yaw: float) -> None:
    out.objects.append(SceneObject(oid, label, center, None, size=size, yaw=yaw))
    out.boxes.append(Box(f"{oid}_geom", "object", center, size, yaw, label=label, ref=oid))


def place_cars(roads: list[tuple[Rect, int, str]], n: int, rng: np.random.Generator, out: Placed,
               focus: tuple[float, float, float] | None = None, spacing: float = 7.5) -> None:
    """Up to ``n`` cars in lane centres of road segments (not intersections)."""
    slots: list[tuple[float, float, float]] = []
    for r, lanes, axis in roads:
        if not axis:
            continue
        x0, z0, x1, z1 = r
        lo, hi = (z0, z1) if axis == "z" else (x0, x1)
        c0 = (x0 + x1) / 2 if axis == "z" else (z0 + z1) / 2
        for k in range(lanes):
            off = (k + 0.5) * LANE_WIDTH - lanes * LANE_WIDTH / 2
            # right-hand traffic: lanes east of an X-centre drive north (-Z), west ones south.
            direction = (0.0, -1.0 if off > 0 else 1.0) if axis == "z" else (1.0 if off > 0 else -1.0, 0.0)
            yaw = yaw_of_direction(*direction)
            t = lo + spacing / 2
            while t + spacing / 2 <= hi:
                x, z = (c0 + off, t) if axis == "z" else (t, c0 + off)
                if _in_focus(x, z, focus):
                    slots.append((x, z, yaw))
                t += spacing
    pick = rng.permutation(len(slots))[: min(n, len(slots))]
    for k, s in enumerate(sorted(int(i) for i in pick)):
        x, z, yaw = slots[s]
        _add(out, f"car_{k}", "car", (x, ROAD_Y + CAR_SIZE[1] / 2, z), CAR_SIZE, yaw)


@dataclass
class _Run:
    """A usable stretch of furniture zone along one block side."""

    side: BlockSide
    lo: float
    hi: float
    taken: list[tuple[float, float]]


def _runs(blocks: list[Block], clear_zones: list[Rect], corner: float) -> list[_Run]:
    runs: list[_Run] = []
    for b in blocks:
        for s in b.sides:
            if not s.on_road:
                continue
            (ax, az), (bx, bz) = s.curb
            along_x = abs(bx - ax) > 0
            lo, hi = (ax, bx) if along_x else (az, bz)
            run = _Run(s, lo + corner, hi - corner, [])
            fixed = az if along_x else ax
            n = s.normal[1] if along_x else s.normal[0]
            inner = fixed - n * b.sidewalk  # facade side of the sidewalk
            zlo, zhi = min(fixed, inner), max(fixed, inner)
            for c in clear_zones:  # storefront clear zones on this side
                a0, a1, f0, f1 = (c[0], c[2], c[1], c[3]) if along_x else (c[1], c[3], c[0], c[2])
                if f1 > zlo + 1e-6 and f0 < zhi - 1e-6:
                    run.taken.append((a0, a1))
            if run.hi - run.lo > 2.0:
                runs.append(run)
    return runs


def _free(run: _Run, a: float, b: float) -> bool:
    return run.lo <= a and b <= run.hi and all(b + GAP <= t0 or a - GAP >= t1 for t0, t1 in run.taken)


def _pos(run: _Run, t: float, across: float) -> tuple[float, float, float]:
    """World (x, z, yaw) of a point ``t`` along the curb, ``across`` metres inside it."""
    (ax, az), (bx, _bz) = run.side.curb
    nx, nz = run.side.normal
    yaw = yaw_of_direction(nx, nz)
    if abs(bx - ax) > 0:
        return t, az - nz * across, yaw
    return ax - nx * across, t, yaw


def place_sidewalk_objects(
    blocks: list[Block], clear_zones: list[Rect], n: int, rng: np.random.Generator, out: Placed,
    focus: tuple[float, float, float] | None = None, group_fraction: float = 0.25,
    group_spacing: float = 8.0, corner: float = 5.0, tries: int = 20,
) -> None:
    """Up to ``n`` sidewalk objects: contextual groups first (≈ ``group_fraction``), then singles."""
    runs = [r for r in _runs(blocks, clear_zones, corner)
            if focus is None or any(_in_focus(*_pos(r, t, 0)[:2], focus)
                                    for t in np.linspace(r.lo, r.hi, 16))]
    if not runs:
        return
    lens = np.array([r.hi - r.lo for r in runs])
    p = lens / lens.sum()
    placed = 0
    anchors = np.zeros((0, 2))
    gnames = list(GROUPS)
    budget = round(n * group_fraction)
    fails = 0
    while placed < budget and fails < tries * 10:
        name = gnames[int(rng.integers(len(gnames)))]
        members = GROUPS[name]
        if placed + len(members) > budget:
            break
        run = runs[int(rng.choice(len(runs), p=p))]
        total = sum(m[1][0] for m in members) + GAP * (len(members) - 1)
        a = float(rng.uniform(run.lo, max(run.lo, run.hi - total)))
        pts = []
        t = a
        for _, size in members:
            x, z, _y = _pos(run, t + size[0] / 2, 0.2 + size[2] / 2)
            pts.append((x, z))
            t += size[0] + GAP
        pts_a = np.array(pts)
        ok = _free(run, a, a + total) and all(_in_focus(x, z, focus) for x, z in pts)
        if ok and len(anchors):
            d = np.linalg.norm(pts_a[:, None, :] - anchors[None, :, :], axis=2)
            ok = bool(d.min() >= group_spacing)
        if not ok:
            fails += 1
            continue
        gid = f"group_{len(out.groups)}"
        ids = []
        t = a
        for k, (label, size) in enumerate(members):
            x, z, yaw = _pos(run, t + size[0] / 2, 0.2 + size[2] / 2)
            oid = f"{gid}_{k}"
            _add(out, oid, label, (x, SIDEWALK_Y + size[1] / 2, z), size, yaw)
            ids.append(oid)
            t += size[0] + GAP
        run.taken.append((a, a + total))
        out.groups[gid] = ids
        anchors = np.vstack([anchors, pts_a])
        placed += len(members)
    labels = list(SINGLES)
    w = np.array([SINGLES[k][1] for k in labels])
    w = w / w.sum()
    fails = 0
    k = 0
    while placed < n and fails < tries * 10:
        label = labels[int(rng.choice(len(labels), p=w))]
        size = SINGLES[label][0]
        run = runs[int(rng.choice(len(runs), p=p))]
        a = float(rng.uniform(run.lo, run.hi - size[0]))
        x, z, yaw = _pos(run, a + size[0] / 2, 0.2 + size[2] / 2 if label != "tree" else FURNITURE_ZONE / 2)
        if not (_free(run, a, a + size[0]) and _in_focus(x, z, focus)):
            fails += 1
            continue
        fails = 0
        _add(out, f"obj_{k}", label, (x, SIDEWALK_Y + size[1] / 2, z), size, yaw)
        run.taken.append((a, a + size[0]))
        k += 1
        placed += 1
