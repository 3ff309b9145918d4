"""Per-step episode records of the simulator (:meth:`navbench.sim.Simulator.records`).

:class:`StepRecords` collects one row per agent step (0.1 s, plus t = 0) in a float64 buffer
(columns ``R_*``; the surface as an index into a table of (class, preferred) entries), written
by :meth:`StepRecords.add` or, row by row, by a kernel (:mod:`navbench.sim.record_row`), and
turns them into arrays at the end; :class:`GoalDistance` is the NavVerse DTG of the current
goals in plain Python floats. Both sit in the 10 Hz loop, where a numpy call costs more than
the arithmetic it does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: record names, in the order of :meth:`StepRecords.add`'s arguments (``label`` is added last)
FIELDS = ("t", "position", "yaw", "tilt", "collision", "obstacle_distance", "surface",
          "preferred", "stop", "dtg")
#: columns of :attr:`StepRecords.buf`: time (s), position x, y, z (m), yaw, tilt (rad),
#: collision (0 / 1), obstacle distance (m), surface (index into the table), stop (0 / 1), DTG (m)
R_T, R_X, R_Y, R_Z, R_YAW, R_TILT, R_COL, R_OD, R_SURF, R_STOP, R_DTG = range(11)
NCOL = 11


class GoalDistance:
    """NavVerse distance to goal ``min_i max(0, ‖p − g_i‖ − r_i)`` (m; ``inf`` without goals).

    The same value as :func:`navbench.geometry.goal_surface_distance` bit for bit: the same
    float operations in numpy's order (differences, squares summed left to right, square
    root, minus the radius, clipped at 0, smallest).

    >>> dtg = GoalDistance(np.array([[3.0, 0.0, 4.0], [0.0, 0.0, -1.0]]), np.array([1.0, 0.0]))
    >>> dtg(0.0, 0.0, 0.0), GoalDistance(np.zeros((0, 3)), np.zeros(0))(0.0, 0.0, 0.0)
    (1.0, inf)
    """

    def __init__(self, positions: np.ndarray, radii: np.ndarray) -> None:
        self._goals: list[tuple[float, float, float, float]] = [
            (float(g[0]), float(g[1]), float(g[2]), float(r))
            for g, r in zip(np.asarray(positions, float).reshape(-1, 3).tolist(),
                            np.asarray(radii, float).tolist(), strict=True)]

    def __len__(self) -> int:
        return len(self._goals)

    def __call__(self, x: float, y: float, z: float) -> float:
        """DTG (m) from the point ``(x, y, z)`` (Habitat frame, m)."""
        best = math.inf
        for gx, gy, gz, r in self._goals:
            dx, dy, dz = gx - x, gy - y, gz - z
            d = math.sqrt(dx * dx + dy * dy + dz * dz) - r
            d = d if d > 0.0 else 0.0
            if d < best:
                best = d
        return best


class StepRecords:
    """Rows of per-step records: see :meth:`add` and :meth:`arrays`.

    ``surfaces``: the (surface class, preferred) table a row's surface index points into
    (the simulator's: one entry per geom id, then "none"); :meth:`add` extends a copy with
    the entries it does not find.

    >>> rec = StepRecords()
    >>> rec.add(0.0, [1.0, 0.0, 2.0], 0.5, 0.0, False, 1.2, "floor", True, False, 3.0)
    >>> rec.add(0.1, [1.1, 0.0, 2.0], 0.5, 0.0, True, 0.9, "rug", False, True, 2.9)
    >>> out = rec.arrays("success")
    >>> out["position"].shape, out["collision"].tolist(), out["label"].tolist()
    ((2, 3), [False, True], ['', 'success'])
    >>> len(rec), rec.last_dtg, rec.last_collision
    (2, 2.9, True)
    """

    def __init__(self, surfaces: Sequence[tuple[str, bool]] = ()) -> None:
        #: the surface table (row surface index → (class, preferred))
        self.surfaces: Sequence[tuple[str, bool]] = surfaces
        self._index: dict[tuple[str, bool], int] | None = None  # built by the first add
        #: the rows (``NCOL`` columns ``R_*``); rows ``[0, len)`` are filled
        self.buf = np.zeros((64, NCOL))
        self._n = 0

    def __len__(self) -> int:
        return self._n

    def next_row(self) -> tuple[np.ndarray, int]:
        """Room for one more row: the buffer and the index of the new row, which the caller
        fills (every column) at once."""
        n = self._n
        if n == len(self.buf):
            self.buf = np.concatenate([self.buf, np.zeros_like(self.buf)])
        self._n = n + 1
        return self.buf, n

    def add(self, t: float, position: list[float], yaw: float, tilt: float, collision: bool,
            obstacle_distance: float, surface: str, preferred: bool, stop: bool,
            dtg: float) -> None:
        """Append one row: time (s), base ground point ``[x, y, z]`` (m), yaw and tilt (rad),
        collision during the step, obstacle distance (m), surface class under the base and
        whether it is preferred, stop, DTG (m)."""
        entry = (surface, preferred)
        index = self._index
        if index is None:
            index = self._index = {}
            for i, known in enumerate(self.surfaces):
                index.setdefault(known, i)
        k = index.get(entry)
        if k is None:
            k = index[entry] = len(self.surfaces)
            self.surfaces = [*self.surfaces, entry]
        buf, n = self.next_row()
        buf[n] = (t, position[0], position[1], position[2], yaw, tilt, collision,
                  obstacle_distance, k, stop, dtg)

    @property
    def last_dtg(self) -> float:
        """DTG of the last row (m)."""
        return float(self.buf[self._n - 1, R_DTG])

    @property
    def last_collision(self) -> bool:
        """Collision flag of the last row."""
        return bool(self.buf[self._n - 1, R_COL])

    def arrays(self, label: str | None) -> dict[str, np.ndarray]:
        """Per-step arrays: t, position (N, 3), yaw, tilt, collision, obstacle_distance,
        surface (str), preferred, stop, dtg, and label (``label`` on the last row when not
        ``None``, else "")."""
        n = self._n
        b = self.buf[:n]
        table = self.surfaces
        entries = [table[k] for k in b[:, R_SURF].astype(np.int64).tolist()]
        out = {
            "t": b[:, R_T].copy(),
            "position": np.ascontiguousarray(b[:, R_X:R_Z + 1]),
            "yaw": b[:, R_YAW].copy(),
            "tilt": b[:, R_TILT].copy(),
            "collision": b[:, R_COL] != 0.0,
            "obstacle_distance": b[:, R_OD].copy(),
            "surface": np.asarray([e[0] for e in entries], dtype=object).astype(str),
            "preferred": np.asarray([e[1] for e in entries], bool),
            "stop": b[:, R_STOP] != 0.0,
            "dtg": b[:, R_DTG].copy(),
        }
        lab = np.full(n, "", dtype=object)
        if n and label is not None:
            lab[-1] = label
        out["label"] = lab.astype(str)
        return out


__all__ = ["FIELDS", "NCOL", "R_COL", "R_DTG", "R_OD", "R_STOP", "R_SURF", "R_T", "R_TILT",
           "R_X", "R_Y", "R_YAW", "R_Z", "GoalDistance", "StepRecords"]
