"""The ground index's point tests against a brute-force reference on a hand-drawn map (two
roads, a pond, a building, a blocked kiosk), also when half of the points go to a forked child."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from navbench.scene.sources.osm_index import GroundIndex


def brute_free(x: np.ndarray, z: np.ndarray, inside: list[shapely.Polygon], area: tuple[float, ...]) -> np.ndarray:
    x0, z0, x1, z1 = area
    out = []
    for px, pz in zip(x, z, strict=True):
        p = shapely.Point(px, pz)
        out.append(x0 < px < x1 and z0 < pz < z1 and not any(g.contains(p) for g in inside))
    return np.array(out)


@pytest.mark.parametrize("fork_above", [0, 1, 10_000])
def test_free_ground_matches_the_brute_force_reference(fork_above: int) -> None:
    area = (-50.0, -50.0, 50.0, 50.0)
    roads = [shapely.box(-50, -3, 50, 3), shapely.box(-3, -50, 3, 50)]
    water = [shapely.Point(25, 25).buffer(8)]
    building = [shapely.box(-40, 10, -15, 40)]
    kiosk = [shapely.box(20, -20, 22, -18)]
    idx = GroundIndex(area, roads, [], water, [], building, []).with_blocked(kiosk, fork_above)
    rng = np.random.default_rng(3)
    x, z = rng.uniform(-55, 55, 4000), rng.uniform(-55, 55, 4000)
    x[:4], z[:4] = [-3.0, 0.0, 21.0, 60.0], [10.0, 0.0, -19.0, 0.0]  # on a road's edge (free:
    # boundaries are excluded), on a road, in the kiosk, outside the map
    want = brute_free(x, z, roads + water + building + kiosk, area)
    got = idx.free(x.reshape(40, 100), z.reshape(40, 100))
    assert got.shape == (40, 100)
    assert np.array_equal(got.ravel(), want)
    assert want[:4].tolist() == [True, False, False, False] and 0.3 < want.mean() < 0.9
