"""One agent step of physics: control ticks, ``mj_step`` and contact scans (:class:`AgentStepper`).

An agent step (``agent_dt``, 0.1 s) is ``ticks`` control ticks (50 Hz) of ``substeps`` physics
steps (200 Hz) each. Per tick: the command (the waypoint follower, or the velocity command)
→ PI velocity loop → ``substeps`` × ``mj_step`` → contact scan (support, traction caps, falls).
It stops at the first fall.

With :attr:`AgentStepper.compiled` the whole step is one compiled call
(:func:`navbench.sim.step_kernel.advance`); else it is the Python loop, with both ends compiled
(:func:`navbench.sim.tick_kernels.tick`: one kernel call before the first tick, then one after
each ``mj_step`` call that scans and commands the next tick). Both make the same C calls in the
same order, so their records are byte-identical.
"""

from __future__ import annotations

import mujoco
import numpy as np

from navbench.sim import mjc
from navbench.sim import step_kernel as sk
from navbench.sim import tick_kernels as tk
from navbench.sim.contacts import ContactScan
from navbench.sim.controller import WaypointFollower
from navbench.sim.embodiments import Embodiment


class AgentStepper:
    """Runs agent steps of one simulator's physics.

    Parameters
    ----------
    model, data : mujoco.MjModel, mujoco.MjData
        The simulated world and its state.
    embodiment : Embodiment
        The robot (servo gains and force caps).
    contacts : ContactScan
        The per-tick contact scan (its arrays are the tick kernels' state).
    follower : WaypointFollower
        The waypoint follower (its path and state are read at every step).
    control_dt, agent_dt : float
        Control tick and agent step (s); the physics timestep is the model's.
    compiled : bool, optional
        ``None`` (default): one compiled call per step where :func:`navbench.sim.mjc.available`;
        ``False``: the Python loop; ``True``: compiled, or ``RuntimeError`` naming the reason.
    """

    def __init__(self, model: mujoco.MjModel, data: mujoco.MjData, embodiment: Embodiment,
                 contacts: ContactScan, follower: WaypointFollower, control_dt: float,
                 agent_dt: float, *, compiled: bool | None = None) -> None:
        self._m, self._d, self._contacts, self._follower = model, data, contacts, follower
        #: physics steps per control tick, control ticks per agent step
        self.substeps = max(1, round(control_dt / model.opt.timestep))
        self.ticks = max(1, round(agent_dt / control_dt))
        e = embodiment
        #: the tick's state (``tick_kernels.T_*``): servo integrals, the command, constants
        self.state = ts = np.zeros(tk.NT)
        ts[tk.T_KI] = e.servo_integral * control_dt
        ts[tk.T_KV] = e.mass * e.servo_rate
        # the integral's clamp: the largest cap over the servo gain (m/s)
        ts[tk.T_LIM] = max(e.force_cap * e.weight, e.climb_force * e.weight) / \
            (e.mass * e.servo_rate)
        ts[tk.T_DT] = control_dt
        use = sk.compile_step() if compiled is None or compiled else False
        if compiled and not use:
            raise RuntimeError(f"Simulator(compiled=True): {mjc.unavailable_reason()}")
        #: whether a step is one compiled call (``compiled`` above)
        self.compiled = use
        sc, (_, _, f_s, f_i) = contacts, follower.state
        # the compiled step's arguments after the follower's path (fixed for the stepper's life)
        self._kargs = (model._address, data._address, mjc.layout().array, self.substeps,
                       self.ticks, sc.lut, sc.sc, sc.forcerange, sc.xmat, f_s, f_i, ts,
                       data.qpos, data.qvel, data.ctrl) if use else None

    def reset(self) -> None:
        """Zero the servo integrals and the command (an episode start)."""
        ts = self.state
        ts[tk.T_IX] = ts[tk.T_IZ] = ts[tk.T_VX] = ts[tk.T_VY] = ts[tk.T_W] = 0.0
        ts[tk.T_FOLLOW] = 0.0

    def command(self, vx: float, vy: float, omega: float) -> None:
        """Run the next steps at the body-frame velocity ``(vx, vy)`` m/s, ``omega`` rad/s
        (already within the embodiment's limits), not following waypoints."""
        ts = self.state
        ts[tk.T_VX], ts[tk.T_VY], ts[tk.T_W], ts[tk.T_FOLLOW] = vx, vy, omega, 0.0

    def follow(self) -> None:
        """Run the next steps on the follower's path."""
        self.state[tk.T_FOLLOW] = 1.0

    def __call__(self) -> int:
        """Run one agent step; the fall code of the tick that ended it (0: no fall,
        ``tick_kernels.DROP`` or ``tick_kernels.TILT``)."""
        path, align, fs, fi = self._follower.state
        if self._kargs is not None:  # the same calls in one compiled call (sim.step_kernel)
            return int(sk.advance(path, align, *self._kargs))
        m, d, nsub, scan, ts = self._m, self._d, self.substeps, self._contacts, self.state
        con, lut, sc, fr, xmat = scan.con, scan.lut, scan.sc, scan.forcerange, scan.xmat
        qpos, qvel, ctrl = d.qpos, d.qvel, d.ctrl
        step, tick = mujoco.mj_step, tk.tick
        both, last = tk.SCAN | tk.CONTROL, self.ticks - 1
        fall = tick(con.geom, con.pos, con.frame, lut, sc, fr, xmat, path, align, fs, fi, ts,
                    qpos, qvel, ctrl, tk.CONTROL)
        for k in range(self.ticks):
            step(m, d, nsub)
            fall = tick(con.geom, con.pos, con.frame, lut, sc, fr, xmat, path, align, fs, fi,
                        ts, qpos, qvel, ctrl, both if k < last else tk.SCAN)
            if fall:
                break
        return int(fall)


__all__ = ["AgentStepper"]
