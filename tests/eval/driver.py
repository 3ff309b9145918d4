"""Run a test evaluation into a results database (used by the SIGKILL/resume test).

Usage: python -m tests.eval.driver DB_PATH WORKERS SLEEP_S
"""

from __future__ import annotations

import sys

from navbench.eval import LocalExecutor, ResultsDB, plan_shards, run_shards

EPISODES = [(str(i), f"scene{i % 3}") for i in range(1, 31)]


def main() -> None:
    db_path, workers, sleep_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    with ResultsDB(db_path) as db:
        run_id = db.get_or_create_run("test-agent", "d" * 32, {"split": "eval"}, 7, "test")
        shards = plan_shards(
            run_id, EPISODES, "tests.eval.workers:run_shard", {"sleep_s": sleep_s}, workers=workers
        )
        s = run_shards(db, shards, LocalExecutor(workers), progress=False, episode_timeout_s=30)
    print(f"completed={s.completed} skipped={s.skipped} total={s.total}")


if __name__ == "__main__":
    main()
