"""Reading one mesh file (GLB / glTF / OBJ / PLY / STL / OFF) into a Habitat-frame
:class:`~navbench.scene.model.Mesh`, with the checks every caller needs (triangle budget, finite
vertices, degenerate triangles, plausible extent), the sha256 of mesh side files and of the
files they reference (*assets*: an OBJ's ``.mtl`` files and their ``map_*`` images, a glTF's
external buffers and images; found and held inside the mesh's folder by
:mod:`navbench.scene.mesh_assets`), and :func:`copy_side_files` that makes a scene folder
self-contained. Meshes are read without decoding their texture images (:func:`scene_parts`);
images over the pixel budget are reported once, with the colour drawn instead.

Used by ``scene.io`` (side files referenced from ``scene.json``) and by the importers in
``scene.sources``; it imports neither.

Up axis: ``up="y"`` keeps the coordinates (glTF convention; ReplicaCAD / HSSD assets);
``up="z"`` converts a Z-up file with (x, y, z) → (x, z, −y) (Matterport3D, HM3D and Gibson
meshes, which habitat-sim's dataset configs declare ``"up": [0, 0, 1]``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import struct
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from navbench.errors import ConfigError, SceneFormatError
from navbench.io import max_pixels
from navbench.paths import inside, safe_name
from navbench.scene.mesh_assets import mesh_assets, oversized_textures
from navbench.scene.model import Mesh, Scene

if TYPE_CHECKING:
    import trimesh

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


def check_assets(scene_file: str | Path, field: str, assets: list[tuple[Path, str]]) -> None:
    """Raise a :class:`SceneFormatError` naming the first asset that is missing or whose sha256
    differs from the one recorded at import."""
    for k, (p, digest) in enumerate(assets):
        if not p.is_file():
            raise SceneFormatError(str(scene_file), f"{field}[{k}].file", f"the mesh asset {p} (move it back "
                                   "beside the mesh file, or re-import the scene)", "missing")
        if sha256_file(p) != digest:
            raise SceneFormatError(str(scene_file), f"{field}[{k}].sha256", f"{digest} (the file {p} changed "
                                   "since the import; re-import the scene)", "a different sha256")


def copy_side_files(scene: Scene, folder: str | Path) -> Scene:
    """Copy the side files of ``scene``'s file-backed meshes (mesh + assets, keeping the assets'
    paths relative to the mesh file) into ``folder`` and return the scene pointing at the copies,
    so that a ``scene.json`` saved in ``folder`` keeps loading after the folder moves.

    One file-backed mesh goes directly into ``folder``; several go into ``folder/<mesh id>/``
    (the id made a safe file name by :func:`navbench.paths.safe_name`; nothing is written
    outside ``folder``).
    Raises a :class:`ConfigError` when an asset lies outside its mesh file's folder.
    """
    folder = Path(folder)
    backed = [m for m in scene.meshes if m.file is not None]
    if not backed:
        return scene
    new: dict[str, Mesh] = {}
    for m in backed:
        src = Path(str(m.file))
        # a mesh id is scene data: it names a folder only through safe_name, proven inside
        dest = folder if len(backed) == 1 else inside(folder, safe_name(m.id))
        dest.mkdir(parents=True, exist_ok=True)
        target = inside(dest, src.name)
        assets = []
        for a, digest in m.assets:
            rel = Path(os.path.relpath(a, src.parent))
            if rel.parts and rel.parts[0] == "..":
                raise ConfigError(f"mesh {src.name}: its asset {a} lies outside the mesh's folder; move it "
                                  "beside the mesh (and fix the reference) to copy the scene")
            out = inside(dest, *rel.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            if out.resolve() != Path(a).resolve():
                shutil.copyfile(a, out)
            assets.append((str(out.resolve()), digest))
        if target.resolve() != src.resolve():
            shutil.copyfile(src, target)
        new[m.id] = replace(m, file=str(target.resolve()), assets=tuple(assets))
    return replace(scene, meshes=tuple(new.get(m.id, m) for m in scene.meshes))


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
    v: np.ndarray = np.asarray(vertices, dtype=np.float64)
    if up == "y":
        same: np.ndarray = v.copy()
        return same
    out: np.ndarray = np.column_stack([v[:, 0], v[:, 2], -v[:, 1]])
    return out


def describe_load_error(e: BaseException) -> str:
    """What a mesh loader's exception means, in words (the loader's own class names and bare
    messages such as ``AssertionError: ''`` say nothing to a user)."""
    text = str(e).strip().splitlines()[0][:120] if str(e).strip() else ""
    if isinstance(e, FileNotFoundError):
        return f"a file it references is missing ({Path(e.filename).name if e.filename else text or '?'})"
    if isinstance(e, (IndexError, KeyError)):
        return f"an index or name that points at nothing ({text or 'no detail'})"
    if isinstance(e, (AssertionError, struct.error)):
        return "inconsistent or truncated binary data" + (f" ({text})" if text else "")
    if isinstance(e, (UnicodeDecodeError, ValueError)):
        return f"values it cannot parse ({text or 'no detail'})"
    if isinstance(e, MemoryError):
        return "more data than fits in memory"
    return f"data the loader cannot read ({text or 'no detail'})"


def scene_parts(loaded: Any) -> list[tuple[Any, np.ndarray]]:
    """``(geometry, 4x4 transform)`` per instance of a ``trimesh.Scene`` that has triangles,
    geometries **not copied**: ``Scene.dump()`` deep-copies each geometry, which decodes every
    texture image it holds (a 12,000² PNG costs 2.7 GB), whatever its size.

    (Any: trimesh's Scene and Geometry types, read by duck typing.)
    """
    out = []
    for node in loaded.graph.nodes_geometry:
        transform, name = loaded.graph[node]
        g = loaded.geometry[name]
        if hasattr(g, "faces") and len(g.faces):
            out.append((g, np.asarray(transform, dtype=np.float64)))
    return out


def placed(vertices: np.ndarray, faces: np.ndarray, transform: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices moved by a 4x4 ``transform`` and faces re-wound when it mirrors (as trimesh's
    ``apply_transform`` does)."""
    v = np.asarray(vertices, dtype=np.float64) @ transform[:3, :3].T + transform[:3, 3]
    f = np.asarray(faces, dtype=np.int64)
    return v, (f[:, ::-1] if np.linalg.det(transform[:3, :3]) < 0 else f)


def load_trimesh(path: str | Path) -> trimesh.Trimesh:
    """Load a mesh file with trimesh as one ``trimesh.Trimesh`` (node transforms applied; the
    geometry only: texture images are never decoded here).

    Raises a :class:`SceneFormatError` naming the file when it is missing, truncated or empty,
    or references a file outside its folder (:mod:`navbench.scene.mesh_assets`).
    """
    import trimesh

    path = Path(path)
    if not path.is_file():
        raise fail(path, "<file>", "an existing mesh file", str(path))
    if path.suffix.lower() not in MESH_SUFFIXES:
        raise fail(path, "<file>", f"a mesh file ({', '.join(MESH_SUFFIXES)})", path.suffix)
    mesh_assets(path)  # side files outside the mesh's folder are refused before anything reads them
    try:
        loaded = trimesh.load(str(path), force="scene", process=False)
    except Exception as e:  # trimesh raises many kinds on broken files
        raise fail(path, "<mesh>", "a readable mesh", describe_load_error(e)) from e
    if not isinstance(loaded, trimesh.Scene):
        raise fail(path, "<mesh>", "a mesh scene", type(loaded).__name__)
    try:
        parts = [placed(g.vertices, g.faces, t) for g, t in scene_parts(loaded)]
    except Exception as e:  # inconsistent node graphs or index buffers
        raise fail(path, "<mesh>", "a readable mesh scene graph", describe_load_error(e)) from e
    if not parts:
        raise fail(path, "<mesh>", "at least one triangle", "no triangles")
    offsets = np.cumsum([0] + [len(v) for v, _ in parts[:-1]])
    vertices = np.concatenate([v for v, _ in parts])
    faces = np.concatenate([f + o for (_, f), o in zip(parts, offsets, strict=True)])
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)


def warn_oversized_textures(path: str | Path, budget: int | None = None) -> int:
    """Log one warning per texture image of a mesh file over the pixel budget (the file, its
    size and the colour its material is drawn in instead); returns how many."""
    limit = max_pixels(budget)
    found = oversized_textures(path, limit)
    for o in found:
        log.warning("%s", o.message(Path(path).name, limit))
    return len(found)


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
    assets = tuple((str(a), sha256_file(a)) for a in mesh_assets(path))
    return Mesh(mesh_id, kind, v, faces, label, ref, file=str(Path(path).resolve()),
                sha256=sha256_file(path), up=up, assets=assets)
