"""Aggregation reproduces a hand-made table: three agents × four episodes."""

from __future__ import annotations

import pytest

from navbench.metrics import (
    aggregate,
    branch_confusion_counts,
    difficulty_tertiles,
    group_by,
    label_counts,
)

EPISODES = {  # e4 is unreachable (infinite L)
    "e1": {"task": "cond", "reachable": True},
    "e2": {"task": "cond", "reachable": True},
    "e3": {"task": "route", "reachable": True},
    "e4": {"task": "cond", "reachable": False},
}
# per agent, per episode: success, spl, bsa, csr, branch outcome, termination
TABLE = {
    "A": [(1, 0.5, 1.0, 1.0, "correct", "success"), (0, 0.0, None, None, "other_branch", "perception_error"),
          (1, 1.0, 1.0, 1.0, "correct", "success"), (0, None, None, None, "elsewhere", "timeout")],
    "B": [(0, 0.0, 0.5, 0.0, "elsewhere", "perception_error"), (1, 0.25, 1.0, 1.0, "correct", "success"),
          (0, 0.0, None, None, "elsewhere", "timeout"), (0, None, None, None, "elsewhere", "timeout")],
    "C": [(1, 0.8, 0.5, 0.0, "correct", "success"), (1, 0.4, 1.0, 1.0, "correct", "success"),
          (1, 0.6, 1.0, 1.0, "correct", "success"), (0, None, None, None, "elsewhere", "fall")],
}
KEYS = ("success", "spl", "bsa", "csr")


def rows(agent: str) -> list[dict]:
    out = []
    for (eid, ep), vals in zip(EPISODES.items(), TABLE[agent], strict=True):
        out.append({"episode_id": eid, **ep, **dict(zip(KEYS, vals[:4], strict=True)),
                    "branch_outcome": vals[4], "termination": vals[5]})
    return out


# Hand-computed means over the reachable e1..e3: (mean, n, excluded)
EXPECTED = {
    "A": {"success": (2 / 3, 3, 0), "spl": (0.5, 3, 0), "bsa": (1.0, 2, 1), "csr": (1.0, 2, 1)},
    "B": {"success": (1 / 3, 3, 0), "spl": (0.25 / 3, 3, 0), "bsa": (0.75, 2, 1), "csr": (0.5, 2, 1)},
    "C": {"success": (1.0, 3, 0), "spl": (0.6, 3, 0), "bsa": (2.5 / 3, 3, 0), "csr": (2 / 3, 3, 0)},
}


@pytest.mark.parametrize("agent", ["A", "B", "C"])
def test_means_with_counts(agent):
    s = aggregate(rows(agent), KEYS)
    assert s["episodes"] == 4 and s["unreachable"] == 1
    for k, (mean, n, excl) in EXPECTED[agent].items():
        got = s["metrics"][k]
        assert got["mean"] == pytest.approx(mean) and (got["n"], got["excluded"]) == (n, excl)


def test_group_by_task_and_breakdowns():
    g = group_by(rows("C"), "task", KEYS)
    assert list(g) == ["cond", "route"]
    assert g["cond"]["episodes"] == 3 and g["cond"]["unreachable"] == 1
    assert g["cond"]["metrics"]["spl"]["mean"] == pytest.approx(0.6)  # (0.8 + 0.4) / 2
    assert g["cond"]["metrics"]["bsa"]["mean"] == pytest.approx(0.75)
    assert g["route"]["metrics"]["spl"] == {"mean": 0.6, "n": 1, "excluded": 0}
    assert branch_confusion_counts(rows("A")) == {"correct": 2, "other_branch": 1, "elsewhere": 0}
    assert branch_confusion_counts(rows("B")) == {"correct": 1, "other_branch": 0, "elsewhere": 2}
    assert label_counts(rows("B")) == {"perception_error": 1, "success": 1, "timeout": 2}
    by_agent = group_by([{**r, "agent": a} for a in "ABC" for r in rows(a)], "agent", ["success"])
    assert [v["metrics"]["success"]["mean"] for v in by_agent.values()] == pytest.approx([2 / 3, 1 / 3, 1.0])


def test_empty_mean_is_none_not_zero():
    s = aggregate([{"reachable": False, "spl": None}], ["spl"])
    assert s["metrics"]["spl"] == {"mean": None, "n": 0, "excluded": 0}


def test_difficulty_tertiles_per_task():
    rs = [{"task": "x", "geodesic_length": float(v)} for v in (1, 2, 3, 4, 5, 6, 7)]
    rs += [{"task": "y", "geodesic_length": 10.0}, {"task": "y", "geodesic_length": 20.0},
           {"task": "y", "geodesic_length": None}]
    # x: q1/3 = 1 + 6/3 = 3, q2/3 = 5; y: q = 13.33, 16.67
    assert difficulty_tertiles(rs) == ["easy"] * 3 + ["medium"] * 2 + ["hard"] * 2 + ["easy", "hard", None]
