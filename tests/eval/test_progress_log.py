"""``navbench evaluate > log 2>&1``: plain progress lines reach the log while it runs, and a
re-run after Ctrl-C says it is resuming."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^evaluating: (\d+)/(\d+) episodes \(\d+%\)")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import generate_house

    out = tmp_path_factory.mktemp("ds") / "ds"
    build_dataset([generate_house(0, n_rooms=2)], out, tasks=["objectnav"], split="eval=1",
                  settings=DatasetSettings(episodes_per_scene=2))
    return out


def _evaluate(dataset: Path, run: Path, log: Path) -> subprocess.Popen[bytes]:
    # the second episode of a process runs ~40 s, so Ctrl-C after the first lands inside it
    env = {**os.environ, "NAVBENCH_PROGRESS_EVERY": "1", "NAVBENCH_TEST_PAUSE": "0.3",
           "NAVBENCH_TEST_PAUSE_LATER": "6", "PYTHONPATH": str(ROOT)}
    with open(log, "ab") as f:  # the child keeps its own descriptor: no terminal anywhere
        return subprocess.Popen(
            [sys.executable, "-m", "navbench", "evaluate", str(dataset), "--task", "objectnav",
             "--agent", "tests.eval.pipeline_agents:PacedTurns", "--out", str(run)],
            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=ROOT)


def test_progress_lines_reach_the_log_and_a_rerun_says_resuming(dataset: Path, tmp_path: Path) -> None:
    log, run = tmp_path / "eval.log", tmp_path / "run"
    proc = _evaluate(dataset, run, log)
    seen: list[tuple[float, str]] = []  # (arrival time, line) of every progress line
    t0 = time.monotonic()
    interrupted = False
    while proc.poll() is None and time.monotonic() - t0 < 120:
        lines = [ln for ln in log.read_text().splitlines() if LINE.match(ln)]
        seen += [(time.monotonic(), ln) for ln in lines[len(seen):]]
        if not interrupted and any(LINE.match(ln).group(1) == "1" for _, ln in seen):  # type: ignore[union-attr]
            proc.send_signal(signal.SIGINT)  # Ctrl-C after the first episode
            interrupted = True
        time.sleep(0.05)
    assert proc.wait(timeout=30) == 130, log.read_text()
    # a line at least every 10 s (here every ~1 s: NAVBENCH_PROGRESS_EVERY=1), from the start on
    gaps = [b - a for (a, _), (b, _) in zip([(t0, ""), *seen], seen, strict=False)]
    assert len(seen) >= 3 and max(gaps) < 10.0, (gaps, log.read_text())
    assert seen[0][1] == "evaluating: 0/2 episodes (0%) · eta ?"
    assert "interrupted: saved 1 of 2 episodes" in log.read_text()

    proc = _evaluate(dataset, run, tmp_path / "again.log")
    assert proc.wait(timeout=120) == 0
    again = (tmp_path / "again.log").read_text().splitlines()
    assert again[0] == "resuming: 1 of 2 episodes already done"
    assert again[1].startswith("evaluating: 1/2 episodes (50%)")
    assert any(ln.startswith("evaluating: 2/2 episodes (100%)") and "elapsed" in ln for ln in again)
    assert "1 episodes run, 1 already done, 2 total" in "\n".join(again)
