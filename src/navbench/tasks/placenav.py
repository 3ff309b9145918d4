"""PlaceNav goal instances (NavVerse App. 8.1): storefronts / places grouped by category.

A place's goal position is its ``entrance`` (a navigable point in front of the door); its
footprint is the facade polygon's XZ bounding box (or the entrance itself).
"""

from __future__ import annotations

from navbench.scene.model import Scene
from navbench.tasks.objectnav import GoalInstance


def place_instances(scene: Scene, categories: tuple[str, ...] | None = None) -> dict[str, list[GoalInstance]]:
    """Places by category (sorted by id), optionally restricted to ``categories``."""
    out: dict[str, list[GoalInstance]] = {}
    for p in sorted(scene.places, key=lambda p: p.id):
        if categories is not None and p.category not in categories:
            continue
        ex, ey, ez = p.entrance
        if p.footprint:
            xs = [q[0] for q in p.footprint] + [ex]
            zs = [q[1] for q in p.footprint] + [ez]
            lo, hi = (min(xs), min(zs)), (max(xs), max(zs))
        else:
            lo = hi = (ex, ez)
        out.setdefault(p.category, []).append(GoalInstance(p.id, p.category, (ex, ey, ez), lo, hi, ey))
    return dict(sorted(out.items()))
