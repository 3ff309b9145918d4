"""Reading one mesh file (GLB / glTF / OBJ / PLY / STL / OFF) into a Habitat-frame
:class:`~navbench.scene.model.Mesh`, with the checks every caller needs (triangle budget, finite
vertices, degenerate triangles, plausible extent) and the sha256 of mesh side files.

Used by ``scene.io`` (side files referenced from ``scene.json``) and by the importers in
``scene.sources``; it imports neither.

Up axis: ``up="y"`` keeps the coordinates (glTF convention; ReplicaCAD / HSSD assets);
``up="z"`` converts a Z-up file with (x, y, z) → (x, z, −y) (Matterport3D, HM3D and Gibson
meshes, which habitat-sim's dataset configs declare ``"up": [0, 0, 1]``).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any, Literal

import numpy as np

from navbench.errors import ConfigError, SceneFormatError
from navbench.scene.model import Mesh

UpAxis = Literal["y", "z"]

MESH_SUFFIXES = (".glb", ".gltf", ".obj", ".ply", ".stl", ".off")
#: Refused above this many triangles (decimate first, e.g. Blender's Decimate modifier).
MAX_TRIANGLES = 10_000_000
#: Accepted scene extent (largest side, metres after conversion): outside it the units are wrong.
MIN_EXTENT_M, MAX_EXTENT_M = 0.05, 20_000.0

log = logging.getLogger(__name__)


def fail(file: str | Path, field: str, expected: str, got: object = None) -> SceneFormatError:
    """A :class:`SceneFormatError` for ``file`` (use as ``raise fail(...)``)."""
    return SceneFormatError(Path(file).name if isinstance(file, Path) else file, field, expected, got)


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_mesh(path: str | Path, vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Validate a loaded mesh; returns ``faces`` without degenerate (repeated-index or
    zero-area) triangles, logging how many were dropped.

    Raises a :class:`SceneFormatError` naming the file for 10M+ triangles, non-finite
    vertices, nothing left after dropping degenerate triangles, or an absurd extent.
    """
    name = Path(path).name
    if len(faces) > MAX_TRIANGLES:
        raise fail(path, "<mesh>", f"at most {MAX_TRIANGLES:,} triangles (decimate the mesh first)",
                   f"{len(faces):,}")
    if not np.isfinite(vertices).all():
        raise fail(path, "<mesh>.vertices", "finite coordinates", "NaN or infinity")
    f = np.asarray(faces, dtype=np.int64)
    if f.ndim != 2 or f.shape[1] != 3 or (len(f) and not 0 <= f.min() <= f.max() < len(vertices)):
        raise fail(path, "<mesh>.faces", f"triangles indexing the {len(vertices)} vertices",
                   f"shape {f.shape}" + (f", indices {f.min()}..{f.max()}" if f.size else ""))
    t = vertices[f]
    area2 = np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1)
    ok = (f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2]) & (area2 > 1e-12)
    if not ok.all():
        log.warning("%s: dropped %d degenerate triangles of %d", name, int((~ok).sum()), len(f))
        f = f[ok]
    if len(f) == 0:
        raise fail(path, "<mesh>", "at least one triangle with a non-zero area", "only degenerate ones")
    used = vertices[np.unique(f)]
    ext = float((used.max(axis=0) - used.min(axis=0)).max())
    if not MIN_EXTENT_M <= ext <= MAX_EXTENT_M:
        raise fail(path, "<mesh>", f"a scene {MIN_EXTENT_M}-{MAX_EXTENT_M:g} m across in metres "
                   "(convert the file to metres, e.g. scale 0.01 for centimetres)", f"{ext:g} m")
    return f


def check_up(up: str) -> UpAxis:
    """Validate an up-axis option (``"y"`` or ``"z"``)."""
    if up not in ("y", "z"):
        raise ConfigError(f"--up: expected 'y' or 'z', got {up!r}")
    return up  # type: ignore[return-value]


def to_habitat(vertices: np.ndarray, up: UpAxis) -> np.ndarray:
    """(N, 3) vertices from a ``up``-axis-up file → the Habitat frame (float64 copy)."""
    v = np.asarray(vertices, dtype=np.float64)
    if up == "y":
        return v.copy()
    return np.column_stack([v[:, 0], v[:, 2], -v[:, 1]])


def load_trimesh(path: str | Path) -> Any:
    """Load a mesh file with trimesh as one ``trimesh.Trimesh`` (node transforms applied).

    Raises a :class:`SceneFormatError` naming the file when it is missing, truncated or empty.
    """
    import trimesh

    path = Path(path)
    if not path.is_file():
        raise fail(path, "<file>", "an existing mesh file", str(path))
    if path.suffix.lower() not in MESH_SUFFIXES:
        raise fail(path, "<file>", f"a mesh file ({', '.join(MESH_SUFFIXES)})", path.suffix)
    try:
        loaded = trimesh.load(str(path), force="scene", process=False)
    except Exception as e:  # trimesh raises many kinds on broken files
        raise fail(path, "<mesh>", "a readable mesh", f"{type(e).__name__}: {e}") from e
    geoms = [g for g in loaded.dump() if hasattr(g, "faces") and len(g.faces)]
    if not geoms:
        raise fail(path, "<mesh>", "at least one triangle", "no triangles")
    return geoms[0] if len(geoms) == 1 else trimesh.util.concatenate(geoms)


def load_mesh(path: str | Path, up: UpAxis = "y", *, mesh_id: str = "mesh0",
              kind: str = "mesh", label: str = "", ref: str | None = None,
              transform: np.ndarray | None = None) -> Mesh:
    """A mesh file as one Habitat-frame :class:`Mesh`.

    Args:
        path: GLB / glTF / OBJ / PLY / STL / OFF file.
        up: up axis of the file (see module docstring).
        mesh_id, kind, label, ref: fields of the resulting :class:`Mesh`.
        transform: optional 4x4 matrix applied after the up-axis conversion (Habitat frame).
    """
    tm = load_trimesh(path)
    v = to_habitat(np.asarray(tm.vertices), check_up(up))
    if transform is not None:
        t = np.asarray(transform, dtype=float)
        v = v @ t[:3, :3].T + t[:3, 3]
    faces = check_mesh(path, v, np.asarray(tm.faces, dtype=np.int64))
    if transform is not None:  # arrays no longer match the file: keep them inline
        return Mesh(mesh_id, kind, v, faces, label, ref)
    return Mesh(mesh_id, kind, v, faces, label, ref, file=str(Path(path).resolve()),
                sha256=sha256_file(path), up=up)
