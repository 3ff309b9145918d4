"""References a person can resolve: objects outside their room polygon and objects too small to
see are never named; the camera's resolvable size by hand."""

from __future__ import annotations

import math

import pytest

from navbench.graph import build_scene_graph
from navbench.scene import Room, Scene, SceneObject
from navbench.tasks.conditional import (
    InstructionSettings,
    Presence,
    Relation,
    conditions,
    generate_instructions,
    targets,
)
from navbench.tasks.conditional.perception_audit import scene_facts
from navbench.tasks.conditional.references import (
    misplaced_labels,
    outside_room,
    resolvable_size,
    seen_in,
    visible_size,
)


def test_resolvable_size_of_the_spec_camera() -> None:
    f = 240.0 / math.tan(math.radians(79.0 / 2))  # 480 rows, 79° vertical FOV: 291.1 px
    assert resolvable_size() == pytest.approx(32 * 1.5 / f)
    assert resolvable_size() == pytest.approx(0.1649, abs=1e-4)
    assert resolvable_size(min_pixels=64) == pytest.approx(2 * resolvable_size())


def test_visible_size_is_the_face_an_object_shows_best() -> None:
    card = SceneObject("c", "credit card", (0, 0, 0), "r", size=(0.09, 0.005, 0.05))
    assert visible_size(card) == pytest.approx(math.sqrt(0.09 * 0.05))  # 0.067 m
    assert visible_size(SceneObject("b", "ball", (0, 0, 0), "r", radius=0.1)) == pytest.approx(0.2)
    assert visible_size(SceneObject("x", "thing", (0, 0, 0), "r")) is None


def _flat() -> Scene:
    """Kitchen (x 0..5) and living room (x 5..10), 5 m deep; a kitchen chair annotated in the
    kitchen lies at x = 6.0, inside the living-room outline; a credit card in the kitchen."""
    kitchen = Room("k", "kitchen", ((0, 0), (5, 0), (5, -5), (0, -5)))
    living = Room("l", "living room", ((5, 0), (10, 0), (10, -5), (5, -5)))
    box = (0.6, 0.8, 0.6)
    objs = [
        SceneObject("sink", "sink", (1.0, 0.45, -1.0), "k", size=box),
        SceneObject("oven", "oven", (3.5, 0.45, -1.0), "k", size=box),
        SceneObject("fridge", "fridge", (1.0, 0.9, -4.0), "k", size=(0.8, 1.8, 0.7)),
        SceneObject("stool", "stool", (3.5, 0.3, -4.0), "k", size=(0.4, 0.6, 0.4)),
        SceneObject("card", "credit card", (2.5, 0.9, -2.5), "k", size=(0.09, 0.005, 0.05)),
        SceneObject("chair", "chair", (6.0, 0.45, -2.5), "k", size=box),  # misplaced
        SceneObject("sofa", "sofa", (8.5, 0.4, -1.0), "l", size=(2.0, 0.8, 0.9)),
        SceneObject("tv", "tv", (8.5, 0.6, -4.5), "l", size=(1.0, 0.6, 0.1)),
        SceneObject("lamp", "lamp", (6.0, 0.8, -4.5), "l", size=(0.4, 1.6, 0.4)),
        SceneObject("table", "coffee table", (8.5, 0.25, -2.5), "l", size=(1.0, 0.5, 0.6)),
    ]
    return Scene("flat", "indoor", "handmade", (kitchen, living), tuple(objs))


def _named(scene: Scene, insts: list) -> tuple[set[str], set[tuple[str, str]]]:
    """Object ids referred to (targets, anchors, relation objects) and presence (label, room)."""
    ids: set[str] = set()
    asked: set[tuple[str, str]] = set()
    for i in insts:
        for t in targets(i.program):
            ids.add(str(t.object_id))
            if t.qualifier is not None:
                ids.add(str(t.qualifier.anchor_id))
        for c in conditions(i.program):
            if isinstance(c, Presence):
                asked.add((c.label, str(c.room_id)))
            else:
                assert isinstance(c, Relation)
                ids.update({str(c.subject.object_id), str(c.reference.object_id)})
    return ids, asked


def test_misplaced_and_tiny_objects_are_never_named() -> None:
    scene = _flat()
    assert outside_room(scene, scene.object_index["chair"])
    assert not any(outside_room(scene, o) for o in scene.objects if o.id != "chair")
    assert misplaced_labels(scene) == {("chair", "k"), ("chair", "l")}
    assert "chair" in seen_in(scene, scene.room_index["l"])
    assert scene_facts([scene]) == {"handmade": {"scenes": 1, "objects": 10, "outside_room": 1,
                                                 "small": 1}}
    graph = build_scene_graph(scene)
    insts = generate_instructions(scene, 120, seed=4, graph=graph,
                                  instruction_settings=InstructionSettings(p_relation=0.5))
    ids, asked = _named(scene, insts)
    assert "chair" not in ids and "card" not in ids
    assert not {("chair", "k"), ("chair", "l"), ("credit card", "k")} & asked
    assert {"sink", "sofa"} <= ids  # the rest is used
    # with the size check off the card can be named; the misplaced chair still cannot
    loose = generate_instructions(scene, 120, seed=4, graph=graph, instruction_settings=InstructionSettings(
        p_relation=0.5, min_reference_size=0.0))
    ids, asked = _named(scene, loose)
    assert ("card" in ids or ("credit card", "k") in asked) and "chair" not in ids
