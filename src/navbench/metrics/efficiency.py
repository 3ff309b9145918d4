"""Path length, SPL, soft success, SoftSPL and coverage efficiency (SPEC §5, NavVerse App. 6.5).

Lengths in metres. ``L`` is the geodesic shortest-path length; an infinite ``L`` (unreachable
goal) raises ``ValueError`` instead of producing 0 or a division by zero.
"""

from __future__ import annotations

import math

import numpy as np


def path_length(positions: np.ndarray) -> float:
    """Executed length ``P = Σ ‖p_t − p_{t−1}‖`` accumulated in 3D (m)."""
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    if len(p) < 2:
        return 0.0
    return float(np.linalg.norm(np.diff(p, axis=0), axis=1).sum())


def _ratio(L: float, P: float) -> float:
    if not math.isfinite(L) or L < 0:
        raise ValueError(f"shortest-path length L must be finite and ≥ 0 (unreachable goal?), got {L}")
    m = max(L, P)
    # Start already at the goal (L = P = 0): the path is optimal.
    return 1.0 if m == 0.0 else L / m


def spl(succeeded: bool, L: float, P: float) -> float:
    """SPL = ``S · L / max(L, P)``; ``L = P = 0`` counts as an optimal path (ratio 1)."""
    return float(succeeded) * _ratio(L, P)


def soft_success(d_T: float, d_0: float) -> float:
    """SS = ``max(0, 1 − d_T / d_0)``; with ``d_0 = 0`` it is 1 when ``d_T = 0`` else 0."""
    if d_0 <= 0.0:
        return 1.0 if d_T <= 0.0 else 0.0
    return max(0.0, 1.0 - d_T / d_0)


def soft_spl(ss: float, L: float, P: float) -> float:
    """SoftSPL = ``SS · L / max(L, P)``; with ``SS = soft_success(d_T, L)`` this is habitat-lab's
    ``SoftSPL`` (one start distance, ``L = d_0``, in both factors).

    >>> round(soft_spl(soft_success(4.0, 10.0), 10.0, 3.0), 3), round(soft_spl(0.9, 10.0, 14.0), 3)
    (0.6, 0.643)
    """
    return ss * _ratio(L, P)


def visited_cells(positions: np.ndarray, cell: float = 1.0, *, traverse: bool = True) -> set[tuple[int, int]]:
    """Unique XZ grid cells (size ``cell`` m, origin at 0) visited by the trajectory.

    With ``traverse`` every cell the polyline passes through counts (exact: each segment is cut
    at every grid line it crosses and each piece's midpoint is binned), so the count does not
    depend on the recording rate; otherwise only the cells of the recorded points count.
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)[:, [0, 2]] / cell
    c = np.floor(p).astype(np.int64)
    cells = set(zip(c[:, 0].tolist(), c[:, 1].tolist(), strict=True))
    if not traverse:
        return cells
    # A segment whose end points share a cell and that crosses no grid line adds nothing.
    lo, hi = np.minimum(p[:-1], p[1:]), np.maximum(p[:-1], p[1:])
    crosses = (np.ceil(lo) <= np.floor(hi)).any(axis=1)
    for s in np.flatnonzero(crosses):
        a, b = p[s], p[s + 1]
        d = b - a
        ts = [0.0, 1.0]
        for k in range(2):
            if d[k] != 0.0:
                lines = np.arange(math.ceil(lo[s, k]), math.floor(hi[s, k]) + 1, dtype=float)
                ts.extend(((lines - a[k]) / d[k]).tolist())
        t = np.unique(np.clip(ts, 0.0, 1.0))
        mids = np.floor(a + np.outer((t[:-1] + t[1:]) / 2.0, d)).astype(np.int64)
        cells.update(zip(mids[:, 0].tolist(), mids[:, 1].tolist(), strict=True))
    return cells


def coverage_efficiency(
    positions: np.ndarray, cell: float = 1.0, eps: float = 1.0, *, traverse: bool = True
) -> float:
    """CE = ``|unique cells visited| / max(P, ε)`` (cells per metre), NavVerse App. 6.5.

    NavVerse leaves ε open; the default 1 m (one cell) keeps CE ≤ 1 for a standing agent.
    """
    return len(visited_cells(positions, cell, traverse=traverse)) / max(path_length(positions), eps)
