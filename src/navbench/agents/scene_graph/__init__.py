"""Stages of the ``scene-graph`` agent (:mod:`navbench.agents.scene_graph_agent`): the belief
state, the symbolic reasoning on it, and the planner that turns it into actions."""

from navbench.agents.scene_graph.belief import SPIN_MODES, WALK_MODES, Belief, Mode, Motion
from navbench.agents.scene_graph.planner import Planner, PlannerSettings, Rethink
from navbench.agents.scene_graph.reasoning import NeedRoom, Reasoner

__all__ = ["SPIN_MODES", "WALK_MODES", "Belief", "Mode", "Motion", "NeedRoom", "Planner",
           "PlannerSettings", "Reasoner", "Rethink"]
