"""Save/load, distance fields and the ``navbench nav`` commands."""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import numpy as np
import pytest

from navbench.cli import main
from navbench.errors import ConfigError, FormatError
from navbench.nav import NavMesh, NavSettings
from navbench.scene import save as save_scene
from tests.conftest import two_room_scene
from tests.nav import worlds

S = NavSettings.preset("indoor")


@pytest.fixture(scope="module")
def u_mesh() -> NavMesh:
    return NavMesh.build(worlds.u_corridor(), S)


def test_save_load_roundtrip(u_mesh: NavMesh, tmp_path: Path) -> None:
    p1, p2 = tmp_path / "a.npz", tmp_path / "b.npz"
    u_mesh.save(p1)
    nm = NavMesh.load(p1)
    assert nm.settings == u_mesh.settings and nm.scene_id == "u_corridor"
    assert nm.islands == u_mesh.islands
    a, b = (0.5, 0.0, 1.0), (0.5, 0.0, 3.0)
    assert nm.geodesic_distance(a, b) == u_mesh.geodesic_distance(a, b)
    assert nm.is_navigable((3.5, 0, 2.0)) and not nm.is_navigable((1.0, 0, 2.0))
    nm.save(p2)
    assert p1.read_bytes() == p2.read_bytes()  # reproducible bytes


def test_load_rejects_bad_files(u_mesh: NavMesh, tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(FormatError, match=r"bad\.npz"):
        NavMesh.load(bad)
    with pytest.raises(FormatError, match="missing"):
        NavMesh.load(tmp_path / "missing.npz")
    good = tmp_path / "good.npz"
    u_mesh.save(good)
    cut = tmp_path / "cut.npz"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(cut, "w") as zout:
        for item in zin.infolist():
            if item.filename != "layer0/clear.npy":
                zout.writestr(item, zin.read(item.filename))
    with pytest.raises(FormatError, match="layer0/clear"):
        NavMesh.load(cut)


@pytest.mark.parametrize("header", [
    b"{'descr': '<f4', 'fortran_order': False, 'shape': (3,",  # unclosed: tokenize.TokenError
    b"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)) }",  # not a literal: SyntaxError
    b"{'descr': '<f4', 'fortran_order': False, 'shape': (10**30,), }",  # not a literal either
])
def test_load_rejects_damaged_npy_header(u_mesh: NavMesh, tmp_path: Path, header: bytes) -> None:
    """A member whose .npy header is not a valid literal (found by CI's fuzzer) is a FormatError
    naming the member, not a tokenizer traceback."""
    good = tmp_path / "good.npz"
    u_mesh.save(good)
    npy = b"\x93NUMPY\x01\x00" + len(header + b"\n").to_bytes(2, "little") + header + b"\n"
    bad = tmp_path / "hdr.npz"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            data = npy if item.filename == "island_areas.npy" else zin.read(item.filename)
            zout.writestr(item.filename, data)
    with pytest.raises(FormatError, match="island_areas"):
        NavMesh.load(bad)


def test_distance_field_matches_geodesic(u_mesh: NavMesh) -> None:
    goal = (0.5, 0.0, 3.0)
    f = u_mesh.distance_field(goal)
    assert f(goal) == pytest.approx(0.0, abs=S.cell_size)
    for p in [(0.5, 0.0, 1.0), (3.5, 0.0, 0.5), (2.0, 0.0, 3.5)]:
        exact = u_mesh.geodesic_distance(p, goal)
        # first-order FMM overestimates around corners: a few percent (documented in fields.py)
        assert exact - S.cell_size <= f(p) <= exact * 1.05 + S.cell_size
    assert math.isinf(f((1.0, 0.0, 2.0)))  # inside the wall
    with pytest.raises(ConfigError):
        u_mesh.distance_field((50.0, 0.0, 50.0))


def test_cli_build_and_show(tmp_path: Path) -> None:
    scene = tmp_path / "two.json"
    save_scene(two_room_scene(), scene)
    out = tmp_path / "nav.npz"
    with pytest.raises(SystemExit) as e:
        main(["nav", "build", str(scene), "-o", str(out)])
    assert e.value.code == 0
    nm = NavMesh.load(out)
    assert len(nm.islands) == 1 and nm.scene_id == "two_rooms"
    png = tmp_path / "nav.png"
    with pytest.raises(SystemExit) as e:
        main(["nav", "show", str(scene), "-o", str(png), "--navmesh", str(out)])
    assert e.value.code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SystemExit) as e:
        main(["nav", "build", str(scene), "-o", str(out), "--preset", "boat"])
    assert e.value.code == 2


def test_build_is_deterministic() -> None:
    a = NavMesh.build(two_room_scene(), S)
    b = NavMesh.build(two_room_scene(), S)
    assert np.array_equal(a.graphs[0].nodes.pos, b.graphs[0].nodes.pos)
    assert np.array_equal(a.layers[0].clear, b.layers[0].clear)
