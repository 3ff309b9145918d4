"""The text labels of a bird's-eye view and their priority (placed by :mod:`.bev_place`).

Priority order: room names (on top of the room, white halo), exit signs, the labels that must
be shown — the objects an instruction refers to (bold, dark red) or, without one, the objects standing on
other objects (a tv on its stand, a microwave on the counter: their label would otherwise sit on
the furniture's) — then the other objects by decreasing footprint. Every object label may move
off its object with a leader line. Positions are world X / Z metres (the axes convention of
:mod:`navbench.report.bev`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import point_in_polygon
from navbench.scene.model import Scene, SceneObject
from navbench.tasks.conditional.program import Go, ObjectRef, Presence, Program, Seq

ROOM_FONT = 7.5  #: room names (pt)
OBJECT_FONT = 6.0  #: furniture and other top-level objects (pt)
SMALL_FONT = 5.0  #: objects standing on other objects (pt)
REFERENCED_FONT = 6.5  #: objects an instruction refers to (pt, bold)
REFERENCED_COLOR = "#b00020"  #: their colour
#: Distance of a room name below the room's north edge (m).
ROOM_LABEL_INSET = 0.25


@dataclass(frozen=True)
class Label:
    """One text to place at world ``(x, z)`` (m), anchored by ``va`` (top: the text hangs south)."""

    x: float
    z: float
    text: str
    size: float
    color: str
    va: Literal["top", "center", "bottom"] = "center"
    halo: bool = False
    zorder: float = 12.0
    #: world box ``(xmin, zmin, xmax, zmax)`` (m) the text must fit in (a room's), if any
    within: tuple[float, float, float, float] | None = None
    #: the object labelled (the drawn text's ``gid``), if any
    object_id: str | None = None
    #: shown even where it overlaps (placed where it overlaps least)
    must: bool = False
    #: may move off its anchor, joined to it by a leader line
    leader: bool = False
    #: floor polygon (XZ, m) of the anchor's room: moved labels stay in it when they can
    room: tuple[tuple[float, float], ...] | None = None
    weight: Literal["normal", "bold"] = "normal"


def _footprint(o: SceneObject) -> float:
    """Floor area of an object's footprint (m²; 0 for a bare point)."""
    if o.size is not None:
        return float(o.size[0] * o.size[2])
    if o.bounds is not None:
        (lo, _, zlo), (hi, _, zhi) = o.bounds
        return float((hi - lo) * (zhi - zlo))
    return float(np.pi * o.radius**2) if o.radius else 0.0


def scene_labels(scene: Scene, *, exit_color: str, object_color: str,
                 referenced: Collection[str] | None = None) -> list[Label]:
    """Every label of ``scene`` in placement priority order: rooms (name and id, centred on the
    room's north edge, or at the centroid when that point lies outside an odd-shaped room;
    dropped when wider or taller than the room's bounding box on the page), exit
    portals (1.1 m outside the opening), the objects in ``referenced`` (ids; bold, always shown)
    or, when ``referenced`` is None, the objects standing on other objects (always shown), then
    the other objects with a room (all objects indoors) by decreasing footprint, those on other
    objects last."""
    out: list[Label] = []
    for r in scene.rooms:
        poly = np.asarray(r.floor_polygon, dtype=float)
        cx, cz = r.centroid
        top = (cx, float(poly[:, 1].min()) + ROOM_LABEL_INSET)
        inside = point_in_polygon(top, r.floor_polygon)
        x, z = top if inside else (cx, cz)
        (x0, z0), (x1, z1) = poly.min(axis=0), poly.max(axis=0)
        out.append(Label(x, z, f"{r.label}\n{r.id}", ROOM_FONT, "#444444",
                         "top" if inside else "center", halo=True, zorder=13,
                         within=(float(x0), float(z0), float(x1), float(z1))))
    for p in scene.portals:
        if p.kind == "exit":
            d = np.array([-np.sin(p.yaw), -np.cos(p.yaw)])  # passage direction (as drawn)
            tx, tz = np.array([p.center[0], p.center[2]]) + 1.1 * d
            out.append(Label(float(tx), float(tz), "exit", 7.0, exit_color, halo=True, zorder=13,
                             leader=True))
    rooms = scene.room_index
    named = [o for o in scene.objects if o.room_id is not None or scene.kind == "indoor"]

    def label(o: SceneObject, must: bool) -> Label:
        room = rooms.get(o.room_id) if o.room_id is not None else None
        poly = None if room is None else tuple((float(x), float(z)) for x, z in room.floor_polygon)
        if referenced is not None and must:
            return Label(o.center[0], o.center[2], o.label, REFERENCED_FONT, REFERENCED_COLOR, halo=True,
                         object_id=o.id, must=True, leader=True, room=poly, weight="bold")
        if o.parent_id is None:
            return Label(o.center[0], o.center[2], o.label, OBJECT_FONT, "#2b1d0e", halo=True,
                         object_id=o.id, must=must, leader=True, room=poly)
        return Label(o.center[0], o.center[2], o.label, SMALL_FONT, object_color, "bottom",
                     halo=True, object_id=o.id, must=must, leader=True, room=poly)

    first = [o for o in named if (o.id in referenced if referenced is not None else o.parent_id is not None)]
    ids = {o.id for o in first}
    out += [label(o, True) for o in first]
    rest = [o for o in named if o.id not in ids]
    floor = sorted((o for o in rest if o.parent_id is None), key=lambda o: -_footprint(o))
    out += [label(o, False) for o in floor]
    out += [label(o, False) for o in rest if o.parent_id is not None]
    return out


