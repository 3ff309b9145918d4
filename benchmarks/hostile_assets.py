"""Hostile-input cases for ``hostile_campaign.py``: mesh side files that point outside the mesh's
folder (``mtllib ../x.mtl``, ``map_Kd`` absolute or ``../``, a symlinked texture, glTF image and
buffer URIs with ``../`` or ``%2E%2E/``), texture bombs (a 12,000² and a 20,000² PNG of a few
KB, referenced by an OBJ and embedded in a GLB; peak memory measured in a subprocess) and mesh
files whose errors used to quote a bare exception.

Memory cases run ``navbench scenes import`` / ``scenes export`` in a child process and read its
peak RSS from ``os.wait4``; the budget is :data:`RSS_BUDGET_MB`.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

#: Peak resident memory allowed for importing a scene whose texture is a 12,000² PNG.
RSS_BUDGET_MB = 500


class Campaign(Protocol):
    """What the cases need of ``hostile_campaign.Campaign``."""

    root: Path
    rows: list[tuple[str, str, str]]

    def case(self, name: str, argv: list[str], *, expect: str = "reject",
             check: Callable[[], bool] | None = None, writes: tuple[str, ...] = ()) -> None: ...


def png_bytes(width: int, height: int, rgb: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A solid-colour RGB PNG written row by row (a 12,000² one is ~43 KB and never held whole)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes(rgb) * width
    z = zlib.compressobj(9)
    parts = [z.compress(row) for _ in range(height)]
    parts.append(z.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")


QUAD_OBJ = """mtllib {mtllib}
v -2 0 -2
v 2 0 -2
v 2 0 2
v -2 0 2
vt 0 0
vt 1 0
vt 1 1
vt 0 1
usemtl wall
f 1/1 2/2 3/3
f 1/1 3/3 4/4
"""


def obj_room(folder: Path, *, mtllib: str = "room.mtl", map_kd: str | None = "tex.png",
             texture: bytes | None = None) -> Path:
    """An OBJ quad with one material (``Kd`` 0.8 0.2 0.2) whose ``map_Kd`` is ``map_kd``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "room.obj").write_text(QUAD_OBJ.format(mtllib=mtllib))
    mtl = "newmtl wall\nKd 0.8 0.2 0.2\n" + (f"map_Kd {map_kd}\n" if map_kd else "")
    if not mtllib.startswith(("/", "..")):
        (folder / mtllib).write_text(mtl)
    if texture is not None and map_kd and not map_kd.startswith(("/", "..")):
        (folder / map_kd).write_bytes(texture)
    return folder / "room.obj"


def gltf_quad(path: Path, *, image_uri: str | None = None, image: bytes | None = None,
              buffer_uri: str | None = None) -> Path:
    """A textured quad as ``.gltf`` (``image_uri`` / ``buffer_uri``: external files) or ``.glb``
    (``image`` embedded in the binary chunk)."""
    pos = struct.pack("<12f", -2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2)
    uv = struct.pack("<8f", 0, 0, 1, 0, 1, 1, 0, 1)
    idx = struct.pack("<6H", 0, 1, 2, 0, 2, 3)
    blob = pos + uv + idx + b"\x00\x00"
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
             {"buffer": 0, "byteOffset": 80, "byteLength": 12}]
    img: dict[str, object] = {"mimeType": "image/png"}
    if image is not None:
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(image)})
        img["bufferView"] = 3
        blob += image + b"\x00" * (-len(image) % 4)
    else:
        img["uri"] = image_uri or "tex.png"
    doc = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.6, 0.9, 1.0],
                                                "baseColorTexture": {"index": 0}}}],
        "textures": [{"source": 0}], "images": [img],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [-2, 0, -2], "max": [2, 0, 2]},
                      {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                      {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
        "bufferViews": views, "buffers": [{"byteLength": len(blob)}],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".glb":
        text = json.dumps(doc).encode()
        text += b" " * (-len(text) % 4)
        body = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(blob), b"BIN\x00") + blob
        path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body)
    else:
        doc["buffers"] = [{"byteLength": len(blob), "uri": buffer_uri or "quad.bin"}]
        if not (buffer_uri or "").startswith(("..", "/", "%")):
            (path.parent / (buffer_uri or "quad.bin")).write_bytes(blob)
        path.write_text(json.dumps(doc))
    return path


