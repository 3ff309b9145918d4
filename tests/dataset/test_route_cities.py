"""Route VLN, PlaceNav on a city and indoor-to-outdoor starts, through build_dataset."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.episodes.stats import dataset_tables
from navbench.geometry import heading_vector
from navbench.nav.settings import embodiment_radius
from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.scene.stages import classify_positions
from navbench.tasks.route_landmarks import noun

SMALL = OutdoorSettings(size=(200.0, 200.0), cars=20, sidewalk_objects=100)
N = 6
TASKS = ("objectnav", "placenav", "route")
SPLITS = {"a": 0.34, "b": 0.33, "c": 0.33}  # one scene per split


@pytest.fixture(scope="module")
def ds_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cities") / "data"
    scenes = [generate_house(31), generate_city(3, SMALL), generate_hybrid(4, HybridSettings(city=SMALL))]
    build_dataset(scenes, out, tasks=list(TASKS), split=SPLITS, seed=1,
                  settings=DatasetSettings(episodes_per_scene=N))
    return out


def _raw(p: Path) -> dict:
    with gzip.open(p, "rt", encoding="utf-8") as f:
        return json.load(f)


def _all(ds, task: str) -> list:
    return [e for s in ds.splits for e in ds.episodes(task, s)]


def test_route_r2r_files_lengths_and_text(ds_dir: Path) -> None:
    ds = load_dataset(ds_dir)
    eps = _all(ds, "route")
    assert {e.navbench["scene_kind"] for e in eps} == {"indoor", "outdoor", "hybrid"}
    for split in ds.splits:
        data = _raw(ds_dir / "route" / split / f"{split}.json.gz")
        assert set(data) == {"episodes", "instruction_vocab"}
        gt = _raw(ds_dir / "route" / split / f"{split}_gt.json.gz")
        for ep in data["episodes"]:
            assert set(ep) == {"episode_id", "trajectory_id", "scene_id", "start_position", "start_rotation",
                               "goals", "instruction", "reference_path", "info"}
            # NavVerse: τ = 1.0 + r_robot of the scene's robot for route VLN too (not VLN-CE's 3 m)
            emb = ds.manifest.scene_embodiment(ep["info"]["navbench"]["scene"]) or "spot"
            assert [g["radius"] for g in ep["goals"]] == [pytest.approx(1.0 + embodiment_radius(emb))]
            assert gt[str(ep["episode_id"])]["actions"][-1] == 0
    for e in eps:
        ref = np.array(e.reference_path)
        length = float(np.linalg.norm(np.diff(ref, axis=0), axis=1).sum())
        # L = habitat's d_0 on the dataset's navmesh; the (sidewalk) route's length is route_length
        nm = ds.navmesh(e.navbench["scene"])
        d0 = nm.geodesic_distance(e.start_position, e.goals[0].position)
        assert math.isclose(e.geodesic_distance, d0, abs_tol=1e-6) and d0 >= 5.0
        # never longer than the route, up to snapping: at a curb the pedestrian navmesh (road a
        # hole) keeps a cell the dataset's (road a step) does not, so d_0 snaps the goal ≤ 2 cells
        assert d0 <= length + 2 * nm.settings.cell_size
        assert length <= 50.0 and math.isclose(length, e.navbench["route_length"], rel_tol=1e-6)
        assert np.allclose(ref[-1], e.goals[0].position)
        text = e.instruction_text
        assert not re.search(r"\d", text), text  # no numbers, hence no distances
        nb = e.navbench
        assert nb["refine_status"] == "template" and text == nb["template_text"]
        # the arrival statement names the goal (its label, or a place's name) in the last sentences
        scene = ds.scene(nb["scene"])
        names = {p.id: p.name for p in scene.places}
        assert nb["goal_phrase"] in text and (noun(nb["goal_label"]) in nb["goal_phrase"]
                                             or nb["goal_phrase"] == names.get(nb["goal_id"]))
        assert nb["directives"][-1]["kind"] == "arrive"


def test_placenav_city_goals_are_storefront_entrances(ds_dir: Path) -> None:
    ds = load_dataset(ds_dir)
    eps = [e for e in _all(ds, "placenav") if e.navbench["scene_kind"] == "outdoor"]
    assert eps
    scene = ds.scene(eps[0].navbench["scene"])
    places = {p.id: p for p in scene.places}
    for e in eps:
        for g in e.goals:
            p = places[g.object_id]
            assert p.category == e.object_category
            assert np.allclose(g.position, p.entrance)
        Ls = e.navbench["goal_path_lengths"]  # every goal >= 5 m away, the closest <= 50 m
        assert all(v >= 5.0 for v in Ls.values()) and min(Ls.values()) <= 50.0
        ref = np.array(e.reference_path)
        assert math.isclose(float(np.linalg.norm(np.diff(ref, axis=0), axis=1).sum()), min(Ls.values()), rel_tol=1e-5)
        # the path ends next to the storefront: within 1 m (+ one 0.25 m cell) of its facade box
        p = places[e.navbench["closest_goal"]]
        xs = [q[0] for q in p.footprint] + [p.entrance[0]]
        zs = [q[1] for q in p.footprint] + [p.entrance[2]]
        dx = max(min(xs) - ref[-1][0], ref[-1][0] - max(xs), 0.0)
        dz = max(min(zs) - ref[-1][2], ref[-1][2] - max(zs), 0.0)
        assert math.hypot(dx, dz) <= 1.0 + 0.25 + 1e-6
    split = next(s for s, ids in ds.manifest.splits.items() if scene.id in ids)
    content = _raw(ds_dir / "placenav" / split / "content" / f"{scene.id}.json.gz")
    for ep in content["episodes"]:
        assert set(ep) == {"episode_id", "scene_id", "start_position", "start_rotation", "info", "goals",
                           "object_category"}
        assert f"scene.json_{ep['object_category']}" in content["goals_by_category"]


def _half_xz(o: dict) -> float:
    """NavVerse r_goal = ½ max(x, z) of a scene.json object's world AABB (yawed box, by hand)."""
    c, sn = abs(math.cos(o["yaw"])), abs(math.sin(o["yaw"]))
    sx, _, sz = o["size"]
    return 0.5 * max(c * sx + sn * sz, sn * sx + c * sz)


