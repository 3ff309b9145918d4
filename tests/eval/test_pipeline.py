"""The real evaluation pipeline: episode selection, per-episode τ, distances, agent faults, the
``navbench evaluate`` command, and a SIGKILL in the middle of a real run."""

from __future__ import annotations

import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.eval import ResultsDB
from navbench.eval.pipeline import EvalSettings, evaluate, run_one
from navbench.eval.selection import parse_selection, select_episodes
from navbench.eval.timeouts import Deadline
from tests.conftest import two_room_scene
from tests.eval.pipeline_agents import Faulty, StopNow
from tests.eval.rows import committed_episodes

ROOT = Path(__file__).resolve().parents[2]


def _ep(eid: str, start: tuple[float, float, float], goal: tuple[float, float, float],
        tau: float | None, **nb: object) -> Episode:
    info = {"navbench": {**nb, **({} if tau is None else {"success_distance": tau})}}
    return Episode(eid, "scenes/two_rooms/scene.json", start, (0.0, 0.0, 0.0, 1.0),
                   (Goal(goal),), geodesic_distance=math.dist(start, goal), info=info)


# ----------------------------------------------------------------------------- selection

def _pool() -> list[Episode]:
    return [
        _ep("0", (1, 0, -3), (2, 0, -3), 0.5, category="chain", depth=1, scene="house_1",
            cross_room=True),
        _ep("1", (1, 0, -3), (2, 0, -3), 0.5, category="simple", depth=2, scene="house_1",
            cross_room=False),
        _ep("2", (1, 0, -3), (2, 0, -3), 0.5, category="long_chain", depth=3, scene="house_2",
            cross_room=True),
    ]


def test_selection_by_ids_and_filters() -> None:
    pool = _pool()
    ids = lambda expr: [e.episode_id for e in select_episodes(pool, expr)]  # noqa: E731
    assert ids(None) == ids("") == ["0", "1", "2"]
    assert ids("2,0") == ["0", "2"]  # original order kept
    assert ids("category=chain") == ["0"]
    assert ids("category=chain|long_chain") == ["0", "2"]
    assert ids("scene=house_1, depth>=2") == ["1"]
    assert ids("scene=house_1 and depth<2") == ["0"]
    assert ids("category!=chain|simple") == ["2"]
    assert ids("cross_room=true") == ["0", "2"]
    assert ids("depth>1") == ["1", "2"]
    assert parse_selection("0,1") == (["0", "1"], [])
    assert parse_selection("depth>=2") == (None, [("depth", ">=", ["2"])])
    with pytest.raises(ConfigError, match="unknown episode ids \\['7'\\]"):
        select_episodes(pool, "0,7")
    with pytest.raises(ConfigError, match="unknown field 'colour'"):
        select_episodes(pool, "colour=red")
    with pytest.raises(ConfigError, match="no episode matches"):
        select_episodes(pool, "depth>5")
    with pytest.raises(ConfigError, match="expected ids"):
        select_episodes(pool, "depth=2,house")


# ----------------------------------------------------------------------------- one episode

@pytest.fixture(scope="module")
def sim():
    from navbench.sim import SPOT, SimSettings, Simulator

    s = Simulator(two_room_scene(), SPOT, SimSettings())
    yield s
    s.close()


@pytest.fixture(scope="module")
def two_rooms_navmesh():
    from navbench.nav import NavMesh, NavSettings

    return NavMesh.build(two_room_scene(), NavSettings.preset("indoor"))


@pytest.mark.parametrize(("tau", "label"), [(0.5, "perception_error"), (1.5, "success")])
def test_each_episode_is_judged_with_its_own_tau(sim, tau: float, label: str) -> None:
    # Stop at the start, 1.0 m from a point goal: Spot's default τ (1.6 m) would call it success.
    ep = _ep("7", (1.0, 0.0, -3.0), (2.0, 0.0, -3.0), tau)
    r = run_one(sim, StopNow(), ep, "two_rooms", distance="euclidean", default_tau=1.6)
    assert r.label == label
    assert r.metrics["success"] == (1.0 if label == "success" else 0.0)
    assert r.metrics["tau"] == tau
    assert r.metrics["ne"] == pytest.approx(1.0, abs=0.02)
    assert r.extra["termination"] == label and r.extra["dtg_kind"] == "euclidean"
    pos = r.trajectory["positions"]
    assert pos.shape[1] == 3 and np.linalg.norm(pos[-1] - [1.0, 0.0, -3.0]) < 0.02
    # without a τ in the episode the simulator's default applies
    r2 = run_one(sim, StopNow(), _ep("8", (1.0, 0.0, -3.0), (2.0, 0.0, -3.0), None), "two_rooms",
                 distance="euclidean", default_tau=1.6)
    assert r2.label == "success"


