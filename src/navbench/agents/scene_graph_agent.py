"""The neurosymbolic ``scene-graph`` agent (no privileged information) and the perception-grounded
oracle-branch navigator (CondVLN §4).

Each agent step (0.1 s) the agent perceives (``agents.perception``: depth + semantic →
world-frame detections and typed floor patches), updates its own maps (``agents.mapping``:
occupancy, room regions, object tracks) and then:

1. **parses** the instruction into a program (``tasks.conditional.parse``);
2. **evaluates** the conditions in execution order on its *observed* scene graph, with the
   predicates of ``navbench.graph.relations`` (same :class:`~navbench.graph.GraphSettings`).
   A room is *covered* once :meth:`~navbench.agents.mapping.RoomMap.coverage` ≥
   ``coverage`` (default 0.8: at most 20 % of the room's estimated floor is unseen) or after
   two look-arounds inside it. A presence condition is true once the label is seen in a room
   of that type, false once every known room of that type is covered (or no such room exists
   after exploring everything reachable); a relation is decided once both referents are seen
   or their rooms are covered. Decided truths are kept. An undecided condition sends the agent
   to the least-covered known room of that type (walk to its floor nearest the unseen part,
   look around), or to the nearest frontier while no such room is known. When
   ``explore_budget`` (simulated s) runs out, undecided conditions are false;
3. **grounds** each target of the chosen branch ("the X [near the Y] in the Z") among observed
   tracks, exploring more if needed, and navigates to the reachable cell of its own map nearest
   the object's centre, in order (subgoals, then the goal), and stops there.

The agent plans only over floor it has seen (free cells ``clearance`` m from obstacles) and
looks around (360°) when it first enters a room. ObjectNav / PlaceNav: explore until an object
labelled with the goal category is seen, then go. Room types come from the floor labels
(``floor/<type>``, with recognition noise), else from the objects on the floor
(``perception.room_type``).

Structure (one stage per module, data flowing one way): perception
(:class:`~navbench.agents.perception.Perceiver`: observation → :class:`Frame`) → belief state
(:class:`~navbench.agents.scene_graph.belief.Belief`, a dataclass: maps, decided truths, progress)
→ reasoning (:class:`~navbench.agents.scene_graph.reasoning.Reasoner`: truths and grounding on the
belief) → planner (:class:`~navbench.agents.scene_graph.planner.Planner`: the next action, with a
:data:`~navbench.agents.scene_graph.belief.Mode` literal). Subclasses change the program
(:meth:`SceneGraphAgent.load_program`, as ``llm-planner`` does) or the targets
(:meth:`SceneGraphAgent.plan_targets`, as ``oracle-branch-grounded`` does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from navbench.agents.base import ActionSpace, Agent, Task
from navbench.agents.perception import NoiseModel, Perceiver
from navbench.agents.scene_graph.belief import Belief, Mode
from navbench.agents.scene_graph.planner import Planner, PlannerSettings, Targets
from navbench.agents.scene_graph.reasoning import Reasoner
from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject, Observation
from navbench.sim.actions import Action

if TYPE_CHECKING:
    from navbench.graph import GraphSettings
    from navbench.tasks.conditional import Evaluation, Program


class SceneGraphAgent(Agent):
    """Observation-only conditional navigator (see module docs).

    Parameters
    ----------
    noise : float or NoiseModel
        Perception noise level (see :meth:`NoiseModel.level`) or a :class:`NoiseModel`.
    seed : int
        Noise seed (mixed with the episode id).
    clearance : float
        Planning clearance from obstacles (m).
    explore_budget : float
        Simulated seconds of search before undecided conditions become false.
    arrive : float
        A target cell counts as reached within this distance (m).
    stop_after_decision : bool
        Stop as soon as the branch is chosen (branch-selection probe).
    graph : GraphSettings or None
        Predicate thresholds (default: those of :mod:`navbench.graph`).
    grid_size : float
        Side of the agent's square map centred on its start (m).
    coverage : float
        Seen fraction of a room's floor above which the room counts as inspected.

    Examples
    --------
    >>> from navbench.agents import load_agent
    >>> agent = load_agent("scene-graph", noise=0.2, explore_budget=60)
    >>> agent.reset(Task("e1", "objectnav", "waypoint", goal_category="sofa"))
    >>> agent.program is None, agent.mode
    (True, 'idle')
    """

    name: ClassVar[str] = "scene-graph"
    action_space: ActionSpace = "waypoint"
    sensors = frozenset({"semantic"})
    needs_render: ClassVar[bool] = True
    needs_rgb: ClassVar[bool] = False  # depth + semantic only: the evaluation renders flat boxes

    def __init__(self, noise: float | NoiseModel = 0.0, seed: int = 0, clearance: float = 0.35,
                 explore_budget: float = 150.0, arrive: float = 0.3,
                 stop_after_decision: bool = False, graph: GraphSettings | None = None,
                 grid_size: float = 48.0, coverage: float = 0.8) -> None:
        self.noise = noise if isinstance(noise, NoiseModel) else NoiseModel.level(float(noise), seed)
        self.clearance, self.explore_budget = float(clearance), float(explore_budget)
        self.arrive, self.stop_after_decision = float(arrive), bool(stop_after_decision)
        self.graph, self.grid_size = graph, float(grid_size)
        self.coverage = float(coverage)
        self.perceiver = Perceiver(self.noise)
        self.belief = Belief()

    def reset(self, task: Task) -> None:
        """Start an episode: fresh belief, the task's program (:meth:`load_program`), and a
        reasoner and planner with the current settings."""
        self.task = task
        self.perceiver.reset(task.episode_id)
        self.belief = Belief(goal_category=task.goal_category)
        self.belief.program = self.load_program(task)
        self.reasoner = Reasoner(self.coverage, self.explore_budget, self.graph)
        self.planner = Planner(self.belief, self.reasoner,
                               PlannerSettings(self.clearance, self.arrive,
                                               self.stop_after_decision),
                               self.plan_targets, self.perceiver.confuse_room)

    @property
    def program(self) -> Program | None:
        """The program being executed (``None`` for goal tasks)."""
        return self.belief.program

    @property
    def choice(self) -> Evaluation | None:
        """The chosen branch, once decided."""
        return self.belief.choice

    @property
    def mode(self) -> Mode:
        """What the agent is doing now (:data:`~navbench.agents.scene_graph.belief.Mode`)."""
        return self.belief.motion.mode

    def load_program(self, task: Task) -> Program | None:
        """The program to execute (parsed from the instruction; ``None`` for goal tasks).

        Override to get the program elsewhere (``llm-planner`` asks a language model).
        """
        if task.kind != "conditional" or not task.instruction:
            return None
        from navbench.tasks.conditional import parse

        return parse(task.instruction)

    def plan_targets(self, types: dict[int, str | None], t: float) -> Targets:
        """References to visit in order (subgoals then goal), or ``[label]`` for goal tasks.

        Parameters
        ----------
        types : dict of int to str or None
            Room region → recognised room type (:meth:`region_types`).
        t : float
            Simulated time (s).

        Returns
        -------
        list of ObjectRef or str
            The chosen branch's references, or the goal category.

        Raises
        ------
        navbench.agents.scene_graph.reasoning.NeedRoom
            While a condition the branch depends on is undecided.
        """
        b = self.belief
        if b.program is None:
            if b.goal_category is None:
                raise ConfigError(f"{self.name}: task {self.task.episode_id!r} ({self.task.kind}) "
                                  "has neither a conditional instruction nor a goal category")
            return [b.goal_category]
        if b.choice is None:
            b.choice = self.reasoner.choose(b, types)
            b.extra.update(branch_path=list(b.choice.branch_path),
                           branch_index=int(b.choice.branch_index), decided_at=t)
        return [*b.choice.subgoals, b.choice.goal]

    def region_types(self) -> dict[int, str | None]:
        """Room region → recognised room type: its floor label (with recognition noise), else
        the type its objects suggest (:func:`~navbench.agents.perception.room_type`)."""
        return self.belief.region_types(self.perceiver.confuse_room)

    def diagnostics(self) -> JSONObject:
        """Chosen branch, decided conditions (truth, time, reason), map statistics (JSON-able)."""
        return self.belief.diagnostics(self.perceiver.confuse_room)

    def act(self, observation: Observation) -> Action:
        """Perceive, update the belief, and let the planner choose the action."""
        b = self.belief
        b.pose = np.asarray(observation["pose"], float)
        b.time = float(observation.get("time", 0.0))
        frame = self.perceiver.observe(observation)
        if frame is not None:
            b.integrate(frame, b.pose, float(observation.get("robot_radius", 0.3)),
                        self.grid_size)
        return self.planner.step()


class GroundedOracleBranchAgent(SceneGraphAgent):
    """CondVLN §4 oracle branch, grounded by perception: the instruction is linearised with the
    recorded condition truths (privileged ``program`` only), and the resulting "go to the X
    [near the Y] in the Z" chain is grounded on the agent's own observed scene graph."""

    name: ClassVar[str] = "oracle-branch-grounded"
    privileged = frozenset({"program"})

    def load_program(self, task: Task) -> Program | None:
        """The linearised oracle route (parsed, or built from the evaluation if it does not
        parse); the instruction's own program when no facts are given."""
        from navbench.tasks.conditional import evaluate, linearize, parse

        facts = task.privileged.get("program")
        if not facts:
            return super().load_program(task)
        text = linearize(facts["program"], facts["truths"])
        self.linear = text
        try:
            return parse(text)
        except Exception:  # the linearised route is also available as a structure
            ev = evaluate(facts["program"], facts["truths"])
            from navbench.tasks.conditional import Go, Seq

            gos = [Go(r) for r in (*ev.subgoals, ev.goal)]
            return gos[0] if len(gos) == 1 else Seq(tuple(gos))

    def plan_targets(self, types: dict[int, str | None], t: float) -> Targets:
        """As :meth:`SceneGraphAgent.plan_targets`; the diagnostics report the true branch."""
        first = self.belief.choice is None
        refs = super().plan_targets(types, t)
        facts = self.task.privileged.get("program")
        if facts and first:
            from navbench.tasks.conditional import evaluate

            ev = evaluate(facts["program"], facts["truths"])
            self.belief.extra.update(branch_path=list(ev.branch_path),
                                     branch_index=int(ev.branch_index),
                                     linear_instruction=self.linear)
        return refs


__all__ = ["GroundedOracleBranchAgent", "SceneGraphAgent"]
