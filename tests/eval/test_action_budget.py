"""CondVLN §5.1 action budget: proportional to the instruction's length, ends the episode as
``timeout`` after exactly that many agent actions."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

import pytest

from navbench.agents.base import Agent
from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.eval.pipeline import ACTION_BUDGET_PER_WORD, EvalSettings, action_budget, run_one
from navbench.sim.actions import Action, DiscreteAction
from tests.conftest import two_room_scene


class Spinner(Agent):
    """Turns left forever (never stops, never reaches anything)."""

    name: ClassVar[str] = "spinner"

    def act(self, observation: Mapping[str, Any]) -> Action:
        return DiscreteAction("left")


def _ep(text: str | None) -> Episode:
    return Episode("1", "scenes/two_rooms/scene.json", (1.0, 0.0, -3.0), (0.0, 0.0, 0.0, 1.0),
                   (Goal((3.0, 0.0, -3.0)),), instruction_text=text, geodesic_distance=2.0,
                   info={"navbench": {"success_distance": 0.5}})


def test_budget_is_proportional_to_words() -> None:
    assert ACTION_BUDGET_PER_WORD == 15.0
    assert action_budget(_ep("Go to the sofa in the kitchen.")) == 7 * 15
    assert action_budget(_ep("If  there's a lamp in the hall, go to the bed;  otherwise stop.")) == 13 * 15
    assert action_budget(_ep("walk there"), per_word=2.5) == 5
    assert action_budget(_ep("one two three"), per_word=0.5) == math.ceil(1.5)
    assert action_budget(_ep(None)) is None and action_budget(_ep("   ")) is None
    assert action_budget(_ep("go"), per_word=0) is None
    with pytest.raises(ConfigError, match="action-budget-per-word"):
        EvalSettings(action_budget_per_word=-1)


def test_budget_ends_the_episode_as_timeout() -> None:
    from navbench.sim import SimSettings, Simulator, get_embodiment

    sim = Simulator(two_room_scene(), get_embodiment("spot"), SimSettings(render=False))
    try:
        ep = _ep("go there")  # 2 words -> budget 2 actions at 1 per word
        r = run_one(sim, Spinner(), ep, "two_rooms", distance="euclidean",
                    max_steps=action_budget(ep, per_word=1.0))
        assert r.label == "timeout" and r.metrics["agent_steps"] == 2
        r = run_one(sim, Spinner(), replace(ep, instruction_text="a b c d e"), "two_rooms",
                    distance="euclidean", max_steps=action_budget(_ep("a b c d e"), per_word=1.0))
        assert r.label == "timeout" and r.metrics["agent_steps"] == 5
    finally:
        sim.close()
