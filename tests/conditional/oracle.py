"""Independent, loop-based re-implementation of SPEC §2 predicates from raw scene objects.

Used by tests to check the vectorised graph code and every generated condition; it shares no
code with ``navbench.graph`` (own AABB, radius, azimuth and threshold logic).
"""

from __future__ import annotations

import math
from typing import Any

from navbench.scene import Scene, SceneObject

AZ = ["east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east"]


def box(o: SceneObject) -> tuple[list[float], list[float]] | None:
    if o.aabb is not None:
        return list(o.aabb[0]), list(o.aabb[1])
    if o.size is None:
        return None
    sx, sy, sz = o.size
    xs, zs = [], []
    for dx in (-sx / 2, sx / 2):
        for dz in (-sz / 2, sz / 2):
            xs.append(o.center[0] + dx * math.cos(o.yaw) + dz * math.sin(o.yaw))
            zs.append(o.center[2] - dx * math.sin(o.yaw) + dz * math.cos(o.yaw))
    cy = o.center[1]
    return [min(xs), cy - sy / 2, min(zs)], [max(xs), cy + sy / 2, max(zs)]


def radius(o: SceneObject) -> float | None:
    if o.radius is not None:
        return o.radius
    b = box(o)
    if b is None:
        return None
    return 0.5 * math.sqrt(sum((b[1][k] - b[0][k]) ** 2 for k in range(3)))


def d_used(a: SceneObject, b: SceneObject) -> tuple[str, float]:
    ba, bb = box(a), box(b)
    if ba is not None and bb is not None:
        s = 0.0
        for k in range(3):
            g = max(ba[0][k] - bb[1][k], bb[0][k] - ba[1][k], 0.0)
            s += g * g
        return "aabb", math.sqrt(s)
    dc = math.dist(a.center, b.center)
    ra, rb = radius(a), radius(b)
    if ra is not None and rb is not None:
        return "sphere", max(0.0, dc - ra - rb)
    return "center", dc


def holds(subj: SceneObject, pred: str, ref: SceneObject) -> bool:
    """"subj is <pred> ref" with default thresholds (near 1, far 3, higher 0.5, above 0.3/0.5)."""
    dx, dy, dz = (subj.center[k] - ref.center[k] for k in range(3))
    h = math.hypot(dx, dz)
    _, d = d_used(subj, ref)
    if pred == "near":
        return d <= 1.0
    if pred == "far from":
        return d >= 3.0
    if pred == "higher than":
        return dy >= 0.5
    if pred == "lower than":
        return dy <= -0.5
    if pred in ("above", "below"):
        bs, br = box(subj), box(ref)
        overlap = (bs is not None and br is not None
                   and min(bs[1][0], br[1][0]) > max(bs[0][0], br[0][0])
                   and min(bs[1][2], br[1][2]) > max(bs[0][2], br[0][2]))
        vert = dy >= 0.3 if pred == "above" else dy <= -0.3
        return vert and (h <= 0.5 or overlap)
    ang = math.degrees(math.atan2(-dz, dx)) % 360.0
    sector = AZ[int(((ang + 22.5) % 360.0) // 45.0)]
    el = math.degrees(math.atan2(dy, h))
    name = f"{sector} of" if -30 <= el <= 30 else f"{sector}-and-{'up' if el > 30 else 'down'} of"
    return pred == name


def room_id_of(scene: Scene, room_label: str, hint: str | None = None) -> str:
    """The one room "the <label> [with the <X> | off the <Y>]" names (asserts it is one)."""
    ids = [r.id for r in scene.rooms if r.label == room_label]
    if hint is not None and hint.startswith("with the "):
        x = hint[len("with the "):]
        ids = [i for i in ids if any(o.room_id == i and o.label == x for o in scene.objects)]
    elif hint is not None:
        assert hint.startswith("off the "), hint
        ys = [r.id for r in scene.rooms if r.label == hint[len("off the "):]]
        assert len(ys) == 1, f"room hint {hint!r}: not a unique room"
        ids = [i for i in ids if any(set(p.regions) == {i, ys[0]} for p in scene.portals)]
    assert len(ids) == 1, f"room {room_label!r} {hint or ''} does not name one room: {ids}"
    return ids[0]


def matches(scene: Scene, label: str, room_label: str, qual: tuple[str, str] | None,
            hint: str | None = None) -> list[str]:
    """Ids of objects in the room matching "the <label> [<pred> the <anchor>]"."""
    rid = room_id_of(scene, room_label, hint)
    objs = [o for o in scene.objects if o.room_id == rid]
    cands = [o for o in objs if o.label == label]
    if qual is None:
        return [o.id for o in cands]
    anchors = [o for o in objs if o.label == qual[1]]
    assert len(anchors) == 1, "qualifier anchor must be unique in its room"
    return [o.id for o in cands if holds(o, qual[0], anchors[0])]


def condition_truths(scene: Scene, program: Any) -> list[bool]:
    """Truth of every condition of ``program`` (tree order), re-evaluated from raw objects."""
    from navbench.tasks.conditional import Presence, conditions

    out = []
    for cond in conditions(program):
        if isinstance(cond, Presence):
            rid = room_id_of(scene, cond.room, cond.room_hint)
            out.append(any(o.label == cond.label and o.room_id == rid for o in scene.objects))
        else:
            subj = matches(scene, cond.subject.label, cond.subject.room, None, cond.subject.room_hint)
            ref = matches(scene, cond.reference.label, cond.reference.room, None,
                          cond.reference.room_hint)
            assert len(subj) == 1 and len(ref) == 1
            out.append(holds(scene.object_index[subj[0]], cond.predicate, scene.object_index[ref[0]]))
    return out
