"""Inputs of a report: the rows, trajectories and recorded arrays of evaluation runs (run folders
or ``.sqlite`` files read through :class:`navbench.eval.ResultsDB`, each run named for its
tables), the camera rigs they rendered with, the episodes ``results repair`` quarantined, and
the scenes of a dataset's episodes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from navbench.episodes import Episode
from navbench.errors import ConfigError
from navbench.jsontypes import JSONMapping, JSONObject
from navbench.scene.io import load as load_scene
from navbench.scene.model import Scene

log = logging.getLogger(__name__)
Row = JSONObject  # a metrics row: a JSON record
_SCALARS = (str, int, float, bool)


def _positions(arrays: Mapping[str, np.ndarray]) -> np.ndarray | None:
    for k in ("positions", "position", "poses", "pose"):
        if k in arrays:
            a = np.asarray(arrays[k], dtype=float)
            if a.ndim == 2 and a.shape[1] >= 3:
                return a[:, :3]
    return None


def _flat_extra(extra: JSONMapping) -> JSONObject:
    """Scalar fields of ``extra``, of ``extra['fields']`` / ``extra['navbench']`` and of
    ``extra['info']['navbench']`` (outer keys win)."""
    out: JSONObject = {}
    info = extra.get("info")
    for d in (info.get("navbench") if isinstance(info, Mapping) else None,
              extra.get("navbench"), extra.get("fields"), extra):
        if isinstance(d, Mapping):
            out.update({k: v for k, v in d.items() if isinstance(v, _SCALARS)})
    return out


def quarantined_episodes(runs: Sequence[str | Path]) -> list[str]:
    """``run_id/episode_id`` of the episodes ``results repair`` quarantined in these run folders
    (unreadable rows: not in any table or mean)."""
    from navbench.eval import ResultsDB

    out = []
    for path in runs:
        with ResultsDB(path, create=False) as db:
            out += [f"{q['run_id']}/{q['episode_id']}" for q in db.quarantined() if q["what"] == "episode"]
    return out


def run_cameras(runs: Sequence[str | Path]) -> str | None:
    """The camera rigs the rendering runs saw through, one line: ``agent: rig label; ...``
    (``None`` when no run rendered images)."""
    from navbench.eval import ResultsDB
    from navbench.sim.camera_rig import rig_of_json

    seen: dict[str, None] = {}
    for path in runs:
        with ResultsDB(path, create=False) as db:
            for run in db.runs():
                if run["settings"].get("render"):
                    label = rig_of_json(run["settings"].get("camera"), "run settings: camera").label()
                    seen[f"{run['agent']}: {label}"] = None
    return "; ".join(seen) or None


def read_runs(runs: Sequence[str | Path], records: dict[str, dict[str, dict[str, np.ndarray]]] | None = None,
              ) -> tuple[dict[str, list[Row]], dict[str, dict[str, np.ndarray]]]:
    """Rows and trajectory positions of every run in the given run folders (or .sqlite files).

    A run is named by its agent; when two runs share an agent, ``agent · task`` (one run per
    task), else ``agent · robot · task`` (one run per embodiment: two robots on one dataset),
    else ``agent (seed s) · task`` (one run per seed; ``agent · robot (seed s) · task`` when the
    robots differ too), else the run id is appended. Rows
    carry ``run_agent``, ``run_seed`` (the report's across-seeds table groups by them) and
    ``run_embodiment`` (the robot the run used in the episode's kind of scene). ``records``, when
    given, receives per run name and episode the recorded :data:`RECORD_KEYS` arrays (for the
    episode pages).
    """
    from navbench.eval import ResultsDB

    found: list[tuple[str, str, list[Row], dict[str, np.ndarray], dict[str, dict[str, np.ndarray]]]] = []
    seeds: dict[str, object] = {}
    robots: dict[str, str] = {}
    for path in runs:
        with ResultsDB(path, create=False) as db:
            for run in db.runs():
                rows, traj, recs = [], {}, {}
                emb = run["settings"].get("embodiment")
                for r in db.rows(run["run_id"]):
                    row = {**_flat_extra(r["extra"]), **r["metrics"]}
                    row.update(episode_id=r["episode_id"], scene_id=r["scene_id"], label=r["label"],
                               run_id=run["run_id"], run_task=run["settings"].get("task"),
                               run_split=run["settings"].get("split"), run_agent=run["agent"],
                               run_seed=run["seed"])
                    robot = emb.get(str(row.get("scene_kind"))) if isinstance(emb, Mapping) else emb
                    if isinstance(robot, str):
                        row["run_embodiment"] = robot
                    if isinstance(run["settings"].get("camera"), Mapping):  # the frames' sensor rig
                        row["run_camera"] = json.dumps(run["settings"]["camera"], sort_keys=True)
                    rows.append(row)
                    arrays = db.trajectory(run["run_id"], r["episode_id"])
                    pos = None if arrays is None else _positions(arrays)
                    if pos is not None:
                        traj[r["episode_id"]] = pos
                        if records is not None and arrays is not None:
                            recs[r["episode_id"]] = {k: np.asarray(arrays[k], dtype=float).reshape(-1)
                                                     for k in RECORD_KEYS if k in arrays}
                found.append((run["agent"], run["run_id"], rows, traj, recs))
                seeds[run["run_id"]] = run["seed"]
                robots[run["run_id"]] = _run_robot(emb)
    if not found:
        raise ConfigError(f"report: no run in {', '.join(str(p) for p in runs)}")
    agents = [a for a, *_ in found]
    tasks = {rid: str(rows[0].get("run_task")) if rows else "" for _, rid, rows, *_ in found}
    rows_by_run, traj_by_run = {}, {}
    for agent, rid, rows, traj, recs in found:
        task, robot = tasks[rid], robots[rid]
        group = [r for a, r, *_ in found if (a, tasks[r]) == (agent, task)]  # same agent and task
        same_robot = [r for r in group if robots[r] == robot]
        if agents.count(agent) == 1:
            name = agent
        elif len(group) == 1:
            name = f"{agent} · {task}"  # one run per task: sections show the agent alone
        elif robot and len(same_robot) == 1:
            name = f"{agent} · {robot} · {task}"  # one run per robot (two robots, one dataset)
        elif [seeds[r] for r in same_robot].count(seeds[rid]) == 1:  # one run per seed
            who = f"{agent} · {robot}" if robot and len({robots[r] for r in group}) > 1 else agent
            name = f"{who} (seed {seeds[rid]}) · {task}"
        else:
            name = f"{agent} ({rid})"
        rows_by_run[name], traj_by_run[name] = rows, traj
        if records is not None:
            records[name] = recs
    return rows_by_run, traj_by_run


def _run_robot(embodiment: object) -> str:
    """The robot of a run's ``embodiment`` setting: its name, or the names it uses per scene
    kind joined by ``/`` (``""`` when not recorded).

    >>> _run_robot("spot"), _run_robot({"house": "turtlebot", "city": "spot"}), _run_robot(None)
    ('spot', 'spot/turtlebot', '')
    """
    if isinstance(embodiment, str):
        return embodiment
    if isinstance(embodiment, Mapping):
        return "/".join(sorted({str(v) for v in embodiment.values()}))
    return ""


#: Recorded arrays :func:`read_runs` keeps for the episode pages (besides the positions).
RECORD_KEYS = ("yaw", "t", "collision")


def load_scenes_for(episodes: Sequence[Episode], roots: Sequence[Path]) -> dict[str, Scene]:
    """Scenes of the episodes found under ``roots`` (``ROOT/<scene_id>``,
    ``ROOT/scenes/<name>/scene.json``, ``ROOT/<name>/scene.json`` or ``ROOT/<name>.json``)."""
    out: dict[str, Scene] = {}
    for sid in sorted({e.scene_id for e in episodes}):
        names = {Path(sid).stem, Path(sid).parent.name} - {"", "."}
        cands = [root / sid for root in roots] + [
            p for root in roots for n in sorted(names)
            for p in (root / "scenes" / n / "scene.json", root / n / "scene.json", root / f"{n}.json")]
        hit = next((p for p in cands if p.is_file()), None)
        if hit is None:
            log.warning("scene %s not found under %s: no BEV map or stage fields", sid, roots)
            continue
        out[sid] = load_scene(hit)
    return out


__all__ = ["RECORD_KEYS", "load_scenes_for", "quarantined_episodes", "read_runs", "run_cameras"]
