"""The simulator's per-step record: its probes and its rows (:class:`Recorder`).

One row per agent step (0.1 s, plus t = 0): time, base pose, tilt, collision during the step,
obstacle distance, surface under the base, stop flag and DTG
(:class:`navbench.sim.records.StepRecords`). The probes:

- obstacle distance: surface distance (m, capped at the cutoff) from the robot's collision geoms
  to the nearest obstacle geom, ``mj_geomDistance`` on the pairs that can be nearest
  (:class:`navbench.sim.proximity.ObstacleDistance`), or a user function of the base point;
- surface: the class of the first static geom below the base, ``mj_ray``'s answer from the geoms
  under the base only (:class:`navbench.sim.proximity.SurfaceProbe`; DownRay in large worlds).

With :attr:`Recorder.compiled` a row is one kernel call
(:class:`navbench.sim.record_row.CompiledRow`), else the Python methods; the values are the same.
"""

from __future__ import annotations

from collections.abc import Callable

import mujoco
import numpy as np

from navbench.sim import mjc
from navbench.sim.contacts import ContactScan
from navbench.sim.embodiments import GROUP_HFIELD, GROUP_STATIC
from navbench.sim.proximity import ObstacleDistance, SurfaceProbe
from navbench.sim.record_row import CompiledRow
from navbench.sim.records import StepRecords
from navbench.sim.tick_kernels import SC_COLLIDED
from navbench.sim.world import World

DOWNRAY_GEOMS = 1000  # worlds with more geoms find the surface with DownRay, not mj_ray


def static_groups() -> np.ndarray:
    """``mj_ray``'s geomgroup filter (uint8, one entry per MuJoCo group): the static world and
    the terrain height fields, not the robot."""
    groups = np.zeros(mujoco.mjNGROUP, np.uint8)
    groups[[GROUP_STATIC, GROUP_HFIELD]] = 1
    return groups


class Recorder:
    """Writes the record rows of one simulator's episodes.

    Parameters
    ----------
    world, data : World, mujoco.MjData
        The simulator's world and state (the rows read ``qpos``, the geom poses, the body's
        ``xpos`` / ``xmat``).
    contacts : ContactScan
        The contact scan; a row reads its collision flag and clears it.
    cutoff : float
        Obstacle distances are capped here (m).
    distance_fn : callable, optional
        ``f(base ground point xyz) -> m`` replacing the MuJoCo obstacle distance.
    compiled : bool
        Whether rows are written by one kernel call (needs :func:`navbench.sim.mjc.available`).
    """

    def __init__(self, world: World, data: mujoco.MjData, contacts: ContactScan, *,
                 cutoff: float, distance_fn: Callable[[np.ndarray], float] | None = None,
                 compiled: bool = True) -> None:
        m = world.model
        self._data, self._contacts, self._distance_fn = data, contacts, distance_fn
        self._qpos, self._pnt = data.qpos, data.xpos[world.robot_body]
        rg = world.robot_geoms
        rb = m.geom_rbound[rg]  # bounding sphere about each geom's centre, in the body frame
        reach = float((rb + np.hypot(m.geom_pos[rg, 0], m.geom_pos[rg, 2])).max())
        #: robot-to-obstacle surface distance (``sim.proximity``)
        self.proximity = ObstacleDistance(m, rg, world.obstacle_geoms, world.aabb_lo,
                                          world.aabb_hi, reach, cutoff)
        #: the static groups ``mj_ray`` sees (:func:`static_groups`)
        self.groups = static_groups()
        #: the geom under the base (``sim.proximity``)
        self.probe = SurfaceProbe(m, world.aabb_lo, world.aabb_hi, self.groups,
                                  world.robot_body, big=DOWNRAY_GEOMS)
        #: the probe's DownRay (used in worlds of over ``DOWNRAY_GEOMS`` geoms)
        self.down = self.probe.down
        # surface class and preferred flag per geom id, the last entry for "no geom" (id -1)
        self._surfaces = [(g.surface, g.preferred) for g in world.geoms] + [("none", False)]
        self._row = CompiledRow(m, data, self.proximity, self.probe, world.robot_body,
                                contacts.sc, SC_COLLIDED, len(self._surfaces) - 1)
        self.compiled = compiled
        #: the current episode's rows
        self.rows = StepRecords(self._surfaces)

    @property
    def compiled(self) -> bool:
        """Whether the obstacle distance and surface probe run compiled (one kernel per row);
        settable, ``True`` only where :func:`navbench.sim.mjc.available`."""
        return self.proximity.compiled

    @compiled.setter
    def compiled(self, value: bool) -> None:
        self.proximity.compiled = self.probe.compiled = bool(value) and mjc.available()

    def reset(self) -> None:
        """Start a new episode's rows."""
        self.rows = StepRecords(self._surfaces)

    def obstacle_distance(self) -> float:
        """The record's obstacle distance (m) for the geom poses in the data."""
        fn = self._distance_fn
        if fn is not None:
            return float(fn(self._qpos[:3].copy()))
        x, _, z = self._pnt.tolist()
        return self.proximity(self._data.model, self._data, (x, z))

    def surface(self) -> tuple[str, bool]:
        """Surface class of the first static geom below the base, and whether it is preferred."""
        d = self._data
        return self._surfaces[self.probe(d.model, d, self._pnt)]

    def record(self, stop: bool, dtg: float) -> None:
        """Append the row of the current state (``stop``: the episode stops; DTG ``dtg`` m)."""
        t = self._data.time
        if self.proximity.compiled and self._distance_fn is None:
            self._row(self.rows, t, stop, dtg)
            return
        q = self._qpos.tolist()
        scan = self._contacts
        surf, pref = self.surface()
        self.rows.add(t, q[:3], q[3], scan.tilt(), scan.sc[SC_COLLIDED] != 0.0,
                      self.obstacle_distance(), surf, pref, stop, dtg)
        scan.sc[SC_COLLIDED] = 0.0


__all__ = ["DOWNRAY_GEOMS", "Recorder", "static_groups"]
