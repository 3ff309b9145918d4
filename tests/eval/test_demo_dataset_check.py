"""The quick demo's dataset passes its own ``navbench dataset check`` (exit 0).

Before: the demo shipped hybrid conditional episodes whose ``_gt`` references (562–777
actions) did not fit the 300 s timeout, and a 48.8 m city route needing 355 actions (the GT
follower zig-zagged: 158 turns). Now CondVLN episodes end by their budget alone, the follower
keeps near-grid headings (221 actions for that route), and the builder drops references that
still cannot fit (``over_budget`` / ``over_timeout``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.cli.demo import QUICK, build_demo_dataset, generate_scenes


def test_quick_demo_dataset_passes_dataset_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    generate_scenes(tmp_path / "scenes", QUICK)
    ds = build_demo_dataset(tmp_path / "scenes", tmp_path / "dataset", QUICK, workers=1)
    with pytest.raises(SystemExit) as e:
        main(["dataset", "check", str(tmp_path / "dataset")])
    out = capsys.readouterr().out
    assert e.value.code == 0, out
    assert "0 problem(s) - OK" in out
    # independently, by counting: every kept _gt reference fits ceil(15 × words) actions
    # (the conditional text for the oracle-linear copy), and 300 for route VLN (300 s at 1 s)
    n = 0
    for task in ("conditional", "conditional_oracle", "route"):
        gt = ds.gt(task, "eval")
        for ep in ds.episodes(task, "eval"):
            text = ep.navbench.get("conditional_text") or ep.instruction_text
            cap = math.ceil(15 * len(text.split()))
            if task == "route":
                cap = min(cap, 300)
            assert len(gt[str(ep.episode_id)]["actions"]) <= cap
            n += 1
    assert n >= 20
    manifest = json.loads((tmp_path / "dataset" / "manifest.json").read_text())
    # 2 per scene: a draw without a path in range is refilled by a new draw (dataset build's max_draws)
    assert manifest["counts"]["route"]["eval"]["total"] == 10
