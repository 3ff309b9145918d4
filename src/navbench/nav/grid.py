"""The 2.5D walkable grid: rasterise surfaces, headroom/step/slope filters, clearance, islands.

A scene is cut into *layers* (floor slices): walkable candidate heights are clustered, a new
layer starting wherever two consecutive heights are more than ``agent_height`` apart. Within a
layer every cell keeps the highest walkable candidate top (so a layer holds one surface per
column: steps, curbs and stairs are right; two storeys joined by a continuous staircase merge
into one layer whose upper floor hides the lower one — a documented limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from navbench.geometry import box_corners_xz
from navbench.nav import raster
from navbench.nav.settings import NavSettings
from navbench.scene.model import Scene


@dataclass
class Layer:
    """One floor slice of the navigation grid.

    Attributes:
        x0, z0: world XZ of the grid's lower corner (m); cell (r, c) is centred at
            ``(x0 + (c + .5) cs, z0 + (r + .5) cs)``.
        cs: cell size (m).
        height: surface height per cell (float32, NaN where there is no surface).
        clear: clearance (float32, m): distance from the cell centre to the nearest
            non-walkable cell boundary (negative on non-walkable cells).
        labels: global island id per navigable cell (int32, -1 elsewhere).
        y_lo, y_hi: range of walkable surface heights in this layer (m).
    """

    x0: float
    z0: float
    cs: float
    height: np.ndarray
    clear: np.ndarray
    labels: np.ndarray
    y_lo: float
    y_hi: float


@dataclass
class _Geometry:
    """Scene geometry in raster-ready arrays."""

    tops: list[tuple[np.ndarray, np.ndarray, float, bool]]  # (pts, starts, y, walkable)
    blocks: list[tuple[np.ndarray, np.ndarray, float, float]]  # (pts, starts, ylo, yhi)
    V: np.ndarray
    F: np.ndarray
    walk_tri: np.ndarray
    tri_lo: np.ndarray
    tri_hi: np.ndarray


def _rings(*rings: object) -> tuple[np.ndarray, np.ndarray]:
    arrs = [np.asarray(r, dtype=np.float64).reshape(-1, 2) for r in rings]
    arrs = [a for a in arrs if len(a) >= 3]
    starts = np.zeros(len(arrs) + 1, np.int64)
    starts[1:] = np.cumsum([len(a) for a in arrs])
    pts = np.concatenate(arrs) if arrs else np.zeros((0, 2))
    return pts, starts


def _collect(scene: Scene, s: NavSettings) -> _Geometry:
    tops: list[tuple[np.ndarray, np.ndarray, float, bool]] = []
    blocks: list[tuple[np.ndarray, np.ndarray, float, float]] = []
    for b in scene.boxes:
        pts, starts = _rings(box_corners_xz(b.center, b.size, b.yaw))
        ylo = float(b.center[1]) - float(b.size[1]) / 2
        yhi = float(b.center[1]) + float(b.size[1]) / 2
        blocks.append((pts, starts, ylo, yhi))
        if b.kind in s.walkable_box_kinds:
            tops.append((pts, starts, yhi, True))
    bad_tops = []
    for sf in scene.surfaces:
        pts, starts = _rings(sf.polygon, *sf.holes)
        if len(starts) < 2:
            continue
        if sf.cls in s.walkable_surface_classes:
            tops.append((pts, starts, float(sf.y), True))
        else:
            bad_tops.append((pts, starts, float(sf.y), False))
    tops.extend(bad_tops)  # non-walkable surfaces win ties, so they go last
    vs, fs, off = [], [], 0
    for m in scene.meshes:
        v = np.asarray(m.vertices, dtype=np.float64).reshape(-1, 3)
        f = np.asarray(m.faces, dtype=np.int64).reshape(-1, 3)
        vs.append(v)
        fs.append(f + off)
        off += len(v)
    V = np.concatenate(vs) if vs else np.zeros((0, 3))
    F = np.concatenate(fs) if fs else np.zeros((0, 3), np.int64)
    if len(F):
        n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
        norm = np.linalg.norm(n, axis=1)
        ny = np.where(norm > 0, np.abs(n[:, 1]) / np.maximum(norm, 1e-300), 0.0)
        walk_tri = ny >= math.cos(math.radians(s.max_slope_deg)) - 1e-9
        ys = V[F][:, :, 1]
        tri_lo, tri_hi = ys.min(axis=1), ys.max(axis=1)
    else:
        walk_tri = np.zeros(0, bool)
        tri_lo = tri_hi = np.zeros(0)
    return _Geometry(tops, blocks, V, F, walk_tri, tri_lo, tri_hi)


def _slices(g: _Geometry, gap: float) -> list[tuple[float, float]]:
    """Cluster walkable heights into [lo, hi] slices separated by more than ``gap``."""
    ys = [y for _, _, y, w in g.tops if w]
    ys += list(g.tri_lo[g.walk_tri]) + list(g.tri_hi[g.walk_tri])
    if not ys:
        return []
    ys_sorted = np.sort(np.asarray(ys, dtype=float))
    out = []
    lo = prev = float(ys_sorted[0])
    for y in ys_sorted[1:]:
        if y - prev > gap:
            out.append((lo, prev))
            lo = float(y)
        prev = float(y)
    out.append((lo, prev))
    return out


def _clearance(walk: np.ndarray, cs: float) -> np.ndarray:
    """Distance (m, float32) from each walkable cell centre to the nearest non-walkable cell
    *square* (its nearest centre found by the EDT); ``-cs/2`` on non-walkable cells."""
    if walk.all():
        return np.full(walk.shape, np.float32(1e9))
    idx = ndimage.distance_transform_edt(walk, return_distances=False, return_indices=True)
    rows = np.arange(walk.shape[0], dtype=np.float32)[:, None]
    cols = np.arange(walk.shape[1], dtype=np.float32)[None, :]
    dz = np.maximum(np.abs(idx[0] - rows) - 0.5, 0)
    dx = np.maximum(np.abs(idx[1] - cols) - 0.5, 0)
    del idx
    clear: np.ndarray = np.hypot(dx, dz).astype(np.float32) * np.float32(cs)
    clear[~walk] = -0.5 * cs
    return clear


def _clearance_exact(walk: np.ndarray, other: np.ndarray, blocked: np.ndarray,
                     blocking: list[tuple[np.ndarray, np.ndarray, float, float]], H: np.ndarray,
                     s: NavSettings, x0: float, z0: float) -> np.ndarray:
    """Clearance (m, float32) of each walkable cell centre: the smaller of the distance to the
    nearest ``other`` non-walkable cell square (no surface, ledge, mesh obstacle, cells of
    partially blocking boxes) and the distance to the blocked cells. Near the ``blocking``
    boxes (those blocking every cell they overlap; within ``agent_radius + 2 cs``) that
    distance is *exact* (to their footprints, where they meet the cell's headroom); farther,
    it is the distance to the conservatively blocked squares (a lower bound), at least that
    reach. Exact distances keep doors and gaps as wide as they are although ``blocked`` marks
    every cell a footprint overlaps; ``-cs/2`` on non-walkable cells."""
    cs = s.cell_size
    clear = _clearance(~other, cs)
    reach = s.agent_radius + 2 * cs
    dex = np.full(walk.shape, np.inf)
    for pts, starts, ylo, yhi in blocking:
        raster.obstacle_distance(dex, H, pts, starts, ylo, yhi, s.max_climb, s.agent_height,
                                 reach, x0, z0, cs)
    lower = np.maximum(_clearance(~blocked, cs), np.float32(reach))
    clear = np.minimum(clear, np.where(dex <= reach, dex, lower).astype(np.float32))
    clear[~walk] = -0.5 * cs
    return clear


def build_layers(scene: Scene, s: NavSettings) -> tuple[list[Layer], np.ndarray]:
    """Rasterise ``scene`` into layers; returns ``(layers, island_areas)`` (m², largest first)."""
    g = _collect(scene, s)
    cs = s.cell_size
    (xmin, zmin), (xmax, zmax) = scene.bounds_xz
    pad = s.agent_radius + 3 * cs
    x0 = math.floor((xmin - pad) / cs) * cs
    z0 = math.floor((zmin - pad) / cs) * cs
    ncols = math.ceil((xmax + pad - x0) / cs)
    nrows = math.ceil((zmax + pad - z0) / cs)
    eight = np.ones((3, 3), bool)
    raw: list[tuple[Layer, np.ndarray, np.ndarray]] = []
    for lo, hi in _slices(g, s.agent_height):
        H = np.full((nrows, ncols), np.nan, np.float32)
        bad = np.zeros((nrows, ncols), bool)
        for pts, starts, y, walkable in g.tops:
            if walkable and not lo - 1e-6 <= y <= hi + 1e-6:
                continue
            if not walkable and not lo - s.agent_height <= y <= hi + s.max_climb:
                continue
            raster.fill_top(H, bad, pts, starts, y, walkable, x0, z0, cs)
        if len(g.F):
            use = g.walk_tri & (g.tri_hi >= lo - 1e-6) & (g.tri_lo <= hi + 1e-6)
            raster.mesh_top(H, bad, g.V, g.F, use, lo - 1e-6, hi + 1e-6, x0, z0, cs)
        blocked = np.zeros((nrows, ncols), bool)
        blocking = []  # boxes that block every cell they overlap: exact distances
        partial = np.zeros((nrows, ncols), bool)  # cells blocked by the other boxes
        for pts, starts, ylo, yhi in g.blocks:
            n_blocked, n_missed = raster.fill_block(blocked, H, pts, starts, ylo, yhi,
                                                    s.max_climb, s.agent_height, x0, z0, cs)
            if n_blocked and not n_missed:
                blocking.append((pts, starts, ylo, yhi))
            elif n_blocked:
                raster.fill_block(partial, H, pts, starts, ylo, yhi, s.max_climb,
                                  s.agent_height, x0, z0, cs)
        mesh_blocked = np.zeros((nrows, ncols), bool)
        if len(g.F):
            raster.mesh_block(mesh_blocked, H, g.V, g.F, ~g.walk_tri, s.max_climb,
                              s.agent_height, x0, z0, cs)
        walk = np.isfinite(H) & ~bad & ~blocked & ~mesh_blocked
        other = ~(np.isfinite(H) & ~bad) | mesh_blocked
        other |= raster.ledge_mask(H, walk, s.max_climb)
        walk &= ~other
        clear = _clearance_exact(walk, other | partial, blocked, blocking, H, s, x0, z0)
        nav = clear >= s.agent_radius - 1e-6
        local, n = ndimage.label(nav, structure=eight)
        areas = np.bincount(local.ravel(), minlength=n + 1)[1:] * cs * cs
        layer = Layer(x0, z0, cs, H, clear, local.astype(np.int32), lo, hi)
        raw.append((layer, areas, np.arange(1, n + 1)))
    # global island ids: all layers' components sorted by area (largest first), ties by order
    entries = [(-float(a), li, int(lab)) for li, (_, areas, labs) in enumerate(raw)
               for a, lab in zip(areas, labs, strict=True)]
    entries.sort()
    island_areas = np.array([-e[0] for e in entries], dtype=np.float64)
    luts = [np.full(len(labs) + 1, -1, np.int32) for _, _, labs in raw]
    for gid, (_, li, lab) in enumerate(entries):
        luts[li][lab] = gid
    layers = []
    for (layer, _, _), lut in zip(raw, luts, strict=True):
        layer.labels = lut[layer.labels]
        layers.append(layer)
    return layers, island_areas
