"""Route instructions on hand-drawn paths and scenes: simplification, turns, landmarks, text."""

from __future__ import annotations

import math
import re

import numpy as np
import shapely

from navbench.rng import derive
from navbench.scene import Box, Room, Scene, SceneObject
from navbench.tasks.route import (
    RouteContext,
    RouteSettings,
    douglas_peucker,
    render_text,
    route_directives,
    route_instruction,
    simplify_path,
    turn_word,
)
from tests.conftest import two_room_scene

EAST = -math.pi / 2  # yaw facing +X (yaw 0 faces -Z, positive turns left)


def _p(*xz: tuple[float, float]) -> np.ndarray:
    return np.array([[x, 0.0, z] for x, z in xz])


def test_douglas_peucker_tolerance_property_and_hand_case() -> None:
    rng = np.random.default_rng(0)
    xz = np.cumsum(rng.normal(size=(60, 2)), axis=0)
    for tol in (0.3, 1.0, 3.0):
        keep = douglas_peucker(xz, tol)
        assert keep[0] == 0 and keep[-1] == len(xz) - 1
        line = shapely.LineString(xz[keep])
        # every dropped point lies within tol of the simplified polyline (shapely, independent)
        assert all(line.distance(shapely.Point(*q)) <= tol + 1e-9 for q in xz)
    # an L with jitter below the tolerance: only the corner survives
    L = [(0, 0), (0.05, -1), (-0.05, -2), (0, -3), (1, -3.05), (2, -2.95), (3, -3)]
    assert douglas_peucker(np.array(L, float), 0.2) == [0, 3, 6]


def test_simplify_merges_small_turns_and_short_segments() -> None:
    # 10° kink at (0,-5): merged; a 0.4 m jog at the corner: merged into one right-angle turn
    k = (5 * math.sin(math.radians(10)), -5 - 5 * math.cos(math.radians(10)))
    path = _p((0, 0), (0, -5), k, (k[0] + 0.3, k[1] - 0.25), (k[0] + 6, k[1] - 0.25))
    idx = simplify_path(path, tolerance=0.05, min_turn_deg=20, min_segment=1.0)
    assert idx[0] == 0 and idx[-1] == len(path) - 1
    assert len(idx) == 3  # start, one corner, end


def test_turn_words() -> None:
    s = RouteSettings()
    assert turn_word(math.radians(10), s) is None
    # slight < 45°, turn 45–135°, sharp > 135°, around > 170°
    assert turn_word(math.radians(40), s) == "slightly left"
    assert turn_word(math.radians(-50), s) == "right"  # before: "slightly" up to 60°
    assert turn_word(math.radians(-90), s) == "right"
    assert turn_word(math.radians(90), s) == "left"
    assert turn_word(math.radians(130), s) == "left"
    assert turn_word(math.radians(-150), s) == "sharp right"
    assert turn_word(math.radians(175), s) == "around"
    # heading changes that cross ±180°: walking south (+Z, yaw ±π), then west is a RIGHT turn
    # and east a LEFT one (before: the raw difference's sign, wrong for ~1 turn in 5 in a city)
    south, west, east = math.pi, math.pi / 2, -math.pi / 2  # yaw_of_direction(0,1)/(-1,0)/(1,0)
    assert turn_word(west - south, s) == "right" and turn_word(west - (-south), s) == "right"
    assert turn_word(east - south, s) == "left"
    assert turn_word(math.radians(-140) - math.radians(170), s) == "left"  # 50° left


def test_l_path_turn_direction_and_arrival_side() -> None:
    # north 5 m then west 5 m: facing north (yaw 0) a turn to the west is a LEFT turn
    sc = two_room_scene()
    ctx = RouteContext(sc)
    path = _p((1.0, 0.0), (1.0, -5.0), (-4.0, -5.0))
    dirs, v = route_directives(ctx, path, 0.0, "o0")
    kinds = [(d.kind, d.turn) for d in dirs]
    assert kinds == [("move", None), ("turn", "left"), ("move", None), ("arrive", None)]
    assert np.allclose(v, path)
    # mirrored: east is a right turn
    dirs, _ = route_directives(ctx, _p((1.0, 0.0), (1.0, -5.0), (6.0, -5.0)), 0.0, "o0")
    assert [d.turn for d in dirs if d.kind == "turn"] == ["right"]
    # start facing south: the first move needs a turn around
    dirs, _ = route_directives(ctx, _p((1.0, 0.0), (1.0, -5.0)), math.pi, "o0")
    assert dirs[0].turn == "around"