def test_geodesic_distance_goes_through_the_door(sim, two_rooms_navmesh) -> None:
    # Start and goal 4 m apart on either side of the wall at x = 4 (door at z in [-2.5, -1.5]).
    ep = _ep("9", (2.0, 0.0, -0.5), (6.0, 0.0, -0.5), 0.5)
    geo = run_one(sim, StopNow(), ep, "two_rooms", navmesh=two_rooms_navmesh, distance="auto")
    euc = run_one(sim, StopNow(), ep, "two_rooms", navmesh=two_rooms_navmesh,
                  distance="euclidean")
    assert euc.extra["dtg_kind"] == "euclidean" and euc.metrics["ne"] == pytest.approx(4.0, abs=0.03)
    assert geo.extra["dtg_kind"] == "geodesic"
    # the shortest way passes the door post at (4, -1.5): 2·hypot(2, 1) = 4.47 m at least
    assert geo.metrics["ne"] >= 2 * math.hypot(2.0, 1.0) - 0.03
    assert geo.metrics["ne"] < 2 * math.hypot(2.0, 1.6) + 0.1
    assert np.isclose(geo.trajectory["geodesic_dtg"][-1], geo.metrics["ne"])


def test_agent_exception_and_wall_timeout_become_agent_error(sim) -> None:
    ep = _ep("3", (1.0, 0.0, -3.0), (2.0, 0.0, -3.0), 0.5)
    r = run_one(sim, Faulty(raise_on="3"), ep, "two_rooms", distance="euclidean")
    assert r.label == "agent_error" and "boom in act" in r.error
    assert r.metrics["success"] == 0.0 and r.extra["termination"] == "agent_error"
    with Deadline() as d:
        d.arm(0.5, "timeout: episode 3 exceeded the 0.5 s wall-clock limit")
        t0 = time.monotonic()
        r = run_one(sim, Faulty(hang_on="3"), ep, "two_rooms", distance="euclidean")
        d.disarm()
    assert time.monotonic() - t0 < 5
    assert r.label == "agent_error" and "timeout: episode 3 exceeded" in r.error
    assert r.metrics["success"] == 0.0 and r.trajectory["positions"].shape[0] >= 2
    # the simulator is usable afterwards
    ok = run_one(sim, StopNow(), ep, "two_rooms", distance="euclidean")
    assert ok.label == "perception_error"


# ----------------------------------------------------------------------------- real runs

@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    scenes = [generate_house(s, None, IndoorSettings(rooms=(3, 3))) for s in (1, 2)]
    out = tmp_path_factory.mktemp("ds") / "ds"
    build_dataset(scenes, out, tasks=("conditional",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=6))
    return out


def _rows(db_path: Path) -> list[dict]:
    with ResultsDB(db_path, create=False) as db:
        return db.rows(db.resolve_run(None))


