"""Outdoor route episodes: sidewalks and crosswalks only, each street crossing and the exit stated
once, buildings / storefronts / colours as landmarks — counted from the geometry, not the planner."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
import shapely

import navbench.scene as ns
from navbench.episodes.route import RouteEpisodeSettings, route_episodes
from navbench.nav import NavMesh, NavSettings
from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.tasks.route import split_at_events

SMALL = OutdoorSettings(size=(200.0, 200.0), cars=30, sidewalk_objects=150)
CROSS = re.compile(r"cross(?:es)? the (?:street|road)", re.I)
EXIT = re.compile(r"out of the building|exit the building|out through the exit", re.I)


def _episodes(scene: ns.Scene, n: int, cell: float = 0.25, **kw: object) -> list:
    nm = NavMesh.build(scene, NavSettings.preset("outdoor", cell_size=cell))  # hybrid: 0.1 as datasets
    drop: Counter[str] = Counter()
    return route_episodes(scene, nm, 3, n, drop, RouteEpisodeSettings(**kw))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def city() -> ns.Scene:
    return generate_city(7, SMALL)


@pytest.fixture(scope="module")
def city_eps(city: ns.Scene) -> list:
    eps = _episodes(city, 24)
    assert len(eps) >= 15
    return eps


def _polys(scene: ns.Scene, cls: str) -> shapely.Geometry:
    return shapely.union_all([shapely.Polygon(s.polygon, s.holes or None) for s in scene.surfaces if s.cls == cls])


def _line(ep: object) -> shapely.LineString:
    return shapely.LineString([(p[0], p[2]) for p in ep.reference_path])  # type: ignore[attr-defined]


def test_routes_stay_off_the_roadway(city: ns.Scene, city_eps: list) -> None:
    road = _polys(city, "road")
    on = sum(_line(e).intersection(road).length for e in city_eps)
    total = sum(_line(e).length for e in city_eps)
    assert on / total < 1e-3
    before = _episodes(city, 24, sidewalks_only=False)  # the old planner cuts across the road
    on_b = sum(_line(e).intersection(road).length for e in before)
    assert on_b / sum(_line(e).length for e in before) > 0.05


def _blocks_visited(scene: ns.Scene, ep: object, step: float = 0.25) -> list[str]:
    """Block ids (outer rectangle of each sidewalk ring) along the path, repeats collapsed:
    every change is one street crossed."""
    rings = [(s.id, shapely.Polygon(s.polygon)) for s in scene.surfaces if s.cls == "sidewalk" and s.holes]
    line = _line(ep)
    seq: list[str] = []
    for t in np.arange(0.0, line.length + step, step):
        q = line.interpolate(min(t, line.length))
        hit = [sid for sid, pg in rings if pg.covers(q)]
        if hit and (not seq or seq[-1] != hit[0]):
            seq.append(hit[0])
    return seq


def test_each_crossing_is_stated_once(city: ns.Scene, city_eps: list) -> None:
    crossings = 0
    street = shapely.union_all([_polys(city, "crosswalk"), _polys(city, "road")])
    for e in city_eps:
        assert not street.covers(shapely.Point(e.start_position[0], e.start_position[2]))
        n_cross = len(_blocks_visited(city, e)) - 1
        assert len(CROSS.findall(e.instruction_text)) == n_cross, (e.instruction_text, n_cross)
        crossings += n_cross
    assert crossings >= 5


def test_hybrid_exit_and_crossings_are_separate() -> None:
    hyb = generate_hybrid(2, HybridSettings(city=SMALL))
    eps = _episodes(hyb, 16, cell=0.1)
    assert len(eps) >= 8
    crossed = 0
    for e in eps:
        text = e.instruction_text
        assert len(EXIT.findall(text)) == 1, text
        exit_sentence = next(s for s in re.split(r"(?<=\.) ", text) if EXIT.search(s))
        assert not CROSS.search(exit_sentence), text
        n_cross = len(_blocks_visited(hyb, e)) - 1
        assert len(CROSS.findall(text)) == n_cross, (text, n_cross)
        crossed += n_cross
    assert crossed >= 1


def test_landmarks_include_storefronts_buildings_and_colours(city: ns.Scene, city_eps: list) -> None:
    kinds: Counter[str] = Counter()
    places = {p.id for p in city.places}
    colours = set(city.meta["building_colours"].values())
    for e in city_eps:
        for lm in e.navbench["landmarks"]:
            kinds["place" if lm in places else "building" if lm.startswith("bldg_") else "object"] += 1
    assert kinds["place"] >= 2 and kinds["building"] >= 2 and kinds["object"] >= 2, kinds
    texts = " ".join(e.instruction_text for e in city_eps)
    assert any(f"the {c} building" in texts for c in colours)


def test_split_at_events_by_hand() -> None:
    # a straight 20 m path holding an exit at 3 m and a crossing over 8..14 m: one vertex at 5.5 m
    path = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, -20.0]])
    p, idx = split_at_events(path, [0, 1], [(3.0, 3.0, "exit"), (8.0, 14.0, "crosswalk")])
    assert idx == [0, 1, 2]
    assert np.allclose(p[1], [0.0, 0.0, -5.5])
    p2, idx2 = split_at_events(path, [0, 1], [(8.0, 14.0, "crosswalk")])
    assert idx2 == [0, 1] and len(p2) == 2


def test_place_goals_stand_in_front_of_the_entrance(city: ns.Scene, city_eps: list) -> None:
    """"Stop in front of the X": the goal is the navigable point at the door (within a cell and
    the approach slack of ``place.entrance``), not the facade's corner (3.8–4.9 m away before)."""
    entrance = {p.id: p.entrance for p in city.places}
    places = [e for e in city_eps if e.info["navbench"]["goal_kind"] == "place"]
    assert len(places) >= 3
    for e in places:
        ex, _, ez = entrance[e.info["navbench"]["goal_id"]]
        g = e.goals[0].position
        assert np.hypot(g[0] - ex, g[2] - ez) <= 0.25 + 0.25  # approach slack + one 0.25 m cell
        assert np.allclose(e.reference_path[-1], g)


