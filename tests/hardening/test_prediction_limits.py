"""Prediction limits (points per path, file size) in every prediction reader, and a hostile
report title written Markdown-safe."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import numpy as np
import pytest

from navbench.errors import EpisodeFormatError
from navbench.metrics import scoring
from navbench.metrics.scoring import MAX_PATH_POINTS, read_predictions


def _rxr(path: Path, n: int) -> Path:
    path.write_text('{"instruction_id": 0, "path": [' + ",".join(["[1.0,0.0,2.0]"] * n) + "]}\n")
    return path


def test_rxr_path_at_and_past_the_limit(tmp_path: Path) -> None:
    ok = read_predictions(_rxr(tmp_path / "ok.jsonl", MAX_PATH_POINTS), "rxr")
    assert len(ok["0"].positions) == MAX_PATH_POINTS
    t = time.perf_counter()
    with pytest.raises(EpisodeFormatError, match=r"line 1.path.*at most 100,000 points.*about 100,001 points"):
        read_predictions(_rxr(tmp_path / "big.jsonl", MAX_PATH_POINTS + 1), "rxr")
    huge = _rxr(tmp_path / "huge.jsonl", 1_600_000)  # the 1.6 M-point path that took 103 s
    with pytest.raises(EpisodeFormatError, match="at most 100,000 points"):
        read_predictions(huge, "rxr")
    assert time.perf_counter() - t < 5.0  # counted before parsing (was 103 s and 725 MB)


def test_r2r_and_navbench_paths_past_the_limit(tmp_path: Path) -> None:
    from navbench.metrics.trajectory import Trajectory, save_trajectories

    step = {"position": [0.0, 0.0, 0.0], "heading": 0.0, "stop": False}
    (tmp_path / "p.json").write_text(json.dumps({"7": [step] * (MAX_PATH_POINTS + 1)}))
    with pytest.raises(EpisodeFormatError, match=r"field '7'.*at most 100,000 steps"):
        read_predictions(tmp_path / "p.json", "r2r")
    t = Trajectory("7", np.zeros((MAX_PATH_POINTS + 1, 3)))
    save_trajectories(tmp_path / "t.npz", [t])
    with pytest.raises(EpisodeFormatError, match=r"trajectory 7\.positions.*at most 100,000 points"):
        read_predictions(tmp_path / "t.npz", "navbench")


def test_file_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = _rxr(tmp_path / "p.jsonl", 10)
    assert read_predictions(p, "rxr")
    monkeypatch.setattr(scoring, "MAX_PREDICTION_BYTES", p.stat().st_size - 1)
    with pytest.raises(EpisodeFormatError, match=f"at most {p.stat().st_size - 1:,} bytes"):
        read_predictions(p, "rxr")
    gz = tmp_path / "p.jsonl.gz"  # small on disk, past the limit once decompressed
    gz.write_bytes(gzip.compress(p.read_bytes() * 3))
    assert gz.stat().st_size < p.stat().st_size
    with pytest.raises(EpisodeFormatError, match="decompressed text"):
        read_predictions(gz, "rxr")


def test_report_title_is_markdown_safe(tmp_path: Path) -> None:
    from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
    from navbench.report.build import build_report_from_rows

    facts = EpisodeFacts("e0", np.zeros(3), np.array([[0.0, 0.0, -3.5]]), np.zeros(1), 1.0, geodesic_distance=3.5)
    row = {**compute_episode_metrics(Trajectory("e0", np.array([[0.0, 0.0, 0.0], [0.0, 0.0, -3.0]])), facts),
           "task": "objectnav"}
    title = "<script>alert(1)</script> *x* [y](javascript:z) | `c`\n# injected"
    build_report_from_rows({"a": [row]}, tmp_path / "r", title=title)
    md = (tmp_path / "r" / "report.md").read_text().splitlines()
    assert md[0] == ("# &lt;script&gt;alert(1)&lt;/script&gt; \\*x\\* \\[y\\](javascript:z) \\| \\`c\\` "
                     "\\# injected")
    assert not any(line.startswith("# injected") for line in md)
    html = (tmp_path / "r" / "report.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
