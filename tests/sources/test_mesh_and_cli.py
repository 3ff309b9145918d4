"""Mesh geometry (trimesh OBJ/GLB written here), navmesh on a mesh scene, and the CLI."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
import trimesh

import navbench.scene as ns
from navbench.cli import main
from navbench.errors import SceneFormatError
from navbench.scene.sources.mesh import load_mesh


def _zup_room(path: Path) -> Path:
    """A 6 m x 4 m floor slab (top at z = 0) with a 1 m pillar, Z up, as a scan OBJ would be."""
    floor = trimesh.creation.box(extents=(6.0, 4.0, 0.2))
    floor.apply_translation((3.0, 2.0, -0.1))
    pillar = trimesh.creation.box(extents=(1.0, 1.0, 2.5))
    pillar.apply_translation((4.5, 2.0, 1.25))
    trimesh.util.concatenate([floor, pillar]).export(path)
    return path


def test_zup_obj_to_habitat(tmp_path: Path) -> None:
    m = load_mesh(_zup_room(tmp_path / "room.obj"), "z")
    lo, hi = m.vertices.min(axis=0), m.vertices.max(axis=0)
    # Z-up x 0..6, y 0..4, z -0.2..2.5 -> Habitat x 0..6, y -0.2..2.5, z -4..0.
    assert lo.tolist() == pytest.approx([0.0, -0.2, -4.0])
    assert hi.tolist() == pytest.approx([6.0, 2.5, 0.0])
    assert m.kind == "mesh" and m.faces.shape[1] == 3
    same = load_mesh(tmp_path / "room.obj", "y")
    assert same.vertices.min(axis=0).tolist() == pytest.approx([0.0, 0.0, -0.2])


def test_bad_mesh_files(tmp_path: Path) -> None:
    with pytest.raises(SceneFormatError, match=r"nothere\.glb"):
        load_mesh(tmp_path / "nothere.glb")
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTF\x02\x00\x00\x00\x10")
    with pytest.raises(SceneFormatError, match=r"bad\.glb"):
        load_mesh(bad)


def test_mesh_scene_gets_a_navmesh(tmp_path: Path) -> None:
    import navbench.nav as nav

    m = load_mesh(_zup_room(tmp_path / "room.obj"), "z")
    scene = ns.Scene("scan", "indoor", "gibson", meshes=(m,))
    mesh = nav.NavMesh.build(scene)
    assert mesh.is_navigable((1.0, 0.0, -2.0))
    # The floor island is the 24 m² slab minus at least the 1 m² pillar footprint.
    assert 12.0 < mesh.island_area(0) < 23.0
    # Around the pillar: longer than the straight 3.3 m line, shorter than a 2 m detour.
    d = mesh.geodesic_distance((2.5, 0.0, -2.0), (5.8, 0.0, -2.0))
    assert 3.4 < d < 3.3 + 2.0


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata"


@pytest.mark.skipif(not (REAL / "procthor").is_dir() and not os.environ.get("CI"),
                    reason="../shared/realdata not present (CI requires it)")
def test_cli_import_procthor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "scene.json"
    house = str(REAL / "procthor" / "house_0.json")
    assert _cli(["scenes", "import", house, "-o", str(out)]) == 2
    assert "--assets" in capsys.readouterr().err
    assert not out.exists()
    rc = _cli(["scenes", "import", house, "--format", "procthor", "--assets",
               str(REAL / "procthor" / "asset-database.json"), "-o", str(out)])
    assert rc == 0
    s = ns.load(out)
    assert s.source == "procthor" and len(s.objects) == 52
    first = out.read_bytes()
    _cli(["scenes", "import", house, "--assets", str(REAL / "procthor" / "asset-database.json"),
          "-o", str(out)])
    assert out.read_bytes() == first  # byte-identical


def test_cli_gibson_with_mesh_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "3DSceneGraph_T.npz"
    np.savez(p, output={"building": {"name": "T"}, "room": {1: {
        "scene_category": "kitchen", "location": np.array([3.0, 2.0, 1.0]),
        "size": np.array([6.0, 4.0, 2.0])}}, "object": {}})
    out = tmp_path / "t.json"
    assert _cli(["scenes", "import", str(p), "-o", str(out)]) == 0
    assert "need geometry" in capsys.readouterr().out
    rc = _cli(["scenes", "import", str(p), "--mesh", str(_zup_room(tmp_path / "r.obj")), "-o", str(out)])
    assert rc == 0
    s = ns.load(out)
    assert len(s.meshes) == 1 and s.meshes[0].vertices[:, 2].min() == pytest.approx(-4.0)
    assert _cli(["scenes", "import", str(p), "--format", "mp3d", "-o", str(out)]) == 2
    assert "3DSceneGraph_T.npz" in capsys.readouterr().err
    assert _cli(["scenes", "import", str(p), "--assets", "x.json", "-o", str(out)]) == 2
    assert "does not use option(s) assets" in capsys.readouterr().err
    assert _cli(["scenes", "import", str(p), "--up", "x", "-o", str(out)]) == 2
    assert _cli(["scenes", "import", str(tmp_path / "what.bin"), "-o", str(out)]) == 2
    assert "--format" in capsys.readouterr().err
    json.loads(out.read_text())  # the last good output is intact
    assert math.isfinite(s.rooms[0].area) and s.rooms[0].area == pytest.approx(24.0)
