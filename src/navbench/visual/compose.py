"""Composite shapes for the indoor object builders (local frame of ``visual.mesh``: metres,
footprint centred on the origin, bottom at ``y = 0``, front towards ``+Z``)."""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.mesh import Part, box, cylinder, sphere


def slab(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float, material: str) -> Part:
    """Axis-aligned box given by its extents (m)."""
    return box((x1 - x0, y1 - y0, z1 - z0), material,
               center=((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))


def legs(w: float, d: float, height: float, t: float, material: str, *, inset: float = 0.0,
         round_: bool = False, y0: float = 0.0) -> list[Part]:
    """Four legs of thickness ``t`` from ``y0`` to ``y0 + height`` at the corners of ``w × d``."""
    out = []
    for sx in (-1, 1):
        for sz in (-1, 1):
            x = sx * (w / 2 - inset - t / 2)
            z = sz * (d / 2 - inset - t / 2)
            if round_:
                out.append(cylinder(t / 2, height, material, segments=8, center=(x, y0 + height / 2, z)))
            else:
                out.append(box((t, height, t), material, center=(x, y0 + height / 2, z)))
    return out


def lathe(profile: list[tuple[float, float]], material: str, *, segments: int = 16,
          center: tuple[float, float, float] = (0.0, 0.0, 0.0),
          scale_xz: tuple[float, float] = (1.0, 1.0)) -> Part:
    """Surface of revolution of ``(radius, y)`` profile points about the vertical axis.

    The profile runs bottom to top; a first/last radius of 0 closes the bottom/top. Outward
    faces assume the profile's outside is to its right when walking up (as a vase's skin).
    ``scale_xz`` squashes the round footprint into an ellipse.
    """
    c = np.asarray(center, float)
    prof = np.asarray(profile, float)
    n = len(prof)
    verts, uvs, faces = [], [], []
    seg_len = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(prof[:, 0]), np.diff(prof[:, 1])))])
    for k in range(segments + 1):
        a = 2 * math.pi * k / segments
        ca, sa = math.cos(a) * scale_xz[0], math.sin(a) * scale_xz[1]
        for i in range(n):
            r, y = prof[i]
            verts.append(c + np.array((r * ca, y, r * sa)))
            uvs.append((k / segments * 2 * math.pi * max(prof[:, 0].max(), 1e-3), seg_len[i]))
    for k in range(segments):
        for i in range(n - 1):
            a, b = k * n + i, (k + 1) * n + i
            faces += [(a, a + 1, b + 1), (a, b + 1, b)]
    return Part(np.array(verts), np.array(faces, np.int32), np.array(uvs), material)


def open_box(w: float, h: float, d: float, wall: float, material: str, *,
             center_xz: tuple[float, float] = (0.0, 0.0), y0: float = 0.0) -> list[Part]:
    """An open-topped box (tub, basin, basket): a bottom and four walls of thickness ``wall``."""
    cx, cz = center_xz
    x0, x1, z0, z1 = cx - w / 2, cx + w / 2, cz - d / 2, cz + d / 2
    return [
        slab(x0, x1, y0, y0 + wall, z0, z1, material),
        slab(x0, x0 + wall, y0, y0 + h, z0, z1, material),
        slab(x1 - wall, x1, y0, y0 + h, z0, z1, material),
        slab(x0 + wall, x1 - wall, y0, y0 + h, z0, z0 + wall, material),
        slab(x0 + wall, x1 - wall, y0, y0 + h, z1 - wall, z1, material),
    ]


def bar(p0: tuple[float, float, float], p1: tuple[float, float, float], t: float, material: str) -> Part:
    """A square bar of thickness ``t`` from ``p0`` to ``p1`` (any direction)."""
    a, b = np.asarray(p0, float), np.asarray(p1, float)
    v = b - a
    length = float(np.linalg.norm(v))
    part = box((t, max(length, 1e-4), t), material)  # along +Y, then rotate onto v
    u = v / max(length, 1e-9)
    y = np.array([0.0, 1.0, 0.0])
    axis = np.cross(y, u)
    s, c = float(np.linalg.norm(axis)), float(np.dot(y, u))
    if s < 1e-9:
        rot = np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    else:
        k = axis / s
        kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        rot = np.eye(3) + s * kx + (1 - c) * kx @ kx
    return Part(part.vertices @ rot.T + (a + b) / 2, part.faces, part.uv, material)


