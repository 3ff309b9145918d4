"""A minimal glTF 2.0 binary (GLB) writer over numpy + struct.

One GLB holds one node with one mesh; each :class:`Primitive` is one triangle list with one
:class:`GltfMaterial` (glTF metallic-roughness, baseColor factor and an optional PNG-embedded
baseColor texture sampled with REPEAT wrapping). Frame: whatever the caller gives; navbench
writes its Habitat frame (metres, Y up, -Z forward), which is glTF's own convention.

UVs are given in navbench's convention (v up, image row 0 = the top at v = 1) and flipped to
glTF's (v down, origin at the image's top-left) here: ``v_gltf = 1 - v``. Output is
deterministic: same arrays → same bytes (PNG encoding with fixed settings, sorted JSON keys).

Materials that share one image array share one glTF image/texture. Measured against
``trimesh.Scene.export(file_type="glb")`` (``benchmarks/bench_export.py``): trimesh needs
trimesh objects built per primitive and its own material conversion; this writer takes the
visual layer's arrays as they are (normals, UVs, PNGs) and most of its time is PNG encoding.
"""

from __future__ import annotations

import io
import json
import struct
from dataclasses import dataclass

import numpy as np

GLB_MAGIC = 0x46546C67  # "glTF"
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942
FLOAT, UINT32, UBYTE = 5126, 5125, 5121
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
REPEAT, LINEAR, LINEAR_MIPMAP_LINEAR = 10497, 9729, 9987


@dataclass(frozen=True)
class GltfMaterial:
    """One glTF material.

    Attributes:
        name: material name (navbench's material key).
        rgba: baseColorFactor, linear 0..1 (alpha < 1 → ``alphaMode: BLEND``).
        texture: optional (H, W, 3|4) uint8 baseColor image, row 0 = the top.
        roughness, metallic: PBR factors (0..1).
        emission: emissive strength (0..1, times the base colour and the texture, if any).
    """

    name: str
    rgba: tuple[float, float, float, float]
    texture: np.ndarray | None = None
    roughness: float = 0.9
    metallic: float = 0.0
    emission: float = 0.0


@dataclass(frozen=True)
class Primitive:
    """One triangle list: (N, 3) positions (m), (M, 3) faces, optional (N, 2) UVs (navbench
    convention, v up), optional (N, 3|4) uint8 vertex colours, and a material index."""

    positions: np.ndarray
    faces: np.ndarray
    material: int
    uv: np.ndarray | None = None
    colors: np.ndarray | None = None


def vertex_normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Area-weighted unit vertex normals ((N, 3) float32; +Y for isolated vertices)."""
    t = v[f]
    fn = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    idx = f.reshape(-1)
    w = np.repeat(fn, 3, axis=0)
    n = np.column_stack([np.bincount(idx, weights=w[:, c], minlength=len(v)) for c in range(3)])
    norm = np.linalg.norm(n, axis=1)
    bad = norm < 1e-20
    n[bad] = (0.0, 1.0, 0.0)
    norm[bad] = 1.0
    return (n / norm[:, None]).astype(np.float32)


def png_bytes(img: np.ndarray) -> bytes:
    """PNG encoding of an (H, W, 3|4) uint8 image (fixed settings: deterministic bytes)."""
    from PIL import Image

    a = np.ascontiguousarray(np.asarray(img, dtype=np.uint8))
    buf = io.BytesIO()
    Image.fromarray(a, "RGBA" if a.shape[2] == 4 else "RGB").save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


class _Bin:
    """The binary chunk under construction: 4-byte aligned buffer views."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.views: list[dict[str, object]] = []

    def view(self, data: bytes, target: int | None = None) -> int:
        pad = (-self.size) % 4
        if pad:
            self.parts.append(b"\0" * pad)
            self.size += pad
        v: dict[str, object] = {"buffer": 0, "byteOffset": self.size, "byteLength": len(data)}
        if target is not None:
            v["target"] = target
        self.parts.append(data)
        self.size += len(data)
        self.views.append(v)
        return len(self.views) - 1


