"""Oracle-path collision rate on a small procedural dataset (issue 18: ≤ 5 % for both robots)."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.agents import load_agent
from navbench.agents.rollout import run_episode
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.scene.procgen.indoor import generate_house
from navbench.sim import SimSettings, Simulator, get_embodiment


@pytest.mark.parametrize("robot", ["spot", "turtlebot"])
def test_oracle_paths_touch_nothing_in_small_houses(tmp_path: Path, robot: str) -> None:
    """ObjectNav reference paths planned for the robot (no ``--verify``), replayed by the
    ``oracle-path`` agent: at most 5 % of the episodes touch a non-ground obstacle, and all
    succeed. Houses 6, 8 and 9 hold the door and corner crossings where Spot used to touch (6 of 7
    episodes without door-aware execution)."""
    scenes = [generate_house(s, 4) for s in (6, 8, 9)]
    build_dataset(scenes, tmp_path, tasks=("objectnav",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=4, embodiment=robot))
    ds = load_dataset(tmp_path)
    eps = ds.episodes("objectnav", "eval")
    emb = get_embodiment(robot)
    sims: dict[str, Simulator] = {}
    hits, ok = [], []
    for ep in eps:
        sid = ep.navbench["scene"]
        sim = sims.setdefault(sid, Simulator(ds.scene(sid), emb, SimSettings()))
        tau = float(ep.navbench.get("success_distance", 1.0 + emb.radius))
        out = run_episode(sim, load_agent("oracle-path"), ep, tau=tau)
        hits.append(bool(out.records["collision"].any()))
        ok.append(out.label == "success")
    assert len(eps) >= 6
    assert sum(hits) <= 0.05 * len(eps) and all(ok)
