"""Per-step episode records of the simulator (:meth:`navbench.sim.Simulator.records`).

:class:`StepRecords` collects one row per agent step (0.1 s, plus t = 0) in Python lists and
turns them into arrays at the end; :class:`GoalDistance` is the NavVerse DTG of the current
goals in plain Python floats. Both sit in the 10 Hz loop, where a numpy call costs more than
the arithmetic it does.
"""

from __future__ import annotations

import math

import numpy as np

#: record names, in the order of :meth:`StepRecords.add`'s arguments (``label`` is added last)
FIELDS = ("t", "position", "yaw", "tilt", "collision", "obstacle_distance", "surface",
          "preferred", "stop", "dtg")


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

    >>> rec = StepRecords()
    >>> rec.add(0.0, [1.0, 0.0, 2.0], 0.5, 0.0, False, 1.2, "floor", True, False, 3.0)
    >>> rec.add(0.1, [1.1, 0.0, 2.0], 0.5, 0.0, True, 0.9, "rug", False, True, 2.9)
    >>> out = rec.arrays("success")
    >>> out["position"].shape, out["collision"].tolist(), out["label"].tolist()
    ((2, 3), [False, True], ['', 'success'])
    >>> len(rec), rec.last_dtg, rec.last_collision
    (2, 2.9, True)
    """

    def __init__(self) -> None:
        self._cols: tuple[list[float | bool | str | list[float]], ...] = tuple(
            [] for _ in FIELDS)

    def __len__(self) -> int:
        return len(self._cols[0])

    def add(self, t: float, position: list[float], yaw: float, tilt: float, collision: bool,
            obstacle_distance: float, surface: str, preferred: bool, stop: bool,
            dtg: float) -> None:
        """Append one row: time (s), base ground point ``[x, y, z]`` (m), yaw and tilt (rad),
        collision during the step, obstacle distance (m), surface class under the base and
        whether it is preferred, stop, DTG (m)."""
        c = self._cols
        c[0].append(t)
        c[1].append(position)
        c[2].append(yaw)
        c[3].append(tilt)
        c[4].append(collision)
        c[5].append(obstacle_distance)
        c[6].append(surface)
        c[7].append(preferred)
        c[8].append(stop)
        c[9].append(dtg)

    @property
    def last_dtg(self) -> float:
        """DTG of the last row (m)."""
        return float(self._cols[9][-1])  # type: ignore[arg-type]  # the dtg column holds floats

    @property
    def last_collision(self) -> bool:
        """Collision flag of the last row."""
        return bool(self._cols[4][-1])

    def arrays(self, label: str | None) -> dict[str, np.ndarray]:
        """Per-step arrays: t, position (N, 3), yaw, tilt, collision, obstacle_distance,
        surface (str), preferred, stop, dtg, and label (``label`` on the last row when not
        ``None``, else "")."""
        c = dict(zip(FIELDS, self._cols, strict=True))
        n = len(self)
        out = {
            "t": np.asarray(c["t"], float),
            "position": np.asarray(c["position"], float).reshape(n, 3),
            "yaw": np.asarray(c["yaw"], float),
            "tilt": np.asarray(c["tilt"], float),
            "collision": np.asarray(c["collision"], bool),
            "obstacle_distance": np.asarray(c["obstacle_distance"], float),
            "surface": np.asarray(c["surface"], dtype=object).astype(str),
            "preferred": np.asarray(c["preferred"], bool),
            "stop": np.asarray(c["stop"], bool),
            "dtg": np.asarray(c["dtg"], float),
        }
        lab = np.full(n, "", dtype=object)
        if n and label is not None:
            lab[-1] = label
        out["label"] = lab.astype(str)
        return out


__all__ = ["FIELDS", "GoalDistance", "StepRecords"]
