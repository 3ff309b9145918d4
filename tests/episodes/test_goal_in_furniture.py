"""Regression: an ObjectNav goal whose centre lies in furniture too far from the floor to snap.

The demo's ``objectnav/eval/16`` (a 2.23 m sofa against a wall in ``house_4``) made ``navbench
dataset check`` report "no goal is reachable from the start" although the builder had reached
it through its approach points and the evaluator scores it (``start_geodesic``: the reference
path's end is reachable and within τ of the sofa). The check used the raw centre geodesic.
Smallest scene that shows it: one 12 × 4 m floor with a 2.6 × 2.6 m table whose centre is
1.3 m + the robot's 0.32 m clearance = 1.62 m from the nearest navigable cell, beyond the
navmesh's 1.0 m snap radius.
"""

from __future__ import annotations

import math
from pathlib import Path

from navbench.episodes.check import check_dataset
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.episodes.reachability import start_geodesic
from navbench.geometry import goal_surface_distance
from navbench.scene import Scene, Surface
from navbench.scene.model import Box, SceneObject


def _scene() -> Scene:
    floor = Surface("floor", "floor", ((0.0, 0.0), (12.0, 0.0), (12.0, -4.0), (0.0, -4.0)))
    table = SceneObject("obj_0", "table", (10.0, 0.4, -2.0), size=(2.6, 0.8, 2.6))
    box = Box("geom_obj_0", "furniture", table.center, (2.6, 0.8, 2.6), label="table", ref="obj_0")
    return Scene("furniture", "indoor", "handmade", objects=(table,), surfaces=(floor,), boxes=(box,))


def test_goal_inside_large_furniture_is_reachable_and_passes_the_check(tmp_path: Path) -> None:
    scene = _scene()
    build_dataset([scene], tmp_path / "ds", tasks=("objectnav",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=3, embodiment="turtlebot"))
    ds = load_dataset(tmp_path / "ds")
    nm = ds.navmesh("furniture")
    eps = ds.episodes("objectnav", "eval")
    assert len(eps) == 3
    centre = (10.0, 0.4, -2.0)
    # the centre does not snap: the raw geodesic says unreachable (what the check used)
    assert nm.snap_point(centre) is None
    for e in eps:
        assert math.isinf(nm.geodesic_distance(e.start_position, [centre]))
        # ... but the reference path ends within τ = 1.18 m of the table (NavVerse distance:
        # 3D distance less half the 2.6 m footprint), on the navmesh, L = its length
        end = e.reference_path[-1]
        assert goal_surface_distance(end, [centre], [1.3]) <= 1.18 - 0.2 + 1e-9
        assert 5.0 <= start_geodesic(nm, e) <= 50.0
        assert start_geodesic(nm, e) == e.geodesic_distance
    rep = check_dataset(tmp_path / "ds")
    assert rep.ok, rep.problems
