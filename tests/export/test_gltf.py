"""GLB writer checked by real glTF readers (pygltflib, trimesh) on hand-made primitives."""

from __future__ import annotations

import io
import struct

import numpy as np
import pygltflib
import pytest
import trimesh
from PIL import Image

from navbench.export.gltf import GltfMaterial, Primitive, glb_bytes, vertex_normals

SQUARE = np.array([[0, 0, 0], [2, 0, 0], [2, 0, -3], [0, 0, -3]], float)  # 2 x 3 m floor, Y up
SQUARE_F = np.array([[0, 1, 2], [0, 2, 3]])
SQUARE_UV = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
TRI = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 1]], float)


def _image() -> np.ndarray:
    img = np.zeros((4, 8, 3), np.uint8)
    img[0] = (255, 0, 0)  # top row red
    img[-1] = (0, 0, 255)  # bottom row blue
    return img


def _glb() -> bytes:
    mats = [GltfMaterial("floor", (1.0, 1.0, 1.0, 1.0), _image()), GltfMaterial("red", (0.8, 0.1, 0.1, 0.5))]
    prims = [Primitive(SQUARE, SQUARE_F, 0, SQUARE_UV),
             Primitive(TRI, np.array([[0, 1, 2]]), 1, colors=np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255]], np.uint8))]
    return glb_bytes(prims, mats, name="test", extras={"k": 1})


def test_glb_header_and_chunks_are_aligned() -> None:
    data = _glb()
    magic, version, total = struct.unpack("<III", data[:12])
    assert (magic, version, total) == (0x46546C67, 2, len(data))
    jlen, jtype = struct.unpack("<II", data[12:20])
    assert jtype == 0x4E4F534A and jlen % 4 == 0
    blen, btype = struct.unpack("<II", data[20 + jlen:28 + jlen])
    assert btype == 0x004E4942 and blen % 4 == 0 and 28 + jlen + blen == len(data)


def test_pygltflib_reads_accessors_materials_and_texture() -> None:
    g = pygltflib.GLTF2.load_from_bytes(_glb())
    assert g.asset.version == "2.0"
    prims = g.meshes[0].primitives
    assert len(prims) == 2 and len(g.materials) == 2
    pos = g.accessors[prims[0].attributes.POSITION]
    assert pos.count == 4 and pos.min == [0.0, 0.0, -3.0] and pos.max == [2.0, 0.0, 0.0]
    assert g.accessors[prims[0].indices].count == 6 and g.accessors[prims[1].indices].count == 3
    assert g.materials[1].alphaMode == "BLEND" and g.materials[0].alphaMode in (None, "OPAQUE")
    assert g.materials[0].pbrMetallicRoughness.baseColorTexture.index == 0
    assert g.samplers[0].wrapS == 10497 and g.samplers[0].wrapT == 10497
    blob = g.binary_blob()
    view = g.bufferViews[g.images[0].bufferView]
    png = blob[view.byteOffset:view.byteOffset + view.byteLength]
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png))), _image())
    # UVs: navbench v up (v = 1 is image row 0) → glTF v down: (0, 1) becomes (0, 0)
    uva = g.accessors[prims[0].attributes.TEXCOORD_0]
    uv_view = g.bufferViews[uva.bufferView]
    uv = np.frombuffer(blob[uv_view.byteOffset:uv_view.byteOffset + uv_view.byteLength], np.float32).reshape(-1, 2)
    assert np.allclose(uv, [[0, 1], [1, 1], [1, 0], [0, 0]])
    assert g.accessors[prims[1].attributes.COLOR_0].normalized


def test_emission_of_a_textured_material_is_modulated_by_its_texture() -> None:
    mats = [GltfMaterial("lit", (1.0, 1.0, 1.0, 1.0), _image(), emission=0.2),
            GltfMaterial("glow", (1.0, 0.5, 0.0, 1.0), emission=0.5)]
    prims = [Primitive(SQUARE, SQUARE_F, 0, SQUARE_UV), Primitive(TRI, np.array([[0, 1, 2]]), 1)]
    g = pygltflib.GLTF2.load_from_bytes(glb_bytes(prims, mats, name="e"))
    lit, glow = g.materials
    assert lit.emissiveFactor == pytest.approx([0.2, 0.2, 0.2])
    assert lit.emissiveTexture.index == lit.pbrMetallicRoughness.baseColorTexture.index == 0
    assert glow.emissiveFactor == pytest.approx([0.5, 0.25, 0.0]) and glow.emissiveTexture is None


def test_trimesh_round_trip_geometry_and_texture_colour() -> None:
    scene = trimesh.load(io.BytesIO(_glb()), file_type="glb")
    geoms = list(scene.geometry.values())
    assert sorted(len(m.faces) for m in geoms) == [1, 2]
    floor = next(m for m in geoms if len(m.faces) == 2)
    assert np.allclose(np.sort(floor.vertices, axis=0), np.sort(SQUARE, axis=0))
    assert np.allclose(scene.bounds, [[0, 0, -3], [2, 1, 1]])
    # the texel at glTF uv (0.5, 0.05) is near the image top: red
    img = np.asarray(floor.visual.material.baseColorTexture.convert("RGB"))
    assert tuple(img[0, 4]) == (255, 0, 0) and tuple(img[-1, 4]) == (0, 0, 255)


def test_normals_point_up_on_a_ccw_floor_and_bytes_are_deterministic() -> None:
    n = vertex_normals(SQUARE, SQUARE_F)
    assert np.allclose(n, [[0, 1, 0]] * 4)
    assert _glb() == _glb()


def test_no_triangles_is_an_error() -> None:
    with pytest.raises(ValueError, match="no triangles"):
        glb_bytes([Primitive(SQUARE, np.zeros((0, 3), int), 0)], [GltfMaterial("x", (1, 1, 1, 1))])
