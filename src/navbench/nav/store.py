"""Save / load a built :class:`~navbench.nav.NavMesh` as ``.npz`` (format ``navbench.navmesh/1``).

The archive is written byte-reproducibly (fixed zip timestamps, sorted members) and
atomically. Loading checks every member's presence, dtype and shape and raises
:class:`~navbench.errors.FormatError` naming the file and the member.

Optional members (``save(..., queries=True)``): the one-off query precomputation of each
prepared layer (:mod:`navbench.nav.prep`), ``layer{i}/prep_ptr``, ``prep_corners``,
``prep_lmd``, with ``meta["prep"] = {"i": [m, cols]}``; a file without them loads unprepared.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError, FormatError
from navbench.io import ARRAY_READ_ERRORS, atomic_write_bytes, loads_json
from navbench.nav.grid import Layer
from navbench.nav.polygons import Nodes
from navbench.nav.prep import Prep
from navbench.nav.settings import NavSettings

if TYPE_CHECKING:
    from navbench.nav.navmesh import NavMesh

FORMAT = "navbench.navmesh/1"
_LAYER_FIELDS = ("height", "clear", "labels")
_NODE_FIELDS = ("pos", "prv", "nxt", "y", "island", "rings", "ring_starts")
_GRAPH_FIELDS = ("indptr", "indices", "weights")


_PREP_FIELDS = ("ptr", "corners", "lmd")


def save(nm: NavMesh, path: str | Path, queries: bool = False) -> Path:
    """Write ``nm`` to ``path`` (.npz); ``queries``: also the one-off query precomputation of
    every layer with at least ``query.PREP_MIN_CORNERS`` corners (built here if needed, as by
    :meth:`NavMesh.prepare_queries`; the bytes depend only on the navmesh and the flag)."""
    from navbench.nav.query import PREP_MIN_CORNERS

    prepared: dict[int, Prep] = {}
    if queries:  # the layers that qualify now, whatever was prepared before
        prepared = {li: nm._prep(li) for li, G in enumerate(nm.graphs)
                    if len(G.nodes.pos) >= PREP_MIN_CORNERS}
    meta: dict[str, object] = {
        "format": FORMAT,
        "scene_id": nm.scene_id,
        "settings": nm.settings.to_dict(),
        "layers": [[L.x0, L.z0, L.cs, L.y_lo, L.y_hi] for L in nm.layers],
    }
    if prepared:
        meta["prep"] = {str(li): [P.m, P.cols] for li, P in sorted(prepared.items())}
    arrays: dict[str, np.ndarray] = {
        "meta": np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8),
        "island_areas": np.asarray(nm._areas, dtype=np.float64),
    }
    for i, (L, G) in enumerate(zip(nm.layers, nm.graphs, strict=True)):
        for f in _LAYER_FIELDS:
            arrays[f"layer{i}/{f}"] = getattr(L, f)
        for f in _NODE_FIELDS:
            arrays[f"layer{i}/{f}"] = getattr(G.nodes, f)
        for f in _GRAPH_FIELDS:
            arrays[f"layer{i}/{f}"] = getattr(G, f)
        if i in prepared:
            for f in _PREP_FIELDS:
                arrays[f"layer{i}/prep_{f}"] = getattr(prepared[i], f)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            b = io.BytesIO()
            np.lib.format.write_array(b, np.ascontiguousarray(arrays[name]), allow_pickle=False)
            zf.writestr(info, b.getvalue())
    return atomic_write_bytes(path, buf.getvalue())


def _get(z: np.lib.npyio.NpzFile, path: Path, name: str, kind: str, ndim: int) -> np.ndarray:
    if name not in z.files:
        raise FormatError(path, name, f"a member '{name}' ({FORMAT})")
    try:
        a = z[name]
    except ValueError as e:
        raise FormatError(path, name, "a plain numpy array (no pickles)", str(e)) from None
    except ARRAY_READ_ERRORS as e:  # damaged member (bytes, zip entry or .npy header)
        raise FormatError(path, name, "an undamaged archive member", str(e) or type(e).__name__) from None
    if a.dtype.kind not in kind or a.ndim != ndim:
        raise FormatError(path, name, f"a {ndim}-d array of kind {kind!r}", f"{a.dtype} {a.shape}")
    return a


def _prep(z: np.lib.npyio.NpzFile, path: Path, i: int, spec: object, L: Layer, n: int) -> Prep:
    """Layer ``i``'s optional precomputation (``spec`` = ``meta["prep"][str(i)]``), checked
    against the layer's grid and its ``n`` corners."""
    from navbench.nav.visibility import TILE

    p = f"layer{i}/prep_"
    if not (isinstance(spec, list) and len(spec) == 2 and all(type(v) is int for v in spec)):
        raise FormatError(path, f"meta.prep.{i}", "[m, cols] (two integers)", spec)
    m, cols = spec
    tr, tc = -(-L.height.shape[0] // TILE), -(-L.height.shape[1] // TILE)
    if m < 1 or cols != -(-tc // m):
        raise FormatError(path, f"meta.prep.{i}", f"m >= 1 and cols = ceil({tc} / m)", spec)
    ptr = _get(z, path, p + "ptr", "i", 1).astype(np.int64)
    corners = _get(z, path, p + "corners", "iu", 1)
    lmd = _get(z, path, p + "lmd", "f", 2).astype(np.float64)
    if (len(ptr) != -(-tr // m) * cols + 1 or ptr[0] != 0 or ptr[-1] != len(corners)
            or (np.diff(ptr) < 0).any()):
        raise FormatError(path, p + "ptr", f"{-(-tr // m) * cols + 1} non-decreasing offsets "
                          f"from 0 to {len(corners)}", f"{len(ptr)} values")
    if len(corners) and (int(corners.min()) < 0 or int(corners.max()) >= n):
        raise FormatError(path, p + "corners", f"corner ids in [0, {n})",
                          (int(corners.min()), int(corners.max())))
    if lmd.shape[0] != n or lmd.shape[1] < 1 or not (lmd >= 0).all():
        raise FormatError(path, p + "lmd", f"({n}, K) graph distances >= 0 (inf: unreachable)",
                          f"{lmd.shape}, min {lmd.min() if lmd.size else None}")
    dtype = np.uint16 if n <= np.iinfo(np.uint16).max else np.int32
    return Prep(m, cols, ptr, corners.astype(dtype), lmd)


def load_parts(path: str | Path) -> tuple[NavSettings, str, list[Layer], np.ndarray,
                                          list[tuple[Nodes, np.ndarray, np.ndarray, np.ndarray]],
                                          dict[int, Prep]]:
    """Read a navmesh written by :func:`save` as ``(settings, scene_id, layers, island_areas,
    [(nodes, indptr, indices, weights) per layer], {layer: precomputation})``;
    :meth:`NavMesh.load` assembles them."""

    path = Path(path)
    try:
        z = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise FormatError(path, "<file>", "an existing .npz navmesh file", "missing") from None
    except ARRAY_READ_ERRORS as e:
        raise FormatError(path, "<file>", f"a {FORMAT} .npz archive", str(e) or "empty file") from None
    with z:
        try:
            meta = loads_json(_get(z, path, "meta", "u", 1).tobytes().decode())
        except ValueError as e:  # not UTF-8, invalid, or past the JSON limits
            raise FormatError(path, "meta", "UTF-8 JSON", str(e)) from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            got = meta.get("format") if isinstance(meta, dict) else meta
            raise FormatError(path, "meta.format", repr(FORMAT), got)
        try:
            settings = NavSettings.from_dict(meta["settings"])
            scene_id = str(meta["scene_id"])
            layer_meta = [[float(v) for v in lm] for lm in meta["layers"]]
        except (KeyError, TypeError, ValueError, ConfigError) as e:
            raise FormatError(path, "meta", "settings, scene_id and layers", str(e)) from None
        areas = _get(z, path, "island_areas", "f", 1)
        layers, graphs = [], []
        for i, lm in enumerate(layer_meta):
            if len(lm) != 5:
                raise FormatError(path, f"meta.layers[{i}]", "[x0, z0, cs, y_lo, y_hi]", lm)
            p = f"layer{i}/"
            h = _get(z, path, p + "height", "f", 2)
            c = _get(z, path, p + "clear", "f", 2)
            lab = _get(z, path, p + "labels", "i", 2)
            if not (h.shape == c.shape == lab.shape):
                raise FormatError(path, p + "labels", "height/clear/labels of one shape",
                                  (h.shape, c.shape, lab.shape))
            if lab.size and lab.max() >= len(areas):
                raise FormatError(path, p + "labels", f"island ids < {len(areas)}", int(lab.max()))
            layers.append(Layer(lm[0], lm[1], lm[2], h.astype(np.float32), c.astype(np.float32),
                                lab.astype(np.int32), lm[3], lm[4]))
            two = {f: _get(z, path, p + f, "f", 2) for f in ("pos", "prv", "nxt", "rings")}
            nodes = Nodes(two["pos"], two["prv"], two["nxt"], _get(z, path, p + "y", "f", 1),
                          _get(z, path, p + "island", "i", 1).astype(np.int64), two["rings"],
                          _get(z, path, p + "ring_starts", "i", 1).astype(np.int64))
            n = len(nodes.pos)
            indptr = _get(z, path, p + "indptr", "i", 1).astype(np.int64)
            indices = _get(z, path, p + "indices", "i", 1).astype(np.int64)
            weights = _get(z, path, p + "weights", "f", 1).astype(np.float64)
            if (len(indptr) != n + 1 or len(indices) != len(weights) or indptr[-1] != len(indices)
                    or (len(indices) and (indices.min() < 0 or indices.max() >= n))):
                raise FormatError(path, p + "indptr", "a consistent CSR graph over the nodes")
            graphs.append((nodes, indptr, indices, weights))
        spec = meta.get("prep", {})
        if not (isinstance(spec, dict) and all(k.isdigit() and int(k) < len(layers) for k in spec)):
            raise FormatError(path, "meta.prep", f"{{layer id < {len(layers)}: [m, cols]}}", spec)
        preps = {int(k): _prep(z, path, int(k), v, layers[int(k)], len(graphs[int(k)][0].pos))
                 for k, v in sorted(spec.items())}
    return settings, scene_id, layers, areas, graphs, preps
