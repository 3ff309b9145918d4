"""``build_dataset(scene_ids=...)`` / ``dataset build --habitat-scenes``: episodes point at GLB stages."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.scene.procgen.indoor import generate_house


def test_scene_ids_point_at_glb_stages_and_navbench_still_resolves_scenes(tmp_path: Path) -> None:
    house = generate_house(21)
    glb = f"navbench_hab/stages/{house.id}.glb"
    out = tmp_path / "ds"
    build_dataset([house], out, tasks=["conditional", "objectnav"], split={"train": 1.0}, seed=2,
                  settings=DatasetSettings(episodes_per_scene=3), scene_ids={house.id: glb})
    r2r = json.loads(gzip.decompress((out / "conditional" / "train" / "train.json.gz").read_bytes()))
    assert r2r["episodes"]
    for ep in r2r["episodes"]:
        assert ep["scene_id"] == glb and ep["info"]["navbench"]["scene"] == house.id
        assert "scene_dataset_config" not in ep  # SPEC §4: VLN-CE pins habitat 0.1.7
    content = json.loads(gzip.decompress((out / "objectnav" / "train" / "content" / f"{house.id}.json.gz").read_bytes()))
    for ep in content["episodes"]:
        assert ep["scene_id"] == glb
        assert f"{house.id}.glb_{ep['object_category']}" in content["goals_by_category"]
    ds = load_dataset(out)
    ep = ds.episodes("conditional", "train")[0]
    assert ds.scene(ep.navbench["scene"]).id == house.id
