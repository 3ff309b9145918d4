"""Shared fixtures of the evaluation tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def cond_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A conditional dataset: 2 procedural 3-room houses × 6 episodes (ids 0-11)."""
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    scenes = [generate_house(s, None, IndoorSettings(rooms=(3, 3))) for s in (1, 2)]
    out = tmp_path_factory.mktemp("cond_ds") / "ds"
    build_dataset(scenes, out, tasks=("conditional",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=6))
    return out
