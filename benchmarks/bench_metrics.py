"""Speed of per-episode metrics: exact DTW (numba) vs a plain-Python DP measured in the same run,
fastdtw, and the full ``compute_episode_metrics`` on a long trajectory.

Run: ``.venv/bin/python benchmarks/bench_metrics.py``
"""

from __future__ import annotations

import math
import time

import numpy as np

from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.metrics.efficiency import coverage_efficiency
from navbench.metrics.fidelity import dtw, fastdtw
from navbench.rng import derive


def python_dtw(P: list, R: list) -> float:
    n, m = len(P), len(R)
    prev = [0.0] + [math.inf] * m
    for i in range(1, n + 1):
        cur = [math.inf] * (m + 1)
        for j in range(1, m + 1):
            cur[j] = math.dist(P[i - 1], R[j - 1]) + min(prev[j], cur[j - 1], prev[j - 1])
        prev = cur
    return prev[m]


def timeit(fn, repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    rng = derive(0, "bench_metrics")
    P = np.cumsum(rng.normal(scale=0.25, size=(500, 3)), axis=0)
    R = np.cumsum(rng.normal(scale=1.0, size=(60, 3)), axis=0)
    dtw(P[:3], R[:3])  # JIT warm-up (cached after the first run on a machine)
    t_nb = timeit(lambda: dtw(P, R), 5)
    t_py = timeit(lambda: python_dtw(P.tolist(), R.tolist()), 1)
    t_fd = timeit(lambda: fastdtw(P, R), 1)
    assert abs(dtw(P, R) - python_dtw(P.tolist(), R.tolist())) < 1e-9
    print(f"exact DTW 500x60: numba {t_nb * 1e3:.3f} ms, plain Python {t_py * 1e3:.1f} ms "
          f"(x{t_py / t_nb:.0f}); fastdtw (pure Python) {t_fd * 1e3:.1f} ms (x{t_fd / t_nb:.0f} slower)")
    T = 3000  # 300 s at 10 Hz
    pos = np.cumsum(rng.normal(scale=0.1, size=(T, 3)) * [1, 0, 1], axis=0)
    traj = Trajectory("b", pos, True, collisions=np.zeros(T, bool), obstacle_distances=np.ones(T),
                      surfaces=["floor"] * T)
    facts = EpisodeFacts("b", pos[0], [pos[-1] + 1.0], [0.3], 1.0, 20.0, reference_path=R,
                         subgoals=R[:3])
    t_ce = timeit(lambda: coverage_efficiency(pos))
    t_all = timeit(lambda: compute_episode_metrics(traj, facts))
    print(f"CE (exact cell traversal) on {T} steps: {t_ce * 1e3:.1f} ms")
    print(f"compute_episode_metrics on {T} steps, 60-point reference: {t_all * 1e3:.1f} ms "
          f"→ {1 / t_all:.0f} episodes/s")


if __name__ == "__main__":
    main()
