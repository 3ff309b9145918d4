"""Datasets built for an embodiment: clearance of starts and paths, τ, manifest, settings."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.errors import ConfigError
from navbench.nav.settings import EMBODIMENT_CLEARANCE, embodiment_clearance, embodiment_radius
from navbench.scene.model import Scene
from navbench.scene.procgen.indoor import generate_house
from tests.geometry_oracle import Obstacles

HOUSES = (31, 32)


def _build(out: Path, embodiment: str | None) -> Path:
    build_dataset([generate_house(s) for s in HOUSES], out, tasks=["conditional", "objectnav"],
                  split="eval=1.0", seed=3,
                  settings=DatasetSettings(episodes_per_scene=8, embodiment=embodiment))
    return out


@pytest.fixture(scope="module")
def turtle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("emb") / "turtle", "turtlebot")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("emb") / "plain", None)


def _obstacle_distance(scene: Scene, p: tuple[float, float, float], climb: float = 0.2,
                       height: float = 1.5) -> float:
    """Independent of the navmesh: XZ distance (m) from ``p`` to the nearest box that blocks a
    body (bottom below the headroom, top above the climbable step) or to the floor's edge."""
    def rect(b) -> shapely.Polygon:
        c, s = math.cos(b.yaw), math.sin(b.yaw)
        hx, hz = b.size[0] / 2, b.size[2] / 2
        # yaw θ about +Y: local x axis → (cos θ, -sin θ) in XZ, local z axis → (sin θ, cos θ)
        return shapely.Polygon([(b.center[0] + u * c + v * s, b.center[2] - u * s + v * c)
                                for u, v in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))])

    y = p[1]
    floor = shapely.union_all([rect(b) for b in scene.boxes if b.kind == "floor"])
    blocks = [rect(b) for b in scene.boxes if b.kind != "floor"
              and b.center[1] - b.size[1] / 2 < y + height and b.center[1] + b.size[1] / 2 > y + climb]
    pt = shapely.Point(p[0], p[2])
    assert floor.contains(pt)
    return min(floor.exterior.distance(pt) if floor.geom_type == "Polygon" else floor.boundary.distance(pt),
               shapely.union_all(blocks).distance(pt))


def _starts(ds_dir: Path) -> list[tuple[Scene, tuple[float, float, float]]]:
    ds = load_dataset(ds_dir)
    scenes = {sid: ds.scene(sid) for sid in ds.manifest.scenes}
    return [(scenes[e.navbench["scene"]], e.start_position)
            for task in ("conditional", "objectnav") for e in ds.episodes(task, "eval")]


def test_turtlebot_starts_keep_clearance_plain_ones_do_not(turtle: Path, plain: Path) -> None:
    tb = [_obstacle_distance(sc, p) for sc, p in _starts(turtle)]
    assert len(tb) >= 20
    # 0.32 m clearance, less half a 0.05 m navmesh cell of rasterisation
    assert min(tb) >= 0.32 - 0.03
    # the check can fail: the habitat-like 0.1 m preset puts some starts closer than 0.32 m
    pl = [_obstacle_distance(sc, p) for sc, p in _starts(plain)]
    assert min(pl) >= 0.1 - 0.03 and min(pl) < 0.32 - 0.03


def test_turtlebot_paths_keep_its_clearance(turtle: Path) -> None:
    # checked against the scene's boxes with shapely, not against the navmesh that planned them;
    # tolerance: half a cell diagonal of rasterisation + half a cell of line-of-sight slack
    ds = load_dataset(turtle)
    tol = (math.sqrt(2.0) / 2 + 0.5) * 0.05
    for e in ds.episodes("conditional", "eval"):
        sid = e.navbench["scene"]
        nm = ds.navmesh(sid)
        assert nm.settings.agent_radius == 0.32
        obstacles = Obstacles(ds.scene(sid), climb=nm.settings.max_climb)
        ref = np.asarray(e.reference_path)
        for a, b in itertools.pairwise(ref):
            for t in np.linspace(0.0, 1.0, 9):
                assert obstacles.distance(a + t * (b - a)) >= 0.32 - tol


