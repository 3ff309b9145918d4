"""Instruction controls of ``dataset build`` (recorded in the manifest and obeyed by every
episode), ``dataset audit`` and the ``blind-prior`` agent on a small built dataset."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import navbench.cli  # noqa: F401  (registers the commands)
from navbench.agents import load_agent
from navbench.agents.rollout import make_task
from navbench.cli._app import app
from navbench.episodes.conditional import episode_instruction
from navbench.episodes.conditional_audit import fit_blind_prior
from navbench.episodes.instruction_controls import InstructionControls
from navbench.episodes.loader import load_dataset
from navbench.errors import ConfigError
from navbench.scene.io import save
from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import InstructionSettings, generate_instructions


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("controls")
    for s in (1, 2, 5, 6):
        h = generate_house(s)
        save(h, d / "scenes" / h.id / "scene.json")
    r = CliRunner().invoke(app, [
        "dataset", "build", "--scenes", str(d / "scenes"), "--out", str(d / "ds"), "-n", "6",
        "--categories", "simple,chain", "--split-by-scene", "train=0.5,eval=0.5", "--seed", "1",
        "--p-relation", "0.6", "--p-cross-room", "1.0", "--p-subgoal", "0", "--horizon", "1,2",
        "--evidence", "off_route", "--min-size", "0.2"])
    assert r.exit_code == 0, r.output
    return d / "ds"


def test_manifest_records_the_controls_and_episodes_obey_them(built: Path) -> None:
    m = json.loads((built / "manifest.json").read_text())
    ci = m["conditional_instructions"]
    assert ci["generator"] == "navbench.conditional/2"
    assert (ci["p_relation"], ci["p_cross_room"], ci["p_subgoal"]) == (0.6, 1.0, 0.0)
    assert ci["evidence"] == "off_route" and ci["horizons"] == [1, 2]
    assert ci["min_reference_size"] == 0.2 and ci["min_reference_size_by_kind"] == {"indoor": 0.2}
    assert ci["margins"]["direction_deg"] == 10.0
    assert m["settings"]["instructions"]["p_relation"] == 0.6
    eps = [e for s in ("train", "eval") for e in load_dataset(built).episodes("conditional", s)]
    assert len(eps) >= 12
    for e in eps:
        nb = e.navbench
        assert nb["evidence_observability"] == "off_route" and nb["cross_room"] is True
        assert nb["horizon"] == 1 and not nb["subgoals"]  # simple / chain with no lead subgoal


def test_horizon_control_adds_or_leaves_out_the_lead_subgoal() -> None:
    house = generate_house(3)
    two = generate_instructions(house, 12, 0, ["simple", "long_chain"],
                                instruction_settings=InstructionSettings(horizons=(2,)))
    assert {i.axes["horizon"] for i in two} == {2} and all(len(i.subgoal_ids) == 1 for i in two)
    with pytest.raises(ConfigError, match=r"nested_chain.*horizon 2 or 3"):
        generate_instructions(house, 6, 0, ["nested_chain"],
                              instruction_settings=InstructionSettings(horizons=(1,)))
    with pytest.raises(ConfigError, match="evidence"):
        InstructionControls(evidence="sometimes")


def test_bad_control_flags_are_one_line_errors(tmp_path: Path) -> None:
    for flags, msg in ((["--evidence", "maybe"], "--evidence"), (["--horizon", "one"], "--horizon"),
                       (["--p-relation", "2"], "p_relation")):
        r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(tmp_path), "--out",
                                     str(tmp_path / "x"), *flags])
        assert r.exit_code != 0 and isinstance(r.exception, ConfigError) and msg in str(r.exception)


def test_audit_command_and_prior_file(built: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["dataset", "audit", str(built), "--json", str(tmp_path / "a.json"),
                                 "--prior-out", str(tmp_path / "prior.json")])
    assert r.exit_code == 0, r.output
    assert "blind prior fitted on train" in r.output and "source:procgen" in r.output
    a = json.loads((tmp_path / "a.json").read_text())
    assert a["audited_splits"] == ["eval"] and a["min_reference_size"] == 0.2
    row = a["groups"]["all"]
    n_eval = len(load_dataset(built).episodes("conditional", "eval"))
    assert row["episodes"] == n_eval and row["relations_in_margin"] == row["qualifiers_in_margin"] == 0
    assert row["truth_mismatches"] == 0 and row["small_references"] == 0
    prior = json.loads((tmp_path / "prior.json").read_text())
    assert sorted(prior["scenes"]) == sorted(load_dataset(built).manifest.splits["train"])


def test_blind_prior_agent_takes_the_branch_of_its_blind_answers(built: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="dataset=DATASET"):
        load_agent("blind-prior")
    ds = load_dataset(built)
    prior = fit_blind_prior(ds)
    (tmp_path / "p.json").write_text(json.dumps(prior.to_json()))
    for agent in (load_agent("blind-prior", dataset=str(built)),
                  load_agent("blind-prior", prior=str(tmp_path / "p.json"))):
        assert agent.privileged == frozenset({"program", "scene", "navmesh"})
        for e in ds.episodes("conditional", "eval"):
            sid = e.navbench["scene"]
            task = make_task(e, agent, scene=ds.scene(sid), navmesh=ds.navmesh(sid))
            # the recorded truths, flipped: the agent must not read them
            flipped = {k: not v for k, v in task.privileged["program"]["truths"].items()}
            task.privileged["program"]["truths"] = flipped
            agent.reset(task)
            plan = agent.plan(task, np.asarray(e.start_position, float))
            want = prior.branch(episode_instruction(e).program, sid)
            assert agent.diag["branch_path"] == list(want.branch_path)
            goal = ds.scene(sid).object_index[str(want.goal.object_id)]
            end = plan[-1]
            assert np.hypot(end[0] - goal.center[0], end[2] - goal.center[2]) < 2.0
