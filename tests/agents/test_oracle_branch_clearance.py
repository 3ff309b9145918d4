"""The oracle-branch agent plans a Spot dataset's own reference paths: its subgoal approach
points keep Spot's end clearance as the dataset builder's do (where the robot turns back), so
following the correct branch repeats the reference path point for point."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from navbench.agents import load_agent
from navbench.agents.rollout import make_task
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.nav.settings import embodiment_radius
from navbench.scene.procgen.indoor import generate_house


def test_oracle_branch_plans_the_reference_path_of_a_spot_dataset(tmp_path: Path) -> None:
    build_dataset([generate_house(7, n_rooms=5)], tmp_path / "ds", tasks=["conditional"],
                  split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=12, embodiment="spot"))
    ds = load_dataset(tmp_path / "ds")
    eps = ds.episodes("conditional", "eval")
    with_subgoals = [e for e in eps if e.navbench["subgoals"]]
    assert len(eps) >= 8 and len(with_subgoals) >= 2
    for e in eps:
        sid = e.navbench["scene"]
        agent = load_agent("oracle-branch")
        agent.reset(make_task(e, agent, scene=ds.scene(sid), navmesh=ds.navmesh(sid)))
        agent.robot_radius = embodiment_radius("spot")  # as the first observation reports it
        plan = agent.plan(agent._task, np.asarray(e.start_position, float))
        ref = np.asarray(e.reference_path, float)
        assert plan.shape == ref.shape and np.allclose(plan, ref, atol=1e-9), e.episode_id
