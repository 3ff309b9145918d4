"""Fittings derived from a house's walls and portals: windows (a lit view out, casing, glazing
bars, sill; outside a frame and dark glass), interior door casings with an open door leaf, and
skirting boards. Everything is visual only (the navmesh and physics never see it) and lies
within a few centimetres of the wall faces, so a robot that keeps its clearance from walls
never drives through it.

Frames: world (Habitat: metres, Y up). A :class:`WallFace` is one vertical face of a wall box
seen from the room it faces; its local frame has ``x`` along the face (unit ``t``), ``y`` up
from the room's floor and ``z`` out of the face into the room (unit ``n``), with
``t × up = n`` so that local parts keep their winding (:meth:`WallFace.to_world`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from navbench.rng import derive
from navbench.scene.model import Box, Portal, Room, Scene
from navbench.visual import architecture as arch
from navbench.visual import finishes as fin
from navbench.visual.compose import decal, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part

#: Casing width, casing / glazing-bar projection from the wall face, sill projection (m).
CASING = 0.07
PROUD = 0.02
SILL = 0.05
SKIRTING_H = 0.08
_NO_BOX = Box("", "", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
#: Metres of the outside view one window-view picture spans (horizon at 1.5 m above the floor).
VIEW_SPAN_M = 3.0
VIEW_HORIZON_M = 1.5


@dataclass(frozen=True)
class Fitting:
    """A visual-only fitting: its segmentation entity (``ref``, ``label``), world-frame parts and
    whether it is lit by daylight (window views, the outside of the house) or by the room."""

    ref: str
    label: str
    parts: tuple[Part, ...]
    daylight: bool = False


@dataclass(frozen=True)
class WallFace:
    """A vertical wall-box face: ``room`` in front (``None``: outside), ``origin`` (its bottom
    end at local x = 0, on the floor), unit ``t`` along it and ``n`` out of it, ``length`` and
    ``height`` (m), and whether the wall's other side is outside every room."""

    room: Room | None
    origin: np.ndarray
    t: np.ndarray
    n: np.ndarray
    length: float
    height: float
    exterior: bool
    box: Box

    def to_world(self, p: Part) -> Part:
        """A part built in this face's local frame, in world coordinates."""
        m = np.stack([self.t, np.array([0.0, 1.0, 0.0]), self.n], axis=1)
        return Part(p.vertices @ m.T + self.origin, p.faces, p.uv, p.material)

    def local_xz(self, x: float, z: float) -> tuple[float, float]:
        """World (x, z) of local (x, z)."""
        w = self.origin + x * self.t + z * self.n
        return float(w[0]), float(w[2])


def wall_faces(scene: Scene, locate: arch.RoomLocator) -> list[WallFace]:
    """Every full-height vertical face of the scene's wall boxes (lintels and low walls
    excluded), with the room in front of it and whether its back is outside."""
    out = []
    for b in scene.boxes:
        if b.kind != "wall":
            continue
        thick = min(b.size[0], b.size[2])
        for part, n, c in arch.box_faces(b):
            if abs(n[1]) > 0.5:
                continue
            n = np.array([n[0], 0.0, n[2]]) / max(math.hypot(n[0], n[2]), 1e-12)
            y0, y1 = float(part.vertices[:, 1].min()), float(part.vertices[:, 1].max())
            front = c + 0.08 * n
            room = locate.room_at(float(front[0]), float(y0 + 0.5), float(front[2]))
            if room is not None and y0 > room.floor_y + 0.3:
                continue  # a lintel over a door
            back = c - (thick + 0.08) * n
            behind = locate.room_at(float(back[0]), float(y0 + 0.5), float(back[2]))
            t = np.array([n[2], 0.0, -n[0]])
            s = part.vertices @ t
            base_y = room.floor_y if room is not None else y0
            origin = c + (s.min() - float(c @ t)) * t
            origin[1] = base_y
            out.append(WallFace(room, origin, t, n, float(s.max() - s.min()), y1 - base_y, behind is None, b))
    return out


