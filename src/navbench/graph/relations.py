"""Vectorised pairwise metrics and predicates for the objects of one room (SPEC §2).

All pair arrays are ``(N, N)`` and indexed ``[i, j]`` for the ordered pair (o_i, o_j) with
``δ = c_j − c_i``: entry ``[i, j]`` answers "is **o_j** <predicate> **o_i**" (subject o_j,
reference o_i). Habitat frame: metres, +Y up, north = −Z, east = +X. The diagonal (i = j) is
meaningless and is masked out (``False`` for predicates).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from navbench.graph.settings import GraphSettings
from navbench.scene.model import SceneObject

#: Azimuth sectors of 45° centred on these directions, counter-clockwise from east (seen from above).
AZIMUTH_NAMES: tuple[str, ...] = (
    "east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east",
)
#: Elevation bins (index order used by ``elevation_bin``).
ELEVATION_NAMES: tuple[str, ...] = ("level", "up", "down")
#: Semantic predicates, in the order they are emitted.
SEMANTIC_PREDICATES: tuple[str, ...] = (
    "near", "far from", "higher than", "lower than", "above", "below",
)
#: Distance kinds, by fallback priority.
DISTANCE_KINDS: tuple[str, ...] = ("aabb", "sphere", "center")


def canonical_name(azimuth_bin: int, elevation_bin: int) -> str:
    """``"east of"`` for level pairs, ``"east-and-up of"`` / ``"east-and-down of"`` otherwise."""
    az = AZIMUTH_NAMES[azimuth_bin]
    if elevation_bin == 0:
        return f"{az} of"
    return f"{az}-and-{ELEVATION_NAMES[elevation_bin]} of"


#: Every canonical predicate (8 azimuths × 3 elevations).
CANONICAL_PREDICATES: tuple[str, ...] = tuple(
    canonical_name(a, e) for e in range(3) for a in range(8)
)
_CANONICAL_INDEX: dict[str, tuple[int, int]] = {
    canonical_name(a, e): (a, e) for e in range(3) for a in range(8)
}
ALL_PREDICATES: tuple[str, ...] = SEMANTIC_PREDICATES + CANONICAL_PREDICATES
#: How an elevated canonical predicate reads in text ("south-and-up of" is an id, not English).
_ELEVATION_WORDS: dict[str, str] = {"up": "above", "down": "below"}


def predicate_phrase(predicate: str) -> str:
    """The English words of a predicate id, for text shown to people: ``"south-and-up of"`` →
    ``"above and to the south of"``, ``"north-east-and-down of"`` → ``"below and to the
    north-east of"``; every other predicate ("near", "east of", ...) reads as its id. JSON
    fields keep the ids.

    >>> predicate_phrase("south-and-up of"), predicate_phrase("east of")
    ('above and to the south of', 'east of')
    """
    a, e = _CANONICAL_INDEX.get(predicate, (0, 0))
    if e == 0:
        return predicate
    return f"{_ELEVATION_WORDS[ELEVATION_NAMES[e]]} and to the {AZIMUTH_NAMES[a]} of"


#: Predicate id → its English words (:func:`predicate_phrase`), for every predicate.
PREDICATE_PHRASES: dict[str, str] = {p: predicate_phrase(p) for p in ALL_PREDICATES}


@dataclass(frozen=True, eq=False)
class ObjectArrays:
    """Per-object geometry as arrays (N objects); NaN where a quantity is unknown.

    Attributes:
        ids, labels: object ids and labels, in input order.
        centers: (N, 3) box centres (m).
        lo, hi: (N, 3) world AABB bounds (NaN rows when the object has no AABB).
        radius: (N,) bounding-sphere radius (explicit radius, else half the AABB diagonal; NaN if none).
    """

    ids: tuple[str, ...]
    labels: tuple[str, ...]
    centers: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    radius: np.ndarray

    @classmethod
    def from_objects(cls, objects: Sequence[SceneObject]) -> ObjectArrays:
        """Gather the geometry of ``objects`` (extent precedence as in SPEC §1)."""
        n = len(objects)
        centers = np.array([o.center for o in objects], dtype=float).reshape(n, 3)
        lo = np.full((n, 3), np.nan)
        hi = np.full((n, 3), np.nan)
        radius = np.full(n, np.nan)
        for k, o in enumerate(objects):
            b = o.bounds
            if b is not None:
                lo[k], hi[k] = b
            r = o.extent_radius
            if r is not None:
                radius[k] = r
        return cls(tuple(o.id for o in objects), tuple(o.label for o in objects), centers, lo, hi, radius)

    @property
    def has_box(self) -> np.ndarray:
        """(N,) whether each object has an AABB."""
        out: np.ndarray = ~np.isnan(self.lo[:, 0])
        return out


@dataclass(frozen=True, eq=False)
class PairMetrics:
    """Metrics and predicates of every ordered pair of one room (see module docstring).

    Attributes:
        delta: (N, N, 3) displacement c_j − c_i (m).
        d_center, h: (N, N) centre distance and horizontal (XZ) centre distance (m).
        d_sphere, d_aabb: (N, N) surface distances (m), NaN when unavailable.
        d_used: (N, N) the distance used for thresholds (AABB → sphere → centre).
        used_kind: (N, N) int index into :data:`DISTANCE_KINDS`.
        azimuth_bin: (N, N) int index into :data:`AZIMUTH_NAMES`.
        elevation_bin: (N, N) int index into :data:`ELEVATION_NAMES`.
        footprint_overlap: (N, N) XZ AABB footprints overlap (False without AABBs).
        semantic: predicate name → (N, N) bool, for :data:`SEMANTIC_PREDICATES`.
    """

    delta: np.ndarray
    d_center: np.ndarray
    h: np.ndarray
    d_sphere: np.ndarray
    d_aabb: np.ndarray
    d_used: np.ndarray
    used_kind: np.ndarray
    azimuth_bin: np.ndarray
    elevation_bin: np.ndarray
    footprint_overlap: np.ndarray
    semantic: dict[str, np.ndarray]

    @property
    def n(self) -> int:
        """Number of objects."""
        return int(self.d_center.shape[0])

    def holds(self, predicate: str) -> np.ndarray:
        """(N, N) bool: ``[i, j]`` is whether "o_j is <predicate> o_i" (False on the diagonal)."""
        if predicate in self.semantic:
            return self.semantic[predicate]
        if predicate not in _CANONICAL_INDEX:
            raise KeyError(f"unknown predicate {predicate!r}; expected one of {ALL_PREDICATES}")
        a, e = _CANONICAL_INDEX[predicate]
        m = (self.azimuth_bin == a) & (self.elevation_bin == e)
        np.fill_diagonal(m, False)
        out: np.ndarray = m
        return out


def pair_metrics(objs: ObjectArrays, settings: GraphSettings | None = None) -> PairMetrics:
    """Compute :class:`PairMetrics` for all ordered pairs at once (no per-pair Python loop).

    Azimuth is the angle of (δx, −δz) counter-clockwise from east; sector k covers
    [45k − 22.5°, 45k + 22.5°) (a boundary belongs to the counter-clockwise sector); a
    vertical pair (h = 0) has azimuth 0 (east) by convention. Elevation is atan2(δy, h):
    ``up`` above +elevation_deg, ``down`` below −elevation_deg (strict), else ``level``.
    """
    s = settings or GraphSettings()
    c = objs.centers
    n = len(c)
    delta = c[None, :, :] - c[:, None, :]
    dx, dy, dz = delta[..., 0], delta[..., 1], delta[..., 2]
    d_center = np.sqrt(dx * dx + dy * dy + dz * dz)
    h = np.sqrt(dx * dx + dz * dz)

    r = objs.radius
    d_sphere = np.maximum(0.0, d_center - (r[:, None] + r[None, :]))  # NaN propagates

    lo, hi = objs.lo, objs.hi
    gap = np.maximum(np.maximum(lo[:, None, :] - hi[None, :, :], lo[None, :, :] - hi[:, None, :]), 0.0)
    both_box = objs.has_box[:, None] & objs.has_box[None, :]
    d_aabb = np.where(both_box, np.sqrt((gap * gap).sum(axis=-1)), np.nan)

    used_kind = np.where(both_box, 0, np.where(~np.isnan(d_sphere), 1, 2)).astype(np.int8)
    d_used = np.where(used_kind == 0, d_aabb, np.where(used_kind == 1, d_sphere, d_center))

    ang = np.degrees(np.arctan2(-dz, dx))
    azimuth_bin = (np.floor((ang + 22.5) / 45.0).astype(np.int64) % 8).astype(np.int8)
    elev = np.degrees(np.arctan2(dy, h))
    elevation_bin = np.where(
        elev > s.elevation_deg, 1, np.where(elev < -s.elevation_deg, 2, 0)
    ).astype(np.int8)

    ox = (np.minimum(hi[:, None, 0], hi[None, :, 0]) - np.maximum(lo[:, None, 0], lo[None, :, 0])) > 0
    oz = (np.minimum(hi[:, None, 2], hi[None, :, 2]) - np.maximum(lo[:, None, 2], lo[None, :, 2])) > 0
    footprint = ox & oz & both_box

    off = ~np.eye(n, dtype=bool)
    stacked = h <= s.above_max_h
    if s.above_footprint:
        stacked = stacked | footprint
    semantic = {
        "near": (d_used <= s.near_max) & off,
        "far from": (d_used >= s.far_min) & off,
        "higher than": (dy >= s.higher_min) & off,
        "lower than": (dy <= -s.higher_min) & off,
        "above": (dy >= s.above_min_dy) & stacked & off,
        "below": (dy <= -s.above_min_dy) & stacked & off,
    }
    return PairMetrics(
        delta, d_center, h, d_sphere, d_aabb, d_used, used_kind, azimuth_bin, elevation_bin,
        footprint, semantic,
    )
