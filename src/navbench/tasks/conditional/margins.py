"""Decidable relations: the one margin rule of relation conditions and target qualifiers.

The scene graph (SPEC §2) decides every predicate by a hard threshold; a person looking at the
scene decides pairs near a threshold differently ("the faucet is south-east of the plunger" 2.4°
inside the sector; "the game console is north-east of the tv stand" while it stands on it;
"the coffee table is lower than the sofa" false although it is 0.24 m lower). Instructions
therefore use a predicate of a pair only where graph and person agree with a margin: the pair
*surely holds* or *surely fails* it. Everything between is undecidable and never used, in a
relation condition or in a qualifier. With ``δ = c_subject − c_reference``, h = √(δx² + δz²),
bearing θ = atan2(−δz, δx), elevation ε = atan2(δy, h), and the graph's thresholds ``g``:

==================  ========================================  ====================================
predicate           surely holds                              surely fails
==================  ========================================  ====================================
direction "D of"    h ≥ ``direction_min_h``, θ ≥ ``direction_  h ≥ ``direction_min_h``, θ ≥
(sector ±22.5°)     deg`` inside both sector boundaries, and  ``direction_deg`` outside the sector
                    ε ≥ ``elevation_deg`` inside its          (any elevation: a person still says
                    elevation bin (level: |ε| ≤ 30° − 10°)    "east" of a thing above and east);
                                                              "-and-up/-down" also when ε is
                                                              ``elevation_deg`` outside its bin
near                d_used ≤ g.near_max − ``distance``        d_used ≥ g.near_max + ``distance``
far from            d_used ≥ g.far_min + ``distance``         d_used ≤ g.far_min − ``distance``
higher than         δy ≥ max(g.higher_min, ``height_true``)   δy ≤ ``height_false`` (and < g's)
lower than          −δy ≥ max(g.higher_min, ``height_true``)  −δy ≤ ``height_false``
above               the graph's ``above`` and δy ≥            δy ≤ ``height_false``
                    ``height_true``
below               the graph's ``below`` and −δy ≥           −δy ≤ ``height_false``
                    ``height_true``
==================  ========================================  ====================================

Defaults (10°, 0.5 m, 10°, 0.3 m, 0.2 m, 0.1 m): a person reads "higher" from about 0.2 m up
and calls a difference under 0.1 m level; 10° and 0.3 m are what a person misjudges at room
scale. A qualified target ("the vase near the dining table") must surely hold its qualifier and
every other object with its label must surely fail it; for ``near`` the next candidate must
also be ``near_runner_up`` m farther than the target (one candidate clearly nearest).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from navbench.errors import ConfigError
from navbench.graph.relations import AZIMUTH_NAMES, ELEVATION_NAMES, PairMetrics
from navbench.graph.settings import GraphSettings
from navbench.jsontypes import JSONObject

_SECTOR_HALF = 22.5
_CANONICAL = {
    (f"{az} of" if el == "level" else f"{az}-and-{el} of"): (a, e)
    for a, az in enumerate(AZIMUTH_NAMES) for e, el in enumerate(ELEVATION_NAMES)
}


@dataclass(frozen=True)
class MarginSettings:
    """Margins of the decidable-relation rule (module table); degrees and metres.

    Attributes:
        direction_deg: a direction holds / fails only this far inside / outside its sector.
        direction_min_h: ... and with centres at least this far apart horizontally (m).
        elevation_deg: the elevation is this far inside its bin (level: |ε| ≤ 30° − this).
        distance: near / far from hold or fail only this far from the graph's threshold (m).
        height_true: higher / lower / above / below hold only with |δy| ≥ this (m) (and the
            graph's own threshold).
        height_false: ... and fail only with the signed difference ≤ this (m).
        near_runner_up: a ``near`` qualifier needs every other candidate at least this much
            farther (d_used, m) than the target.
    """

    direction_deg: float = 10.0
    direction_min_h: float = 0.5
    elevation_deg: float = 10.0
    distance: float = 0.3
    height_true: float = 0.2
    height_false: float = 0.1
    near_runner_up: float = 0.5

    def __post_init__(self) -> None:
        for k, v in asdict(self).items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ConfigError(f"MarginSettings.{k}: expected a finite number >= 0, got {v!r}")
        if self.direction_deg >= _SECTOR_HALF:
            raise ConfigError(f"MarginSettings.direction_deg: expected < {_SECTOR_HALF}, "
                              f"got {self.direction_deg}")
        if self.height_false >= self.height_true:
            raise ConfigError("MarginSettings: expected height_false < height_true, got "
                              f"{self.height_false} >= {self.height_true}")

    def to_dict(self) -> JSONObject:
        """Plain dict (recorded in dataset manifests)."""
        return asdict(self)


def bearing_offset(pm: PairMetrics, centre_deg: float) -> np.ndarray:
    """(N, N) |bearing − centre| (°, 0..180) of o_j seen from o_i (bearing CCW from east)."""
    ang = np.degrees(np.arctan2(-pm.delta[..., 2], pm.delta[..., 0]))
    out: np.ndarray = np.abs((ang - centre_deg + 180.0) % 360.0 - 180.0)
    return out


def decidable(pm: PairMetrics, predicate: str, graph: GraphSettings | None = None,
              margins: MarginSettings | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(N, N) bool arrays ``(surely_holds, surely_fails)``: ``[i, j]`` for "o_j is <predicate>
    o_i" (the :class:`~navbench.graph.relations.PairMetrics` convention; module table).

    ``surely_holds`` implies the graph's predicate and ``surely_fails`` its negation; the
    diagonal is neither.

    >>> from navbench.graph.relations import ObjectArrays, pair_metrics
    >>> from navbench.scene import SceneObject
    >>> a = SceneObject("a", "sofa", (0.0, 0.4, 0.0), "r", size=(0.2, 0.2, 0.2))
    >>> b = SceneObject("b", "lamp", (1.0, 0.4, -0.2), "r", size=(0.2, 0.2, 0.2))  # 11.3° north of east
    >>> c = SceneObject("c", "tv", (1.0, 0.4, -0.4), "r", size=(0.2, 0.2, 0.2))   # 21.8°: 0.7° from the boundary
    >>> pm = pair_metrics(ObjectArrays.from_objects([a, b, c]))
    >>> ok, no = decidable(pm, "east of")
    >>> bool(ok[0, 1]), bool(no[0, 1]), bool(ok[0, 2]), bool(no[0, 2])
    (True, False, False, False)
    """
    g = graph or GraphSettings()
    m = margins or MarginSettings()
    n = pm.n
    off = ~np.eye(n, dtype=bool)
    dy = pm.delta[..., 1]
    if predicate in _CANONICAL:
        a, e = _CANONICAL[predicate]
        far = pm.h >= m.direction_min_h
        boff = bearing_offset(pm, 45.0 * a)
        el = np.degrees(np.arctan2(dy, pm.h))
        lim = g.elevation_deg
        in_bin = {0: np.abs(el) <= lim - m.elevation_deg, 1: el >= lim + m.elevation_deg,
                  2: el <= -lim - m.elevation_deg}[e]
        holds = far & (boff <= _SECTOR_HALF - m.direction_deg) & in_bin
        fails = far & (boff >= _SECTOR_HALF + m.direction_deg)
        if e == 1:
            fails = fails | (far & (el <= lim - m.elevation_deg))
        elif e == 2:
            fails = fails | (far & (el >= -lim + m.elevation_deg))
        return holds & off, fails & off
    if predicate in ("near", "far from"):
        d = pm.d_used
        if predicate == "near":
            return (d <= g.near_max - m.distance) & off, (d >= g.near_max + m.distance) & off
        return (d >= g.far_min + m.distance) & off, (d <= g.far_min - m.distance) & off
    if predicate in ("higher than", "lower than", "above", "below"):
        up = dy if predicate in ("higher than", "above") else -dy
        if predicate in ("higher than", "lower than"):
            holds = up >= max(g.higher_min, m.height_true)
            fails = (up <= m.height_false) & (up < g.higher_min)
        else:
            holds = pm.semantic[predicate] & (up >= m.height_true)
            fails = (up <= m.height_false) & (up < g.above_min_dy)
        return holds & off, fails & off
    raise KeyError(f"unknown predicate {predicate!r}")


def qualifies(pm: PairMetrics, predicate: str, anchor: int, target: int, others: list[int],
              graph: GraphSettings | None = None, margins: MarginSettings | None = None,
              table: tuple[np.ndarray, np.ndarray] | None = None) -> bool:
    """Whether "the <target> <predicate> the <anchor>" singles out ``target`` among ``others``
    (the other objects with its label): the target surely holds it, each other surely fails it,
    and for ``near`` each other is ``near_runner_up`` m farther (d_used) than the target.
    ``table``: a precomputed :func:`decidable` of ``predicate``."""
    m = margins or MarginSettings()
    ok, no = table if table is not None else decidable(pm, predicate, graph, m)
    if not ok[anchor, target] or not all(no[anchor, j] for j in others):
        return False
    if predicate == "near":
        d = pm.d_used[anchor]
        return all(d[j] - d[target] >= m.near_runner_up for j in others)
    return True


__all__ = ["MarginSettings", "bearing_offset", "decidable", "qualifies"]
