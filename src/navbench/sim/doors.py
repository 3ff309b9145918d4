"""Door-aware execution: straighten waypoint paths through doors the body only fits aligned.

A long body (Spot: 0.5 × 1.1 m footprint, 1.21 m diagonal) fits a 0.9 m door only while its
long axis stays within ~22° of the door normal. Shortest paths planned for a disc cross doors
diagonally and bend at the jambs, so a follower that faces its lookahead target turns the body
inside the opening. :func:`align_through_doors` rewrites every crossing of a door narrower than
``diagonal + 2 margin`` into two *align* waypoints on the door normal, ``c ∓ L n`` with
``L = half_length + margin`` from the door centre ``c``: the follower stops on each, turns in
place to the next segment's heading and drives straight through (``WaypointFollower.set_path``
``align=``), so the body is aligned before any part of it enters the opening and stays aligned
until all of it has left. Coordinates: world XZ (m); door normals from ``Portal.yaw``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from navbench.scene.model import Scene
from navbench.sim.embodiments import Embodiment

#: Margin (m) between the body and the door: doors narrower than ``diagonal + 2 margin`` are
#: straightened, and the align points lie ``half_length + margin`` from the door centre.
DOOR_MARGIN = 0.2


@dataclass(frozen=True)
class Door:
    """A door: centre ``(x, z)`` in the XZ plane, unit normal ``(nx, nz)``, clear width and
    floor height ``y`` (m)."""

    x: float
    z: float
    nx: float
    nz: float
    width: float
    y: float = 0.0


def scene_doors(scene: Scene, max_width: float) -> list[Door]:
    """Doors, openings and exits of ``scene`` narrower than ``max_width`` (m)."""
    out = []
    for p in scene.portals:
        if p.width < max_width:
            out.append(Door(float(p.center[0]), float(p.center[2]), -math.sin(p.yaw),
                            -math.cos(p.yaw), float(p.width), float(p.center[1])))
    return out


def _crossing(ax: float, az: float, bx: float, bz: float, d: Door) -> float | None:
    """Parameter t ∈ [0, 1] where segment a→b crosses the door's opening (its centre line
    within half the width of the centre), else ``None``."""
    sa = (ax - d.x) * d.nx + (az - d.z) * d.nz  # signed distances from the door plane
    sb = (bx - d.x) * d.nx + (bz - d.z) * d.nz
    if (sa > 0.0) == (sb > 0.0) or sa == sb:
        return None
    t = sa / (sa - sb)
    px, pz = ax + t * (bx - ax), az + t * (bz - az)
    lateral = abs(-(px - d.x) * d.nz + (pz - d.z) * d.nx)
    return t if lateral <= 0.5 * d.width else None


#: ``free(x, z, yaw, y)``: the body standing on floor height y at that pose touches nothing.
PoseCheck = Callable[[float, float, float, float], bool]

#: Slack (m) added to each side of the footprint in :meth:`FootprintCheck.pose_free` (the
#: follower's tracking error on align waypoints).
FOOTPRINT_SLACK = 0.03


class FootprintCheck:
    """Footprint-versus-obstacle tests on the obstacles' world bounding boxes.

    ``lo``, ``hi``: (N, 2) XZ corners of the obstacle boxes; ``lo_y``, ``hi_y``: (N,) their
    vertical extent (m). Only obstacles reaching into the body's height band (floor + 0.03 m to
    the hull top) count: not lintels, upper floors or rugs.
    """

    def __init__(self, emb: Embodiment, lo: np.ndarray, hi: np.ndarray, lo_y: np.ndarray,
                 hi_y: np.ndarray) -> None:
        self.half_width, self.half_length = emb.half_extents
        self.radius = 0.5 * emb.diagonal
        self._top = emb.hull_bottom + emb.hull_size[1]
        self._c, self._h = 0.5 * (lo + hi), 0.5 * (hi - lo)
        self._lo_y, self._hi_y = lo_y, hi_y
        self._band_cache: tuple[float, np.ndarray] = (math.nan, np.zeros(0, bool))
        self._boxes_cache: tuple[float, list[tuple[float, float, float, float]]] = (math.nan, [])

    def near(self, points: Sequence[Sequence[float]], pad: float = 0.0) -> FootprintCheck:
        """The same check restricted to the obstacles whose boxes come within the footprint's
        circumscribed radius + 0.1 m + ``pad`` of the XZ bounding box of ``points`` (for
        poses within ``pad`` of a path's points)."""
        p = np.asarray([(float(q[0]), float(q[1])) for q in points], float).reshape(-1, 2)
        r = self.radius + 0.1 + pad
        lo, hi = p.min(axis=0) - r, p.max(axis=0) + r
        keep = ((self._c + self._h >= lo) & (self._c - self._h <= hi)).all(axis=1)
        out = object.__new__(FootprintCheck)
        out.half_width, out.half_length, out.radius, out._top = (
            self.half_width, self.half_length, self.radius, self._top)
        out._c, out._h = self._c[keep], self._h[keep]
        out._lo_y, out._hi_y = self._lo_y[keep], self._hi_y[keep]
        out._band_cache = (math.nan, np.zeros(0, bool))
        out._boxes_cache = (math.nan, [])
        return out

    def _band(self, y: float) -> np.ndarray:
        """Obstacles in the height band of a body standing on floor height ``y``."""
        if self._band_cache[0] != y:
            self._band_cache = (y, (self._lo_y < y + self._top) & (self._hi_y > y + 0.03))
        return self._band_cache[1]

    def _band_boxes(self, y: float) -> list[tuple[float, float, float, float]]:
        """(centre x, z, half size x, z) of the obstacles in the band of floor height ``y``."""
        if self._boxes_cache[0] != y:
            band = self._band(y)
            c, h = self._c[band], self._h[band]
            self._boxes_cache = (y, list(zip(c[:, 0].tolist(), c[:, 1].tolist(),
                                             h[:, 0].tolist(), h[:, 1].tolist(), strict=True)))
        return self._boxes_cache[1]

    def disc_free(self, x: float, z: float, y: float = 0.0) -> bool:
        """No obstacle within the footprint's circumscribed radius + 0.05 m of (x, z): every
        heading is free there."""
        r = self.radius + 0.05
        rr = r * r
        for cx, cz, hx, hz in self._band_boxes(y):  # plain Python, as in pose_free
            gx, gz = abs(cx - x) - hx, abs(cz - z) - hz
            gx, gz = (gx if gx > 0.0 else 0.0), (gz if gz > 0.0 else 0.0)
            if gx * gx + gz * gz < rr:
                return False
        return True

    def pose_free(self, x: float, z: float, yaw: float, y: float = 0.0) -> bool:
        """The footprint rectangle (half extents + :data:`FOOTPRINT_SLACK`) at pose (x, z, yaw)
        overlaps no obstacle box (separating-axis test in world XZ; m, rad)."""
        boxes = self._band_boxes(y)
        if not boxes:
            return True
        hw, hl = self.half_width + FOOTPRINT_SLACK, self.half_length + FOOTPRINT_SLACK
        ux, uz = -math.sin(yaw), -math.cos(yaw)  # forward
        vx, vz = -uz, ux  # a perpendicular (sign irrelevant)
        aux, auz, avx, avz = abs(ux), abs(uz), abs(vx), abs(vz)
        ex1, ex2, ez1, ez2 = hl * aux, hw * avx, hl * auz, hw * avz
        # Plain Python over the few boxes near a path, stopping at the first overlap (numpy
        # calls cost more here); the four axis tests of each box are those of the vector form
        # ``|d| < h + hl |u| + hw |v|`` on world x and z, then on the body's axes u and v.
        for cx, cz, hx, hz in boxes:
            dx, dz = cx - x, cz - z
            if abs(dx) < hx + ex1 + ex2 and abs(dz) < hz + ez1 + ez2 and \
                    abs(dx * ux + dz * uz) < hl + hx * aux + hz * auz and \
                    abs(dx * vx + dz * vz) < hw + hx * avx + hz * avz:
                return False
        return True


def _heading(a: Sequence[float], b: Sequence[float]) -> float:
    return math.atan2(-(b[0] - a[0]), -(b[1] - a[1]))


def _turn_ok(free: PoseCheck, p: Sequence[float], y0: float, y1: float, h: float) -> bool:
    """The body turns in place at ``p`` from yaw ``y0`` to ``y1`` (the short way) freely."""
    delta = math.remainder(y1 - y0, 2.0 * math.pi)
    n = int(abs(delta) / math.radians(10.0)) + 1
    return all(free(p[0], p[1], y0 + delta * k / n, h) for k in range(n + 1))


def _drive_ok(free: PoseCheck, a: Sequence[float], b: Sequence[float], h: float) -> bool:
    """The body drives straight from ``a`` to ``b``, facing along it, freely (0.2 m samples)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1e-9:
        return True
    yaw, n = _heading(a, b), int(length / 0.2) + 1
    return all(free(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n, yaw, h)
               for k in range(n + 1))


def _straight_ok(free: PoseCheck | None, a: Sequence[float], pin: Sequence[float],
                 pout: Sequence[float], b: Sequence[float], first: bool, h: float) -> bool:
    """The manoeuvre a → pin (turn) → pout (turn) → b is free (``first``: ``a`` is the start,
    where the body may stand at any heading, so the drive from it is not checked)."""
    if free is None:
        return True
    yn = _heading(pin, pout)
    y_in = _heading(a, pin) if math.hypot(pin[0] - a[0], pin[1] - a[1]) > 1e-9 else yn
    y_out = _heading(pout, b) if math.hypot(b[0] - pout[0], b[1] - pout[1]) > 1e-9 else yn
    return ((first or _drive_ok(free, a, pin, h)) and _turn_ok(free, pin, y_in, yn, h)
            and _drive_ok(free, pin, pout, h) and _turn_ok(free, pout, yn, y_out, h)
            and _drive_ok(free, pout, b, h))


def align_through_doors(start: Sequence[float], waypoints: Sequence[Sequence[float]],
                        doors: Sequence[Door], half_length: float, margin: float = DOOR_MARGIN,
                        free: PoseCheck | None = None,
                        ) -> tuple[list[tuple[float, float, float]], list[bool]]:
    """Waypoints ``(x, z, yaw)`` and align flags with every door crossing straightened.

    ``start`` is the current (x, z); ``free(x, z, yaw, y)`` checks a body pose on the door's
    floor height (``None``: all free). A crossing is straightened at the first of
    ``L = half_length + margin`` and two
    shorter distances (down to ``half_length + 0.05``) whose manoeuvre — drive to the first
    align point, turn in place to the normal, drive through, turn to the next waypoint, drive
    to it — is free; otherwise it is left as it is. The final waypoint is never replaced. A
    start already within L of the door centre goes onto the normal line at its own depth
    instead of back to the far align point (paths re-sent mid-crossing make progress).
    """
    pts = [(float(start[0]), float(start[1]), math.nan)]
    pts += [(float(w[0]), float(w[1]), float(w[2]) if len(w) > 2 else math.nan) for w in waypoints]
    align = [False] * len(pts)
    done: set[int] = set()  # door indices already straightened (each door once per call)
    k = 0
    while k < len(pts) - 1:
        hit = None
        for j, d in enumerate(doors):
            if j in done or (align[k] and align[k + 1]):
                continue
            t = _crossing(pts[k][0], pts[k][1], pts[k + 1][0], pts[k + 1][1], d)
            if t is not None and (hit is None or t < hit[0]):
                hit = (t, j)
        if hit is None:
            k += 1
            continue
        d = doors[hit[1]]
        done.add(hit[1])
        s = 1.0 if (pts[k + 1][0] - pts[k][0]) * d.nx + (pts[k + 1][1] - pts[k][1]) * d.nz > 0 else -1.0
        ux, uz = s * d.nx, s * d.nz  # direction of travel through the door
        yaw = math.atan2(-ux, -uz)
        plan = None
        for lval in (half_length + margin, half_length + 0.5 * (margin + 0.05), half_length + 0.05):
            # keep the path up to the last point outside the door zone before the crossing,
            # and from the first one outside it after the crossing (the last point is kept)
            i_in = k
            while i_in > 0 and math.hypot(pts[i_in][0] - d.x, pts[i_in][1] - d.z) < lval:
                i_in -= 1
            i_out = k + 1
            while i_out < len(pts) - 1 and \
                    math.hypot(pts[i_out][0] - d.x, pts[i_out][1] - d.z) < lval:
                i_out += 1
            new = [(d.x - lval * ux, d.z - lval * uz, yaw), (d.x + lval * ux, d.z + lval * uz, yaw)]
            b = pts[i_out]
            if math.hypot(b[0] - d.x, b[1] - d.z) < lval:  # the goal lies in the zone: go
                depth = max(0.0, (b[0] - d.x) * ux + (b[1] - d.z) * uz)  # straight to its
                new[1] = (d.x + depth * ux, d.z + depth * uz, yaw)  # depth, then to it
            a = pts[i_in]
            if i_in == 0 and math.hypot(a[0] - d.x, a[1] - d.z) < lval:
                # already in the door zone (e.g. a path re-sent mid-crossing): no going back to
                # the far align point; onto the normal line at the current depth instead
                depth = (a[0] - d.x) * ux + (a[1] - d.z) * uz
                new[0] = (d.x + depth * ux, d.z + depth * uz, yaw)
                a = new[0]
            if _straight_ok(free, a, new[0], new[1], b, i_in == 0, d.y):
                plan = (i_in, i_out, new)
                break
        if plan is None:
            k += 1
            continue
        i_in, i_out, new = plan
        flags = [True, True]
        tail = pts[i_out:]
        tail_flags = align[i_out:]
        pts = pts[: i_in + 1] + new + tail
        align = align[: i_in + 1] + flags + tail_flags
        k = i_in + len(new)
    out, flags_out = pts[1:], align[1:]
    if flags_out:
        flags_out[-1] = False
    return out, flags_out


def align_tight_bends(start: Sequence[float], waypoints: Sequence[Sequence[float]],
                      flags: Sequence[bool], free: PoseCheck, y: float,
                      min_bend: float = math.radians(10.0), reach: float = 0.5,
                      open_space: Callable[[float, float, float], bool] | None = None,
                      ) -> list[bool]:
    """Align flags with every *tight* bend made an align waypoint: a bend of at least
    ``min_bend`` at a vertex where some heading of the body touches an obstacle on the path
    within ``reach`` m of the vertex (so cutting the corner while turning, which the follower
    starts within its lookahead, may touch it) but turning in place from the incoming to the
    outgoing heading is free. On floor height ``y``; the final waypoint is never flagged.
    ``open_space(x, z, y)``: an optional quick test that no heading at (x, z) touches (e.g. the
    footprint's circumscribed disc is free); the headings are checked where it says no."""
    out = list(flags)
    pts = [(float(start[0]), float(start[1]))] + [(float(w[0]), float(w[1])) for w in waypoints]
    for i in range(1, len(pts) - 1):
        if out[i - 1]:
            continue
        a, v, b = pts[i - 1], pts[i], pts[i + 1]
        if min(math.hypot(v[0] - a[0], v[1] - a[1]), math.hypot(b[0] - v[0], b[1] - v[1])) < 1e-9:
            continue
        h_in, h_out = _heading(a, v), _heading(v, b)
        if abs(math.remainder(h_out - h_in, 2.0 * math.pi)) < min_bend:
            continue
        # the follower starts turning within its lookahead of the vertex: look there too
        near = _path_samples(v, pts[i + 1:], reach) + _path_samples(v, pts[i - 1::-1], reach)[1:]
        if open_space is not None and all(open_space(x, z, y) for x, z in near):
            continue
        if all(free(x, z, math.radians(15.0 * k), y) for x, z in near for k in range(12)):
            continue
        if _turn_ok(free, v, h_in, h_out, y):
            out[i - 1] = True
    return out


def align_start(start: Sequence[float], yaw: float, waypoints: Sequence[Sequence[float]],
                flags: Sequence[bool], free: PoseCheck, y: float,
                min_bend: float = math.radians(10.0), reach: float = 0.5,
                open_space: Callable[[float, float, float], bool] | None = None,
                ) -> tuple[list[tuple[float, float, float]], list[bool]]:
    """Waypoints and align flags with a turn in place at ``start`` (XZ, m) where the body,
    now at heading ``yaw`` (rad), would otherwise turn towards the first waypoint while
    driving: the heading differs from the first segment's by at least ``min_bend``, some
    heading of the body touches an obstacle somewhere on the first ``reach`` m of the path
    (where it drifts while turning; ``open_space`` says no there, and so do the 15°
    headings) and the turn in place from ``yaw`` is free. An align waypoint on the
    start is then put first (the follower turns on it to the first segment's heading before it
    moves: a holonomic base otherwise drifts along the path while turning, and a long body's
    corner sweeps into furniture next to the start). Otherwise the input, unchanged."""
    wps = [(float(w[0]), float(w[1]), float(w[2]) if len(w) > 2 else math.nan) for w in waypoints]
    out = list(flags)
    if not wps or not math.isfinite(yaw):
        return wps, out
    sx, sz = float(start[0]), float(start[1])
    if math.hypot(wps[0][0] - sx, wps[0][1] - sz) < 1e-6:
        return wps, out
    h = _heading((sx, sz), wps[0])
    if abs(math.remainder(h - yaw, 2.0 * math.pi)) < min_bend:
        return wps, out
    near = _path_samples((sx, sz), wps, reach)
    if open_space is not None and all(open_space(x, z, y) for x, z in near):
        return wps, out
    if all(free(x, z, math.radians(15.0 * k), y) for x, z in near for k in range(12)):
        return wps, out
    if not _turn_ok(free, (sx, sz), yaw, h, y):
        return wps, out
    return [(sx, sz, h), *wps], [True, *out]


def _path_samples(start: tuple[float, float], wps: Sequence[Sequence[float]], reach: float,
                  step: float = 0.1) -> list[tuple[float, float]]:
    """Points every ``step`` m along the polyline start → waypoints, up to ``reach`` m (XZ)."""
    out = [start]
    a, left = start, reach
    for w in wps:
        seg = math.hypot(w[0] - a[0], w[1] - a[1])
        n = int(min(seg, left) / step)
        out += [(a[0] + (w[0] - a[0]) * step * k / seg, a[1] + (w[1] - a[1]) * step * k / seg)
                for k in range(1, n + 1)]
        left -= seg
        if left <= 0.0:
            break
        a = (float(w[0]), float(w[1]))
    return out


def align_path(start: Sequence[float], waypoints: Sequence[Sequence[float]],
               doors: Sequence[Door], footprint: FootprintCheck, half_length: float, y: float,
               yaw: float | None = None,
               ) -> tuple[list[tuple[float, float, float]], list[bool]]:
    """The door-aware execution of ``waypoints`` from ``start`` (XZ, m) on floor height ``y``:
    :func:`align_through_doors` (margin :data:`DOOR_MARGIN`), then
    :func:`align_tight_bends`, and, with the body's current heading ``yaw`` (rad; when
    ``start`` is where the body stands), :func:`align_start`, all checking poses against the
    obstacles of ``footprint`` near the path; the waypoints and their align flags, as
    ``WaypointFollower.set_path`` takes them."""
    fp = footprint.near([start, *waypoints], pad=half_length + DOOR_MARGIN)
    wps, flags = align_through_doors(start, waypoints, doors, half_length, DOOR_MARGIN,
                                     fp.pose_free)
    flags = align_tight_bends(start, wps, flags, fp.pose_free, y, open_space=fp.disc_free)
    if yaw is None:
        return wps, flags
    return align_start(start, yaw, wps, flags, fp.pose_free, y, open_space=fp.disc_free)


__all__ = ["DOOR_MARGIN", "FOOTPRINT_SLACK", "Door", "FootprintCheck", "align_path",
           "align_start", "align_through_doors", "align_tight_bends", "scene_doors"]
