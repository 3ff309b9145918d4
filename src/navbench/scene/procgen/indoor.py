"""Procedural indoor houses: the embedded default scene source of navbench.

``generate_house(seed)`` builds a furnished one-storey house as a :class:`~navbench.scene.Scene`
in the Habitat frame (metres, +Y up, north = -Z): 1–10 rectangular rooms from a recursive
partition of a rectangular, L- or T-shaped footprint; a hallway when there are more than 5
rooms; doors (≥ 0.9 m) connecting every room, bathrooms off a hallway or a bedroom; one
entrance door (``Portal(kind="exit")`` to ``"outdoor"``), closed by a door leaf (a ``"door"``
box: the house stands alone, and a robot that left it would fall off its floor slab into the
void; :func:`navbench.scene.procgen.hybrid.generate_hybrid` cuts it open onto the street);
walls, door lintels and floor slabs as static boxes; furniture and small objects from :mod:`navbench.scene.procgen.catalog`.

The same ``seed``, ``n_rooms`` and :class:`IndoorSettings` give a byte-identical ``scene.json``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from navbench.errors import ConfigError
from navbench.rng import derive
from navbench.scene.model import Box, Portal, Room, Scene, SceneObject
from navbench.scene.procgen.furnish import Placed, RoomFurnisher
from navbench.scene.procgen.layout import Plan, PlanRejectedError, Rect
from navbench.scene.procgen.openings import make_plan

#: Bumped whenever the same seed and settings would produce a different house.
DOOR_LEAF = 0.05  # m, thickness of the closed entrance door
GENERATOR_VERSION = "indoor/2"  # 2: the entrance door is closed

Range = tuple[float, float]


@dataclass(frozen=True)
class IndoorSettings:
    """Parameters of :func:`generate_house` (lengths in metres).

    Attributes:
        rooms: inclusive range the room count is drawn from when ``n_rooms`` is not given.
        room_height: floor-to-ceiling (wall) height range, within [2.5, 3.0].
        wall_thickness: wall thickness range, within [0.1, 0.2]; exterior walls get the
            thicker of two draws.
        hallway_width: hallway width range (houses with more than 5 rooms).
        door_width: interior door width range (≥ 0.9).
        exit_width: entrance door width range (≥ 0.9).
        door_height: clear height of every door opening (m); a lintel fills the rest.
        door_clearance: depth of the empty zone kept on each side of every door.
        furniture_gap: clearance between unrelated floor items and around free-standing groups.
        repeat_rate: chance that a plan item or a small object gets one extra copy (repeated
            labels in a room exercise disambiguation).
        extra_door_rate: chance of each extra door beyond the connecting tree (loops).
        shape_weights: relative weights of rectangular, L and T footprints.
        furnish: place furniture and small objects.
        max_attempts: layout attempts before giving up.
    """

    rooms: tuple[int, int] = (3, 8)
    room_height: Range = (2.5, 3.0)
    wall_thickness: Range = (0.1, 0.2)
    hallway_width: Range = (1.2, 1.6)
    door_width: Range = (0.9, 1.1)
    exit_width: Range = (0.9, 1.2)
    door_height: float = 2.1
    door_clearance: float = 0.8
    furniture_gap: float = 0.5
    repeat_rate: float = 0.15
    extra_door_rate: float = 0.3
    shape_weights: tuple[float, float, float] = (0.3, 0.4, 0.3)
    furnish: bool = True
    max_attempts: int = 200

    def __post_init__(self) -> None:
        def rng_in(name: str, v: tuple[float, float], lo: float, hi: float) -> None:
            if len(v) != 2 or not (lo <= v[0] <= v[1] <= hi):
                raise ConfigError(f"IndoorSettings.{name}: expected lo <= hi within [{lo}, {hi}], got {v!r}")

        rng_in("rooms", self.rooms, 1, 10)
        rng_in("room_height", self.room_height, 2.5, 3.0)
        rng_in("wall_thickness", self.wall_thickness, 0.1, 0.2)
        rng_in("hallway_width", self.hallway_width, 1.2, 3.0)
        rng_in("door_width", self.door_width, 0.9, 2.0)
        rng_in("exit_width", self.exit_width, 0.9, 2.0)
        if not 1.9 <= self.door_height <= 2.4:
            raise ConfigError(f"IndoorSettings.door_height: expected 1.9–2.4 m, got {self.door_height!r}")
        for name in ("repeat_rate", "extra_door_rate"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"IndoorSettings.{name}: expected a probability in [0, 1], got {v!r}")
        if self.door_clearance < 0.6:
            raise ConfigError(f"IndoorSettings.door_clearance: expected >= 0.6 m, got {self.door_clearance!r}")
        if self.furniture_gap < 0.4:
            raise ConfigError(f"IndoorSettings.furniture_gap: expected >= 0.4 m, got {self.furniture_gap!r}")
        if len(self.shape_weights) != 3 or min(self.shape_weights) < 0 or sum(self.shape_weights) <= 0:
            raise ConfigError("IndoorSettings.shape_weights: expected 3 non-negative weights, not all 0")
        if self.max_attempts < 1:
            raise ConfigError("IndoorSettings.max_attempts: expected >= 1")

    def to_dict(self) -> dict[str, object]:
        """JSON-ready parameters (recorded in ``scene.meta``)."""
        return {k: list(v) if isinstance(v, tuple) else v
                for k, v in dataclasses.asdict(self).items()}


def _polygon(r: Rect) -> tuple[tuple[float, float], ...]:
    """Rectangle → XZ polygon, counter-clockwise seen from above (north = -Z)."""
    x0, z0, x1, z1 = r
    return ((x0, z1), (x1, z1), (x1, z0), (x0, z0))


def door_zones(plan: Plan, room_id: str, depth: float) -> list[Rect]:
    """Clearance rectangles on ``room_id``'s side of each of its doors (``depth`` past the wall)."""
    cell = next(c for c in plan.rooms if c.id == room_id)
    out: list[Rect] = []
    for d in plan.doors:
        if room_id not in d.rooms:
            continue
        x0, z0, _x1, _z1 = cell.rect
        reach = plan.t_ext / 2 + depth
        if d.axis == "x":
            inward = 1.0 if abs(d.coord - x0) < 1e-6 else -1.0
            a, b = sorted((d.coord, d.coord + inward * reach))
            out.append((a, d.lo, b, d.hi))
        else:
            inward = 1.0 if abs(d.coord - z0) < 1e-6 else -1.0
            a, b = sorted((d.coord, d.coord + inward * reach))
            out.append((d.lo, a, d.hi, b))
    return out


