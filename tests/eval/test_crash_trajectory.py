"""A crashed episode is scored on the rows its worker recorded before it died: as the same policy
that stopped moving there without STOP, in every metric (NE, OSR, SoftSPL, path length, nDTW,
CR, ...), never above it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from navbench.eval import AGENT_CRASH, ResultsDB, agent_crash, agent_error
from navbench.eval.pipeline import EvalSettings, evaluate
from navbench.eval.records import EpisodeResult, ShardSpec
from navbench.eval.shards import ShardBook
from navbench.eval.trace import (
    BatchedSink,
    PartialTrace,
    SpillFile,
    TraceChunk,
    read_spill,
    spill_path,
)
from navbench.sim.records import NCOL, R_COL, R_SURF, R_T, R_X

WALK = "tests.eval.pipeline_agents:WalkThenDie"
#: metrics that depend on the trajectory (and on S)
TRAJ = ("ne", "oracle_success", "soft_spl", "soft_success", "path_length", "ndtw", "sdtw",
        "success", "spl", "bsa", "csr", "bca", "ce", "cr", "contact_share", "ado", "nsr", "dtg_start")


def _rows(xs: list[float], t0: float = 0.0, surface: int = 0) -> np.ndarray:
    """Rows at (x, 0, 0), 0.1 s apart, one collision on the second row."""
    r = np.zeros((len(xs), NCOL))
    r[:, R_X] = xs
    r[:, R_T] = t0 + 0.1 * np.arange(len(xs))
    r[:, R_SURF] = surface
    if len(xs) > 1:
        r[1, R_COL] = 1.0
    return r


def test_spill_file_round_trip_and_a_cut_tail(tmp_path: Path) -> None:
    """Chunks appended to a spill file read back as written; a record cut by the death of the
    writer is left out; the trajectory is the simulator's arrays of those rows."""
    table = (("floor", True), ("rug", False))
    sink = SpillFile(tmp_path, 3, ["a", "b"])
    sink(TraceChunk("b", 0, _rows([0.0]), table, 0))
    sink(TraceChunk("b", 1, _rows([0.25, 0.5], 0.1), table, 2))
    sink(TraceChunk("b", 3, _rows([0.75], 0.3, surface=1), (*table, ("grass", True)), 3))
    sink.close()
    path = spill_path(tmp_path, 3, 1)
    chunks = read_spill(path, "b")
    assert [(c.start, len(c.rows), c.steps) for c in chunks] == [(0, 1, 0), (1, 2, 2), (3, 1, 3)]
    trace = PartialTrace()
    for c in chunks:
        trace.add(c)
    traj = trace.trajectory()
    assert traj["positions"][:, 0].tolist() == [0.0, 0.25, 0.5, 0.75]
    assert traj["t"].tolist() == pytest.approx([0.0, 0.1, 0.2, 0.3])
    assert traj["collision"].tolist() == [False, False, True, False]  # row 1 of chunk 2
    assert traj["surface"].tolist() == ["floor", "floor", "floor", "rug"]
    assert traj["preferred"].tolist() == [True, True, True, False]
    assert (trace.rows, trace.steps) == (4, 3)
    data = path.read_bytes()
    path.write_bytes(data[:-8])  # the last row's last value never reached the file
    assert [len(c.rows) for c in read_spill(path, "b")] == [1, 2]
    assert read_spill(tmp_path / "missing.trace", "b") == []