def test_geodesic_distance_is_the_navmesh_d0(city: ns.Scene, city_eps: list) -> None:
    """L (``geodesic_distance``) is start → goal on the navmesh scoring uses (roads included);
    the sidewalk route's length is ``info.navbench.route_length`` (≥ L, longer across streets)."""
    nm = NavMesh.build(city, NavSettings.preset("outdoor", cell_size=0.25))
    longer = 0
    for e in city_eps:
        d0 = nm.geodesic_distance(e.start_position, e.goals[0].position)
        assert e.geodesic_distance == pytest.approx(d0, abs=1e-6)
        ref = np.asarray(e.reference_path)
        route = float(np.linalg.norm(np.diff(ref, axis=0), axis=1).sum())
        assert e.info["navbench"]["route_length"] == pytest.approx(route, abs=1e-9)
        # never shorter than L, up to the two navmeshes' rasterised corners (< 1 % + 5 cm)
        assert route >= 0.99 * d0 - 0.05 and d0 >= 5.0 and route <= 50.0
        longer += route > 1.05 * d0
    assert longer >= 3  # street crossings on the crosswalks: the route is longer than L


def test_routes_keep_off_yards_and_start_on_sidewalks(city: ns.Scene, city_eps: list) -> None:
    """Lot yards and lawns (``preferred: false``) are costly: starts never stand on them and the
    paths barely touch them (9 % of their length before; every street crossing aside)."""
    off = shapely.union_all([shapely.Polygon(s.polygon, s.holes or None) for s in city.surfaces
                             if not s.preferred and s.cls == "green"])
    on = sum(_line(e).intersection(off).length for e in city_eps)
    assert on / sum(_line(e).length for e in city_eps) < 0.01
    for e in city_eps:
        assert not off.contains(shapely.Point(e.start_position[0], e.start_position[2]))
