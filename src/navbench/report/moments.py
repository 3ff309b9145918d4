"""Key moments of a recorded episode: the steps worth a first-person look when asking why it failed.

:func:`key_moments` picks, from the positions an agent visited (world frame, metres; distances
in the ground plane XZ):

- ``start``: step 0;
- ``subgoal`` m (the correct branch's subgoals, in order): the first step at or after the
  previous moment within τ of subgoal m ("reached"), else the step nearest to it ("nearest");
- ``left reference``: when the stop is more than :data:`OFF_PATH_M` from the reference path,
  the last step within that distance of it — where the agent took another way (a branch
  decision in conditional episodes);
- ``exit``: the first outdoor step after an indoor one (indoor-to-outdoor episodes), or, when
  the agent started indoors and never got out, the step nearest to an exit portal;
- ``first contact``: the first step with a contact;
- ``stop``: the last step.

Moments at the same step are merged (their texts joined), and they come in step order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: A stop farther than this from the reference path (m) marks where the agent left it.
OFF_PATH_M = 1.0


@dataclass(frozen=True)
class Moment:
    """One key moment: ``step`` (index into the trajectory), ``kind`` and a short ``text``."""

    step: int
    kind: str
    text: str


def _xz(a: npt.ArrayLike) -> np.ndarray:
    return np.asarray(a, dtype=float).reshape(-1, 3)[:, [0, 2]]


def polyline_distance(points: npt.ArrayLike, line: npt.ArrayLike) -> np.ndarray:
    """Distance (m, XZ plane) of every point (N, 3) to the polyline ``line`` (R, 3): the
    smallest point-to-segment distance ``‖p − (a + clip(t, 0, 1)(b − a))‖`` with
    ``t = (p − a)·(b − a) / ‖b − a‖²``; to the point itself when R = 1.

    >>> polyline_distance([[1.0, 0, 1.0], [3.0, 0, 0.0]], [[0, 0, 0], [2.0, 0, 0]]).round(6)
    array([1., 1.])
    """
    p, q = _xz(points), _xz(line)
    if len(q) == 1:
        return np.linalg.norm(p - q[0], axis=1)
    a, b = q[:-1], q[1:]
    d = b - a
    den = np.maximum((d * d).sum(axis=1), 1e-18)
    t = np.clip(((p[:, None, :] - a[None]) * d[None]).sum(axis=2) / den[None], 0.0, 1.0)
    near = a[None] + t[..., None] * d[None]
    return np.linalg.norm(p[:, None, :] - near, axis=2).min(axis=1)


def key_moments(positions: npt.ArrayLike, *, tau: float, subgoals: npt.ArrayLike = (),
                reference: npt.ArrayLike = (), outdoor: npt.ArrayLike | None = None,
                exits: npt.ArrayLike = (), contacts: npt.ArrayLike | None = None,
                stop_text: str = "stop") -> list[Moment]:
    """The key moments of a trajectory (see the module docstring).

    Args:
        positions: visited base positions (T, 3), m.
        tau: success distance τ (m), also used for subgoals.
        subgoals: ordered subgoals of the correct branch (M, 3).
        reference: reference path (R, 3).
        outdoor: per step, whether the position is outdoors (T,), for indoor-to-outdoor scenes.
        exits: exit portal centres (E, 3).
        contacts: per step, contact flag or count (T,).
        stop_text: text of the stop moment (e.g. the termination label).

    >>> p = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 0, 1], [2, 0, 2], [2, 0, 3]]
    >>> [(m.step, m.kind, m.text) for m in key_moments(p, tau=0.5, subgoals=[[2, 0, 0.2]],
    ...                                                reference=[[0, 0, 0], [4, 0, 0]])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(0, 'start', 'start'), (2, 'subgoal', 'subgoal 1 reached (0.20 m)'),
     (3, 'left reference', 'left the reference path (the stop is 3.00 m from it)'),
     (5, 'stop', 'stop')]
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    if not len(p):
        return []
    last = len(p) - 1
    found: list[Moment] = [Moment(0, "start", "start")]
    after = 0
    for m, g in enumerate(np.asarray(subgoals, dtype=float).reshape(-1, 3), start=1):
        d = np.linalg.norm(_xz(p[after:]) - _xz(g)[0], axis=1)
        hit = np.flatnonzero(d <= tau)
        k = int(hit[0]) if len(hit) else int(np.argmin(d))
        word = "reached" if len(hit) else "nearest"
        found.append(Moment(after + k, "subgoal", f"subgoal {m} {word} ({d[k]:.2f} m)"))
        after += k
    ref = np.asarray(reference, dtype=float).reshape(-1, 3)
    if len(ref):
        off = polyline_distance(p, ref)
        if off[-1] > OFF_PATH_M:
            on = np.flatnonzero(off <= OFF_PATH_M)
            k = int(on[-1]) if len(on) else 0
            if 0 < k < last:
                found.append(Moment(k, "left reference",
                                    f"left the reference path (the stop is {off[-1]:.2f} m from it)"))
    if outdoor is not None:
        out = np.asarray(outdoor, dtype=bool).reshape(-1)
        inside = np.flatnonzero(~out)
        gone = np.flatnonzero(out[inside[0]:]) + inside[0] if len(inside) else np.zeros(0, int)
        ex = np.asarray(exits, dtype=float).reshape(-1, 3)
        if len(gone):
            found.append(Moment(int(gone[0]), "exit", "went outdoors"))
        elif len(inside) and inside[0] == 0 and len(ex):
            d = np.min(np.linalg.norm(_xz(p)[:, None, :] - _xz(ex)[None], axis=2), axis=1)
            k = int(np.argmin(d))
            found.append(Moment(k, "exit", f"nearest an exit ({d[k]:.2f} m), never got out"))
    if contacts is not None:
        c = np.flatnonzero(np.asarray(contacts, dtype=float).reshape(-1) > 0)
        if len(c):
            found.append(Moment(int(c[0]), "first contact", "first contact"))
    found.append(Moment(last, "stop", stop_text))
    merged: dict[int, Moment] = {}
    for mo in sorted(found, key=lambda m: m.step):
        old = merged.get(mo.step)
        merged[mo.step] = mo if old is None else Moment(mo.step, old.kind, f"{old.text}; {mo.text}")
    return list(merged.values())
