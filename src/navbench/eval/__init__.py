"""Evaluation: run episodes in worker processes (local or Ray), record results in SQLite, resume.

::

    from navbench.eval import ResultsDB, LocalExecutor, plan_shards, run_shards

    with ResultsDB("runs/r1") as db:
        run_id = db.get_or_create_run("oracle", dataset_hash(files), settings, seed, code_version())
        shards = plan_shards(run_id, [(ep_id, scene_id), ...], "mypkg.workers:run_shard", workers=2)
        summary = run_shards(db, shards, LocalExecutor(workers=2), episode_timeout_s=300)
"""

from navbench.eval.db import DB_NAME, DuplicateEpisodeError, ResultsDB, make_run_id
from navbench.eval.executors import Executor, LocalExecutor, ShardBook, make_executor
from navbench.eval.records import (
    AGENT_CRASH,
    AGENT_ERROR,
    EpisodeResult,
    RunSummary,
    ShardSpec,
    agent_crash,
    agent_error,
    decode_trajectory,
    encode_trajectory,
)
from navbench.eval.runner import code_version, dataset_hash, plan_shards, run_shards
from navbench.eval.timeouts import Deadline, EpisodeTimeout
from navbench.eval.worker import Emitter, execute_shard, resolve_worker_fn


def __getattr__(name: str) -> object:
    if name == "RayExecutor":  # keeps `import navbench.eval` free of Ray
        from navbench.eval.ray_executor import RayExecutor

        return RayExecutor
    raise AttributeError(name)


__all__ = [
    "AGENT_CRASH",
    "AGENT_ERROR",
    "DB_NAME",
    "Deadline",
    "DuplicateEpisodeError",
    "Emitter",
    "EpisodeResult",
    "EpisodeTimeout",
    "Executor",
    "LocalExecutor",
    "RayExecutor",
    "ResultsDB",
    "RunSummary",
    "ShardBook",
    "ShardSpec",
    "agent_crash",
    "agent_error",
    "code_version",
    "dataset_hash",
    "decode_trajectory",
    "encode_trajectory",
    "execute_shard",
    "make_executor",
    "make_run_id",
    "plan_shards",
    "resolve_worker_fn",
    "run_shards",
]
