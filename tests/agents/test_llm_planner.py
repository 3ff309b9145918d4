"""The ``llm-planner`` agent against the loopback fake server: the model's JSON program replaces
the rule-based parse, invalid programs are repaired or fall back, and with the right program
the agent decides exactly as the scene-graph agent does (same perception, no privileged facts)."""

from __future__ import annotations

import json

import pytest

from navbench.agents import Task, load_agent, run_episode
from navbench.scene.procgen.indoor import generate_house
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import StopAction
from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    Presence,
    Qualifier,
    generate_instructions,
    parse,
    program_to_dict,
)
from tests.agents.episodes import TAU, conditional_episodes, nav_for
from tests.agents.fake_openai import FakeOpenAI

TEXT = ("If the kitchen has a kettle, go to the stool north of the fridge in the kitchen, "
        "otherwise walk to the sofa in the living room.")
#: TEXT's program, written by hand.
PROGRAM = If(Presence("kettle", "kitchen"),
             Go(ObjectRef("stool", "kitchen", Qualifier("north of", "fridge"))),
             Go(ObjectRef("sofa", "living room")))


def _task(text: str = TEXT) -> Task:
    return Task("e1", "conditional", "waypoint", instruction=text, success_distance=1.0)


def _reply(program: dict) -> str:
    return f"Thought: one condition.\n```json\n{json.dumps(program)}\n```\nDone."


def test_model_program_is_used_and_the_request_is_text_only() -> None:
    d = program_to_dict(PROGRAM)
    d["cond"]["label"] = "  Kettle "  # case and spacing are normalised
    with FakeOpenAI([_reply(d)]) as srv:
        a = load_agent("llm-planner", base_url=srv.base_url, model="fake", cache="off")
        a.reset(_task())
    assert a.program == PROGRAM
    info = a.diagnostics()
    assert info["plan_source"] == "llm" and info["llm_calls"] == 1 and info["total_tokens"] == 107
    assert not a.privileged
    msgs = srv.requests[0]["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert all(isinstance(m["content"], str) for m in msgs)  # no images
    assert msgs[-1]["content"] == f"Instruction: {TEXT}"
    assert "north of" in msgs[0]["content"] and '"op": "if"' in msgs[0]["content"]


def test_invalid_programs_are_repaired_or_fall_back() -> None:
    bad_pred = program_to_dict(PROGRAM)
    bad_pred["then"]["target"]["qualifier"]["predicate"] = "beside"
    with FakeOpenAI(["I think you should go to the sofa.", _reply(bad_pred),
                     _reply(program_to_dict(PROGRAM))]) as srv:
        a = load_agent("llm-planner", base_url=srv.base_url, model="fake", cache="off",
                       plan_attempts=3)
        a.reset(_task())
    assert a.program == PROGRAM and a.diagnostics()["parse_failures"] == 2
    repair = srv.requests[1]["messages"][-1]["content"]
    assert repair.startswith("That program is not valid: no JSON object")
    assert "unknown predicate(s) ['beside']" in srv.requests[2]["messages"][-1]["content"]
    missing = {"op": "if", "cond": {"type": "presence", "label": "kettle"}}
    with FakeOpenAI([_reply(missing)]) as srv:
        a = load_agent("llm-planner", base_url=srv.base_url, model="fake", cache="off")
        a.reset(_task())
        assert len(srv.requests) == 2  # plan_attempts=2 by default
        assert a.program == parse(TEXT) and a.diagnostics()["plan_source"] == "parser"
        assert "cond.room" in a.diagnostics()["plan_errors"][0]
        s = load_agent("llm-planner", base_url=srv.base_url, model="fake", cache="off",
                       on_plan_failure="stop")
        s.reset(_task())
        assert s.act({"pose": [0, 0, 0, 0], "time": 0.0}) == StopAction()
        assert s.diagnostics()["plan_source"] == "none"
    # goal tasks need no plan: no request at all
    with FakeOpenAI(["x"]) as srv:
        g = load_agent("llm-planner", base_url=srv.base_url, model="fake", cache="off")
        g.reset(Task("e2", "objectnav", "waypoint", goal_category="sofa"))
    assert srv.requests == [] and g.program is None


@pytest.mark.parametrize("house", [3])
def test_decides_like_the_scene_graph_agent_with_the_same_program(house: int) -> None:
    scene = generate_house(house)
    ep = conditional_episodes(scene, nav_for(scene), 1, house)[0]
    program = next(i.program for i in generate_instructions(scene, 1, house)
                   if i.text == ep.instruction_text)
    sim = Simulator(scene, SPOT, SimSettings(success_distance=TAU, render=True, visuals=False, rgb=False, width=160,
                                             height=120))
    try:
        with FakeOpenAI([_reply(program_to_dict(program))]) as srv:
            llm = run_episode(sim, load_agent("llm-planner", base_url=srv.base_url, model="fake",
                                              cache="off", stop_after_decision=True), ep,
                              max_steps=3000)
        ref = run_episode(sim, load_agent("scene-graph", stop_after_decision=True), ep,
                          max_steps=3000)
    finally:
        sim.close()
    assert llm.label != "agent_error", llm.error
    assert llm.extra["plan_source"] == "llm" and llm.extra["llm_calls"] == 1
    assert llm.extra["branch_path"] and llm.extra["branch_path"] == ref.extra["branch_path"]
    assert llm.extra["decisions"] == ref.extra["decisions"]
    assert llm.steps == ref.steps
