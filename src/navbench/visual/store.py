"""On-disk cache of whole :class:`~navbench.visual.build.SceneVisuals` (warm builds load in
milliseconds): one ``.npz`` per content hash of (scene JSON, seed, options, visual and texture
versions) in the texture cache folder; arrays only (no pickle), written to a temporary name and
renamed, so concurrent processes are safe and a torn file is simply rebuilt."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.io import ARRAY_READ_ERRORS, atomic_write_bytes, loads_json
from navbench.visual.materials import Material
from navbench.visual.mesh import Part

if TYPE_CHECKING:  # build.py imports this module; the class is imported for types only
    from navbench.visual.build import SceneVisuals

#: What reading a cache file may raise (it is then rebuilt).
_CACHE_ERRORS: tuple[type[BaseException], ...] = (KeyError, IndexError, TypeError, AttributeError,
                                                  *ARRAY_READ_ERRORS)


def visuals_key(scene_json: str, *parts: object) -> str:
    """Content hash of a scene and the build options."""
    h = hashlib.blake2b(scene_json.encode(), digest_size=12)
    for p in parts:
        h.update(b"\x1f" + str(p).encode())
    return h.hexdigest()


def save_visuals(path: Path, vis: SceneVisuals) -> None:
    """Write ``vis`` (a SceneVisuals) to ``path`` atomically."""
    arrays: dict[str, np.ndarray] = {}
    keys = sorted(vis.meshes)
    ps = [vis.meshes[k] for k in keys]  # one array per field (npz pays ~2 ms per member)
    arrays["v"] = np.concatenate([p.vertices for p in ps]) if ps else np.zeros((0, 3))
    arrays["f"] = np.concatenate([p.faces for p in ps]) if ps else np.zeros((0, 3), np.int32)
    arrays["u"] = np.concatenate([p.uv for p in ps]) if ps else np.zeros((0, 2))
    arrays["n"] = np.array([[len(p.vertices), len(p.faces)] for p in ps], np.int64).reshape(-1, 2)
    tex = sorted(vis.textures)
    for i, k in enumerate(tex):
        arrays[f"t{i}"] = vis.textures[k]
    meta = {
        "meshes": [[k, vis.meshes[k].material] for k in keys], "textures": tex,
        "geoms": [dataclasses.astuple(g) for g in vis.geoms],
        "materials": {k: dataclasses.astuple(m) for k, m in vis.materials.items()},
        "lights": [dataclasses.astuple(lt) for lt in vis.lights], "tiles": vis.tiles,
        "outdoor": vis.outdoor, "box_materials": vis.box_materials, "uniform": vis.uniform,
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]  # numpy's stub reads **kwds as allow_pickle
    atomic_write_bytes(path, buf.getvalue())


def load_visuals(path: Path, cls: type[SceneVisuals], geom_cls: type, light_cls: type
                 ) -> SceneVisuals | None:
    """Read a cached SceneVisuals (``None`` if missing or unreadable)."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = loads_json(bytes(z["meta"]).decode())
            v, f, u, n = z["v"], z["f"], z["u"], z["n"]
            ov = np.concatenate([[0], np.cumsum(n[:, 0])])
            of = np.concatenate([[0], np.cumsum(n[:, 1])])
            meshes = {k: Part(v[ov[i]:ov[i + 1]], f[of[i]:of[i + 1]], u[ov[i]:ov[i + 1]], mat)
                      for i, (k, mat) in enumerate(meta["meshes"])}
            textures = {k: z[f"t{i}"] for i, k in enumerate(meta["textures"])}
        geoms = [geom_cls(g[0], g[1], g[2], tuple(g[3]), *g[4:]) for g in meta["geoms"]]
        mats = {k: Material(tuple(m[0]), *m[1:]) for k, m in meta["materials"].items()}
        lights = [light_cls(lt[0], tuple(lt[1]), tuple(lt[2]), *lt[3:]) for lt in meta["lights"]]
        return cls(meshes=meshes, geoms=geoms, materials=mats, textures=textures, tiles=meta["tiles"],
                   lights=lights, outdoor=meta["outdoor"], box_materials=meta["box_materials"],
                   uniform=meta["uniform"])
    except _CACHE_ERRORS:  # an unreadable (or tampered) cache is rebuilt
        return None
