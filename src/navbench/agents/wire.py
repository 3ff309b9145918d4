"""JSON wire format of the remote-agent protocol (shared by :mod:`.remote` and :mod:`.server`).

Arrays travel as ``{"b64": <base64 of the raw C-order bytes>, "dtype": "uint8"|"float32"|...,
"shape": [...]}`` (little-endian). Small arrays (pose, intrinsics, cam_to_body) travel as
nested lists. Actions travel in the forms :func:`navbench.agents.base.to_action` accepts.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from navbench.agents.base import ACTION_SPACES, Task
from navbench.errors import ConfigError
from navbench.jsontypes import JSONMapping, JSONObject, Observation
from navbench.sim.actions import Action, DiscreteAction, StopAction, VelocityAction, WaypointAction

_IMAGES = ("rgb", "depth", "semantic")
_DTYPES = ("uint8", "int32", "float32", "float64", "uint16")
#: Images a remote agent may ask for in ``GET /info`` ``"sensors"``.
WIRE_SENSORS: tuple[str, ...] = _IMAGES
#: What an agent that does not say (no ``/info``, or no ``"sensors"`` in it) receives.
DEFAULT_WIRE_SENSORS: tuple[str, ...] = ("rgb", "depth")


def wire_sensors(agent: object) -> list[str]:
    """The images ``agent`` needs, by their wire names (``GET /info`` ``"sensors"``): ``rgb``
    and ``depth`` when it needs rendering (``needs_render`` or an extra sensor; no ``rgb`` when
    ``needs_rgb`` is false), ``semantic`` when it lists that sensor."""
    extra = set(getattr(agent, "sensors", ()) or ())
    out = []
    if getattr(agent, "needs_render", False) or extra:
        if getattr(agent, "needs_rgb", True):
            out.append("rgb")
        out.append("depth")
    if "semantic" in extra:
        out.append("semantic")
    return out


def decode_info(d: object, where: str = "GET /info") -> tuple[str | None, tuple[str, ...] | None]:
    """``(action_space, sensors)`` an agent declares in its ``/info`` reply; ``None`` for what
    it leaves out. Raises :class:`ConfigError` naming the field when a value is not valid."""
    if not isinstance(d, Mapping):
        raise ConfigError(f"{where}: expected a JSON object, got {type(d).__name__}")
    space = d.get("action_space")
    if space is not None and space not in ACTION_SPACES:
        raise ConfigError(f"{where}: action_space: expected one of {ACTION_SPACES}, got {space!r}")
    sensors = d.get("sensors")
    if sensors is None:
        return space, None
    if not isinstance(sensors, list) or not all(isinstance(x, str) for x in sensors):
        raise ConfigError(f"{where}: sensors: expected a list of {list(WIRE_SENSORS)}, got {sensors!r}")
    bad = sorted(set(sensors) - set(WIRE_SENSORS))
    if bad:
        raise ConfigError(f"{where}: sensors: unknown {bad}; expected some of {list(WIRE_SENSORS)}")
    return space, tuple(x for x in WIRE_SENSORS if x in sensors)


def encode_array(a: np.ndarray) -> JSONObject:
    """``{"b64", "dtype", "shape"}`` of an array (little-endian bytes)."""
    a = np.ascontiguousarray(a)
    dt = a.dtype.newbyteorder("<")
    return {"b64": base64.b64encode(a.astype(dt).tobytes()).decode("ascii"),
            "dtype": a.dtype.name, "shape": list(a.shape)}


def decode_array(d: JSONMapping, field: str = "array") -> np.ndarray:
    """Inverse of :func:`encode_array`; raises :class:`ConfigError` naming ``field``."""
    try:
        dtype = str(d["dtype"])
        if dtype not in _DTYPES:
            raise ValueError(f"dtype {dtype!r} not in {_DTYPES}")
        raw = base64.b64decode(d["b64"], validate=True)
        shape = tuple(int(x) for x in d["shape"])
        return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).reshape(shape).astype(dtype)
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError(f"{field}: expected {{b64, dtype, shape}} of a {'/'.join(_DTYPES)} array "
                          f"({e})") from e


def encode_observation(obs: Observation) -> JSONObject:
    """JSON-able observation: images base64, other arrays as lists."""
    out: JSONObject = {}
    for k, v in obs.items():
        if k in _IMAGES and isinstance(v, np.ndarray):
            out[k] = encode_array(v)
        elif isinstance(v, np.ndarray):
            out[k] = v.tolist()
        elif isinstance(v, Mapping):
            out[k] = {str(a): b for a, b in v.items()}
        elif isinstance(v, (np.floating, np.integer)):
            out[k] = v.item()
        else:
            out[k] = v
    return out


def decode_observation(d: JSONMapping) -> dict[str, Any]:  # an Observation (arrays decoded)
    """Inverse of :func:`encode_observation` (lists become float arrays).

    Raises:
        ConfigError: ``d`` is not an object, or a field is not what its key promises.
    """
    if not isinstance(d, Mapping):
        raise ConfigError(f"observation: expected a JSON object, got {type(d).__name__}")
    out: dict[str, Any] = {}  # an Observation
    for k, v in d.items():
        if k in _IMAGES and isinstance(v, Mapping):
            out[k] = decode_array(v, f"observation.{k}")
        elif k == "semantic_labels" and isinstance(v, Mapping):
            try:
                out[k] = {int(a): b for a, b in v.items()}
            except ValueError as e:
                raise ConfigError(f"observation.{k}: expected integer segment ids ({e})") from None
        elif isinstance(v, list):
            try:
                out[k] = np.asarray(v, float)
            except (TypeError, ValueError) as e:
                raise ConfigError(f"observation.{k}: expected (nested) lists of numbers ({e})") from None
        else:
            out[k] = v
    return out


def encode_task(task: Task) -> JSONObject:
    """The public part of a task (privileged facts are never sent)."""
    return {"episode_id": task.episode_id, "kind": task.kind, "action_space": task.action_space,
            "instruction": task.instruction, "goal_category": task.goal_category,
            "success_distance": task.success_distance}


def decode_task(d: object) -> Task:
    """A :class:`Task` from :func:`encode_task`'s dict.

    Raises:
        ConfigError: ``d`` is not an object, a field is missing or has the wrong type.
    """
    if not isinstance(d, Mapping):
        raise ConfigError(f"task: expected a JSON object, got {type(d).__name__}")
    if "episode_id" not in d:
        raise ConfigError("task: missing field 'episode_id'")
    for key in ("episode_id", "kind", "action_space", "instruction", "goal_category"):
        v = d.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (str, int))):
            raise ConfigError(f"task.{key}: expected a string or null, got {type(v).__name__}")
    space = d.get("action_space", "discrete")
    if space not in ACTION_SPACES:
        raise ConfigError(f"task.action_space: expected one of {ACTION_SPACES}, got {space!r}")
    tau = d.get("success_distance")
    if tau is not None and (isinstance(tau, bool) or not isinstance(tau, (int, float))
                            or not math.isfinite(tau) or tau < 0):
        raise ConfigError(f"task.success_distance: expected a non-negative number, got {tau!r}")
    return Task(episode_id=str(d["episode_id"]), kind=str(d.get("kind", "vln")),
                action_space=space, instruction=d.get("instruction"),
                goal_category=d.get("goal_category"),
                success_distance=None if tau is None else float(tau))


def encode_action(a: Action) -> JSONObject:
    """JSON form of a navbench action."""
    if isinstance(a, StopAction):
        return {"stop": True}
    if isinstance(a, DiscreteAction):
        return {"action": a.kind}
    if isinstance(a, VelocityAction):
        return {"velocity": [a.vx, a.vy, a.omega]}
    if isinstance(a, WaypointAction):
        return {"waypoints": [[x, z] if math.isnan(y) else [x, z, y] for x, z, y in a.waypoints],
                "append": a.append}
    raise ConfigError(f"cannot encode action {a!r}")
