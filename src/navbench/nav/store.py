"""Save / load a built :class:`~navbench.nav.NavMesh` as ``.npz`` (format ``navbench.navmesh/1``).

The archive is written byte-reproducibly (fixed zip timestamps, sorted members) and
atomically. Loading checks every member's presence, dtype and shape and raises
:class:`~navbench.errors.FormatError` naming the file and the member.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError, FormatError
from navbench.io import ARRAY_READ_ERRORS, atomic_write_bytes
from navbench.nav.grid import Layer
from navbench.nav.polygons import Nodes
from navbench.nav.settings import NavSettings

if TYPE_CHECKING:
    from navbench.nav.navmesh import NavMesh

FORMAT = "navbench.navmesh/1"
_LAYER_FIELDS = ("height", "clear", "labels")
_NODE_FIELDS = ("pos", "prv", "nxt", "y", "island", "rings", "ring_starts")
_GRAPH_FIELDS = ("indptr", "indices", "weights")


def save(nm: NavMesh, path: str | Path) -> Path:
    """Write ``nm`` to ``path`` (.npz)."""
    meta = {
        "format": FORMAT,
        "scene_id": nm.scene_id,
        "settings": nm.settings.to_dict(),
        "layers": [[L.x0, L.z0, L.cs, L.y_lo, L.y_hi] for L in nm.layers],
    }
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


def load_parts(path: str | Path) -> tuple[NavSettings, str, list[Layer], np.ndarray,
                                          list[tuple[Nodes, np.ndarray, np.ndarray, np.ndarray]]]:
    """Read a navmesh written by :func:`save` as ``(settings, scene_id, layers, island_areas,
    [(nodes, indptr, indices, weights) per layer])``; :meth:`NavMesh.load` assembles them."""

    path = Path(path)
    try:
        z = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise FormatError(path, "<file>", "an existing .npz navmesh file", "missing") from None
    except ARRAY_READ_ERRORS as e:
        raise FormatError(path, "<file>", f"a {FORMAT} .npz archive", str(e) or "empty file") from None
    with z:
        try:
            meta = json.loads(_get(z, path, "meta", "u", 1).tobytes().decode())
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
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
    return settings, scene_id, layers, areas, graphs