def test_success_distance_and_manifest(turtle: Path, plain: Path) -> None:
    t, p = load_dataset(turtle), load_dataset(plain)
    on = t.episodes("objectnav", "eval")
    assert on and all(g.radius == pytest.approx(1.18) for e in on for g in e.goals)
    assert all(e.navbench["success_distance"] == pytest.approx(1.18) for e in on)
    assert all(g.radius == pytest.approx(1.6) for e in p.episodes("objectnav", "eval") for g in e.goals)
    # conditional τ stays CondVLN's 0.5 / 1.0 m whatever the robot
    assert {e.navbench["success_distance"] for e in t.episodes("conditional", "eval")} <= {0.5, 1.0}
    assert t.manifest.embodiment == "turtlebot" and p.manifest.embodiment is None
    assert t.manifest.raw["navmesh_settings"]["indoor"]["agent_radius"] == 0.32
    assert p.manifest.raw["navmesh_settings"]["indoor"]["agent_radius"] == 0.1
    sid = next(iter(t.manifest.scenes))
    assert t.manifest.scene_embodiment(sid) == "turtlebot" and p.manifest.scene_embodiment(sid) is None


def test_settings_per_kind_and_validation() -> None:
    s = DatasetSettings(embodiment="turtlebot", embodiment_by_kind={"outdoor": "spot", "hybrid": "spot"})
    assert s.nav_settings("indoor").agent_radius == 0.32
    assert s.nav_settings("outdoor").agent_radius == 0.4  # max(outdoor 0.25, spot 0.4)
    hyb = s.nav_settings("hybrid")
    assert (hyb.agent_radius, hyb.cell_size) == (0.4, 0.1)
    assert s.goal_success_distance("indoor") == pytest.approx(1.18)
    assert s.goal_success_distance("outdoor") == pytest.approx(1.6)
    none = DatasetSettings(embodiment=None)
    assert none.nav_settings("indoor").agent_radius == 0.1
    assert none.nav_settings("outdoor").agent_radius == 0.25  # preset larger than nothing
    assert none.goal_success_distance("indoor") == pytest.approx(1.6)
    # --verify keeps the rollout body's clearance; its embodiment defaults to the dataset's
    v = DatasetSettings(embodiment=None, verify=True)
    assert v.verify_embodiment_for("indoor") == "spot" and v.nav_settings("indoor").agent_radius == 0.4
    assert DatasetSettings(verify=True).verify_embodiment_for("indoor") == "turtlebot"
    with pytest.raises(ConfigError, match=r"embodiment.*drone"):
        DatasetSettings(embodiment="drone")
    with pytest.raises(ConfigError, match="embodiment_by_kind"):
        DatasetSettings(embodiment_by_kind={"outdoor": "boat"})


def test_one_source_of_truth_for_clearance() -> None:
    from navbench.sim import EMBODIMENTS

    assert set(EMBODIMENTS) == set(EMBODIMENT_CLEARANCE)
    for name, emb in EMBODIMENTS.items():
        assert emb.clearance == embodiment_clearance(name)
        assert emb.radius == embodiment_radius(name)
    assert (embodiment_clearance("spot"), embodiment_clearance("turtlebot")) == (0.4, 0.32)
    with pytest.raises(ConfigError, match="embodiment"):
        embodiment_clearance("drone")


def test_paths_respect_the_robots_step_height() -> None:
    # the Turtlebot's wheels stop at 0.02 m steps: its outdoor paths must avoid 0.2 m curbs
    assert DatasetSettings(embodiment="turtlebot").nav_settings("outdoor").max_climb == 0.02
    assert DatasetSettings(embodiment="spot").nav_settings("outdoor").max_climb == 0.2
    assert DatasetSettings(embodiment=None).nav_settings("outdoor").max_climb == 0.2
