"""Uncertainty of per-episode means: 95% intervals, paired tests between runs, seed spread.

One small pure function per interval or test, its formula in the docstring. They read the
per-episode values that :func:`navbench.metrics.aggregate.metric_values` keeps (reachable
episodes that define the metric) and never see a table. Everything random is seeded: the same
values give the same interval and p-value on any machine.

Methods (stated with every table that shows them):

- binary rates (SR, OSR, CSR, CR, BCA, reached outdoor; a count k of n): the **Wilson score
  interval** (:func:`wilson_interval`);
- other means (SPL, SoftSPL, BSA, nDTW, NE, ADO, CE, ...): the **percentile bootstrap** over
  episodes with :data:`BOOTSTRAP_RESAMPLES` resamples and seed :data:`SEED`
  (:func:`bootstrap_interval`);
- paired comparisons of two runs on the same episodes: **McNemar's test** on the discordant
  pairs for binary metrics (:func:`mcnemar_p`), the **sign-flip permutation test** of the mean
  paired difference for the others (:func:`sign_flip_p`), and a percentile-bootstrap interval
  of the mean difference for both (:func:`paired_difference`);
- runs of one agent with several seeds: mean ± sample standard deviation of the per-seed means
  (:func:`seed_spread`);
- many comparisons at once: Holm's adjustment of their p-values (:func:`holm`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from navbench.rng import derive

#: Confidence level of every interval navbench reports.
CONFIDENCE = 0.95
#: Bootstrap resamples B of :func:`bootstrap_interval`.
BOOTSTRAP_RESAMPLES = 2000
#: Seed of every bootstrap and random sign-flip draw (through :func:`navbench.rng.derive`).
SEED = 0
#: McNemar: the exact binomial test below this many discordant pairs, χ² (1 dof, continuity
#: corrected) from it on.
MCNEMAR_EXACT_BELOW = 25
#: Sign flips: all 2ⁿ sign patterns up to this n, else :data:`SIGN_FLIP_RESAMPLES` random ones.
SIGN_FLIP_EXACT_MAX_N = 14
SIGN_FLIP_RESAMPLES = 10000

WILSON = "wilson"
BOOTSTRAP = "bootstrap"
#: The bootstrap interval of a mean paired difference (:func:`paired_difference`).
PAIRED_BOOTSTRAP = "paired-bootstrap"
#: Mean ± sample standard deviation over seeds (:func:`seed_spread`).
SEED_SD = "seed-sd"


@dataclass(frozen=True)
class Interval:
    """A confidence interval ``[lo, hi]`` and the method that gave it (:data:`WILSON` or
    :data:`BOOTSTRAP`)."""

    lo: float
    hi: float
    method: str


@dataclass(frozen=True)
class PairedResult:
    """Two runs on the same ``n`` episodes: ``diff`` = mean(x) − mean(y), its interval
    ``[lo, hi]`` (``None`` for fewer than 2 pairs), the two-sided ``p`` of ``test``
    (``"mcnemar"`` or ``"sign-flip"``)."""

    n: int
    diff: float
    lo: float | None
    hi: float | None
    p: float
    test: str


def z_value(confidence: float = CONFIDENCE) -> float:
    """Standard-normal quantile z = Φ⁻¹(1 − α/2), α = 1 − confidence (1.959964 at 95%)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)


