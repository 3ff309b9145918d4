"""Repeated room labels are named by content ("with the desk") or by a door to a unique room
("off the hallway"), on a hand-drawn house; rooms that cannot be singled out are not used."""

from __future__ import annotations

from navbench.scene import Portal, Room, Scene, SceneObject
from navbench.tasks.conditional import generate_instructions, parse
from navbench.tasks.conditional.scene_index import room_hints
from tests.conditional.oracle import room_id_of
from tests.conditional.test_consistency import _refs, violations


def _house() -> Scene:
    def sq(i: int) -> tuple:
        x = 4.0 * i
        return ((x, 0.0), (x + 4, 0.0), (x + 4, -4.0), (x, -4.0))

    labels = ["bedroom", "bedroom", "bathroom", "bathroom", "hallway", "kitchen", "bathroom"]
    rooms = tuple(Room(f"r{i}", lab, sq(i)) for i, lab in enumerate(labels))
    content = {0: ["bed", "desk", "lamp"], 1: ["bed", "lamp", "chair"], 2: ["sink", "toilet"],
               3: ["sink", "toilet"], 4: ["plant", "mirror"], 5: ["oven", "sink", "stool"],
               6: ["sink", "toilet"]}
    objs = tuple(SceneObject(f"o{i}_{k}", lab, (4.0 * i + 0.8 + 1.2 * k, 0.4, -1.0 - 0.9 * k), f"r{i}",
                             size=(0.5, 0.8, 0.5))
                 for i, labs in content.items() for k, lab in enumerate(labs))
    portals = (Portal("p0", "door", ("r2", "r4"), (11.0, 0.0, -2.0), 0.9),
               Portal("p1", "door", ("r3", "r5"), (15.0, 0.0, -2.0), 0.9),
               Portal("p2", "door", ("r6", "r5"), (24.0, 0.0, -2.0), 0.9))
    return Scene("hints", "indoor", "test", rooms, objs, portals=portals)


def test_hints_by_content_and_by_door() -> None:
    s = _house()
    h = room_hints(s)
    assert h["r0"] == "with the desk" and h["r1"] == "with the chair"  # lamp/bed are in both
    assert h["r2"] == "off the hallway"  # same content as r3 and r6; only r2 opens to the hallway
    assert "r3" not in h and "r6" not in h  # both open to the kitchen: neither can be singled out
    assert h["r4"] is None and h["r5"] is None
    # the oracle resolves the phrases from raw rooms, objects and portals
    assert room_id_of(s, "bedroom", "with the desk") == "r0"
    assert room_id_of(s, "bathroom", "off the hallway") == "r2"


def test_instructions_use_hinted_rooms_consistently() -> None:
    s = _house()
    insts = generate_instructions(s, 120, seed=3)
    used = {(r.room, r.room_hint) for i in insts for r in _refs(i.program)}
    assert ("bedroom", "with the desk") in used and ("bathroom", "off the hallway") in used
    assert all(rid not in {"r3", "r6"} for i in insts for rid in i.axes["target_rooms"])
    for i in insts:
        assert parse(i.text) == i.program, i.text
        assert not violations(i), (i.text, violations(i))
        # a room described by its desk never asks whether it has a desk
        assert "a desk in the bedroom with the desk" not in i.text
        assert "the bedroom with the desk has a desk" not in i.text
