"""Hand-made worlds for the navigation tests and their analytic shortest paths.

All worlds are flat floors (box tops at y = 0) with full-height wall boxes; the agent radius
``r`` grows every wall corner into a quarter circle, so a shortest path that wraps one face of
an obstacle is: tangent segment + arc + the face + arc + tangent segment (closed form below).
"""

from __future__ import annotations

import math

import numpy as np

from navbench.scene import Box, Scene


def floor(x0: float, z0: float, x1: float, z1: float, y: float = 0.0, i: int = 0,
          kind: str = "floor") -> Box:
    """A 0.1 m thick walkable slab with its top at ``y`` covering [x0, x1] x [z0, z1]."""
    return Box(f"floor{i}", kind, ((x0 + x1) / 2, y - 0.05, (z0 + z1) / 2), (x1 - x0, 0.1, z1 - z0))


def wall(x0: float, z0: float, x1: float, z1: float, i: int, y0: float = 0.0,
         y1: float = 2.5, kind: str = "wall") -> Box:
    """An obstacle box covering [x0, x1] x [y0, y1] x [z0, z1]."""
    return Box(f"wall{i}", kind, ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2),
               (x1 - x0, y1 - y0, z1 - z0))


def scene(*boxes: Box, sid: str = "world") -> Scene:
    return Scene(id=sid, kind="indoor", source="handmade", boxes=tuple(boxes))


def u_corridor() -> Scene:
    """4 x 4 m room split by a wall z in [1.9, 2.1] from x = 0 to x = 3 (gap x in [3, 4])."""
    return scene(floor(0, 0, 4, 4), wall(0, 1.9, 3, 2.1, 0), sid="u_corridor")


def pillar_room() -> Scene:
    """6 x 4 m room with a 1 x 1 m square pillar x in [2.5, 3.5], z in [1.5, 2.5]."""
    return scene(floor(0, 0, 6, 4), wall(2.5, 1.5, 3.5, 2.5, 0), sid="pillar")


def _rot(v: np.ndarray, a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def wrap_length(a: tuple[float, float], c1: tuple[float, float], c2: tuple[float, float],
                b: tuple[float, float], r: float, side: int) -> float:
    """Length of the path a → around corner circles c1, c2 (radius r) → b.

    The path keeps both circles on its ``side`` (+1: left, -1: right, with left meaning a
    positive 2D cross product in (x, z) coordinates); c1 → c2 is the obstacle face.
    """
    A, C1, C2, B = (np.asarray(p, dtype=float) for p in (a, c1, c2, b))

    def tangent(p: np.ndarray, c: np.ndarray, sgn: int) -> tuple[float, np.ndarray]:
        d0 = c - p
        dist = float(np.linalg.norm(d0))
        alpha = math.asin(r / dist)
        return math.sqrt(dist * dist - r * r), _rot(d0 / dist, -sgn * alpha)

    t1, d1 = tangent(A, C1, side)
    t2, d2r = tangent(B, C2, -side)  # walked backwards from b, the circle is on the other side
    d2 = -d2r
    face = float(np.linalg.norm(C2 - C1))
    u = (C2 - C1) / face if face > 0 else d2

    def turn(x: np.ndarray, y: np.ndarray) -> float:
        return math.acos(max(-1.0, min(1.0, float(x @ y))))

    return t1 + r * turn(d1, u) + face + r * turn(u, d2) + t2
