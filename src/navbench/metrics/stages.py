"""Indoor-to-outdoor stage metrics of one trajectory (SPEC §5 diagnostics, NavVerse App. 10).

Inputs are per-step stage labels (``"indoor"`` / ``"outdoor"``, from
:func:`navbench.scene.stages.classify_positions`) so that this module stays a pure function of
recorded data. The exit step is the first outdoor step after an indoor one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from navbench.jsontypes import JSONObject
from navbench.metrics.efficiency import coverage_efficiency

INDOOR, OUTDOOR = "indoor", "outdoor"


def exit_index(labels: Sequence[str] | np.ndarray) -> int | None:
    """Index of the first ``"outdoor"`` label after an ``"indoor"`` one, else ``None``."""
    seen = False
    for i, lab in enumerate(labels):
        if lab == INDOOR:
            seen = True
        elif seen and lab == OUTDOOR:
            return i
    return None


def stage_metrics(positions: np.ndarray, labels: Sequence[str] | np.ndarray, *,
                  succeeded: bool | None = None, termination: str | None = None) -> JSONObject:
    """Stage fields of a trajectory that starts indoors; ``{}`` when it starts outdoors.

    ``reached_outdoor`` (bool), ``ce_before_exit`` / ``ce_after_exit`` (CE of the positions up
    to and including / from the exit step, cells per metre; the latter only when it exited) and,
    when ``succeeded`` is False and it exited, ``post_exit_failure`` = ``termination``.
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    if len(labels) != len(p):
        raise ValueError(f"{len(labels)} stage labels for {len(p)} positions")
    if not len(p) or labels[0] != INDOOR:
        return {}
    i = exit_index(labels)
    out: JSONObject = {"reached_outdoor": i is not None,
                           "ce_before_exit": coverage_efficiency(p if i is None else p[: i + 1])}
    if i is not None:
        out["ce_after_exit"] = coverage_efficiency(p[i:])
        if succeeded is False:
            out["post_exit_failure"] = str(termination or "n/a")
    return out
