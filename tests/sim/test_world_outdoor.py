"""The MuJoCo world builds for outdoor scenes whose concave surfaces triangulate into slivers."""

from __future__ import annotations

import shapely

from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.sim import SPOT, Simulator
from navbench.sim.actions import VelocityAction
from navbench.sim.world import _convex_pieces, _solid


def test_sliver_triangles_are_recognised() -> None:
    # height over the longest edge: 2 * area / edge
    assert _solid(shapely.Polygon([(0, 0), (2, 0), (1, 0.5)]))  # 0.5 m high
    assert not _solid(shapely.Polygon([(0, 0), (2, 0), (1, 1e-7)]))  # 1e-7 m high
    pieces = _convex_pieces(shapely.Polygon([(0, 0), (4, 0), (4, 4), (0, 4), (0, 2), (2, 2), (2, 1), (0, 1)]))
    assert abs(sum(shapely.Polygon(p).area for p in pieces) - 14.0) < 1e-9


def test_city_with_lot_yards_compiles_and_carries_the_robot() -> None:
    # seed 3 used to fail: "mesh 'surface:block_0_lot_yard_0:7' has coplanar vertices"
    scene = generate_city(3, OutdoorSettings(size=(200.0, 200.0), cars=20, sidewalk_objects=100))
    yard = next(x for x in scene.surfaces if x.id == "block_0_lot_yard_0")
    assert not any(b.ref == yard.id for b in scene.boxes)  # the world builds it from the polygon
    p = shapely.Polygon(yard.polygon).representative_point()
    sim = Simulator(scene, SPOT)
    sim.reset_to((p.x, yard.y, p.y), 0.0)
    for _ in range(10):  # 1 s standing still on the triangulated yard
        sim.step(VelocityAction(0.0))
    _x, y, _z, _yaw = sim.pose()
    assert abs(y - yard.y) < 0.02 and sim.label is None  # supported at the yard's height
    # the lot under the yard is also a ground slab (top 0.0): either may be reported
    assert sim.records()["surface"][-1] in (yard.cls, "ground")
