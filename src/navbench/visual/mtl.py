"""Texture-map options of OBJ ``.mtl`` files (``map_Kd -s 2 2 1 -o 0.5 0 0 wood.png``).

trimesh reads a ``map_Kd`` line's whole remainder as the file name, so a line with options
loads no image. :func:`parse_map` splits such a line into its options and the file name
(the Wavefront MTL option set: ``-blendu/-blendv/-cc/-clamp on|off``, ``-bm``, ``-boost``,
``-texres`` one value, ``-mm`` two, ``-imfchan`` one channel, ``-o/-s/-t`` one to three
numbers), :class:`MtlResolver` hands trimesh the image that such a line names, and
:func:`map_transforms` gives each material's UV scale and offset (``-s``/``-o``): texture
coordinates are ``uv * scale + offset``, as three.js's MTLLoader applies them (``repeat`` and
``offset`` of the texture). ``-t`` (turbulence) and the blending options have no effect here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trimesh.resolvers import FilePathResolver

#: Number of values each fixed-arity option takes.
_FIXED = {"-blendu": 1, "-blendv": 1, "-cc": 1, "-clamp": 1, "-bm": 1, "-boost": 1,
          "-texres": 1, "-imfchan": 1, "-mm": 2}
#: Options that take one to three numbers.
_VECTOR = ("-o", "-s", "-t")


@dataclass(frozen=True)
class MapOptions:
    """A parsed texture-map statement: the image file and its UV scale/offset (u, v)."""

    file: str
    scale: tuple[float, float] = (1.0, 1.0)
    offset: tuple[float, float] = (0.0, 0.0)


def _is_number(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def parse_map(rest: str) -> MapOptions:
    """Split the text after ``map_Kd`` (or any ``map_*``) into options and file name.

    >>> parse_map("-s 2 3 1 -o 0.5 0 wood.png")
    MapOptions(file='wood.png', scale=(2.0, 3.0), offset=(0.5, 0.0))
    >>> parse_map("textures/plain name.png").file
    'textures/plain name.png'
    >>> parse_map("-s 4 tile.jpg").scale  # one value scales u only; v keeps 1
    (4.0, 1.0)
    """
    tok = rest.split()
    i = 0
    vec: dict[str, list[float]] = {}
    while i < len(tok) - 1 and tok[i].lower() in (*_FIXED, *_VECTOR):
        key = tok[i].lower()
        i += 1
        if key in _FIXED:
            i += _FIXED[key]
            continue
        vals: list[float] = []
        while i < len(tok) - 1 and len(vals) < 3 and _is_number(tok[i]):
            vals.append(float(tok[i]))
            i += 1
        vec[key] = vals
    if i >= len(tok):  # options swallowed everything: take the last token as the name
        i = len(tok) - 1
    s = vec.get("-s", [])
    o = vec.get("-o", [])
    scale = (s[0] if s else 1.0, s[1] if len(s) > 1 else 1.0)
    offset = (o[0] if o else 0.0, o[1] if len(o) > 1 else 0.0)
    return MapOptions(" ".join(tok[i:]), scale, offset)


class MtlResolver(FilePathResolver):
    """trimesh's file resolver (restricted to the OBJ's folder) that also understands a
    ``map_*`` remainder with options: the name asked for is parsed by :func:`parse_map`."""

    def get(self, name: str) -> bytes:
        try:
            data: bytes = super().get(name)
            return data
        except (FileNotFoundError, ValueError):
            bare = parse_map(name).file
            if bare == name.strip():
                raise
            data = super().get(bare)
            return data


def map_transforms(obj_path: Path) -> dict[str, MapOptions]:
    """``map_Kd`` statements of the ``.mtl`` files an OBJ names, by material name (the last
    statement of a material wins); empty for other formats or unreadable files."""
    if obj_path.suffix.lower() != ".obj":
        return {}
    out: dict[str, MapOptions] = {}
    try:
        lines = obj_path.read_text(encoding="utf-8", errors="replace").splitlines()
        libs = [ln.split(None, 1)[1].strip() for ln in lines if ln.startswith("mtllib") and len(ln.split()) > 1]
        for lib in libs:
            mtl = obj_path.parent / lib
            if not mtl.is_file():
                continue
            name = None
            for ln in mtl.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = ln.strip().split(None, 1)
                if len(parts) < 2:
                    continue
                key = parts[0].lower()
                if key == "newmtl":
                    name = parts[1].strip()
                elif key == "map_kd" and name is not None:
                    out[name] = parse_map(parts[1])
    except OSError:
        return {}
    return out
