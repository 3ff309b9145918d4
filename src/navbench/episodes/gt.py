"""Ground-truth discrete actions for VLN-CE ``{split}_gt.json.gz`` (SPEC §4).

:func:`follow_path` plays habitat's greedy shortest-path follower along a reference polyline
with discrete actions (0 STOP, 1 MOVE_FORWARD ``step`` m, 2 TURN_LEFT / 3 TURN_RIGHT ``turn``°):
it aims at the first remaining polyline point at least ``step`` away (the last point always
counts), turns while the heading error exceeds half a turn, otherwise moves forward by ``step``
along its current heading, and stops once it is within ``stop_radius`` (default ``step``) of
the last point (XZ distance). Frame: Habitat world (yaw 0 faces -Z, CCW positive).

A segment whose direction lies about half a turn off the follower's heading grid would make it
zig-zag (right, forward, left, forward, ...: twice the actions; the demo's 48.8 m city route
needed 158 turns). So while the heading is one of the two grid headings around the direction of
the line being followed (previous to target point) and the position stays within
``track_tolerance`` (0.1 m) of that line or moving back to it, a heading error of up to one
turn is kept: the follower alternates the two headings every few steps, crossing the line and
turning back once it is more than ``track_tolerance`` off it.
``locations`` lists the position after every action, starting with the start position.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import heading_vector, wrap_angle, yaw_of_direction
from navbench.jsontypes import JSONObject

if TYPE_CHECKING:
    from navbench.episodes.model import Episode

STOP, MOVE_FORWARD, TURN_LEFT, TURN_RIGHT = 0, 1, 2, 3


def follow_path(
    path: Sequence[Sequence[float]],
    start_yaw: float,
    *,
    step: float = 0.25,
    turn_deg: float = 15.0,
    stop_radius: float | None = None,
    max_actions: int = 5000,
    track_tolerance: float = 0.1,
) -> JSONObject:
    """Discrete actions that follow ``path`` (N×3, m) from its first point facing ``start_yaw`` (rad).

    Returns ``{"locations": [[x, y, z], ...], "actions": [...], "forward_steps": int}``;
    the last action is STOP. Raises ``ValueError`` if the goal is not reached within
    ``max_actions`` (callers drop such episodes). Positions keep the height of the path segment
    being followed. ``track_tolerance`` (m): the cross-track distance below which a heading
    error between half a turn and one turn is not corrected (module docs).
    """
    pts = np.asarray(path, dtype=float).reshape(-1, 3)
    stop_radius = step if stop_radius is None else float(stop_radius)
    if len(pts) == 0:
        raise ValueError("follow_path: empty path")
    turn = math.radians(turn_deg)
    pos = pts[0].copy()
    yaw = float(start_yaw)
    locs = [pos.tolist()]
    acts: list[int] = []
    fwd = 0
    k = 1  # index of the next polyline point to aim at
    goal = pts[-1]
    while len(acts) < max_actions - 1:
        while k < len(pts) - 1 and np.hypot(*(pts[k] - pos)[[0, 2]]) < step:
            k += 1
        if np.hypot(*(goal - pos)[[0, 2]]) <= stop_radius:
            break
        tgt = pts[k]
        want = yaw_of_direction(tgt[0] - pos[0], tgt[2] - pos[2])
        err = wrap_angle(want - yaw)
        if abs(err) > turn / 2 + 1e-9 and not _keep_heading(pts[k - 1], tgt, pos, yaw, err, turn,
                                                             track_tolerance):
            a = TURN_LEFT if err > 0 else TURN_RIGHT
            yaw = wrap_angle(yaw + (turn if a == TURN_LEFT else -turn))
        else:
            a = MOVE_FORWARD
            h = heading_vector(yaw)
            pos = pos + step * np.array([h[0], 0.0, h[1]])
            pos[1] = tgt[1]
            fwd += 1
        acts.append(a)
        locs.append(pos.tolist())
    else:
        raise ValueError(f"follow_path: goal not reached within {max_actions} actions")
    acts.append(STOP)
    locs.append(pos.tolist())
    return {"locations": locs, "actions": acts, "forward_steps": fwd}


def _keep_heading(a: np.ndarray, b: np.ndarray, p: np.ndarray, yaw: float, err: float, turn: float,
                  tolerance: float) -> bool:
    """Whether the follower at ``p`` (heading ``yaw``, error ``err`` to the target ``b``, rad)
    keeps going forward along the line ``a`` → ``b`` instead of turning: the heading is one of
    the two grid headings around the line's direction (less than a turn off it), the error is
    at most a turn, and ``p`` is within ``tolerance`` m (XZ) of the line or moving back to it."""
    d = (b - a)[[0, 2]]
    n = float(np.hypot(*d))
    if n < 1e-9 or abs(err) > turn + 1e-9:
        return False
    if abs(wrap_angle(yaw_of_direction(float(d[0]), float(d[1])) - yaw)) >= turn - 1e-9:
        return False
    r, h = (p - a)[[0, 2]], heading_vector(yaw)
    side = float(d[0] * r[1] - d[1] * r[0]) / n  # signed cross-track distance (m)
    drift = float(d[0] * h[1] - d[1] * h[0])  # its sign of change when moving forward
    return abs(side) <= tolerance or side * drift < 0.0


def with_gt(eps: Sequence[Episode], step: float, turn_deg: float, drop: Counter[str]
            ) -> list[tuple[Episode, JSONObject | None]]:
    """Episodes paired with the :func:`follow_path` GT of their reference path and start yaw;
    those the follower cannot play are dropped as ``gt_follower``."""
    from navbench.geometry import quaternion_to_yaw

    out: list[tuple[Episode, JSONObject | None]] = []
    for e in eps:
        try:
            gt = follow_path(e.reference_path, quaternion_to_yaw(e.start_rotation), step=step,
                             turn_deg=turn_deg)
        except ValueError:
            drop["gt_follower"] += 1
            continue
        out.append((e, gt))
    return out