@pytest.mark.parametrize("task", ["objectnav", "placenav"])
def test_goal_files_mean_what_habitat_means(ds_dir: Path, task: str) -> None:
    """habitat reads: one category → id mapping for all splits; object_id = the index in the
    scene's objects (places) list, one per goal; view points on the navmesh, at NavVerse
    distance ≤ τ − 0.2 m of their goal and facing it; every episode's goals = its key's."""
    ds = load_dataset(ds_dir)
    scenes = {sid: json.loads((ds_dir / "scenes" / sid / "scene.json").read_text(encoding="utf-8"))
              for sid in ds.manifest.scenes}
    items = "places" if task == "placenav" else "objects"
    field = "category" if task == "placenav" else "label"
    cats = sorted({x[field] for d in scenes.values() for x in d[items]})
    n_vp = 0
    for split in ds.splits:
        top = _raw(ds_dir / task / split / f"{split}.json.gz")
        assert top["category_to_task_category_id"] == {c: i for i, c in enumerate(cats)}
        assert top["category_to_scene_annotation_category_id"] == top["category_to_task_category_id"]
        for f in sorted((ds_dir / task / split / "content").glob("*.json.gz")):
            sid = f.name.removesuffix(".json.gz")
            d, nm = _raw(f), ds.navmesh(sid)
            listed = scenes[sid][items]
            ids = [g["object_id"] for gs in d["goals_by_category"].values() for g in gs]
            assert len(ids) == len(set(ids))
            taus = {e["info"]["navbench"]["success_distance"] for e in d["episodes"]}
            assert len(taus) <= 1
            for key, gs in d["goals_by_category"].items():
                for g in gs:
                    x = listed[g["object_id"]]
                    assert x["id"] == g["object_name"] and f"scene.json_{x[field]}" == key
                    r = 0.0 if task == "placenav" else _half_xz(x)
                    c = np.array(g["position"])
                    assert g["view_points"]
                    for v in g["view_points"]:
                        p = np.array(v["agent_state"]["position"])
                        assert nm.is_navigable(p)
                        assert max(0.0, float(np.linalg.norm(p - c)) - r) <= min(taus) - 0.2 + 1e-6
                        q = v["agent_state"]["rotation"]
                        th = 2.0 * math.atan2(q[1], q[3])
                        to = (c - p)[[0, 2]]
                        if np.linalg.norm(to) > 1e-6:
                            fwd = np.array([-math.sin(th), -math.cos(th)])
                            assert float(fwd @ to) / float(np.linalg.norm(to)) > 1 - 1e-9
                        n_vp += 1
            for e in d["episodes"]:
                key = f"scene.json_{e['object_category']}"
                names = [g["object_name"] for g in d["goals_by_category"][key]]
                assert e["info"]["navbench"]["goal_ids"] == names
    assert n_vp > 0