def test_evaluate_records_faults_privilege_and_episode_fields(dataset: Path, tmp_path: Path) -> None:
    from navbench.episodes.loader import load_dataset

    eps = load_dataset(dataset).episodes("conditional", "eval")
    assert len(eps) >= 4
    a, b = eps[0].episode_id, eps[1].episode_id
    chosen = [e.episode_id for e in eps[:4]]
    settings = EvalSettings(episodes=",".join(chosen), episode_timeout_s=6.0,
                            agent_kwargs={"raise_on": a, "hang_on": b})
    s = evaluate(dataset, "tests.eval.pipeline_agents:Faulty", tmp_path / "run", settings,
                 workers=2, progress=False)
    assert (s.total, s.completed) == (4, 4)
    rows = {r["episode_id"]: r for r in _rows(tmp_path / "run")}
    assert sorted(rows) == sorted(chosen)
    assert rows[a]["label"] == "agent_error" and "boom in act" in rows[a]["error"]
    # the hang is timed from the episode's start: the world build before it (slow on a loaded
    # machine) has its own allowance (eval.worker.SETUP_ALLOWANCE_S) and is not in the message
    assert rows[b]["label"] == "agent_error"
    assert rows[b]["error"].endswith(f"timeout: episode {b} exceeded the 6 s wall-clock limit")
    for eid in chosen[2:]:  # walked 2 × 0.25 m and stopped: judged with the episode's τ
        r, ep = rows[eid], next(e for e in eps if e.episode_id == eid)
        tau = ep.navbench["success_distance"]
        assert r["label"] in ("success", "perception_error") and r["metrics"]["tau"] == tau
        assert r["extra"]["fields"]["category"] == ep.navbench["category"]
        with ResultsDB(tmp_path / "run") as db:
            pos = db.trajectory(db.resolve_run(None), eid)["positions"]
        goal = np.asarray(ep.goals[0].position)
        d_end = float(np.linalg.norm(pos[-1] - goal))  # point goal: NavVerse DTG = distance
        assert (r["label"] == "success") == (d_end <= tau + 1e-9)
        steps = np.linalg.norm(np.diff(pos, axis=0), axis=1).sum()
        assert r["metrics"]["path_length"] == pytest.approx(steps)
    with ResultsDB(tmp_path / "run") as db:
        run = db.runs()[0]
    assert run["settings"]["privileged"] is False and run["settings"]["render"] is False
    s2 = evaluate(dataset, "tests.eval.pipeline_agents:Privileged", tmp_path / "run",
                  EvalSettings(episodes=a), progress=False)
    with ResultsDB(tmp_path / "run") as db:
        run = next(r for r in db.runs() if r["run_id"] == s2.run_id)
    assert run["settings"]["privileged"] is True and run["settings"]["privileged_facts"] == ["goals"]




def _cli(dataset: Path, out: Path) -> list[str]:
    return [str(Path(sys.executable).with_name("navbench")), "evaluate", str(dataset), "--agent",
            "tests.eval.pipeline_agents:PacedRandom", "--workers", "2", "--out", str(out)]


