"""The ``vlm`` agent without a simulator: reply parsing, the request it sends (instruction,
image, history, vocabulary), fallbacks on malformed replies, waypoint moves in the world frame."""

from __future__ import annotations

import base64
import io
import math

import numpy as np
import pytest
from PIL import Image

from navbench.agents import Task, load_agent
from navbench.agents.llm.images import downscale
from navbench.agents.llm.parse import parse_discrete, parse_waypoint, program_json
from navbench.sim.actions import DiscreteAction, StopAction, WaypointAction
from tests.agents.fake_openai import FakeOpenAI


@pytest.mark.parametrize(("reply", "kind"), [
    ("Thought: the door is on my right.\nAction: TURN_RIGHT", "right"),
    ("**Action:** move forward.", "forward"),
    ("Action = `stop`", "stop"),
    ("```json\n{\"action\": \"Turn_Left\"}\n```", "left"),
    ("I should not stop here; I will turn left.", "left"),
    ("Final answer: 1", "forward"),
    ("The kitchen is ahead... Action: MOVE-FORWARD!", "forward"),
    ("I cannot tell.", None),
    ("Action: fly", None),
])
def test_parse_discrete(reply: str, kind: str | None) -> None:
    assert parse_discrete(reply) == kind


@pytest.mark.parametrize(("reply", "want"), [
    ("Thought: hall ahead-left.\nAction: MOVE 1.5 -30", ("move", 1.5, -30.0)),
    ("Action: move(2, 45)", ("move", 2.0, 45.0)),
    ('Sure: {"action": "move", "distance": 1.2, "angle": 10}', ("move", 1.2, 10.0)),
    ("Action: MOVE 0.8m at 15", ("move", 0.8, 15.0)),
    ("Action: TURN -90", ("turn", 0.0, -90.0)),
    ("Action: turn right 45", ("turn", 0.0, -45.0)),
    ("Action: Stop.", ("stop", 0.0, 0.0)),
    ("no idea", None),
])
def test_parse_waypoint(reply: str, want: tuple | None) -> None:
    assert parse_waypoint(reply) == want


def test_program_json_skips_prose_and_fences() -> None:
    text = 'Thought: {not json}.\n```json\n{"op": "go", "target": {"label": "sofa", "room": "x"}}\n```'
    assert program_json(text) == {"op": "go", "target": {"label": "sofa", "room": "x"}}
    assert program_json('{"action": "stop"}') is None


def test_downscale_is_a_block_mean() -> None:
    img = np.zeros((4, 6, 3), np.uint8)
    img[:2, :2] = 200  # one 2x2 block at 200, the block right of it half 100
    img[0:2, 2] = 100
    small = downscale(img, 3)
    assert small.shape == (2, 3, 3)
    assert small[0, 0].tolist() == [200] * 3 and small[0, 1].tolist() == [50] * 3
    assert small[1].max() == 0


def _obs(x: float = 0.0, z: float = 0.0, yaw: float = 0.0, t: float = 0.0) -> dict:
    rgb = np.zeros((8, 16, 3), np.uint8)
    rgb[:, :8, 0] = 255  # left half red
    return {"pose": np.array([x, 0.0, z, yaw]), "time": t, "rgb": rgb}


def _task(space: str = "discrete") -> Task:
    return Task("e1", "vln", space, instruction="Walk past the sofa and stop at the lamp.",  # type: ignore[arg-type]
                success_distance=1.0)


def _png(url: str) -> np.ndarray:
    head, data = url.split(",", 1)
    assert head == "data:image/png;base64"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))))


