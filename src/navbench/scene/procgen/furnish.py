"""Furniture and small-object placement in one rectangular room (XZ plane, metres).

Rules that keep rooms walkable for an agent of radius ≤ 0.2 m:

- wall pieces stand with their back 2 cm from the wall face and face the room; pieces on the
  *same* wall may pack 2 cm apart (a kitchen run); any other pair of floor items, and
  free-standing groups and the walls, stay at least ``gap`` (default 0.5 m) apart;
- nothing enters a door clearance zone;
- small objects stand on a supporting piece (bottom = parent's top) inside its top face.

Every floor item is checked against the others by its yawed axis-aligned bounds, which is
exact for the wall-aligned yaws used here and conservative for round items with random yaw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from navbench.geometry import rotate_xz, yaw_of_direction
from navbench.scene.procgen.catalog import (
    CATALOG,
    CHILDREN,
    DEFAULT_CHILDREN,
    FIRST_CHILD,
    REPEATABLE,
    ROOM_PLANS,
    UNIQUE_CHILDREN,
)
from navbench.scene.procgen.layout import Rect

Size = tuple[float, float, float]
_WALL_GAP = 0.02
_NEAR_WALL = 0.25


@dataclass(frozen=True)
class Placed:
    """A placed object: centre ``(x, z)``, size ``(w, h, d)``, bottom height ``y0``."""

    label: str
    x: float
    z: float
    size: Size
    yaw: float
    y0: float = 0.0
    side: str | None = None
    parent: int | None = None

    @property
    def aabb(self) -> Rect:
        """XZ axis-aligned bounds ``(x0, z0, x1, z1)`` of the yawed footprint."""
        c, s = abs(math.cos(self.yaw)), abs(math.sin(self.yaw))
        w, _, d = self.size
        ex, ez = (c * w + s * d) / 2, (s * w + c * d) / 2
        return (self.x - ex, self.z - ez, self.x + ex, self.z + ez)


# (label, size, local x, local z, yaw relative to the anchor, touches the wall)
Spec = tuple[str, Size, float, float, float, bool]


def _uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return lo + float(rng.random()) * max(0.0, hi - lo)


def _sep(a: Rect, b: Rect) -> float:
    """Chebyshev separation of two rectangles (negative when they overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


class RoomFurnisher:
    """Places a room's plan inside ``inner`` (the free floor rectangle inside the walls).

    Args:
        label: room type (a key of :data:`ROOM_PLANS`).
        inner: free floor rectangle ``(x0, z0, x1, z1)`` (room minus half wall thickness).
        zones: door clearance rectangles that must stay empty.
        rng: random stream of this room.
        gap: clearance kept between unrelated floor items and around free-standing groups (m).
        repeat_rate: chance of one extra copy of a plan item / small object (repeated labels).
    """

    def __init__(self, label: str, inner: Rect, zones: list[Rect], rng: np.random.Generator,
                 gap: float = 0.5, repeat_rate: float = 0.15, tries: int = 32) -> None:
        self.label, self.inner, self.zones, self.rng = label, inner, zones, rng
        self.gap, self.repeat_rate, self.tries = gap, repeat_rate, tries
        self.items: list[Placed] = []
        x0, z0, x1, z1 = inner
        # wall frames: origin on the wall face, unit along-wall and inward vectors, length
        self.walls = {
            "n": ((x0, z0), (1.0, 0.0), (0.0, 1.0), x1 - x0),
            "s": ((x1, z1), (-1.0, 0.0), (0.0, -1.0), x1 - x0),
            "w": ((x0, z1), (0.0, -1.0), (1.0, 0.0), z1 - z0),
            "e": ((x1, z0), (0.0, 1.0), (-1.0, 0.0), z1 - z0),
        }

    # ----------------------------------------------------------------- checks
    def _ok(self, cand: list[Placed], margins: Rect | None = None) -> bool:
        """Inside the room, out of door zones, and clear of the other items.

        Items away from walls keep ``margins`` (default ``gap`` on all four sides) to the
        walls; wall items keep ``gap`` to the opposite wall, so no piece cuts a room in two.
        """
        x0, z0, x1, z1 = self.inner
        g = self.gap
        mx0, mz0, mx1, mz1 = margins or (g, g, g, g)
        for p in cand:
            a = p.aabb
            if p.side is None:
                if a[0] < x0 + mx0 or a[1] < z0 + mz0 or a[2] > x1 - mx1 or a[3] > z1 - mz1:
                    return False
            else:
                e = 1e-9
                if a[0] < x0 - e or a[1] < z0 - e or a[2] > x1 + e or a[3] > z1 + e:
                    return False
                if ((p.side == "n" and a[3] > z1 - g) or (p.side == "s" and a[1] < z0 + g)
                        or (p.side == "w" and a[2] > x1 - g) or (p.side == "e" and a[0] < x0 + g)):
                    return False
            for zr in self.zones:
                if _sep(a, zr) < 0.0:
                    return False
            for q in self.items:
                need = _WALL_GAP if (p.side is not None and p.side == q.side) else g
                if _sep(a, q.aabb) < need:
                    return False
        return True

    # ----------------------------------------------------------------- groups
    def place_wall(self, specs: list[Spec], sides: list[str] | None = None) -> bool:
        """Place a group anchored on a wall face: local -Z points into the room."""
        keys = sides or list(self.walls)
        lens = np.array([self.walls[k][3] for k in keys])
        for _ in range(self.tries):
            k = keys[int(self.rng.choice(len(keys), p=lens / lens.sum()))]
            (ox, oz), (ax, az), (nx, nz), length = self.walls[k]
            u = float(self.rng.uniform(0.0, length))
            px, pz = ox + u * ax, oz + u * az
            yaw = yaw_of_direction(nx, nz)
            cand = []
            for label, size, lx, lz, dyaw, wall in specs:
                wx, wz = rotate_xz(np.array([[lx, lz]]), yaw)[0]
                cand.append(Placed(label, px + wx, pz + wz, size, yaw + dyaw,
                                   side=k if wall else None))
            if self._ok(cand):
                self.items += cand
                return True
        return False

    def place_free(self, specs: list[Spec]) -> bool:
        """Place a free-standing group (local frame = its first item), axis-aligned with the room."""
        x0, z0, x1, z1 = self.inner
        base = 0.0 if (x1 - x0) >= (z1 - z0) else math.pi / 2
        m = self.gap
        for k in range(self.tries):  # alternate the long side along / across the room
            yaw = base + (k % 2) * math.pi / 2 + (math.pi if self.rng.random() < 0.5 else 0.0)
            local = []
            for label, size, lx, lz, dyaw, _ in specs:
                wx, wz = rotate_xz(np.array([[lx, lz]]), yaw)[0]
                local.append(Placed(label, float(wx), float(wz), size, yaw + dyaw))
            gx0 = min(p.aabb[0] for p in local)
            gz0 = min(p.aabb[1] for p in local)
            gx1 = max(p.aabb[2] for p in local)
            gz1 = max(p.aabb[3] for p in local)
            # after a few tries, one side may come as close as _NEAR_WALL to its wall: the
            # group then behaves like a wall piece (free space stays connected around it)
            mg = [m, m, m, m]
            if k >= 4:
                mg[int(self.rng.integers(4))] = min(m, _NEAR_WALL)
            lo_x, hi_x = x0 + mg[0] - gx0, x1 - mg[2] - gx1
            lo_z, hi_z = z0 + mg[1] - gz0, z1 - mg[3] - gz1
            if lo_x > hi_x or lo_z > hi_z:
                continue
            cx, cz = _uniform(self.rng, lo_x, hi_x), _uniform(self.rng, lo_z, hi_z)
            cand = [Placed(p.label, cx + p.x, cz + p.z, p.size, p.yaw) for p in local]
            if self._ok(cand, (mg[0], mg[1], mg[2], mg[3])):
                self.items += cand
                return True
        return False

    def _size(self, label: str) -> Size:
        return CATALOG[label].sample_size(self.rng)

    def _wall_single(self, label: str) -> list[Spec]:
        w, _h, d = size = self._size(label)
        if CATALOG[label].round:
            r = 0.5 * math.hypot(w, d)
            return [(label, size, 0.0, -(r + _WALL_GAP), float(self.rng.uniform(-math.pi, math.pi)), True)]
        return [(label, size, 0.0, -(d / 2 + _WALL_GAP), 0.0, True)]

    def place_item(self, label: str, sides: list[str] | None = None) -> bool:
        """Place one plan item (a single piece or a named group)."""
        rng = self.rng
        if label == "bed":
            return self._bed(self._size("bed"), sides) or self._bed((0.9, 0.5, 2.0), sides)
        if label == "sofa":
            sw, _sh, sd = sofa = self._size("sofa")
            specs = [("sofa", sofa, 0.0, -(sd / 2 + _WALL_GAP), 0.0, True)]
            if rng.random() < 0.9:
                ct = self._size("coffee table")
                specs.append(("coffee table", ct, 0.0,
                              -(_WALL_GAP + sd + float(rng.uniform(0.42, 0.5)) + ct[2] / 2), 0.0, False))
            if rng.random() < 0.5:
                st = self._size("side table")
                sgn = 1.0 if rng.random() < 0.5 else -1.0
                specs.append(("side table", st, sgn * (sw / 2 + 0.05 + st[0] / 2),
                              -(st[2] / 2 + _WALL_GAP), 0.0, True))
            return self.place_wall(specs, sides) or self.place_wall(specs[:1], sides)
        if label == "desk":
            _dw, _dh, dd = desk = self._size("desk")
            ch = self._size("office chair")
            specs = [("desk", desk, 0.0, -(dd / 2 + _WALL_GAP), 0.0, True),
                     ("office chair", ch, 0.0, -(_WALL_GAP + dd + 0.1 + ch[2] / 2), math.pi, False)]
            return self.place_wall(specs, sides)
        if label == "dining table":
            return self._dining(self._size("dining table")) or self._dining((1.2, 0.75, 0.8))
        if label == "kitchen island":
            iw, _ih, idp = isl = self._size("kitchen island")
            st = self._size("stool")
            n = max(1, int(iw // 0.55))
            specs = [("kitchen island", isl, 0.0, 0.0, 0.0, False)]
            for k in range(n):
                specs.append(("stool", st, -iw / 2 + iw * (k + 0.5) / n,
                              idp / 2 + 0.05 + st[2] / 2, 0.0, False))
            return self.place_free(specs) or self.place_free(specs[:1])
        if CATALOG[label].mode == "free":
            return self.place_free([(label, self._size(label), 0.0, 0.0, 0.0, False)])
        return self.place_wall(self._wall_single(label), sides)

    def _bed(self, bed: Size, sides: list[str] | None) -> bool:
        """A bed, head against a wall, with a nightstand on each side when they fit."""
        rng = self.rng
        bw, _bh, bd = bed
        specs: list[Spec] = [("bed", bed, 0.0, -(bd / 2 + _WALL_GAP), 0.0, True)]
        ns = self._size("nightstand")
        for sgn in (-1.0, 1.0):
            if rng.random() < 0.85:
                specs.append(("nightstand", ns, sgn * (bw / 2 + 0.05 + ns[0] / 2),
                              -(ns[2] / 2 + _WALL_GAP), 0.0, True))
        return self.place_wall(specs, sides) or self.place_wall(specs[:1], sides)

    def _dining(self, table: Size) -> bool:
        """A dining table with chairs on its long sides (and ends when they fit)."""
        rng = self.rng
        tw, _th, td = table
        ch = self._size("chair")
        per_side = max(1, int(tw // 0.62))
        specs = [("dining table", table, 0.0, 0.0, 0.0, False)]
        for k in range(per_side):
            u = -tw / 2 + tw * (k + 0.5) / per_side
            v = td / 2 + 0.05 + ch[2] / 2
            specs.append(("chair", ch, u, v, 0.0, False))
            specs.append(("chair", ch, u, -v, math.pi, False))
        ends = [("chair", ch, s * (tw / 2 + 0.05 + ch[2] / 2), 0.0, s * math.pi / 2, False)
                for s in (1.0, -1.0)]
        if rng.random() < 0.5 and self.place_free(specs + ends):
            return True
        return self.place_free(specs) or self.place_free(specs[:3])

    # ----------------------------------------------------------------- plan
    def furnish(self) -> list[Placed]:
        """Place the room plan, then small objects on supporting furniture; returns all items."""
        rng = self.rng
        for item in ROOM_PLANS.get(self.label, ()):
            if rng.random() >= item.p:
                continue
            n = int(rng.integers(item.count[0], item.count[1] + 1))
            if item.label in REPEATABLE and rng.random() < self.repeat_rate:
                n += 1
            for _ in range(n):
                sides = None
                if item.label == "tv stand":  # face the sofa or the bed when there is one
                    sides = self._opposite_of(("sofa", "bed"))
                if not self.place_item(item.label, sides) and sides is not None:
                    self.place_item(item.label)
        n_floor = len(self.items)
        for i in range(n_floor):
            self._place_children(i)
        return self.items

    def _opposite_of(self, labels: tuple[str, ...]) -> list[str] | None:
        opp = {"n": "s", "s": "n", "w": "e", "e": "w"}
        for p in self.items:
            if p.label in labels and p.side is not None:
                return [opp[p.side]]
        return None

    def _place_children(self, i: int) -> None:
        parent = self.items[i]
        cat = CATALOG[parent.label]
        if not cat.supports:
            return
        rng = self.rng
        lo, hi = CHILDREN.get(parent.label, DEFAULT_CHILDREN)
        n = int(rng.integers(lo, hi + 1))
        labels: list[str] = []
        if parent.label in FIRST_CHILD:
            labels.append(FIRST_CHILD[parent.label])
        pool = [c for c in cat.supports if c not in labels]
        labels += [str(x) for x in rng.choice(pool, size=min(n, len(pool)), replace=False)]
        if labels and labels[-1] not in UNIQUE_CHILDREN and rng.random() < self.repeat_rate:
            labels.append(labels[-1])
        pw, ph, pd = parent.size
        taken: list[Rect] = []
        for k, label in enumerate(labels):
            size = self._size(label)
            cw, _, cd = size
            if cw > pw - 0.04 or cd > pd - 0.04:
                continue
            for _ in range(12):
                u = _uniform(rng, -pw / 2 + cw / 2 + 0.02, pw / 2 - cw / 2 - 0.02)
                if k == 0 and label in ("tv", "pillow"):  # at the back (local +z = wall side)
                    v = pd / 2 - cd / 2 - 0.05
                else:
                    v = _uniform(rng, -pd / 2 + cd / 2 + 0.02, pd / 2 - cd / 2 - 0.02)
                r = (u - cw / 2, v - cd / 2, u + cw / 2, v + cd / 2)
                if all(_sep(r, t) >= 0.02 for t in taken):
                    taken.append(r)
                    wx, wz = rotate_xz(np.array([[u, v]]), parent.yaw)[0]
                    self.items.append(Placed(label, parent.x + wx, parent.z + wz, size,
                                             parent.yaw, parent.y0 + ph, parent=i))
                    break