def _footprints(scene: Scene) -> list[tuple[shapely.Polygon, float]]:
    """(XZ footprint, top y) of every object box."""
    out = []
    for b in scene.boxes:
        if b.kind not in ("furniture", "object"):
            continue
        c, s = math.cos(b.yaw), math.sin(b.yaw)
        hx, hz = b.size[0] / 2, b.size[2] / 2
        pts = [(b.center[0] + c * x + s * z, b.center[2] - s * x + c * z) for x, z in
               ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))]
        out.append((shapely.Polygon(pts), b.center[1] + b.size[1] / 2))
    return out


def _strip(face: WallFace, x0: float, x1: float, depth: float) -> shapely.Polygon:
    """The XZ rectangle in front of ``face`` from local x0 to x1, ``depth`` m deep."""
    return shapely.Polygon([face.local_xz(x0, 0.0), face.local_xz(x1, 0.0), face.local_xz(x1, depth),
                            face.local_xz(x0, depth)])


class Occupancy:
    """Furniture footprints and the wall spans already given to fittings (no overlaps)."""

    def __init__(self, scene: Scene):
        self.items = _footprints(scene)
        self.taken: list[shapely.Polygon] = []

    def free(self, face: WallFace, x0: float, x1: float, depth: float, above: float = -1.0) -> bool:
        """Whether the strip in front of ``face`` is clear of furniture taller than ``above``
        (m over the floor) and of other fittings."""
        strip = _strip(face, x0, x1, depth)
        base = face.room.floor_y if face.room is not None else 0.0
        if any(strip.intersects(p) for p in self.taken):
            return False
        return not any(top - base > above and strip.intersects(p) for p, top in self.items)

    def take(self, face: WallFace, x0: float, x1: float, depth: float) -> None:
        self.taken.append(_strip(face, x0, x1, depth))


# --------------------------------------------------------------------------- windows
def _window_inside(w: float, y0: float, y1: float, frame: str, rng: np.random.Generator) -> list[Part]:
    """Casing, glazing bars and sill of a window ``w`` wide from height y0 to y1, centred on
    local x = 0 (the view pane is separate)."""
    c, p = CASING, PROUD
    out = [slab(-w / 2 - c, w / 2 + c, y1, y1 + c, 0.0, p, frame), slab(-w / 2 - c, -w / 2, y0, y1, 0.0, p, frame),
           slab(w / 2, w / 2 + c, y0, y1, 0.0, p, frame),
           slab(-w / 2 - c - 0.03, w / 2 + c + 0.03, y0 - 0.035, y0, 0.0, SILL, frame),  # sill
           slab(-w / 2 - c, w / 2 + c, y0 - 0.035 - c, y0 - 0.035, 0.0, p * 0.6, frame)]  # apron
    b = 0.035
    out.append(slab(-b / 2, b / 2, y0, y1, 0.0, p * 0.8, frame))  # mullion: two casements
    if rng.random() < 0.6:
        ty = y0 + 0.72 * (y1 - y0)
        out.append(slab(-w / 2, w / 2, ty - b / 2, ty + b / 2, 0.0, p * 0.8, frame))  # transom
    return out


def _view(face: WallFace, cx: float, w: float, y0: float, y1: float, rng: np.random.Generator) -> Part:
    """The lit view pane: the part of the window-view picture this window frames (horizon at
    :data:`VIEW_HORIZON_M`; neighbouring windows see neighbouring views)."""
    u0 = float(rng.uniform(0.0, 1.0 - w / VIEW_SPAN_M))
    v0 = 0.5 + (y0 - VIEW_HORIZON_M) / VIEW_SPAN_M
    v1 = 0.5 + (y1 - VIEW_HORIZON_M) / VIEW_SPAN_M
    return decal(cx - w / 2, cx + w / 2, y0, y1, 0.003, "window_view", uv=(u0, v0, u0 + w / VIEW_SPAN_M, v1))


