"""Path fidelity: DTW, nDTW and SDTW (SPEC §5; Ilharco et al. 2019, as VLN-CE measures it).

``nDTW = exp(−DTW(Q, R) / (|R| · d_th))`` with Euclidean point distance and ``d_th = 3.0`` m;
``SDTW = S · nDTW``. VLN-CE semantics (its ``NDTW`` measure): ``Q`` is the agent's positions
with consecutive repeats removed (:func:`drop_repeats`: a turn or STOP adds no row; rows
within :data:`REPEAT_TOLERANCE` = 1 mm count as repeats) and ``R`` the dense ``locations`` of
``{split}_gt.json.gz`` (the 0.25 m / 15° follower's position after every action, repeats
included); without a ``_gt`` record the reference path resampled every
0.25 m (:func:`densify`) stands in. ``method="exact"`` is the exact O(n·m) dynamic programme;
``method="fastdtw"`` reproduces the ``fastdtw`` package (radius 1) that VLN-CE calls by default
(``FDTW: True``), an approximation that is never below the exact value. Results record which
one was used.

Differences from r4r's definition (Ilharco et al., ``dtw.py``): r4r scores graph node
sequences with shortest-path distances between nodes and normalises by ``|R| · 3 m`` too, but
keeps every node; VLN-CE (and navbench) use continuous positions and Euclidean distances.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numba import njit

DtwMethod = Literal["exact", "fastdtw"]


@njit(cache=True)
def _dtw_window(x: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:  # pragma: no cover - numba
    """DTW restricted to row-wise column windows ``lo[i] ≤ j < hi[i]`` (1-based DP)."""
    n, m = x.shape[0], y.shape[0]
    inf = np.inf
    prev = np.full(m + 1, inf)
    prev[0] = 0.0
    cur = np.full(m + 1, inf)
    for i in range(1, n + 1):
        cur[:] = inf
        for j in range(lo[i - 1] + 1, hi[i - 1] + 1):
            s = 0.0
            for k in range(x.shape[1]):
                t = x[i - 1, k] - y[j - 1, k]
                s += t * t
            c = math.sqrt(s)
            best = prev[j - 1]
            if prev[j] < best:
                best = prev[j]
            if cur[j - 1] < best:
                best = cur[j - 1]
            cur[j] = c + best
        prev, cur = cur, prev
    return float(prev[m])


#: Two positions closer than this (m) are one row of ``Q``: a physics robot turning in place
#: drifts by ~1 µm per step where VLN-CE's kinematic simulator repeats the position exactly.
REPEAT_TOLERANCE = 1e-3


@njit(cache=True)
def _keep_moved(p: np.ndarray, tol: float) -> np.ndarray:  # pragma: no cover - numba
    keep = np.zeros(p.shape[0], dtype=np.bool_)
    keep[0] = True
    last = 0
    for i in range(1, p.shape[0]):
        s = 0.0
        for k in range(p.shape[1]):
            t = p[i, k] - p[last, k]
            s += t * t
        if s >= tol * tol:
            keep[i] = True
            last = i
    return keep


def drop_repeats(positions: np.ndarray, tol: float = REPEAT_TOLERANCE) -> np.ndarray:
    """Positions without the rows within ``tol`` metres of the previous kept row (VLN-CE's
    NDTW appends a position only when ``current_position != locations[-1]``; the tolerance
    makes a physics robot's in-place turn add no row either). ``tol = 0`` keeps every row
    that differs at all."""
    p: np.ndarray = np.ascontiguousarray(np.asarray(positions, dtype=float).reshape(-1, 3))
    if len(p) < 2:
        return p
    keep = np.ones(len(p), dtype=bool)
    if tol <= 0.0:
        keep[1:] = (p[1:] != p[:-1]).any(axis=1)
    else:
        keep[:] = _keep_moved(p, float(tol))
    return p[keep]


def densify(path: np.ndarray, step: float = 0.25) -> np.ndarray:
    """The polyline ``path`` (N, 3) resampled every ``step`` metres of 3D arc length, keeping
    its first and last point (a stand-in for ``_gt`` locations when a file has none)."""
    p = np.asarray(path, dtype=float).reshape(-1, 3)
    if len(p) < 2:
        return p
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] == 0.0:
        return p[:1]
    t = np.append(np.arange(0.0, s[-1], step), s[-1])
    return np.column_stack([np.interp(t, s, p[:, k]) for k in range(3)])


def dtw(P: np.ndarray, R: np.ndarray) -> float:
    """Exact DTW distance between two point sequences (sum of Euclidean matched distances)."""
    x = np.ascontiguousarray(P, dtype=float)
    y = np.ascontiguousarray(R, dtype=float)
    if len(x) == 0 or len(y) == 0:
        raise ValueError("DTW needs two non-empty sequences")
    n, m = len(x), len(y)
    return float(_dtw_window(x, y, np.zeros(n, np.int64), np.full(n, m, np.int64)))


def _path_dtw(x: np.ndarray, y: np.ndarray, window: set[tuple[int, int]] | None) -> tuple[float, list[tuple[int, int]]]:
    """DTW with back-pointers over ``window`` (0-based cells), as in fastdtw's ``__dtw``."""
    n, m = len(x), len(y)
    cells = window if window is not None else {(i, j) for i in range(n) for j in range(m)}
    cost: dict[tuple[int, int], tuple[float, int, int]] = {(-1, -1): (0.0, 0, 0)}
    for i, j in sorted(cells):
        dt = float(np.linalg.norm(x[i] - y[j]))
        cands = [
            (cost.get((i - 1, j), (math.inf,))[0] + dt, i - 1, j),
            (cost.get((i, j - 1), (math.inf,))[0] + dt, i, j - 1),
            (cost.get((i - 1, j - 1), (math.inf,))[0] + dt, i - 1, j - 1),
        ]
        cost[(i, j)] = min(cands, key=lambda a: a[0])
    path = []
    i, j = n - 1, m - 1
    while not (i == j == -1):
        path.append((i, j))
        _, i, j = cost[(i, j)]
    path.reverse()
    return cost[(n - 1, m - 1)][0], path


def fastdtw(P: np.ndarray, R: np.ndarray, radius: int = 1) -> float:
    """The ``fastdtw`` package's multi-resolution approximation (Salvador & Chan 2007)."""
    return _fastdtw(np.asarray(P, float), np.asarray(R, float), radius)[0]


def _fastdtw(x: np.ndarray, y: np.ndarray, radius: int) -> tuple[float, list[tuple[int, int]]]:
    min_size = radius + 2
    if len(x) < min_size or len(y) < min_size:
        return _path_dtw(x, y, None)
    xs = (x[: len(x) - len(x) % 2 : 2] + x[1 : len(x) - len(x) % 2 : 2]) / 2.0
    ys = (y[: len(y) - len(y) % 2 : 2] + y[1 : len(y) - len(y) % 2 : 2]) / 2.0
    _, low = _fastdtw(xs, ys, radius)
    return _path_dtw(x, y, _expand_window(low, len(x), len(y), radius))


def _expand_window(path: list[tuple[int, int]], n: int, m: int, radius: int) -> set[tuple[int, int]]:
    """fastdtw's window: grow the coarse path by ``radius``, project to the finer grid, then keep
    per row the contiguous run of window cells starting at or after the previous row's start."""
    grown = set(path)
    for i, j in path:
        for a in range(-radius, radius + 1):
            for b in range(-radius, radius + 1):
                grown.add((i + a, j + b))
    fine: set[tuple[int, int]] = set()
    for i, j in grown:
        for a, b in ((0, 0), (0, 1), (1, 0), (1, 1)):
            fine.add((i * 2 + a, j * 2 + b))
    out: set[tuple[int, int]] = set()
    start_j = 0
    for i in range(n):
        new_start: int | None = None
        for j in range(start_j, m):
            if (i, j) in fine:
                out.add((i, j))
                if new_start is None:
                    new_start = j
            elif new_start is not None:
                break
        start_j = start_j if new_start is None else new_start
    return out


def ndtw(P: np.ndarray, R: np.ndarray, d_th: float = 3.0, *, method: DtwMethod = "exact") -> float:
    """nDTW = ``exp(−DTW(P, R) / (|R| · d_th))`` in [0, 1]; ``R`` are the reference locations."""
    if method == "exact":
        d = dtw(P, R)
    elif method == "fastdtw":
        d = fastdtw(P, R)
    else:
        raise ValueError(f"unknown DTW method {method!r} (exact | fastdtw)")
    return math.exp(-d / (len(R) * d_th))


def sdtw(succeeded: bool, ndtw_value: float) -> float:
    """SDTW = ``S · nDTW``."""
    return float(succeeded) * ndtw_value
