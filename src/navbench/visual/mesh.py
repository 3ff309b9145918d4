"""Triangle-mesh parts: the unit the visual layer builds and the renderers consume.

A :class:`Part` is one triangle mesh with per-vertex texture coordinates and one material
key. Builders compose parts from primitives (:func:`box`, :func:`cylinder`, :func:`cone`,
:func:`sphere`) placed with :func:`transform`. Frames: metres, Habitat axes (Y up); an
object's parts are built in its *local* frame with the footprint centred on the origin,
the bottom at ``y = 0`` and the object's front facing local ``+Z``; the caller rotates by
the object's yaw about +Y and translates to the box's bottom centre.

UVs are in texture repeats (1.0 = one tile of the material's texture); box faces get UVs
proportional to their metric size divided by ``uv_scale`` so that textures keep their
physical scale across sizes, with ``u`` along each face's longer side (wood grain runs along
``u``: along a plank, up a tall door, across a wide drawer front).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Part:
    """One triangle mesh with one material.

    Attributes:
        vertices: (N, 3) float64 positions, metres.
        faces: (M, 3) int32 vertex indices, counter-clockwise seen from outside.
        uv: (N, 2) float64 texture coordinates (repeats).
        material: material key (resolved by the caller's material table, e.g. ``"wood"``).
    """

    vertices: np.ndarray
    faces: np.ndarray
    uv: np.ndarray
    material: str

    def __post_init__(self) -> None:
        if self.vertices.ndim != 2 or self.vertices.shape[1] != 3:
            raise ValueError("Part.vertices must be (N, 3)")
        if self.faces.ndim != 2 or self.faces.shape[1] != 3:
            raise ValueError("Part.faces must be (M, 3)")
        if self.uv.shape != (self.vertices.shape[0], 2):
            raise ValueError("Part.uv must be (N, 2), one row per vertex")


def transform(part: Part, *, scale: tuple[float, float, float] = (1.0, 1.0, 1.0),
              yaw: float = 0.0, pitch: float = 0.0, roll: float = 0.0,
              offset: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> Part:
    """Scale, then rotate (roll about Z, pitch about X, yaw about +Y; radians), then translate."""
    v = part.vertices * np.asarray(scale, float)
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    rz = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    v = v @ (ry @ rx @ rz).T + np.asarray(offset, float)
    faces = part.faces
    if np.prod(np.sign(scale)) < 0:  # a mirror flips the winding
        faces = faces[:, ::-1]
    return Part(v, faces.copy(), part.uv.copy(), part.material)


def merge(parts: list[Part]) -> list[Part]:
    """Concatenate parts that share a material (fewer meshes for the renderer)."""
    by_mat: dict[str, list[Part]] = {}
    for p in parts:
        by_mat.setdefault(p.material, []).append(p)
    out = []
    for mat, group in by_mat.items():
        base, vs, fs, uvs = 0, [], [], []
        for p in group:
            vs.append(p.vertices)
            fs.append(p.faces + base)
            uvs.append(p.uv)
            base += len(p.vertices)
        out.append(Part(np.vstack(vs), np.vstack(fs).astype(np.int32), np.vstack(uvs), mat))
    return out


def box(size: tuple[float, float, float], material: str, *,
        center: tuple[float, float, float] = (0.0, 0.0, 0.0), uv_scale: float = 1.0) -> Part:
    """Axis-aligned box of full ``size`` (x, y, z) at ``center``: 24 vertices, 12 triangles."""
    sx, sy, sz = (max(float(s), 1e-4) / 2.0 for s in size)
    c = np.asarray(center, float)
    verts: list[np.ndarray] = []
    uvs: list[tuple[float, float]] = []
    faces: list[tuple[int, int, int]] = []
    # (normal axis, sign): the two in-plane axes (u, v) chosen so u x v = outward normal.
    for axis, sign in ((0, 1), (0, -1), (1, 1), (1, -1), (2, 1), (2, -1)):
        u_ax, v_ax = [(1, 2), (2, 0), (0, 1)][axis]
        if sign < 0:
            u_ax, v_ax = v_ax, u_ax
        half = np.array([sx, sy, sz])
        n = len(verts)
        swap = half[v_ax] > half[u_ax] + 1e-12  # u along the longer side
        for du, dv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            p = np.zeros(3)
            p[axis] = sign * half[axis]
            p[u_ax] = du * half[u_ax]
            p[v_ax] = dv * half[v_ax]
            verts.append(c + p)
            uv = ((du + 1) * half[u_ax] / uv_scale, (dv + 1) * half[v_ax] / uv_scale)
            uvs.append(uv[::-1] if swap else uv)
        faces += [(n, n + 1, n + 2), (n, n + 2, n + 3)]
    return Part(np.array(verts), np.array(faces, np.int32), np.array(uvs), material)


def cylinder(radius: float, height: float, material: str, *, segments: int = 16,
             center: tuple[float, float, float] = (0.0, 0.0, 0.0), radius_top: float | None = None,
             caps: bool = True) -> Part:
    """Vertical (Y) cylinder or frustum centred at ``center`` (``radius_top`` defaults to ``radius``)."""
    rt = radius if radius_top is None else radius_top
    c = np.asarray(center, float)
    h = height / 2.0
    verts, uvs, faces = [], [], []
    for k in range(segments + 1):  # side, with a seam column for the UVs
        a = 2 * math.pi * k / segments
        ca, sa = math.cos(a), math.sin(a)
        verts += [c + np.array((radius * ca, -h, radius * sa)), c + np.array((rt * ca, h, rt * sa))]
        u = k / segments * 2 * math.pi * max(radius, rt)
        uvs += [(u, 0.0), (u, height)]
    for k in range(segments):
        a, b = 2 * k, 2 * k + 2
        faces += [(a, a + 1, b + 1), (a, b + 1, b)]
    if caps:
        for y, r, up in ((-h, radius, False), (h, rt, True)):
            if r <= 0:
                continue
            centre = len(verts)
            verts.append(c + np.array((0.0, y, 0.0)))
            uvs.append((0.5, 0.5))
            ring = len(verts)
            for k in range(segments):
                a = 2 * math.pi * k / segments
                verts.append(c + np.array((r * math.cos(a), y, r * math.sin(a))))
                uvs.append((0.5 + 0.5 * math.cos(a), 0.5 + 0.5 * math.sin(a)))
            for k in range(segments):
                i, j = ring + k, ring + (k + 1) % segments
                faces.append((centre, j, i) if up else (centre, i, j))
    return Part(np.array(verts), np.array(faces, np.int32), np.array(uvs), material)


def cone(radius: float, height: float, material: str, *, segments: int = 16,
         center: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> Part:
    """Vertical cone with its base at ``center.y - height/2`` and its apex above."""
    return cylinder(radius, height, material, segments=segments, center=center, radius_top=1e-4)


def sphere(radius: float, material: str, *, rings: int = 8, segments: int = 16,
           center: tuple[float, float, float] = (0.0, 0.0, 0.0),
           scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Part:
    """UV sphere (an ellipsoid with ``scale``) centred at ``center``."""
    c = np.asarray(center, float)
    s = np.asarray(scale, float) * radius
    verts, uvs, faces = [], [], []
    for i in range(rings + 1):
        phi = math.pi * i / rings
        for k in range(segments + 1):
            th = 2 * math.pi * k / segments
            d = np.array([math.sin(phi) * math.cos(th), math.cos(phi), math.sin(phi) * math.sin(th)])
            verts.append(c + d * s)
            uvs.append((k / segments * 2 * math.pi * radius, i / rings * math.pi * radius))
    w = segments + 1
    for i in range(rings):
        for k in range(segments):
            a, b = i * w + k, (i + 1) * w + k
            faces += [(a, a + 1, b + 1), (a, b + 1, b)]
    return Part(np.array(verts), np.array(faces, np.int32), np.array(uvs), material)


def bounds(parts: list[Part]) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) corners of all parts' vertices."""
    v = np.vstack([p.vertices for p in parts])
    return v.min(axis=0), v.max(axis=0)
