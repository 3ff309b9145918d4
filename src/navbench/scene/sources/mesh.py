"""Static scene geometry from mesh files (GLB / glTF / OBJ / PLY) through trimesh.

The mesh becomes one :class:`~navbench.scene.model.Mesh` (``kind="mesh"``) in the Habitat frame,
so the navmesh builder and the simulator work on scan-based scenes.

Up axis: ``up="y"`` keeps the coordinates (glTF convention; ReplicaCAD / HSSD assets);
``up="z"`` converts a Z-up file with (x, y, z) → (x, z, −y) (Matterport3D, HM3D and Gibson
meshes, which habitat-sim's dataset configs declare ``"up": [0, 0, 1]``).
Per-format defaults are in :data:`DEFAULT_UP`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np

from navbench.errors import ConfigError
from navbench.scene.model import Mesh
from navbench.scene.sources._common import fail

UpAxis = Literal["y", "z"]

#: Default up axis of mesh files per source format.
DEFAULT_UP: dict[str, UpAxis] = {
    "procthor": "y",
    "habitat": "y",
    "mp3d": "z",
    "hm3d": "z",
    "gibson": "z",
}

MESH_SUFFIXES = (".glb", ".gltf", ".obj", ".ply", ".stl", ".off")


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
    faces = np.asarray(tm.faces, dtype=np.int64)
    return Mesh(mesh_id, kind, v, faces, label, ref)