def _rooms(scene: Scene, label: str, hint: str | None) -> set[str]:
    """Ids of the rooms a reference's room phrase names: every room of that label, narrowed by
    the hint ("with the desk": holding a desk; "off the hallway": a door to a hallway) when
    that leaves any."""
    rooms = [r for r in scene.rooms if r.label == label]
    if hint is not None:
        kind, _, word = hint.partition(" the ")
        if kind == "with":
            keep = [r for r in rooms if any(o.label == word for o in scene.objects_in(r.id))]
        else:
            idx = scene.room_index
            keep = [r for r in rooms if any(
                r.id in p.regions and any(idx[q].label == word for q in p.regions if q in idx and q != r.id)
                for p in scene.portals)]
        rooms = keep or rooms
    return {r.id for r in rooms}


def referenced_objects(scene: Scene, program: Program) -> set[str]:
    """Ids of the objects ``program`` refers to: its targets, their qualifiers' anchors, the
    objects of its relation conditions and the objects its presence conditions name (when the
    room has them). A reference carrying a scene id (a generated instruction) gives that id; one
    read from text (:func:`~navbench.tasks.conditional.parse`) gives every object of its label
    in the rooms its room phrase names (so a qualified "the stool north of the sink" marks
    every stool there).

    Raises:
        ConfigError: a target, anchor or relation object matches no object of the scene.
    """
    out: set[str] = set()

    def match(label: str, room: str, hint: str | None, room_id: str | None) -> set[str]:
        rooms = {room_id} if room_id is not None else _rooms(scene, room, hint)
        return {o.id for o in scene.objects if o.label == label and o.room_id in rooms}

    def ref(r: ObjectRef) -> None:
        ids = {r.object_id} if r.object_id is not None else match(r.label, r.room, r.room_hint, r.room_id)
        q = r.qualifier
        if q is not None:
            ids |= {q.anchor_id} if q.anchor_id is not None else match(q.anchor, r.room, r.room_hint, r.room_id)
        if not ids:
            raise ConfigError(f"instruction refers to the {r.label} in the {r.room}: scene "
                              f"{scene.id} has no such object")
        out.update(ids)

    def walk(p: Program) -> None:
        if isinstance(p, Go):
            ref(p.target)
        elif isinstance(p, Seq):
            for s in p.steps:
                walk(s)
        else:
            c = p.cond
            if isinstance(c, Presence):
                out.update(match(c.label, c.room, c.room_hint, c.room_id))
            else:
                ref(c.subject)
                ref(c.reference)
            walk(p.then)
            walk(p.else_)

    walk(program)
    return out