def _bend(first: float, second: float, gap: float) -> np.ndarray:
    """North 5 m, then ``gap`` m at ``first``° left of north, then 5 m at ``second``°."""
    pts = [(1.0, 0.0), (1.0, -5.0)]
    for deg, length in ((first, gap), (second, 5.0)):
        x, z = pts[-1]
        r = math.radians(deg)
        pts.append((x - length * math.sin(r), z - length * math.cos(r)))
    return _p(*pts)


def test_a_rounded_corner_is_one_turn_of_the_summed_heading_change() -> None:
    # two 40° left vertices 1.5 m apart are one 80° left turn (before: "bear left ... bear
    # left"); 4 m apart they stay two slight ones; opposite ways never merge
    ctx = RouteContext(two_room_scene())
    dirs, _ = route_directives(ctx, _bend(40.0, 80.0, 1.5), 0.0, "o0")
    assert [(t.turn, round(t.angle or 0.0)) for t in dirs if t.kind == "turn"] == [("left", 80)]
    assert [x.kind for x in dirs] == ["move", "turn", "move", "arrive"]
    dirs, _ = route_directives(ctx, _bend(40.0, 80.0, 4.0), 0.0, "o0")
    assert [t.turn for t in dirs if t.kind == "turn"] == ["slightly left", "slightly left"]
    dirs, _ = route_directives(ctx, _bend(50.0, 0.0, 2.5), 0.0, "o0")  # a 1.9 m side step
    assert [t.turn for t in dirs if t.kind == "turn"] == ["left", "right"]


def test_door_crossing_landmark_and_goal_in_two_rooms() -> None:
    sc = two_room_scene()
    ctx = RouteContext(sc)
    # kitchen (1, -2.5) → through the door at x = 4 (z in [-2.5, -1.5]) → living room (6, -2)
    path = _p((1.0, -2.5), (6.0, -2.0))
    dirs, _ = route_directives(ctx, path, EAST, "o2")
    move = dirs[0]
    assert (move.kind, move.via, move.into) == ("move", "door", "living room")
    assert move.landmark is None  # table projects before 20 % of the segment, plant after its end
    arrive = dirs[-1]
    # heading ≈ east; the sofa (6, -3.5) is to the north = on the left
    assert (arrive.kind, arrive.landmark, arrive.side) == ("arrive", "the sofa", "left")
    ins = route_instruction(ctx, path, EAST, "o2", seed=3)
    assert "living room" in ins.text and ins.text.rstrip().endswith("It is on your left.")
    assert "the sofa" in ins.text and not re.search(r"\d", ins.text)
    assert ins.text == route_instruction(ctx, path, EAST, "o2", seed=3).text  # seeded


def test_visibility_blocked_by_wall_and_naming() -> None:
    sc = two_room_scene()
    ctx = RouteContext(sc)
    # the plant (7.5, -0.5) behind the wall x = 4, z in [-1.5, 0]: hidden from the kitchen side
    assert not ctx.visible("o3", np.array([2.0, 0.0, -0.5]))
    assert ctx.visible("o3", np.array([6.0, 0.0, -2.0]))
    assert ctx.visible("o3", np.array([2.0, 0.0, -2.4]))  # through the door gap (z -1.7 at the wall)
    assert ctx.refer("o0") == "the table" and ctx.refer("p0") == "the cafe"
    # a place passed on the way outdoors: the cafe entrance (9, -2) from a path along x = 10
    lm = ctx.landmark_along(np.array([10.0, 0.0, 2.0]), np.array([10.0, 0.0, -8.0]), set())
    assert lm == ("p0", "the cafe")


