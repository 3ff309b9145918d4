"""The ``vlm`` agent in the simulator and through ``navbench evaluate`` against the loopback
fake server: moves, per-episode tokens and latency in the results, the key written nowhere,
and an offline replay from the cache (server stopped) with byte-identical trajectories."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from navbench.agents import load_agent, run_episode
from navbench.episodes import Episode, Goal
from navbench.sim import SPOT, SimSettings, Simulator
from tests.agents.fake_openai import FakeOpenAI
from tests.conftest import two_room_scene

SECRET = "sk-fake-3f9Q-must-not-leak"
SCRIPT = ["Thought: open floor ahead.\nAction: MOVE_FORWARD"] * 3 + ["Thought: here.\nAction: STOP"]


def _ep() -> Episode:
    return Episode("e0", "two_rooms", (2.0, 0.0, -1.0), (0, 0, 0, 1), (Goal((2.0, 0.0, -3.0)),),
                   instruction_text="walk north three steps",
                   info={"navbench": {"success_distance": 1.0}})


def test_episode_in_sim_then_offline_replay(tmp_path: Path) -> None:
    sim = Simulator(two_room_scene(), SPOT, SimSettings(render=True, width=64, height=48,
                                                        success_distance=1.0))
    try:
        with FakeOpenAI(SCRIPT) as srv:
            a = load_agent("vlm", base_url=srv.base_url, model="fake", cache_dir=tmp_path / "c",
                           image_width=64)
            live = run_episode(sim, a, _ep())
        replay = run_episode(sim, load_agent("vlm", base_url=srv.base_url, model="fake",
                                             cache="read", cache_dir=tmp_path / "c"), _ep())
    finally:
        sim.close()
    assert live.label != "agent_error", live.error
    assert live.steps == 4 and live.stopped
    p = live.records["position"]  # three 0.25 m steps north (-Z) from z = -1
    assert p[-1][2] == pytest.approx(-1.75, abs=0.05) and p[-1][0] == pytest.approx(2.0, abs=0.05)
    # the fake counts 100 + 10 per image prompt tokens and 7 completion tokens per request
    assert live.extra["llm_calls"] == 4 and live.extra["prompt_tokens"] == 440
    assert live.extra["total_tokens"] == 468 and live.extra["latency_s"] > 0
    assert live.extra["cached_calls"] == 0 and replay.extra["cached_calls"] == 4
    assert {**replay.extra, "cached_calls": 0} == live.extra
    assert replay.label == live.label and replay.steps == live.steps
    for k, v in live.records.items():
        assert np.array_equal(v, replay.records[k]), k
    n_images = [sum(p.get("type") == "image_url" for p in r["messages"][1]["content"])
                for r in srv.requests]
    assert n_images == [1, 1, 1, 1]


def test_waypoint_mode_in_sim(tmp_path: Path) -> None:
    sim = Simulator(two_room_scene(), SPOT, SimSettings(render=True, width=64, height=48,
                                                        success_distance=1.0))
    try:
        with FakeOpenAI(["Thought: go.\nAction: MOVE 1.0 0", "Action: TURN 90", "Action: STOP"]) as srv:
            o = run_episode(sim, load_agent("vlm", base_url=srv.base_url, model="fake",
                                            cache="off", action_space="waypoint"), _ep())
    finally:
        sim.close()
    assert o.label != "agent_error", o.error
    assert len(srv.requests) == 3 and o.stopped and o.steps > 3  # drove between requests
    p, yaw = o.records["position"][-1], o.records["yaw"][-1]
    # 1 m north (-Z) of (2, -1), then a quarter turn left: facing west (yaw +90°)
    assert p[0] == pytest.approx(2.0, abs=0.25) and p[2] == pytest.approx(-2.0, abs=0.25)
    assert abs((yaw - np.pi / 2 + np.pi) % (2 * np.pi) - np.pi) < np.radians(10.0)


@pytest.fixture(scope="module")
def tiny_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    out = tmp_path_factory.mktemp("vlm_ds") / "ds"
    build_dataset([generate_house(1, None, IndoorSettings(rooms=(3, 3)))], out,
                  tasks=("conditional",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=1))
    return out


def _evaluate(ds: Path, url: str, out: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> str:
    from navbench.cli import main

    args = ["evaluate", str(ds), "--agent", "vlm", "--agent-arg", f"base_url={url}",
            "--agent-arg", "model=fake", "--agent-arg", "api_key_env=FAKE_KEY",
            "--agent-arg", f"cache_dir={cache}", "--agent-arg", "max_calls=3",
            "--agent-arg", "image_width=160", "--out", str(out)]
    with pytest.raises(SystemExit) as e:
        main(args)
    text = capsys.readouterr().out
    assert e.value.code in (0, None), text
    return text


def test_cli_evaluate_records_cost_never_the_key_and_replays(
        tiny_dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from navbench.cli import main
    from navbench.eval import ResultsDB

    monkeypatch.setenv("FAKE_KEY", SECRET)
    cache = tmp_path / "cache"
    with FakeOpenAI(["Thought: a corridor.\nAction: TURN_LEFT"]) as srv:
        text = _evaluate(tiny_dataset, srv.base_url, tmp_path / "run", cache, capsys)
    assert "tokens" in text and "llm_calls" in text, text
    assert all(h["Authorization"] == f"Bearer {SECRET}" for h in srv.headers)
    with ResultsDB(tmp_path / "run", create=False) as db:
        rows = db.rows(db.resolve_run(None))
    assert len(rows) == 1
    agent = rows[0]["extra"]["agent"]  # 3 calls (max_calls), then the agent stops
    assert rows[0]["label"] != "agent_error", rows[0]["error"]
    assert (agent["llm_calls"], agent["prompt_tokens"], agent["completion_tokens"]) == (3, 330, 21)
    assert agent["total_tokens"] == 351 and agent["latency_s"] > 0
    assert agent["stop_reason"] == "max_calls" and len(srv.requests) == 3
    instruction = srv.requests[0]["messages"][1]["content"][0]["text"]
    assert "Instruction: If you see" in instruction or "Instruction:" in instruction
    # replay offline: the server is gone, every request is answered from the cache
    text2 = _evaluate(tiny_dataset, srv.base_url, tmp_path / "replay", cache, capsys)
    assert "errors 0" in text2
    for run in ("run", "replay"):
        with pytest.raises(SystemExit):
            main(["results", "export", str(tmp_path / run), "--format", "json", "--no-timings"])
    a = json.loads((tmp_path / "run" / "results.json").read_text())
    b = json.loads((tmp_path / "replay" / "results.json").read_text())
    assert b["episodes"][0]["extra"]["agent"].pop("cached_calls") == 3
    assert a["episodes"][0]["extra"]["agent"].pop("cached_calls") == 0
    assert a == b
    q = "SELECT episode_id, blob FROM trajectories ORDER BY episode_id"
    blobs = [sqlite3.connect(tmp_path / r / "results.sqlite").execute(q).fetchall()
             for r in ("run", "replay")]
    assert blobs[0] == blobs[1]
    # the key is in no file written (results, exports, cache)
    leaks = [p for p in tmp_path.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaks == [] and any(cache.rglob("*.json"))
