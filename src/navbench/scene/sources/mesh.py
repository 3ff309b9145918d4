"""Static scene geometry from mesh files (GLB / glTF / OBJ / PLY) through trimesh.

The mesh becomes one :class:`~navbench.scene.model.Mesh` (``kind="mesh"``) in the Habitat frame,
so the navmesh builder and the simulator work on scan-based scenes. Reading and checking one file
is :mod:`navbench.scene.meshfile` (re-exported here); per-format up-axis defaults are
:data:`DEFAULT_UP`.
"""

from __future__ import annotations

from pathlib import Path

from navbench.scene.meshfile import (
    MAX_EXTENT_M,
    MAX_TRIANGLES,
    MESH_SUFFIXES,
    MIN_EXTENT_M,
    UpAxis,
    check_mesh,
    check_up,
    load_mesh,
    load_trimesh,
    sha256_file,
    to_habitat,
)
from navbench.scene.model import Scene

__all__ = ["DEFAULT_UP", "MAX_EXTENT_M", "MAX_TRIANGLES", "MESH_SUFFIXES", "MIN_EXTENT_M", "UpAxis",
           "check_mesh", "check_up", "load_mesh", "load_mesh_scene", "load_trimesh", "sha256_file",
           "to_habitat"]

#: Default up axis of mesh files per source format.
DEFAULT_UP: dict[str, UpAxis] = {
    "procthor": "y",
    "habitat": "y",
    "mp3d": "z",
    "hm3d": "z",
    "gibson": "z",
}


def load_mesh_scene(path: Path, up: str | None = None, scene_id: str | None = None) -> Scene:
    """A mesh file (GLB / glTF / OBJ+MTL / PLY) as a scene of one static mesh, kept as a side
    file (``scene.json`` references it with its relative path and sha256) and drawn with its
    textures, vertex colours and materials by the visual layer (``visual.imported``).

    ``up`` defaults to ``"y"`` (glTF, navbench / ReplicaCAD exports); pass ``"z"`` for
    Matterport3D / HM3D / Gibson meshes.
    """
    mesh = load_mesh(path, check_up(up or "y"), mesh_id="mesh0", kind="mesh", label="mesh")
    sid = scene_id or Path(path).name.split(".")[0]
    return Scene(sid, "indoor", "mesh", meshes=(mesh,),
                 meta={"source_file": Path(path).name, "converter_version": "mesh/1", "approximations": []})
