"""Every attempted episode counts: labels agree with SR on every path an episode can end by, and
an agent that kills its own process where it would fail never scores above the same policy."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes import Episode, Goal
from navbench.eval import AGENT_CRASH, ResultsDB, agent_crash, agent_error
from navbench.eval.failures import FailureScorer
from navbench.eval.pipeline import EvalSettings, evaluate, run_one
from navbench.eval.timeouts import Deadline
from navbench.sim.actions import Action, VelocityAction
from tests.conftest import two_room_scene
from tests.eval.pipeline_agents import DiscreteSpinner, Faulty, StopNow

AGENT = "tests.eval.pipeline_agents:FirstBranchCrasher"


def _ep(eid: str, start: tuple[float, float, float], goal: tuple[float, float, float],
        tau: float) -> Episode:
    return Episode(eid, "scenes/two_rooms/scene.json", start, (0.0, 0.0, 0.0, 1.0), (Goal(goal),),
                   geodesic_distance=math.dist(start, goal),
                   info={"navbench": {"success_distance": tau}})


class _ResetRaises(StopNow):
    def reset(self, task: object) -> None:
        raise RuntimeError("no model")


class _NaN(StopNow):
    action_space = "velocity"

    def act(self, observation: object) -> Action:
        return VelocityAction(math.nan, 0.0, 0.0)


class _Forward(StopNow):
    action_space = "velocity"

    def act(self, observation: object) -> Action:
        return VelocityAction(0.8, 0.0, 0.0)


def _check(r: object) -> str:
    """The label says success exactly when the metric does, everywhere it is recorded."""
    m = r.metrics  # type: ignore[attr-defined]
    assert (r.label == "success") == (m["success"] == 1.0), (r.label, m["success"])  # type: ignore[attr-defined]
    assert r.extra["termination"] == r.label  # type: ignore[attr-defined]
    if r.trajectory is not None and len(r.trajectory.get("label", ())):  # type: ignore[attr-defined]
        assert r.trajectory["label"][-1] == r.label  # type: ignore[attr-defined]
    return str(r.label)  # type: ignore[attr-defined]


def test_every_label_path_agrees_with_sr() -> None:
    from navbench.nav import NavMesh, NavSettings
    from navbench.scene import Box, Scene
    from navbench.sim import SPOT, SimSettings, Simulator

    scene = two_room_scene()
    nm = NavMesh.build(scene, NavSettings.preset("indoor"))
    sim = Simulator(scene, SPOT, SimSettings())
    seen: dict[str, str] = {}
    try:
        run = lambda agent, ep, **kw: run_one(sim, agent, ep, "two_rooms", navmesh=nm, **kw)  # noqa: E731
        # stop 0.5 m from the goal, τ 1 m; stop 2 m from it, τ 0.5 m
        seen["success"] = _check(run(StopNow(), _ep("s", (1.0, 0, -3.0), (1.5, 0, -3.0), 1.0)))
        seen["miss"] = _check(run(StopNow(), _ep("m", (1.0, 0, -3.0), (3.0, 0, -3.0), 0.5)))
        # 1.2 m apart through the wall at x = 4 (Euclidean ≤ τ = 1.5 m: the simulator says
        # success), 2.6 m round through the door: S = 0, so the label is perception_error
        wall = run(StopNow(), _ep("w", (3.4, 0, -0.5), (4.6, 0, -0.5), 1.5))
        assert sim.label == "success" and wall.metrics["ne"] > 1.5
        seen["wall"] = _check(wall)
        seen["max_steps"] = _check(run(DiscreteSpinner(), _ep("t", (1.0, 0, -3.0), (3.0, 0, -3.0), 0.5),
                                       max_steps=3))
        seen["act_raises"] = _check(run(Faulty(raise_on="r"), _ep("r", (1.0, 0, -3.0), (3.0, 0, -3.0), 0.5)))
        seen["reset_raises"] = _check(run(_ResetRaises(), _ep("x", (1.0, 0, -3.0), (1.5, 0, -3.0), 1.0)))
        seen["nan_action"] = _check(run(_NaN(), _ep("n", (1.0, 0, -3.0), (1.5, 0, -3.0), 1.0)))
        with Deadline() as d:
            d.arm(0.5, "timeout: episode h exceeded the 0.5 s wall-clock limit")
            hung = run(Faulty(hang_on="h"), _ep("h", (1.0, 0, -3.0), (1.5, 0, -3.0), 1.0))
            d.disarm()
        seen["deadline"] = _check(hung)
        island = run(StopNow(), _ep("u", (1.0, 0, -3.0), (40.0, 0, -3.0), 1.0))  # off the navmesh
        assert island.label == "unreachable" and island.metrics["success"] is None
    finally:
        sim.close()
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (40.0, 0.1, 40.0), label="floor")
    high = Box("high", "floor", (0.0, 0.4, 3.0), (20.0, 0.8, 6.0), label="floor")
    ledge = Simulator(Scene("ledge", "outdoor", "test", boxes=(floor, high)), SPOT,
                      SimSettings(max_time=8.0))
    try:
        ep = Episode("f", "ledge", (0.0, 0.8, 3.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -1.0)),),
                     geodesic_distance=4.0, info={"navbench": {"success_distance": 1.0}})
        seen["fall"] = _check(run_one(ledge, _Forward(), ep, "ledge", distance="euclidean"))
        far = Episode("o", "ledge", (0.0, 0.8, 3.0), (0.0, 0.0, 0.0, 1.0), (Goal((5.0, 0.8, 3.0)),),
                      geodesic_distance=5.0, info={"navbench": {"success_distance": 1.0}})
        seen["sim_timeout"] = _check(run_one(ledge, DiscreteSpinner(), far, "ledge", distance="euclidean"))
    finally:
        ledge.close()
    assert seen == {"success": "success", "miss": "perception_error", "wall": "perception_error",
                    "max_steps": "timeout", "act_raises": "agent_error", "reset_raises": "agent_error",
                    "nan_action": "agent_error", "deadline": "agent_error", "fall": "fall",
                    "sim_timeout": "timeout"}


# ----------------------------------------------------------------------------- crashes

@pytest.fixture(scope="module")
def honest(cond_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """``first-branch`` on every episode, as itself (no crashes)."""
    out = tmp_path_factory.mktemp("honest") / "run"
    evaluate(cond_dataset, AGENT, out, EvalSettings(agent_kwargs={"how": "none"}), workers=2, progress=False)
    with ResultsDB(out) as db:
        return out, {r["episode_id"]: r for r in db.rows(db.resolve_run(None))}


def test_a_crash_is_scored_as_the_failure_the_dataset_defines(cond_dataset: Path, honest: tuple) -> None:
    """FailureScorer, from the dataset alone, gives every episode the τ, L, fields and
    reachability the worker recorded, with S = 0, SPL = 0 and SDTW = 0 (a reference path)."""
    from navbench.eval.planning import plan_evaluation

    _, rows = honest
    _, pairs, worker_kw, _ = plan_evaluation(cond_dataset, AGENT, EvalSettings(agent_kwargs={"how": "none"}))
    score = FailureScorer(worker_kw, privileged=True)
    for eid, sid in pairs:
        h = rows[eid]
        c = score(agent_crash(eid, sid, "worker died (crashed); 2 attempt(s)"))
        assert c.label == AGENT_CRASH and c.error == "worker died (crashed); 2 attempt(s)"
        assert c.metrics["success"] == 0.0 and c.metrics["spl"] == 0.0 and c.metrics["sdtw"] == 0.0
        for key in ("tau", "geodesic_length", "reachable", "subgoals_total"):
            assert c.metrics[key] == h["metrics"][key], key
        assert c.metrics["csr"] == (0.0 if h["metrics"]["subgoals_total"] else None)
        assert c.metrics["ne"] is None and c.metrics["oracle_success"] is None
        assert c.extra["fields"] == h["extra"]["fields"] and c.extra["termination"] == AGENT_CRASH
        e = score(agent_error(eid, sid, "SystemExit"))  # a fault outside the rollout: same, labelled so
        assert e.label == "agent_error" and e.metrics["success"] == 0.0
        scored = score(agent_crash(eid, sid, "x").__class__(eid, sid, "success", {"success": 1.0}))
        assert scored.metrics == {"success": 1.0}  # scored results pass through


def test_a_self_killing_agent_never_scores_above_the_same_policy(cond_dataset: Path, honest: tuple,
                                                                 tmp_path: Path) -> None:
    """The policy SIGKILLs its process where its stop would fail: those episodes are agent_crash
    failures (before: dropped from SR, which rose from 0.583 to 1.0 on these 12 episodes)."""
    from navbench.report.build import build_report

    _, rows = honest
    ok = sorted(e for e, r in rows.items() if r["label"] == "success")
    bad = sorted(e for e, r in rows.items() if r["label"] != "success")
    assert ok and bad
    chosen = [*ok[:2], bad[0]]
    run = tmp_path / "crash"
    s = evaluate(cond_dataset, AGENT, run, EvalSettings(episodes=",".join(chosen), agent_kwargs={"how": "kill"}),
                 progress=False)
    assert dict(s.labels) == {"success": 2, AGENT_CRASH: 1}
    # evaluate's summary: SR = SPL-sum over all 3, the crash as 0 (never 1.0 over the 2 left)
    hon = [rows[e]["metrics"] for e in chosen]
    assert s.summary["SR"] == pytest.approx(2 / 3) == pytest.approx(np.mean([m["success"] for m in hon]))
    assert s.summary["SPL"] == pytest.approx(np.mean([m["spl"] for m in hon]))
    assert s.summary["crashes"] == 1 and s.summary["errors"] == 0
    with ResultsDB(run) as db:
        crashed = {r["episode_id"]: r for r in db.rows(db.resolve_run(None))}[bad[0]]
    assert crashed["label"] == AGENT_CRASH and crashed["error"] == "worker died (crashed); 2 attempt(s)"
    assert crashed["metrics"]["success"] == 0.0 and crashed["metrics"]["spl"] == 0.0
    build_report([run], tmp_path / "report")
    table = (tmp_path / "report" / "tables" / "conditional" / "overall.csv").read_text().splitlines()
    head, row = table[0].split(","), table[1].split(",")
    cell = dict(zip(head, row, strict=True))
    assert (cell["episodes"], cell["crashed"], cell["SR n"]) == ("3", "1", "3")
    assert float(cell["SR"]) == pytest.approx(2 / 3)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["exit", "segv", "hang"])
def test_every_way_of_dying_scores_as_the_failure(cond_dataset: Path, honest: tuple, tmp_path: Path,
                                                  how: str) -> None:
    """``os._exit``, a segfault and a hang only the runner's kill ends, on all 12 episodes."""
    from navbench.eval import LocalExecutor, plan_shards, run_shards
    from navbench.eval.pipeline import WORKER_FN, summarize
    from navbench.eval.planning import plan_evaluation

    _, rows = honest
    settings = EvalSettings(agent_kwargs={"how": how}, episode_timeout_s=8.0)
    run_settings, pairs, worker_kw, dhash = plan_evaluation(cond_dataset, AGENT, settings)
    with ResultsDB(tmp_path / "run") as db:
        rid = db.get_or_create_run(AGENT, dhash, run_settings, 0, "test")
        s = run_shards(db, plan_shards(rid, pairs, WORKER_FN, worker_kw, workers=2),
                       LocalExecutor(2, grace_s=2.0), progress=False, episode_timeout_s=8.0,
                       summary_fn=summarize, complete_fn=FailureScorer(worker_kw, True))
        got = {r["episode_id"]: r for r in db.rows(rid)}
    for eid, h in rows.items():
        failed = h["label"] != "success"
        assert got[eid]["label"] == (AGENT_CRASH if failed else "success"), eid
        assert got[eid]["metrics"]["success"] == h["metrics"]["success"]
        assert got[eid]["metrics"]["spl"] == pytest.approx(h["metrics"]["spl"])
    hon = [h["metrics"] for h in rows.values()]
    assert s.summary["SR"] == pytest.approx(np.mean([m["success"] for m in hon]))
    assert s.summary["SPL"] == pytest.approx(np.mean([m["spl"] for m in hon]))
    if how == "hang":
        assert all("unresponsive for 10 s" in got[e]["error"] for e, h in rows.items()
                   if h["label"] != "success")