def _bedroom() -> Scene:
    room = Room("r", "bedroom", ((0.0, 0.0), (5.0, 0.0), (5.0, -5.0), (0.0, -5.0)))
    objs = (
        SceneObject("bed", "bed", (1.0, 0.3, -1.0), "r", size=(1.0, 0.6, 2.0)),
        SceneObject("lampA", "lamp", (1.0, 0.2, -2.3), "r", size=(0.3, 0.4, 0.3)),
        SceneObject("lampB", "lamp", (3.5, 0.2, -3.5), "r", size=(0.3, 0.4, 0.3)),
        SceneObject("b1", "bench", (20.0, 0.3, 0.0), None, size=(1.5, 0.5, 0.5)),
        SceneObject("b2", "bench", (30.0, 0.3, 0.0), None, size=(1.5, 0.5, 0.5)),
        SceneObject("tree", "tree", (60.0, 2.0, 0.0), None, size=(1.0, 4.0, 1.0)),
    )
    return Scene("bedroom", "indoor", "handmade", rooms=(room,), objects=objs,
                 boxes=(Box("w", "wall", (2.5, 1.0, 0.0), (5.0, 2.0, 0.1)),))


def test_referring_expressions_use_graph_relations_and_uniqueness() -> None:
    ctx = RouteContext(_bedroom())
    assert ctx.refer("bed") == "the bed"
    # lamp A is 0.15 m from the bed (AABB gap) → "near"; lamp B is not near it → compass relation
    assert ctx.refer("lampA") == "the lamp near the bed"
    assert ctx.refer("lampB") == "the lamp north-east of the bed"
    # outdoor benches 10 m apart (< 20 m unique radius): ambiguous; the lone tree is fine
    assert ctx.refer("b1") is None and ctx.refer("b2") is None
    assert ctx.refer("tree") == "the tree"


def test_render_has_no_numbers_and_varies_with_seed() -> None:
    sc = two_room_scene()
    ctx = RouteContext(sc)
    path = _p((1.0, -0.5), (1.0, -3.0), (3.0, -3.0), (6.0, -2.0))
    dirs, _ = route_directives(ctx, path, 0.0, "o2")
    texts = {render_text(dirs, derive(s, "t")) for s in range(12)}
    assert len(texts) > 1
    for t in texts:
        assert not re.search(r"\d", t)
        assert "turn" in t.lower() or "bear" in t.lower() or "veer" in t.lower() or "take a" in t.lower()


def test_referring_expressions_say_elevated_relations_in_words() -> None:
    # two lamps high on the walls (2.2 m above the bed, 2 m away: 48° up), one east and one north
    # of the bed; both are "higher than" it, so only the compass relation tells them apart
    room = Room("r", "bedroom", ((0.0, 0.0), (5.0, 0.0), (5.0, -5.0), (0.0, -5.0)))
    objs = (
        SceneObject("bed", "bed", (1.0, 0.3, -1.0), "r", size=(1.0, 0.6, 2.0)),
        SceneObject("lampE", "lamp", (3.0, 2.5, -1.0), "r", size=(0.3, 0.3, 0.3)),
        SceneObject("lampN", "lamp", (1.0, 2.5, -3.0), "r", size=(0.3, 0.3, 0.3)),
    )
    ctx = RouteContext(Scene("lamps", "indoor", "handmade", rooms=(room,), objects=objs))
    assert ctx.refer("lampE") == "the lamp above and to the east of the bed"  # id: east-and-up of
    assert ctx.refer("lampN") == "the lamp above and to the north of the bed"


def test_labels_read_as_the_nouns_people_say() -> None:
    """'Your destination is the fast food' / 'the atm' (a review): place categories and labels
    that are not nouns read as one in route text; every other label is its own noun."""
    import dataclasses

    from navbench.scene.model import Place, SceneObject
    from navbench.tasks.route_landmarks import RouteContext, noun

    assert (noun("fast food"), noun("atm"), noun("bench")) == ("fast-food restaurant", "ATM", "bench")
    shop = Place(id="p0", category="fast food", name="Harbor Fast Food", entrance=(30.0, 0.0, 30.0),
                 footprint=((29.0, 31.0), (31.0, 31.0), (31.0, 29.0), (29.0, 29.0)))
    atm = SceneObject(id="atm0", label="atm", center=(40.0, 0.85, 40.0), size=(0.8, 1.7, 0.7))
    sc = two_room_scene()
    sc = dataclasses.replace(sc, places=(shop,), objects=(*sc.objects, atm))
    ctx = RouteContext(sc)
    assert ctx.refer("p0") == "the fast-food restaurant" and ctx.refer("atm0") == "the ATM"
