"""A worker function that announces its world build (``emit.building()``) and begins each
episode (``emit.begin(id)``), like the evaluation pipeline's; ``fn_kwargs`` set the sleeps (s)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from navbench.eval import EpisodeResult, ShardSpec


def run_shard(shard: ShardSpec, emit: Callable[[EpisodeResult], None]) -> None:
    """Build for ``build_s`` seconds, then run each episode for ``episode_s`` (``hang_ids``: 3600)."""
    kw: dict[str, Any] = dict(shard.fn_kwargs)
    emit.building()  # type: ignore[attr-defined]
    time.sleep(float(kw.get("build_s", 0.0)))
    for eid in shard.episode_ids:
        emit.begin(eid)  # type: ignore[attr-defined]
        time.sleep(3600.0 if eid in kw.get("hang_ids", ()) else float(kw.get("episode_s", 0.0)))
        emit(EpisodeResult(eid, shard.scene_id, "success", {}, None, 0.0, 0.0, {}, {}))
