"""Agents (NavVerse App. 6/9, CondVLN §4): protocol, episode loop, baselines, remote agents.

>>> from navbench.agents import load_agent, run_episode
>>> agent = load_agent("oracle-path")                     # or "module:Class", "http://host:port"
>>> agent.name, sorted(agent.privileged)
('oracle-path', ['reference_path'])

``run_episode(sim, agent, episode)`` runs it (an example is in its docstring).

Agents are imported only when chosen (no registry imports them all).
"""

from navbench.agents.base import (
    ACTION_SPACES,
    PRIVILEGED,
    Agent,
    HabitatAgentAdapter,
    Task,
    filter_observation,
    to_action,
)
from navbench.agents.loading import BUILTINS, load_agent
from navbench.agents.rollout import (
    AGENT_ERROR,
    EpisodeOutcome,
    make_task,
    outcome_trajectory,
    run_episode,
)

__all__ = ["ACTION_SPACES", "AGENT_ERROR", "BUILTINS", "PRIVILEGED", "Agent", "EpisodeOutcome",
           "HabitatAgentAdapter", "Task", "filter_observation", "load_agent", "make_task",
           "outcome_trajectory", "run_episode", "to_action"]
