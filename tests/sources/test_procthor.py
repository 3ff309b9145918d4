"""ProcTHOR import of the real sample house (values read off house_0.json by hand)."""

from __future__ import annotations

import gzip
import json
import math
import os
from pathlib import Path

import pytest
from shapely.geometry import Polygon

import navbench.scene as ns
from navbench.errors import ConfigError, SceneFormatError
from navbench.geometry import polygon_area, yawed_box_aabb
from navbench.scene.sources import import_scene
from navbench.scene.sources.procthor import load_procthor

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "procthor"
HOUSE = REAL / "house_0.json"
ASSETS = REAL / "asset-database.json"
pytestmark = pytest.mark.skipif(not HOUSE.is_file() and not os.environ.get("CI"),
                                reason="../shared/realdata/procthor not present (CI requires it)")


@pytest.fixture(scope="module")
def house() -> ns.Scene:
    return load_procthor(HOUSE, assets=ASSETS)


def _in_box(p: tuple[float, float, float], b: ns.Box) -> bool:
    lo, hi = yawed_box_aabb(b.center, b.size, b.yaw)
    return all(lo[i] - 1e-9 <= p[i] <= hi[i] + 1e-9 for i in range(3))


def test_rooms_and_frame_flip(house: ns.Scene) -> None:
    labels = {r.id: r.label for r in house.rooms}
    assert labels == {"room|4": "bedroom", "room|5": "bathroom", "room|6": "kitchen",
                      "room|7": "living room"}
    bath = house.room_index["room|5"]
    # Unity floorPolygon (0,0) (0,6.164) (2.055,6.164) (2.055,0) -> Habitat z = -z.
    assert set(bath.floor_polygon) == {(0.0, 0.0), (0.0, -6.164), (2.055, -6.164), (2.055, 0.0)}
    assert polygon_area(bath.floor_polygon) == pytest.approx(2.055 * 6.164)  # CCW
    for r in house.rooms:
        assert polygon_area(r.floor_polygon) > 0
        assert r.floor_y == 0.0 and r.height == pytest.approx(2.7538067316809762)


def test_object_count_labels_sizes(house: ns.Scene) -> None:
    # 22 top-level objects + 30 children (3+3+2+1+10+4+7) in house_0.json.
    assert len(house.objects) == 52
    assert sum(o.parent_id is None for o in house.objects) == 22
    d = house.object_index["Dresser|4|0"]
    assert d.label == "dresser" and d.room_id == "room|4" and d.parent_id is None
    # position (5.841968806028365, 0.4848816394805908, 0.831506872177124), rotation y = 270 deg
    assert d.center == pytest.approx((5.841968806028365, 0.4848816394805908, -0.831506872177124))
    assert d.yaw == pytest.approx(math.pi / 2)  # -270 deg == +90 deg
    assert d.size == pytest.approx((1.613013744354248, 0.9697632789611816, 0.5940623879432678))
    lo, hi = d.bounds
    assert hi[0] - lo[0] == pytest.approx(0.5940623879432678)  # turned 90 deg: x extent = depth
    assert hi[2] - lo[2] == pytest.approx(1.613013744354248)
    bed = house.object_index["Bed|4|2"]
    assert bed.yaw == pytest.approx(-math.pi / 2) and bed.center[2] == pytest.approx(-0.5998996138572693)
    laptop = house.object_index["Laptop|4|3"]
    assert laptop.parent_id == "Dresser|4|0" and laptop.label == "laptop"
    assert house.object_index["TV_Stand_221|7|1|0"].label == "tv stand"
    assert house.object_index["HousePlant|6|9"].label == "house plant"
    assert house.object_index["CountertopIx|6|0"].label == "counter top"
    fridge = house.object_index["Fridge|6|1"]
    assert fridge.room_id == "room|6"  # z = -4.5057 lies in the kitchen only after the flip


def test_tilted_object_gets_vertical_extent(house: ns.Scene) -> None:
    # BaseballBat_4 box (0.0808, 0.9588, 0.0895), rotation x = 270: lying down, its local z is up.
    bat = house.object_index["BaseballBat|4|4"]
    lo, hi = bat.bounds
    assert hi[1] - lo[1] == pytest.approx(0.08947568386793137)
    assert lo[1] == pytest.approx(0.04473889619112015 - 0.08947568386793137 / 2)