def test_a_spill_file_that_cannot_be_written_never_stops_the_episode(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    sink = SpillFile(tmp_path / "gone", 0, ["a"])  # the folder does not exist
    sink(TraceChunk("a", 0, _rows([0.0]), (), 0))
    sink(TraceChunk("a", 1, _rows([1.0]), (), 1))
    assert "crash trace of episode a not spilled" in caplog.text
    assert read_spill(spill_path(tmp_path / "gone", 0, 0), "a") == []


def test_partial_trace_keeps_only_contiguous_rows() -> None:
    trace = PartialTrace()
    trace.add(TraceChunk("e", 0, _rows([0.0, 1.0]), (("floor", True),), 1))
    trace.add(TraceChunk("e", 5, _rows([9.0]), (("floor", True),), 9))  # a gap: ignored
    assert trace.rows == 2 and trace.steps == 1
    trace.add(TraceChunk("e", 0, _rows([7.0]), (("floor", True),), 0))  # a new attempt restarts
    assert trace.trajectory()["positions"][:, 0].tolist() == [7.0]


def test_batched_sink_sends_the_start_row_then_every_16_steps() -> None:
    sent: list[TraceChunk] = []
    sink = BatchedSink(sent.append, every_steps=16, every_s=1e9)
    for step in range(41):
        sink(TraceChunk("e", step, _rows([float(step)]), (), step))
    assert [(c.start, len(c.rows), c.steps) for c in sent] == [(0, 1, 0), (1, 16, 16), (17, 16, 32)]
    sink(TraceChunk("f", 0, _rows([0.0]), (), 0))  # next episode: the 8 pending rows are moot
    assert (sent[-1].episode_id, sent[-1].start) == ("f", 0)
    timed: list[TraceChunk] = []
    sink = BatchedSink(timed.append, every_steps=1000, every_s=0.0)  # every call is due
    for step in range(3):
        sink(TraceChunk("e", step, _rows([float(step)]), (), step))
    assert len(timed) == 3


def test_the_shard_book_hands_the_rows_to_the_unscored_results() -> None:
    shard = ShardSpec("r", "s", ("1", "2", "3"), "m:f")
    book = ShardBook(max_retries=0)
    k = book.start(shard)
    table = (("floor", True),)
    book.trace(k, TraceChunk("1", 0, _rows([0.0, 0.5]), table, 1))
    scored = EpisodeResult("1", "s", "success", {"success": 1.0})
    assert book.record(k, scored) is scored  # a scored result passes unchanged
    book.trace(k, TraceChunk("1", 2, _rows([1.0]), table, 2))  # late rows of a finished episode
    book.trace(k, TraceChunk("2", 0, _rows([0.0, 0.25, 0.5]), table, 2))
    err = book.record(k, agent_error("2", "s", "SystemExit (at agent.py:3)"))
    assert err is not None and err.trajectory is not None
    assert err.trajectory["positions"][:, 0].tolist() == [0.0, 0.25, 0.5]
    assert err.extra["partial"] == {"rows": 3, "agent_steps": 2}
    book.trace(k, TraceChunk("3", 0, _rows([0.0, 2.0]), table, 1))
    results, retry = book.died(k, "crashed")
    assert retry is None and [r.label for r in results] == [AGENT_CRASH]
    crash = results[0]
    assert crash.error == "worker died (crashed); 1 attempt(s)"
    assert crash.trajectory is not None and crash.trajectory["positions"][:, 0].tolist() == [0.0, 2.0]
    k2 = book.start(ShardSpec("r", "s", ("4",), "m:f"))
    results, _ = book.died(k2, "crashed")  # nothing recorded: no trajectory
    assert results[0].trajectory is None and results[0].extra["partial"]["rows"] == 0


# ----------------------------------------------------------------------------- end to end

def _run(ds: Path, out: Path, how: str, k: int, episodes: str) -> dict[str, dict]:
    evaluate(ds, WALK, out, EvalSettings(episodes=episodes, agent_kwargs={"k": k, "how": how}),
             progress=False)
    with ResultsDB(out) as db:
        rid = db.resolve_run(None)
        rows = {r["episode_id"]: r for r in db.rows(rid)}
        trajs = {e: db.trajectory(rid, e) for e in rows}
    for e, r in rows.items():
        r["trajectory"] = trajs[e]
    return rows


def _geodesic(ds: Path, sid: str, p: np.ndarray, goals: list) -> float:
    from navbench.episodes.loader import load_dataset

    nm = load_dataset(ds).navmesh(sid)
    return min(nm.geodesic_distance(p, g.position) for g in goals)


@pytest.fixture(scope="module")
def gave_up(cond_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The walking policy giving up honestly after 16 actions (an exception in ``act``: the
    worker scores it on its 16 steps, no STOP)."""
    return _run(cond_dataset, tmp_path_factory.mktemp("raise") / "run", "raise", 16, "0,6")


@pytest.mark.parametrize("how", ["exit", "sysexit", pytest.param("kill", marks=pytest.mark.slow)])
def test_a_crash_after_k_steps_scores_as_the_policy_that_stopped_there(
        cond_dataset: Path, gave_up: dict, tmp_path: Path, how: str) -> None:
    """``os._exit`` / SIGKILL on action 17 (and ``SystemExit``, which escapes the episode loop
    and ends the episode as an unscored ``agent_error``): the same 16 steps' rows, the same
    metrics as the policy that gave up there, by hand: NE = the geodesic from the last pose,
    path length = the sum of its segments."""
    from navbench.episodes.loader import load_dataset

    got = _run(cond_dataset, tmp_path / "run", how, 16, "0,6")
    eps = {e.episode_id: e for e in load_dataset(cond_dataset).episodes("conditional", "eval")}
    for eid, honest in gave_up.items():
        c = got[eid]
        assert honest["label"] == "agent_error"
        if how == "sysexit":
            assert c["label"] == "agent_error" and c["error"].startswith("SystemExit: 3 (at ")
        else:
            assert c["label"] == AGENT_CRASH and c["error"] == "worker died (crashed); 2 attempt(s)"
        assert c["metrics"]["steps"] == 16 == honest["metrics"]["steps"]
        pos = c["trajectory"]["positions"]
        np.testing.assert_array_equal(pos, honest["trajectory"]["positions"])
        assert len(pos) > 16 and not c["trajectory"]["stop"].any()
        for key in TRAJ:
            assert c["metrics"][key] == pytest.approx(honest["metrics"][key], abs=1e-12), key
        assert c["metrics"]["success"] == 0.0 and c["metrics"]["spl"] == 0.0
        ne = _geodesic(cond_dataset, c["scene_id"], pos[-1], list(eps[eid].goals))
        assert c["metrics"]["ne"] == pytest.approx(ne, abs=1e-6)
        assert c["metrics"]["path_length"] == pytest.approx(
            float(np.linalg.norm(np.diff(pos, axis=0), axis=1).sum()), abs=1e-9)
        assert c["metrics"]["path_length"] > 1.0  # it did walk


def test_a_crash_before_the_first_step_never_moved(cond_dataset: Path, tmp_path: Path) -> None:
    """Dying on the first action (the start row was recorded) and before the agent exists (no
    row at all): NE = the start's geodesic distance, SoftSPL 0, path length 0."""
    from navbench.episodes.loader import load_dataset

    eps = {e.episode_id: e for e in load_dataset(cond_dataset).episodes("conditional", "eval")}
    first = _run(cond_dataset, tmp_path / "first", "exit", 0, "0")["0"]
    init = _run(cond_dataset, tmp_path / "init", "init", 0, "0")["0"]
    ep = eps["0"]
    d0 = _geodesic(cond_dataset, first["scene_id"], np.asarray(ep.start_position), list(ep.goals))
    assert init["metrics"]["ne"] == pytest.approx(d0, abs=1e-9)  # the episode's start pose
    assert first["metrics"]["ne"] == pytest.approx(d0, abs=0.05)  # the settled start row
    for r, rows in ((first, 1), (init, 0)):
        assert r["label"] == AGENT_CRASH and r["extra"]["partial"]["rows"] == rows
        m = r["metrics"]
        assert m["soft_spl"] == pytest.approx(0.0, abs=1e-9)  # 1 − d_T / d_0 with d_T = d_0
        assert (m["path_length"], m["success"], m["spl"], m["steps"]) == (0.0, 0.0, 0.0, 0)
        assert m["oracle_success"] == float(m["ne"] <= m["tau"])
    assert "never having moved" in init["extra"]["unscored"]


def test_a_crash_is_a_failure_whatever_the_success_rule(cond_dataset: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a rule that needs no STOP (here: every pose succeeds), a crash still fails."""
    import navbench.metrics.distance as distance
    from navbench.eval.failures import FailureScorer
    from navbench.eval.planning import plan_evaluation
    from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics

    monkeypatch.setattr(distance, "success", lambda *a, **k: True)
    far = EpisodeFacts("x", np.zeros(3), np.array([[9.0, 0.0, 0.0]]), np.zeros(1), 1.0)
    assert compute_episode_metrics(Trajectory("x", np.zeros((1, 3))), far)["success"] == 1.0
    _, pairs, kw, _ = plan_evaluation(cond_dataset, WALK, EvalSettings(episodes="0"))
    eid, sid = pairs[0]
    r = FailureScorer(kw)(agent_crash(eid, sid, "worker died (crashed); 2 attempt(s)"))
    assert r.label == AGENT_CRASH and r.extra["termination"] == AGENT_CRASH
    assert (r.metrics["success"], r.metrics["spl"]) == (0.0, 0.0)
    assert r.trajectory is not None and r.trajectory["label"][-1] == AGENT_CRASH
    assert math.isfinite(float(r.metrics["ne"]))  # type: ignore[arg-type]


@pytest.mark.slow
def test_ray_scores_a_crash_on_the_rows_it_batched(cond_dataset: Path, gave_up: dict,
                                                   tmp_path: Path) -> None:
    """On Ray the rows arrive in batches of 16 steps: a crash on action 17 loses none of them and
    records what the local run records."""
    pytest.importorskip("ray")
    out = tmp_path / "ray"
    evaluate(cond_dataset, WALK, out, EvalSettings(episodes="0,6", agent_kwargs={"k": 16, "how": "exit"}),
             workers=2, executor="ray", progress=False)
    with ResultsDB(out) as db:
        rid = db.resolve_run(None)
        got = {r["episode_id"]: r for r in db.rows(rid)}
        pos = {e: db.trajectory(rid, e)["positions"] for e in got}  # type: ignore[index]
    for eid, honest in gave_up.items():
        assert got[eid]["label"] == AGENT_CRASH
        np.testing.assert_array_equal(pos[eid], honest["trajectory"]["positions"])
        for key in TRAJ:
            assert got[eid]["metrics"][key] == pytest.approx(honest["metrics"][key], abs=1e-12), key
