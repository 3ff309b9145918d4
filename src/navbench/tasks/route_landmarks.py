"""Landmarks, referring expressions and crossings for route instructions (NavVerse App. 8.3).

:class:`RouteContext` is built once per scene. Methods:

- :meth:`~RouteContext.refer`: a unique referring expression of an object or place, or ``None``.
  Objects in a room: ``"the <label>"`` if the label is unique in the room, else ``"the <label>
  <predicate> the <ref label>"`` with a scene-graph relation (:mod:`navbench.graph`; semantic
  predicates first, then compass ones; said in words, "above and to the south of", not as the
  id "south-and-up of") that no other same-label object in the room shares with a same-label
  reference. Objects outdoors (no room): ``"the <label>"`` if no other object
  with that label lies within ``unique_radius``. Places: ``"the <category>"`` if no other
  place of that category lies within ``unique_radius``, else the shop name. Buildings
  (outdoor scenes whose ``meta["building_colours"]`` names facade colours): ``"the red
  building"`` if no other building of that colour lies within ``unique_radius``, else ``"the
  tall red building"`` when it is at least 20 m high and every nearby one of that colour is
  under 12 m.
- Visibility: a landmark is visible from a path point when its footprint is within range
  (``range_indoor`` / ``range_outdoor``) and the horizontal eye-level ray from the point to the
  footprint's nearest point (a place: its entrance) crosses no occluding box footprint — boxes
  whose vertical extent contains eye level (path height + ``eye_height``), except the
  landmark's own boxes and walkable kinds.
- :meth:`~RouteContext.crossing`: what a path stretch goes through: the exit portal, a door,
  a hallway, a crosswalk, a road or a long sidewalk stretch.
- :meth:`~RouteContext.events`: where along a path (arc length, m) it leaves the building
  through the exit and where it crosses a street (each stretch on crosswalk or road at least
  ``min_crossing`` long), so that an instruction states each of them once.
- Landmark choice prefers storefronts (their distance counts ``place_bonus`` metres less).

Frame: Habitat world, metres, XZ ground plane.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely import STRtree

from navbench.geometry import box_corners_xz, heading_vector
from navbench.scene.model import Box, Scene, SceneObject

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry  # shapely ships no annotations: mypy sees Any

    from navbench.graph import SceneGraph

_WALKABLE = {"floor", "ground", "sidewalk", "road", "crosswalk", "green", "stairs", "curb", "ramp",
             "terrain"}
_HALLWAYS = ("hallway", "corridor", "hall")


@dataclass(frozen=True)
class RouteSettings:
    """Route-instruction options (metres, degrees).

    Attributes:
        simplify_tolerance: Douglas–Peucker tolerance of the reference path (XZ).
        min_turn_deg: smaller heading changes are merged into straight moves.
        slight_turn_deg: turns below this are "slightly left/right"; up to ``sharp_turn_deg``
            plain "left/right".
        sharp_turn_deg: turns above this are "sharp left/right".
        around_turn_deg: turns above this (a reversal: left and right are the same turn) are
            "turn around".
        merge_turn_distance: two turns the same way joined by a move shorter than this (m)
            with nothing to state on it (no door, exit, crossing or landmark) are one turn of
            their summed heading change (a rounded 90° corner is "turn left", not two slight
            turns).
        min_segment: shorter segments are merged into their neighbours.
        range_indoor, range_outdoor: landmark distance from the path (footprint, XZ).
        turn_range_indoor, turn_range_outdoor: landmark distance from a turn point ("at the X").
        unique_radius: outdoor labels / place categories must be unique within this radius.
        eye_height: eye level above the path used for line-of-sight tests.
        min_landmark_size: smallest landmark extent (max of width, depth, height).
        max_landmarks: landmarks named per instruction (goal excluded).
        sidewalk_min_length: outdoor moves at least this long mostly on sidewalk say so.
        min_crossing: a path stretch on crosswalk / road at least this long is a street crossing.
        place_bonus: storefronts win over nearer objects and buildings by this distance.
    """

    simplify_tolerance: float = 0.5
    min_turn_deg: float = 20.0
    slight_turn_deg: float = 45.0
    sharp_turn_deg: float = 135.0
    around_turn_deg: float = 170.0
    merge_turn_distance: float = 3.0
    min_segment: float = 1.0
    range_indoor: float = 2.5
    range_outdoor: float = 8.0
    turn_range_indoor: float = 1.5
    turn_range_outdoor: float = 4.0
    unique_radius: float = 20.0
    eye_height: float = 1.2
    min_landmark_size: float = 0.5
    max_landmarks: int = 4
    sidewalk_min_length: float = 10.0
    min_crossing: float = 1.0
    place_bonus: float = 3.0


@dataclass(frozen=True)
class _Mark:
    id: str
    kind: str  # "object" | "place" | "building"
    poly: BaseGeometry  # footprint; a place: its entrance point
    target: tuple[float, float]
    room: str | None
    y: float
    salient: bool


#: Labels and categories that are not the noun a person says ("the fast food" -> "the fast-food
#: restaurant", "the atm" -> "the ATM"); every other label is its own noun.
NOUNS: dict[str, str] = {"fast food": "fast-food restaurant", "atm": "ATM",
                         "ev charger": "EV charger", "tv": "TV", "tv stand": "TV stand"}


def noun(label: str) -> str:
    """The noun phrase of an object label or place category in route text (:data:`NOUNS`)."""
    return NOUNS.get(label, label)


class RouteContext:
    """Per-scene landmark index and crossing tests (see the module docstring)."""

    def __init__(self, scene: Scene, settings: RouteSettings | None = None) -> None:
        self.scene = scene
        self.settings = settings or RouteSettings()
        self._marks: dict[str, _Mark] = {}
        for o in scene.objects:
            bb = o.bounds
            if bb is not None:
                poly = shapely.box(bb[0][0], bb[0][2], bb[1][0], bb[1][2])
                ext = max(bb[1][0] - bb[0][0], bb[1][1] - bb[0][1], bb[1][2] - bb[0][2])
                y = bb[0][1]
            else:
                r = o.extent_radius or 0.0
                poly = shapely.Point(o.center[0], o.center[2]).buffer(max(r, 1e-3), quad_segs=4)
                ext, y = 2 * r, o.center[1] - r
            c = poly.centroid
            self._marks[o.id] = _Mark(o.id, "object", poly, (c.x, c.y), o.room_id, y,
                                      ext >= self.settings.min_landmark_size and o.parent_id is None)
        for p in scene.places:
            pt = shapely.Point(p.entrance[0], p.entrance[2])
            self._marks[p.id] = _Mark(p.id, "place", pt, (p.entrance[0], p.entrance[2]), None, p.entrance[1], True)
        self._buildings: dict[str, tuple[str, float]] = {}  # id -> (colour, height)
        colours = scene.meta.get("building_colours", {}) if isinstance(scene.meta, dict) else {}
        parts: dict[str, list[Box]] = {}
        for b in scene.boxes:
            if b.kind == "building" and b.ref is not None and b.ref in colours:
                parts.setdefault(b.ref, []).append(b)
        for bid, bs in sorted(parts.items()):
            poly = shapely.union_all([shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in bs])
            c = poly.centroid
            self._marks[bid] = _Mark(bid, "building", poly, (c.x, c.y), None,
                                     min(b.center[1] - b.size[1] / 2 for b in bs), True)
            self._buildings[bid] = (str(colours[bid]), max(b.center[1] + b.size[1] / 2 for b in bs))
        self._ids = sorted(self._marks)
        self._tree = STRtree([self._marks[i].poly for i in self._ids])
        occ, self._occ_meta = [], []
        for b in scene.boxes:
            if b.kind in _WALKABLE:
                continue
            occ.append(shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw)))
            self._occ_meta.append((b.center[1] - b.size[1] / 2, b.center[1] + b.size[1] / 2, b.ref))
        self._occ = STRtree(occ)
        self._ground: list[tuple[str, BaseGeometry]] = []
        for s in scene.surfaces:
            if s.cls in ("sidewalk", "road", "crosswalk"):
                self._ground.append((s.cls, shapely.Polygon(s.polygon, s.holes or None)))
        for b in scene.boxes:
            if b.kind in ("sidewalk", "road", "crosswalk"):
                self._ground.append((b.kind, shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw))))
        self._ground_tree = STRtree([g for _, g in self._ground])
        self._portals = []
        for pt in scene.portals:
            h = heading_vector(pt.yaw)
            perp = np.array([h[1], -h[0]]) * pt.width / 2
            c = np.array([pt.center[0], pt.center[2]])
            self._portals.append((pt, shapely.LineString([c - perp, c + perp])))
        self._street: tuple[BaseGeometry, BaseGeometry | None] | None = None
        self._graph: SceneGraph | None = None
        self._refer: dict[str, str | None] = {}

    # ------------------------------------------------------------------ naming
    def kind_of(self, mark_id: str) -> str:
        """``"object"``, ``"place"`` or ``"building"``."""
        return self._marks[mark_id].kind

    def target_xz(self, mark_id: str) -> tuple[float, float]:
        """XZ point of a landmark (object footprint centre, place entrance)."""
        return self._marks[mark_id].target

    def refer(self, mark_id: str) -> str | None:
        """Unique referring expression (``"the sofa"``, ``"the lamp near the bed"``), or ``None``."""
        if mark_id not in self._refer:
            self._refer[mark_id] = self._make_ref(mark_id) if mark_id in self._marks else None
        return self._refer[mark_id]

    def _make_ref(self, mark_id: str) -> str | None:
        sc, s, m = self.scene, self.settings, self._marks[mark_id]
        if m.kind == "building":
            return self._building_ref(mark_id)
        if m.kind == "place":
            place = next(p for p in sc.places if p.id == mark_id)
            near = [q for q in sc.places if q.id != mark_id and q.category == place.category
                    and np.hypot(q.entrance[0] - place.entrance[0], q.entrance[2] - place.entrance[2]) <= s.unique_radius]
            name = place.name.strip()
            if not near:
                return f"the {noun(place.category)}"
            same = any(q.name.strip().lower() == name.lower() for q in sc.places if q.id != mark_id)
            return None if not name or same or any(ch.isdigit() for ch in name) else name
        obj = sc.object_index[mark_id]
        if obj.room_id is None or obj.room_id not in sc.room_index:
            others = [self._marks[o.id] for o in sc.objects if o.id != mark_id and o.label == obj.label]
            if any(o.poly.distance(m.poly) <= s.unique_radius for o in others):
                return None
            return f"the {noun(obj.label)}"
        in_room = sc.objects_in(obj.room_id)
        if sum(o.label == obj.label for o in in_room) == 1:
            return f"the {noun(obj.label)}"
        return self._qualified(obj.id, obj.label, obj.room_id, in_room)

    def _building_ref(self, bid: str) -> str | None:
        colour, height = self._buildings[bid]
        m = self._marks[bid]
        near = [h for o, (c, h) in self._buildings.items() if o != bid and c == colour
                and self._marks[o].poly.distance(m.poly) <= self.settings.unique_radius]
        if not near:
            return f"the {colour} building"
        if height >= 20.0 and max(near) < 12.0:
            return f"the tall {colour} building"
        return None

    def _qualified(self, oid: str, label: str, room_id: str, in_room: Sequence[SceneObject]) -> str | None:
        from navbench.graph import build_scene_graph, predicate_phrase

        if self._graph is None:
            self._graph = build_scene_graph(self.scene)
        g = self._graph.rooms[room_id]
        labels = {o.id: o.label for o in in_room}
        counts = Counter(labels.values())
        same = [o.id for o in in_room if o.label == label and o.id != oid]

        def facts(u: str) -> set[tuple[str, str]]:
            return {(p, labels[v]) for _, v, d in g.out_edges(u, data=True) if d.get("kind") == "relation"
                    for p in d["predicates"] if p != "far from" and v in labels}

        mine = facts(oid)
        theirs = set().union(*(facts(u) for u in same)) if same else set()
        options = sorted(mine - theirs, key=lambda t: (" of" in t[0], counts[t[1]] != 1, t))
        for pred, ref in options:
            if counts[ref] == 1 and ref != label:
                return f"the {noun(label)} {predicate_phrase(pred)} the {noun(ref)}"
        return None

    # ------------------------------------------------------------------ visibility
    def visible(self, mark_id: str, point: np.ndarray) -> bool:
        """Eye-level line of sight from ``point`` (x, y, z) to the landmark (see module docstring)."""
        m = self._marks[mark_id]
        p = shapely.Point(float(point[0]), float(point[2]))
        if m.poly.contains(p):
            return True
        q = shapely.shortest_line(p, m.poly).coords[1] if m.poly.geom_type != "Point" else m.poly.coords[0]
        ray = shapely.LineString([(p.x, p.y), q])
        eye = float(point[1]) + self.settings.eye_height
        for k in self._occ.query(ray, predicate="intersects"):
            lo, hi, ref = self._occ_meta[int(k)]
            if lo <= eye <= hi and ref != mark_id:
                return False
        return True

    def _candidates(self, geom: BaseGeometry, radius: float, used: set[str], y: float, indoor: bool
                    ) -> list[tuple[float, str]]:
        out = []
        for k in self._tree.query(geom, predicate="dwithin", distance=radius):
            mid = self._ids[int(k)]
            m = self._marks[mid]
            if mid in used or not m.salient or abs(m.y - y) > 2.0 or (m.room is not None) != indoor:
                continue
            if self.refer(mid) is None:
                continue
            bonus = self.settings.place_bonus if m.kind == "place" else 0.0
            out.append((float(m.poly.distance(geom)) - bonus, mid))
        return sorted(out)

    def _indoor(self, p: np.ndarray) -> bool:
        return self.scene.room_at(float(p[0]), float(p[2]), float(p[1])) is not None

    def landmark_at(self, point: np.ndarray, used: set[str]) -> tuple[str, str] | None:
        """The nearest visible, nameable landmark within turn range of a turn point (indoor
        points name objects in rooms, outdoor points name outdoor objects and places)."""
        inside = self._indoor(point)
        r = self.settings.turn_range_indoor if inside else self.settings.turn_range_outdoor
        for _, mid in self._candidates(shapely.Point(point[0], point[2]), r, used, float(point[1]), inside):
            if self.visible(mid, point):
                return mid, self.refer(mid)  # type: ignore[return-value]
        return None

    def landmark_along(self, a: np.ndarray, b: np.ndarray, used: set[str]) -> tuple[str, str] | None:
        """A landmark passed on the segment a→b: nearest to it, projecting into its middle
        (20–90 % of the way) and visible from that projection."""
        mid = (a + b) / 2
        inside = self._indoor(mid)
        r = self.settings.range_indoor if inside else self.settings.range_outdoor
        ab = (b - a)[[0, 2]]
        L2 = float(ab @ ab)
        if L2 < 1e-12:
            return None
        seg = shapely.LineString([(a[0], a[2]), (b[0], b[2])])
        for _, mk in self._candidates(seg, r, used, float(mid[1]), inside):
            tx, tz = self._marks[mk].target
            t = float((np.array([tx, tz]) - a[[0, 2]]) @ ab) / L2
            if not 0.2 <= t <= 0.9:
                continue
            if self.visible(mk, a + t * (b - a)):
                return mk, self.refer(mk)  # type: ignore[return-value]
        return None

    # ------------------------------------------------------------------ crossings
    def crossing(self, path: np.ndarray, i: int, j: int) -> tuple[str | None, str | None]:
        """``(via, into)`` of the path stretch ``path[i..j]``: ``exit``/``door`` (with the
        entered room's label) if it crosses a portal, else ``corridor`` (mid-point in a
        hallway), else ``crosswalk``/``road``/``sidewalk`` from the ground under it."""
        pts = np.asarray(path[i: j + 1], float)
        line = shapely.LineString(pts[:, [0, 2]])
        door = None
        for pt, opening in self._portals:
            if not line.intersects(opening):
                continue
            if pt.kind == "exit":
                return "exit", None
            door = door or pt
        if door is not None:
            end = self.scene.room_at(float(pts[-1][0]), float(pts[-1][2]), float(pts[-1][1]))
            return "door", None if end is None else end.label
        mid = line.interpolate(0.5, normalized=True)
        room = self.scene.room_at(mid.x, mid.y, float(pts[len(pts) // 2][1]))
        if room is not None:
            return ("corridor" if any(h in room.label for h in _HALLWAYS) else None), None
        if not self._ground:
            return None, None
        n = max(2, int(line.length) + 1)
        samples = [line.interpolate(t, normalized=True) for t in np.linspace(0, 1, n)]
        classes = []
        for q in samples:
            hits = {self._ground[int(k)][0] for k in self._ground_tree.query(q, predicate="intersects")}
            classes.append("crosswalk" if "crosswalk" in hits else "road" if "road" in hits else
                           "sidewalk" if "sidewalk" in hits else None)
        if "crosswalk" in classes:
            return "crosswalk", None
        if classes.count("road") >= 2:
            return "road", None
        if line.length >= self.settings.sidewalk_min_length and classes.count("sidewalk") >= 0.7 * len(classes):
            return "sidewalk", None
        return None, None

    def _street_union(self) -> tuple[BaseGeometry, BaseGeometry | None]:
        if self._street is None:
            cw = [g for c, g in self._ground if c == "crosswalk"]
            rd = [g for c, g in self._ground if c == "road"]
            self._street = (shapely.union_all(cw + rd), shapely.union_all(cw) if cw else None)
            shapely.prepare(self._street[0])
        return self._street

    def on_street(self, point: np.ndarray) -> bool:
        """True if (x, y, z) stands on a crosswalk or road (routes start on sidewalks)."""
        return bool(self._ground) and bool(self._street_union()[0].covers(shapely.Point(point[0], point[2])))

    def events(self, path: np.ndarray) -> list[tuple[float, float, str]]:
        """Exit and street-crossing events ``(s_lo, s_hi, kind)`` along ``path`` (N, 3), by arc
        length (m, XZ), sorted: ``exit`` where the path crosses the exit portal (a point),
        ``crosswalk`` / ``road`` for each stretch on crosswalk or road of ``min_crossing`` or more
        (``crosswalk`` if any of it is on a crosswalk)."""
        pts = np.asarray(path, float)[:, [0, 2]]
        if len(pts) < 2:
            return []
        line = shapely.LineString(pts)
        out: list[tuple[float, float, str]] = []
        for pt, opening in self._portals:
            if pt.kind == "exit" and line.intersects(opening):
                for q in getattr(line.intersection(opening), "geoms", [line.intersection(opening)]):
                    if q.geom_type == "Point":
                        d = float(line.project(q))
                        out.append((d, d, "exit"))
        if self._ground:
            street, cws = self._street_union()
            inter = line.intersection(street)
            if inter.geom_type == "MultiLineString":
                inter = shapely.line_merge(inter)
            for piece in getattr(inter, "geoms", [inter]):
                if piece.geom_type != "LineString" or piece.length < self.settings.min_crossing:
                    continue
                a, b = (float(line.project(shapely.Point(c))) for c in (piece.coords[0], piece.coords[-1]))
                kind = "crosswalk" if cws is not None and piece.intersection(cws).length > 0.1 else "road"
                out.append((min(a, b), max(a, b), kind))
        return sorted(out)
