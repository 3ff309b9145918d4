"""The ``stuck`` rule (``SimSettings.stuck_time``): asked to move, the robot does not move.

Checked once per agent step (0.1 s): the robot is *asked to move* while a velocity command of
at least :data:`MIN_SPEED` m/s is held, or a waypoint path is being followed and not yet
reached (turning in place at an align waypoint counts: a jammed turn is stuck too). It is
*stuck* once its ground point has stayed within :data:`STUCK_DISTANCE` m of where it stood
for ``stuck_time`` seconds of being asked to move; not being asked restarts the clock.
"""

from __future__ import annotations

import math

#: Planar velocity command (m/s) from which the robot is asked to move.
MIN_SPEED = 0.05
#: The robot counts as not moving while its ground point stays within this of where it stood (m).
STUCK_DISTANCE = 0.1


class StuckWatch:
    """Watches one episode for the ``stuck`` rule (module docs); ``stuck_time`` in seconds.

    >>> w = StuckWatch(1.0)
    >>> [w(True, 0.0, 0.01 * k, 0.1 * k) for k in range(11)][-2:]  # 1 cm per 0.1 s: stuck at 1 s
    [False, True]
    >>> w(True, 0.0, 0.2, 1.1)  # 0.2 m from where it stood: moving again, the clock restarts
    False
    >>> w.reset(); w(True, 0.0, 0.0, 0.0), w(False, 0.0, 0.0, 5.0), w(True, 0.0, 0.0, 5.5)
    (False, False, False)
    """

    def __init__(self, stuck_time: float) -> None:
        self.stuck_time = float(stuck_time)
        self._ref: tuple[float, float, float] | None = None

    def reset(self) -> None:
        """Forget the reference point (an episode's start)."""
        self._ref = None

    def __call__(self, asked: bool, x: float, z: float, t: float) -> bool:
        """Whether the robot, ``asked`` to move and now at ``(x, z)`` (m) at time ``t`` (s), is
        stuck."""
        ref = self._ref
        if not asked or ref is None or math.hypot(x - ref[0], z - ref[1]) > STUCK_DISTANCE:
            self._ref = (x, z, t)
            return False
        return t - ref[2] >= self.stuck_time - 1e-9


__all__ = ["MIN_SPEED", "STUCK_DISTANCE", "StuckWatch"]
