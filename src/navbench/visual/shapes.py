"""Extra mesh primitives for the outdoor builders: rods, tori, extruded profiles, fitting.

Same conventions as :mod:`navbench.visual.mesh`: metres, Habitat axes (Y up), faces
counter-clockwise seen from outside, UVs in texture repeats (metric size / ``uv_scale``).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.mesh import Part, bounds

Vec3 = tuple[float, float, float]


def _rotation_y_to(d: np.ndarray) -> np.ndarray:
    """3x3 rotation taking +Y onto the unit vector ``d`` (Rodrigues)."""
    y = np.array([0.0, 1.0, 0.0])
    c = float(np.dot(y, d))
    if c > 1.0 - 1e-12:
        return np.eye(3)
    if c < -1.0 + 1e-12:
        return np.diag([1.0, -1.0, -1.0])
    k = np.cross(y, d)
    s = float(np.linalg.norm(k))
    k /= s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * (kx @ kx)


def _frustum(r0: float, r1: float, length: float, segments: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised capped frustum along +Y centred at the origin: (vertices, faces, uv)."""
    k = np.arange(segments + 1)
    a = 2 * math.pi * k / segments
    ca, sa = np.cos(a), np.sin(a)
    h = length / 2
    side = np.empty((2 * (segments + 1), 3))
    side[0::2] = np.stack([r0 * ca, np.full_like(ca, -h), r0 * sa], 1)
    side[1::2] = np.stack([r1 * ca, np.full_like(ca, h), r1 * sa], 1)
    u = k / segments * 2 * math.pi * max(r0, r1)
    suv = np.empty((2 * (segments + 1), 2))
    suv[0::2] = np.stack([u, np.zeros_like(u)], 1)
    suv[1::2] = np.stack([u, np.full_like(u, length)], 1)
    i = 2 * np.arange(segments)
    faces = [np.stack([i, i + 1, i + 3], 1), np.stack([i, i + 3, i + 2], 1)]
    verts, uvs = [side], [suv]
    base = len(side)
    ring = np.arange(segments)
    for y, r, up in ((-h, r0, False), (h, r1, True)):
        if r <= 0:
            continue
        cap = np.vstack([[0.0, y, 0.0], np.stack([r * ca[:-1], np.full(segments, y), r * sa[:-1]], 1)])
        verts.append(cap)
        uvs.append(np.vstack([[0.5, 0.5], np.stack([0.5 + 0.5 * ca[:-1], 0.5 + 0.5 * sa[:-1]], 1)]))
        i0, i1 = base + 1 + ring, base + 1 + (ring + 1) % segments
        c = np.full(segments, base)
        faces.append(np.stack([c, i1, i0], 1) if up else np.stack([c, i0, i1], 1))
        base += len(cap)
    return np.vstack(verts), np.vstack(faces).astype(np.int32), np.vstack(uvs)


def rod(p0: Vec3, p1: Vec3, radius: float, material: str, *, segments: int = 8,
        radius_end: float | None = None) -> Part:
    """A round cylinder (or frustum ending at ``radius_end``) from point ``p0`` to ``p1`` (m)."""
    a, b = np.asarray(p0, float), np.asarray(p1, float)
    length = float(np.linalg.norm(b - a))
    if length < 1e-9:
        raise ValueError("rod: p0 and p1 coincide")
    v, f, uv = _frustum(radius, radius if radius_end is None else radius_end, length, segments)
    r = _rotation_y_to((b - a) / length)
    return Part(v @ r.T + (a + b) / 2.0, f, uv, material)


def torus(major: float, minor: float, material: str, *, center: Vec3 = (0.0, 0.0, 0.0),
          axis: str = "z", segments: int = 16, sides: int = 8) -> Part:
    """A torus (a tyre) of ring radius ``major`` and tube radius ``minor`` around ``axis`` (m)."""
    a = (2 * math.pi * np.arange(segments + 1) / segments)[:, None]
    b = (2 * math.pi * np.arange(sides + 1) / sides)[None, :]
    rr = major + minor * np.cos(b)
    z = np.repeat(minor * np.sin(b), segments + 1, 0)
    v = np.stack([rr * np.cos(a), rr * np.sin(a), z], -1).reshape(-1, 3)  # the ring lies in XY
    uv = np.stack(np.broadcast_arrays(a * major, b * minor), -1).reshape(-1, 2)
    w = sides + 1
    i, j = np.meshgrid(np.arange(segments), np.arange(sides), indexing="ij")
    p, q = (i * w + j).ravel(), ((i + 1) * w + j).ravel()
    f = np.vstack([np.stack([p, q, q + 1], 1), np.stack([p, q + 1, p + 1], 1)]).astype(np.int32)
    if axis in ("x", "y"):  # swapping two coordinates mirrors: flip the winding back
        v = v[:, [2, 1, 0]] if axis == "x" else v[:, [0, 2, 1]]
        f = f[:, ::-1]
    return Part(v + np.asarray(center, float), np.ascontiguousarray(f), uv, material)