def windows(scene: Scene, faces: list[WallFace], occ: Occupancy, seed: int) -> list[Fitting]:
    """One window per 3.5 m of every exterior wall face of a room (≥ 1.4 m long), placed where
    no tall furniture stands against it; bedrooms, living and dining rooms and offices get
    curtains, kitchens and bathrooms a roller blind. Outside: casing and dark glass."""
    out: list[Fitting] = []
    for k, f in enumerate(faces):
        if f.room is None or not f.exterior or f.length < 1.4:
            continue
        room = f.room
        rng = derive(seed, "window", room.id, k)
        n = max(1, int(f.length / 3.5))
        wet = room.label in ("bathroom", "kitchen", "laundry room")
        y0 = 1.1 if wet else float(rng.choice([0.85, 0.9, 1.0]))
        y1 = min(room.height - 0.35, 2.2)
        if y1 - y0 < 0.6:
            continue
        width = float(min(1.6, 0.7 * f.length / n - 0.2, rng.uniform(0.9, 1.5)))
        frame = fin.family(rng, "painted") if rng.random() < 0.7 else fin.species(rng)
        for j in range(n):
            cx = (j + 0.5) * f.length / n + float(rng.uniform(-0.15, 0.15)) * f.length / n
            cx = min(max(cx, width / 2 + 0.25), f.length - width / 2 - 0.25)
            span = (cx - width / 2 - 0.3, cx + width / 2 + 0.3)
            if not occ.free(f, *span, 0.5, above=y0 - 0.05):
                continue
            occ.take(f, *span, 0.15)
            ref = f"{room.id}/window{k}_{j}"
            inside = [p for p in _window_inside(width, y0, y1, frame, rng)]
            view = _view(f, cx, width, y0, y1, rng)
            out.append(Fitting(ref, "window", tuple(f.to_world(_shift(p, cx)) for p in inside)))
            out.append(Fitting(ref, "window", (f.to_world(view),), daylight=True))
            thick = min(f.box.size[0], f.box.size[2])
            outside = [_shift(p, cx) for p in _window_inside(width, y0, y1, "painted@e8e6e0", rng)]
            outside.append(decal(cx - width / 2, cx + width / 2, y0, y1, 0.003, "glass_dark"))
            flip = WallFace(None, f.origin + f.length * f.t - thick * f.n, -f.t, -f.n, f.length, f.height,
                            True, f.box)
            out.append(Fitting(ref, "window", tuple(flip.to_world(_mirror(p, f.length)) for p in outside),
                               daylight=True))
            if room.label in ("bedroom", "living room", "dining room", "office"):
                out.append(Fitting(f"{room.id}/curtain{k}_{j}", "curtain",
                                   tuple(f.to_world(p) for p in curtains(cx, width, y0, y1, room.height, rng))))
            elif wet and rng.random() < 0.7:
                blind = tinted("linen", (0.95, 0.94, 0.9))
                out.append(Fitting(f"{room.id}/blind{k}_{j}", "blind", (
                    f.to_world(slab(cx - width / 2, cx + width / 2, y1 - 0.3 * (y1 - y0), y1, 0.02, 0.03, blind)),
                    f.to_world(slab(cx - width / 2 - 0.03, cx + width / 2 + 0.03, y1 + 0.01, y1 + 0.07, 0.02, 0.09,
                                    "painted@f2f2f0")))))
    return out


def _shift(p: Part, dx: float) -> Part:
    return Part(p.vertices + np.array([dx, 0.0, 0.0]), p.faces, p.uv, p.material)


def _mirror(p: Part, length: float) -> Part:
    """A part laid out in the inner face's x, re-expressed along the outer face (x → L − x)."""
    v = p.vertices * np.array([-1.0, 1.0, 1.0]) + np.array([length, 0.0, 0.0])
    return Part(v, p.faces[:, ::-1].copy(), p.uv, p.material)


def curtains(cx: float, w: float, y0: float, y1: float, room_h: float, rng: np.random.Generator) -> list[Part]:
    """Two gathered curtain panels either side of a window (folds 10 cm apart, 8 cm off the
    wall) from a rod above it to the floor, or to just below the sill."""
    col = fin.upholstery(rng, leather=False)
    rod_y = min(room_h - 0.12, y1 + 0.15)
    bottom = 0.02 if rng.random() < 0.7 else max(0.02, y0 - 0.15)
    out = [slab(cx - w / 2 - 0.35, cx + w / 2 + 0.35, rod_y - 0.015, rod_y + 0.015, 0.09, 0.12, "black_metal")]
    pw = float(rng.uniform(0.3, 0.45))  # gathered width drawn: more folds for fuller curtains
    for side in (-1, 1):
        x_in = cx + side * (w / 2 - 0.05)
        x_out = cx + side * (w / 2 + 0.3)
        xs = np.linspace(min(x_in, x_out), max(x_in, x_out), 2 * int(4 + 6 * pw) + 1)
        verts, faces, uvs = [], [], []
        for i, x in enumerate(xs):
            z = 0.06 + (0.035 if i % 2 else 0.0)
            for y in (bottom, rod_y - 0.02):
                verts.append((x, y, z))
                uvs.append((x - xs[0], y))
        for i in range(len(xs) - 1):  # folds facing the room (+z)
            a = 2 * i
            faces += [(a, a + 2, a + 3), (a, a + 3, a + 1)]
        out.append(Part(np.array(verts, float), np.array(faces, np.int32), np.array(uvs, float), col))
    return out


