"""The scene model (SPEC §1): plain frozen dataclasses in the Habitat frame.

Everything downstream (scene graphs, navmesh, tasks, simulator, metrics) reads these records
and nothing else. Units are metres and radians; 2D polygons are XZ ``(x, z)`` vertex tuples,
counter-clockwise seen from above. Use :func:`navbench.scene.load` / :func:`navbench.scene.save`
for ``scene.json`` files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import numpy as np

from navbench.geometry import Vec2, Vec3, yawed_box_aabb
from navbench.jsontypes import JSONObject

SceneKind = Literal["indoor", "outdoor", "hybrid"]
SCENE_KINDS: tuple[str, ...] = ("indoor", "outdoor", "hybrid")

SurfaceClass = Literal[
    "floor", "sidewalk", "road", "crosswalk", "green", "water", "building", "stairs"
]
SURFACE_CLASSES: tuple[str, ...] = (
    "floor", "sidewalk", "road", "crosswalk", "green", "water", "building", "stairs",
)

PortalKind = Literal["door", "opening", "exit"]
PORTAL_KINDS: tuple[str, ...] = ("door", "opening", "exit")

#: Region id used by portals that lead outside the building.
OUTDOOR = "outdoor"

Polygon = tuple[Vec2, ...]


@dataclass(frozen=True)
class Room:
    """A room (region) with a flat floor.

    Attributes:
        id: unique room id in the scene.
        label: lower-case room type, e.g. ``"kitchen"``.
        floor_polygon: XZ outline (CCW seen from above), metres.
        floor_y: floor height (m).
        height: floor-to-ceiling height (m).
        level: storey index (0 = ground).
    """

    id: str
    label: str
    floor_polygon: Polygon
    floor_y: float = 0.0
    height: float = 2.7
    level: int = 0

    @cached_property
    def area(self) -> float:
        """Floor area (m²)."""
        from navbench.geometry import polygon_area

        return abs(polygon_area(self.floor_polygon))

    @cached_property
    def centroid(self) -> Vec2:
        """Area centroid of the floor polygon (x, z)."""
        p = np.asarray(self.floor_polygon, dtype=float)
        x, z = p[:, 0], p[:, 1]
        xn, zn = np.roll(x, -1), np.roll(z, -1)
        cross = x * zn - xn * z
        a = cross.sum() / 2.0
        if abs(a) < 1e-12:
            return (float(x.mean()), float(z.mean()))
        return (float(((x + xn) * cross).sum() / (6 * a)), float(((z + zn) * cross).sum() / (6 * a)))


@dataclass(frozen=True)
class SceneObject:
    """An object instance (CondVLN §3.1.2).

    ``center`` is required. Extent, by precedence: an explicit ``aabb`` wins; else ``size``
    (sx, sy, sz in the object's frame, rotated by ``yaw`` about +Y); else ``radius``.

    Attributes:
        id: unique object id in the scene.
        label: category, lower-case and singular (``"coffee table"``).
        center: centre of the bounding box (x, y, z), metres.
        room_id: containing room, or ``None`` outdoors.
        size: box size in the object frame, or ``None``.
        aabb: explicit world-frame bounds ``(min, max)``, or ``None``.
        radius: bounding-sphere radius fallback, or ``None``.
        yaw: rotation about +Y (radians).
        parent_id: the object this one stands on (lamp on a nightstand), if any.
    """

    id: str
    label: str
    center: Vec3
    room_id: str | None = None
    size: Vec3 | None = None
    aabb: tuple[Vec3, Vec3] | None = None
    radius: float | None = None
    yaw: float = 0.0
    parent_id: str | None = None

    @cached_property
    def bounds(self) -> tuple[Vec3, Vec3] | None:
        """World-frame AABB ``(min, max)``, or ``None`` when only a radius (or nothing) is known."""
        if self.aabb is not None:
            return self.aabb
        if self.size is not None:
            return yawed_box_aabb(self.center, self.size, self.yaw)
        return None

    @cached_property
    def extent_radius(self) -> float | None:
        """Bounding-sphere radius: ``radius`` if given, else half the AABB diagonal."""
        if self.radius is not None:
            return self.radius
        b = self.bounds
        if b is None:
            return None
        return 0.5 * math.dist(b[0], b[1])


@dataclass(frozen=True)
class Place:
    """A point of interest such as a storefront (NavVerse PlaceNav goal).

    Attributes:
        id: unique place id.
        category: place category, e.g. ``"cafe"``.
        name: display name written on the sign.
        entrance: a navigable point in front of the entrance (x, y, z).
        footprint: XZ polygon of the facade / shop front.
        yaw: the direction the facade faces (radians).
        building_id: id of the building the place belongs to, if any.
    """

    id: str
    category: str
    name: str
    entrance: Vec3
    footprint: Polygon = ()
    yaw: float = 0.0
    building_id: str | None = None


@dataclass(frozen=True)
class Surface:
    """A ground surface patch with a terrain class (navigable-surface metric, SPEC §5).

    Attributes:
        id: unique surface id.
        cls: terrain class (one of :data:`SURFACE_CLASSES`).
        polygon: XZ outline (CCW seen from above).
        y: top height of the surface (m).
        friction: sliding friction coefficient.
        preferred: whether robots should stay on this surface (sidewalks, crosswalks, floors).
        holes: XZ polygons cut out of the surface.
    """

    id: str
    cls: SurfaceClass
    polygon: Polygon
    y: float = 0.0
    friction: float = 1.0
    preferred: bool = True
    holes: tuple[Polygon, ...] = ()


@dataclass(frozen=True)
class Portal:
    """A door or opening between two regions; ``regions[1] == "outdoor"`` for exits.

    Attributes:
        id: unique portal id.
        kind: ``"door"``, ``"opening"`` or ``"exit"``.
        regions: the two region (room) ids it joins; :data:`OUTDOOR` for outside.
        center: centre of the opening at floor height (x, y, z).
        width: clear opening width (m).
        height: clear opening height (m).
        yaw: heading (radians) of the passage direction from ``regions[0]`` into ``regions[1]``.
    """

    id: str
    kind: PortalKind
    regions: tuple[str, str]
    center: Vec3
    width: float
    height: float = 2.1
    yaw: float = 0.0


@dataclass(frozen=True)
class Box:
    """A static collision box.

    Attributes:
        id: unique geometry id.
        kind: what it is (``floor``, ``wall``, ``furniture``, ``object``, ``curb``, ``road``,
            ``building``, ``stairs``, ...); free text, used for colouring and friction.
        center: box centre (x, y, z).
        size: full extents (sx, sy, sz) in the box frame.
        yaw: rotation about +Y (radians).
        label: semantic label (the object's category, ``"wall"``, ...).
        ref: the scene object / surface / room id this geometry belongs to, if any.
    """

    id: str
    kind: str
    center: Vec3
    size: Vec3
    yaw: float = 0.0
    label: str = ""
    ref: str | None = None


@dataclass(frozen=True, eq=False)
class Mesh:
    """A static triangle mesh (scan geometry); arrays are not hashed or compared by value.

    Attributes:
        id: unique geometry id.
        kind: as for :class:`Box`.
        vertices: (N, 3) float64 world-frame vertices.
        faces: (M, 3) int64 vertex indices.
        label: semantic label.
        ref: owning scene object / surface id, if any.
        file: the mesh file the arrays were read from (a side file: ``scene.json`` stores
            its path relative to itself + ``sha256`` instead of the arrays; ``None`` = inline).
        sha256: hex digest of ``file``'s bytes (checked at load).
        up: up axis of ``file`` (``"y"`` or ``"z"``, see ``scene.sources.mesh``).
        assets: ``(absolute path, sha256)`` of the files ``file`` references (``.mtl``, texture
            images, glTF buffers), stored relative to ``scene.json`` and checked at load.
    """

    id: str
    kind: str
    vertices: np.ndarray
    faces: np.ndarray
    label: str = ""
    ref: str | None = None
    file: str | None = None
    sha256: str | None = None
    up: str = "y"
    assets: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Scene:
    """A complete scene (SPEC §1). Treat ``meta`` as read-only.

    Attributes:
        id: scene id (also used as ``scene_id`` stem in episode files).
        kind: ``indoor``, ``outdoor`` or ``hybrid``.
        source: where it came from (``procgen``, ``procthor``, ``habitat``, ``mp3d``, ...).
        rooms, objects, places, surfaces, portals: semantic content.
        boxes, meshes: static collision geometry.
        meta: free-form JSON-serialisable metadata (generator parameters, seed, ...).
    """

    id: str
    kind: SceneKind
    source: str
    rooms: tuple[Room, ...] = ()
    objects: tuple[SceneObject, ...] = ()
    places: tuple[Place, ...] = ()
    surfaces: tuple[Surface, ...] = ()
    portals: tuple[Portal, ...] = ()
    boxes: tuple[Box, ...] = ()
    meshes: tuple[Mesh, ...] = ()
    meta: JSONObject = field(default_factory=dict)

    @cached_property
    def room_index(self) -> dict[str, Room]:
        """Rooms by id."""
        return {r.id: r for r in self.rooms}

    @cached_property
    def object_index(self) -> dict[str, SceneObject]:
        """Objects by id."""
        return {o.id: o for o in self.objects}

    def objects_in(self, room_id: str | None) -> tuple[SceneObject, ...]:
        """Objects whose ``room_id`` equals ``room_id`` (in scene order)."""
        return self._by_room.get(room_id, ())

    @cached_property
    def _by_room(self) -> dict[str | None, tuple[SceneObject, ...]]:
        out: dict[str | None, list[SceneObject]] = {}
        for o in self.objects:
            out.setdefault(o.room_id, []).append(o)
        return {k: tuple(v) for k, v in out.items()}

    def room_at(self, x: float, z: float, y: float | None = None) -> Room | None:
        """The room whose floor polygon contains ``(x, z)`` (and whose storey spans ``y``)."""
        from navbench.geometry import point_in_polygon

        for r in self.rooms:
            if y is not None and not (r.floor_y - 0.5 <= y <= r.floor_y + r.height):
                continue
            if point_in_polygon((x, z), r.floor_polygon):
                return r
        return None

    @cached_property
    def bounds_xz(self) -> tuple[Vec2, Vec2]:
        """XZ bounds ``((xmin, zmin), (xmax, zmax))`` of rooms, surfaces and geometry."""
        pts: list[np.ndarray] = []
        for r in self.rooms:
            pts.append(np.asarray(r.floor_polygon, dtype=float))
        for s in self.surfaces:
            pts.append(np.asarray(s.polygon, dtype=float))
        for b in self.boxes:
            lo, hi = yawed_box_aabb(b.center, b.size, b.yaw)
            pts.append(np.array([[lo[0], lo[2]], [hi[0], hi[2]]]))
        for m in self.meshes:
            if len(m.vertices):
                pts.append(np.asarray(m.vertices)[:, [0, 2]])
        if not pts:
            return (0.0, 0.0), (0.0, 0.0)
        a = np.concatenate(pts, axis=0)
        lo, hi = a.min(axis=0), a.max(axis=0)
        return (float(lo[0]), float(lo[1])), (float(hi[0]), float(hi[1]))
