"""The episode loop: :class:`Simulator` (reset / step / records), termination labels.

Time: physics 200 Hz, control (waypoint follower + PID) 50 Hz, one agent step = 0.1 s
(10 Hz, SPEC §6). Discrete primitives run whole agent steps until reached or timed out.

Labels (exactly one per episode): ``success`` (stop with DTG ≤ τ, or reaching when
``end_on_success``), ``perception_error`` (stop with DTG > τ), ``fall`` (body tilt > 45°:
NavVerse's only fall rule), ``drop`` (with ``SimSettings.drop_rule``: an unsupported drop
larger than the embodiment's ``max_drop``; or a free fall off the scene's geometry),
``stuck`` (with ``SimSettings.stuck_time``: asked to move but not moving for that long),
``timeout`` (300 s simulated), ``stopped`` (stop in an episode without goals). DTG is :func:`navbench.geometry.
goal_surface_distance` from the base's ground point, τ = 1.0 + r_robot unless configured.

Per-step records (every 0.1 s, plus t = 0; :mod:`navbench.sim.recorder`): pose, tilt,
collision = any contact of the robot with a non-ground geom (walls, furniture, objects,
buildings, cars) during the step — NavVerse's "non-ground collision"; pressing against a curb
or step is support/obstruction, not a collision —, obstacle distance, surface, stop, DTG.

Split: settings, labels and protocols live in :mod:`navbench.sim.protocols` (re-exported
here); one agent step's physics (control ticks, ``mj_step``, the contact scan of
:mod:`navbench.sim.contacts`) in :mod:`navbench.sim.stepper`, compiled (numba, cached on disk:
a cold cache costs ~11 s of compilation at the first simulator, a warm one ~0.5 s of loading;
one call per agent step where MuJoCo's C calls are usable from numba, :mod:`navbench.sim.mjc`);
the record rows in :mod:`navbench.sim.recorder`; door and bend alignment of streamed waypoints
in :mod:`navbench.sim.doors`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import quaternion_to_yaw
from navbench.jsontypes import JSONObject, Observation
from navbench.scene.model import Scene
from navbench.sim import tick_kernels as tk
from navbench.sim.actions import (
    Action,
    DiscreteAction,
    StopAction,
    VelocityAction,
    WaypointAction,
    discrete_target,
)
from navbench.sim.camera_rig import ROBOT, CameraRig
from navbench.sim.contacts import ContactScan
from navbench.sim.controller import FollowerSettings, WaypointFollower, clip
from navbench.sim.doors import DOOR_MARGIN, FootprintCheck, align_path, scene_doors
from navbench.sim.embodiments import SPOT, Embodiment, camera_to_body
from navbench.sim.protocols import (
    LABELS,
    EpisodeLike,
    GoalLike,
    SimSettings,
    SimulatorLike,
    goal_arrays,
)
from navbench.sim.proximity import highest_ground
from navbench.sim.recorder import Recorder
from navbench.sim.records import GoalDistance
from navbench.sim.stepper import AgentStepper
from navbench.sim.stuck import MIN_SPEED, StuckWatch
from navbench.sim.world import World, build_world


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
        s = settings or SimSettings()
        #: the head-camera rig (``SimSettings.camera``; ``robot``: the embodiment's own camera)
        self.rig: CameraRig = s.camera or ROBOT
        if not self.rig.is_default:  # only the sensor moves: same body, new camera mount and size
            embodiment = self.rig.apply(embodiment, (s.width, s.height))
            w, h = self.rig.image_size((s.width, s.height))
            s = dataclasses.replace(s, width=w, height=h)
        self.scene, self.embodiment = scene, embodiment
        self.settings = s
        self._noise: np.random.Generator | None = None
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
        self._qpos = self.data.qpos  # a view into the data buffer (fixed for the sim's life)
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
        self._act = tuple(mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_ACTUATOR, "robot/v" + n)
                          for n in ("x", "z", "yaw"))
        #: per-tick contact scan: collisions, support, traction caps, falls (``sim.contacts``)
        self.contacts = ContactScan(self.world, self.data, embodiment, self.follower,
                                    *self._act, friction_scale=s.friction_scale,
                                    friction_override=s.friction_override, max_tilt=s.max_tilt,
                                    drop_rule=s.drop_rule)
        #: one agent step of physics: ticks, ``mj_step``, contact scans (``sim.stepper``)
        self.stepper = AgentStepper(m, self.data, embodiment, self.contacts, self.follower,
                                    s.control_dt, s.agent_dt, compiled=compiled)
        self._align_body = s.align_doors and not embodiment.round
        self._doors = scene_doors(scene, embodiment.diagonal + 2.0 * DOOR_MARGIN) \
            if self._align_body else []
        self._camera = None
        if s.render:
            from navbench.sim.sensors import Camera

            self._camera = Camera(self.world, width=s.width, height=s.height,
                                  cull_distance=s.cull_distance,
                                  depth_range=(self.rig.near, self.rig.far))
        #: the per-step record: obstacle distance, surface, rows (``sim.recorder``)
        self.recorder = Recorder(self.world, self.data, self.contacts, cutoff=s.obstacle_cutoff,
                                 distance_fn=s.obstacle_distance_fn, compiled=compiled is not False)
        self._label: str | None = None
        self._stuck_watch = StuckWatch(s.stuck_time or 0.0)
        #: ``"tilt"`` when the episode ended in ``fall``, ``"drop"`` when in ``drop``
        #: (``None`` otherwise).
        self.fall_reason: str | None = None
        self._goals = (np.zeros((0, 3)), np.zeros(0))
        self._dtg = GoalDistance(*self._goals)

    # ------------------------------------------------------------------ state
    @property
    def segmentation_labels(self) -> dict[int, tuple[str | None, str]]:
        """Segment id (pixel value of ``obs["semantic"]``) → (scene id, label); needs render."""
        return {} if self._camera is None else self._camera.segmentation_labels

    @property
    def camera_info(self) -> JSONObject | None:
        """The head camera as agents are told it (:meth:`CameraRig.describe
        <navbench.sim.camera_rig.CameraRig.describe>`: intrinsics, size, height, pitch, depth
        range); ``None`` when the settings do not render."""
        if self._camera is None:
            return None
        return self.rig.describe(self.embodiment, (self.settings.width, self.settings.height))

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
        if self.rig.depth_noise:  # the same start gives the same noisy frames
            from navbench.rng import derive

            self._noise = derive(0, "depth-noise", *(round(float(v), 6) for v in (*position[:3], yaw)))
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
        top = highest_ground(m, d, self.contacts.ground, self.recorder.groups, self.world.robot_body,
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
        self._stuck_watch.reset()
        self.contacts.reset()
        self.contacts()  # traction caps and support from the settled state (no fall yet)
        self.contacts.collided = False
        self.stepper.reset()
        self.follower.clear()
        self.recorder.reset()
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
        # the action classes are unrelated: the most frequent (streamed waypoints) first
        if isinstance(action, WaypointAction):
            self.stepper.follow()
            if action.waypoints:
                p = self.pose()
                wps: Sequence[Sequence[float]] = action.waypoints
                flags = None
                if self._align_body:  # door-aware execution (sim.doors)
                    rest = self.follower.path
                    cont = action.append and rest and not self.follower.reached
                    a = rest[-1][:2] if cont else (p[0], p[2])
                    # from where the body stands, it may first turn in place (doors.align_start)
                    wps, flags = align_path(a, wps, self._doors, self.footprint,
                                            self.embodiment.half_extents[1], float(p[1]),
                                            yaw=None if cont else float(p[3]))
                self.follower.set_path(wps, start=(p[0], p[2]), append=action.append,
                                       align=flags)
            self._advance()
            info["reached"] = self.follower.reached
        elif isinstance(action, VelocityAction):
            e = self.embodiment
            vy = action.vy if e.holonomic else 0.0
            self.stepper.command(clip(action.vx, e.vx_max), clip(vy, e.vy_max),
                                 clip(action.omega, e.omega_max))
            self._advance()
        elif isinstance(action, StopAction) or (
                isinstance(action, DiscreteAction) and action.kind == "stop"):
            self._stop()
        elif isinstance(action, DiscreteAction):
            p = self.pose()
            target = discrete_target(action.kind, p[0], p[2], p[3], self.settings.discrete)
            self.stepper.follow()
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
        rows = self.recorder.rows
        info.update(label=self._label, time=float(self.data.time),
                    distance_to_goal=rows.last_dtg, collision=rows.last_collision)
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
        """Run one agent step (``agent_dt``, :class:`navbench.sim.stepper.AgentStepper`),
        label the episode's end if it ended, and record."""
        fall = self.stepper()  # the command is in its state (step() wrote it)
        if fall:
            self._label = self.fall_reason = "drop" if fall == tk.DROP else "tilt"
            if fall == tk.TILT:
                self._label = "fall"
        if self._label is None and self.settings.stuck_time is not None and self._stuck():
            self._label = "stuck"
        if self._label is None and self.data.time >= self.settings.max_time - 1e-9:
            self._label = "timeout"
        dtg = self.distance_to_goal()
        if self._label is None and self.settings.end_on_success and dtg <= self.tau:
            self._label = "success"
        self._record(stop=False, dtg=dtg)

    def _stuck(self) -> bool:
        """The ``stuck`` rule (:mod:`navbench.sim.stuck`) after this agent step."""
        ts, f = self.stepper.state, self.follower
        follow = ts[tk.T_FOLLOW] != 0.0
        asked = (follow and bool(f.path) and not f.reached) or \
            (not follow and math.hypot(ts[tk.T_VX], ts[tk.T_VY]) >= MIN_SPEED)
        return self._stuck_watch(asked, float(self._qpos[0]), float(self._qpos[2]),
                                 float(self.data.time))

    @property
    def compiled(self) -> bool:
        """Whether agent steps run in one compiled call (the ``compiled`` argument)."""
        return self.stepper.compiled

    @property
    def compiled_records(self) -> bool:
        """Whether the record's obstacle distance and surface probe run compiled
        (:mod:`navbench.sim.proximity_kernels`, the default where available); ``False``: the
        Python methods (as with ``NAVBENCH_MJC=0``). Both give the same values."""
        return self.recorder.compiled

    @compiled_records.setter
    def compiled_records(self, value: bool) -> None:
        self.recorder.compiled = value

    def obstacle_distance(self) -> float:
        """Surface distance (m, capped at ``obstacle_cutoff``) from the robot's collision geoms
        to the nearest obstacle geom, for the geom poses in :attr:`data`; the record's
        ``obstacle_distance`` (``obstacle_distance_fn`` of the base ground point if given)."""
        return self.recorder.obstacle_distance()

    def _record(self, stop: bool, dtg: float | None = None) -> None:
        """Append one record row for the current state (``dtg``: its DTG if already known)."""
        self.recorder.record(stop, self.distance_to_goal() if dtg is None else dtg)

    def _observe(self) -> Observation:
        obs: dict[str, Any] = {  # an Observation (SPEC §6) being filled: mixed sensor values
            "pose": self._qpos[:4].copy(),  # pose() and time, without their lookups
            "time": self.data.time,
            "cam_to_body": self._cam_to_body.copy(),
            "robot_radius": self.embodiment.radius,
        }
        if self._camera is not None:
            rgb, depth, sem = self._camera.render(self.data, rgb=self.settings.rgb)
            if self.rig.depth_range is not None or self.rig.depth_noise:
                depth = self.rig.process_depth(depth, self._noise)
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
        return self.recorder.rows.arrays(self._label)

    def close(self) -> None:
        """Release the renderer (if any)."""
        if self._camera is not None:
            self._camera.close()
            self._camera = None


__all__ = ["LABELS", "EpisodeLike", "GoalLike", "SimSettings", "Simulator", "SimulatorLike",
           "goal_arrays"]