def test_doors_windows_and_floors(house: ns.Scene) -> None:
    walls = [b for b in house.boxes if b.kind == "wall"]
    # Door door|4|5 in the wall x = 2.055, hole 3.389..5.354 along +z (Unity) -> z -3.389..-5.354.
    assert not any(_in_box((2.055, 1.0, -4.37), b) for b in walls)
    assert any(_in_box((2.055, 1.0, -1.0), b) for b in walls)
    assert any(_in_box((2.055, 2.4, -4.37), b) for b in walls)  # lintel above 2.099 m
    # Window window|4|0 in x = 6.164: hole 1.485..2.397 from z = 4.11 towards 0, y 0.92..1.83.
    assert not any(_in_box((6.164, 1.3, -4.11 + 1.94), b) for b in walls)
    assert any(_in_box((6.164, 0.5, -4.11 + 1.94), b) for b in walls)
    # The closed front door (openness 0) keeps the exterior wall solid.
    assert any(_in_box((5.157, 1.0, -8.219), b) for b in walls)
    door = next(p for p in house.portals if p.id == "door|4|5")
    assert door.regions == ("room|4", "room|5") and door.kind == "door"
    assert door.center == pytest.approx((2.055, 0.0, -(3.3886413149205517 + 5.353788214143879) / 2))
    assert door.yaw == pytest.approx(math.pi / 2)  # bedroom (x > 2.055) -> bathroom: facing -X
    exit_ = next(p for p in house.portals if p.kind == "exit")
    assert exit_.regions == ("room|7", "outdoor") and exit_.yaw == pytest.approx(0.0)  # faces -Z
    assert sum(p.kind == "opening" for p in house.portals) == 2  # open-plan kitchen/living walls
    floors = [b for b in house.boxes if b.kind == "floor"]
    total = sum(Polygon(r.floor_polygon).area for r in house.rooms)
    assert sum(b.size[0] * b.size[2] for b in floors) == pytest.approx(total)
    assert all(b.center[1] + b.size[1] / 2 == pytest.approx(0.0) for b in floors)
    furniture = {b.ref for b in house.boxes if b.kind == "furniture"}
    assert "Dresser|4|0" in furniture and "Laptop|4|3" not in furniture


def test_round_trip_and_determinism(house: ns.Scene, tmp_path: Path) -> None:
    again = import_scene(HOUSE, "procthor", assets=ASSETS)
    assert ns.dumps(again) == ns.dumps(house)
    loaded = ns.load(ns.save(house, tmp_path / "h.json"))
    assert len(loaded.objects) == 52 and loaded.meta["source_file"] == "house_0.json"
    assert loaded.meta["converter_version"] and loaded.meta["approximations"]


def test_instructions_on_imported_house(house: ns.Scene) -> None:
    import navbench.tasks.conditional as gen

    out = gen.generate_instructions(house, 6, 0)
    assert len(out) == 6
    for ins in out:
        assert ins.scene_id == "house_0" and ins.text
        assert ins.goal_id in house.object_index  # goals are imported ProcTHOR objects


def test_assets_required_or_fallback() -> None:
    with pytest.raises(ConfigError, match="--assets"):
        load_procthor(HOUSE)
    s = load_procthor(HOUSE, asset_fallback=True)
    assert s.object_index["Dresser|4|0"].label == "dresser"
    assert s.object_index["DogBed|4|1"].label == "dog bed"
    assert s.object_index["DogBed|4|1"].radius == 0.25 and s.object_index["DogBed|4|1"].size is None
    assert any("assetId" in a for a in s.meta["approximations"])


def test_jsonl_gz_index(tmp_path: Path) -> None:
    h = json.loads(HOUSE.read_text())
    h2 = json.loads(HOUSE.read_text())
    h2["objects"] = h2["objects"][:3]
    p = tmp_path / "houses.jsonl.gz"
    p.write_bytes(gzip.compress((json.dumps(h) + "\n" + json.dumps(h2) + "\n").encode()))
    s = load_procthor(p, assets=ASSETS, index=1)
    assert s.id == "houses_1" and sum(o.parent_id is None for o in s.objects) == 3
    with pytest.raises(ConfigError, match="--index 2"):
        load_procthor(p, assets=ASSETS, index=2)


def _write(tmp_path: Path, house: dict) -> Path:
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(house))
    return p


def test_malformed_files_name_file_and_field(tmp_path: Path) -> None:
    text = HOUSE.read_text()
    trunc = tmp_path / "trunc.json"
    trunc.write_text(text[:5000])
    with pytest.raises(SceneFormatError, match=r"trunc\.json.*line 1"):
        load_procthor(trunc, assets=ASSETS)
    h = json.loads(text)
    del h["objects"][3]["assetId"]
    with pytest.raises(SceneFormatError, match=r"bad\.json: field 'objects\[3\]\.assetId'"):
        load_procthor(_write(tmp_path, h), assets=ASSETS)
    h = json.loads(text)
    h["objects"][0]["children"][1]["position"] = {"x": 1, "y": "up", "z": 0}
    with pytest.raises(SceneFormatError, match=r"objects\[0\]\.children\[1\]\.position\[1\]"):
        load_procthor(_write(tmp_path, h), assets=ASSETS)
    h = json.loads(text)
    h["objects"][2]["assetId"] = "No_Such_Asset"
    with pytest.raises(SceneFormatError, match=r"objects\[2\]\.assetId.*asset database"):
        load_procthor(_write(tmp_path, h), assets=ASSETS)
    h = json.loads(text)
    h["rooms"][1]["floorPolygon"] = h["rooms"][1]["floorPolygon"][:2]
    with pytest.raises(SceneFormatError, match=r"rooms\[1\]\.floorPolygon"):
        load_procthor(_write(tmp_path, h), assets=ASSETS)
    bad_db = tmp_path / "db.json"
    bad_db.write_text(ASSETS.read_text()[:3000])
    with pytest.raises(SceneFormatError, match=r"db\.json"):
        load_procthor(HOUSE, assets=bad_db)
