"""Indoor-to-outdoor stage metrics of one trajectory (SPEC §5 diagnostics, NavVerse §4.3).

Inputs are per-step stage labels (``"indoor"`` / ``"outdoor"``, from
:func:`navbench.scene.stages.classify_positions`) so that this module stays a pure function of
recorded data. The exit step is the first outdoor step after an indoor one.

A trajectory that starts indoors splits at its exit step i (:func:`stage_rows`): the *indoor
part* is steps 1..i−1 (all steps 1..T when it never exits), the *outdoor part* steps i..T; the
start row 0 belongs to neither, as in the episode's ADO and NSR. Path lengths split at the
exit position (P = P_indoor + P_outdoor); time to exit is t_i − t_0 (s) and steps to exit is i
(record rows: 0.1 s each from the simulator, one per action in a VLN-CE prediction file).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from navbench.jsontypes import JSONObject
from navbench.metrics.efficiency import coverage_efficiency, path_length

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


def stage_rows(labels: Sequence[str] | np.ndarray) -> tuple[slice, slice | None] | None:
    """Rows of the indoor and outdoor parts of a trajectory that starts indoors (module docs):
    ``(slice(1, i), slice(i, None))``, the outdoor part ``None`` when it never exited; ``None``
    when it does not start indoors.

    >>> stage_rows(["indoor", "indoor", "outdoor", "outdoor"])
    (slice(1, 2, None), slice(2, None, None))
    >>> stage_rows(["indoor", "indoor"]), stage_rows(["outdoor", "indoor"])
    ((slice(1, None, None), None), None)
    """
    if not len(labels) or labels[0] != INDOOR:
        return None
    i = exit_index(labels)
    return (slice(1, None), None) if i is None else (slice(1, i), slice(i, None))


def transition_metrics(positions: np.ndarray, labels: Sequence[str] | np.ndarray, *,
                       timestamps: np.ndarray | None = None) -> JSONObject:
    """Exit timing and the path length of each part (module docs); ``{}`` when the trajectory
    does not start indoors. Keys: ``steps_to_exit``, ``time_to_exit`` (s; with timestamps),
    ``path_length_indoor``, ``path_length_outdoor`` (m) — the exit and outdoor ones only when
    it exited.

    >>> p = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 0, 3.0]])
    >>> m = transition_metrics(p, ["indoor", "indoor", "outdoor", "outdoor"],
    ...                        timestamps=np.array([0.0, 0.1, 0.2, 0.3]))
    >>> m["steps_to_exit"], round(m["time_to_exit"], 3), m["path_length_indoor"], m["path_length_outdoor"]
    (2, 0.2, 2.0, 3.0)
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    if len(labels) != len(p):
        raise ValueError(f"{len(labels)} stage labels for {len(p)} positions")
    if stage_rows(labels) is None:
        return {}
    i = exit_index(labels)
    if i is None:
        return {"path_length_indoor": path_length(p)}
    out: JSONObject = {"steps_to_exit": i, "path_length_indoor": path_length(p[: i + 1]),
                       "path_length_outdoor": path_length(p[i:])}
    if timestamps is not None:
        t = np.asarray(timestamps, dtype=float)
        out["time_to_exit"] = float(t[i] - t[0])
    return out