def _signed_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def triangulate(poly: np.ndarray) -> list[tuple[int, int, int]]:
    """Ear-clipping triangulation of a simple polygon (K, 2); triangles counter-clockwise.

    Raises:
        ValueError: the polygon self-intersects (no ear found).
    """
    idx = list(range(len(poly)))
    if _signed_area(poly) < 0:
        idx.reverse()
    tris: list[tuple[int, int, int]] = []
    while len(idx) > 3:
        n = len(idx)
        for k in range(n):
            i0, i1, i2 = idx[(k - 1) % n], idx[k], idx[(k + 1) % n]
            a, b, c = poly[i0], poly[i1], poly[i2]
            if (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) <= 1e-12:
                continue  # reflex or degenerate corner
            inside = False
            for j in idx:
                if j in (i0, i1, i2):
                    continue
                p = poly[j]
                d1 = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
                d2 = (c[0] - b[0]) * (p[1] - b[1]) - (c[1] - b[1]) * (p[0] - b[0])
                d3 = (a[0] - c[0]) * (p[1] - c[1]) - (a[1] - c[1]) * (p[0] - c[0])
                if d1 >= 0 and d2 >= 0 and d3 >= 0:
                    inside = True
                    break
            if not inside:
                tris.append((i0, i1, i2))
                idx.pop(k)
                break
        else:
            raise ValueError("triangulate: polygon is not simple")
    tris.append((idx[0], idx[1], idx[2]))
    return tris


def extrude(profile: list[tuple[float, float]], depth: float, material: str, *,
            plane: str = "xy", uv_scale: float = 1.0) -> Part:
    """A prism: the simple polygon ``profile`` extruded by ``depth`` (m).

    ``plane="xy"``: (x, y) side-profile points extruded along Z over ``[-depth/2, depth/2]``;
    ``plane="zy"``: (z, y) points extruded along X over ``[-depth/2, depth/2]``;
    ``plane="xz"``: (x, z) floor-plan points extruded up along Y over ``[0, depth]``.
    """
    poly = np.asarray(profile, float)
    if _signed_area(poly) < 0:
        poly = poly[::-1]
    n = len(poly)
    tris = triangulate(poly)
    h = depth / 2.0
    verts: list[tuple[float, float, float]] = []
    uvs: list[tuple[float, float]] = []
    faces: list[tuple[int, int, int]] = []
    for w, front in ((h, True), (-h, False)):  # caps
        base = len(verts)
        for p in poly:
            verts.append((p[0], p[1], w))
            uvs.append((p[0] / uv_scale, p[1] / uv_scale))
        for a, b, c in tris:
            faces.append((base + a, base + b, base + c) if front else (base + a, base + c, base + b))
    run = 0.0
    for k in range(n):  # sides: one quad per edge with its own UVs (flat shading)
        p, q = poly[k], poly[(k + 1) % n]
        ln = float(np.hypot(*(q - p)))
        base = len(verts)
        verts += [(p[0], p[1], h), (q[0], q[1], h), (q[0], q[1], -h), (p[0], p[1], -h)]
        uvs += [(run / uv_scale, depth / uv_scale), ((run + ln) / uv_scale, depth / uv_scale),
                ((run + ln) / uv_scale, 0.0), (run / uv_scale, 0.0)]
        faces += [(base, base + 3, base + 2), (base, base + 2, base + 1)]
        run += ln
    v = np.array(verts)
    f = np.array(faces, np.int32)
    if plane == "zy":
        v, f = v[:, [2, 1, 0]], f[:, ::-1]
    elif plane == "xz":
        v, f = np.stack([v[:, 0], v[:, 2] + h, v[:, 1]], axis=1), f[:, ::-1]
    return Part(v, np.ascontiguousarray(f), np.array(uvs), material)


def fit_to_box(parts: list[Part], size: Vec3, allow: Vec3 = (1.0, 1.0, 1.0)) -> list[Part]:
    """Shrink (never grow) parts about the local origin so that they stay inside the box.

    The allowed region is ``|x| <= allow[0]·size[0]/2``, ``0 <= y <= allow[1]·size[1]``,
    ``|z| <= allow[2]·size[2]/2`` (local frame: footprint centred, bottom at y = 0); parts
    reaching below ``y = 0`` are lifted onto it first.
    """
    lo, hi = bounds(parts)
    lift = -lo[1] if lo[1] < 0 else 0.0
    half = np.array([allow[0] * size[0] / 2, allow[1] * size[1], allow[2] * size[2] / 2])
    ext = np.array([max(abs(lo[0]), abs(hi[0])), hi[1] + lift, max(abs(lo[2]), abs(hi[2]))])
    s = np.minimum(1.0, half / np.maximum(ext, 1e-9))
    if lift == 0.0 and np.all(s == 1.0):
        return parts
    return [Part((p.vertices + np.array([0.0, lift, 0.0])) * s, p.faces, p.uv, p.material) for p in parts]
