"""``navbench results export`` / ``show`` on a database filled by a real run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.eval import LocalExecutor, ResultsDB, plan_shards, run_shards


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("run")
    with ResultsDB(d) as db:
        rid = db.get_or_create_run("agent", "h", {"split": "eval"}, 0, "v")
        eps = [("1", "a"), ("2", "a"), ("3", "b")]
        run_shards(
            db,
            plan_shards(rid, eps, "tests.eval.workers:run_shard"),
            LocalExecutor(1),
            progress=False,
        )
    return d


def test_export_formats(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["results", "export", str(run_dir), "--format", "csv", "--no-timings"])
    assert e.value.code == 0
    lines = (run_dir / "results.csv").read_text().splitlines()
    assert lines[0] == ("run_id,episode_id,scene_id,label,error,task,scene_kind,category,depth,"
                        "chain_length,spl,steps,success,sim_time_s,extra")
    assert [ln.split(",")[1:4] for ln in lines[1:]] == [["1", "a", "success"], ["2", "a", "success"],
                                                        ["3", "b", "timeout"]]  # fmt: skip
    assert lines[3].split(",")[5:14] == ["", "", "", "", "", "0.75", "6", "False", "1.5"]
    with pytest.raises(SystemExit) as e:
        main(
            [
                "results",
                "export",
                str(run_dir / "results.sqlite"),
                "-f",
                "json",
                "-o",
                str(run_dir / "x.json"),
            ]
        )
    assert e.value.code == 0
    doc = json.loads((run_dir / "x.json").read_text())
    assert doc["run"]["settings"] == {"split": "eval"} and len(doc["episodes"]) == 3
    assert "wrote 3 episodes" in capsys.readouterr().out


def test_show_and_user_errors(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["results", "show", str(run_dir)])
    out = capsys.readouterr().out
    assert e.value.code == 0 and "  labels: success 2, timeout 1\n" in out
    assert 'settings: {"split": "eval"}' in out and "agent=agent seed=0 episodes=3" in out
    for argv, msg in [
        (["results", "export", str(tmp_path)], "no results database here"),
        (
            ["results", "export", str(run_dir), "-f", "xml"],
            "--format: expected one of csv, parquet, json",
        ),
        (["results", "export", str(run_dir), "--run-id", "run-x"], "--run-id: expected one of"),
    ]:
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        assert msg in capsys.readouterr().err
