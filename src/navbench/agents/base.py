"""The agent protocol (NavVerse App. 6, SPEC §6): :class:`Task`, observation filtering,
:class:`Agent` and the habitat-style adapter (loading: :mod:`navbench.agents.loading`).

An agent is reset with a :class:`Task` (instruction or goal category, the action space it will
use, and privileged facts only if it declared them in :attr:`Agent.privileged`), then called
once per agent step with an observation dict that holds only what SPEC §6 allows:

- always: ``pose`` (x, y, z, yaw; Habitat frame, m / rad), ``time`` (s), ``cam_to_body``
  (4×4), ``robot_radius`` (m); when rendering: ``rgb`` (H,W,3 uint8), ``depth`` (H,W float32
  metres, 0 = no hit), ``intrinsics`` (3×3 pixels);
- the optional extra sensor ``semantic`` (H,W int32 segment ids) and ``semantic_labels``
  (segment id → category label) only for agents listing ``"semantic"`` in :attr:`Agent.sensors`;
- privileged per-step ``distance_to_goal`` only when declared.

Privileged task facts (:data:`PRIVILEGED`): ``goals`` (goal positions), ``reference_path``,
``distance_to_goal``, ``program`` (the conditional program with scene ids and condition truths),
``scene`` (the :class:`~navbench.scene.Scene`), ``navmesh``. A run with an agent that declares
any of them is marked privileged in the results.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypedDict

from navbench.errors import ConfigError
from navbench.jsontypes import JSON, Observation
from navbench.sim.actions import (
    Action,
    DiscreteAction,
    DiscreteKind,
    StopAction,
    VelocityAction,
    WaypointAction,
)

if TYPE_CHECKING:
    from navbench.tasks.conditional import Program

ActionSpace = Literal["waypoint", "discrete", "velocity"]
ACTION_SPACES: tuple[str, ...] = ("waypoint", "discrete", "velocity")
#: Privileged facts an agent may ask for (never given unless declared).
PRIVILEGED: frozenset[str] = frozenset(
    {"goals", "reference_path", "distance_to_goal", "program", "scene", "navmesh"})
#: Observation keys every agent receives (SPEC §6).
PUBLIC_OBS: frozenset[str] = frozenset(
    {"pose", "time", "cam_to_body", "robot_radius", "rgb", "depth", "intrinsics"})
#: Optional extra sensors an agent may list in :attr:`Agent.sensors`.
EXTRA_SENSORS: frozenset[str] = frozenset({"semantic"})


class ProgramFacts(TypedDict):
    """The privileged ``program`` fact of a conditional episode."""

    program: Program
    truths: dict[str, bool]


@dataclass(frozen=True)
class Task:
    """What an agent is told at reset.

    Attributes:
        episode_id: the episode.
        kind: ``"conditional"``, ``"vln"``, ``"objectnav"``, ``"placenav"`` or ``"pointnav"``.
        action_space: the action space the agent will use.
        instruction: instruction text (VLN tasks), else ``None``.
        goal_category: goal category (ObjectNav / PlaceNav), else ``None``.
        success_distance: τ (m) the episode is judged with.
        camera: the head camera when the run renders (:meth:`navbench.sim.camera_rig.CameraRig.
            describe`: ``rig``, intrinsics ``fx, fy, cx, cy`` and ``width, height`` (px),
            ``hfov_deg``, ``height_m`` above the ground, ``pitch_deg`` down, depth range), else
            ``None``.
        privileged: the declared privileged facts (keys of :data:`PRIVILEGED`) and values.
    """

    episode_id: str
    kind: str
    action_space: ActionSpace
    instruction: str | None = None
    goal_category: str | None = None
    success_distance: float | None = None
    camera: Mapping[str, JSON] | None = field(default=None, hash=False)
    # privileged facts of mixed types (arrays, a ProgramFacts record, the Scene, a navmesh)
    privileged: Mapping[str, Any] = field(default_factory=dict, hash=False)


class AgentLike(Protocol):
    """What the rollout calls on an agent (:class:`Agent` and its subclasses fit).

    The optional declarations (``name``, ``action_space``, ``privileged``, ``sensors``,
    ``needs_render``, ``diagnostics``, ``close``) are read with ``getattr`` and defaults, so
    they are not part of the protocol.
    """

    def reset(self, task: Task) -> None:
        """Start an episode."""
        ...

    def act(self, observation: Observation) -> object:
        """The action for this step: an :data:`Action`, or anything :func:`to_action` takes
        (habitat-style ids and names, JSON forms)."""
        ...


class Agent:
    """Base class of navbench agents (subclass it, or pass any object with the same methods).

    Class attributes:
        name: short name used in results.
        action_space: default action space (``"waypoint"``, ``"discrete"`` or ``"velocity"``).
        privileged: privileged facts the agent needs (subset of :data:`PRIVILEGED`).
        sensors: optional extra sensors (subset of :data:`EXTRA_SENSORS`).
        needs_render: whether ``rgb``/``depth`` (and ``semantic``) are required.
    """

    name: ClassVar[str] = "agent"
    action_space: ActionSpace = "waypoint"
    privileged: frozenset[str] = frozenset()
    sensors: frozenset[str] = frozenset()
    needs_render: ClassVar[bool] = False

    def reset(self, task: Task) -> None:
        """Start an episode."""

    def act(self, observation: Observation) -> Action:
        """Return the action for this agent step (0.1 s of simulated time)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release resources (connections, renderers)."""


def filter_observation(raw: Observation, agent: object,
                       labels: Mapping[int, tuple[str | None, str]] | None = None,
                       info: Observation | None = None) -> dict[str, Any]:  # an Observation
    """Keep only the keys SPEC §6 allows for ``agent`` (see module docs).

    ``labels`` is the simulator's segment id → (scene id, label) table; only the labels are
    passed on (scene ids would identify instances).
    """
    out = {k: v for k, v in raw.items() if k in PUBLIC_OBS}
    if "semantic" in getattr(agent, "sensors", frozenset()) and "semantic" in raw:
        out["semantic"] = raw["semantic"]
        out["semantic_labels"] = {int(k): v[1] for k, v in (labels or {}).items()}
    if "distance_to_goal" in getattr(agent, "privileged", frozenset()) and info is not None:
        out["distance_to_goal"] = info.get("distance_to_goal")
    return out


_HABITAT_NAMES: dict[str, DiscreteKind] = {
    "stop": "stop", "move_forward": "forward", "forward": "forward", "turn_left": "left",
    "left": "left", "turn_right": "right", "right": "right",
}


def to_action(x: JSON) -> Action:  # an Action, a habitat id or name, or a JSON form
    """Convert an agent's return value into a simulator action.

    Accepts navbench actions; habitat-style ``int`` ids (0 STOP, 1 FORWARD, 2 LEFT, 3 RIGHT),
    names (``"STOP"``, ``"MOVE_FORWARD"``, ``"TURN_LEFT"``, ``"TURN_RIGHT"``, ``"forward"``...),
    ``{"action": <int|str>}``; and JSON forms ``{"waypoints": [[x, z(, yaw)]...], "append":
    bool}``, ``{"velocity": [vx, vy, omega]}``, ``{"stop": true}``.

    Raises:
        ConfigError: the value is none of these.
    """
    if isinstance(x, (WaypointAction, DiscreteAction, VelocityAction, StopAction)):
        return x
    if isinstance(x, bool):
        raise ConfigError(f"agent action: expected an action, int, str or dict, got {x!r}")
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x, "ndim", 1) == 0):
        return DiscreteAction.from_id(int(x))
    if isinstance(x, str):
        kind = _HABITAT_NAMES.get(x.strip().lower())
        if kind is None:
            raise ConfigError(f"agent action: unknown action name {x!r}; expected one of "
                              f"{sorted(_HABITAT_NAMES)}")
        return DiscreteAction(kind)
    if isinstance(x, Mapping):
        if "action" in x:
            return to_action(x["action"])
        if "waypoints" in x:
            return WaypointAction.of(x["waypoints"], append=bool(x.get("append", False)))
        if "velocity" in x:
            v = [float(a) for a in x["velocity"]]
            if len(v) != 3:
                raise ConfigError(f"agent action: velocity: expected [vx, vy, omega], got {v}")
            return VelocityAction(*v)
        if x.get("stop"):
            return StopAction()
    raise ConfigError(f"agent action: expected an action, int, str or dict with 'action', "
                      f"'waypoints', 'velocity' or 'stop', got {x!r}")


class HabitatAgentAdapter(Agent):
    """Wrap a habitat-lab-style agent (``reset()`` and ``act(observations) -> int | str |
    {"action": ...}``) as a navbench :class:`Agent` using discrete actions.

    The wrapped agent sees habitat-style observations: ``rgb``, ``depth`` (H,W,1), ``instruction``
    ``{"text": ...}``, ``objectgoal`` (the category name), plus navbench's ``pose``.
    """

    name: ClassVar[str] = "habitat"
    action_space: ActionSpace = "discrete"

    # Any: a habitat-lab style agent, duck-typed: reset() or reset(task), act(observations)
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.privileged = frozenset(getattr(inner, "privileged", frozenset()))
        self.sensors = frozenset(getattr(inner, "sensors", frozenset()))
        self._task: Task | None = None

    def reset(self, task: Task) -> None:
        self._task = task
        try:
            self.inner.reset(task)
        except TypeError:
            self.inner.reset()

    def act(self, observation: Observation) -> Action:
        obs = dict(observation)
        if "depth" in obs and getattr(obs["depth"], "ndim", 0) == 2:
            obs["depth"] = obs["depth"][..., None]
        t = self._task
        if t is not None:
            obs["instruction"] = {"text": t.instruction or ""}
            if t.goal_category is not None:
                obs["objectgoal"] = t.goal_category
        return to_action(self.inner.act(obs))

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


#: Bounds of a valid action: waypoint coordinates (m) and the number of waypoints in one action.
MAX_WAYPOINT_COORD = 1.0e5
MAX_WAYPOINTS = 10_000


def check_action(action: Action) -> Action:
    """``action`` if it is valid, else a :class:`ConfigError` starting "non-finite action" or
    "action out of range" (the episode ends as ``agent_error`` with that message).

    Valid: waypoint ``x``, ``z`` finite within ±:data:`MAX_WAYPOINT_COORD` m and ``yaw`` finite
    or ``nan`` (any heading), at most :data:`MAX_WAYPOINTS` waypoints; velocity components finite
    (the simulator clips them to the embodiment's limits); discrete and stop actions always.
    """
    if isinstance(action, WaypointAction):
        if len(action.waypoints) > MAX_WAYPOINTS:
            raise ConfigError(f"action out of range: {len(action.waypoints)} waypoints "
                              f"(at most {MAX_WAYPOINTS})")
        for i, (x, z, yaw) in enumerate(action.waypoints):
            if not (math.isfinite(x) and math.isfinite(z)) or math.isinf(yaw):
                raise ConfigError(f"non-finite action: waypoint {i} = {(x, z, yaw)} "
                                  "(x, z finite; yaw finite or nan)")
            if max(abs(x), abs(z)) > MAX_WAYPOINT_COORD:
                raise ConfigError(f"action out of range: waypoint {i} = {(x, z)} "
                                  f"(|x|, |z| <= {MAX_WAYPOINT_COORD:g} m)")
    elif isinstance(action, VelocityAction):
        v = (action.vx, action.vy, action.omega)
        if not all(isinstance(c, (int, float)) and math.isfinite(c) for c in v):
            raise ConfigError(f"non-finite action: velocity (vx, vy, omega) = {v}")
    return action


def check_agent(agent: object) -> None:
    """Validate an agent's declarations (privileged facts, sensors, action space)."""
    bad = set(getattr(agent, "privileged", ())) - PRIVILEGED
    if bad:
        raise ConfigError(f"agent {type(agent).__name__}: unknown privileged facts {sorted(bad)}; "
                          f"expected some of {sorted(PRIVILEGED)}")
    bad = set(getattr(agent, "sensors", ())) - EXTRA_SENSORS
    if bad:
        raise ConfigError(f"agent {type(agent).__name__}: unknown sensors {sorted(bad)}; "
                          f"expected some of {sorted(EXTRA_SENSORS)}")
    space = getattr(agent, "action_space", "waypoint")
    if space not in ACTION_SPACES:
        raise ConfigError(f"agent {type(agent).__name__}: action_space: expected one of "
                          f"{ACTION_SPACES}, got {space!r}")


def as_points(v: Sequence[Sequence[float]]) -> list[tuple[float, float, float]]:
    """Rows of (x, y, z) floats."""
    return [(float(p[0]), float(p[1]), float(p[2])) for p in v]
