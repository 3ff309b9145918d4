"""``navbench scene render`` and its argument errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

import navbench.cli.render  # noqa: F401  (registers the commands)
from navbench.cli import main
from navbench.cli._app import app
from navbench.scene.io import save
from tests.visual.test_scene_visuals import studio


def test_render_writes_rgb_depth_and_semantics(tmp_path):
    scene_path = save(studio(), tmp_path / "scene.json")
    out, dep, sem = tmp_path / "rgb.png", tmp_path / "d.npy", tmp_path / "sem.png"
    r = CliRunner().invoke(app, ["scene", "render", str(scene_path), "-o", str(out), "--pos", "1.5,0,0",
                                 "--look-at", "1.5,0,-3", "--robot", "turtlebot", "--size", "96x72",
                                 "--depth", str(dep), "--semantic", str(sem)])
    assert r.exit_code == 0, r.output
    assert "centre pixel: wall (r0) at 2.77 m" in r.output  # see test_scene_visuals: 2.775 m
    rgb = np.asarray(Image.open(out))
    assert rgb.shape == (72, 96, 3) and rgb.std() > 3
    depth = np.load(dep)
    assert depth.dtype == np.float32 and depth[36, 48] == np.float32(depth[36, 48]) and abs(depth[36, 48] - 2.775) < 0.01
    ids = np.asarray(Image.open(sem))
    labels = json.loads((tmp_path / "sem.json").read_text())
    assert labels[str(int(ids[36, 48]))] == ["r0", "wall"]


def test_render_rejects_bad_vectors_and_sizes(tmp_path, capsys):
    scene_path = save(studio(), tmp_path / "scene.json")
    for args, msg in ((["--pos", "1,2", "--look-at", "0,0,0"], "--pos: expected X,Y,Z"),
                      (["--pos", "nan,0,0", "--look-at", "0,0,0"], "--pos: expected X,Y,Z"),
                      (["--pos", "0,0,0", "--look-at", "1e6,0,0"], "within ±100 km"),
                      (["--pos", "1,0,0", "--look-at", "0,0,0", "--size", "big"], "--size: expected WxH"),
                      (["--pos", "1,0,0", "--look-at", "0,0,0", "--robot", "drone"], "unknown embodiment")):
        try:
            main(["scene", "render", str(scene_path), "-o", str(tmp_path / "x.png"), *args])
        except SystemExit as e:
            assert e.code == 2
        assert msg in capsys.readouterr().err
        assert not (tmp_path / "x.png").exists()


def test_render_with_a_camera_rig(tmp_path):
    scene_path = save(studio(), tmp_path / "scene.json")
    out, dep = tmp_path / "eye.png", tmp_path / "d.npy"
    r = CliRunner().invoke(app, ["scene", "render", str(scene_path), "-o", str(out), "--pos", "1.5,0,0",
                                 "--look-at", "1.5,0,-3", "--camera", "habitat-vlnce,size=64x64",
                                 "--depth", str(dep), "--flat"])
    assert r.exit_code == 0, r.output
    assert np.asarray(Image.open(out)).shape == (64, 64, 3)
    # level camera 1.25 m up at the base centre: the wall's face (z = -2.925) is 2.925 m ahead
    assert abs(float(np.load(dep)[32, 32]) - 2.925) < 0.005
    assert "habitat-vlnce (1.25 m" in r.output


def test_render_warns_or_refuses_inside_a_wall(tmp_path, capsys):
    scene_path = save(studio(), tmp_path / "scene.json")
    args = ["scene", "render", str(scene_path), "--pos", "1.5,0,-3", "--look-at", "1.5,0,-6",
            "--camera", "habitat-vlnce,size=32x32", "--flat"]
    with pytest.raises(SystemExit) as ok:
        main([*args, "-o", str(tmp_path / "warned.png")])
    assert ok.value.code == 0
    err = capsys.readouterr().err
    assert "warning: the camera at (1.50, 1.25, -3.00) m is inside the collision box wn (wall)" in err
    assert (tmp_path / "warned.png").exists()
    with pytest.raises(SystemExit) as e:
        main([*args, "-o", str(tmp_path / "refused.png"), "--strict"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "--pos 1.5,0,-3: the camera" in err and "inside the collision box wn" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "refused.png").exists()


def test_snapshotter_warns_inside_a_wall():
    from navbench.sim import SPOT
    from navbench.sim.snapshot import CameraInsideGeometryWarning, Snapshotter

    snap = Snapshotter(studio(), SPOT, visuals=False, camera="habitat-vlnce,size=32x32")
    try:
        with pytest.warns(CameraInsideGeometryWarning, match="inside the collision box wn"):
            view = snap.view((1.5, 0.0, -3.0), yaw=0.0)
        assert view.inside == "wn (wall)"
        assert snap.view((1.5, 0.0, 0.0), yaw=0.0).inside is None
    finally:
        snap.close()