def _crosses(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    """Proper 2-D segment intersection by orientation signs."""
    def o(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
    return o(a, b, c) * o(a, b, d) < 0 and o(c, d, a) * o(c, d, b) < 0


@pytest.mark.parametrize("task", TASKS)
def test_hybrid_starts_inside_and_leaves_through_the_exit(ds_dir: Path, task: str) -> None:
    ds = load_dataset(ds_dir)
    eps = [e for e in _all(ds, task) if e.navbench["scene_kind"] == "hybrid"]
    assert eps
    scene = ds.scene(eps[0].navbench["scene"])
    ex = next(p for p in scene.portals if p.kind == "exit")
    h = heading_vector(ex.yaw)
    half = np.array([h[1], -h[0]]) * ex.width / 2
    c = np.array([ex.center[0], ex.center[2]])
    anchor = scene.meta["indoor_anchor"]
    for e in eps:
        assert e.navbench["stage_start"] == "indoor"
        ref = np.array(e.reference_path)
        labels = classify_positions(scene, ref)
        assert labels[0] == "indoor" and labels[-1] == "outdoor"
        xz = ref[:, [0, 2]]
        assert any(_crosses(xz[i], xz[i + 1], c - half, c + half) for i in range(len(xz) - 1))
        for g in e.goals:  # goals outside, within the 50 m neighbourhood of the anchor
            assert classify_positions(scene, [g.position])[0] == "outdoor"
            if task != "route":
                assert math.hypot(g.position[0] - anchor[0], g.position[2] - anchor[2]) <= 50.0
    if task == "route":
        assert any(d.get("via") == "exit" for e in eps for d in e.navbench["directives"])


def test_counts_dropped_and_stats(ds_dir: Path) -> None:
    ds = load_dataset(ds_dir)
    m = ds.manifest
    for task in TASKS:
        total = sum(m.counts[task][s]["total"] for s in ds.splits)
        dropped = sum(n for per in m.dropped.get(task, {}).values() for n in per.values())
        refilled = sum(m.raw.get("resampled", {}).get(task, {}).values())  # draws refilled
        assert total + dropped == 3 * N + refilled
        assert total == len(_all(ds, task))
    assert sum(sum(c.get("by_goal_kind", {}).values()) for c in m.counts["route"].values()) == len(_all(ds, "route"))
    tables = dataset_tables(ds)
    rows = [r for r in tables["episodes"] if r["task"] == "route"]
    assert sum(r["episodes"] for r in rows) == len(_all(ds, "route"))
    assert {r["goal_kind"] for r in tables["by_goal_kind"]} <= {"object", "place"}
    assert any(r["stage_start"] == "indoor" for r in tables["by_stage_start"])