def glb_bytes(primitives: list[Primitive], materials: list[GltfMaterial], *, name: str = "scene",
              extras: dict[str, object] | None = None) -> bytes:
    """The GLB file (bytes) of ``primitives`` drawn with ``materials`` under one node ``name``."""
    b = _Bin()
    accessors: list[dict[str, object]] = []

    def accessor(arr: np.ndarray, ctype: int, kind: str, target: int, *, bounds: bool = False,
                 normalized: bool = False) -> int:
        view = b.view(np.ascontiguousarray(arr).tobytes(), target)
        a: dict[str, object] = {"bufferView": view, "componentType": ctype, "count": int(arr.shape[0]),
                                "type": kind}
        if bounds:
            a["min"] = [float(x) for x in arr.min(axis=0)]
            a["max"] = [float(x) for x in arr.max(axis=0)]
        if normalized:
            a["normalized"] = True
        accessors.append(a)
        return len(accessors) - 1

    prims = []
    for p in primitives:
        if len(p.faces) == 0:
            continue
        pos = np.asarray(p.positions, dtype=np.float32)
        faces = np.asarray(p.faces, dtype=np.uint32)
        attrs = {"POSITION": accessor(pos, FLOAT, "VEC3", ARRAY_BUFFER, bounds=True),
                 "NORMAL": accessor(vertex_normals(pos.astype(np.float64), faces.astype(np.int64)),
                                    FLOAT, "VEC3", ARRAY_BUFFER)}
        if p.uv is not None:
            uv = np.asarray(p.uv, dtype=np.float64).copy()
            uv[:, 1] = 1.0 - uv[:, 1]
            attrs["TEXCOORD_0"] = accessor(uv.astype(np.float32), FLOAT, "VEC2", ARRAY_BUFFER)
        if p.colors is not None:
            c = np.asarray(p.colors, dtype=np.uint8)
            attrs["COLOR_0"] = accessor(c, UBYTE, "VEC4" if c.shape[1] == 4 else "VEC3", ARRAY_BUFFER,
                                        normalized=True)
        idx = accessor(faces.reshape(-1, 1), UINT32, "SCALAR", ELEMENT_ARRAY_BUFFER, bounds=True)
        prims.append({"attributes": attrs, "indices": idx, "material": int(p.material), "mode": 4})
    if not prims:
        raise ValueError("glb_bytes: no triangles to write")

    images: list[dict[str, object]] = []
    textures: list[dict[str, object]] = []
    mats = []
    tex_of: dict[int, int] = {}  # id(image array) -> texture index: materials share images
    for m in materials:
        pbr: dict[str, object] = {"baseColorFactor": [float(x) for x in m.rgba],
                                  "metallicFactor": float(m.metallic), "roughnessFactor": float(m.roughness)}
        if m.texture is not None:
            if id(m.texture) not in tex_of:
                images.append({"bufferView": b.view(png_bytes(m.texture)), "mimeType": "image/png"})
                textures.append({"sampler": 0, "source": len(images) - 1})
                tex_of[id(m.texture)] = len(textures) - 1
            pbr["baseColorTexture"] = {"index": tex_of[id(m.texture)], "texCoord": 0}
        mat: dict[str, object] = {"name": m.name, "pbrMetallicRoughness": pbr, "doubleSided": False}
        if m.rgba[3] < 1.0:
            mat["alphaMode"] = "BLEND"
        if m.emission > 0:
            mat["emissiveFactor"] = [float(min(1.0, m.emission * c)) for c in m.rgba[:3]]
            if m.texture is not None:  # MuJoCo modulates emission by the texture too
                mat["emissiveTexture"] = {"index": tex_of[id(m.texture)], "texCoord": 0}
        mats.append(mat)

    doc: dict[str, object] = {
        "asset": {"version": "2.0", "generator": "navbench.export.gltf"},
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": name, "mesh": 0}],
        "meshes": [{"name": name, "primitives": prims}],
        "accessors": accessors, "materials": mats,
        "buffers": [{"byteLength": 0}], "bufferViews": b.views,
    }
    if images:
        doc.update(images=images, textures=textures,
                   samplers=[{"magFilter": LINEAR, "minFilter": LINEAR_MIPMAP_LINEAR, "wrapS": REPEAT, "wrapT": REPEAT}])
    if extras:
        doc["extras"] = extras
    pad = (-b.size) % 4
    binary = b"".join(b.parts) + b"\0" * pad
    doc["buffers"] = [{"byteLength": len(binary)}]
    js = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode("utf-8")
    js += b" " * ((-len(js)) % 4)
    total = 12 + 8 + len(js) + 8 + len(binary)
    return b"".join([struct.pack("<III", GLB_MAGIC, 2, total), struct.pack("<II", len(js), CHUNK_JSON), js,
                     struct.pack("<II", len(binary), CHUNK_BIN), binary])
