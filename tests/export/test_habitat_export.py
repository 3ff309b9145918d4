"""Habitat scene-dataset export: GLB read back by pygltflib/trimesh, configs, atomicity, CLI."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pygltflib
import pytest
import trimesh
from PIL import Image

from navbench.cli import main
from navbench.errors import ConfigError
from navbench.export import habitat
from navbench.export.habitat import export_habitat, habitat_scene_ids
from navbench.scene.io import save
from navbench.scene.model import Scene
from navbench.scene.procgen.indoor import generate_house
from navbench.visual.interior import SILL


@pytest.fixture(scope="module")
def house() -> Scene:
    return generate_house(0, 2)


@pytest.fixture(scope="module")
def exported(house: Scene, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hab") / "navbench_hab"
    export_habitat([house], out)
    return out


def _box_extent(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """World AABB of the collision boxes (yawed boxes' corners), independent of the visual layer."""
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for b in scene.boxes:
        h = np.asarray(b.size) / 2
        c, s = abs(math.cos(b.yaw)), abs(math.sin(b.yaw))
        ex = np.array([c * h[0] + s * h[2], h[1], s * h[0] + c * h[2]])
        lo, hi = np.minimum(lo, np.asarray(b.center) - ex), np.maximum(hi, np.asarray(b.center) + ex)
    return lo, hi


def _within_walls_and_sills(vlo: np.ndarray, vhi: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
    """The exported extent is the walls' outer faces and tops, plus in XZ at most the window
    sills standing proud of the outer walls (``visual.interior.SILL``)."""
    assert np.isclose(vhi[1], hi[1], atol=1e-3)  # walls' tops
    for k in (0, 2):
        assert lo[k] - SILL - 1e-3 <= vlo[k] <= lo[k] + 1e-3 and hi[k] - 1e-3 <= vhi[k] <= hi[k] + SILL + 1e-3


def test_glb_is_valid_gltf_with_scene_extent_and_textures(house: Scene, exported: Path) -> None:
    glb = exported / "stages" / f"{house.id}.glb"
    g = pygltflib.GLTF2.load(str(glb))
    assert g.asset.version == "2.0" and len(g.meshes) == 1
    prims = g.meshes[0].primitives
    names = [m.name for m in g.materials]
    assert len(names) == len(set(names)) == len(prims)  # one glTF material per visual material
    assert all(p.material == i for i, p in enumerate(prims))
    assert any(m.pbrMetallicRoughness.baseColorTexture is not None for m in g.materials)
    blob = g.binary_blob()
    for im in g.images:
        v = g.bufferViews[im.bufferView]
        img = Image.open(io.BytesIO(blob[v.byteOffset:v.byteOffset + v.byteLength]))
        assert im.mimeType == "image/png" and img.size[0] >= 16
    n_tri = sum(g.accessors[p.indices].count for p in prims) // 3
    tm = trimesh.load(str(glb), file_type="glb")
    assert sum(len(m.faces) for m in tm.geometry.values()) == n_tri
    lo, hi = _box_extent(house)
    _within_walls_and_sills(tm.bounds[0], tm.bounds[1], lo, hi)
    assert abs(tm.bounds[0][1] - lo[1]) < 0.02  # floor slab underside


def test_configs_follow_habitat_sim_layout(house: Scene, exported: Path) -> None:
    ds = json.loads((exported / "navbench.scene_dataset_config.json").read_text())
    assert ds["stages"]["paths"][".json"] == ["stages"]
    assert ds["scene_instances"]["paths"][".json"] == ["scenes"]
    stage = json.loads((exported / "stages" / f"{house.id}.stage_config.json").read_text())
    assert (exported / "stages" / stage["render_asset"]).is_file()
    assert stage["up"] == [0.0, 1.0, 0.0] and stage["front"] == [0.0, 0.0, -1.0]
    assert stage["units_to_meters"] == 1.0
    inst = json.loads((exported / "scenes" / f"{house.id}.scene_instance.json").read_text())
    assert inst["stage_instance"]["template_name"] == f"stages/{house.id}"
    assert inst["object_instances"] == []
    assert habitat_scene_ids(exported, [house.id]) == {house.id: f"navbench_hab/stages/{house.id}.glb"}
    assert habitat_scene_ids(exported, [house.id], "") == {house.id: f"stages/{house.id}.glb"}
    with pytest.raises(ConfigError, match="were not exported"):
        habitat_scene_ids(exported, ["nope"])


def test_same_seed_same_bytes(house: Scene, exported: Path, tmp_path: Path) -> None:
    export_habitat([house], tmp_path / "again")
    for f in ("stages/" + house.id + ".glb", "navbench.export.json", "navbench.scene_dataset_config.json"):
        assert (tmp_path / "again" / f).read_bytes() == (exported / f).read_bytes()


def test_failed_export_leaves_nothing(house: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = habitat.scene_glb

    def flaky(scene: Scene, **kw: object) -> bytes:
        calls.append(scene.id)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(scene, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(habitat, "scene_glb", flaky)
    other = generate_house(1, 1)
    with pytest.raises(RuntimeError):
        export_habitat([house, other], tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_cli_export_and_refusal_to_overwrite(house: Scene, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save(house, tmp_path / "sc" / house.id / "scene.json")
    with pytest.raises(SystemExit) as e:
        main(["scenes", "export", str(tmp_path / "sc"), "--format", "habitat", "-o", str(tmp_path / "hab")])
    assert e.value.code in (0, None)
    assert (tmp_path / "hab" / "stages" / f"{house.id}.glb").is_file()
    for argv in (["scenes", "export", str(tmp_path / "sc"), "-o", str(tmp_path / "hab")],
                 ["scenes", "export", str(tmp_path / "sc"), "--format", "obj", "-o", str(tmp_path / "x")],
                 ["scenes", "export", str(tmp_path / "missing"), "-o", str(tmp_path / "y")]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("error: ") for line in err)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_exported_glb_imports_back_with_extent_and_renders(house: Scene, exported: Path) -> None:
    import os

    os.environ.setdefault("MUJOCO_GL", "egl")
    from navbench.scene.sources import import_scene
    from navbench.sim import TURTLEBOT
    from navbench.sim.snapshot import render_view
    from navbench.visual.build import build_visuals

    glb = exported / "stages" / f"{house.id}.glb"
    back = import_scene(glb)
    v = back.meshes[0].vertices
    lo, hi = _box_extent(house)
    _within_walls_and_sills(v.min(axis=0), v.max(axis=0), lo, hi)
    vis = build_visuals(back, seed=0)
    n_mats = len(pygltflib.GLTF2.load(str(glb)).materials)
    assert len({g.material for g in vis.geoms}) == n_mats
    assert sum(m.texture is not None for m in vis.materials.values()) >= 3
    room = house.rooms[0]
    c = np.asarray(room.floor_polygon).mean(axis=0)
    obj = next(o for o in house.objects if o.room_id == room.id)
    view = render_view(back, TURTLEBOT, (c[0], room.floor_y, c[1]), obj.center, width=64, height=48)
    assert (view.depth > 0).all()  # closed room: walls, floor and furniture everywhere
    assert view.rgb.std() > 5  # textured, not one flat colour
