"""Which objects a person following the instruction can resolve (real-scene references).

* **Outside its room**: an annotated object whose centre lies more than ``tolerance`` (0.15 m:
  wall-mounted things sit on the boundary) outside its room's floor polygon is never a target,
  anchor or relation object, and its label is not asked about (present or absent) in its room
  nor in the room it actually stands in (a kitchen chair inside the living-room outline makes
  both "a chair in the kitchen" and "no chair in the living room" wrong to a person). The
  dataset audit counts such objects.
* **Too small to see**: an object whose visible size — √(product of its two largest extents),
  the face it shows best — spans fewer than ``min_pixels`` (32, COCO's "small object" bound)
  image rows at 1.5 m is not used as a target, anchor, relation object or presence label.
  With the SPEC §6 camera (480 rows, 79° vertical field of view: f = 291 px) that is 0.165 m:
  a credit card, CD, watch or pencil, not a book or a plate.
"""

from __future__ import annotations

import math

from navbench.geometry import point_in_polygon
from navbench.scene.model import Room, Scene, SceneObject

#: Head-camera vertical field of view (°) and image rows of each embodiment (SPEC §6;
#: ``navbench.sim.embodiments``): what decides the smallest object a robot resolves.
EMBODIMENT_CAMERA: dict[str, tuple[float, int]] = {"spot": (79.0, 480), "turtlebot": (79.0, 480)}


def resolvable_size(fovy_deg: float = 79.0, image_rows: int = 480, distance: float = 1.5,
                    min_pixels: float = 32.0) -> float:
    """Smallest visible size (m) spanning ``min_pixels`` rows at ``distance`` m for a pinhole
    camera: ``min_pixels · distance / f`` with ``f = (rows / 2) / tan(fovy / 2)``.

    >>> round(resolvable_size(), 3)
    0.165
    """
    f = (image_rows / 2.0) / math.tan(math.radians(fovy_deg) / 2.0)
    return min_pixels * distance / f


#: The default smallest reference (m): :func:`resolvable_size` of the SPEC §6 camera.
DEFAULT_MIN_SIZE: float = round(resolvable_size(), 3)


def visible_size(o: SceneObject) -> float | None:
    """√(product of the two largest AABB extents) (m); 2 × radius without a box; ``None``
    without any extent."""
    b = o.bounds
    if b is None:
        return None if o.radius is None else 2.0 * o.radius
    e = sorted(b[1][k] - b[0][k] for k in range(3))
    return math.sqrt(max(e[1], 0.0) * max(e[2], 0.0))


def _edge_distance(poly: tuple[tuple[float, float], ...], x: float, z: float) -> float:
    best = math.inf
    for (x1, z1), (x2, z2) in zip(poly, poly[1:] + poly[:1], strict=True):
        dx, dz = x2 - x1, z2 - z1
        ll = dx * dx + dz * dz
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - x1) * dx + (z - z1) * dz) / ll))
        best = min(best, math.hypot(x - x1 - t * dx, z - z1 - t * dz))
    return best


def in_room(room: Room, o: SceneObject, tolerance: float = 0.15) -> bool:
    """Whether ``o``'s centre lies in ``room``'s floor polygon or within ``tolerance`` m of it
    (XZ; and within the room's storey: floor − 0.5 m .. floor + height)."""
    x, y, z = o.center
    if not room.floor_y - 0.5 <= y <= room.floor_y + room.height:
        return False
    poly = tuple(room.floor_polygon)
    return point_in_polygon((x, z), poly) or _edge_distance(poly, x, z) <= tolerance


def outside_room(scene: Scene, o: SceneObject, tolerance: float = 0.15) -> bool:
    """Whether an object with a known room lies outside that room (:func:`in_room`)."""
    room = scene.room_index.get(str(o.room_id)) if o.room_id is not None else None
    return room is not None and not in_room(room, o, tolerance)


def usable(scene: Scene, o: SceneObject, min_size: float) -> bool:
    """Whether ``o`` may be referred to: inside its room and at least ``min_size`` visible
    (objects without an extent are kept: their size is unknown)."""
    v = visible_size(o)
    return not outside_room(scene, o) and (v is None or v >= min_size)


def seen_in(scene: Scene, room: Room) -> set[str]:
    """Labels a person sees in ``room``: its objects and any object standing in its outline."""
    out = {o.label for o in scene.objects_in(room.id)}
    out.update(o.label for o in scene.objects if o.room_id != room.id and in_room(room, o, 0.0))
    return out


def misplaced_labels(scene: Scene) -> set[tuple[str, str]]:
    """(label, room id) pairs a presence condition must not ask about: for each object outside
    its room, its label in its own room and in every room whose outline holds it."""
    out: set[tuple[str, str]] = set()
    for o in scene.objects:
        if o.room_id is None or not outside_room(scene, o):
            continue
        out.add((o.label, str(o.room_id)))
        out.update((o.label, r.id) for r in scene.rooms if in_room(r, o, 0.0))
    return out


__all__ = ["DEFAULT_MIN_SIZE", "EMBODIMENT_CAMERA", "in_room", "misplaced_labels", "outside_room",
           "resolvable_size", "seen_in", "usable", "visible_size"]
