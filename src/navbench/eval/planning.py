"""Planning an evaluation run: the agent (loaded once for its declarations), the task, the
episodes and their scenes, the embodiment per scene and the worker arguments
(:func:`plan_evaluation`; split out of :mod:`navbench.eval.pipeline`, which re-exports these
names)."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.errors import ConfigError
from navbench.eval.budget import STREAMING_SPACES, timeout_caps
from navbench.eval.scoring import jsonable
from navbench.eval.selection import scene_key, select_episodes
from navbench.eval.settings import EvalSettings
from navbench.jsontypes import JSONMapping, JSONObject

if TYPE_CHECKING:
    from navbench.agents.base import Agent
    from navbench.episodes.loader import Dataset, Manifest


def _agent_target(name: str) -> object:
    """The class (or factory) an agent name resolves to, or ``None`` for remote agents."""
    from navbench.agents.loading import resolve

    return resolve(name)


def make_agent(name: str, kwargs: JSONMapping | None = None, seed: int = 0) -> Agent:
    """:func:`navbench.agents.load_agent` with ``seed`` added when the constructor takes one."""
    from navbench.agents import load_agent

    kw = dict(kwargs or {})
    target = _agent_target(name)
    if callable(target) and "seed" not in kw:
        try:
            params: Mapping[str, inspect.Parameter] = inspect.signature(target).parameters
        except (TypeError, ValueError):
            params = {}
        if "seed" in params:
            kw["seed"] = int(seed)
    return load_agent(name, **kw)


def agent_declarations(agent: object) -> JSONObject:  # a JSON record of the run
    """What an agent declares: privileged facts, extra sensors, action space, render need."""
    priv = sorted(getattr(agent, "privileged", ()) or ())
    sensors = sorted(getattr(agent, "sensors", ()) or ())
    return {"privileged": bool(priv), "privileged_facts": priv, "sensors": sensors,
            "action_space": str(getattr(agent, "action_space", "waypoint")),
            "needs_render": bool(getattr(agent, "needs_render", False) or sensors),
            # agents that only read depth + semantic get no RGB pass and flat boxes (same ids)
            "needs_rgb": bool(getattr(agent, "needs_rgb", True))}



def default_task(tasks: Sequence[str]) -> str:
    """``conditional`` when present, else the first task of the dataset."""
    if not tasks:
        raise ConfigError("dataset has no task")
    return "conditional" if "conditional" in tasks else tasks[0]


def _hash_files(ds: Dataset, task: str, split: str, scenes: Sequence[str]) -> str:
    from navbench.eval.runner import dataset_hash

    files = [ds.root / "manifest.json", ds.path(task, split)]
    for sid in sorted(scenes):
        files.append(ds.scene_path(sid))
        nm = ds.manifest.scenes[sid].get("navmesh")
        if nm:
            files.append(ds.root / nm)
    return dataset_hash(files)


def resolve_embodiments(manifest: Manifest, scene_ids: Sequence[str], requested: str | None
                        ) -> tuple[dict[str, str], list[str]]:
    """Embodiment per scene and warnings: ``requested`` everywhere, or (``None``) the one each
    scene's episodes were built for (``spot`` where the dataset was built with ``none``); a
    warning for every dataset embodiment that ``requested`` overrides."""
    from navbench.sim import get_embodiment

    if requested is not None:
        get_embodiment(requested)
    built = {sid: manifest.scene_embodiment(sid) for sid in scene_ids}
    warnings = [f"--embodiment {requested}: the dataset's paths were planned for {b} "
                f"(scenes {', '.join(sorted(s for s, x in built.items() if x == b))}); "
                "expect collisions or detours" for b in sorted({b for b in built.values() if b})
                if requested is not None and b != requested]
    return {sid: requested or b or "spot" for sid, b in built.items()}, warnings


def _run_embodiment(by_scene: Mapping[str, str], manifest: Manifest) -> str | dict[str, str] | None:
    """What a run records as its embodiment: one name, or ``{scene kind: name}`` when mixed."""
    names = sorted(set(by_scene.values()))
    if len(names) <= 1:
        return names[0] if names else None
    return {manifest.scenes[s].get("kind", s): e for s, e in sorted(by_scene.items())}


def plan_evaluation(dataset: str | Path, agent: str, settings: EvalSettings,
                    warn: Callable[[str], None] | None = None
                    ) -> tuple[JSONObject, list[tuple[str, str]], JSONObject, str]:
    """Resolve a run: ``(run settings, [(episode id, scene id)], worker kwargs, dataset hash)``.

    Loads the agent once to read its declarations (privileged facts, render need). Embodiment
    mismatches with the dataset go to ``warn`` (default: :func:`warnings.warn`).
    """
    import warnings

    from navbench.episodes.loader import load_dataset

    ds = load_dataset(dataset)
    task = settings.task or default_task(ds.tasks)
    if task not in ds.tasks:
        raise ConfigError(f"--task: expected one of {list(ds.tasks)}, got {task!r}")
    if settings.split not in ds.splits:
        raise ConfigError(f"--split: expected one of {list(ds.splits)}, got {settings.split!r}")
    known = list(ds.manifest.scenes)
    chosen = select_episodes(ds.episodes(task, settings.split), settings.episodes, known)
    pairs = [(e.episode_id, scene_key(e, known)) for e in chosen]
    unknown = sorted({s for _, s in pairs if s not in ds.manifest.scenes})
    if unknown:
        raise ConfigError(f"{ds.root}: episodes refer to scenes missing from manifest.json: {unknown}")
    by_scene, notes = resolve_embodiments(ds.manifest, sorted({s for _, s in pairs}), settings.embodiment)
    for note in notes:
        (warn or (lambda m: warnings.warn(m, UserWarning, stacklevel=3)))(note)
    probe = make_agent(agent, settings.agent_kwargs, settings.seed)
    try:
        decl = agent_declarations(probe)
    finally:
        close = getattr(probe, "close", None)
        if callable(close):
            close()
    render = settings.render == "on" or (settings.render == "auto" and decl["needs_render"])
    run_settings = {**dataclasses.asdict(settings), "task": task, "render": render,
                    "agent_kwargs": jsonable(dict(settings.agent_kwargs)),
                    "embodiment": _run_embodiment(by_scene, ds.manifest), **decl}
    if decl["action_space"] not in STREAMING_SPACES:
        run_settings.pop("seconds_per_action")  # unused: discrete runs keep their names
    if not timeout_caps(task) and settings.action_budget_per_word:
        run_settings["budget_ends_run"] = True  # CondVLN: max_time no longer cuts a run (new names)
    from navbench.sim.camera_rig import parse_camera

    rig = parse_camera(settings.camera)
    run_settings.pop("camera")
    if render and not rig.is_default:  # recorded (and naming the run) only when it changes frames
        run_settings["camera"] = rig.to_json()
        run_settings["width"], run_settings["height"] = rig.image_size((settings.width, settings.height))
    elif not rig.is_default:
        (warn or (lambda m: warnings.warn(m, UserWarning, stacklevel=3)))(
            f"--camera {settings.camera}: ignored, the run renders no images (the agent needs "
            "none; add --render on)")
    if not render:
        run_settings.pop("width")
        run_settings.pop("height")
    if settings.friction_scale == 1.0 and not settings.friction_override:
        run_settings.pop("friction_scale")  # default physics: run names as before
        run_settings.pop("friction_override")
    else:
        run_settings["friction_override"] = dict(settings.friction_override)
    if settings.success_rule == "habitat":
        run_settings.pop("success_rule")  # the default rule: run names as before
    if settings.stuck_time is None:
        run_settings.pop("stuck_time")
    worker_kw = {"dataset": str(Path(dataset).resolve()), "task": task, "split": settings.split,
                 "agent": agent, "agent_kwargs": dict(settings.agent_kwargs), "seed": settings.seed,
                 "embodiment": settings.embodiment, "embodiments": by_scene, "render": render, "width": settings.width,
                 "height": settings.height, "max_time": settings.max_time,
                 "distance": settings.distance,
                 "action_budget_per_word": settings.action_budget_per_word,
                 "seconds_per_action": settings.seconds_per_action,
                 "action_space": decl["action_space"],
                 "friction_scale": settings.friction_scale,
                 "friction_override": dict(settings.friction_override),
                 "success_rule": settings.success_rule, "stuck_time": settings.stuck_time,
                 "visuals": decl["needs_rgb"],
                 "camera": rig.to_json() if render and not rig.is_default else None}
    return run_settings, pairs, worker_kw, _hash_files(ds, task, settings.split,
                                                       sorted({s for _, s in pairs}))
