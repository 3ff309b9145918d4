"""What the simulator reads and offers: episode / goal / simulator protocols, settings, labels.

:class:`SimSettings` (defaults: NavVerse App. 6 / SPEC §6), :data:`LABELS` (the termination
labels), :func:`goal_arrays` (goal positions and radii), and the structural types
:class:`GoalLike`, :class:`EpisodeLike` (what :meth:`navbench.sim.Simulator.reset` reads) and
:class:`SimulatorLike` (what rollouts and scoring use of a simulator). Re-exported by
:mod:`navbench.sim.simulator`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import numpy as np

from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject, Observation
from navbench.scene.model import Scene
from navbench.sim.actions import Action, DiscreteConfig
from navbench.sim.camera_rig import CameraRig
from navbench.sim.controller import FollowerSettings
from navbench.sim.embodiments import Embodiment

LABELS = ("success", "perception_error", "fall", "drop", "stuck", "timeout", "stopped")


class GoalLike(Protocol):
    """What the simulator reads from a goal (``navbench.episodes.Goal`` fits; read-only, so
    frozen dataclasses match)."""

    @property
    def position(self) -> Sequence[float]: ...
    @property
    def radius(self) -> float | None: ...


class EpisodeLike(Protocol):
    """What the simulator reads from an episode (``navbench.episodes.Episode`` fits)."""

    @property
    def episode_id(self) -> str: ...
    @property
    def start_position(self) -> Sequence[float]: ...
    @property
    def start_rotation(self) -> Sequence[float]: ...
    @property
    def goals(self) -> Sequence[Any]: ...  # untyped: GoalLike, plus ``size`` when goal_radius="size"


class SimulatorLike(Protocol):
    """What rollouts and scoring use of a simulator (:class:`Simulator` fits).

    Observations and infos are dicts of mixed values (arrays, floats, label tables), hence
    ``dict[str, Any]``; see :meth:`Simulator.reset` and :meth:`Simulator.step`.
    """

    @property
    def tau(self) -> float:
        """Success distance τ of the current episode (m; set by :meth:`reset`)."""
        ...
    @property
    def scene(self) -> Scene: ...
    @property
    def embodiment(self) -> Embodiment: ...
    @property
    def label(self) -> str | None: ...
    @property
    def segmentation_labels(self) -> dict[int, tuple[str | None, str]]: ...
    @property
    def time(self) -> float: ...
    def reset(self, episode: EpisodeLike, *, tau: float | None = None) -> Observation: ...
    def step(self, action: Action) -> tuple[Observation, bool, JSONObject]: ...
    def distance_to_goal(self) -> float: ...
    def records(self) -> dict[str, np.ndarray]: ...


@dataclass(frozen=True)
class SimSettings:
    """Simulator settings (defaults: NavVerse App. 6 / SPEC §6).

    Attributes:
        render: produce rgb/depth/semantic observations (off: no GL context at all).
        visuals: render the visual layer (``navbench.visual``: object meshes, textures, light);
            off: the flat collision boxes. Physics is the same either way.
        rgb: produce ``obs["rgb"]``; off: depth + semantic only (one render pass instead of two).
        width, height: image size (px); a ``camera`` rig with a size overrides them.
        camera: the head-camera rig (:mod:`navbench.sim.camera_rig`: height, pitch, field of
            view, size, depth range and noise); ``None`` = the embodiment's own camera. Only the
            sensor moves: physics and footprint are the embodiment's.
        agent_dt, control_dt: agent step and control period (s); physics is 200 Hz.
        max_time: timeout (simulated s).
        success_distance: τ (m); ``None`` = 1.0 + r_robot.
        goal_radius: ``"size"`` (r = ½ max(sx, sz) of the goal's size) or ``"radius"`` (the
            goal's ``radius``, VLN-CE style); 0 when unknown.
        end_on_success: end with ``success`` as soon as DTG ≤ τ (no stop needed).
        discrete: discrete primitive sizes.
        follower: follower settings (``None`` = defaults clipped to the embodiment's limits).
        obstacle_cutoff: obstacle distances are capped here (m).
        obstacle_distance_fn: optional ``f(position xyz) -> metres`` replacing the MuJoCo one.
        cull_distance: renderer hides static geoms farther than this (m).
        max_tilt: tilt that counts as a fall (radians): NavVerse's only fall rule.
        drop_rule: also end an episode with the label ``drop`` when the ground under the sole
            falls more than the embodiment's ``max_drop`` below where it stood in the last
            0.2 s (:mod:`navbench.sim.contacts`). Not in NavVerse, so off by default: a robot
            that steps off a ledge and stays upright drives on (an unsupported free fall of
            more than 2 m, off the scene's geometry, is a ``drop`` either way).
        stuck_time: end an episode with the label ``stuck`` when, for this long (s), the
            robot is asked to move (a velocity command of at least 0.05 m/s, or a waypoint
            path not yet reached) and its ground point stays within 0.1 m (wedged in a gap,
            pressed against a step or wall). ``None`` (default, NavVerse's labels): it runs on
            to ``timeout``.
        settle_time: physics time run at reset before t = 0 (s).
        friction_scale: multiplies every surface's friction μ (traction study, NavVerse §4.4).
        friction_override: surface class → μ (``{"floor": 0.2}``), applied before the scale.
        align_doors: waypoint paths through doors narrower than the body's diagonal + 0.4 m
            cross them straight along the door normal, the body turned in place before and
            after, and the body turns in place at tight bends (:mod:`navbench.sim.doors`; long
            bodies only: Spot, not the round Turtlebot).
    """

    render: bool = False
    visuals: bool = True
    rgb: bool = True
    width: int = 640
    height: int = 480
    camera: CameraRig | None = None
    agent_dt: float = 0.1
    control_dt: float = 0.02
    max_time: float = 300.0
    success_distance: float | None = None
    goal_radius: str = "size"
    end_on_success: bool = False
    discrete: DiscreteConfig = field(default_factory=DiscreteConfig)
    follower: FollowerSettings | None = None
    obstacle_cutoff: float = 5.0
    obstacle_distance_fn: Callable[[np.ndarray], float] | None = None
    cull_distance: float | None = 80.0
    max_tilt: float = math.radians(45.0)
    drop_rule: bool = False
    stuck_time: float | None = None
    settle_time: float = 0.2
    friction_scale: float = 1.0
    friction_override: Mapping[str, float] = field(default_factory=dict)
    align_doors: bool = True


def goal_arrays(goals: Sequence[GoalLike] | Sequence[Sequence[float]], mode: str = "size"
                ) -> tuple[np.ndarray, np.ndarray]:
    """Goal positions (N, 3) and radii (N,) from goal records (``size`` or ``radius`` mode)
    or plain ``(x, y, z)`` points (radius 0).

    >>> goal_arrays([(1.0, 0.0, -2.0)])
    (array([[ 1.,  0., -2.]]), array([0.]))
    """
    pos, rad = [], []
    for g in goals:
        position = getattr(g, "position", None)
        if position is None:  # a plain point
            xyz = [float(v) for v in cast("Sequence[float]", g)]
            if len(xyz) != 3:
                raise ConfigError(f"goal {g!r}: expected a goal record or an (x, y, z) point")
            pos.append(xyz)
            rad.append(0.0)
            continue
        pos.append([float(v) for v in position])
        r = 0.0
        size = getattr(g, "size", None)
        radius = getattr(g, "radius", None)
        if mode == "size" and size is not None:
            r = 0.5 * max(float(size[0]), float(size[2] if len(size) > 2 else size[1]))
        elif mode == "radius" and radius is not None:
            r = float(radius)
        rad.append(r)
    return np.asarray(pos, float).reshape(-1, 3), np.asarray(rad, float)


__all__ = ["LABELS", "EpisodeLike", "GoalLike", "SimSettings", "SimulatorLike", "goal_arrays"]
