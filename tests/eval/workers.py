"""Worker functions for the evaluation tests (imported by worker processes by name).

``run_shard`` does deterministic work per episode: episode ``n`` (an integer id) gets label
``success`` unless ``n % 3 == 0`` (then ``timeout``), metrics ``spl = n / (n + 1)``,
``steps = 2 n``, ``success = n % 3 != 0``, sim time ``0.5 n`` s, a trajectory ``pos`` of shape
``(n, 3)`` holding ``0 .. 3n-1``. ``fn_kwargs`` choose misbehaviour per episode id.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from navbench.eval import EpisodeResult, ShardSpec


def expected(eid: str, scene_id: str) -> EpisodeResult:
    """What ``run_shard`` emits for a well-behaved episode (computed independently here)."""
    n = int(eid)
    return EpisodeResult(
        eid,
        scene_id,
        "timeout" if n % 3 == 0 else "success",
        {"spl": n / (n + 1), "steps": 2 * n, "success": n % 3 != 0},
        None,
        0.0,
        0.5 * n,
        {"pos": np.arange(3 * n, dtype=np.float64).reshape(n, 3)},
        {"scene": scene_id},
    )


def _log(kw: dict, key: str, text: str) -> None:
    if kw.get(key):
        with open(kw[key], "a") as f:
            f.write(text + "\n")


def run_shard(shard: ShardSpec, emit: Callable[[EpisodeResult], None]) -> None:
    """Build a "world" (logged to ``build_log``), then run the episodes in order."""
    kw = dict(shard.fn_kwargs)
    _log(kw, "build_log", f"{shard.scene_id} {os.getpid()} {','.join(shard.episode_ids)}")
    for eid in shard.episode_ids:
        t0 = time.perf_counter()
        if eid in kw.get("raise_ids", ()):
            raise RuntimeError(f"agent exploded on {eid}")
        if eid in kw.get("hang_ids", ()):
            time.sleep(3600)
        if eid in kw.get("spin_ids", ()):
            while True:
                pass
        if eid in kw.get("deaf_hang_ids", ()):  # a hang the in-worker deadline cannot interrupt
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)
        if eid in kw.get("kill_once_ids", ()):
            marker = Path(kw["marker_dir"]) / f"killed-{eid}"
            if not marker.exists():
                marker.touch()
                os.kill(os.getpid(), signal.SIGKILL)
        if eid in kw.get("kill_always_ids", ()):
            os.kill(os.getpid(), signal.SIGKILL)
        if eid in kw.get("return_at_ids", ()):
            return
        time.sleep(float(kw.get("sleep_s", 0.0)))
        r = expected(eid, shard.scene_id)
        extra = {**r.extra, "pid": os.getpid()} if kw.get("report_pid") else r.extra
        wall = time.perf_counter() - t0
        emit(
            EpisodeResult(
                eid, r.scene_id, r.label, r.metrics, None, wall, r.sim_time_s, r.trajectory, extra
            )
        )
