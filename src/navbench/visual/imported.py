"""The appearance of imported mesh scenes (GLB / glTF / OBJ+MTL): per-material textured parts.

A scene mesh read from a file (``Mesh.file``, see ``scene.sources.mesh``) is drawn with the
file's own materials: trimesh splits the file per material; each piece becomes one
:class:`~navbench.visual.mesh.Part` with its UVs, one material (base colour factor) and, when
the material has a base-colour image, one texture (MuJoCo draws one texture per material,
hence the split). Vertex colours (scans without textures) become a palette texture: each
triangle gets the mean colour of its vertices (quantised to 5 bits per channel; flat per
triangle), painted in a 4x4-texel block of a square palette image, and its UVs point at the
block's centre.

Tiles: a piece of more than :data:`TILE_MIN_TRIANGLES` triangles is cut into square tiles of
:data:`TILE_M` m on the ground plane (XZ, Habitat frame; each triangle goes to the tile of its
centroid, keeping its own vertices and UVs, so textures stay continuous across tile seams), one
MuJoCo mesh each, so that the camera's distance and view-frustum culling (``sim.sensors``) drop
what is out of view: on the 200k-triangle room of ``benchmarks/bench_export.py`` a head camera
draws about a third of the triangles. Each tile also gets a coarse version (vertex clustering
on a :data:`LOD_CELL_M` grid, kept apart by UV chart and normal direction) drawn instead of it
beyond :data:`LOD_DISTANCE_M` (layers ``"tile_near"`` / ``"tile_far"``; the camera swaps them).

OBJ texture maps with options (``map_Kd -s 2 2 1 tex.png``) load their image and apply the
UV scale and offset (``visual.mtl``).
Downgrades (logged as warnings, never errors): a material whose image is missing or cannot be
decoded (e.g. KTX2/Basis textures of HM3D ``.basis.glb``), or whose header declares more pixels
than the budget (:func:`navbench.io.max_pixels`, default 8192²; never decoded), is drawn
untextured in its base colour; a piece without UVs drops its texture.
Frames: the file's up axis is converted to the Habitat frame as for the collision mesh.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from navbench.scene.model import Mesh
from navbench.visual.materials import Material
from navbench.visual.mesh import Part
from navbench.visual.mtl import MtlResolver, map_transforms

if TYPE_CHECKING:  # Pillow comes with trimesh's textures; imported for the type only
    from PIL.Image import Image

    from navbench.visual.build import SceneVisuals

log = logging.getLogger(__name__)

#: Texels per side of one palette entry (keeps mip levels 0-2 uniform inside a block).
PALETTE_BLOCK = 4
#: Largest texture side kept for imported images (larger ones are downsampled).
MAX_TEXTURE_PX = 2048
#: Side of a ground-plane tile of a large imported piece (m) ...
TILE_M = 3.0
#: ... pieces with at most this many triangles stay whole ...
TILE_MIN_TRIANGLES = 4096
#: ... and the tile side grows so that one piece gives at most this many tiles.
MAX_TILES = 256
#: Tiles farther than this (m, camera to the tile's box) are drawn by their coarse version ...
LOD_DISTANCE_M = 6.0
#: ... whose vertices are merged on a grid of this side (m): 2.5 % of the distance, ~7 px
#: at 640 px and 79° field of view.
LOD_CELL_M = 0.15
#: A coarse version is kept only when it has at most this share of the tile's triangles.
LOD_MAX_SHARE = 0.6


def _rgba01(c: npt.ArrayLike) -> tuple[float, float, float, float]:
    a = np.asarray(c, dtype=np.float64).ravel()
    if a.size == 3:
        a = np.append(a, 255.0 if a.max() > 1.0 else 1.0)
    if a.max() > 1.0:
        a = a / 255.0
    return (float(a[0]), float(a[1]), float(a[2]), float(a[3]))


def _image(img: Image | None, where: str, budget: int) -> np.ndarray | None:
    """A PIL image as an (H, W, 3) uint8 array (downsampled above :data:`MAX_TEXTURE_PX`), or None
    when it is over the pixel ``budget`` (its header's size: never decoded; the file's warning
    was logged by ``warn_oversized_textures``) or cannot be decoded."""
    if img is None:
        return None
    try:
        if img.size[0] * img.size[1] > budget:
            return None
        im = img.convert("RGB")
        if max(im.size) > MAX_TEXTURE_PX:
            s = MAX_TEXTURE_PX / max(im.size)
            im = im.resize((max(1, round(im.size[0] * s)), max(1, round(im.size[1] * s))))
        return np.asarray(im, dtype=np.uint8)
    except Exception as e:  # Pillow raises many kinds on unsupported images
        log.warning("%s: texture image unreadable (%s); drawn untextured", where, str(e)[:120] or "no detail")
        return None


def _palette(colors: np.ndarray, faces: np.ndarray, vertices: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-triangle flat colours as a palette texture: (vertices, faces, uv, image)."""
    c = np.asarray(colors, dtype=np.float64)[:, :3]
    fc = c[faces].mean(axis=1)
    q = np.clip(np.round(fc / 255.0 * 31.0), 0, 31).astype(np.int64)
    codes = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
    uniq, inv = np.unique(codes, return_inverse=True)
    side = int(np.ceil(np.sqrt(len(uniq))))
    img = np.zeros((side * PALETTE_BLOCK, side * PALETTE_BLOCK, 3), np.uint8)
    rgb = np.column_stack([uniq // 1024, (uniq // 32) % 32, uniq % 32]) * (255.0 / 31.0)
    rows, cols = np.divmod(np.arange(len(uniq)), side)
    for k in range(len(uniq)):
        r, col = rows[k] * PALETTE_BLOCK, cols[k] * PALETTE_BLOCK
        img[r:r + PALETTE_BLOCK, col:col + PALETTE_BLOCK] = np.round(rgb[k]).astype(np.uint8)
    # block centre in UV (v up: image row 0 = v 1)
    u = (cols[inv] + 0.5) / side
    v = 1.0 - (rows[inv] + 0.5) / side
    uv = np.repeat(np.column_stack([u, v]), 3, axis=0)
    verts = vertices[faces.reshape(-1)]
    new_faces = np.arange(len(verts), dtype=np.int32).reshape(-1, 3)
    return verts, new_faces, uv, img


def tiles(part: Part, cell: float = TILE_M) -> list[Part]:
    """``part`` cut into ground-plane tiles (XZ squares of ``cell`` m, grown to at most
    :data:`MAX_TILES` tiles), in row-major tile order; each triangle keeps its vertices and UVs.
    Pieces of at most :data:`TILE_MIN_TRIANGLES` triangles are returned whole."""
    f = np.asarray(part.faces, dtype=np.int64)
    if len(f) <= TILE_MIN_TRIANGLES:
        return [part]
    cen = part.vertices[f].mean(axis=1)[:, [0, 2]]
    lo, span = cen.min(axis=0), np.ptp(cen, axis=0)
    cell = max(cell, math.sqrt(float(span[0] + cell) * float(span[1] + cell) / MAX_TILES))
    ij = np.floor((cen - lo) / cell).astype(np.int64)
    code = ij[:, 1] * (int(ij[:, 0].max()) + 1) + ij[:, 0]
    order = np.argsort(code, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(code[order]) != 0])
    out = []
    for a, b in zip(starts, [*starts[1:], len(order)], strict=True):
        sub = f[order[a:b]]
        used, inv = np.unique(sub, return_inverse=True)
        out.append(Part(part.vertices[used], inv.reshape(-1, 3).astype(np.int32), part.uv[used], part.material))
    return out


def _row_codes(rows: np.ndarray) -> np.ndarray:
    """One int64 per row of an (N, K) int64 array, equal iff the rows are equal (mixed radix
    over each column's range; ``np.unique(axis=0)`` is several times slower)."""
    lo = rows.min(axis=0)
    span = rows.max(axis=0) - lo + 1
    if float(np.prod(span.astype(np.float64))) >= 2.0**62:  # too wide for one int64: dense ranks
        return np.unique(rows, axis=0, return_inverse=True)[1].ravel().astype(np.int64)
    code = np.zeros(len(rows), np.int64)
    for k in range(rows.shape[1]):
        code = code * span[k] + (rows[:, k] - lo[k])
    return code


def coarse(part: Part, cell: float = LOD_CELL_M) -> Part | None:
    """A coarse version of ``part`` by vertex clustering: vertices sharing a ``cell``-m grid
    cell, a UV cell (about two grid cells of texture, so UV charts stay apart) and their normal's
    dominant axis are merged into their mean (position and UV); collapsed and repeated triangles
    are dropped. ``None`` when that keeps more than :data:`LOD_MAX_SHARE` of the triangles."""
    f = np.asarray(part.faces, dtype=np.int64)
    v, uv = part.vertices, part.uv
    t = v[f]
    fn = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    vn = np.column_stack([np.bincount(f.ravel(), np.repeat(fn[:, c], 3), len(v)) for c in range(3)])
    axis = np.argmax(np.abs(vn), axis=1) * 2 + (vn[np.arange(len(v)), np.argmax(np.abs(vn), axis=1)] < 0)
    edge_m = np.linalg.norm(t[:, 1] - t[:, 0], axis=1)
    edge_uv = np.linalg.norm(uv[f[:, 1]] - uv[f[:, 0]], axis=1)
    ok = edge_m > 1e-9
    per_m = float(np.median(edge_uv[ok] / edge_m[ok])) if ok.any() else 0.0
    uv_cell = max(2.0 * cell * per_m, 1e-6)
    key = np.column_stack([np.floor(v / cell), np.floor(uv / uv_cell), axis]).astype(np.int64)
    _, cluster, counts = np.unique(_row_codes(key), return_inverse=True, return_counts=True)
    cluster = cluster.ravel()
    pos = np.column_stack([np.bincount(cluster, v[:, c], len(counts)) for c in range(3)]) / counts[:, None]
    tex = np.column_stack([np.bincount(cluster, uv[:, c], len(counts)) for c in range(2)]) / counts[:, None]
    nf = cluster[f]
    keep = (nf[:, 0] != nf[:, 1]) & (nf[:, 1] != nf[:, 2]) & (nf[:, 0] != nf[:, 2])
    nf = nf[keep]
    if len(nf):
        first = np.argmin(nf, axis=1)
        rolled = np.take_along_axis(nf, (first[:, None] + np.arange(3)[None, :]) % 3, axis=1)
        _, idx = np.unique(_row_codes(rolled), return_index=True)
        nf = nf[np.sort(idx)]
    if len(nf) == 0 or len(nf) > LOD_MAX_SHARE * len(f):
        return None
    used, inv = np.unique(nf, return_inverse=True)
    return Part(pos[used], inv.reshape(-1, 3).astype(np.int32), tex[used], part.material)


def unsupported_images(path: Path) -> list[str]:
    """MIME types (or file suffixes) of a glTF file's images that Pillow cannot decode
    (e.g. ``image/ktx2`` of HM3D ``.basis.glb`` files); empty for other formats."""
    from navbench.errors import SceneFormatError
    from navbench.scene.mesh_assets import read_gltf_json

    if path.suffix.lower() not in (".glb", ".gltf"):
        return []
    try:
        doc, _ = read_gltf_json(path)
    except SceneFormatError:
        return []  # the mesh reader reports unreadable files
    bad = []
    for im in doc.get("images", []) if isinstance(doc.get("images"), list) else []:
        if not isinstance(im, dict):
            continue
        kind = str(im.get("mimeType") or Path(str(im.get("uri", ""))).suffix.lower())
        if kind and kind not in ("image/png", "image/jpeg", ".png", ".jpg", ".jpeg"):
            bad.append(kind)
    if "KHR_texture_basisu" in (doc.get("extensionsUsed") or []):
        bad.append("KHR_texture_basisu")
    return sorted(set(bad))


def mesh_appearance(mesh: Mesh, prefix: str) -> list[tuple[Part, Material, np.ndarray | None]]:
    """Textured parts of a file-backed scene mesh (Habitat frame), one per file material.

    Returns ``(part, material, texture image or None)``; ``part.material`` is
    ``f"{prefix}{k}"`` and the texture key is the same string.
    """
    import trimesh

    from navbench.io import max_pixels
    from navbench.scene.mesh_assets import mesh_assets
    from navbench.scene.meshfile import (
        check_up,
        placed,
        scene_parts,
        to_habitat,
        warn_oversized_textures,
    )

    path = Path(str(mesh.file))
    up = check_up(mesh.up)
    mesh_assets(path)  # side files outside the mesh's folder are refused before trimesh reads them
    budget = max_pixels()
    warn_oversized_textures(path, budget)
    bad = unsupported_images(path)
    if bad:
        log.warning("%s: textures in %s cannot be decoded (PNG and JPEG can; for HM3D use the "
                    "non-basis .glb); those materials are drawn in their base colour", path.name, ", ".join(bad))
    obj = path.suffix.lower() == ".obj"
    loaded = trimesh.load(str(path), force="scene", process=False,
                          resolver=MtlResolver(str(path.parent)) if obj else None)
    maps = map_transforms(path) if obj else {}
    if not isinstance(loaded, trimesh.Scene):  # force="scene" gives a Scene; typed as any geometry
        loaded = trimesh.Scene(loaded)
    out: list[tuple[Part, Material, np.ndarray | None]] = []
    # scene_parts, not Scene.dump(): dump deep-copies every geometry, decoding each texture
    for k, (g, transform) in enumerate((x, t) for x, t in scene_parts(loaded) if isinstance(x, trimesh.Trimesh)):
        key = f"{prefix}{k}"
        v, f = placed(g.vertices, g.faces, transform)
        v = to_habitat(v, up)
        vis: Any = g.visual  # trimesh's Color/TextureVisuals union, told apart by .kind below
        rgba: tuple[float, float, float, float] = (0.7, 0.7, 0.7, 1.0)
        img = None
        uv = None
        if getattr(vis, "kind", None) == "texture":
            mat = vis.material
            if hasattr(mat, "baseColorFactor"):  # PBR (glTF)
                if mat.baseColorFactor is not None:
                    rgba = _rgba01(mat.baseColorFactor)
                img = _image(getattr(mat, "baseColorTexture", None), f"{path.name} material {k}", budget)
            else:  # SimpleMaterial (OBJ/MTL)
                if getattr(mat, "diffuse", None) is not None:
                    rgba = _rgba01(mat.diffuse)
                img = _image(getattr(mat, "image", None), f"{path.name} material {k}", budget)
            if vis.uv is not None and len(vis.uv) == len(v):
                uv = np.asarray(vis.uv, dtype=np.float64)
                opt = maps.get(str(getattr(mat, "name", "")))
                if opt is not None and img is not None:  # MTL ``-s``/``-o``: uv * scale + offset
                    uv = uv * np.array(opt.scale) + np.array(opt.offset)
            elif img is not None:
                log.warning("%s material %d: image without UVs; drawn untextured", path.name, k)
                img = None
            if img is not None:
                rgba = (rgba[0], rgba[1], rgba[2], rgba[3])
        elif getattr(vis, "kind", None) == "vertex":
            v, f, uv, img = _palette(np.asarray(vis.vertex_colors), f, v)
            out.append((Part(v, f.astype(np.int32), uv, key), Material((1.0, 1.0, 1.0, 1.0), key), img))
            continue
        elif getattr(vis, "kind", None) == "face":
            fcol = np.asarray(vis.face_colors)
            rgba = _rgba01(fcol.mean(axis=0))
        if uv is None:
            uv = np.zeros((len(v), 2))
        out.append((Part(v, f.astype(np.int32), uv, key),
                    Material(rgba, key if img is not None else None, specular=0.1, shininess=0.2), img))
    return out


def add_imported(vis: SceneVisuals, meshes: tuple[Mesh, ...]) -> dict[str, Material]:
    """Add the file appearance of every file-backed mesh in ``meshes`` to ``vis``
    (a :class:`~navbench.visual.build.SceneVisuals`): structure-layer geoms at the origin,
    their images in ``vis.textures``. Returns the materials added (keys = texture keys)."""
    mats: dict[str, Material] = {}
    for i, m in enumerate(meshes):
        if m.file is None:
            continue
        for part, mat, img in mesh_appearance(m, f"imp{i}_"):
            mats[part.material] = mat
            if img is not None:
                vis.textures[part.material] = img
            pieces = tiles(part)
            for t, tile in enumerate(pieces):
                far = coarse(tile) if len(pieces) > 1 else None
                key = f"imported:{part.material}:{t}"
                vis.add(tile, ref=m.ref, label=m.label or m.kind, kind=m.kind,
                        layer="tile_near" if far else "structure", mesh_key=key)
                if far is not None:
                    vis.add(far, ref=m.ref, label=m.label or m.kind, kind=m.kind, layer="tile_far",
                            mesh_key=f"{key}:far")
    return mats
