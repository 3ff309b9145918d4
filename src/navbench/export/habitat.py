"""Export scenes as a habitat-sim scene dataset (textured GLB stages + JSON configs).

Layout written by :func:`export_habitat` (``OUT/``)::

    navbench.scene_dataset_config.json     habitat-sim scene dataset: stages + scene instances
    stages/<scene_id>.glb                  textured glTF 2.0 binary (Y up, metres, Habitat frame)
    stages/<scene_id>.stage_config.json    render_asset, collision_asset, up, front, units_to_meters
    scenes/<scene_id>.scene_instance.json  the stage alone (no objects: they are in the stage mesh)
    navbench.export.json                   scene ids, GLB sha256 and sizes (read by ``dataset build``)

The GLB holds the visual layer (``navbench.visual.build_visuals``: meshes, materials, PNG
textures; one glTF material per visual material, all geoms of a material merged into one
primitive) plus the self-drawn boxes (buildings, sidewalks, slabs) and any scene triangle
meshes. The far level-of-detail copies of outdoor objects are left out. habitat-sim uses the
render asset for collision and navmesh baking when no other is given. The whole folder is
built in a temporary sibling and renamed: never half-written.
"""

from __future__ import annotations

import hashlib
import math
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError
from navbench.export.gltf import GltfMaterial, Primitive, glb_bytes
from navbench.geometry import quat4
from navbench.io import publish_dir, read_json, write_json
from navbench.jsontypes import JSONObject
from navbench.scene.model import Box, Scene

if TYPE_CHECKING:  # the visual layer is imported lazily (build_visuals)
    from navbench.visual.build import SceneVisuals

DATASET_CONFIG = "navbench.scene_dataset_config.json"
EXPORT_INDEX = "navbench.export.json"
EXPORT_SCHEMA = "navbench.habitat_export/1"
#: Material of scene triangle meshes that carry no appearance of their own.
PLAIN_MESH_RGBA = (0.72, 0.72, 0.70, 1.0)


