"""Paired tables (oracle gap, agent vs agent, across seeds) and interval cells, by hand."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from navbench.report.cells import cell_text
from navbench.report.html import table_html, table_markdown
from navbench.report.paired import agent_pairs_table, oracle_gap_table, seeds_table
from navbench.report.sections import report_sections
from navbench.report.tables import Table, overall_table

Z2 = 1.959963984540054**2


def _rows(succ: list[int], spl: list[float] | None = None, **kw: object) -> list[dict]:
    spl = spl if spl is not None else [0.8 * s for s in succ]
    return [{"episode_id": str(i), "success": float(s), "spl": p, **kw}
            for i, (s, p) in enumerate(zip(succ, spl, strict=True))]


def at(t: Table, row: object, col: object) -> tuple[float, int, float, float]:
    assert t.values is not None and t.counts is not None and t.lo is not None and t.hi is not None
    return (float(t.values.loc[row, col]), int(t.counts.loc[row, col]),
            float(t.lo.loc[row, col]), float(t.hi.loc[row, col]))


def test_oracle_gap_mcnemar_and_sign_flip_by_hand() -> None:
    # agent succeeds on 2 of 8, the oracle on 8 of 8: 6 discordant pairs all one way
    agent = _rows([1, 1, 0, 0, 0, 0, 0, 0], [0.5, 0.4, 0, 0, 0, 0, 0, 0])
    oracle = _rows([1] * 8, [0.9, 0.9, 0.8, 0.8, 0.7, 0.7, 0.9, 0.9])
    t = oracle_gap_table({"agent": agent, "oracle": oracle}, metrics=("success", "spl"))
    v, n, lo, hi = at(t, "agent", ("SR", "agent"))
    assert (v, n) == (0.25, 8)
    # Wilson 2 of 8: centre (1/4 + z²/16)/(1 + z²/8), half z/(1 + z²/8)·sqrt(3/128 + z²/256)
    c = (0.25 + Z2 / 16) / (1 + Z2 / 8)
    h = math.sqrt(Z2) / (1 + Z2 / 8) * math.sqrt(3 / 128 + Z2 / 256)
    assert (lo, hi) == (pytest.approx(c - h), pytest.approx(c + h))
    assert at(t, "agent", ("SR", "gap"))[:2] == (0.75, 8)
    assert at(t, "agent", ("SR", "p"))[:2] == (pytest.approx(2 / 2**6), 8)  # exact McNemar b=6, c=0
    # SPL: d = (0.4, 0.5, 0.8, 0.8, 0.7, 0.7, 0.9, 0.9) all > 0: only the all-plus and all-minus
    # sign patterns reach |Σd|, so the sign-flip p = 2 / 2⁸
    assert at(t, "agent", ("SPL", "gap"))[0] == pytest.approx(np.mean([0.4, 0.5, 0.8, 0.8, 0.7, 0.7, 0.9, 0.9]))
    assert at(t, "agent", ("SPL", "p"))[0] == pytest.approx(2 / 2**8)
    md = table_markdown(t)
    assert "| agent | 25.0 [7.1, 59.1] (8) | 100.0 [67.6, 100.0] (8) |" in md
    assert "| 0.008 |" in md and "| 0.031 |" in md  # p = 2/256, 2/64
    assert t.methods and {m for m, _ in t.methods} == {"wilson", "bootstrap", "paired-bootstrap",
                                                       "mcnemar", "sign-flip"}


def test_agent_pairs_table_by_hand() -> None:
    runs = {"a": _rows([1, 1, 1, 0]), "b": _rows([0, 1, 0, 0]), "c": _rows([1, 1, 1, 1])[:2]}
    t = agent_pairs_table(runs, ["success"])
    assert list(t.values.index) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert at(t, ("a", "b"), ("SR", "A − B"))[:2] == (0.5, 4)
    assert at(t, ("a", "b"), ("SR", "p"))[0] == pytest.approx(0.5)  # b=2, c=0: 2·(1/4)
    assert at(t, ("a", "c"), ("SR", "A − B"))[:2] == (0.0, 2)  # only episodes 0, 1 are shared
    assert at(t, ("b", "c"), ("SR", "p"))[0] == 1.0  # one discordant pair
    assert agent_pairs_table({"a": runs["a"]}).skipped


def test_seeds_table_by_hand() -> None:
    def run(seed: int, succ: list[int]) -> list[dict]:
        return [{**r, "run_agent": "sg", "run_seed": seed} for r in _rows(succ)]

    rows = {"sg (seed 0)": run(0, [1, 0, 0, 0]), "sg (seed 1)": run(1, [1, 1, 0, 0]),
            "sg (seed 2)": run(2, [1, 1, 1, 0]), "other": _rows([1, 0])}
    t = seeds_table(rows, ["success"])
    assert list(t.values.index) == ["sg"]
    assert at(t, "sg", ("seeds", ""))[1] == 3
    # per-seed SR 0.25, 0.5, 0.75: mean 0.5, sample sd 0.25
    v, n, lo, hi = at(t, "sg", ("SR", "mean ± sd"))
    assert (v, n, lo, hi) == (pytest.approx(0.5), 3, pytest.approx(0.25), pytest.approx(0.75))
    # pooled: 6 of 12 successes, Wilson
    v, n, lo, hi = at(t, "sg", ("SR", "pooled"))
    assert (v, n) == (0.5, 12) and hi - 0.5 == pytest.approx(
        math.sqrt(Z2) / (1 + Z2 / 12) * math.sqrt(1 / 48 + Z2 / 576))
    assert "50.0 ± 25.0 (3)" in table_markdown(t)
    assert seeds_table({"a": run(0, [1]), "b": _rows([1])}).skipped


def test_cell_text_kinds() -> None:
    t = overall_table({"a": _rows([1, 0])})
    assert str(cell_text(t, "SR", 0.5, 2, 0.0945, 0.9055)) == "50.0 [9.4, 90.5] (2)"
    assert str(cell_text(t, "SR", 0.5, 1)) == "50.0 (1)"
    assert str(cell_text(t, ("SR", "p"), 0.0004, 9)) == "<0.001"
    assert str(cell_text(t, ("SR", "gap"), -0.0001, 9, -0.2, 0.1)) == "0.0 [-20.0, 10.0] (9)"
    assert str(cell_text(t, "NE", 1.234, 3, 0.5, 2.0)) == "1.23 [0.50, 2.00] (3)"
    assert str(cell_text(t, "episodes", 7.0, 7)) == "7"
    assert str(cell_text(t, "SR", math.nan, 0)) == "–"


def test_every_rate_cell_of_every_table_has_an_interval() -> None:
    """A report over a few hand rows: every cell of a rate or share column with n ≥ 2 shows
    ``[lo, hi]`` (a binary rate with n = 1 too: Wilson)."""
    def rows(agent: str, succ: list[int]) -> list[dict]:
        return [{"episode_id": str(i), "run_task": "conditional", "task": "conditional",
                 "success": float(s), "oracle_success": float(s), "spl": 0.7 * s,
                 "soft_spl": 0.5 + 0.3 * s, "bsa": float(s), "csr": float(s), "depth": 1 + i % 2,
                 "chain_length": 1, "category": "simple", "source": "procgen",
                 "scene_kind": "indoor", "geodesic_length": 2.0 + i, "cr": float(i % 2),
                 "nsr": 0.8 + 0.05 * i, "termination": "success" if s else "timeout",
                 "branch_outcome": "correct" if s else "elsewhere", "run_agent": agent}
                for i, s in enumerate(succ)]

    sec = report_sections({"oracle-branch": rows("oracle-branch", [1, 1, 1, 1, 1, 1]),
                           "agent": rows("agent", [1, 0, 1, 0, 0, 1])}, "oracle-branch")[0]
    seen = 0
    for t in sec.tables:
        if t.skipped:
            continue
        html = table_html(t)
        for td in re.findall(r"<td>(.*?)</td>", html):
            if td.startswith(("–", "<0", "0.", "1.0")) and "span" not in td:
                continue  # undefined cells and p-values
            n = int(re.search(r"\((\d+)\)", td).group(1)) if "(" in td else 0
            if n >= 2:
                assert 'class="ci"' in td, (t.key, td)
                seen += 1
    assert seen > 50


def test_html_has_no_empty_header_row(tmp_path: Path) -> None:
    t = overall_table({"a": _rows([1, 0]), "b": _rows([1, 1])})
    html = table_html(t)
    head = html.split("<thead>")[1].split("</thead>")[0]
    for tr in re.findall(r"<tr>(.*?)</tr>", head):
        labels = re.findall(r"<th[^>]*>(.*?)</th>", tr)
        assert any(lab.strip() for lab in labels[1:]), tr  # column labels, not only a stub
    assert head.count("<tr>") == 1 and '<th class="corner">run</th><th>SR</th>' in head
    grouped = report_sections({"a": [{**r, "run_task": "objectnav", "scene_kind": k, "cr": 0.0}
                                     for r, k in zip(_rows([1, 0]), ("indoor", "outdoor"), strict=True)]})
    safety = next(x for x in grouped[0].tables if x.key == "navverse_safety")
    assert safety.values is not None
    head = table_html(safety).split("</thead>")[0]
    # two header rows: scene kinds (the stub names the level), then metrics with the index name
    assert head.count("<tr>") == 2 and '<th class="corner" colspan="1">scene kind</th>' in head
    assert "<th>indoor</th><th>outdoor</th><th>all</th>" in head.split("<tr>")[1]
    assert '<th class="corner">run</th><th>CR</th><th>CR</th><th>CR</th>' in head.split("<tr>")[2]


def test_runs_of_one_agent_with_several_seeds_from_results_databases(tmp_path: Path) -> None:
    from navbench.eval import EpisodeResult, ResultsDB
    from navbench.report.runs import read_runs

    for seed, succ in ((0, (1.0, 0.0, 0.0, 0.0)), (1, (1.0, 1.0, 1.0, 0.0))):
        with ResultsDB(tmp_path / f"s{seed}") as db:
            rid = db.get_or_create_run("sg", "d0", {"split": "val", "task": "objectnav"}, seed, "test")
            for i, s in enumerate(succ):
                db.add_episode(rid, EpisodeResult(str(i), "house", "success" if s else "timeout",
                                                  {"success": s, "spl": s / 2}))
    rows, _ = read_runs([tmp_path / "s0", tmp_path / "s1"])
    assert sorted(rows) == ["sg (seed 0) · objectnav", "sg (seed 1) · objectnav"]
    sec = report_sections(rows)[0]
    assert sorted(sec.rows_by_run) == ["sg (seed 0)", "sg (seed 1)"]
    seeds = next(t for t in sec.tables if t.key == "seeds")
    # per-seed SR 0.25 and 0.75: mean 0.5, sd = |0.75 − 0.25| / √2
    v, n, lo, hi = at(seeds, "sg", ("SR", "mean ± sd"))
    assert (v, n) == (0.5, 2) and (hi - v, v - lo) == pytest.approx((0.5 / math.sqrt(2),) * 2)
    assert at(seeds, "sg", ("SR", "pooled"))[:2] == (0.5, 8)
    assert "agents that ran with several seeds (sg)" in seeds.note
