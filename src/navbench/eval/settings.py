"""What an evaluation run does: :class:`EvalSettings` (re-exported by
:mod:`navbench.eval.pipeline`, where it is documented)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from navbench.errors import ConfigError
from navbench.eval.budget import ACTION_BUDGET_PER_WORD, SECONDS_PER_ACTION
from navbench.jsontypes import JSONMapping

RENDER_MODES = ("auto", "on", "off")
DISTANCE_MODES = ("auto", "geodesic", "euclidean")
#: ``habitat``: success is STOP with d_T ≤ τ (SPEC §5, VLN-CE / Habitat); ``navverse``: d_T ≤ τ
#: at the episode's end, no STOP needed (NavVerse App. 6.5), the episode ending on reaching τ
#: (NavVerse §4: "episodes terminate on success, timeout, fall, or stop at wrong goal").
SUCCESS_RULES = ("habitat", "navverse")


@dataclass(frozen=True)
class EvalSettings:
    """What an evaluation run does (everything here changes results and names the run).

    Attributes:
        task: task folder of the dataset (``None``: ``conditional`` if present, else the first).
        split: split to evaluate.
        episodes: ``--episodes`` expression (ids or filter, :mod:`navbench.eval.selection`).
        embodiment: ``spot`` or ``turtlebot``; ``None`` = the robot the dataset was built for
            (per scene, from the manifest; ``spot`` for datasets built with ``none``). An
            explicit one that differs from the dataset's is allowed with a warning: the
            reference paths were planned for another body.
        render: ``auto`` (only when the agent needs images), ``on`` or ``off``.
        width, height: image size when rendering (px).
        max_time: simulated timeout per episode (s) of NavVerse tasks (SPEC §6, 300 s).
            CondVLN tasks end by their action budget alone: their runs' simulator timeout is
            raised above it (:func:`navbench.eval.budget.run_max_time`).
        episode_timeout_s: wall-clock limit per episode (s); past it: ``agent_error``.
        distance: distance to goal for the metrics: ``auto``, ``geodesic`` or ``euclidean``.
        seed: seed handed to agents that take one (``seed`` constructor argument).
        action_budget_per_word: the CondVLN §5.1 action budget, in discrete-action
            equivalents per word of an episode's instruction (``B = ceil(per_word × words)``,
            :mod:`navbench.eval.budget`); ``0`` = no budget; none for episodes without an
            instruction (ObjectNav, PlaceNav). A ``discrete`` agent gets ``B`` actions; a
            streaming ``waypoint`` / ``velocity`` agent gets ``T = B × seconds_per_action``
            simulated seconds (``ceil(T / 0.1 s)`` agent steps), capped at ``max_time`` for
            NavVerse tasks (route VLN). Past it: ``timeout``.
        seconds_per_action: simulated seconds one discrete-action equivalent is worth to a
            streaming agent (SPEC §6: a primitive is ~1 s; measured 1.0 s turn, 1.2 s forward).
        agent_kwargs: extra constructor arguments of the agent (JSON-able).
        friction_scale: multiplies every surface's friction μ in the simulator (NavVerse §4.4
            embodiment × friction study); 1 = the scene's own.
        friction_override: surface class → μ (``{"floor": 0.3}``), applied before the scale.
        success_rule: :data:`SUCCESS_RULES` — ``habitat`` (default: STOP within τ) or
            ``navverse`` (within τ at the end; the simulator ends the episode on reaching τ,
            ``SimSettings.end_on_success``). Recorded with every episode (``success_rule``) and,
            when not the default, in the run's settings (a new run name).
        stuck_time: end an episode as ``stuck`` after this many simulated seconds of being asked
            to move without moving (``SimSettings.stuck_time``); ``None`` (default): no such label.
        camera: the head-camera rig (``--camera``: a preset ``robot``, ``habitat-vlnce``,
            ``procthor`` and/or ``key=value`` overrides, :func:`navbench.sim.camera_rig.
            parse_camera`); ``None`` = the embodiment's own camera. Its size replaces
            ``width``/``height``; physics is unchanged.
    """

    task: str | None = None
    split: str = "eval"
    episodes: str | None = None
    embodiment: str | None = None
    render: str = "auto"
    width: int = 640
    height: int = 480
    max_time: float = 300.0
    episode_timeout_s: float = 600.0
    distance: str = "auto"
    seed: int = 0
    agent_kwargs: JSONMapping = field(default_factory=dict)
    action_budget_per_word: float = ACTION_BUDGET_PER_WORD
    seconds_per_action: float = SECONDS_PER_ACTION
    friction_scale: float = 1.0
    friction_override: Mapping[str, float] = field(default_factory=dict)
    success_rule: str = "habitat"
    stuck_time: float | None = None
    camera: str | None = None

    def __post_init__(self) -> None:
        if self.camera is not None:
            from navbench.sim.camera_rig import parse_camera

            parse_camera(self.camera)  # one-line ConfigError naming the bad key or value
        if not (math.isfinite(self.friction_scale) and self.friction_scale > 0):
            raise ConfigError(f"--friction-scale: expected a number > 0, got {self.friction_scale}")
        for k, v in self.friction_override.items():
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                raise ConfigError(f"--friction: expected CLASS=MU with MU >= 0, got {k}={v!r}")
        if self.friction_override:  # a typo would silently run the study at default friction
            from navbench.sim.world import SURFACE_FRICTION

            unknown = sorted(set(self.friction_override) - set(SURFACE_FRICTION))
            if unknown:
                raise ConfigError(f"--friction: unknown surface class {unknown[0]!r}; expected "
                                  f"one of {', '.join(sorted(SURFACE_FRICTION))}")
        if self.render not in RENDER_MODES:
            raise ConfigError(f"--render: expected one of {', '.join(RENDER_MODES)}, got {self.render!r}")
        if self.success_rule not in SUCCESS_RULES:
            raise ConfigError(f"--success-rule: expected one of {', '.join(SUCCESS_RULES)}, "
                              f"got {self.success_rule!r}")
        if self.stuck_time is not None and not (math.isfinite(self.stuck_time) and self.stuck_time > 0):
            raise ConfigError(f"--stuck-time: expected simulated seconds > 0, got {self.stuck_time}")
        if self.distance not in DISTANCE_MODES:
            raise ConfigError(f"--distance: expected one of {', '.join(DISTANCE_MODES)}, "
                              f"got {self.distance!r}")
        if not self.max_time > 0:
            raise ConfigError(f"--max-time: expected simulated seconds > 0, got {self.max_time}")
        if not self.action_budget_per_word >= 0:
            raise ConfigError("--action-budget-per-word: expected actions per word >= 0, "
                              f"got {self.action_budget_per_word}")
        if not (math.isfinite(self.seconds_per_action) and self.seconds_per_action > 0):
            raise ConfigError("--seconds-per-action: expected simulated seconds > 0, "
                              f"got {self.seconds_per_action}")
        if not self.episode_timeout_s > 0:
            raise ConfigError(f"--episode-timeout: expected seconds > 0, got {self.episode_timeout_s}")
