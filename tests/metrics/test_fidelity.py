"""DTW / nDTW / SDTW against a brute-force DP written here, and hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.metrics.fidelity import dtw, fastdtw, ndtw, sdtw
from navbench.rng import derive


def brute_dtw(P, R) -> float:
    """Textbook O(n·m) DTW with Euclidean cost, in plain Python."""
    n, m = len(P), len(R)
    inf = float("inf")
    D = [[inf] * (m + 1) for _ in range(n + 1)]
    D[0][0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            c = math.dist(P[i - 1], R[j - 1])
            D[i][j] = c + min(D[i - 1][j], D[i][j - 1], D[i - 1][j - 1])
    return D[n][m]


def test_hand_cases():
    R = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
    assert dtw(np.array(R, float), np.array(R, float)) == 0.0
    assert ndtw(np.array(R, float), np.array(R, float)) == 1.0
    # P stops one metre short: matches (0,0), (1,1), (1,2) → 0 + 0 + 1
    P = np.array([(0, 0, 0), (1, 0, 0)], float)
    assert dtw(P, np.array(R, float)) == pytest.approx(1.0)
    assert ndtw(P, np.array(R, float)) == pytest.approx(math.exp(-1 / 9))
    assert sdtw(False, 0.7) == 0.0 and sdtw(True, 0.7) == 0.7


@pytest.mark.parametrize("case", range(12))
def test_matches_brute_force(case):
    rng = derive(7, "dtw", case)
    n, m = int(rng.integers(1, 40)), int(rng.integers(1, 40))
    P = np.cumsum(rng.normal(size=(n, 3)), axis=0)
    R = np.cumsum(rng.normal(size=(m, 3)), axis=0)
    ref = brute_dtw(P.tolist(), R.tolist())
    assert dtw(P, R) == pytest.approx(ref, rel=1e-12, abs=1e-12)
    assert ndtw(P, R, 3.0) == pytest.approx(math.exp(-ref / (m * 3.0)), rel=1e-12)
    # fastdtw is an approximation from above; exact when sequences are short
    assert fastdtw(P, R) >= ref - 1e-9
    if min(n, m) < 3:
        assert fastdtw(P, R) == pytest.approx(ref)


def test_fastdtw_wide_radius_is_exact():
    rng = derive(3, "fastdtw")
    P, R = rng.normal(size=(20, 3)), rng.normal(size=(17, 3))
    assert fastdtw(P, R, radius=40) == pytest.approx(brute_dtw(P.tolist(), R.tolist()))


def test_bad_method():
    with pytest.raises(ValueError):
        ndtw(np.zeros((2, 3)), np.zeros((2, 3)), method="slow")  # type: ignore[arg-type]


def test_in_place_turn_drift_adds_no_row() -> None:
    """Q drops rows within 1 mm of the last kept one: a physics robot's in-place turn (µm
    drift) counts like VLN-CE's exact repeat. By hand: Q = [(0,0,0), (1,0,0)] against
    R = [(0,0,0), (1,0,0), (2,0,0)] gives DTW = 1 (the last R row matched to (1,0,0))."""
    from navbench.metrics.fidelity import drop_repeats

    drift = [[1e-7 * k, 0.0, 2e-7 * k] for k in range(20)]  # 20 rows of a turn at the start
    q = np.array([*drift, [0.5, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.0, 0.0]])
    kept = drop_repeats(q)
    assert kept.tolist() == [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.0, 0.0]]
    assert len(drop_repeats(q, tol=0.0)) == 22  # exact-equality rule: only the one repeat goes
    creep = np.array([[0.0004 * k, 0.0, 0.0] for k in range(6)])  # 0.4 mm per row
    assert drop_repeats(creep)[:, 0] == pytest.approx([0.0, 0.0012])  # kept once 1 mm is covered
    R = np.array([[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0]])
    assert ndtw(drop_repeats(q[[0, 5, 22]]), R) == pytest.approx(math.exp(-1 / 9))
