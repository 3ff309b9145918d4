"""A worker function that logs when each shard runs (imported by Ray workers by name)."""

from __future__ import annotations

import time
from collections.abc import Callable

from navbench.eval import EpisodeResult, ShardSpec


def timed_shard(shard: ShardSpec, emit: Callable[[EpisodeResult], None]) -> None:
    """Each episode sleeps ``sleep_s``; appends ``start`` / ``end`` wall times to ``log``."""
    kw = dict(shard.fn_kwargs)
    with open(kw["log"], "a") as f:
        f.write(f"start {time.time()}\n")
    for eid in shard.episode_ids:
        time.sleep(float(kw["sleep_s"]))
        emit(EpisodeResult(eid, shard.scene_id, "success", {"spl": 1.0}, None, 0.0, 1.0, None, {}))
    with open(kw["log"], "a") as f:
        f.write(f"end {time.time()}\n")
