"""Plain progress lines (no terminal): content, timing from the background thread, the closing line."""

from __future__ import annotations

import io
import re
import time

import pytest

from navbench.errors import ConfigError
from navbench.progress import ProgressReporter, interval_from_env, progress_line, resuming_line


def test_line_rate_and_eta_by_hand() -> None:
    # 6 of 10 scenes, 4 of them in this session over 8 s: 0.5 scenes/s, 4 left -> 8 s
    assert progress_line("building dataset", 6, 10, "scenes", 4, 8.0) == (
        "building dataset: 6/10 scenes (60%) · 0.50 scenes/s · eta 0:00:08")
    # slow items read as seconds per item: 2 episodes in 50 s, 98 left -> 98 * 25 s = 2450 s
    assert progress_line("evaluating", 2, 100, "episodes", 2, 50.0, "SR 0.500") == (
        "evaluating: 2/100 episodes (2%) · 25.0 s per episode · eta 0:40:50 · SR 0.500")
    assert progress_line("generating", 3, None, "scenes", 0, 1.0) == "generating: 3 scenes"
    assert progress_line("evaluating", 5, 5, "episodes", 5, 10.0) == (
        "evaluating: 5/5 episodes (100%) · 0.50 episodes/s")
    assert resuming_line(7, 12) == "resuming: 7 of 12 episodes already done"


def test_lines_keep_coming_while_nothing_finishes() -> None:
    out = io.StringIO()
    t0 = time.monotonic()
    with ProgressReporter("evaluating", 3, done=1, stream=out, interval_s=0.1) as p:
        time.sleep(0.55)  # one long item: the timer thread still writes
        p.update(advance=1, summary="SR 1.000")
        time.sleep(0.25)
    wall = time.monotonic() - t0
    lines = out.getvalue().splitlines()
    assert lines[0] == "evaluating: 1/3 episodes (33%) · eta ?"
    ticks = lines[1:-1]
    assert int(wall / 0.1) - 2 <= len(ticks) <= int(wall / 0.1) + 1
    assert all(t.startswith("evaluating: 1/3 episodes (33%)") for t in ticks[:4])
    assert ticks[-1].startswith("evaluating: 2/3 episodes (66%) · ") and ticks[-1].endswith("SR 1.000")
    assert re.fullmatch(r"evaluating: 2/3 episodes \(66%\) · .* · SR 1\.000 · elapsed 0:00:00",
                        lines[-1])


def test_disabled_and_terminal_modes_write_no_plain_lines() -> None:
    out = io.StringIO()
    with ProgressReporter("x", 2, stream=out, interval_s=0.01, enabled=False) as p:
        p.update(advance=2)
        p.note("hello")
        time.sleep(0.05)
    assert out.getvalue() == ""
    with ProgressReporter("x", 2, stream=out, terminal=True) as p:
        p.note("resuming: 1 of 2 episodes already done")
        p.update(advance=1)
    assert "resuming: 1 of 2 episodes already done" in out.getvalue()
    assert "evaluating" not in out.getvalue() and "eta ?" not in out.getvalue()


def test_interval_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NAVBENCH_PROGRESS_EVERY", raising=False)
    assert interval_from_env() == 10.0
    monkeypatch.setenv("NAVBENCH_PROGRESS_EVERY", "2.5")
    assert interval_from_env() == 2.5
    for bad in ("0", "-1", "soon", "nan"):
        monkeypatch.setenv("NAVBENCH_PROGRESS_EVERY", bad)
        with pytest.raises(ConfigError, match="NAVBENCH_PROGRESS_EVERY: expected seconds > 0"):
            interval_from_env()
