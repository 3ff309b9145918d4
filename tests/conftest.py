"""Shared fixtures: small hand-built scenes whose geometry is known exactly."""

from __future__ import annotations

import pytest

from navbench.scene import Box, Place, Portal, Room, Scene, SceneObject, Surface


def two_room_scene() -> Scene:
    """Two 4 m x 4 m rooms side by side along +X, joined by a 1 m door in the shared wall.

    Room ``r0`` spans x in [0, 4], z in [-4, 0]; room ``r1`` spans x in [4, 8], z in [-4, 0].
    The shared wall is at x = 4 (0.1 m thick) with a door at z in [-2.5, -1.5].
    """
    rooms = (
        Room("r0", "kitchen", ((0.0, 0.0), (4.0, 0.0), (4.0, -4.0), (0.0, -4.0)), 0.0, 2.7),
        Room("r1", "living room", ((4.0, 0.0), (8.0, 0.0), (8.0, -4.0), (4.0, -4.0)), 0.0, 2.7),
    )
    objects = (
        SceneObject("o0", "table", (1.0, 0.4, -1.0), "r0", size=(1.0, 0.8, 0.6)),
        SceneObject("o1", "lamp", (1.2, 1.0, -1.0), "r0", size=(0.2, 0.4, 0.2), parent_id="o0"),
        SceneObject("o2", "sofa", (6.0, 0.4, -3.5), "r1", size=(2.0, 0.8, 0.8), yaw=0.5),
        SceneObject("o3", "plant", (7.5, 0.5, -0.5), "r1", radius=0.3),
    )
    walls = (
        Box("w0", "wall", (4.0, 1.35, -0.75), (0.1, 2.7, 1.5), label="wall", ref="r0"),
        Box("w1", "wall", (4.0, 1.35, -3.25), (0.1, 2.7, 1.5), label="wall", ref="r0"),
        Box("f0", "furniture", (1.0, 0.4, -1.0), (1.0, 0.8, 0.6), label="table", ref="o0"),
    )
    return Scene(
        id="two_rooms",
        kind="indoor",
        source="handmade",
        rooms=rooms,
        objects=objects,
        places=(Place("p0", "cafe", "Blue Cup", (9.0, 0.0, -2.0), ((8.5, -1.0), (8.5, -3.0))),),
        surfaces=(Surface("s0", "floor", ((0.0, 0.0), (8.0, 0.0), (8.0, -4.0), (0.0, -4.0))),),
        portals=(
            Portal("d0", "door", ("r0", "r1"), (4.0, 0.0, -2.0), 1.0, 2.1, -1.5707963),
            Portal("d1", "exit", ("r1", "outdoor"), (8.0, 0.0, -2.0), 1.0, 2.1, -1.5707963),
        ),
        boxes=walls,
        meta={"note": "hand-built"},
    )


@pytest.fixture
def two_rooms() -> Scene:
    return two_room_scene()
