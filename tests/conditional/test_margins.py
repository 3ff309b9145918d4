"""The decidable-relation margins on hand-placed pairs (values by hand), and on random rooms
against the graph's own predicates (surely holds ⇒ holds, surely fails ⇒ fails)."""

from __future__ import annotations

import math

import pytest

from navbench.errors import ConfigError
from navbench.graph.relations import ALL_PREDICATES, ObjectArrays, pair_metrics
from navbench.scene import SceneObject
from navbench.tasks.conditional import MarginSettings, decidable
from navbench.tasks.conditional.margins import qualifies
from tests.conditional.synth import random_scenes

REF = SceneObject("ref", "sofa", (0.0, 0.5, 0.0), "r", size=(0.1, 0.1, 0.1))


def _at(bearing_deg: float, h: float, dy: float = 0.0, size: float = 0.1) -> SceneObject:
    """An object h m from REF at a compass bearing (° CCW from east; north = −Z), dy higher."""
    a = math.radians(bearing_deg)
    return SceneObject("s", "lamp", (h * math.cos(a), 0.5 + dy, -h * math.sin(a)), "r",
                       size=(size, size, size))


def _state(subject: SceneObject, predicate: str, ref: SceneObject = REF) -> str:
    pm = pair_metrics(ObjectArrays.from_objects([ref, subject]))
    yes, no = decidable(pm, predicate)
    holds = bool(pm.holds(predicate)[0, 1])
    assert not (yes[0, 1] and no[0, 1])
    assert not yes[0, 1] or holds, "surely holds must imply the graph's predicate"
    assert not no[0, 1] or not holds, "surely fails must imply its negation"
    return "holds" if yes[0, 1] else "fails" if no[0, 1] else "undecidable"


@pytest.mark.parametrize(("bearing", "expected"), [
    (22.5 - 9.0, "undecidable"),  # 9° inside the east sector's boundary
    (22.5 - 11.0, "holds"),       # 11° inside
    (22.5 + 9.0, "undecidable"),  # 9° outside (the graph says north-east)
    (22.5 + 11.0, "fails"),       # 11° outside
    (0.0, "holds"),
    (180.0, "fails"),
])
def test_direction_needs_ten_degrees_from_the_sector_boundary(bearing: float, expected: str) -> None:
    assert _state(_at(bearing, 2.0), "east of") == expected


def test_direction_needs_half_a_metre_of_horizontal_separation() -> None:
    assert _state(_at(0.0, 0.45), "east of") == "undecidable"
    assert _state(_at(0.0, 0.55), "east of") == "holds"
    assert _state(_at(180.0, 0.45), "east of") == "undecidable"  # also for failing
    assert _state(_at(180.0, 0.55), "east of") == "fails"


def test_level_direction_needs_elevation_inside_its_bin() -> None:
    # 1 m east; 0.47 m up = 25.2° elevation (graph: level, within 10° of 30°), 0.27 m = 15.1°
    assert _state(_at(0.0, 1.0, 0.47), "east of") == "undecidable"
    assert _state(_at(0.0, 1.0, 0.27), "east of") == "holds"
    # far above and east (60°): the graph says "east-and-up of"; a person still calls it east
    assert _state(_at(0.0, 1.0, 1.73), "east of") == "undecidable"
    assert _state(_at(0.0, 1.0, 1.73), "east-and-up of") == "holds"
    assert _state(_at(0.0, 1.0, 0.1), "east-and-up of") == "fails"  # 5.7°: clearly level


@pytest.mark.parametrize(("gap", "near", "far"), [
    (0.65, "holds", "fails"), (0.75, "undecidable", "fails"), (1.25, "undecidable", "fails"),
    (1.35, "fails", "fails"), (2.65, "fails", "fails"), (2.75, "fails", "undecidable"),
    (3.25, "fails", "undecidable"), (3.35, "fails", "holds"),
])
def test_near_and_far_need_three_tenths_from_the_threshold(gap: float, near: str, far: str) -> None:
    # 0.1 m cubes due east: AABB surface distance = centre distance − 0.1
    s = _at(0.0, gap + 0.1)
    assert _state(s, "near") == near and _state(s, "far from") == far