def generate_house(seed: int, n_rooms: int | None = None, settings: IndoorSettings | None = None,
                   scene_id: str | None = None) -> Scene:
    """A furnished procedural house (Habitat frame, metres).

    Parameters
    ----------
    seed : int
        Non-negative seed; with ``n_rooms`` and ``settings`` it fixes the house (the same
        inputs give a byte-identical ``scene.json`` on any machine).
    n_rooms : int, optional
        Number of rooms (1–10); ``None`` draws it from ``settings.rooms`` with the seed.
    settings : IndoorSettings, optional
        Generator parameters (footprint shapes, hallway, wall, door widths, ...); default
        :class:`IndoorSettings`.
    scene_id : str, optional
        Scene id; default ``house_<seed>_<n_rooms>``.

    Returns
    -------
    Scene
        Rooms with types, furniture and small objects (``SceneObject``), walls and floors as
        static boxes, doors and the entrance as portals.

    Raises
    ------
    navbench.errors.ConfigError
        If ``seed`` is not a non-negative integer or ``n_rooms`` is outside 1–10.

    Examples
    --------
    >>> from navbench.scene import dumps
    >>> from navbench.scene.procgen.indoor import generate_house
    >>> house = generate_house(0, n_rooms=2)
    >>> house.id, house.kind, [room.label for room in house.rooms]
    ('house_0_2', 'indoor', ['kitchen', 'living room'])
    >>> dumps(house) == dumps(generate_house(0, n_rooms=2))  # same seed, same bytes
    True
    >>> generate_house(-1)
    Traceback (most recent call last):
    ...
    navbench.errors.ConfigError: generate_house: seed: expected a non-negative integer, got -1
    """
    s = settings or IndoorSettings()
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"generate_house: seed: expected a non-negative integer, got {seed!r}")
    if n_rooms is None:
        n_rooms = int(derive(seed, "indoor", "n_rooms").integers(s.rooms[0], s.rooms[1] + 1))
    if not isinstance(n_rooms, int) or not 1 <= n_rooms <= 10:
        raise ConfigError(f"generate_house: n_rooms: expected an integer in [1, 10], got {n_rooms!r}")
    plan, attempt = None, 0
    for attempt in range(s.max_attempts):
        try:
            plan = make_plan(
                n_rooms, derive(seed, "indoor", "plan", n_rooms, attempt),
                shape_weights=s.shape_weights, hallway_width=s.hallway_width,
                wall_thickness=s.wall_thickness, door_width=s.door_width,
                exit_width=s.exit_width, extra_door_rate=s.extra_door_rate)
            break
        except PlanRejectedError:
            continue
    if plan is None:
        raise ConfigError(f"generate_house: no valid {n_rooms}-room plan in {s.max_attempts} "
                          "attempts; widen IndoorSettings ranges or raise max_attempts")
    height = round(float(derive(seed, "indoor", "height").uniform(*s.room_height)), 3)
    sid = scene_id or f"house_{seed}_{n_rooms}"

    rooms = tuple(Room(c.id, c.label, _polygon(c.rect), 0.0, height) for c in plan.rooms)
    boxes: list[Box] = []
    for c in plan.rooms:
        x0, z0, x1, z1 = c.rect
        boxes.append(Box(f"floor_{c.id}", "floor", ((x0 + x1) / 2, -0.05, (z0 + z1) / 2),
                         (x1 - x0, 0.1, z1 - z0), 0.0, "floor", c.id))
    for k, w in enumerate(plan.walls):
        m, ln = (w.lo + w.hi) / 2, w.hi - w.lo
        center = (w.coord, height / 2, m) if w.axis == "x" else (m, height / 2, w.coord)
        size = (w.thickness, height, ln) if w.axis == "x" else (ln, height, w.thickness)
        boxes.append(Box(f"wall_{k}", "wall", center, size, 0.0, "wall", None))
    portals: list[Portal] = []
    lintel_h = height - s.door_height
    for d in plan.doors:
        t = plan.t_ext if d.kind == "exit" else plan.t_int
        cx, cz = d.center_xz
        portals.append(Portal(d.id, d.kind, d.rooms, (cx, 0.0, cz), d.width, s.door_height, d.yaw))
        yc = s.door_height + lintel_h / 2
        size = (t, lintel_h, d.width) if d.axis == "x" else (d.width, lintel_h, t)
        boxes.append(Box(f"lintel_{d.id}", "wall", (cx, yc, cz), size, 0.0, "wall", d.id))
        if d.kind == "exit":  # the closed entrance door: a leaf in the middle of the wall
            leaf = (DOOR_LEAF, s.door_height, d.width) if d.axis == "x" else \
                (d.width, s.door_height, DOOR_LEAF)
            boxes.append(Box(f"door_{d.id}", "door", (cx, s.door_height / 2, cz), leaf, 0.0,
                             "door", d.id))

    objects: list[SceneObject] = []
    if s.furnish:
        for c in plan.rooms:
            x0, z0, x1, z1 = c.rect
            m = plan.t_ext / 2 + 0.01
            inner = (x0 + m, z0 + m, x1 - m, z1 - m)
            zones = door_zones(plan, c.id, s.door_clearance)
            items = RoomFurnisher(c.label, inner, zones, derive(seed, "indoor", "furnish", attempt, c.id),
                                  s.furniture_gap, s.repeat_rate).furnish()
            ids = [f"obj_{len(objects) + i}" for i in range(len(items))]
            for i, p in enumerate(items):
                objects.append(_object(p, ids[i], c.id, None if p.parent is None else ids[p.parent]))
        for o in objects:
            assert o.size is not None
            boxes.append(Box(f"geom_{o.id}", "object" if o.parent_id else "furniture", o.center,
                             o.size, o.yaw, o.label, o.id))
    meta = {
        "generator": "navbench.scene.procgen.indoor",
        "version": GENERATOR_VERSION,
        "seed": seed,
        "n_rooms": n_rooms,
        "footprint": plan.shape,
        "attempt": attempt,
        "wall_thickness": {"interior": plan.t_int, "exterior": plan.t_ext},
        "settings": s.to_dict(),
    }
    return Scene(sid, "indoor", "procgen", rooms=rooms, objects=tuple(objects),
                 portals=tuple(portals), boxes=tuple(boxes), meta=meta)


def _object(p: Placed, oid: str, room_id: str, parent_id: str | None) -> SceneObject:
    w, h, d = p.size
    yaw = math.remainder(p.yaw, 2 * math.pi)
    return SceneObject(oid, p.label, (p.x, p.y0 + h / 2, p.z), room_id, size=(w, h, d),
                       yaw=yaw, parent_id=parent_id)
