"""The files a mesh file references (its *assets*) under one rule, and its texture images
measured against the pixel budget before anything decodes them.

**One rule for side files**: every file a mesh references — an OBJ's ``mtllib`` files and their
``map_*`` / ``bump`` / ``disp`` / ``decal`` / ``refl`` images, a glTF's external ``buffers`` and
``images`` (URIs percent-decoded) — must resolve, symlinks followed, inside the mesh file's own
folder. Anything else (``../x.mtl``, an absolute path, a ``file:`` URI, ``%2E%2E/``, a texture
that is a symlink to another folder) is a :class:`~navbench.errors.SceneFormatError` at import,
the same rule :func:`navbench.scene.meshfile.copy_side_files` applies when a dataset is built.
References inside the folder whose file is missing are left out (drawn untextured).

**Texture budget**: :func:`oversized_textures` reads each texture image's size from its header
(:func:`navbench.io.image_size`) and lists those over the pixel budget
(:func:`navbench.io.max_pixels`) with the material colour they are drawn in instead.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from navbench.errors import SceneFormatError
from navbench.io import JSONLimitError, describe_read_error, image_size, loads_json, max_pixels
from navbench.jsontypes import JSON, JSONObject

#: MTL statements that name an image file.
_MTL_MAPS = ("bump", "disp", "decal", "refl")
#: Largest glTF JSON chunk / .gltf file read (bytes).
MAX_GLTF_JSON = 64 << 20


def _fail(file: str | Path, field: str, expected: str, got: object = None) -> SceneFormatError:
    return SceneFormatError(Path(file).name if isinstance(file, Path) else file, field, expected, got)


def resolve_inside(mesh: Path, name: str, field: str, written: str | None = None) -> Path:
    """``name`` (a file name relative to ``mesh``'s folder) resolved, symlinks followed.

    Raises:
        SceneFormatError: the reference resolves outside the mesh file's folder (the message
            quotes ``written``, the reference as the file spells it, default ``name``).
    """
    folder = mesh.parent.resolve()
    target = (mesh.parent / name).resolve()
    if not target.is_relative_to(folder):
        shown = written or name  # its end names the file: keep that when it is long
        raise _fail(mesh, field, "a file inside the mesh's folder (move it beside the mesh and "
                    "reference it by a relative path)", shown if len(shown) <= 72 else "..." + shown[-69:])
    return target


def _uri_name(mesh: Path, uri: str, field: str) -> str | None:
    """The relative file name of a glTF URI (percent-decoded), None for ``data:`` URIs.

    Raises:
        SceneFormatError: a URI with a scheme or an authority (``file://``, ``http:``).
    """
    if uri.startswith("data:"):
        return None
    parts = urlsplit(uri)
    if parts.scheme or parts.netloc:
        raise _fail(mesh, field, "a relative file URI inside the mesh's folder", uri)
    return unquote(parts.path)


def read_gltf_json(path: Path) -> tuple[JSONObject, bytes | None]:
    """The JSON document of a ``.gltf`` / ``.glb`` file and the GLB's binary chunk (None for
    ``.gltf``), read within the JSON limits.

    Raises:
        SceneFormatError: truncated or inconsistent chunks, invalid or oversized JSON.
    """
    try:
        if path.suffix.lower() == ".glb":
            raw = path.read_bytes()
            if len(raw) < 20 or raw[:4] != b"glTF":
                raise _fail(path, "<header>", "a GLB file (magic 'glTF' and a JSON chunk)", f"{len(raw)} bytes")
            n, kind = struct.unpack("<I4s", raw[12:20])
            if kind != b"JSON" or n > min(len(raw) - 20, MAX_GLTF_JSON):
                raise _fail(path, "<header>", f"a JSON chunk within the file's {len(raw)} bytes",
                            f"a {kind!r} chunk of {n} bytes")
            doc = loads_json(raw[20:20 + n])
            binary = None
            at = 20 + n + (-n % 4)
            if at + 8 <= len(raw):
                m, kind = struct.unpack("<I4s", raw[at:at + 8])
                if kind == b"BIN\x00":
                    binary = raw[at + 8:at + 8 + m]
        else:
            if path.stat().st_size > MAX_GLTF_JSON:
                raise _fail(path, "<file>", f"a .gltf file of at most {MAX_GLTF_JSON} bytes",
                            f"{path.stat().st_size} bytes")
            doc, binary = loads_json(path.read_bytes()), None
    except (OSError, ValueError) as e:  # JSONDecodeError, JSONLimitError, UnicodeDecodeError
        got = str(e) if isinstance(e, JSONLimitError) else describe_read_error(e)
        raise _fail(path, "<json>", "a readable glTF JSON document", got) from None
    if not isinstance(doc, dict):
        raise _fail(path, "<json>", "a glTF JSON object", type(doc).__name__)
    return doc, binary


def _list(doc: JSONObject, key: str) -> list[JSON]:
    v = doc.get(key)
    return v if isinstance(v, list) else []


def _obj_references(path: Path) -> list[tuple[str, str, str]]:
    """``(field, name, material)`` of every file an OBJ references (mtllib, then map lines)."""
    out: list[tuple[str, str, str]] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        libs = [ln.split(None, 1)[1].strip() for ln in f if ln.startswith("mtllib") and len(ln.split()) > 1]
    for lib in libs:
        names = [lib] if (path.parent / lib).is_file() else lib.split()
        for name in names:
            out.append(("mtllib", name, ""))
            mtl = resolve_inside(path, name, "mtllib")
            if not mtl.is_file():
                continue
            material = ""
            for line in mtl.read_text(encoding="utf-8", errors="replace").splitlines():
                tok = line.split()
                if len(tok) > 1 and tok[0].lower() == "newmtl":
                    material = line.split(None, 1)[1].strip()
                elif len(tok) > 1 and (tok[0].lower().startswith("map_") or tok[0].lower() in _MTL_MAPS):
                    rest = line.split(None, 1)[1].strip()
                    # the whole remainder is the name for trimesh, the last token after options
                    for cand in dict.fromkeys((rest, tok[-1])):
                        out.append((f"{name}: {tok[0]}", str(Path(name).parent / cand), material))
    return out


def _gltf_references(path: Path) -> list[tuple[str, str, str]]:
    """``(field, decoded name, URI as written)`` of a glTF's external buffers and images."""
    doc, _ = read_gltf_json(path)
    out = []
    for key in ("buffers", "images"):
        for k, item in enumerate(_list(doc, key)):
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and uri:
                name = _uri_name(path, uri, f"{key}[{k}].uri")
                if name is not None:
                    out.append((f"{key}[{k}].uri", name, uri))
    return out