def test_discrete_request_history_and_actions(tmp_path) -> None:
    with FakeOpenAI(["Thought: sofa ahead.\nAction: MOVE_FORWARD", "Action: TURN_RIGHT",
                     "Lamp in front.\nAction: STOP"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off", image_width=8)
        a.reset(_task())
        acts = [a.act(_obs(t=k)) for k in range(3)]
    assert acts == [DiscreteAction("forward"), DiscreteAction("right"), StopAction()]
    first, last = srv.requests[0], srv.requests[2]
    system = first["messages"][0]["content"]
    assert "MOVE_FORWARD: walk 0.25 m" in system and "TURN_LEFT: turn 15 degrees" in system
    assert "Action:" in system and "within about 1.0 m" in system
    parts = first["messages"][1]["content"]
    assert "Instruction: Walk past the sofa and stop at the lamp." in parts[0]["text"]
    assert "History (oldest first): none yet" in parts[0]["text"]
    img = _png(parts[1]["image_url"]["url"])  # 16 px wide, shrunk by 2 to fit 8 px
    assert img.shape == (4, 8, 3)
    assert img[:, :4, 0].min() == 255 and img[:, 4:].max() == 0
    assert "History (oldest first): 1: MOVE_FORWARD, 2: TURN_RIGHT" in \
        last["messages"][1]["content"][0]["text"]
    d = a.diagnostics()
    assert d["llm_calls"] == 3 and d["prompt_tokens"] == 3 * 110 and d["total_tokens"] == 3 * 117
    assert d["stop_reason"] == "model" and d["parse_failures"] == 0


def test_malformed_replies_reask_fallback_then_stop(tmp_path) -> None:
    with FakeOpenAI(["hmm", "still thinking", "Action: TURN_LEFT"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off", reask=1,
                       fallback="right", max_parse_failures=2)
        a.reset(_task())
        first = a.act(_obs())  # "hmm" → re-ask → "still thinking" → fallback
        assert first == DiscreteAction("right")
        assert srv.requests[1]["messages"][-1]["content"].startswith("Your previous reply")
        assert a.act(_obs()) == DiscreteAction("left")  # parseable: the streak resets
    with FakeOpenAI(["no"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off", reask=0,
                       max_parse_failures=2)
        a.reset(_task())
        assert a.act(_obs()) == DiscreteAction("left")  # default fallback: look elsewhere
        assert a.act(_obs()) == StopAction()
    d = a.diagnostics()
    assert (d["parse_failures"], d["fallbacks"], d["stop_reason"]) == (2, 1, "parse_failures")
    with FakeOpenAI(["Action: MOVE_FORWARD"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off", max_calls=2)
        a.reset(_task())
        assert [a.act(_obs()) for _ in range(3)][-1] == StopAction()
    assert len(srv.requests) == 2 and a.diagnostics()["stop_reason"] == "max_calls"


def test_waypoint_moves_in_the_world_frame() -> None:
    with FakeOpenAI(["Action: MOVE 2 90", "Action: MOVE 9 0", "Action: TURN -45",
                     "Action: STOP"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off",
                       action_space="waypoint", max_move=3.0)
        a.reset(_task("waypoint"))
        # facing -Z at the origin, +90° turns left to face -X: 2 m ahead is (-2, 0)
        w = a.act(_obs(1.0, 1.0, 0.0, 0.0))
        assert isinstance(w, WaypointAction)
        (x, z, yaw), = w.waypoints
        assert (x, z, yaw) == pytest.approx((-1.0, 1.0, math.pi / 2))
        assert a.act(_obs(0.0, 1.0, math.pi / 2, 0.1)) == WaypointAction((), append=True)
        assert len(srv.requests) == 1  # no request while driving to the waypoint
        w = a.act(_obs(-1.0, 1.0, math.pi / 2, 2.0))  # reached: ask again; 9 m clipped to 3
        assert w.waypoints[0] == pytest.approx((-4.0, 1.0, math.pi / 2))
        w = a.act(_obs(-1.0, 1.0, math.pi / 2, 30.0))  # late (> 15 s): ask again
        assert w.waypoints[0] == pytest.approx((-1.0, 1.0, math.pi / 4))
        assert a.act(_obs(-1.0, 1.0, math.pi / 4, 31.0)) == StopAction()
        assert "MOVE <distance> <angle>" in srv.requests[0]["messages"][0]["content"]
        assert "1: MOVE 2.00 +90, 2: MOVE 3.00 +0" in \
            srv.requests[2]["messages"][1]["content"][0]["text"]


def test_several_frames_oldest_first() -> None:
    with FakeOpenAI(["Action: TURN_LEFT"]) as srv:
        a = load_agent("vlm", base_url=srv.base_url, model="fake", cache="off", frames=2)
        a.reset(Task("e3", "objectnav", "discrete", goal_category="sofa"))  # type: ignore[arg-type]
        for k in range(3):
            o = _obs(t=float(k))
            o["rgb"][:] = 10 * k  # frame k is uniformly 10·k
            a.act(o)
    counts, firsts = [], []
    for r in srv.requests:
        parts = r["messages"][1]["content"]
        imgs = [_png(p["image_url"]["url"]) for p in parts[1:]]
        counts.append(len(imgs))
        firsts.append([int(i[0, 0, 0]) for i in imgs])
    assert counts == [1, 2, 2] and firsts == [[0], [0, 10], [10, 20]]
    text = srv.requests[2]["messages"][1]["content"][0]["text"]
    assert "Task: find a sofa and stop next to it." in text
    assert "The images are your last 2 front views, oldest first" in text