def test_sigkill_mid_evaluate_then_resume_equals_an_uninterrupted_run(dataset: Path,
                                                                     tmp_path: Path) -> None:
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    proc = subprocess.Popen(_cli(dataset, killed), cwd=ROOT, env={**env, "NAVBENCH_TEST_PAUSE": "0.01"},
                            start_new_session=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while committed_episodes(killed / "results.sqlite") < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    after_kill = committed_episodes(killed / "results.sqlite")
    total = len(_rows_or_total(dataset))
    assert 2 <= after_kill < total  # cut short, committed rows kept
    out = subprocess.run(_cli(dataset, killed), cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    assert f"{total - after_kill} episodes run, {after_kill} already done" in out.stdout
    subprocess.run(_cli(dataset, clean), cwd=ROOT, env=env, capture_output=True,
                   timeout=300, check=True)
    con = sqlite3.connect(killed / "results.sqlite")
    n, distinct = con.execute("SELECT COUNT(*), COUNT(DISTINCT episode_id) FROM episodes").fetchone()
    assert n == distinct == total
    con.execute("ATTACH DATABASE ? AS clean", (str(clean / "results.sqlite"),))
    q = "SELECT episode_id, blob FROM {}trajectories ORDER BY episode_id"
    assert con.execute(q.format("")).fetchall() == con.execute(q.format("clean.")).fetchall()
    con.close()
    for fmt in ("csv", "json"):
        with ResultsDB(killed) as a, ResultsDB(clean) as b:
            assert a.runs()[0]["run_id"] == b.runs()[0]["run_id"]
            a.export(a.resolve_run(None), fmt, tmp_path / f"k.{fmt}", timings=False)
            b.export(b.resolve_run(None), fmt, tmp_path / f"c.{fmt}", timings=False)
        assert (tmp_path / f"k.{fmt}").read_bytes() == (tmp_path / f"c.{fmt}").read_bytes()


def _rows_or_total(dataset: Path) -> list[Episode]:
    from navbench.episodes.loader import load_dataset

    return load_dataset(dataset).episodes("conditional", "eval")


def test_cli_user_errors(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from navbench.cli import main

    for args, msg in [
        (["--episodes", "colour=red"], "unknown field 'colour'"),
        (["--render", "maybe"], "--render: expected one of auto, on, off"),
        (["--split", "train"], "--split: expected one of ['eval']"),
        (["--embodiment", "drone"], "unknown embodiment 'drone'"),
        (["--agent-arg", "oops"], "--agent-arg: expected NAME=VALUE"),
    ]:
        with pytest.raises(SystemExit) as e:
            main(["evaluate", str(dataset), "--agent", "random", "--out", str(tmp_path / "r"), *args])
        assert e.value.code == 2
        assert msg in capsys.readouterr().err


@pytest.mark.slow
def test_demo_quick_runs_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import navbench.cli.demo  # noqa: F401  (registers the command)
    from navbench.cli import main

    for _ in range(2):
        with pytest.raises(SystemExit) as e:
            main(["demo", "--out", str(tmp_path / "demo"), "--quick"])
        assert e.value.code == 0
        out = capsys.readouterr().out
        html = Path(out.strip().splitlines()[-1])
        assert html.is_absolute() and html.is_file() and html.name == "report.html"
    assert "0 run" in out and "report reused" in out  # the second call only reused steps
    with pytest.raises(SystemExit) as e:
        main(["demo", "--out", str(tmp_path / "demo")])  # full mode into a quick folder
    assert e.value.code == 2


def test_unreachable_goal_is_decided_from_the_navmesh_and_not_run(sim, two_rooms_navmesh) -> None:
    # The file says L = 1 m, but the goal lies 40 m outside the house: no navmesh path.
    ep = _ep("u", (1.0, 0.0, -3.0), (40.0, 0.0, -3.0), 0.5)
    assert math.isinf(two_rooms_navmesh.geodesic_distance(ep.start_position, ep.goals[0].position))
    r = run_one(sim, Faulty(raise_on="u"), ep, "two_rooms", navmesh=two_rooms_navmesh)
    assert r.label == "unreachable" and r.error is None  # not the agent's error: never run
    assert r.metrics["reachable"] is False and r.metrics["success"] is None
    assert r.metrics["spl"] is None and r.trajectory is None
    ok = run_one(sim, StopNow(), _ep("r", (1.0, 0.0, -3.0), (2.0, 0.0, -3.0), 0.5), "two_rooms",
                 navmesh=two_rooms_navmesh)
    assert ok.metrics["reachable"] is True and ok.label != "unreachable"


def test_object_goal_off_the_navmesh_is_reachable_through_its_reference_end(sim, two_rooms_navmesh) -> None:
    from navbench.eval.pipeline import start_geodesic

    # an object goal whose centre does not snap onto the navmesh (1.5 m beyond the outer wall)
    goal = Goal((-1.5, 0.4, -3.0), size=(2.0, 0.8, 2.0))  # r_goal = 1.0 m
    ep = Episode("o", "scenes/two_rooms/scene.json", (2.0, 0.0, -3.0), (0.0, 0.0, 0.0, 1.0), (goal,),
                 geodesic_distance=1.5, reference_path=((2.0, 0.0, -3.0), (0.5, 0.0, -3.0)),
                 info={"navbench": {"success_distance": 1.18}})
    assert math.isinf(two_rooms_navmesh.geodesic_distance(ep.start_position, goal.position))
    # reference end (0.5, 0, -3): ‖end − g‖ − r = hypot(2.0, 0.4) − 1.0 = 1.04 m ≤ τ = 1.18 m
    assert start_geodesic(two_rooms_navmesh, ep) == 1.5
    far = Episode("f", ep.scene_id, ep.start_position, ep.start_rotation, (goal,), geodesic_distance=1.5,
                  reference_path=((2.0, 0.0, -3.0), (3.0, 0.0, -3.0)), info=ep.info)
    assert math.isinf(start_geodesic(two_rooms_navmesh, far))  # its end is 3.5 m from the goal


def test_cli_names_the_episodes_that_failed_and_why(dataset: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`evaluate` printed 'errors 1' and no reason; the user had to open `results show`."""
    from navbench.cli import main

    first = _rows_or_total(dataset)[0].episode_id
    with pytest.raises(SystemExit) as e:
        main(["evaluate", str(dataset), "--agent", "tests.eval.pipeline_agents:Faulty",
              "--agent-arg", f"raise_on={first}", "--episodes", str(first),
              "--out", str(tmp_path / "r")])
    assert e.value.code in (0, None)
    out = capsys.readouterr().out
    assert f"  episode {first} (agent_error): " in out and "boom in act" in out, out
