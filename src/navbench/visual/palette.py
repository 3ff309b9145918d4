"""A colour-palette atlas: the flat-colour parts of one object drawn as one mesh.

MuJoCo has no per-vertex colour, so every material of an object is one more geom, i.e. one
more draw call per render pass (on a CPU renderer ~0.05–0.1 ms each). :class:`Palette` merges
an object's matte untextured parts of the same emission and alpha
into one :class:`~navbench.visual.mesh.Part` whose UVs all point at the centre of a texel block
of a small palette texture holding that part's colour; the material is white (colour from the
texture). The UV is constant over each triangle, so the renderer samples the block centre at mip
level 0 and the colour is exact. Textured parts are left as they are. Semantics are untouched:
parts are merged within one object only.

Protocol: :meth:`Palette.merge` while building (UV column 0 holds the colour's index), then
:meth:`Palette.finish` once, which lays the palette out (blocks of :data:`BLOCK` texels, row 0
= the top of the image, v = 1), rewrites the UVs of the atlas meshes and returns the texture.
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.materials import Material
from navbench.visual.mesh import Part

#: Palette texture key (``SceneVisuals.textures``) and atlas material key prefix.
PALETTE = "palette"
#: Flat materials shinier than this keep their own geom (see :func:`_mergeable`).
MAX_SPECULAR = 0.1
#: Side of one colour's texel block (texels): bilinear samples at the centre stay inside it.
BLOCK = 2


def _area(p: Part) -> float:
    t = p.vertices[p.faces]
    return float(np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1).sum())


def _mergeable(m: Material) -> bool:
    # The fixed-function renderer multiplies the whole lit colour, highlight included, by the
    # texture: a part with specular 0.4 facing the headlight loses a white highlight of 32/255
    # (measured), so only matte parts (highlight <= ~8/255) merge.
    return m.texture is None and m.specular <= MAX_SPECULAR


def _shade_key(m: Material) -> str:
    return f"{PALETTE}/{m.emission:g}/{m.rgba[3]:g}"


class Palette:
    """The scene's flat colours (exact 8-bit RGB) and the atlas materials that use them."""

    def __init__(self) -> None:
        self.colours: dict[tuple[int, int, int], int] = {}
        self.materials: dict[str, Material] = {}

    def _index(self, rgba: tuple[float, float, float, float]) -> int:
        r, g, b = (round(min(max(v, 0.0), 1.0) * 255) for v in rgba[:3])
        return self.colours.setdefault((r, g, b), len(self.colours))

    def merge(self, parts: list[Part], material_of: dict[str, Material]) -> list[Part]:
        """``parts`` with the untextured ones that shade alike as one atlas part each (only
        groups of two or more; order: textured and single parts first, as given, then atlases).

        ``material_of`` maps each part's material key to its resolved :class:`Material`."""
        groups: dict[str, list[Part]] = {}
        for p in parts:
            m = material_of[p.material]
            if _mergeable(m):
                groups.setdefault(_shade_key(m), []).append(p)
        merged = {k for k, g in groups.items() if len(g) > 1}
        out = [p for p in parts if not _mergeable(material_of[p.material])
               or _shade_key(material_of[p.material]) not in merged]
        for key in sorted(merged):
            vs, fs, uvs, base = [], [], [], 0
            for p in groups[key]:
                m = material_of[p.material]
                vs.append(p.vertices)
                fs.append(p.faces + base)
                uvs.append(np.tile([float(self._index(m.rgba)), -1.0], (len(p.vertices), 1)))
                base += len(p.vertices)
            first = material_of[max(groups[key], key=_area).material]  # shading of the largest part
            self.materials[key] = Material((1.0, 1.0, 1.0, first.rgba[3]), PALETTE, first.specular,
                                           first.shininess, first.reflectance, first.emission)
            out.append(Part(np.vstack(vs), np.vstack(fs).astype(np.int32), np.vstack(uvs), key))
        return out

    def finish(self, meshes: dict[str, Part]) -> np.ndarray | None:
        """Lay out the palette, rewrite the UVs of the atlas meshes in ``meshes`` (in place) and
        return the texture (H, W, 3) uint8, or ``None`` when no colour was used."""
        n = len(self.colours)
        if n == 0:
            return None
        cols = max(1, math.ceil(math.sqrt(n)))
        rows = math.ceil(n / cols)
        img = np.zeros((rows * BLOCK, cols * BLOCK, 3), np.uint8)
        for c, i in self.colours.items():
            r, q = divmod(i, cols)
            img[r * BLOCK:(r + 1) * BLOCK, q * BLOCK:(q + 1) * BLOCK] = c
        h, w = img.shape[:2]
        for key, p in meshes.items():
            if not p.material.startswith(PALETTE + "/"):
                continue
            idx = p.uv[:, 0].astype(np.int64)
            row, col = np.divmod(idx, cols)
            uv = np.column_stack([(col * BLOCK + BLOCK / 2) / w, 1.0 - (row * BLOCK + BLOCK / 2) / h])
            meshes[key] = Part(p.vertices, p.faces, uv, p.material)
        return img


__all__ = ["BLOCK", "PALETTE", "Palette"]
