"""ObjectNav goal instances (NavVerse App. 8.1): scene objects grouped by category.

Each :class:`GoalInstance` carries its XZ footprint so that episode builders can find
navigable approach points; frame: Habitat world, metres.
"""

from __future__ import annotations

from dataclasses import dataclass

from navbench.geometry import Vec3, vec3
from navbench.scene.model import Scene

#: NavVerse success distance 1.0 + r_robot for the Spot-like robot (r_robot = 0.6 m).
SUCCESS_DISTANCE = 1.6


@dataclass(frozen=True)
class GoalInstance:
    """One goal instance: ``id``, ``category``, ``position`` (centre or entrance, m),
    XZ footprint ``lo``/``hi`` (m), floor height ``y`` (m), ``size`` (sx, sy, sz) or None."""

    id: str
    category: str
    position: tuple[float, float, float]
    lo: tuple[float, float]
    hi: tuple[float, float]
    y: float
    size: tuple[float, float, float] | None = None


def object_instances(scene: Scene, categories: tuple[str, ...] | None = None) -> dict[str, list[GoalInstance]]:
    """Scene objects by label (sorted), optionally restricted to ``categories``."""
    out: dict[str, list[GoalInstance]] = {}
    for o in sorted(scene.objects, key=lambda o: o.id):
        if categories is not None and o.label not in categories:
            continue
        b = o.bounds
        if b is not None:
            lo, hi, y = (b[0][0], b[0][2]), (b[1][0], b[1][2]), b[0][1]
            size: Vec3 | None = (b[1][0] - b[0][0], b[1][1] - b[0][1], b[1][2] - b[0][2])
        else:
            r = o.extent_radius or 0.0
            lo, hi, y = (o.center[0] - r, o.center[2] - r), (o.center[0] + r, o.center[2] + r), o.center[1] - r
            size = (2 * r, 2 * r, 2 * r) if r else None
        out.setdefault(o.label, []).append(GoalInstance(o.id, o.label, vec3(o.center), lo, hi, y, size))
    return dict(sorted(out.items()))