def side_file_cases(c: Campaign) -> None:
    """Mesh side files outside the mesh's folder must be refused at import, in one line."""
    small = png_bytes(8, 8)
    out = c.root / "o" / "mesh"
    outside = c.root / "outside_assets"
    outside.mkdir()
    (outside / "x.mtl").write_text("newmtl wall\nKd 0.8 0.2 0.2\n")
    (outside / "tex.png").write_bytes(small)
    (outside / "quad.bin").write_bytes(b"\x00" * 96)
    base = c.root / "assets"

    def imp(name: str, mesh: Path, expect: str = "reject") -> None:
        c.case(f"import mesh {name}", ["scenes", "import", str(mesh), "-o", str(out / name / "scene.json")],
               expect=expect)

    imp("obj ok", obj_room(base / "obj_ok", texture=small), expect="accept")
    imp("obj mtllib ../..", obj_room(base / "obj_mtllib" / "a", mtllib="../../../outside_assets/x.mtl"))
    imp("obj mtllib absolute", obj_room(base / "obj_mtllib_abs", mtllib=str(outside / "x.mtl")))
    imp("obj map_Kd absolute", obj_room(base / "obj_map_abs", map_kd=str(outside / "tex.png")))
    imp("obj map_Kd ../", obj_room(base / "obj_map_up", map_kd="../../outside_assets/tex.png"))
    imp("obj map_Kd with options ../", obj_room(base / "obj_map_opt", map_kd="-s 2 2 ../../outside_assets/tex.png"))
    link = obj_room(base / "obj_symlink", map_kd="tex.png")
    os.symlink(outside / "tex.png", link.parent / "tex.png")
    imp("obj symlinked texture", link)
    imp("gltf ok", gltf_quad(base / "gltf_ok" / "room.gltf", image_uri="tex.png"), expect="accept")
    (base / "gltf_ok" / "tex.png").write_bytes(small)
    imp("gltf ok (texture present)", base / "gltf_ok" / "room.gltf", expect="accept")
    imp("gltf image ../", gltf_quad(base / "gltf_up" / "room.gltf", image_uri="../../outside_assets/tex.png"))
    imp("gltf image %2E%2E/", gltf_quad(base / "gltf_pct" / "room.gltf",
                                        image_uri="%2E%2E/%2E%2E/outside_assets/tex.png"))
    imp("gltf image absolute file URI", gltf_quad(base / "gltf_abs" / "room.gltf",
                                                  image_uri=f"file://{outside / 'tex.png'}"))
    imp("gltf buffer ../", gltf_quad(base / "gltf_buf" / "room.gltf", buffer_uri="../../outside_assets/quad.bin"))
    missing = gltf_quad(base / "gltf_nobuf" / "model.gltf", buffer_uri="model.bin")
    (missing.parent / "model.bin").unlink()
    imp("gltf buffer missing", missing)
    bad = gltf_quad(base / "glb_bad" / "room.glb", image=small)
    raw = bytearray(bad.read_bytes())
    raw[12:16] = struct.pack("<I", 10 ** 6)  # a JSON chunk longer than the file
    bad.write_bytes(bytes(raw))
    imp("glb chunk length past the end", bad)


#: Runs ARGV as a grandchild and prints its peak RSS (kB) last on stderr: measured from a small
#: fresh process, since a child forked from this (large) campaign process counts the pages it
#: shared with it before ``exec`` in its own peak.
_MEASURE = ("import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:]); "
            "_, st, ru = os.wait4(p.pid, 0); print(f'@maxrss {ru.ru_maxrss}', file=sys.stderr); "
            "sys.exit(os.waitstatus_to_exitcode(st))")


def _child_rss(argv: list[str], cwd: Path) -> tuple[int, float, str]:
    """``(exit status, peak RSS in MB, stderr)`` of ``navbench ARGV`` in a fresh process."""
    code = "import sys; from navbench.cli import main; main(sys.argv[1:])"
    p = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-c", code, *argv], cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    err = p.stderr.decode("utf-8", "replace")
    lines = err.rstrip().splitlines()
    kb = float(lines[-1].split()[1]) if lines and lines[-1].startswith("@maxrss") else float("nan")
    return p.returncode, kb / 1024.0, "\n".join(lines[:-1])


def texture_bomb_cases(c: Campaign) -> None:
    """A 12,000² PNG (~43 KB) and a 20,000² PNG: imported within :data:`RSS_BUDGET_MB` MB, each
    drawn in its material's colour with a warning that names the file."""
    base = c.root / "bombs"
    ref_code, ref_mb, _ = _child_rss(["scenes", "import", str(obj_room(base / "small", texture=png_bytes(64, 64))),
                                      "-o", str(c.root / "o" / "bomb_small" / "scene.json")], c.root)
    print(f"   (reference: import of an OBJ with a 64² texture: exit {ref_code}, peak {ref_mb:.0f} MB)")
    cases = {
        "obj 12000x12000 png": obj_room(base / "obj12k", texture=png_bytes(12000, 12000)),
        "obj 20000x20000 png": obj_room(base / "obj20k", texture=png_bytes(20000, 20000)),
        "glb embedded 12000x12000 png": gltf_quad(base / "glb12k" / "room.glb", image=png_bytes(12000, 12000)),
    }
    for name, mesh in cases.items():
        out = c.root / "o" / f"bomb_{name.split()[0]}_{name.split()[1]}" / "scene.json"
        code, mb, err = _child_rss(["scenes", "import", str(mesh), "-o", str(out)], c.root)
        warned = [ln for ln in err.splitlines() if "tex.png" in ln or "image 0" in ln or "px" in ln]
        if "Traceback" in err:
            verdict = "traceback"
        elif code != 0:
            verdict = "false_reject"
        elif mb > RSS_BUDGET_MB:
            verdict = "memory"
        elif not warned:
            verdict = "silent"
        else:
            verdict = "clean"
        note = f"exit {code}, peak {mb:.0f} MB ({mb / max(ref_mb, 1):.1f}x the 64² import); " + \
               (warned[0][:90] if warned else "no warning")
        c.rows.append((f"import {name}", verdict, note))
        print(f"{verdict:12s} {'import ' + name:45s} {note}", flush=True)
        if code == 0 and name.startswith("obj 12000"):
            code, mb, err = _child_rss(["scenes", "export", str(out), "-o", str(c.root / "o" / "bomb_export")],
                                       c.root)
            verdict = ("traceback" if "Traceback" in err else "false_reject" if code != 0 else
                       "memory" if mb > RSS_BUDGET_MB else "clean")
            note = f"exit {code}, peak {mb:.0f} MB; " + (err.strip().splitlines() or [""])[-1][:90]
            c.rows.append(("export obj 12000x12000 png", verdict, note))
            print(f"{verdict:12s} {'export obj 12000x12000 png':45s} {note}", flush=True)