def _yaw_matrix(yaw: float) -> np.ndarray:
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def box_triangles(b: Box, tile: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A box as 24 vertices / 12 triangles (outward CCW) with per-metre UVs (``tile`` m per repeat)."""
    h = np.asarray(b.size, float) / 2.0
    verts: list[np.ndarray] = []
    uvs: list[np.ndarray] = []
    faces: list[list[int]] = []
    for axis in range(3):
        for sign in (1.0, -1.0):
            u_ax, v_ax = [a for a in range(3) if a != axis]
            quad = []
            for du, dv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                p = np.zeros(3)
                p[axis], p[u_ax], p[v_ax] = sign * h[axis], du * h[u_ax], dv * h[v_ax]
                quad.append(p)
            q = np.array(quad)
            n0 = len(verts) * 4
            tri = [[n0, n0 + 1, n0 + 2], [n0, n0 + 2, n0 + 3]]
            normal = np.cross(q[1] - q[0], q[2] - q[0])
            if normal[axis] * sign < 0:
                tri = [t[::-1] for t in tri]
            verts.append(q)
            uvs.append(np.column_stack([q[:, u_ax], q[:, v_ax]]) / tile)
            faces.extend(tri)
    v = np.vstack(verts) @ _yaw_matrix(b.yaw).T + np.asarray(b.center, float)
    return v, np.array(faces, np.int64), np.vstack(uvs)


def scene_primitives(scene: Scene, vis: SceneVisuals) -> tuple[list[Primitive], list[GltfMaterial]]:
    """The GLB content of a scene: one primitive per material (world frame, metres)."""
    groups: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]] = {}
    for g in vis.geoms:
        if g.layer in ("far", "tile_far"):
            continue
        p = vis.meshes[g.mesh]
        v = p.vertices @ _yaw_matrix(g.yaw).T + np.asarray(g.pos, float)
        groups.setdefault(g.material, []).append((v, p.faces, p.uv))
    boxes = {b.id: b for b in scene.boxes}
    for box_id, key in vis.box_materials.items():
        b = boxes.get(box_id)
        if b is None:
            continue
        mat = f"{key}:u"
        groups.setdefault(mat, []).append(box_triangles(b, vis.uniform.get(mat, 1.0)))
    for mesh in scene.meshes:
        if mesh.file is not None:  # drawn by the visual layer with the file's own materials
            continue
        groups.setdefault("navbench:mesh", []).append(
            (np.asarray(mesh.vertices, float), np.asarray(mesh.faces), None))
    prims: list[Primitive] = []
    mats: list[GltfMaterial] = []
    for key in sorted(groups):
        parts = groups[key]
        base = 0
        vs: list[np.ndarray] = []
        fs: list[np.ndarray] = []
        uvs: list[np.ndarray] = []
        has_uv = all(uv is not None for _, _, uv in parts)
        for v, f, uv in parts:
            vs.append(v)
            fs.append(np.asarray(f, np.int64) + base)
            if has_uv and uv is not None:
                uvs.append(uv)
            base += len(v)
        m = vis.materials.get(key)
        if m is None:
            mats.append(GltfMaterial(key, PLAIN_MESH_RGBA))
        else:
            tex = vis.textures.get(m.texture) if m.texture else None
            mats.append(GltfMaterial(key, quat4(m.rgba), tex if has_uv else None,
                                     roughness=float(np.clip(1.0 - m.shininess, 0.0, 1.0)),
                                     emission=float(m.emission)))
        prims.append(Primitive(np.vstack(vs), np.vstack(fs), len(mats) - 1,
                               np.vstack(uvs) if has_uv else None))
    return prims, mats


def scene_glb(scene: Scene, *, seed: int = 0, cache: str | Path | None = None, texture_size: int = 128) -> bytes:
    """The textured GLB of one scene (its visual layer at ``seed``)."""
    from navbench.visual.build import build_visuals

    vis = build_visuals(scene, seed=seed, cache=cache, texture_size=texture_size)
    prims, mats = scene_primitives(scene, vis)
    if not prims:
        raise ConfigError(f"scene {scene.id!r}: nothing to export (no geometry)")
    return glb_bytes(prims, mats, name=scene.id, extras={"navbench_scene": scene.id, "seed": seed})


def stage_config(scene_id: str) -> JSONObject:
    """habitat-sim ``*.stage_config.json`` of an exported stage (paths relative to the config)."""
    return {"render_asset": f"{scene_id}.glb", "collision_asset": f"{scene_id}.glb",
            "up": [0.0, 1.0, 0.0], "front": [0.0, 0.0, -1.0], "units_to_meters": 1.0,
            "requires_lighting": True, "shader_type": "pbr", "margin": 0.01,
            "friction_coefficient": 0.8, "restitution_coefficient": 0.1}


def dataset_config() -> JSONObject:
    """habitat-sim ``*.scene_dataset_config.json`` listing the exported stages and scene instances."""
    return {
        "stages": {"default_attributes": {"up": [0.0, 1.0, 0.0], "front": [0.0, 0.0, -1.0],
                                          "units_to_meters": 1.0, "requires_lighting": True},
                   "paths": {".json": ["stages"]}},
        "objects": {"paths": {".json": []}},
        "light_setups": {"paths": {".json": []}},
        "scene_instances": {"paths": {".json": ["scenes"]}},
    }


def scene_instance(scene_id: str) -> JSONObject:
    """habitat-sim ``*.scene_instance.json``: the stage at the origin, no objects."""
    return {"stage_instance": {"template_name": f"stages/{scene_id}", "translation": [0.0, 0.0, 0.0],
                               "rotation": [1.0, 0.0, 0.0, 0.0]},
            "object_instances": [], "default_lighting": ""}


def export_habitat(scenes: Sequence[Scene], out: str | Path, *, seed: int = 0, cache: str | Path | None = None,
                   overwrite: bool = False, texture_size: int = 128) -> JSONObject:
    """Write the habitat scene dataset of ``scenes`` to ``out`` (layout: module docstring).

    Returns the export index (``navbench.export.json``): scene id → GLB path, sha256, bytes.
    Raises :class:`ConfigError` when ``out`` is a non-empty folder and ``overwrite`` is false,
    or on duplicate scene ids.
    """
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not overwrite)):
        raise ConfigError(f"-o {out}: expected a new or empty folder (use --force to replace it)")
    ids = [s.id for s in scenes]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"scenes: duplicate scene ids {sorted({i for i in ids if ids.count(i) > 1})}")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "stages").mkdir()
        (tmp / "scenes").mkdir()
        entries = {}
        for scene in sorted(scenes, key=lambda s: s.id):
            data = scene_glb(scene, seed=seed, cache=cache, texture_size=texture_size)
            (tmp / "stages" / f"{scene.id}.glb").write_bytes(data)
            write_json(tmp / "stages" / f"{scene.id}.stage_config.json", stage_config(scene.id))
            write_json(tmp / "scenes" / f"{scene.id}.scene_instance.json", scene_instance(scene.id))
            entries[scene.id] = {"glb": f"stages/{scene.id}.glb", "sha256": hashlib.sha256(data).hexdigest(),
                                 "bytes": len(data), "kind": scene.kind}
        write_json(tmp / DATASET_CONFIG, dataset_config())
        index = {"schema": EXPORT_SCHEMA, "seed": seed, "scenes": entries}
        write_json(tmp / EXPORT_INDEX, index)
        publish_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return index


def habitat_scene_ids(folder: str | Path, scene_ids: Sequence[str], prefix: str | None = None) -> dict[str, str]:
    """Episode ``scene_id`` per navbench scene id for an export folder: ``<prefix>/stages/<id>.glb``.

    ``prefix`` defaults to the folder's name: place the folder under habitat-lab's
    ``data/scene_datasets/`` (the default ``SCENES_DIR``) and the paths resolve. Raises
    :class:`ConfigError` naming the folder when it is no export or lacks a scene.
    """
    folder = Path(folder)
    idx_path = folder / EXPORT_INDEX
    if not idx_path.is_file():
        raise ConfigError(f"--habitat-scenes {folder}: expected a folder written by "
                          f"`navbench scenes export --format habitat` (no {EXPORT_INDEX})")
    index = read_json(idx_path)
    have = index.get("scenes", {}) if isinstance(index, dict) else {}
    missing = sorted(s for s in scene_ids if s not in have)
    if missing:
        raise ConfigError(f"--habitat-scenes {folder}: scenes {missing[:5]} were not exported "
                          "(export every scene of --scenes)")
    pre = (prefix if prefix is not None else folder.resolve().name).strip("/")
    return {s: f"{pre}/{have[s]['glb']}" if pre else have[s]["glb"] for s in scene_ids}
