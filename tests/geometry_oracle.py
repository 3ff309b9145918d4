"""Independent of the navmesh: obstacle distances from a scene's boxes with shapely.

Used by tests that check paths and starts against the original geometry rather than against the
navigation grid that produced them.
"""

from __future__ import annotations

import math

import shapely

from navbench.scene import Scene


def box_rect(b) -> shapely.Polygon:  # type: ignore[no-untyped-def]
    """XZ footprint of a yawed box (yaw θ about +Y: local x → (cos θ, −sin θ), z → (sin θ, cos θ))."""
    c, s = math.cos(b.yaw), math.sin(b.yaw)
    hx, hz = b.size[0] / 2, b.size[2] / 2
    return shapely.Polygon([(b.center[0] + u * c + v * s, b.center[2] - u * s + v * c)
                            for u, v in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))])


class Obstacles:
    """Floor area and blocking boxes of one indoor scene at floor height ``y``.

    A box blocks a body when its bottom is below ``y + height`` and its top above ``y + climb``.
    """

    def __init__(self, scene: Scene, y: float = 0.0, climb: float = 0.2, height: float = 1.5) -> None:
        # per-room slabs may leave hairline seams at doorways: close gaps below 1 cm
        slabs = shapely.union_all([box_rect(b) for b in scene.boxes if b.kind == "floor"])
        self.floor = slabs.buffer(0.005, join_style="mitre").buffer(-0.005, join_style="mitre")
        self.blocks = shapely.union_all([
            box_rect(b) for b in scene.boxes if b.kind != "floor"
            and b.center[1] - b.size[1] / 2 < y + height and b.center[1] + b.size[1] / 2 > y + climb])
        self.edge = self.floor.boundary
        shapely.prepare(self.floor)

    def distance(self, p: tuple[float, float, float]) -> float:
        """XZ distance (m) from ``p`` to the nearest blocking box or the floor's edge."""
        pt = shapely.Point(p[0], p[2])
        assert self.floor.contains(pt), f"{p} is off the floor"
        return min(self.edge.distance(pt), self.blocks.distance(pt))


def closest_groups(scene: Scene) -> tuple[float, str, str]:
    """The XZ distance (m) between the two closest members of different contextual groups
    (``meta["groups"]``: group id -> member object ids), and those groups' ids (brute force)."""
    groups = scene.meta["groups"]
    pos = {o.id: (o.center[0], o.center[2]) for o in scene.objects}
    ids = list(groups)
    return min(((math.dist(pos[x], pos[y]), a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
                for x in groups[a] for y in groups[b]), default=(math.inf, "", ""))