def wilson_interval(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """Wilson score interval of a proportion p̂ = k/n (Wilson 1927).

    With z = Φ⁻¹(1 − α/2)::

        centre = (p̂ + z²/(2n)) / (1 + z²/n)
        half   = z / (1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/(4n²))
        [lo, hi] = [centre − half, centre + half]

    Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at k = 0 or
    k = n. ``None`` when n = 0.

    >>> [round(x, 4) for x in wilson_interval(5, 11)]
    [0.2127, 0.7199]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return None
    z = z_value(confidence)
    p = k / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z / den * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at k = 0 (k = n) the bound is exactly 0 (1); rounding would leave ±1e-17
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def bootstrap_interval(values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE, *,
                       resamples: int = BOOTSTRAP_RESAMPLES, seed: int = SEED) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean over episodes (Efron & Tibshirani 1993, §13.3).

    Draw B = ``resamples`` samples of n values with replacement (an ``(B, n)`` index array from
    ``navbench.rng.derive(seed, "bootstrap")``, as ``scipy.stats.bootstrap`` draws them), take
    each mean x̄*_b, and return the linear-interpolated α/2 and 1 − α/2 quantiles of the
    x̄*_b. ``None`` for fewer than 2 values (one episode says nothing about the spread).

    >>> bootstrap_interval([0.0, 1.0, 1.0, 1.0])
    (0.25, 1.0)
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if len(x) < 2:
        return None
    rng = derive(seed, "bootstrap")
    means = x[rng.integers(0, len(x), (resamples, len(x)))].mean(axis=-1)
    alpha = 1.0 - confidence
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def is_binary(values: Sequence[float]) -> bool:
    """Every value is 0 or 1 (a per-episode indicator, e.g. success)."""
    return all(v in (0.0, 1.0) for v in values)


def mean_interval(values: Sequence[float], binary: bool) -> Interval | None:
    """The report's interval of a mean: :func:`wilson_interval` of k = Σx over n when the metric
    is ``binary`` (and every value is 0 or 1), else :func:`bootstrap_interval`.

    >>> mean_interval([1.0, 0.0, 1.0], binary=True).method
    'wilson'
    >>> mean_interval([0.5, 0.0, 1.0], binary=True).method  # not 0/1 after all
    'bootstrap'
    """
    if binary and is_binary(values):
        w = wilson_interval(sum(1 for v in values if v), len(values))
        return None if w is None else Interval(w[0], w[1], WILSON)
    b = bootstrap_interval(values)
    return None if b is None else Interval(b[0], b[1], BOOTSTRAP)


def discordant(x: Sequence[float], y: Sequence[float]) -> tuple[int, int]:
    """McNemar's discordant counts of paired indicators: b = #(x=1, y=0), c = #(x=0, y=1)."""
    if len(x) != len(y):
        raise ValueError("paired samples differ in length")
    b = sum(1 for u, v in zip(x, y, strict=True) if u and not v)
    c = sum(1 for u, v in zip(x, y, strict=True) if v and not u)
    return b, c


def mcnemar_p(b: int, c: int) -> float:
    """Two-sided p of McNemar's test from the discordant counts b, c (McNemar 1947).

    Under H0 (both runs succeed equally often) each of the m = b + c discordant pairs falls
    either way with probability ½. For m < :data:`MCNEMAR_EXACT_BELOW` the exact binomial test::

        p = min(1, 2 · Σ_{i=0}^{min(b,c)} C(m, i) / 2^m)

    else the χ² approximation with continuity correction, χ² = (|b − c| − 1)² / m on 1 degree
    of freedom: p = P(χ²₁ ≥ χ²) = erfc(sqrt(χ²/2)). p = 1 when m = 0.

    >>> mcnemar_p(0, 6)  # 2 · (1/2)^6
    0.03125
    >>> round(mcnemar_p(10, 30), 6)  # χ² = 19²/40
    0.002663
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be >= 0, got {b}, {c}")
    m = b + c
    if m == 0:
        return 1.0
    if m < MCNEMAR_EXACT_BELOW:
        tail = sum(math.comb(m, i) for i in range(min(b, c) + 1)) / (1 << m)
        return min(1.0, 2.0 * tail)
    chi2 = (abs(b - c) - 1) ** 2 / m
    return math.erfc(math.sqrt(chi2 / 2.0))


def sign_flip_p(diffs: Sequence[float] | np.ndarray, *, resamples: int = SIGN_FLIP_RESAMPLES,
                seed: int = SEED) -> float:
    """Two-sided p of the sign-flip (paired permutation) test of mean(d) = 0 (Fisher 1935).

    Under H0 each paired difference d_i is as likely to have either sign. With t = |Σ d_i|
    and T_s = |Σ s_i d_i| for sign patterns s ∈ {−1, +1}ⁿ::

        p = #{s : T_s ≥ t} / 2ⁿ                          (all patterns, n ≤ 14)
        p = (1 + #{b : T_{s_b} ≥ t}) / (1 + B)            (B random patterns, n > 14)

    the second with B = ``resamples`` patterns from ``navbench.rng.derive(seed, "sign-flip")``
    (the +1 keeps a random p above 0). Sums are compared with a relative tolerance of 1e-12 so
    that rounding never breaks a tie. p = 1 when there is no pair or every d_i is 0.

    >>> sign_flip_p([1.0, 2.0, 3.0])  # only all-plus and all-minus reach |Σ| = 6: 2 of 8
    0.25
    """
    d = np.asarray(diffs, dtype=float)
    n = len(d)
    t = abs(float(d.sum()))
    if n == 0 or not np.any(d):
        return 1.0
    tol = 1e-12 * max(1.0, float(np.abs(d).sum()))
    if n <= SIGN_FLIP_EXACT_MAX_N:
        bits = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1
        sums = np.abs((1 - 2 * bits) @ d)
        return float(np.count_nonzero(sums >= t - tol)) / (1 << n)
    rng = derive(seed, "sign-flip")
    signs = 1 - 2 * rng.integers(0, 2, (resamples, n))
    hits = np.count_nonzero(np.abs(signs @ d) >= t - tol)
    return (1.0 + hits) / (1.0 + resamples)


def paired_difference(x: Sequence[float], y: Sequence[float], binary: bool) -> PairedResult | None:
    """Compare two runs on the same episodes (``x[i]`` and ``y[i]`` are one episode's values).

    diff = mean(x) − mean(y) = mean(d), d_i = x_i − y_i; ``[lo, hi]`` =
    :func:`bootstrap_interval` of the d_i (the pairs resampled together); p from
    :func:`mcnemar_p` of :func:`discordant` when ``binary`` (and every value is 0 or 1), else
    :func:`sign_flip_p` of the d_i. ``None`` when there is no pair.

    >>> r = paired_difference([1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0], binary=True)
    >>> r.diff, r.p, r.test
    (1.0, 0.03125, 'mcnemar')
    """
    if len(x) != len(y):
        raise ValueError("paired samples differ in length")
    if not len(x):
        return None
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    ci = bootstrap_interval(d)
    if binary and is_binary(x) and is_binary(y):
        p, test = mcnemar_p(*discordant(x, y)), "mcnemar"
    else:
        p, test = sign_flip_p(d), "sign-flip"
    return PairedResult(len(d), float(d.mean()), None if ci is None else ci[0],
                        None if ci is None else ci[1], p, test)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of m p-values for multiple comparisons (Holm 1979).

    With p_(1) ≤ ... ≤ p_(m) sorted, the adjusted p_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j)),
    returned in the input order. Rejecting where the adjusted p < α keeps the chance of any false
    rejection among the m tests at most α.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        out[i] = running
    return out


def seed_spread(means: Sequence[float]) -> tuple[float, float | None]:
    """Mean and sample standard deviation of per-seed means m_1..m_k (one per run of an agent
    with a different seed): m̄ = Σ m_j / k, sd = sqrt(Σ (m_j − m̄)² / (k − 1)); sd is ``None``
    for one seed.

    >>> [round(v, 6) for v in seed_spread([0.5, 0.7, 0.6])]
    [0.6, 0.1]
    """
    m = np.asarray(means, dtype=float)
    if not len(m):
        raise ValueError("no seed")
    return float(m.mean()), (float(m.std(ddof=1)) if len(m) > 1 else None)


def method_text(method: str) -> str:
    """How an interval was computed, in words for captions and notes."""
    if method == WILSON:
        return "Wilson score interval"
    if method == BOOTSTRAP:
        return (f"percentile bootstrap over episodes (B = {BOOTSTRAP_RESAMPLES}, "
                f"seed {SEED})")
    if method == PAIRED_BOOTSTRAP:
        return (f"percentile bootstrap over paired episodes (B = {BOOTSTRAP_RESAMPLES}, "
                f"seed {SEED})")
    if method == SEED_SD:
        return "mean ± sample standard deviation of the per-seed means"
    if method in ("mcnemar", "sign-flip"):
        return paired_test_text(method)
    raise ValueError(f"unknown interval method {method!r}")


def paired_test_text(test: str) -> str:
    """How a paired p-value was computed, in words."""
    if test == "mcnemar":
        return (f"McNemar's test (exact binomial below {MCNEMAR_EXACT_BELOW} discordant pairs, "
                "else χ² with continuity correction)")
    if test == "sign-flip":
        return (f"sign-flip permutation test of the mean paired difference (all 2ⁿ sign "
                f"patterns for n ≤ {SIGN_FLIP_EXACT_MAX_N}, else {SIGN_FLIP_RESAMPLES} random "
                f"ones, seed {SEED})")
    raise ValueError(f"unknown test {test!r}")
