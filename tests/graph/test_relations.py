"""Hand-computed predicates and distance fallbacks on tiny scenes (SPEC §2)."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from navbench.errors import ConfigError
from navbench.graph import GraphSettings, build_room_graph, build_scene_graph
from navbench.scene import Room, Scene, SceneObject
from tests.conditional.oracle import d_used as oracle_d_used
from tests.conditional.oracle import holds as oracle_holds
from tests.conditional.synth import random_scene

SQ = ((0.0, 0.0), (10.0, 0.0), (10.0, -10.0), (0.0, -10.0))


def scene_of(*objs: SceneObject) -> Scene:
    return Scene("t", "indoor", "test", (Room("r", "kitchen", SQ),), tuple(objs))


def edge(scene: Scene, subj: str, ref: str) -> dict:
    g = build_room_graph(scene, "r")
    return g.edges[subj, ref]


def test_aabb_distance_and_far() -> None:
    # A: x in [0,1], y in [0,1], z in [-1,0]; B shifted by 4 m east and 1.5 m down in z-gap.
    a = SceneObject("a", "table", (0.5, 0.5, -0.5), "r", size=(1, 1, 1))
    b = SceneObject("b", "chair", (4.5, 0.5, -3.0), "r", aabb=((4, 0, -3.5), (5, 1, -2.5)))
    e = edge(scene_of(a, b), "b", "a")
    # gaps: x = 4 - 1 = 3, y = 0, z = -1 - (-2.5) = 1.5 -> sqrt(9 + 2.25)
    assert e["d_used_kind"] == "aabb"
    assert e["d_aabb"] == pytest.approx(math.sqrt(11.25))
    assert e["d_center"] == pytest.approx(math.hypot(4.0, 2.5))
    assert "far from" in e["predicates"] and "near" not in e["predicates"]
    # b is 4 m east and 2.5 m north (δz = -2.5): (δx, −δz) = (4, 2.5) -> 32°, and the
    # north-east sector starts at 22.5°.
    assert e["predicates"][0] == "north-east of"


def test_sphere_fallback_and_near_boundary() -> None:
    a = SceneObject("a", "ball", (0.0, 0.5, -5.0), "r", radius=0.5)
    b = SceneObject("b", "box", (1.5, 0.5, -5.0), "r", size=(0.4, 0.4, 0.4))  # has a box
    e = edge(scene_of(a, b), "b", "a")
    rb = 0.5 * math.sqrt(3 * 0.4**2)
    assert e["d_used_kind"] == "sphere" and e["d_aabb"] is None
    assert e["d_sphere"] == pytest.approx(1.5 - 0.5 - rb)
    assert "near" in e["predicates"]
    assert e["predicates"][0] == "east of"
    # exactly 1.0 m of surface gap is still near (<=)
    c = SceneObject("c", "ball", (2.0, 0.5, -5.0), "r", radius=0.5)
    e2 = edge(scene_of(a, c), "c", "a")
    assert e2["d_sphere"] == pytest.approx(1.0) and "near" in e2["predicates"]


def test_center_fallback() -> None:
    a = SceneObject("a", "tv", (1.0, 1.0, -1.0), "r")
    b = SceneObject("b", "sofa", (1.0, 1.0, -4.5), "r", size=(2, 1, 1))
    e = edge(scene_of(a, b), "b", "a")
    assert e["d_used_kind"] == "center" and e["d_sphere"] is None
    assert e["d_used"] == pytest.approx(3.5)
    assert e["predicates"] == ["north of", "far from"]
    assert edge(scene_of(a, b), "a", "b")["predicates"] == ["south of", "far from"]


@pytest.mark.parametrize(
    ("dx", "dz", "name"),
    [(1, 0, "east"), (1, -1, "north-east"), (0, -1, "north"), (-1, -1, "north-west"),
     (-1, 0, "west"), (-1, 1, "south-west"), (0, 1, "south"), (1, 1, "south-east"),
     (1, -0.3, "east"), (0.3, -1, "north")],
)
def test_azimuth_sectors(dx: float, dz: float, name: str) -> None:
    a = SceneObject("a", "x", (5.0, 1.0, -5.0), "r")
    b = SceneObject("b", "y", (5.0 + 3 * dx, 1.0, -5.0 + 3 * dz), "r")
    assert edge(scene_of(a, b), "b", "a")["predicates"][0] == f"{name} of"


def test_elevation_bins() -> None:
    a = SceneObject("a", "x", (5.0, 0.0, -5.0), "r")
    up = SceneObject("b", "y", (6.0, 1.0, -5.0), "r")  # 45° up, east
    flat = SceneObject("c", "y", (6.0, 0.5, -5.0), "r")  # 26.6° -> level
    down = SceneObject("d", "y", (5.0, -1.0, -6.0), "r")  # 45° down, north
    s = scene_of(a, up, flat, down)
    assert edge(s, "b", "a")["predicates"][0] == "east-and-up of"
    assert edge(s, "c", "a")["predicates"][0] == "east of"
    assert edge(s, "d", "a")["predicates"][0] == "north-and-down of"


def test_above_below_higher_lower() -> None:
    table = SceneObject("t", "table", (2.0, 0.4, -2.0), "r", size=(1.0, 0.8, 0.6))
    lamp = SceneObject("l", "lamp", (2.1, 1.0, -2.0), "r", size=(0.2, 0.4, 0.2))  # dy 0.6, h 0.1
    shelf = SceneObject("s", "shelf", (2.8, 0.8, -2.0), "r", size=(1.4, 0.2, 0.4))  # h 0.8, overlaps
    far_lamp = SceneObject("f", "lamp", (4.0, 0.8, -2.0), "r", size=(0.2, 0.2, 0.2))  # h 2.0
    s = scene_of(table, lamp, shelf, far_lamp)
    p = edge(s, "l", "t")["predicates"]
    assert {"above", "higher than", "near"} <= set(p) and "below" not in p
    q = edge(s, "t", "l")["predicates"]
    assert {"below", "lower than"} <= set(q)
    # footprints overlap (x [2.1, 3.5] vs [1.5, 2.5]) although h = 0.8 > 0.5: above, not higher
    r = edge(s, "s", "t")["predicates"]
    assert "above" in r and "higher than" not in r
    assert "above" not in edge(s, "f", "t")["predicates"]
    no_fp = build_room_graph(s, "r", GraphSettings(above_footprint=False))
    assert "above" not in no_fp.edges["s", "t"]["predicates"]


def test_contains_edges_and_json_round_trip() -> None:
    a = SceneObject("a", "x", (1.0, 0.0, -1.0), "r", radius=0.2)
    b = SceneObject("b", "y", (2.0, 0.0, -1.0), "r", radius=0.2)
    sg = build_scene_graph(scene_of(a, b))
    g = sg.rooms["r"]
    assert g.edges["r", "a"]["kind"] == "contains" and g.number_of_edges() == 4
    doc = sg.to_json()["rooms"]["r"]
    m = nx.node_link_graph(doc, edges="edges")
    assert isinstance(m, nx.MultiDiGraph)
    keys = sorted(k for u, v, k in m.edges(keys=True) if (u, v) == ("b", "a"))
    assert keys == ["east of", "near"]
    rec = m.edges["b", "a", "near"]
    assert rec["subject"] == "b" and rec["reference"] == "a" and rec["predicate_type"] == "semantic"
    assert rec["d_sphere"] == pytest.approx(0.6) and rec["d_aabb"] is None


def test_settings_validation() -> None:
    with pytest.raises(ConfigError, match="near_max"):
        GraphSettings(near_max=5.0, far_min=3.0)
    with pytest.raises(ConfigError, match="unknown graph setting"):
        GraphSettings.from_dict({"nearr": 1})
    assert GraphSettings.from_dict({"near_max": 0.5}).near_max == 0.5


def test_vectorised_matches_loop_oracle() -> None:
    preds = ["near", "far from", "higher than", "lower than", "above", "below"]
    checked = 0
    for seed in range(6):
        s = random_scene(seed)
        sg = build_scene_graph(s)
        for rid, g in sg.rooms.items():
            objs = {o.id: o for o in s.objects_in(rid)}
            for u, v, d in g.edges(data=True):
                if d["kind"] != "relation":
                    continue
                kind, dist = oracle_d_used(objs[u], objs[v])
                assert d["d_used_kind"] == kind
                assert d["d_used"] == pytest.approx(dist, abs=2e-6)
                assert oracle_holds(objs[u], d["predicates"][0], objs[v])
                for p in preds:
                    assert (p in d["predicates"]) == oracle_holds(objs[u], p, objs[v]), (u, p, v)
                checked += 1
    assert checked > 500
