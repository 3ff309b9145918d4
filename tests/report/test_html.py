"""Rendering (markdown, CSV, HTML), the report folder and the CLI (the layout in a browser:
test_html_layout.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from navbench.episodes import Episode, Goal
from navbench.report.build import build_report_from_rows
from navbench.report.html import table_csv, table_markdown
from navbench.report.tables import Table
from tests.conftest import two_room_scene


def _table() -> Table:
    cols = pd.MultiIndex.from_tuples([("thor", "SR"), ("thor", "NE")], names=["source", "metric"])
    idx = pd.Index(["a", "b|c"], name="run")
    v = pd.DataFrame([[0.5, 1.25], [np.nan, 0.0]], index=idx, columns=cols)
    n = pd.DataFrame([[2, 2], [0, 1]], index=idx, columns=cols)
    return Table("t", "T", v, n, "a note")


def test_markdown_cells_by_hand() -> None:
    assert table_markdown(_table()) == (
        "### T\n\n| run | thor / SR | thor / NE |\n|---|---:|---:|\n"
        "| a | 50.0 (2) | 1.25 (2) |\n| b\\|c | – | 0.00 (1) |\n\na note\n")


def test_csv_keeps_raw_values_and_counts() -> None:
    assert table_csv(_table()) == (  # no interval given: empty lo / hi
        "run,thor / SR,thor / SR n,thor / SR lo,thor / SR hi,thor / NE,thor / NE n,thor / NE lo,"
        "thor / NE hi\na,0.5,2,,,1.25,2,,\nb|c,,0,,,0.0,1,,\n")
    assert table_csv(Table("s", "S", None, None, "skipped: why")) == "note\nskipped: why\n"


def _inputs() -> tuple[dict, dict, dict, list[Episode]]:
    def row(eid: str, s: float, outcome: str, L: float, src: str) -> dict:
        return {"episode_id": eid, "success": s, "spl": 0.8 * s, "bsa": s, "csr": s,
                "source": src, "depth": 1, "chain_length": 1 + int(eid) % 2, "task": "conditional",
                "scene_kind": "indoor", "geodesic_length": L, "category": "simple",
                "termination": "success" if s else "perception_error", "branch_outcome": outcome,
                "ce": 0.6}
    rows = {"agent": [row("1", 1.0, "correct", 3.0, "procthor"), row("2", 0.0, "other_branch", 6.0, "mp3d")],
            "oracle": [row("1", 1.0, "correct", 3.0, "procthor"), row("2", 1.0, "correct", 6.0, "mp3d")]}
    eps = [Episode(str(i), "scenes/two_rooms/scene.json", (1.0, 0, -3.0), (0, 0, 0, 1),
                   (Goal((6.5, 0, -1.0)),), reference_path=((1, 0, -3), (4, 0, -2), (6.5, 0, -1)),
                   info={"navbench": {"branch_goals": [[2.5, 0, -0.5]], "subgoals": []}})
           for i in (1, 2)]
    traj = {"agent": {"2": np.array([[1, 0, -3], [2, 0, -2], [2.5, 0, -0.6]], float)},
            "oracle": {"2": np.array([[1, 0, -3], [4, 0, -2], [6.4, 0, -1.1]], float)}}
    return rows, {"two_rooms": two_room_scene()}, traj, eps


def test_report_folder_self_contained_and_deterministic(tmp_path: Path) -> None:
    rows, scenes, traj, eps = _inputs()
    outs = []
    for k in range(2):
        html = build_report_from_rows(rows, tmp_path / f"r{k}", scenes, traj, episodes=eps)
        outs.append({p.relative_to(tmp_path / f"r{k}"): p.read_bytes()
                     for p in sorted((tmp_path / f"r{k}").rglob("*")) if p.is_file()})
    assert outs[0] == outs[1]
    files = {str(p) for p in outs[0]}
    assert {"report.html", "report.md", "tables/conditional/condvln_table2.md",
            "tables/conditional/condvln_table2.csv", "tables/conditional/oracle_gap.csv",
            "figures/conditional_bars.png", "figures/conditional_success_vs_length.png",
            "figures/bev_2.png"} <= files
    text = html.read_text()
    assert "http://" not in text and "https://" not in text and "<link" not in text
    assert text.count("data:image/png;base64,") == 3
    assert "CondVLN Table 2" in text and "Privileged branch oracle vs agent gap" in text
    assert "Indoor-to-outdoor stages" not in text  # indoor only: the table does not apply
    assert '<div class="tbl">' in text and text.count("How to read:") >= 5
    # the gap table by hand: SR agent 0.5 (Wilson 1 of 2: 0.5 ∓ 0.4055), oracle 1.0 (2 of 2:
    # [1 − (z²/2)/(1 + z²/2), 1]) over 2 paired episodes; gap 0.5 with the bootstrap interval of
    # d = (0, 1): [0, 1]; McNemar b = 1, c = 0: p = 1
    assert ("agent,0.5,2,0.09453120573423074,0.9054687942657693,1.0,2,0.34238022750665315,1.0,"
            "0.5,2,0.0,1.0,1.0,2,") in outs[0][Path("tables/conditional/oracle_gap.csv")].decode()


def _make_db(run: Path) -> None:
    from navbench.eval import EpisodeResult, ResultsDB

    with ResultsDB(run) as db:
        for agent, succ in (("greedy", (1.0, 0.0, 0.0)), ("oracle", (1.0, 1.0, 0.0))):
            rid = db.get_or_create_run(agent, "d0", {"split": "val"}, 0, "test")
            for i, s in enumerate(succ):
                lab = "success" if s else "timeout"
                db.add_episode(rid, EpisodeResult(
                    str(i), "two_rooms", lab, {"success": s, "spl": s / 2},
                    trajectory={"positions": np.array([[1.0, 0, -3], [2, 0, -2]])},
                    extra={"navbench": {"source": "procthor" if i else "mp3d", "task": "conditional",
                                        "scene_kind": "indoor", "category": "simple"},
                           "branch_outcome": "elsewhere"}))


def test_cli_report_from_results_db(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import navbench.cli.report  # noqa: F401  (registers the command)
    from navbench.cli._app import app

    _make_db(tmp_path / "run")
    res = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-o", str(tmp_path / "rep"),
                                   "--episode-pages", "1", "--no-frames", "--max-pages", "5"])
    assert res.exit_code == 0, res.output
    csv = (tmp_path / "rep" / "tables" / "conditional" / "condvln_table2.csv").read_text().splitlines()
    assert csv[0].startswith("run,mp3d / SR,mp3d / SR n,mp3d / SR lo,mp3d / SR hi,mp3d / SPL,"
                             "mp3d / SPL n,mp3d / SPL lo,mp3d / SPL hi,procthor / SR")
    # greedy: mp3d = episode 0 (success), procthor = episodes 1, 2 (both failed). Intervals:
    # Wilson 1 of 1 → [1/(1 + z²), 1], 0 of 2 → [0, (z²/2)/(1 + z²/2)]; one-episode SPL: none
    z2 = 1.959963984540054 ** 2
    by_run = {line.split(",")[0]: [float(x) if x[:1].isdigit() else x for x in line.split(",")]
              for line in csv[1:]}
    assert by_run["greedy"][1:6] == [1, 1, pytest.approx(1 / (1 + z2)), 1, 0.5]
    assert by_run["greedy"][6:12] == [1, "", "", 0, 2, 0]
    assert by_run["greedy"][12] == pytest.approx((z2 / 2) / (1 + z2 / 2))
    assert by_run["oracle"][1:11] == [1, 1, pytest.approx(1 / (1 + z2)), 1, 0.5, 1, "", "", 0.5, 2]
    term = (tmp_path / "rep" / "tables" / "conditional" / "termination.csv").read_text().splitlines()
    assert any(t.startswith("greedy,conditional · indoor,3,3,0.3333333333333333,1,")
               for t in term)  # labels of the DB
    branch = (tmp_path / "rep" / "tables" / "conditional" / "branch_confusion.csv").read_text().splitlines()
    greedy = next(b for b in branch if b.startswith("greedy,all,"))  # branch_outcome from ``extra``
    # correct 0 of 3 → [0, (z²/3)/(1 + z²/3)]; elsewhere 3 of 3 → [1/(1 + z²/3), 1]
    assert [float(x) for x in greedy.split(",")[2:]] == pytest.approx(
        [0, 0, 0, 1 - 1 / (1 + z2 / 3), 0, 0, 0, 1 - 1 / (1 + z2 / 3), 1, 3, 1 / (1 + z2 / 3), 1])
    assert (tmp_path / "rep" / "report.html").is_file()


def test_cli_missing_run_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import navbench.cli.report  # noqa: F401
    from navbench.cli import main

    with pytest.raises(SystemExit) as e:
        main(["report", str(tmp_path / "nope"), "-o", str(tmp_path / "o")])
    assert e.value.code == 2
    assert "no results database" in capsys.readouterr().err
