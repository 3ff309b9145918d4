"""The scene-graph agent's stages on a hand-drawn belief (no rendering): a closed 4 m × 4 m
kitchen (floor cells x, z ∈ [-2, 2] m, one-cell walls around it) mapped from one synthetic
perception frame, on an 8 m grid centred on the agent at the origin (0.1 m cells, centres at
odd multiples of 0.05 m)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.agents import Task
from navbench.agents.perception import Detection, Frame
from navbench.agents.scene_graph import Belief, NeedRoom, Planner, PlannerSettings, Reasoner
from navbench.agents.scene_graph.planner import Targets, TargetsFn
from navbench.agents.scene_graph_agent import SceneGraphAgent
from navbench.sim.actions import StopAction, WaypointAction
from navbench.tasks.conditional import Go, If, ObjectRef, Presence

Box = tuple[tuple[float, float, float], tuple[float, float, float]]  # (lo, hi) AABB (m)
CELLS = np.arange(-1.95, 2.0, 0.1)  # floor cell centres along x and z (m)
KETTLE: Box = ((0.2, 0.8, 0.2), (0.4, 1.0, 0.4))
FRIDGE: Box = ((1.3, 0.0, -1.7), (1.8, 1.0, -1.2))  # centre (1.55, -1.45): a cell centre


def kitchen(objects: dict[str, Box]) -> Frame:
    """One frame seeing the whole kitchen floor, its walls (0.5 m high) and ``objects``."""
    x, z = np.meshgrid(CELLS, CELLS)
    floor = np.stack([x.ravel(), np.zeros(x.size), z.ravel()], axis=1)
    ring = np.arange(-2.05, 2.1, 0.1)
    walls = [(a, 0.5, b) for a in ring for b in (-2.05, 2.05)] + \
            [(b, 0.5, a) for a in ring for b in (-2.05, 2.05)]
    dets = [Detection(label, np.array(box, float)) for label, box in objects.items()]
    return Frame(dets, [floor], np.array(walls), np.zeros(3), ["kitchen"])


def belief(program: If | None = None, time: float = 5.0, **objects: Box) -> Belief:
    """The kitchen belief at ``time`` (s), the agent at the origin; ObjectNav "sofa" when no
    program is given."""
    b = Belief(program=program, goal_category=None if program else "sofa")
    b.pose, b.time = np.zeros(4), time
    b.integrate(kitchen(objects), b.pose, 0.3, 8.0)
    b.refresh()
    return b


def no_noise(key: int, rtype: str | None, types: object) -> str | None:
    return rtype


def test_belief_maps_the_closed_kitchen_as_one_covered_region() -> None:
    b = belief(kettle=KETTLE)
    assert b.region_types(no_noise) == {0: "kitchen"}
    assert b.covered(0, 1.0)  # walls bound the floor: nothing unseen (coverage 1)
    assert b.occ is not None and b.occ.frontiers() == []
    (t,) = b.objects.tracks
    assert t.label == "kettle" and t.region == 0
    assert np.allclose(t.center, [0.3, 0.9, 0.3])


def test_presence_truths_and_their_reasons() -> None:
    r = Reasoner(coverage=0.8, explore_budget=150.0)
    b = belief(kettle=KETTLE)
    types = b.region_types(no_noise)
    assert r.truth(b, Presence("kettle", "kitchen"), types) is True
    assert r.truth(b, Presence("fridge", "kitchen"), types) is False  # kitchen covered
    with pytest.raises(NeedRoom) as need:
        r.truth(b, Presence("sofa", "living room"), types)  # no living room seen yet
    assert need.value.room == "living room"
    b.time = 151.0  # past the budget: assumed false
    assert r.truth(b, Presence("sofa", "living room"), types) is False
    assert [d[1:] for d in b.decisions] == [[True, 5.0, "seen"], [False, 5.0, "covered"],
                                            [False, 151.0, "budget"]]
    assert b.assumed_false == [str(Presence("sofa", "living room"))]
    b.truths.clear()
    b.time, b.exhausted = 5.0, True
    assert r.truth(b, Presence("sofa", "living room"), types) is False
    assert b.decisions[-1][3] == "no such room"


def _planner(b: Belief, targets: TargetsFn | None = None) -> Planner:
    r = Reasoner(0.8, 150.0)

    def plan(types: dict[int, str | None], t: float) -> Targets:
        if b.program is None:
            assert b.goal_category is not None
            return [b.goal_category]
        if b.choice is None:
            b.choice = r.choose(b, types)
        return [*b.choice.subgoals, b.choice.goal]

    return Planner(b, r, PlannerSettings(), targets or plan, no_noise)


def test_first_step_turns_a_third_of_a_circle_on_the_spot() -> None:
    b = belief(time=0.0)
    b.pose = np.array([0.0, 0.0, 0.0, 0.5])
    act = _planner(b).step()
    assert isinstance(act, WaypointAction) and b.motion.mode == "spin"
    ((x, z, yaw),) = act.waypoints
    assert (x, z) == (0.0, 0.0) and yaw == pytest.approx(0.5 + 2 * math.pi / 3)
    assert b.motion.spin_targets == pytest.approx([0.5 + k * 2 * math.pi / 3 for k in (1, 2, 3)])


def test_entering_a_room_looks_around_once() -> None:
    b = belief()
    p = _planner(b)
    assert isinstance(p.think(), WaypointAction)
    assert b.motion.mode == "inspect-spin" and b.entered == {0} and b.motion.region == 0


def test_exhausted_map_decides_with_what_was_seen_then_goes_to_the_target() -> None:
    # No living room and no frontier: the first decision explores, finds nothing left
    # (exhausted), and decides again: "no such room" -> else branch -> walk to the fridge.
    prog = If(Presence("sofa", "living room"), Go(ObjectRef("kettle", "kitchen")),
              Go(ObjectRef("fridge", "kitchen")))
    b = belief(prog, kettle=KETTLE, fridge=FRIDGE)
    b.entered.add(0)
    act = _planner(b).think()
    assert b.exhausted and b.fails == {0: 3}
    assert b.decisions == [[str(prog.cond), False, 5.0, "no such room"]]
    assert b.choice is not None and list(b.choice.branch_path) == ["else"]
    assert isinstance(act, WaypointAction) and b.motion.mode == "target"
    x, z, yaw = act.waypoints[-1]
    assert (x, z) == pytest.approx((1.55, -1.45)) and math.isnan(yaw)
    assert b.motion.goal_cell == pytest.approx((1.55, -1.45))


def test_goal_task_stops_when_nothing_is_left_to_explore() -> None:
    b = belief()  # ObjectNav "sofa": none seen, the kitchen is all there is
    b.entered.add(0)
    assert isinstance(_planner(b).think(), StopAction)
    assert b.exhausted and b.fails == {0: 3}


def test_plan_targets_override_drives_the_planner() -> None:
    class FridgeFirst(SceneGraphAgent):
        def plan_targets(self, types: dict[int, str | None], t: float) -> Targets:
            return ["fridge"]

    a = FridgeFirst()
    a.reset(Task("e1", "objectnav", "waypoint", goal_category="sofa"))
    a.belief.pose, a.belief.time = np.zeros(4), 5.0
    a.belief.integrate(kitchen({"fridge": FRIDGE}), a.belief.pose, 0.3, 8.0)
    a.belief.entered.add(0)
    act = a.planner.think()
    assert a.mode == "target" and isinstance(act, WaypointAction)
    assert act.waypoints[-1][:2] == pytest.approx((1.55, -1.45))
