"""Per-layer precomputation for one-off geodesic queries, built once per navmesh layer.

Two tables let :func:`astar_lists` answer a query without scanning every corner:

* **Candidate lists** (:func:`candidate_lists`): for each bucket of ``m x m`` blocked-tile
  tiles (:func:`navbench.nav.visibility.blocked_tiles`), a *superset* of the corners that a
  point of the bucket can join by a segment that misses every blocked tile and is tangent at
  the corner — exactly the start and goal edges the search would consider. A corner is left
  out of a tile only when *every* point of the tile is provably behind a blocked tile (seen
  from the corner) or provably not tangent; see :func:`_corner_tiles`.
* **Landmarks** (:func:`landmarks`): per island, up to ``K`` corners picked farthest-first
  on the corner graph and the graph distance from each to every corner (scipy Dijkstra).

Coordinates are XZ metres (Habitat frame), distances metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from navbench.nav.visibility import dda_start

#: Angular bins of the occlusion profile around each corner.
NBINS = 2048
#: Tiles per bucket edge of the candidate lists.
BUCKET = 2
#: Landmarks per island.
LANDMARKS = 64
_DELTA = 1e-6  # angular margin (rad): a wedge counts as covered only with this much to spare
_TAN_M = 1e-5  # margin (m²) of the "never tangent" test (the search's own tolerance is 1e-12)


@nb.njit(cache=True)
def _hits(qx0, qz0, wx, wz, cx, cz, dx, dz):  # type: ignore[no-untyped-def]
    """Does the ray from c along (dx, dz) meet the closed rectangle [qx0, qx0 + wx] x [qz0, qz0 + wz]?"""
    lo, hi = 0.0, np.inf
    for a, d, q0, wd in ((cx, dx, qx0, wx), (cz, dz, qz0, wz)):
        if d == 0.0:
            if a < q0 or a > q0 + wd:
                return False
        else:
            t1, t2 = (q0 - a) / d, (q0 + wd - a) / d
            lo = max(lo, min(t1, t2))
            hi = min(hi, max(t1, t2))
    return lo <= hi


@nb.njit(cache=True)
def _rect_spans(x0, z0, ts, i0, i1, j0, j1, cx, cz, d0x, d0z, d1x, d1z):  # type: ignore[no-untyped-def]
    """Farthest distance (m) from c to the rectangle of tiles ``[i0, i1] x [j0, j1]`` if both
    rays from c along the wedge's (widened) edges d0, d1 meet it, else ``-1``. A rectangle
    not touching c subtends an arc narrower than pi, so it then meets every ray of the
    (narrow) wedge."""
    qx0, qz0 = x0 + i0 * ts, z0 + j0 * ts
    wx, wz = (i1 - i0 + 1) * ts, (j1 - j0 + 1) * ts
    ex = max(qx0 - cx, 0.0, cx - qx0 - wx)
    ez = max(qz0 - cz, 0.0, cz - qz0 - wz)
    if ex * ex + ez * ez < (1e-3 * ts) ** 2:  # c on or next to it: never an occluder
        return -1.0
    if not (_hits(qx0, qz0, wx, wz, cx, cz, d0x, d0z) and _hits(qx0, qz0, wx, wz, cx, cz, d1x, d1z)):
        return -1.0
    fx = max(abs(qx0 - cx), abs(qx0 + wx - cx))
    fz = max(abs(qz0 - cz), abs(qz0 + wz - cz))
    return math.sqrt(fx * fx + fz * fz)


@nb.njit(cache=True)
def _spans(B, x0, z0, ts, i, j, cx, cz, d0x, d0z, d1x, d1z):  # type: ignore[no-untyped-def]
    """:func:`_rect_spans` for blocked tile (j, i) alone, else for the blocked rectangle of it
    and its row or column neighbours, else of its 3 x 3 block (a segment through the inside
    of a rectangle of blocked tiles meets one of them), smallest first; ``-1`` if none."""
    nr, nc = B.shape
    far = _rect_spans(x0, z0, ts, i, i, j, j, cx, cz, d0x, d0z, d1x, d1z)
    if far >= 0.0 or not (0 < i < nc - 1 and 0 < j < nr - 1):
        return far
    row = B[j, i - 1] and B[j, i + 1]
    col = B[j - 1, i] and B[j + 1, i]
    if row:
        far = _rect_spans(x0, z0, ts, i - 1, i + 1, j, j, cx, cz, d0x, d0z, d1x, d1z)
        if far >= 0.0:
            return far
    if col:
        far = _rect_spans(x0, z0, ts, i, i, j - 1, j + 1, cx, cz, d0x, d0z, d1x, d1z)
        if far >= 0.0:
            return far
    if row and col and B[j - 1, i - 1] and B[j - 1, i + 1] and B[j + 1, i - 1] and B[j + 1, i + 1]:
        return _rect_spans(x0, z0, ts, i - 1, i + 1, j - 1, j + 1, cx, cz, d0x, d0z, d1x, d1z)
    return -1.0


@nb.njit(cache=True)
def _occlusion(B, x0, z0, ts, cx, cz, dirs):  # type: ignore[no-untyped-def]
    """Per angular bin around c: a distance (m) beyond which every point of the bin's wedge
    lies behind one blocked tile covering the whole wedge (``inf`` if none is found).

    Bin ``b`` holds directions ``atan2(dz, dx)`` in ``[-pi + b w, -pi + (b + 1) w)``,
    ``w = 2 pi / nbins``; its centre ray is walked tile by tile (Amanatides–Woo).
    ``dirs`` (nbins, 6): per bin the centre direction and the two edge directions widened
    by ``_DELTA`` (:func:`_directions`)."""
    nr, nc = B.shape
    nbins = len(dirs)
    out = np.full(nbins, np.inf)
    u0, v0 = (cx - x0) / ts, (cz - z0) / ts
    for b in range(nbins):
        dx, dz = dirs[b, 0], dirs[b, 1]
        i, j, si, sj, tdu, tdv, tu, tv = dda_start(u0, v0, dx, dz)
        while True:
            if 0 <= j < nr and 0 <= i < nc:
                if B[j, i]:
                    far = _spans(B, x0, z0, ts, i, j, cx, cz, dirs[b, 2], dirs[b, 3], dirs[b, 4],
                                 dirs[b, 5])
                    if far >= 0.0:
                        out[b] = far
                        break
            elif ((i < 0 and not dx > 0) or (i >= nc and not dx < 0)
                  or (j < 0 and not dz > 0) or (j >= nr and not dz < 0)):
                break  # outside the grid and moving away from it
            if tu < tv:
                i += si
                tu += tdu
            else:
                j += sj
                tv += tdv
    return out


def _directions(nbins: int) -> np.ndarray:
    """(nbins, 6): per angular bin the centre direction and the edge directions widened by
    ``_DELTA`` (unit vectors (dx, dz))."""
    w = 2.0 * math.pi / nbins
    b = np.arange(nbins, dtype=np.float64)
    ang = np.stack([-math.pi + (b + 0.5) * w, -math.pi + b * w - _DELTA,
                    -math.pi + (b + 1) * w + _DELTA], axis=1)
    return np.ascontiguousarray(np.stack([np.cos(ang), np.sin(ang)], axis=2).reshape(nbins, 6))


@nb.njit(cache=True)
def _range_max(occ, lg, T):  # type: ignore[no-untyped-def]
    """Fill the sparse table ``T[l, b] = max(occ2[b : b + 2**l])`` over ``occ`` repeated twice
    (circular ranges); ``lg[n] = floor(log2(n))``; ``T`` is (floor(log2(2 nbins)) + 1, 2 nbins)."""
    nbins = len(occ)
    T[0, :nbins] = occ
    T[0, nbins:] = occ
    for lv in range(1, T.shape[0]):
        half = 1 << (lv - 1)
        for b in range(2 * nbins - (1 << lv) + 1):
            T[lv, b] = max(T[lv - 1, b], T[lv - 1, b + half])


@nb.njit(cache=True)
def _maybe_visible(T, lg, x0, z0, ts, i, j, cx, cz):  # type: ignore[no-untyped-def]
    """False only when every point of square (j, i) (edge ``ts``) is farther from c than the occlusion
    distance of its bin (then each segment from it to c crosses a blocked tile). ``T``, ``lg``:
    :func:`_range_max` of the occlusion profile."""
    nbins = T.shape[1] // 2
    w = 2.0 * math.pi / nbins
    qx0, qz0 = x0 + i * ts, z0 + j * ts
    ex = max(qx0 - cx, 0.0, cx - qx0 - ts)
    ez = max(qz0 - cz, 0.0, cz - qz0 - ts)
    md = math.hypot(ex, ez)
    if md <= 1e-9:
        return True
    # the square's extreme directions seen from c: the corners with all others to their left
    # (resp. right); the square subtends less than pi
    lo_x, lo_z, hi_x, hi_z = 0.0, 0.0, 0.0, 0.0
    for k in range(4):
        px, pz = qx0 + (k & 1) * ts - cx, qz0 + (k >> 1) * ts - cz
        left, right = True, True
        for k2 in range(4):
            rx, rz = qx0 + (k2 & 1) * ts - cx, qz0 + (k2 >> 1) * ts - cz
            cr = px * rz - pz * rx
            left = left and cr >= 0.0
            right = right and cr <= 0.0
        if left:
            lo_x, lo_z = px, pz
        if right:
            hi_x, hi_z = px, pz
    th0 = math.atan2(lo_z, lo_x)
    th1 = math.atan2(hi_z, hi_x)
    if th1 < th0:
        th1 += 2.0 * math.pi
    b0 = int(np.floor((th0 + math.pi) / w)) - 1
    b1 = int(np.floor((th1 + math.pi) / w)) + 1
    span = b1 - b0 + 1
    if span >= nbins:
        span = nbins
    lv = lg[span]
    s0 = b0 % nbins
    return max(T[lv, s0], T[lv, s0 + span - (1 << lv)]) > md


@nb.njit(cache=True)
def _maybe_tangent(x0, z0, ts, i, j, vx, vz, ax, az, bx, bz):  # type: ignore[no-untyped-def]
    """False only when no point q of square (j, i) (edge ``ts``) passes the search's tangency
    test at corner v (neighbours a, b): all four square corners lie strictly (margin) inside one of the two
    convex wedges where the line v→q separates a and b; the test is affine in q."""
    pos_neg, neg_pos = True, True
    for a in range(2):
        for b in range(2):
            dx, dz = x0 + (i + a) * ts - vx, z0 + (j + b) * ts - vz
            s1 = dx * (az - vz) - dz * (ax - vx)
            s2 = dx * (bz - vz) - dz * (bx - vx)
            pos_neg = pos_neg and s1 >= _TAN_M and s2 <= -_TAN_M
            neg_pos = neg_pos and s1 <= -_TAN_M and s2 >= _TAN_M
    return not (pos_neg or neg_pos)


@nb.njit(cache=True)
def _flood(c, pos, prv, nxt, B, free, x0, z0, ts, m, dirs, lg, T, seen, queue, out):  # type: ignore[no-untyped-def]
    """Corner ``c``'s buckets (squares of ``m x m`` tiles, id ``row * cols + col``) that may
    see it (:func:`_maybe_visible`) and may be tangent (:func:`_maybe_tangent`), written to
    ``out`` in flood order; returns their number. Flood fill over buckets holding a free tile
    (``free``), 8-neighbours, from the 3 x 3 buckets around the corner. A segment from a point
    to the corner whose tile walk meets no blocked tile runs through free tiles only, so the
    buckets it touches are an 8-connected chain that all pass the visibility test: all are
    reached. Scratch: ``T`` (:func:`_range_max`), ``seen`` (stamped with ``c``), ``queue``."""
    nr, nc = B.shape
    br, bc = -(-nr // m), -(-nc // m)
    bs = m * ts
    cx, cz = pos[c, 0], pos[c, 1]
    _range_max(_occlusion(B, x0, z0, ts, cx, cz, dirs), lg, T)
    ic, jc = int(np.floor((cx - x0) / bs)), int(np.floor((cz - z0) / bs))
    head, tail, n_out = 0, 0, 0
    for dj in range(-1, 2):
        for di in range(-1, 2):
            i, j = ic + di, jc + dj
            if 0 <= i < bc and 0 <= j < br and free[j * bc + i]:
                seen[j * bc + i] = c
                if _maybe_visible(T, lg, x0, z0, bs, i, j, cx, cz):
                    queue[tail] = j * bc + i
                    tail += 1
    while head < tail:
        t = queue[head]
        head += 1
        j, i = t // bc, t % bc
        if _maybe_tangent(x0, z0, bs, i, j, cx, cz, prv[c, 0], prv[c, 1], nxt[c, 0], nxt[c, 1]):
            out[n_out] = t
            n_out += 1
        for dj in range(-1, 2):
            for di in range(-1, 2):
                i2, j2 = i + di, j + dj
                if 0 <= i2 < bc and 0 <= j2 < br and free[j2 * bc + i2] and seen[j2 * bc + i2] != c:
                    seen[j2 * bc + i2] = c
                    if _maybe_visible(T, lg, x0, z0, bs, i2, j2, cx, cz):
                        queue[tail] = j2 * bc + i2
                        tail += 1
    return n_out


@nb.njit(cache=True, parallel=True)
def _wave(c0, n_w, pos, prv, nxt, B, free, x0, z0, ts, m, dirs, lg, T, seen, queue, out, count):  # type: ignore[no-untyped-def]
    """:func:`_flood` for corners ``c0 .. c0 + n_w - 1`` in parallel, corner ``c0 + s`` with
    the scratch rows ``s`` (results in ``out[s, :count[s]]``)."""
    for s in nb.prange(n_w):
        count[s] = _flood(c0 + s, pos, prv, nxt, B, free, x0, z0, ts, m, dirs, lg, T[s], seen[s],
                          queue[s], out[s])


def _corner_tiles(pos: np.ndarray, prv: np.ndarray, nxt: np.ndarray, B: np.ndarray, x0: float,
                  z0: float, ts: float, m: int, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_flood` for every corner (in id order; waves of corners run in parallel, the
    result does not depend on the thread count). Returns ``(cptr (V+1,), buckets (E,))``."""
    nr, nc = B.shape
    br, bc = -(-nr // m), -(-nc // m)
    rows, cols = np.nonzero(~B)
    free = np.zeros(br * bc, np.bool_)
    free[(rows // m) * bc + cols // m] = True
    nbins = len(dirs)
    lg = np.zeros(2 * nbins + 1, np.int64)
    for v in range(2, len(lg)):
        lg[v] = lg[v // 2] + 1
    w = max(1, min(len(pos), max(32, 4 * nb.get_num_threads()), 64))
    T = np.empty((w, int(lg[2 * nbins]) + 1, 2 * nbins))
    seen = np.full((w, br * bc), -1, np.int64)
    queue = np.empty((w, br * bc), np.int64)
    out = np.empty((w, br * bc), np.int32)
    count = np.zeros(w, np.int64)
    parts: list[np.ndarray] = []
    cptr = np.zeros(len(pos) + 1, np.int64)
    for c0 in range(0, len(pos), w):
        n_w = min(w, len(pos) - c0)
        _wave(c0, n_w, pos, prv, nxt, B, free, x0, z0, ts, m, dirs, lg, T, seen, queue, out, count)
        for s in range(n_w):
            parts.append(out[s, :count[s]].copy())
        cptr[c0 + 1:c0 + n_w + 1] = count[:n_w]
    np.cumsum(cptr, out=cptr)
    return cptr, (np.concatenate(parts) if parts else np.zeros(0, np.int32))


def candidate_lists(pos: np.ndarray, prv: np.ndarray, nxt: np.ndarray, B: np.ndarray,
                    x0: float, z0: float, tile: float, m: int = BUCKET,
                    nbins: int = NBINS) -> tuple[np.ndarray, np.ndarray]:
    """CSR ``(ptr, corners)`` by bucket id (``row * ceil(cols / m) + col`` of ``m x m``
    tiles of edge ``tile`` m): each bucket's candidate corners in increasing id order."""
    n_b = -(-B.shape[0] // m) * -(-B.shape[1] // m)
    cptr, bk = _corner_tiles(pos, prv, nxt, B, x0, z0, tile, m, _directions(nbins))
    corner = np.repeat(np.arange(len(pos), dtype=np.int64), np.diff(cptr))
    order = np.argsort(bk, kind="stable")  # stable: corners stay in id order
    ptr = np.zeros(n_b + 1, np.int64)
    np.cumsum(np.bincount(bk, minlength=n_b), out=ptr[1:])
    dtype = np.uint16 if len(pos) <= np.iinfo(np.uint16).max else np.int32
    return ptr, corner[order].astype(dtype)


def landmarks(island: np.ndarray, indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray,
              k: int = LANDMARKS) -> np.ndarray:
    """(V, k) graph distances (m): column ``l`` is the distance from the ``l``-th landmark of
    each corner's island (``inf`` where unreachable or the island has fewer corners).
    Landmarks: the corner farthest from the island's first corner, then repeatedly the one
    farthest from those chosen (unreachable counts as farthest; ties: smallest id)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    n = len(island)
    out = np.full((n, k), np.inf)
    if n == 0:
        return out
    g = csr_matrix((weights, indices, indptr), shape=(n, n))
    for isl in np.unique(island):
        ids = np.flatnonzero(island == isl)
        near = dijkstra(g, indices=ids[:1])[0, ids]
        for col in range(min(k, len(ids))):
            src = int(ids[int(np.argmax(near))])
            d = dijkstra(g, indices=np.array([src]))[0]
            out[ids, col] = d[ids]
            near = d[ids] if col == 0 else np.minimum(near, d[ids])
    return out


@dataclass(frozen=True)
class Prep:
    """One layer's precomputation (see the module docstring).

    Attributes:
        m: tiles per bucket edge; ``cols``: buckets per row.
        ptr, corners: candidate lists (CSR by bucket id).
        lmd: (V, K) landmark distances (m).
    """

    m: int
    cols: int
    ptr: np.ndarray
    corners: np.ndarray
    lmd: np.ndarray

    @property
    def nbytes(self) -> int:
        """Memory held (bytes)."""
        return int(self.ptr.nbytes + self.corners.nbytes + self.lmd.nbytes)


def build(pos: np.ndarray, prv: np.ndarray, nxt: np.ndarray, island: np.ndarray,
          indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, B: np.ndarray,
          x0: float, z0: float, tile: float) -> Prep:
    """A layer's :class:`Prep` from its graph and blocked-tile mask ``B`` (tiles of ``tile`` m)."""
    ptr, corners = candidate_lists(pos, prv, nxt, B, x0, z0, tile)
    lmd = landmarks(island, indptr, indices, weights)
    return Prep(BUCKET, -(-B.shape[1] // BUCKET), ptr, corners, lmd)
