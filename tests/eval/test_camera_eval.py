"""``evaluate --camera``: the rig renders the run's frames, is recorded with the run (naming it)
and shown in the report; a bad rig is one line before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.errors import ConfigError
from navbench.eval.pipeline import EvalSettings, evaluate


def test_bad_camera_is_refused_in_one_line(cond_dataset: Path, tmp_path: Path, capsys) -> None:
    from navbench.cli import main

    with pytest.raises(ConfigError, match=r"--camera 'habitat-vlnce,hfov=wide': hfov: expected a number"):
        EvalSettings(camera="habitat-vlnce,hfov=wide")
    with pytest.raises(SystemExit) as e:
        main(["evaluate", str(cond_dataset), "--agent", "random", "-o", str(tmp_path / "run"),
              "--camera", "eye=1.2"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "unknown key 'eye'" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "run" / "results.sqlite").exists()


def test_the_rig_is_recorded_and_reported(cond_dataset: Path, tmp_path: Path) -> None:
    from navbench.eval import ResultsDB
    from navbench.report.runs import read_runs, run_cameras

    run = tmp_path / "run"
    for camera in (None, "habitat-vlnce"):
        evaluate(cond_dataset, "tests.eval.pipeline_agents:StopNow", run,
                 EvalSettings(episodes="0", render="on", camera=camera), progress=False)
    with ResultsDB(run, create=False) as db:
        runs = {r["settings"].get("camera", {}).get("name", "robot"): r for r in db.runs()}
        assert set(runs) == {"robot", "habitat-vlnce"}  # two runs: the rig names the run
        eye = runs["habitat-vlnce"]["settings"]
        assert (eye["width"], eye["height"], eye["camera"]["height"], eye["camera"]["hfov"]) == (224, 224, 1.25, 90.0)
        assert "camera" not in runs["robot"]["settings"] and runs["robot"]["settings"]["width"] == 640
        assert all(db.rows(r["run_id"])[0]["label"] != "agent_error" for r in runs.values())
    line = run_cameras([run])
    assert line is not None and "habitat-vlnce (1.25 m, pitch 0°, HFOV 90°, 224×224, depth 0–10 m)" in line
    assert "robot (the embodiment's own camera)" in line
    rows, _ = read_runs([run])  # episode pages render their frames through the run's rig
    cams = {r.get("run_camera") is not None for rs in rows.values() for r in rs}
    assert cams == {True, False}