def blob(radius: float, material: str, center: tuple[float, float, float],
         rng: np.random.Generator, scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Part:
    """A lumpy sphere (foliage, fruit): a UV sphere with seeded radial noise."""
    p = sphere(radius, material, rings=6, segments=10, center=center, scale=scale)
    c = np.asarray(center, float)
    bump = 1.0 + 0.12 * (rng.random(len(p.vertices)) - 0.5)
    v = c + (p.vertices - c) * bump[:, None]
    # keep the seam rows identical (no cracks): the last column repeats the first
    w = 11
    v = v.reshape(-1, w, 3)
    v[:, -1] = v[:, 0]
    v[0, :], v[-1, :] = v[0, 0], v[-1, 0]
    return Part(v.reshape(-1, 3), p.faces, p.uv, material)


def tapered_tub(bottom: tuple[float, float], top: tuple[float, float], height: float, wall: float,
                material: str, *, y0: float = 0.0) -> Part:
    """An open-topped tub (hamper, bin) widening from ``bottom`` (w, d) to ``top`` (w, d):
    outer and inner side walls ``wall`` thick, a rim and a floor; UVs in metres (u along each
    wall, v up its slant), so tiled textures keep their scale."""
    def ring(w: float, d: float, y: float) -> np.ndarray:
        return np.array([(-w / 2, y, d / 2), (w / 2, y, d / 2), (w / 2, y, -d / 2), (-w / 2, y, -d / 2)])

    (w0, d0), (w1, d1) = bottom, top
    ob, ot = ring(w0, d0, y0), ring(w1, d1, y0 + height)
    ib, it = ring(w0 - 2 * wall, d0 - 2 * wall, y0 + wall), ring(w1 - 2 * wall, d1 - 2 * wall, y0 + height)
    verts: list[np.ndarray] = []
    uvs: list[tuple[float, float]] = []
    faces: list[tuple[int, int, int]] = []

    def quad(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> None:
        """Quad a-b-c-d counter-clockwise seen from its front; u along a→b, v along a→d."""
        n = len(verts)
        ab, ad = float(np.linalg.norm(b - a)), float(np.linalg.norm(d - a))
        verts.extend([a, b, c, d])
        uvs.extend([(0.0, 0.0), (ab, 0.0), (ab, ad), (0.0, ad)])
        faces.extend([(n, n + 1, n + 2), (n, n + 2, n + 3)])

    for k in range(4):
        j = (k + 1) % 4
        quad(ob[k], ob[j], ot[j], ot[k])  # outer wall, seen from outside
        quad(ib[j], ib[k], it[k], it[j])  # inner wall, seen from inside
        quad(ot[k], ot[j], it[j], it[k])  # rim
    quad(ob[3], ob[2], ob[1], ob[0])  # floor underside
    quad(ib[0], ib[1], ib[2], ib[3])  # floor inside
    return Part(np.array(verts), np.array(faces, np.int32), np.array(uvs), material)


def decal(x0: float, x1: float, y0: float, y1: float, z: float, material: str, *, t: float = 0.002,
          uv: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> Part:
    """A thin panel whose +Z face at ``z`` shows a picture once (screens, photos, rugs laid on
    their back): ``uv`` = (u0, v0, u1, v1) of the picture spans x0→x1, y0→y1. A closed box
    ``t`` thick behind the face (its other faces map a corner of the picture)."""
    u0, v0, u1, v1 = uv
    v = np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z),
                  (x0, y0, z - t), (x1, y0, z - t), (x1, y1, z - t), (x0, y1, z - t)], float)
    uvs = np.array([(u0, v0), (u1, v0), (u1, v1), (u0, v1), (u0, v0), (u1, v0), (u1, v1), (u0, v1)], float)
    f = [(0, 1, 2), (0, 2, 3), (4, 6, 5), (4, 7, 6), (0, 4, 5), (0, 5, 1), (1, 5, 6), (1, 6, 2),
         (2, 6, 7), (2, 7, 3), (3, 7, 4), (3, 4, 0)]
    return Part(v, np.array(f, np.int32), uvs, material)


def lay_flat(p: Part) -> Part:
    """A part built facing +Z turned to face up (+Y): (x, y, z) → (x, z, −y)."""
    v = p.vertices[:, [0, 2, 1]] * np.array([1.0, 1.0, -1.0])
    return Part(v, p.faces.copy(), p.uv, p.material)
