"""The material table: material keys (``Part.material``) → colour, texture and shading.

A key is a base name from :data:`MATERIALS` optionally followed by ``@RRGGBB``, a tint that
replaces the base colour (``"fabric@8a3b2e"``: the fabric texture tinted red-brown); builders
use :func:`tinted` to vary colour between instances. Outdoor base materials come from
``visual/outdoor_textures.py`` (``OUTDOOR_MATERIALS``, same :class:`Material` entries).
Floors by room type: :func:`floor_material`; painted walls per room: :func:`wall_material`.
The merged indoor + outdoor table is ``visual.build.material_table``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from navbench.geometry import vec3


@dataclass(frozen=True)
class Material:
    """How a surface looks.

    Attributes:
        rgba: base colour (0..1), multiplied with the texture when there is one.
        texture: texture key (``visual.textures``) or ``None`` for a flat colour.
        specular, shininess, reflectance: MuJoCo material shading (0..1).
        emission: self-illumination (0..1), e.g. lamp shades and screens.
    """

    rgba: tuple[float, float, float, float]
    texture: str | None = None
    specular: float = 0.1
    shininess: float = 0.2
    reflectance: float = 0.0
    emission: float = 0.0


def _m(r: float, g: float, b: float, texture: str | None = None, spec: float = 0.1,
       shine: float = 0.2, refl: float = 0.0, a: float = 1.0, emission: float = 0.0) -> Material:
    return Material((r, g, b, a), texture, spec, shine, refl, emission)


#: Indoor base materials. Textured ones with a white colour show their texture's own colour
#: (wood species, parquet); white-based textures (paint, laminate, fabrics, leather, tiles,
#: carpet) take their colour from a tint (``tinted``).
MATERIALS: dict[str, Material] = {
    "wood": _m(1.0, 1.0, 1.0, "oak", 0.2, 0.3),
    "wood_dark": _m(1.0, 1.0, 1.0, "walnut", 0.2, 0.3),
    "wood_light": _m(1.0, 1.0, 1.0, "maple", 0.2, 0.3),
    "oak": _m(1.0, 1.0, 1.0, "oak", 0.2, 0.3),
    "walnut": _m(1.0, 1.0, 1.0, "walnut", 0.25, 0.4),
    "cherry": _m(1.0, 1.0, 1.0, "cherry", 0.25, 0.4),
    "maple": _m(1.0, 1.0, 1.0, "maple", 0.2, 0.3),
    "pine": _m(1.0, 1.0, 1.0, "pine", 0.15, 0.2),
    "laminate_wood": _m(1.0, 1.0, 1.0, "laminate_wood", 0.3, 0.5),
    "laminate": _m(0.95, 0.95, 0.94, "laminate", 0.3, 0.5),
    "painted": _m(0.95, 0.95, 0.93, "painted_wood", 0.2, 0.3),
    "lacquer": _m(0.95, 0.95, 0.93, None, 0.6, 0.8, 0.02),
    "parquet": _m(1.0, 1.0, 1.0, "parquet_oak", 0.25, 0.4),
    "parquet_walnut": _m(1.0, 1.0, 1.0, "parquet_walnut", 0.25, 0.4),
    "parquet_pale": _m(1.0, 1.0, 1.0, "parquet_pale", 0.25, 0.4),
    "herringbone": _m(1.0, 1.0, 1.0, "herringbone", 0.25, 0.4),
    "tile": _m(0.92, 0.92, 0.9, "tile", 0.4, 0.6, 0.05),
    "tile_large": _m(0.85, 0.84, 0.82, "tile_large", 0.3, 0.5, 0.03),
    "tile_mosaic": _m(0.8, 0.9, 0.95, "tile_mosaic", 0.5, 0.7, 0.05),
    "tile_checker": _m(0.95, 0.95, 0.93, "tile_checker", 0.4, 0.6, 0.05),
    "carpet": _m(0.55, 0.5, 0.45, "carpet", 0.0, 0.0),
    "stone": _m(1.0, 1.0, 1.0, "stone", 0.3, 0.5, 0.03),
    "paint": _m(0.92, 0.9, 0.86, "paint", 0.05, 0.1),
    "ceiling": _m(0.97, 0.97, 0.96, "paint", 0.0, 0.0),
    "fabric": _m(0.5, 0.5, 0.55, "fabric", 0.0, 0.0),
    "linen": _m(0.8, 0.78, 0.72, "linen", 0.0, 0.0),
    "velvet": _m(0.3, 0.35, 0.5, "velvet", 0.15, 0.2),
    "tweed": _m(0.5, 0.5, 0.5, "tweed", 0.0, 0.0),
    "knit": _m(0.9, 0.88, 0.84, "knit", 0.0, 0.0),
    "leather": _m(0.35, 0.2, 0.12, "leather", 0.3, 0.5),
    "metal": _m(0.72, 0.73, 0.75, "brushed", 0.8, 0.8, 0.1),
    "stainless": _m(0.8, 0.81, 0.82, "brushed", 0.9, 0.9, 0.1),
    "metal_dark": _m(0.2, 0.2, 0.22, "brushed", 0.6, 0.7, 0.05),
    "black_metal": _m(0.09, 0.09, 0.1, None, 0.3, 0.4),
    "brass": _m(0.78, 0.6, 0.3, None, 0.9, 0.9, 0.1),
    "chrome": _m(0.85, 0.86, 0.88, None, 1.0, 1.0, 0.3),
    "glass": _m(0.6, 0.75, 0.8, None, 0.9, 1.0, 0.2, a=0.35),
    "mirror": _m(0.8, 0.85, 0.9, None, 1.0, 1.0, 0.5),
    "ceramic": _m(0.96, 0.96, 0.94, None, 0.7, 0.8, 0.05),
    "plastic": _m(0.9, 0.9, 0.9, None, 0.4, 0.5),
    "plastic_matte": _m(0.9, 0.9, 0.9, None, 0.05, 0.1),
    "plastic_dark": _m(0.12, 0.12, 0.13, None, 0.4, 0.5),
    "screen": _m(0.03, 0.04, 0.06, None, 0.9, 1.0, 0.1),
    "paper": _m(0.95, 0.94, 0.9, None, 0.0, 0.0),
    "wicker": _m(1.0, 1.0, 1.0, "wicker", 0.05, 0.1),
    "perforated": _m(0.9, 0.9, 0.9, "perforated", 0.3, 0.4),
    "grille": _m(1.0, 1.0, 1.0, "grille", 0.05, 0.1),
    "screen_tv": _m(1.0, 1.0, 1.0, "screen_tv", 0.5, 0.8, 0.02, emission=0.55),
    "screen_desktop": _m(1.0, 1.0, 1.0, "screen_desktop", 0.5, 0.8, 0.02, emission=0.55),
    "keyboard_keys": _m(1.0, 1.0, 1.0, "keyboard_keys", 0.2, 0.3),
    "clock_face": _m(1.0, 1.0, 1.0, "clock_face", 0.4, 0.6),
    "photo": _m(1.0, 1.0, 1.0, "photo", 0.3, 0.5),
    "art_landscape": _m(1.0, 1.0, 1.0, "art_landscape", 0.05, 0.1),
    "art_abstract": _m(1.0, 1.0, 1.0, "art_abstract", 0.05, 0.1),
    "art_geometric": _m(1.0, 1.0, 1.0, "art_geometric", 0.05, 0.1),
    "rug_persian": _m(1.0, 1.0, 1.0, "rug_persian", 0.0, 0.0),
    "rug_modern": _m(1.0, 1.0, 1.0, "rug_modern", 0.0, 0.0),
    "rug_stripes": _m(1.0, 1.0, 1.0, "rug_stripes", 0.0, 0.0),
    "window_view": _m(1.0, 1.0, 1.0, "window_view", 0.0, 0.0, emission=1.0),
    "shop_interior": _m(1.0, 1.0, 1.0, "shop_interior", 0.6, 0.8, 0.05, emission=0.4),
    "awning_stripes": _m(1.0, 1.0, 1.0, "awning_stripes", 0.05, 0.05),
    "foliage": _m(0.25, 0.5, 0.2, "carpet", 0.05, 0.1),
    "soil": _m(0.3, 0.22, 0.15, "carpet", 0.0, 0.0),
    "lampshade": _m(0.98, 0.94, 0.82, "linen", 0.0, 0.0, emission=0.5),
    "bulb": _m(1.0, 0.97, 0.85, None, 0.0, 0.0, emission=1.0),
    "rubber": _m(0.08, 0.08, 0.08, None, 0.1, 0.1),
    "generic": _m(0.6, 0.6, 0.6, None, 0.2, 0.3),
    "shadow": _m(0.0, 0.0, 0.02, None, 0.0, 0.0, a=0.3),
}


def tinted(base: str, rgb: tuple[float, float, float] | np.ndarray) -> str:
    """Material key ``base@RRGGBB`` (``rgb`` in 0..1)."""
    c = np.clip(np.asarray(rgb, float), 0, 1)
    return base + "@" + "".join(f"{round(v * 255):02x}" for v in c)


def split_key(key: str) -> tuple[str, tuple[float, float, float] | None]:
    """``"fabric@8a3b2e"`` → ``("fabric", (0.54, 0.23, 0.18))``; no tint → ``(key, None)``."""
    base, _, tint = key.removesuffix(":u").partition("@")
    if len(tint) != 6:
        return base, None
    return base, vec3(int(tint[i:i + 2], 16) / 255.0 for i in (0, 2, 4))


def resolve(key: str, table: dict[str, Material]) -> Material:
    """The :class:`Material` of a key; unknown bases fall back to ``"generic"`` (never fail)."""
    base, tint = split_key(key)
    mat = table.get(base, table["generic"])
    if tint is not None:
        mat = replace(mat, rgba=(*tint, mat.rgba[3]))
    return mat


#: Floor materials per room type (unknown room types: oak parquet).
_FLOORS: dict[str, tuple[str, ...]] = {
    "bedroom": ("carpet", "parquet", "parquet_pale", "herringbone"),
    "living room": ("parquet", "parquet_walnut", "herringbone", "parquet_pale"),
    "kitchen": ("tile", "tile_large", "tile_checker", "stone"),
    "dining room": ("parquet", "herringbone", "parquet_walnut"),
    "bathroom": ("tile", "tile_mosaic", "tile_checker", "tile_large"),
    "office": ("carpet", "parquet", "parquet_pale"),
    "laundry room": ("tile", "tile_large"),
    "hallway": ("stone", "parquet", "herringbone", "tile_checker"),
}
_CARPETS = ((0.55, 0.5, 0.45), (0.45, 0.5, 0.6), (0.6, 0.45, 0.45), (0.5, 0.55, 0.48), (0.7, 0.66, 0.6))
_TILES = ((0.95, 0.95, 0.93), (0.85, 0.88, 0.9), (0.9, 0.86, 0.78), (0.7, 0.72, 0.72), (0.62, 0.72, 0.7))
#: Wall paint palettes per room type.
_PAINTS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "bedroom": ((0.85, 0.88, 0.95), (0.93, 0.86, 0.84), (0.88, 0.92, 0.86)),
    "living room": ((0.95, 0.92, 0.84), (0.9, 0.86, 0.78), (0.86, 0.9, 0.9)),
    "kitchen": ((0.97, 0.96, 0.9), (0.92, 0.95, 0.88), (0.98, 0.93, 0.82)),
    "dining room": ((0.88, 0.8, 0.72), (0.9, 0.84, 0.86), (0.82, 0.86, 0.8)),
    "bathroom": ((0.86, 0.93, 0.96), (0.95, 0.95, 0.95), (0.88, 0.95, 0.92)),
    "office": ((0.9, 0.9, 0.88), (0.84, 0.88, 0.92), (0.92, 0.9, 0.84)),
    "hallway": ((0.94, 0.92, 0.88), (0.9, 0.9, 0.9)),
    "laundry room": ((0.92, 0.95, 0.97), (0.95, 0.95, 0.92)),
}


def floor_material(room_label: str, rng: np.random.Generator) -> str:
    """A floor material key for a room type (carpets and tiles get a tint)."""
    base = str(rng.choice(_FLOORS.get(room_label, ("parquet",))))
    if base == "carpet":
        return tinted("carpet", _CARPETS[int(rng.integers(len(_CARPETS)))])
    if base in ("tile", "tile_mosaic"):
        return tinted(base, _TILES[int(rng.integers(len(_TILES)))])
    return base


def wall_material(room_label: str, rng: np.random.Generator) -> str:
    """A painted-wall material key for a room type."""
    pal = _PAINTS.get(room_label, ((0.92, 0.9, 0.86),))
    return tinted("paint", pal[int(rng.integers(len(pal)))])