@pytest.mark.parametrize(("dy", "higher", "lower"), [
    (0.55, "holds", "fails"), (0.45, "undecidable", "fails"), (0.15, "undecidable", "fails"),
    (0.05, "fails", "fails"), (-0.05, "fails", "fails"), (-0.24, "fails", "undecidable"),
    (-0.5, "fails", "holds"),
])
def test_higher_and_lower(dy: float, higher: str, lower: str) -> None:
    s = _at(0.0, 2.0, dy)
    assert _state(s, "higher than") == higher and _state(s, "lower than") == lower


def test_above_on_a_table_and_beside_it() -> None:
    table = SceneObject("t", "table", (0.0, 0.4, 0.0), "r", size=(1.0, 0.8, 1.0))
    cup = SceneObject("c", "cup", (0.2, 0.85, 0.1), "r", size=(0.2, 0.1, 0.2))  # on it: dy 0.45
    assert _state(cup, "above", table) == "holds" and _state(cup, "below", table) == "fails"
    low = SceneObject("c", "cup", (0.2, 0.65, 0.1), "r", size=(0.2, 0.1, 0.2))  # dy 0.25 < 0.3
    assert _state(low, "above", table) == "undecidable"
    beside = SceneObject("c", "cup", (2.0, 0.45, 0.0), "r", size=(0.2, 0.1, 0.2))  # dy 0.05
    assert _state(beside, "above", table) == "fails"


def test_surely_holds_and_fails_agree_with_the_graph_on_random_rooms() -> None:
    pairs = 0
    for scene in random_scenes(6, seed=3):
        for room in scene.rooms:
            pm = pair_metrics(ObjectArrays.from_objects(scene.objects_in(room.id)))
            for p in ALL_PREDICATES:
                yes, no = decidable(pm, p)
                holds = pm.holds(p)
                assert not (yes & ~holds).any() and not (no & holds).any() and not (yes & no).any()
                pairs += int(yes.sum() + no.sum())
    assert pairs > 1000


def _vases(*gaps: float) -> tuple:
    """A 0.2 m dining table at the origin and 0.2 m vases east, west, south, north of it whose
    AABB surface distances to it are exactly ``gaps`` (m)."""
    table = SceneObject("t", "dining table", (0.0, 0.4, 0.0), "r", size=(0.2, 0.2, 0.2))
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    vases = [SceneObject(f"v{k}", "vase", (dirs[k][0] * (g + 0.2), 0.4, dirs[k][1] * (g + 0.2)), "r",
                         size=(0.2, 0.2, 0.2)) for k, g in enumerate(gaps)]
    pm = pair_metrics(ObjectArrays.from_objects([table, *vases]))
    assert pm.d_used[0, 1:] == pytest.approx(gaps)
    return pm, len(vases)


def test_near_qualifier_needs_one_clearly_nearest_candidate() -> None:
    pm, n = _vases(0.95, 1.1, 1.25)  # the three vases 0.95–1.25 m from the dining table
    assert not any(qualifies(pm, "near", 0, k, [j for j in range(1, n + 1) if j != k])
                   for k in range(1, n + 1))
    pm, n = _vases(0.5, 1.4, 2.0)
    assert qualifies(pm, "near", 0, 1, [2, 3])
    assert not qualifies(pm, "near", 0, 2, [1, 3])
    pm, n = _vases(0.5, 1.2)  # the other one only 0.2 m past the threshold: not surely far
    assert not qualifies(pm, "near", 0, 1, [2])
    # with a 0.05 m distance margin both 1.06 and 1.08 surely fail "near"; the runner-up rule
    # still asks the second candidate to be 0.5 m farther than the first
    loose = MarginSettings(distance=0.05)
    assert qualifies(_vases(0.5, 1.08)[0], "near", 0, 1, [2], margins=loose)  # 0.58 m farther
    assert not qualifies(_vases(0.6, 1.06)[0], "near", 0, 1, [2], margins=loose)  # 0.46 m


def test_settings_are_validated() -> None:
    with pytest.raises(ConfigError, match="direction_deg"):
        MarginSettings(direction_deg=30.0)
    with pytest.raises(ConfigError, match="height_false < height_true"):
        MarginSettings(height_true=0.1, height_false=0.2)
    with pytest.raises(ConfigError, match="distance"):
        MarginSettings(distance=-1.0)
