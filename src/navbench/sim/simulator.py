"""The episode loop: :class:`Simulator` (reset / step / records), termination labels.

Time: physics 200 Hz, control (waypoint follower + PID) 50 Hz, one agent step = 0.1 s
(10 Hz, SPEC §6). Discrete primitives run whole agent steps until reached or timed out.

Labels (exactly one per episode): ``success`` (stop with DTG ≤ τ, or reaching when
``end_on_success``), ``perception_error`` (stop with DTG > τ), ``fall`` (body tilt > 45°, or an
unsupported drop larger than the embodiment's ``max_drop``), ``timeout`` (300 s simulated),
``stopped`` (stop in an episode without goals). DTG is :func:`navbench.geometry.
goal_surface_distance` from the base's ground point, τ = 1.0 + r_robot unless configured.

Per-step records (every 0.1 s, plus t = 0): collision = any contact of the robot with a
non-ground geom (walls, furniture, objects, buildings, cars) during the step — NavVerse's
"non-ground collision"; pressing against a curb or step is support/obstruction, not a collision;
obstacle_distance = surface distance from the robot's collision geoms to the nearest obstacle
geom (``mj_geomDistance``, capped at ``obstacle_cutoff``; only the pairs that can be nearest are
computed, :class:`navbench.sim.proximity.ObstacleDistance`) unless an ``obstacle_distance_fn``
is given; surface = class of the first static geom below the base (``mj_ray``'s answer, from
the geoms under the base only: :class:`navbench.sim.proximity.DownRay`).

Split: settings, labels and protocols live in :mod:`navbench.sim.protocols` (re-exported
here), the 50 Hz contact scan (support, traction caps, falls) in :mod:`navbench.sim.contacts`,
the record rows and DTG in :mod:`navbench.sim.records`. The 50 Hz tick (follower, PI velocity
loop, contact scan) is compiled: :mod:`navbench.sim.follow_kernels` and
:mod:`navbench.sim.tick_kernels` (numba, cached on disk; a cold cache costs ~11 s of
compilation at the first simulator, a warm one ~0.5 s of loading). Where MuJoCo's C calls
are usable from numba (:mod:`navbench.sim.mjc`), a whole agent step's physics is one compiled
call (:mod:`navbench.sim.step_kernel`, records byte-identical to the Python loop).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import quaternion_to_yaw
from navbench.jsontypes import JSONObject, Observation
from navbench.scene.model import Scene
from navbench.sim import mjc
from navbench.sim import step_kernel as sk
from navbench.sim import tick_kernels as tk
from navbench.sim.actions import (
    Action,
    DiscreteAction,
    StopAction,
    VelocityAction,
    WaypointAction,
    discrete_target,
)
from navbench.sim.contacts import ContactScan
from navbench.sim.controller import FollowerSettings, WaypointFollower, clip
from navbench.sim.doors import (
    DOOR_MARGIN,
    FootprintCheck,
    align_through_doors,
    align_tight_bends,
    scene_doors,
)
from navbench.sim.embodiments import GROUP_HFIELD, GROUP_STATIC, SPOT, Embodiment, camera_to_body
from navbench.sim.protocols import (
    LABELS,
    EpisodeLike,
    GoalLike,
    SimSettings,
    SimulatorLike,
    goal_arrays,
)
from navbench.sim.proximity import ObstacleDistance, SurfaceProbe, highest_ground
from navbench.sim.record_row import CompiledRow
from navbench.sim.records import GoalDistance, StepRecords
from navbench.sim.world import World, build_world

_COLLIDED = tk.SC_COLLIDED  # the contact scan's collision flag in ``ContactScan.sc``
_DOWNRAY_GEOMS = 1000  # worlds with more geoms find the surface with DownRay, not mj_ray


class Simulator:
    """Physical execution of one scene with one embodiment (see module docs)."""

    def __init__(self, scene: Scene, embodiment: Embodiment = SPOT,
                 settings: SimSettings | None = None, *, compiled: bool | None = None) -> None:
        """``compiled``: run each agent step's physics in one compiled call
        (:mod:`navbench.sim.step_kernel`) and each record row in another
        (:mod:`navbench.sim.record_row`), with byte-identical records; ``None`` (default) when
        :func:`navbench.sim.mjc.available`, ``False`` the Python loop (``mujoco.mj_step`` per
        tick) and Python records, ``True`` requires it (``RuntimeError`` naming the reason if
        unavailable). :attr:`compiled_records` switches the records alone."""
        self.scene, self.embodiment = scene, embodiment
        self.settings = s = settings or SimSettings()
        self.world: World = build_world(scene, embodiment, offscreen=(s.width, s.height), visuals=s.render and s.visuals)
        self.model = m = self.world.model
        # Sleeping (MuJoCo ≥ 3.3): kinematics skips the static world geoms, whose poses never
        # change (8,000 city geoms cost ~0.6 ms per physics step otherwise); the robot's tree
        # never sleeps (embodiments.add_robot), so the physics is unchanged.
        m.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_SLEEP
        # One moving tree (the robot), so island discovery only costs time (~5 % of mj_step);
        # the trajectories are bit-identical without it (checked on houses and cities).
        m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
        self.data = mujoco.MjData(m)
        # views into the model / data buffers (fixed for the simulator's life)
        self._body_xpos = self.data.xpos[self.world.robot_body]
        self._qpos, self._qvel, self._ctrl = self.data.qpos, self.data.qvel, self.data.ctrl
        self._substeps = max(1, round(s.control_dt / m.opt.timestep))
        self._ticks = max(1, round(s.agent_dt / s.control_dt))
        fs = s.follower or FollowerSettings(
            vx_max=embodiment.vx_max, vy_max=embodiment.vy_max, omega_max=embodiment.omega_max)
        self.follower = WaypointFollower(fs, holonomic=embodiment.holonomic)
        #: τ used when :meth:`reset` gets none: ``success_distance``, else 1.0 + r_robot (m).
        self.default_tau = s.success_distance if s.success_distance is not None else 1.0 + embodiment.radius
        self._tau = self.default_tau
        self._cam_to_body = camera_to_body(embodiment)
        obst = self.world.obstacle_geoms
        lo, hi = self.world.aabb_lo[obst][:, [0, 2]], self.world.aabb_hi[obst][:, [0, 2]]
        #: footprint checks of the door-aware execution (``navbench.sim.doors``)
        self.footprint = FootprintCheck(embodiment, lo, hi, self.world.aabb_lo[obst, 1],
                                        self.world.aabb_hi[obst, 1])
        rg = self.world.robot_geoms
        rb = m.geom_rbound[rg]  # bounding sphere about each geom's centre, in the body frame
        reach = float((rb + np.hypot(m.geom_pos[rg, 0], m.geom_pos[rg, 2])).max())
        self._proximity = ObstacleDistance(m, rg, obst, self.world.aabb_lo, self.world.aabb_hi,
                                           reach, s.obstacle_cutoff)
        self._act = tuple(mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_ACTUATOR, "robot/v" + n)
                          for n in ("x", "z", "yaw"))
        #: per-tick contact scan: collisions, support, traction caps, falls (``sim.contacts``)
        self.contacts = ContactScan(self.world, self.data, embodiment, self.follower,
                                    *self._act, friction_scale=s.friction_scale,
                                    friction_override=s.friction_override, max_tilt=s.max_tilt)
        e = embodiment
        #: the compiled tick's state (``tick_kernels`` layout): servo integrals and constants
        self._tick = ts = np.zeros(tk.NT)
        ts[tk.T_KI] = e.servo_integral * s.control_dt
        ts[tk.T_KV] = e.mass * e.servo_rate
        # the integral's clamp: the largest cap over the servo gain (m/s)
        ts[tk.T_LIM] = max(e.force_cap * e.weight, e.climb_force * e.weight) / \
            (e.mass * e.servo_rate)
        ts[tk.T_DT] = s.control_dt
        self._align_body = s.align_doors and not embodiment.round
        self._doors = scene_doors(scene, embodiment.diagonal + 2.0 * DOOR_MARGIN) \
            if self._align_body else []
        self._camera = None
        if s.render:
            from navbench.sim.sensors import Camera

            self._camera = Camera(self.world, width=s.width, height=s.height,
                                  cull_distance=s.cull_distance)
        groups = np.zeros(6, np.uint8)
        groups[[GROUP_STATIC, GROUP_HFIELD]] = 1
        self._static_groups = groups
        self._surface_probe = SurfaceProbe(m, self.world.aabb_lo, self.world.aabb_hi, groups,
                                           self.world.robot_body, big=_DOWNRAY_GEOMS)
        self._down = self._surface_probe.down
        use = sk.compile_step() if compiled is None or compiled else False
        if compiled and not use:
            raise RuntimeError(f"Simulator(compiled=True): {mjc.unavailable_reason()}")
        #: whether agent steps run in one compiled call (``compiled`` above)
        self.compiled = use
        sc, (_, _, f_s, f_i) = self.contacts, self.follower.state
        # the compiled step's arguments after the follower's path (fixed for the sim's life)
        self._kargs = (m._address, self.data._address, mjc.layout().array, self._substeps,
                       self._ticks, sc.lut, sc.sc, sc.forcerange, sc.xmat, f_s, f_i, ts,
                       self._qpos, self._qvel, self._ctrl) if use else None
        # surface class and preferred flag per geom id, the last entry for "no geom" (id -1)
        self._surfaces = [(g.surface, g.preferred) for g in self.world.geoms] + [("none", False)]
        self._row = CompiledRow(m, self.data, self._proximity, self._surface_probe,
                                self.world.robot_body, self.contacts.sc, _COLLIDED,
                                len(self._surfaces) - 1)
        if compiled is False:
            self.compiled_records = False
        self._label: str | None = None
        #: why the episode ended in ``fall``: ``"drop"`` or ``"tilt"`` (``None`` otherwise).
        self.fall_reason: str | None = None
        self._rec = StepRecords(self._surfaces)
        self._goals = (np.zeros((0, 3)), np.zeros(0))
        self._dtg = GoalDistance(*self._goals)

    # ------------------------------------------------------------------ state
    @property
    def segmentation_labels(self) -> dict[int, tuple[str | None, str]]:
        """Segment id (pixel value of ``obs["semantic"]``) → (scene id, label); needs render."""
        return {} if self._camera is None else self._camera.segmentation_labels

    @property
    def time(self) -> float:
        """Simulated seconds since the episode start."""
        return float(self.data.time)

    def pose(self) -> np.ndarray:
        """Ground point and yaw ``(x, y, z, yaw)`` of the base (Habitat frame, m, rad)."""
        return self.data.qpos[:4].copy()

    def tilt(self) -> float:
        """Angle between the body's up axis and world up (radians)."""
        return self.contacts.tilt()

    def distance_to_goal(self) -> float:
        """NavVerse DTG from the base ground point (m); ``inf`` without goals."""
        q = self._qpos.tolist()  # navbench.geometry.goal_surface_distance, in plain floats
        return self._dtg(q[0], q[1], q[2])

    @property
    def tau(self) -> float:
        """Success distance τ of the current episode (m): the ``tau`` given to :meth:`reset`,
        else :attr:`default_tau`. Read-only: pass a per-episode τ through ``reset``."""
        return self._tau

    # ------------------------------------------------------------------ episode
    def reset(self, episode: EpisodeLike, *, tau: float | None = None) -> Observation:
        """Place the robot at the episode start, settle it, and return the first observation.

        Parameters
        ----------
        episode : EpisodeLike
            Start position ``(x, y, z)`` (m, Habitat frame), start rotation ``[x, y, z, w]`` and
            goals (positions and sizes or radii, see ``SimSettings.goal_radius``).
        tau : float, optional
            Success distance τ of this episode (m): ``stop`` with DTG ≤ τ is ``success``.
            ``None`` (default) uses :attr:`default_tau` (``SimSettings.success_distance``, else
            1.0 + r_robot). It holds until the next reset; see :attr:`tau`.

        Returns
        -------
        dict
            The first observation: ``pose`` ``(x, y, z, yaw)``, ``time`` (0.0 s),
            ``cam_to_body`` (4x4), ``robot_radius`` (m), and, when the settings render,
            ``rgb``, ``depth``, ``semantic``, ``intrinsics``.

        Raises
        ------
        navbench.errors.ConfigError
            If ``tau`` is negative or not finite.

        Examples
        --------
        A robot that stops where it starts, 2 m from a point goal: with Spot's default
        τ = 1.0 + 0.6 m that is a miss, with ``tau=2.5`` a success.

        >>> from navbench.episodes import Episode, Goal
        >>> from navbench.scene import Box, Scene
        >>> from navbench.sim import SPOT, Simulator
        >>> from navbench.sim.actions import StopAction
        >>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
        >>> sim = Simulator(Scene("flat", "indoor", "handmade", boxes=(floor,)), SPOT)
        >>> ep = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
        ...              (Goal((0.0, 0.0, -2.0)),))
        >>> obs = sim.reset(ep)
        >>> round(sim.tau, 2), round(obs["time"], 1)
        (1.6, 0.0)
        >>> sim.step(StopAction())[2]["label"]
        'perception_error'
        >>> _ = sim.reset(ep, tau=2.5)
        >>> sim.step(StopAction())[2]["label"]
        'success'
        """
        return self.reset_to(episode.start_position, quaternion_to_yaw(episode.start_rotation),
                             episode.goals, tau=tau)

    def reset_to(self, position: Sequence[float], yaw: float,
                 # untyped goals: GoalLike objects or plain (x, y, z) points
                 goals: Sequence[Any] = (), *, tau: float | None = None) -> Observation:
        """Like :meth:`reset` from an explicit start ``(x, y, z)`` (m), yaw (rad) and goal
        records, with the same per-episode ``tau`` (m; ``None``: :attr:`default_tau`)."""
        if tau is not None and not (math.isfinite(tau) and tau >= 0.0):
            raise ConfigError(f"Simulator.reset: tau must be a finite distance >= 0 m, got {tau!r}")
        self._tau = self.default_tau if tau is None else float(tau)
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        # The force caps live in the model: restore them, so that no episode depends on the
        # previous one (the settle steps below run with them).
        self.contacts.reset_caps()
        d.qpos[:4] = [position[0], position[1] + 0.005, position[2], yaw]
        mujoco.mj_forward(m, d)
        # A start beside a curb or slab (up to a climbable step above the start point) would
        # put the sole inside it, and the contact solver would throw the robot up: start on
        # the highest ground under the footprint instead.
        e = self.embodiment
        w, h = e.half_extents
        top = highest_ground(m, d, self.contacts.ground, self._static_groups, self.world.robot_body,
                             float(position[0]), float(position[1]), float(position[2]),
                             float(yaw), w, h, e.max_step + 0.02)
        if top > position[1] + 1e-3:
            d.qpos[1] = top + 0.005
            mujoco.mj_forward(m, d)
        mujoco.mj_step(m, d, nstep=max(1, round(self.settings.settle_time / m.opt.timestep)))
        d.qvel[:] = 0.0
        d.time = 0.0
        mujoco.mj_forward(m, d)
        self._goals = goal_arrays(goals, self.settings.goal_radius)
        self._dtg = GoalDistance(*self._goals)
        self._label, self.fall_reason = None, None
        self.contacts.reset()
        self.contacts()  # traction caps and support from the settled state (no fall yet)
        self.contacts.collided = False
        ts = self._tick  # servo integrals, the velocity command, the follow flag: zero
        ts[tk.T_IX] = ts[tk.T_IZ] = ts[tk.T_VX] = ts[tk.T_VY] = ts[tk.T_W] = 0.0
        ts[tk.T_FOLLOW] = 0.0
        self.follower.clear()
        self._rec = StepRecords(self._surfaces)
        self._record(stop=False)
        return self._observe()

    def step(self, action: Action) -> tuple[Observation, bool, JSONObject]:
        """Apply one agent action; returns ``(observation, done, info)``.

        Parameters
        ----------
        action : Action
            ``StopAction()`` or ``DiscreteAction("stop")`` ends the episode (``success`` when
            DTG ≤ :attr:`tau`, else ``perception_error``; ``stopped`` without goals);
            ``VelocityAction(vx, vy, omega)`` (body frame, m/s and rad/s, clipped to the
            embodiment) runs one agent step (``agent_dt``, 0.1 s); ``WaypointAction`` streams
            world-frame waypoints to the follower and runs one agent step;
            ``DiscreteAction("forward" | "left" | "right")`` runs whole agent steps until the
            primitive (0.25 m, 15°) is reached or ``discrete.timeout`` passes.

        Returns
        -------
        observation : dict
            As from :meth:`reset`, after the action.
        done : bool
            Whether the episode ended (see :attr:`label`).
        info : dict
            ``label`` (``None`` while running), ``time`` (s), ``distance_to_goal`` (m),
            ``collision`` (during this step), plus ``reached`` (waypoints) or
            ``primitive_completed`` (discrete actions).

        Raises
        ------
        RuntimeError
            If the episode has already ended (call :meth:`reset`).
        TypeError
            For an object that is not one of the actions above.

        Examples
        --------
        >>> from navbench.episodes import Episode, Goal
        >>> from navbench.scene import Box, Scene
        >>> from navbench.sim import SPOT, Simulator
        >>> from navbench.sim.actions import DiscreteAction, StopAction
        >>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
        >>> sim = Simulator(Scene("flat", "indoor", "handmade", boxes=(floor,)), SPOT)
        >>> _ = sim.reset(Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
        ...                       (Goal((0.0, 0.0, -2.0)),)))
        >>> obs, done, info = sim.step(DiscreteAction("forward"))  # 0.25 m towards -Z (north)
        >>> done, info["primitive_completed"], bool(abs(obs["pose"][2] + 0.25) < 0.05)
        (False, True, True)
        >>> bool(abs(info["distance_to_goal"] - 1.75) < 0.05)
        True
        >>> sim.step(StopAction())[1:3][0], sim.label  # 1.75 m > τ = 1.6 m
        (True, 'perception_error')
        >>> sim.step(StopAction())
        Traceback (most recent call last):
        ...
        RuntimeError: the episode has ended; call reset() first
        """
        if self._label is not None:
            raise RuntimeError("the episode has ended; call reset() first")
        info: JSONObject = {}
        ts = self._tick  # the command of the next agent step (the follow flag, else velocity)
        # the action classes are unrelated: the most frequent (streamed waypoints) first
        if isinstance(action, WaypointAction):
            ts[tk.T_FOLLOW] = 1.0
            if action.waypoints:
                p = self.pose()
                wps: Sequence[Sequence[float]] = action.waypoints
                flags = None
                if self._align_body:
                    rest = self.follower.path
                    a = rest[-1][:2] if action.append and rest and not self.follower.reached \
                        else (p[0], p[2])
                    fp = self.footprint.near(  # obstacles near this path (and its doors)
                        [a, *wps], pad=self.embodiment.half_extents[1] + DOOR_MARGIN)
                    wps, flags = align_through_doors(a, wps, self._doors,
                                                     self.embodiment.half_extents[1],
                                                     DOOR_MARGIN, fp.pose_free)
                    flags = align_tight_bends(a, wps, flags, fp.pose_free, float(p[1]),
                                              open_space=fp.disc_free)
                self.follower.set_path(wps, start=(p[0], p[2]), append=action.append,
                                       align=flags)
            self._advance()
            info["reached"] = self.follower.reached
        elif isinstance(action, VelocityAction):
            e = self.embodiment
            vy = action.vy if e.holonomic else 0.0
            ts[tk.T_VX], ts[tk.T_VY], ts[tk.T_W], ts[tk.T_FOLLOW] = (
                clip(action.vx, e.vx_max), clip(vy, e.vy_max), clip(action.omega, e.omega_max),
                0.0)
            self._advance()
        elif isinstance(action, StopAction) or (
                isinstance(action, DiscreteAction) and action.kind == "stop"):
            self._stop()
        elif isinstance(action, DiscreteAction):
            p = self.pose()
            target = discrete_target(action.kind, p[0], p[2], p[3], self.settings.discrete)
            ts[tk.T_FOLLOW] = 1.0
            self.follower.set_path([target], start=(p[0], p[2]))
            t0 = self.time
            while self._label is None and not self.follower.reached and \
                    self.time - t0 < self.settings.discrete.timeout - 1e-9:
                self._advance()
            info["primitive_completed"] = self.follower.reached
            self.follower.clear()
        else:
            raise TypeError(f"unsupported action {action!r}")
        # the last record row is the current state (every branch records after its physics)
        info.update(label=self._label, time=float(self.data.time),
                    distance_to_goal=self._rec.last_dtg, collision=self._rec.last_collision)
        return self._observe(), self._label is not None, info

    # ------------------------------------------------------------------ internals
    def _stop(self) -> None:
        dtg = self.distance_to_goal()
        if len(self._dtg) == 0:
            self._label = "stopped"
        else:
            self._label = "success" if dtg <= self.tau else "perception_error"
        self._record(stop=True, dtg=dtg)

    def _advance(self) -> None:
        """Run one agent step (``agent_dt``) of control ticks, then record.

        Per tick: follower (or the velocity command) → PI velocity loop → ``mj_step`` ×
        substeps → contact scan (support, caps, falls). With :attr:`compiled`, all of it is
        one call (:func:`navbench.sim.step_kernel.advance`); else both ends are compiled
        (:func:`navbench.sim.tick_kernels.tick`): one kernel call before the first tick, then
        one after each ``mj_step`` that scans and commands the next tick.
        """
        path, align, fs, fi = self.follower.state  # the command is in ts (step() wrote it)
        if self._kargs is not None:  # the same calls in one compiled call (sim.step_kernel)
            fall = sk.advance(path, align, *self._kargs)
        else:
            m, d, nsub, scan, ts = self.model, self.data, self._substeps, self.contacts, self._tick
            con, lut, sc, fr, xmat = scan.con, scan.lut, scan.sc, scan.forcerange, scan.xmat
            qpos, qvel, ctrl = self._qpos, self._qvel, self._ctrl
            step, tick = mujoco.mj_step, tk.tick
            both, last = tk.SCAN | tk.CONTROL, self._ticks - 1
            fall = tick(con.geom, con.pos, con.frame, lut, sc, fr, xmat, path, align, fs, fi,
                        ts, qpos, qvel, ctrl, tk.CONTROL)
            for k in range(self._ticks):
                step(m, d, nsub)
                fall = tick(con.geom, con.pos, con.frame, lut, sc, fr, xmat, path, align, fs,
                            fi, ts, qpos, qvel, ctrl, both if k < last else tk.SCAN)
                if fall:
                    break
        if fall:
            self._label, self.fall_reason = "fall", ("drop" if fall == tk.DROP else "tilt")
        if self._label is None and self.data.time >= self.settings.max_time - 1e-9:
            self._label = "timeout"
        dtg = self.distance_to_goal()
        if self._label is None and self.settings.end_on_success and dtg <= self.tau:
            self._label = "success"
        self._record(stop=False, dtg=dtg)

    @property
    def compiled_records(self) -> bool:
        """Whether the record's obstacle distance and surface probe run compiled
        (:mod:`navbench.sim.proximity_kernels`, the default where available); ``False``: the
        Python methods (as with ``NAVBENCH_MJC=0``). Both give the same values."""
        return self._proximity.compiled

    @compiled_records.setter
    def compiled_records(self, value: bool) -> None:
        self._proximity.compiled = self._surface_probe.compiled = \
            bool(value) and mjc.available()

    def obstacle_distance(self) -> float:
        """Surface distance (m, capped at ``obstacle_cutoff``) from the robot's collision geoms
        to the nearest obstacle geom, for the geom poses in :attr:`data`; the record's
        ``obstacle_distance`` (``obstacle_distance_fn`` of the base ground point if given)."""
        fn = self.settings.obstacle_distance_fn
        if fn is not None:
            return float(fn(self.pose()[:3]))
        x, _, z = self._body_xpos.tolist()
        return self._proximity(self.model, self.data, (x, z))

    def _surface(self) -> tuple[str, bool]:
        """Surface class of the first static geom below the base, and whether it is preferred."""
        return self._surfaces[self._surface_probe(self.model, self.data, self._body_xpos)]

    def _record(self, stop: bool, dtg: float | None = None) -> None:
        """Append one record row for the current state (``dtg``: its DTG if already known):
        one kernel call (:mod:`navbench.sim.record_row`) when :attr:`compiled_records`, else
        the Python methods (the same values)."""
        if dtg is None:
            dtg = self.distance_to_goal()
        if self._proximity.compiled and self.settings.obstacle_distance_fn is None:
            self._row(self._rec, self.data.time, stop, dtg)
            return
        q = self._qpos.tolist()
        scan = self.contacts
        sc = scan.sc
        surf, pref = self._surface()
        self._rec.add(self.data.time, q[:3], q[3], scan.tilt(), sc[_COLLIDED] != 0.0,
                      self.obstacle_distance(), surf, pref, stop, dtg)
        sc[_COLLIDED] = 0.0

    def _observe(self) -> Observation:
        obs: dict[str, Any] = {  # an Observation (SPEC §6) being filled: mixed sensor values
            "pose": self._qpos[:4].copy(),  # pose() and time, without their lookups
            "time": self.data.time,
            "cam_to_body": self._cam_to_body.copy(),
            "robot_radius": self.embodiment.radius,
        }
        if self._camera is not None:
            rgb, depth, sem = self._camera.render(self.data, rgb=self.settings.rgb)
            obs.update(depth=depth, semantic=sem, intrinsics=self._camera.intrinsics())
            if rgb is not None:
                obs["rgb"] = rgb
        return obs

    @property
    def label(self) -> str | None:
        """The termination label, ``None`` while the episode runs."""
        return self._label

    def records(self) -> dict[str, np.ndarray]:
        """Per-step arrays: t, position (N,3), yaw, tilt, collision, obstacle_distance,
        surface (str), preferred, stop, dtg, label (the final label on the last row, else "")."""
        return self._rec.arrays(self._label)

    def close(self) -> None:
        """Release the renderer (if any)."""
        if self._camera is not None:
            self._camera.close()
            self._camera = None


__all__ = ["LABELS", "EpisodeLike", "GoalLike", "SimSettings", "Simulator", "SimulatorLike",
           "goal_arrays"]
