"""Dropped ObjectNav / PlaceNav / route draws are refilled up to ``max_draws`` per episode, and
starts in scenes much larger than the goal range are drawn near a goal."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from navbench.episodes import dataset as D
from navbench.episodes.model import Episode
from navbench.episodes.starts import NEAR_AREA_FACTOR, near_start, samples_near_goals
from navbench.nav import NavMesh, NavSettings
from navbench.scene import Box, Scene
from tests.conftest import two_room_scene


def _fake(fail: set[int], calls: list[tuple[int, int]]) -> D.Builder:
    """A builder whose draw k fails (counted as ``fake``) when k is in ``fail``."""
    def run(scene, nm, seed, s, drop, n, first):  # type: ignore[no-untyped-def]
        calls.append((first, n))
        out = []
        for k in range(first, first + n):
            if k in fail:
                drop["fake"] += 1
                continue
            out.append(Episode(f"{scene.id}:{k}", "s", (1.0, 0.0, -1.0), (0.0, 0.0, 0.0, 1.0), ()))
        return out
    return run


def test_dropped_draws_are_refilled_until_the_count_or_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    scene = two_room_scene()
    calls: list[tuple[int, int]] = []
    monkeypatch.setitem(D._BUILDERS, "objectnav", _fake({1, 3, 6}, calls))
    r = D.build_scene(scene, ("objectnav",), 0, D.DatasetSettings(episodes_per_scene=5,
                                                                   check_contacts=False))
    # draws 0-4 keep 0, 2, 4; draws 5-6 keep 5; draw 7 keeps 7
    assert [e.episode_id for e, _ in r.episodes["objectnav"]] == [f"two_rooms:{k}" for k in (0, 2, 4, 5, 7)]
    assert calls == [(0, 5), (5, 2), (7, 1)]
    assert r.dropped["objectnav"] == {"fake": 3} and r.resampled == {"objectnav": 3}
    calls.clear()  # nothing succeeds: ceil(1.5 · 5) = 8 draws, then it stops
    monkeypatch.setitem(D._BUILDERS, "objectnav", _fake(set(range(100)), calls))
    r = D.build_scene(scene, ("objectnav",), 0, D.DatasetSettings(episodes_per_scene=5, max_draws=1.5,
                                                                   check_contacts=False))
    assert r.episodes["objectnav"] == [] and calls == [(0, 5), (5, 3)]
    assert r.dropped["objectnav"] == {"fake": 8} and r.resampled == {"objectnav": 3}


def test_max_draws_below_one_is_refused() -> None:
    with pytest.raises(D.ConfigError, match="max_draws"):
        D.DatasetSettings(max_draws=0.5)


def _plaza(side: float) -> tuple[Scene, NavMesh]:
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (side, 0.1, side), label="floor")
    pillar = Box("pillar", "object", (5.5, 0.5, 0.0), (1.0, 1.0, 1.0), label="pillar")
    scene = Scene("plaza", "outdoor", "test", boxes=(floor, pillar))
    return scene, NavMesh.build(scene, NavSettings.preset("outdoor"))


def test_near_start_is_uniform_over_the_navigable_part_of_the_disc() -> None:
    _, nm = _plaza(40.0)
    rng = np.random.default_rng(0)
    pts = np.array([p for p in (near_start(nm, rng, (0.0, 0.0, 0.0), 6.0) for _ in range(800))
                    if p is not None])
    assert len(pts) == 800
    r = np.hypot(pts[:, 0], pts[:, 2])
    assert r.max() <= 6.0
    # never on the pillar (x 5..6, z −0.5..0.5) nor within the agent radius of it
    rad = nm.settings.agent_radius
    assert not ((pts[:, 0] > 5 - rad) & (np.abs(pts[:, 2]) < 0.5 + rad)).any()
    # area-uniform: r < 6/√2 holds half the disc's area; the pillar and its margin take at
    # most 1.25 × 1.5 m² of the other half (all at r > 4.75): a share of 0.500 to 0.508
    share = np.mean(r < 6.0 / math.sqrt(2.0))
    assert 0.5 - 0.045 <= share <= 0.508 + 0.045


def test_large_scenes_sample_near_goals() -> None:
    # a 20 m plaza less its pillar, eroded by the agent radius: ~378 m², between
    # 4 π 5² = 314 m² and 4 π 6² = 452 m²
    _, nm = _plaza(20.0)
    assert 4 * math.pi * 25.0 < nm.island_area(0) < 4 * math.pi * 36.0 and NEAR_AREA_FACTOR == 4.0
    assert samples_near_goals(nm, 5.0) and not samples_near_goals(nm, 6.0)


def test_placenav_draws_on_a_large_plaza_find_their_goal() -> None:
    from navbench.episodes.goal_tasks import GoalTaskSettings, goal_episodes
    from navbench.scene.model import Place

    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (200.0, 0.1, 200.0), label="floor")
    shop = Box("shop", "building", (80.0, 2.0, 80.0), (6.0, 4.0, 6.0), label="building")
    place = Place("cafe0", "cafe", "Cafe", (80.0, 0.0, 76.5), ((77.0, 77.0), (83.0, 77.0)))
    scene = Scene("square", "outdoor", "test", boxes=(floor, shop), places=(place,))
    nm = NavMesh.build(scene, NavSettings.preset("outdoor"))
    assert samples_near_goals(nm, 50.0)  # 40,000 m² > 4 π 50² = 31,416 m²
    drop: Counter[str] = Counter()
    eps = goal_episodes("placenav", scene, nm, 0, 8, drop, GoalTaskSettings(start_tries=3))
    # an area-uniform start lies within 50 m of the shop in < 1/4 of the draws; near it, all
    assert len(eps) == 8 and not drop
    for e in eps:
        assert 5.0 <= e.geodesic_distance <= 50.0
        assert math.hypot(e.start_position[0] - 80.0, e.start_position[2] - 76.5) <= 50.0 + 1.5
