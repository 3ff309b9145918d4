"""Independent invariant checks for procedural houses (shapely polygons, a 0.1 m flood fill).

Nothing here calls the generator's own geometry: footprints are rebuilt from centre, size
and yaw with the documented frame (a yaw θ turns local +X to world (cos θ, -sin θ) and local
+Z to (sin θ, cos θ) in XZ).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from scipy import ndimage
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from navbench.scene import Scene


def footprint(center, size, yaw: float) -> Polygon:
    """XZ footprint polygon of a yawed box."""
    ux = np.array([math.cos(yaw), -math.sin(yaw)])
    uz = np.array([math.sin(yaw), math.cos(yaw)])
    c = np.array([center[0], center[2]])
    hw, hd = size[0] / 2, size[2] / 2
    pts = [c + a * hw * ux + b * hd * uz for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return Polygon(pts)


def _yrange(center, size) -> tuple[float, float]:
    return center[1] - size[1] / 2, center[1] + size[1] / 2


def overlapping_pairs(polys: list[Polygon], yr: list[tuple[float, float]],
                      polys2: list[Polygon] | None = None,
                      yr2: list[tuple[float, float]] | None = None) -> list[tuple[int, int]]:
    """Index pairs whose 3D boxes overlap (footprint area > 1e-8 and height overlap > 1e-5)."""
    same = polys2 is None
    polys2 = polys if same else polys2
    yr2 = yr if same else yr2
    tree = shapely.STRtree(polys2)
    out = []
    for i, p in enumerate(polys):
        for j in tree.query(p):
            j = int(j)
            if same and j <= i:
                continue
            if min(yr[i][1], yr2[j][1]) - max(yr[i][0], yr2[j][0]) <= 1e-5:
                continue
            if p.intersection(polys2[j]).area > 1e-8:
                out.append((i, j))
    return out


def door_zone(portal, depth: float, side: float) -> Polygon:
    """Clearance rectangle of ``depth`` m past a 0.1 m half wall, on ``side`` (+1 = into b)."""
    d = np.array([-math.sin(portal.yaw), -math.cos(portal.yaw)])
    t = np.array([-d[1], d[0]])
    c = np.array([portal.center[0], portal.center[2]])
    a, b = 0.1 * side * d, (0.1 + depth) * side * d
    hw = portal.width / 2 - 1e-3
    return Polygon([c + a - hw * t, c + a + hw * t, c + b + hw * t, c + b - hw * t])


def reachability(scene: Scene, radius: float = 0.15, cell: float = 0.1,
                 max_obstacle_bottom: float = 1.5) -> tuple[dict[str, float], np.ndarray, tuple]:
    """Flood fill of free space on a ``cell`` grid.

    Obstacles are wall and furniture boxes whose bottom is below ``max_obstacle_bottom``
    (lintels above doors are not obstacles), inflated by the agent ``radius``; free cells are
    cell centres inside a room and outside every inflated obstacle. Returns, per room, the
    fraction of its free cells in the largest connected component, plus the grid labels.
    """
    floor = unary_union([Polygon(r.floor_polygon) for r in scene.rooms])
    obs = [footprint(b.center, b.size, b.yaw).buffer(radius, join_style="mitre")
           for b in scene.boxes
           if b.kind != "floor" and b.center[1] - b.size[1] / 2 < max_obstacle_bottom]
    blocked = unary_union(obs)
    x0, z0, x1, z1 = floor.bounds
    xs = np.arange(x0 + cell / 2, x1, cell)
    zs = np.arange(z0 + cell / 2, z1, cell)
    gx, gz = np.meshgrid(xs, zs, indexing="ij")
    free = shapely.contains_xy(floor, gx, gz) & ~shapely.contains_xy(blocked, gx, gz)
    lab, n = ndimage.label(free)
    if n == 0:
        return {r.id: 0.0 for r in scene.rooms}, lab, (xs, zs)
    sizes = np.bincount(lab.ravel())
    sizes[0] = 0
    main = int(np.argmax(sizes))
    out = {}
    for r in scene.rooms:
        inside = shapely.contains_xy(Polygon(r.floor_polygon), gx, gz) & free
        tot = int(inside.sum())
        out[r.id] = float((lab[inside] == main).sum()) / tot if tot else 0.0
    return out, lab == main, (xs, zs)


def check_house(scene: Scene, n_rooms: int) -> dict[str, float]:
    """Assert every invariant of a procedural house; returns per-room reachable fractions."""
    assert scene.kind == "indoor" and scene.source == "procgen"
    assert len(scene.rooms) == n_rooms
    rooms = {r.id: r for r in scene.rooms}
    rpoly = {r.id: Polygon(r.floor_polygon) for r in scene.rooms}
    labels = [r.label for r in scene.rooms]
    assert ("hallway" in labels) == (n_rooms > 5)
    for r in scene.rooms:
        assert r.label == r.label.lower()
        assert 2.5 <= r.height <= 3.0 and r.floor_y == 0.0
        assert not rpoly[r.id].exterior.is_ccw  # CCW seen from above = CW in the (x, z) plane
    # rooms tile the footprint without overlapping
    for a in scene.rooms:
        for b in scene.rooms:
            if a.id < b.id:
                assert rpoly[a.id].intersection(rpoly[b.id]).area < 1e-6
    # floor slabs: one per room, top at y = 0
    floors = [b for b in scene.boxes if b.kind == "floor"]
    assert sorted(b.ref for b in floors) == sorted(rooms)
    for b in floors:
        assert abs(b.center[1] + b.size[1] / 2) < 1e-9
    # walls
    for b in scene.boxes:
        if b.kind != "wall":
            continue
        thick = min(b.size[0], b.size[2])
        assert 0.1 - 1e-9 <= thick <= 0.2 + 1e-9, b
        top = b.center[1] + b.size[1] / 2
        assert 2.5 - 1e-9 <= top <= 3.0 + 1e-9
        if b.id.startswith("wall_"):
            assert abs(b.center[1] - b.size[1] / 2) < 1e-9  # from the floor
    # portals
    doors = [p for p in scene.portals if p.kind == "door"]
    exits = [p for p in scene.portals if p.kind == "exit"]
    assert len(exits) == 1 and exits[0].regions[1] == "outdoor"
    house = unary_union(list(rpoly.values()))
    for p in scene.portals:
        assert p.width >= 0.9 - 1e-9 and abs(p.center[1]) < 1e-9
        d = np.array([-math.sin(p.yaw), -math.cos(p.yaw)])
        c = np.array([p.center[0], p.center[2]])
        assert rpoly[p.regions[0]].contains(Point(c - 0.3 * d))
        if p.kind == "exit":
            assert not house.contains(Point(c + 0.3 * d))  # leads outside the footprint
        else:
            assert rpoly[p.regions[1]].contains(Point(c + 0.3 * d))
    door_pairs = {frozenset(p.regions) for p in doors}
    for r in scene.rooms:
        if r.label == "bathroom":
            others = [rooms[o].label for pr in door_pairs if r.id in pr for o in pr if o != r.id]
            assert others and set(others) <= {"hallway", "bedroom"}, others
    kitchens = [r for r in scene.rooms if r.label == "kitchen"]
    social = [r for r in scene.rooms if r.label in ("dining room", "living room")]
    for k in kitchens:
        if social:
            assert any(rpoly[k.id].boundary.intersection(rpoly[s.id].boundary).length > 0.5
                       for s in social)
    # objects
    objs = scene.objects
    ids = {o.id: o for o in objs}
    for o in objs:
        assert o.size is not None and min(o.size) > 0 and o.room_id in rooms
        assert o.label == o.label.lower()
        assert rpoly[o.room_id].buffer(1e-6).contains(footprint(o.center, o.size, o.yaw))
        if o.parent_id is not None:
            par = ids[o.parent_id]
            assert abs((o.center[1] - o.size[1] / 2) - (par.center[1] + par.size[1] / 2)) < 1e-5
            assert footprint(par.center, par.size, par.yaw).buffer(1e-6).contains(
                footprint(o.center, o.size, o.yaw))
        else:
            assert abs(o.center[1] - o.size[1] / 2) < 1e-5  # stands on the floor
    ofp = [footprint(o.center, o.size, o.yaw) for o in objs]
    oyr = [_yrange(o.center, o.size) for o in objs]
    assert overlapping_pairs(ofp, oyr) == []
    walls = [b for b in scene.boxes if b.kind == "wall"]
    wfp = [footprint(b.center, b.size, b.yaw) for b in walls]
    wyr = [_yrange(b.center, b.size) for b in walls]
    assert overlapping_pairs(ofp, oyr, wfp, wyr) == []
    zones = [door_zone(p, 0.6, s) for p in doors for s in (-1.0, 1.0)]
    zones += [door_zone(p, 0.6, -1.0) for p in exits]
    zyr = [(0.0, 2.0)] * len(zones)
    assert overlapping_pairs(ofp, oyr, zones, zyr) == []
    # collision boxes mirror objects
    geo = {b.ref: b for b in scene.boxes if b.kind in ("furniture", "object")}
    assert len(geo) == len(objs)
    for o in objs:
        b = geo[o.id]
        assert b.label == o.label and b.center == o.center and b.size == o.size and b.yaw == o.yaw
        assert b.kind == ("object" if o.parent_id else "furniture")
    # connectivity through doors
    frac, main, (xs, zs) = reachability(scene)
    ex = exits[0]
    d = np.array([-math.sin(ex.yaw), -math.cos(ex.yaw)])
    q = np.array([ex.center[0], ex.center[2]]) - 0.4 * d
    i, j = int(np.argmin(np.abs(xs - q[0]))), int(np.argmin(np.abs(zs - q[1])))
    assert main[i, j], "entrance not in the main free-space component"
    return frac
