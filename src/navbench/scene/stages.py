"""Indoor / outdoor stage labels of positions (indoor-to-outdoor diagnostics, SPEC §5).

A position is ``"indoor"`` when its XZ point lies inside (or on the edge of) a room's floor
polygon and its height is within that room's storey (``floor_y - 0.5 <= y <= floor_y +
height``); every other position is ``"outdoor"``. Positions are Habitat-frame ``(x, y, z)``
metres. Pure outdoor scenes (no rooms) label everything ``"outdoor"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from navbench.scene.model import Scene

INDOOR = "indoor"
OUTDOOR = "outdoor"


def indoor_mask(scene: Scene, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Boolean (N,) mask: True where a position (N, 3) is inside a room of ``scene``."""
    import shapely

    p = np.asarray(points, dtype=float).reshape(-1, 3)
    mask = np.zeros(len(p), dtype=bool)
    for r in scene.rooms:
        if len(r.floor_polygon) < 3:
            continue
        poly = shapely.Polygon(r.floor_polygon)
        if not poly.is_valid:
            poly = shapely.make_valid(poly)
        band = (p[:, 1] >= r.floor_y - 0.5) & (p[:, 1] <= r.floor_y + r.height) & ~mask
        if not band.any():
            continue
        idx = np.flatnonzero(band)
        inside = shapely.intersects_xy(poly, p[idx, 0], p[idx, 2])
        mask[idx[inside]] = True
    return mask


def classify_positions(scene: Scene, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Stage label per position: an (N,) array of ``"indoor"`` / ``"outdoor"`` strings."""
    return np.where(indoor_mask(scene, points), INDOOR, OUTDOOR)


def first_outdoor_index(labels: Sequence[str] | np.ndarray) -> int | None:
    """Index of the first ``"outdoor"`` label that follows an ``"indoor"`` one (the exit step).

    ``None`` when the trajectory never goes from indoor to outdoor (it never left, or started
    outside).
    """
    seen_indoor = False
    for i, lab in enumerate(labels):
        if lab == INDOOR:
            seen_indoor = True
        elif seen_indoor:
            return i
    return None