def mesh_assets(path: str | Path) -> list[Path]:
    """Existing files a mesh file references (sorted, resolved, no duplicates): an OBJ's ``.mtl``
    files and their texture images, a glTF's / GLB's external buffers and images; empty for PLY /
    STL / OFF. Missing references inside the folder are left out.

    Raises:
        SceneFormatError: a reference that resolves outside the mesh's folder (see the module docs).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".obj":
        found = {resolve_inside(path, name, field) for field, name, _ in _obj_references(path)}
    elif suffix in (".gltf", ".glb"):
        found = {resolve_inside(path, name, field, uri) for field, name, uri in _gltf_references(path)}
    else:
        return []
    return sorted(p for p in found if p.is_file())


@dataclass(frozen=True)
class Oversized:
    """A texture image over the pixel budget and the colour its material is drawn in instead."""

    image: str
    width: int
    height: int
    material: str
    rgba: tuple[float, float, float, float]

    def message(self, mesh: str, budget: int) -> str:
        """The warning: the file, the size, the budget and the fallback colour."""
        rgb = ", ".join(f"{c:.2f}" for c in self.rgba[:3])
        return (f"{mesh}: texture {self.image} is {self.width} x {self.height} px "
                f"({self.width * self.height / 1e6:.1f} Mpx), over the pixel budget of {budget / 1e6:.1f} Mpx "
                f"({budget ** 0.5:.0f}²; NAVBENCH_MAX_TEXTURE_PIXELS); not decoded: material "
                f"{self.material or '?'} is drawn in its colour ({rgb})")


def _kd(tok: list[str]) -> tuple[float, float, float, float]:
    try:
        r, g, b = (float(x) for x in tok[1:4])
    except ValueError:
        return (0.7, 0.7, 0.7, 1.0)
    return (r, g, b, 1.0)


RGBA = tuple[float, float, float, float]
#: A texture image found in a mesh file: (label, file or embedded bytes, material, colour).
TextureImage = tuple[str, bytes | Path, str, RGBA]


def _obj_textures(path: Path) -> list[TextureImage]:
    out: list[TextureImage] = []
    colours: dict[str, tuple[float, float, float, float]] = {}
    for field, name, material in _obj_references(path):
        if field == "mtllib":
            mtl = resolve_inside(path, name, field)
            if mtl.is_file():
                cur = ""
                for line in mtl.read_text(encoding="utf-8", errors="replace").splitlines():
                    tok = line.split()
                    if len(tok) > 1 and tok[0].lower() == "newmtl":
                        cur = line.split(None, 1)[1].strip()
                    elif len(tok) > 3 and tok[0] == "Kd":
                        colours[cur] = _kd(tok)
            continue
        img = resolve_inside(path, name, field)
        if img.is_file():
            out.append((os.path.relpath(img, path.parent.resolve()), img, material,
                        colours.get(material, (0.7, 0.7, 0.7, 1.0))))
    return out


def _view_bytes(doc: JSONObject, binary: bytes | None, index: JSON) -> bytes | None:
    views = _list(doc, "bufferViews")
    if binary is None or not isinstance(index, int) or not 0 <= index < len(views):
        return None
    v = views[index]
    if not isinstance(v, dict) or v.get("buffer", 0) != 0:
        return None
    off, n = v.get("byteOffset", 0), v.get("byteLength", 0)
    if not isinstance(off, int) or not isinstance(n, int):
        return None
    return binary[off:off + n]


def _gltf_textures(path: Path) -> list[TextureImage]:
    doc, binary = read_gltf_json(path)
    textures = _list(doc, "textures")
    users: dict[int, list[tuple[str, RGBA]]] = {}
    for k, m in enumerate(_list(doc, "materials")):
        pbr = m.get("pbrMetallicRoughness") if isinstance(m, dict) else None
        tex = pbr.get("baseColorTexture") if isinstance(pbr, dict) else None
        t = tex.get("index") if isinstance(tex, dict) else None
        src = textures[t].get("source") if isinstance(t, int) and 0 <= t < len(textures) \
            and isinstance(textures[t], dict) else None
        if isinstance(src, int) and isinstance(pbr, dict):
            f = pbr.get("baseColorFactor")
            rgba: RGBA = (1.0, 1.0, 1.0, 1.0)
            if isinstance(f, list) and len(f) == 4 and all(isinstance(c, (int, float)) for c in f):
                rgba = (float(f[0]), float(f[1]), float(f[2]), float(f[3]))
            users.setdefault(src, []).append((str(m.get("name") or k), rgba))
    out: list[TextureImage] = []
    for j, im in enumerate(_list(doc, "images")):
        if not isinstance(im, dict) or j not in users:
            continue
        uri = im.get("uri")
        source: bytes | Path | None
        if isinstance(uri, str) and uri:
            name = _uri_name(path, uri, f"images[{j}].uri")
            if name is None:
                continue  # data: URIs are small by construction of the file size limit
            source, label = resolve_inside(path, name, f"images[{j}].uri", uri), name
            if not source.is_file():
                continue
        else:
            source, label = _view_bytes(doc, binary, im.get("bufferView")), f"images[{j}] (embedded)"
            if source is None:
                continue
        for material, rgba in users[j]:
            out.append((label, source, material, rgba))
    return out


def oversized_textures(path: str | Path, budget: int | None = None) -> list[Oversized]:
    """Texture images of an OBJ / glTF / GLB whose header declares more pixels than the budget
    (:func:`navbench.io.max_pixels`), with the material each one belongs to and the colour it is
    drawn in instead (the MTL ``Kd``, or the glTF ``baseColorFactor``); nothing is decoded."""
    path = Path(path)
    limit = max_pixels(budget)
    suffix = path.suffix.lower()
    found = _obj_textures(path) if suffix == ".obj" else _gltf_textures(path) if suffix in (".gltf", ".glb") else []
    out = []
    for label, source, material, rgba in found:
        size = image_size(source)
        if size is not None and size[0] * size[1] > limit:
            out.append(Oversized(label, size[0], size[1], material, rgba))
    return out
