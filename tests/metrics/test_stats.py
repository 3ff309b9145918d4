"""Intervals and paired tests against closed forms, hand-counted cases and scipy."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from navbench.metrics.aggregate import metric_values
from navbench.metrics.stats import (
    BOOTSTRAP_RESAMPLES,
    SEED,
    bootstrap_interval,
    discordant,
    holm,
    mcnemar_p,
    mean_interval,
    paired_difference,
    seed_spread,
    sign_flip_p,
    wilson_interval,
    z_value,
)
from navbench.rng import derive

Z = 1.959963984540054  # Φ⁻¹(0.975)


def test_z_value() -> None:
    assert z_value() == pytest.approx(Z, abs=1e-12)
    assert z_value(0.9) == pytest.approx(1.6448536269514722, abs=1e-12)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (10, 10), (5, 11), (8, 34), (33, 34), (1, 2)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ref = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(ref.low, abs=1e-12) and hi == pytest.approx(ref.high, abs=1e-12)


def test_wilson_closed_forms() -> None:
    # k = 0: lo = 0, hi = (z²/n) / (1 + z²/n); k = n mirrors it
    n = 10
    hi = (Z * Z / n) / (1 + Z * Z / n)
    assert wilson_interval(0, n) == (0.0, pytest.approx(hi, abs=1e-12))
    assert wilson_interval(n, n) == (pytest.approx(1 - hi, abs=1e-12), 1.0)
    # k/n = 1/2: symmetric about 1/2 with half-width z/(1 + z²/n) · sqrt(1/(4n) + z²/(4n²))
    lo, hi = wilson_interval(5, 10)
    assert (lo + hi) / 2 == pytest.approx(0.5, abs=1e-12)
    half = Z / (1 + Z * Z / 10) * math.sqrt(1 / 40 + Z * Z / 400)
    assert hi - 0.5 == pytest.approx(half, abs=1e-12)
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_bootstrap_matches_scipy_with_the_same_draws() -> None:
    x = np.array([0.0, 0.93, 0.5, 0.71, 0.0, 0.88, 0.2, 1.0, 0.35, 0.0, 0.64])
    ref = sps.bootstrap((x,), np.mean, n_resamples=BOOTSTRAP_RESAMPLES, method="percentile",
                       confidence_level=0.95, rng=derive(SEED, "bootstrap"), vectorized=True)
    lo, hi = bootstrap_interval(x)
    assert lo == pytest.approx(ref.confidence_interval.low, abs=1e-12)
    assert hi == pytest.approx(ref.confidence_interval.high, abs=1e-12)
    assert bootstrap_interval(x) == (lo, hi)  # seeded: same values, same interval


def test_bootstrap_by_hand() -> None:
    # x = (0, 0, 0, 1): a resample's mean is X/4, X ~ Binomial(4, 1/4). P(X = 0) = 0.32 > 0.025,
    # so the 2.5% quantile is 0; P(X = 4) = 0.004 < 0.025 < P(X >= 3) = 0.051: the 97.5% is 3/4.
    assert bootstrap_interval([0.0, 0.0, 0.0, 1.0]) == (0.0, 0.75)
    assert bootstrap_interval([0.4, 0.4, 0.4]) == (pytest.approx(0.4), pytest.approx(0.4))
    assert bootstrap_interval([0.7]) is None and bootstrap_interval([]) is None


def test_mean_interval_chooses_the_method() -> None:
    w = mean_interval([1.0, 0.0, 1.0, 1.0], binary=True)
    assert w is not None and w.method == "wilson"
    assert (w.lo, w.hi) == pytest.approx(wilson_interval(3, 4))
    b = mean_interval([1.0, 0.0, 1.0, 1.0], binary=False)
    assert b is not None and b.method == "bootstrap"
    assert mean_interval([1.0], binary=False) is None
    assert mean_interval([], binary=True) is None


@pytest.mark.parametrize("b,c", [(0, 0), (0, 6), (3, 9), (7, 7), (12, 1), (2, 22)])
def test_mcnemar_exact_matches_scipy_binomtest(b: int, c: int) -> None:
    ref = 1.0 if b + c == 0 else sps.binomtest(min(b, c), b + c, 0.5).pvalue
    assert mcnemar_p(b, c) == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("b,c", [(10, 30), (20, 5), (13, 13), (40, 2)])
def test_mcnemar_chi2_matches_scipy(b: int, c: int) -> None:
    chi2 = (abs(b - c) - 1) ** 2 / (b + c)
    assert mcnemar_p(b, c) == pytest.approx(sps.chi2.sf(chi2, 1), rel=1e-10)


def test_mcnemar_by_hand() -> None:
    assert mcnemar_p(0, 6) == 2 / 64
    assert mcnemar_p(1, 4) == pytest.approx(2 * (1 + 5) / 32)  # 2·(C(5,0) + C(5,1))/2⁵
    assert discordant([1, 1, 0, 0, 1], [0, 1, 1, 0, 0]) == (2, 1)


@pytest.mark.parametrize("d", [[1.0, 2.0, 3.0], [0.5, -0.25, 0.75, 0.0, 0.3, -0.1, 0.9],
                               [0.2, -0.2, 0.2, -0.2], [1.0] * 9 + [-1.0] * 3, [0.0, 0.0, 0.4]])
def test_sign_flip_exact_matches_scipy(d: list[float]) -> None:
    ref = sps.permutation_test((np.array(d),), np.mean, permutation_type="samples",
                               n_resamples=np.inf, alternative="two-sided", vectorized=True)
    assert sign_flip_p(d) == pytest.approx(min(1.0, ref.pvalue), rel=1e-12)


def test_sign_flip_by_hand() -> None:
    assert sign_flip_p([1.0, 2.0, 3.0]) == 2 / 8
    # d = (1, 1, 1, -1): Σ s d = 2k − 4 with k = #{+1 among s1, s2, s3, −s4}; |Σ| ≥ |Σ d| = 2
    # unless k = 2, which C(4, 2) = 6 of the 16 patterns give
    assert sign_flip_p([1.0, 1.0, 1.0, -1.0]) == 10 / 16
    assert sign_flip_p([0.0, 0.0]) == 1.0 and sign_flip_p([]) == 1.0


def test_sign_flip_random_patterns_agree_with_full_enumeration() -> None:
    d = np.array([0.31, -0.12, 0.45, 0.08, -0.27, 0.5, 0.16, 0.02, -0.05, 0.38, 0.21, -0.4,
                  0.12, 0.33, -0.09, 0.26])  # n = 16: random patterns
    signs = np.array(list(itertools.product((-1, 1), repeat=len(d))))
    exact = np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-12)
    p = sign_flip_p(d)
    assert abs(p - exact) < 0.01  # 10,000 patterns: standard error ≤ 0.005
    assert p == sign_flip_p(d)  # seeded
    assert sign_flip_p(np.ones(20)) == pytest.approx(1 / 10001)  # none reaches 20 by chance


def test_paired_difference_by_hand() -> None:
    agent = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    oracle = [1.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    r = paired_difference(oracle, agent, binary=True)
    assert r is not None and r.n == 6 and r.test == "mcnemar"
    assert r.diff == pytest.approx(0.5) and r.p == pytest.approx(2 * 1 / 8)  # b = 3, c = 0
    assert r.lo is not None and r.hi is not None and r.lo <= r.diff <= r.hi
    spl = paired_difference([0.9, 0.8, 0.7], [0.5, 0.8, 0.2], binary=False)
    assert spl is not None and spl.test == "sign-flip"
    # d = (0.4, 0, 0.5): the zero pair flips to itself; |Σ| = 0.9 for ±(0.4, 0.5) same-signed
    assert spl.p == pytest.approx(4 / 8)
    assert paired_difference([], [], binary=True) is None


def test_seed_spread_by_hand() -> None:
    m, sd = seed_spread([0.5, 0.7, 0.6])
    assert m == pytest.approx(0.6) and sd == pytest.approx(0.1)
    assert seed_spread([0.4]) == (0.4, None)


def test_metric_values_are_what_aggregate_averages() -> None:
    rows = [{"spl": 0.5}, {"spl": None}, {"spl": 1.0, "reachable": False}, {"spl": 0.25}]
    assert metric_values(rows, "spl") == [0.5, 0.25]


def test_holm_by_hand() -> None:
    # sorted 0.01, 0.03, 0.04 (m = 3): 3·0.01 = 0.03; max(0.03, 2·0.03) = 0.06; max(0.06, 0.04)
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([0.2]) == [0.2] and holm([]) == []