# --------------------------------------------------------------------------- doors
def reserve_openings(scene: Scene, occ: Occupancy) -> None:
    """Mark every door / exit / opening (and 0.6 m in front of it on both sides) as taken, so
    that no door leaf, window, curtain or picture covers a passage."""
    for p in scene.portals:
        c, d, t, thick = _portal_frame(p, scene)
        for side in (1.0, -1.0):
            f = WallFace(None, c + d * side * (thick / 2), t * side, d * side, 0.0, p.height, False, _NO_BOX)
            occ.take(f, -p.width / 2 - CASING, p.width / 2 + CASING, 0.6)


def _portal_frame(p: Portal, scene: Scene) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(centre at floor, passage direction d, along-wall t with t × up = d, wall thickness)."""
    d = np.array([-math.sin(p.yaw), 0.0, -math.cos(p.yaw)])
    t = np.array([d[2], 0.0, -d[0]])
    thick = 0.15
    for b in scene.boxes:
        if b.kind == "wall" and b.ref == p.id:
            c, s = math.cos(b.yaw), math.sin(b.yaw)
            ax = np.array([c, 0.0, -s]) * b.size[0] / 2
            az = np.array([s, 0.0, c]) * b.size[2] / 2
            thick = 2 * float(abs(ax @ d) + abs(az @ d))
            break
    return np.asarray(p.center, float), d, t, thick


def doors(scene: Scene, occ: Occupancy, locate: arch.RoomLocator, seed: int) -> list[Fitting]:
    """Casings on both sides of every door and exit opening, jamb linings inside it, and for
    interior doors a panel door standing open flat against the wall (on a side and a hinge
    edge where no furniture or other fitting is; none if there is no such place)."""
    out: list[Fitting] = []
    for p in scene.portals:
        if p.kind not in ("door", "exit") or p.width < 0.5:
            continue
        rng = derive(seed, "door", p.id)
        c, d, t, thick = _portal_frame(p, scene)
        trim = fin.family(rng, "painted") if rng.random() < 0.75 else fin.species(rng)
        w, h = p.width, p.height
        parts: list[Part] = []
        for side in (1.0, -1.0):  # a face frame per side: local x along t·side, z out of the wall
            n = d * side
            ts = np.array([n[2], 0.0, -n[0]])
            org = c + n * (thick / 2) - ts * 0.0
            face = WallFace(None, org, ts, n, 0.0, h, False, _NO_BOX)
            for q in (slab(-w / 2 - CASING, -w / 2, 0.0, h + CASING, 0.0, 0.015, trim),
                      slab(w / 2, w / 2 + CASING, 0.0, h + CASING, 0.0, 0.015, trim),
                      slab(-w / 2 - CASING, w / 2 + CASING, h, h + CASING, 0.0, 0.015, trim)):
                parts.append(face.to_world(q))
        lining = WallFace(None, c - d * (thick / 2), t, d, 0.0, h, False, _NO_BOX)
        for q in (slab(-w / 2, -w / 2 + 0.003, 0.0, h, 0.0, thick, trim), slab(w / 2 - 0.003, w / 2, 0.0, h, 0.0, thick, trim),
                  slab(-w / 2, w / 2, h - 0.003, h, 0.0, thick, trim)):
            parts.append(lining.to_world(q))
        out.append(Fitting(f"{p.id}/frame", "doorframe", tuple(parts)))
        if p.kind == "door":
            leaf = _open_leaf(p, c, d, thick, occ, locate, rng)
            if leaf is not None:
                out.append(Fitting(f"{p.id}/leaf", "door", tuple(leaf)))
    return out


def _open_leaf(p: Portal, c: np.ndarray, d: np.ndarray, thick: float, occ: Occupancy, locate: arch.RoomLocator,
               rng: np.random.Generator) -> list[Part] | None:
    """A door leaf swung open flat against the wall beside the opening, hinged at a jamb, on
    the first (seeded order) side and hinge edge whose wall strip is inside one room and free
    of furniture and other fittings; raised panels, a lever handle on both faces, hinges."""
    w, h = p.width - 0.01, p.height - 0.01
    mat = fin.family(rng, "painted") if rng.random() < 0.6 else fin.species(rng)
    metal = fin.hardware(rng)
    z0, z1 = 0.025, 0.065
    for k in rng.permutation(4):
        side, edge = (1.0, -1.0)[int(k) // 2], (1.0, -1.0)[int(k) % 2]
        n = d * side
        t = np.array([n[2], 0.0, -n[0]])
        face = WallFace(None, c + n * (thick / 2), t, n, 0.0, h, False, _NO_BOX)
        gap = CASING + 0.005  # hinged just past the casing
        x0, x1 = (p.width / 2 + gap, p.width / 2 + gap + w) if edge > 0 else (-p.width / 2 - gap - w, -p.width / 2 - gap)
        probe = face.local_xz((x0 + x1) / 2, 0.3)
        room = locate.room_at(probe[0], float(c[1]) + 0.5, probe[1])
        strip = _strip(face, x0, x1, 0.1)
        if room is None or not shapely.Polygon(room.floor_polygon).contains(strip) or not occ.free(face, x0, x1, 0.12):
            continue
        occ.take(face, x0, x1, 0.12)
        parts = [slab(0.0, w, 0.005, h, z0, z1, mat)]
        if mat.startswith("painted") or rng.random() < 0.5:
            for y_lo, y_hi in ((0.12, 0.9), (1.05, h - 0.12)):  # two raised panels on each face
                for z, dz in ((z1, 0.006), (z0 - 0.006, 0.006)):
                    parts += [slab(0.1, w - 0.1, y_lo, y_lo + 0.05, z, z + dz, mat),
                              slab(0.1, w - 0.1, y_hi - 0.05, y_hi, z, z + dz, mat),
                              slab(0.1, 0.15, y_lo, y_hi, z, z + dz, mat), slab(w - 0.15, w - 0.1, y_lo, y_hi, z, z + dz, mat)]
        hx = w - 0.07  # lever handles at the free end, on both faces
        parts += [slab(hx - 0.02, hx + 0.02, 0.97, 1.07, z1, z1 + 0.008, metal),
                  slab(hx - 0.13, hx + 0.01, 1.0, 1.03, z1 + 0.04, z1 + 0.06, metal),
                  slab(hx - 0.02, hx + 0.02, 0.97, 1.07, z0 - 0.008, z0, metal)]
        for hy in (0.25, h - 0.3):
            parts.append(slab(-0.01, 0.01, hy, hy + 0.1, z0, z1, metal))  # hinges
        if edge < 0:  # hinge at the jamb on the other end: mirror the leaf
            parts = [Part(q.vertices * np.array([-1.0, 1.0, 1.0]) + np.array([x1, 0.0, 0.0]), q.faces[:, ::-1].copy(),
                          q.uv, q.material) for q in parts]
        else:
            parts = [_shift(q, x0) for q in parts]
        return [face.to_world(q) for q in parts]
    return None


# --------------------------------------------------------------------------- skirting
def skirting(scene: Scene, faces: list[WallFace], seed: int) -> list[Fitting]:
    """A skirting board along the foot of every room-facing wall face (8 cm, 1.5 cm proud),
    one entity per room, painted or matching wood."""
    by_room: dict[str, list[Part]] = {}
    mats: dict[str, str] = {}
    for f in faces:
        if f.room is None or f.length < 0.1:
            continue
        rid = f.room.id
        if rid not in mats:
            rng = derive(seed, "skirting", rid)
            mats[rid] = tinted("painted", (0.96, 0.96, 0.95)) if rng.random() < 0.75 else fin.species(rng)
        by_room.setdefault(rid, []).append(
            f.to_world(slab(0.0, f.length, 0.0, SKIRTING_H, 0.0, 0.015, mats[rid])))
    return [Fitting(f"{rid}/skirting", "skirting", tuple(parts)) for rid, parts in sorted(by_room.items())]
