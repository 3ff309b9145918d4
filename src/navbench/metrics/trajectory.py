"""Recorded trajectories and the episode facts they are scored against; trajectory files.

A :class:`Trajectory` is what an agent did (from navbench's simulator, or rebuilt from a VLN-CE
prediction file); :class:`EpisodeFacts` is what it is scored against. Positions are Habitat
world-frame metres (+Y up); headings are yaws about +Y in radians (0 faces -Z).

Trajectory files (:func:`save_trajectories` / :func:`load_trajectories`), chosen by suffix:

- ``.json`` / ``.json.gz``: ``{"schema": "navbench.trajectories/1", "trajectories": [
  {"episode_id", "positions": [[x,y,z]...], "stop": bool, optional "timestamps", "headings",
  "collisions", "obstacle_distances", "surfaces", "termination"}]}``;
- ``.npz``: arrays ``t{i}.positions`` etc. plus ``index`` (the JSON of the non-array fields).
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from navbench.errors import EpisodeFormatError
from navbench.io import (
    ArraySpec,
    atomic_write_bytes,
    dumps_json,
    loads_json,
    read_json,
    read_npz,
    write_json_gz,
)
from navbench.jsontypes import JSON, JSONMapping, JSONObject, Kwargs
from navbench.scene.validate import MAX_COORD

if TYPE_CHECKING:  # episodes sit upstream; imported for the type only
    from navbench.episodes import Episode

SCHEMA = "navbench.trajectories/1"
#: NavVerse termination labels (SPEC §6); other strings are accepted and reported as given.
TERMINATION_LABELS = ("success", "perception_error", "fall", "timeout", "stopped")
_ARRAYS = ("timestamps", "headings", "collisions", "obstacle_distances", "preferred")
_BOOL_ARRAYS = ("collisions", "preferred")
#: The arrays of a trajectory ``.npz`` (:func:`save_trajectories`): the JSON index and, per
#: trajectory ``i``, ``t{i}.positions`` (T, 3) and the optional per-step arrays.
NPZ_SCHEMA: dict[str, ArraySpec] = {
    "index": ArraySpec("U"),
    "t*.positions": ArraySpec("fiu", (None, 3), required=False),
    **{f"t*.{name}": ArraySpec("b" if name in _BOOL_ARRAYS else "fiub", (None,), required=False)
       for name in _ARRAYS},
}


def _arr(v: npt.ArrayLike, dtype: type, shape_tail: tuple[int, ...] = ()) -> np.ndarray:
    a: np.ndarray = np.asarray(v, dtype=dtype)
    if shape_tail:
        a = a.reshape(-1, *shape_tail)
    return a


@dataclass(frozen=True, eq=False)
class Trajectory:
    """What an agent did in one episode, one row per recorded step.

    Attributes:
        episode_id: the scored episode.
        positions: ``(T, 3)`` base positions (m, world frame); ``T ≥ 1``, row 0 is the start.
        stopped: whether the agent called STOP (at the last step).
        timestamps: ``(T,)`` seconds, or ``None``.
        headings: ``(T,)`` yaw (rad), or ``None``.
        collisions: ``(T,)`` bool, non-ground contact with obstacle geometry, or ``None``.
        obstacle_distances: ``(T,)`` distance from the base to the nearest obstacle (m), or ``None``.
        surfaces: ``T`` terrain classes under the base (``""`` = none), or ``None``.
        preferred: ``(T,)`` bool, the ``preferred`` flag of the surface under the base as the
            simulator recorded it (NSR), or ``None``.
        termination: recorded termination label, or ``None`` (then derived when scoring).
    """

    episode_id: str
    positions: np.ndarray
    stopped: bool = True
    timestamps: np.ndarray | None = None
    headings: np.ndarray | None = None
    collisions: np.ndarray | None = None
    obstacle_distances: np.ndarray | None = None
    surfaces: tuple[str, ...] | None = None
    termination: str | None = None
    preferred: np.ndarray | None = None

    def __post_init__(self) -> None:
        pos = _arr(self.positions, float, (3,))
        if len(pos) == 0 or not np.isfinite(pos).all():
            raise ValueError(f"trajectory {self.episode_id}: positions must be ≥ 1 finite (x, y, z) rows")
        if np.abs(pos).max() > MAX_COORD:  # coverage cells grow with the path length
            raise ValueError(f"trajectory {self.episode_id}: positions must lie within "
                             f"±{MAX_COORD:g} m (the scene extent limit)")
        object.__setattr__(self, "positions", pos)
        object.__setattr__(self, "episode_id", str(self.episode_id))
        object.__setattr__(self, "stopped", bool(self.stopped))
        n = len(pos)
        for name in _ARRAYS:
            v = getattr(self, name)
            if v is not None:
                a = _arr(v, bool if name in _BOOL_ARRAYS else float)
                if a.shape != (n,):
                    raise ValueError(f"trajectory {self.episode_id}: {name} must have {n} entries, got {a.shape}")
                object.__setattr__(self, name, a)
        if self.surfaces is not None:
            s = tuple("" if c is None else str(c) for c in self.surfaces)
            if len(s) != n:
                raise ValueError(f"trajectory {self.episode_id}: surfaces must have {n} entries, got {len(s)}")
            object.__setattr__(self, "surfaces", s)

    def to_dict(self) -> JSONObject:
        """JSON-able dict (the record of a ``.json`` trajectory file)."""
        d: JSONObject = {
            "episode_id": self.episode_id,
            "positions": self.positions.tolist(),
            "stop": self.stopped,
        }
        for name in _ARRAYS:
            v = getattr(self, name)
            if v is not None:
                d[name] = v.tolist()
        if self.surfaces is not None:
            d["surfaces"] = list(self.surfaces)
        if self.termination is not None:
            d["termination"] = self.termination
        return d

    @classmethod
    def from_dict(cls, d: JSON, file: str = "<memory>", where: str = "trajectory") -> Trajectory:
        """Validate a dict (see :meth:`to_dict`); errors name ``file`` and the field."""
        if not isinstance(d, Mapping):
            raise EpisodeFormatError(file, where, "an object", type(d).__name__)
        for k in ("episode_id", "positions"):
            if k not in d:
                raise EpisodeFormatError(file, f"{where}.{k}", "a required key")
        kw: Kwargs = {"episode_id": d["episode_id"], "stopped": d.get("stop", True)}
        if not isinstance(kw["stopped"], bool):
            raise EpisodeFormatError(file, f"{where}.stop", "true or false", kw["stopped"])
        try:
            kw["positions"] = np.asarray(d["positions"], dtype=float)
            if kw["positions"].ndim != 2 or kw["positions"].shape[1] != 3:
                raise ValueError
        except (TypeError, ValueError) as e:
            raise EpisodeFormatError(file, f"{where}.positions", "a list of [x, y, z]", d["positions"]) from e
        for name in (*_ARRAYS, "surfaces", "termination"):
            if d.get(name) is not None:
                kw[name] = d[name]
        try:
            return cls(**kw)
        except (TypeError, ValueError) as e:
            raise EpisodeFormatError(file, where, "consistent per-step arrays", str(e)) from e


@dataclass(frozen=True, eq=False)
class EpisodeFacts:
    """What a trajectory is scored against (m, world frame).

    Attributes:
        episode_id: the episode.
        start_position: start of the base.
        goal_positions: ``(G, 3)`` goal instances (distances use the nearest).
        goal_radii: ``(G,)`` NavVerse ``r_goal = ½ max(sx, sz)`` (0 when the size is unknown).
        success_distance: τ (m).
        geodesic_distance: L, shortest path start → nearest goal (habitat's d_0 at reset);
            ``inf`` = unreachable, ``nan`` = unknown.
        reference_path: ``(R, 3)`` reference locations for nDTW (may be empty).
        reference_kind: where they came from: ``gt_locations`` (the ``_gt`` file),
            ``dense_reference`` (the reference path resampled every 0.25 m) or ``given``.
        route_length: length of the route through the subgoals to the goal (route-SPL);
            ``nan`` when the episode has no subgoals or it is unknown.
        subgoals: ``(M, 3)`` ordered subgoals of the correct branch (may be empty).
        branch_goals: goal points of every other branch, ``(B, 3)`` (may be empty).
        fields: grouping facts (task, source, scene_kind, depth, chain_length, ...).
        conditional: whether BSA/CSR apply (a conditional episode, possibly with no subgoals).
    """

    episode_id: str
    start_position: np.ndarray
    goal_positions: np.ndarray
    goal_radii: np.ndarray
    success_distance: float
    geodesic_distance: float = math.nan
    reference_path: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    subgoals: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    branch_goals: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    fields: JSONObject = field(default_factory=dict)
    conditional: bool = True
    reference_kind: str = "given"
    route_length: float = math.nan

    def __post_init__(self) -> None:
        object.__setattr__(self, "episode_id", str(self.episode_id))
        object.__setattr__(self, "start_position", np.asarray(self.start_position, float).reshape(3))
        g = _arr(self.goal_positions, float, (3,))
        r = np.asarray(self.goal_radii, float).reshape(-1)
        if len(r) != len(g):
            raise ValueError(f"episode {self.episode_id}: {len(g)} goals but {len(r)} radii")
        object.__setattr__(self, "goal_positions", g)
        object.__setattr__(self, "goal_radii", r)
        for name in ("reference_path", "subgoals", "branch_goals"):
            object.__setattr__(self, name, _arr(getattr(self, name), float, (3,)))
        object.__setattr__(self, "success_distance", float(self.success_distance))
        object.__setattr__(self, "geodesic_distance", float(self.geodesic_distance))
        object.__setattr__(self, "route_length", float(self.route_length))

    @property
    def reachable(self) -> bool:
        """False when L is infinite (no path to any goal)."""
        return not math.isinf(self.geodesic_distance)

    @classmethod
    def from_episode(cls, ep: Episode, success_distance: float | None = None,
                     gt: JSONMapping | None = None) -> EpisodeFacts:
        """Facts of a :class:`navbench.episodes.Episode`.

        τ: ``success_distance`` if given, else ``info["navbench"]["success_distance"]``, else the
        first goal's ``radius``, else 3.0 (VLN-CE). nDTW reference: ``gt["locations"]`` (the
        episode's ``_gt`` record) when given, else the episode's ``reference_path`` resampled
        every 0.25 m. L: ``info["navbench"]["direct_geodesic_distance"]`` (start to goal) when
        present, else ``geodesic_distance``; with subgoals the file's ``geodesic_distance`` (the
        route through them) becomes ``route_length``. Subgoals and branch goals come from
        ``info["navbench"]["subgoals"|"branch_goals"]`` (``[x,y,z]`` or ``{"position": ...}``).
        Every other scalar of ``info["navbench"]`` becomes a grouping field. The episode counts
        as conditional (BSA/CSR apply) when ``info["navbench"]`` has ``subgoals`` or
        ``branch_goals`` (even empty).
        """
        nb = ep.navbench
        tau = success_distance
        if tau is None:
            tau = nb.get("success_distance")
        if tau is None and ep.goals and ep.goals[0].radius is not None:
            tau = ep.goals[0].radius
        fields = {k: v for k, v in nb.items() if isinstance(v, (str, int, float, bool)) or v is None}
        fields.setdefault("scene_id", ep.scene_id)
        if ep.object_category is not None:
            fields.setdefault("object_category", ep.object_category)
        from navbench.metrics.fidelity import densify

        if gt is not None and gt.get("locations"):
            ref, kind = np.asarray(gt["locations"], float).reshape(-1, 3), "gt_locations"
        elif ep.reference_path:
            ref, kind = densify(np.asarray(ep.reference_path, float)), "dense_reference"
        else:
            ref, kind = np.zeros((0, 3)), "none"
        subgoals = _points(nb.get("subgoals"))
        direct = nb.get("direct_geodesic_distance")
        L = float(ep.geodesic_distance) if direct is None else float(direct)
        route = float(ep.geodesic_distance) if (len(subgoals) and direct is not None) else math.nan
        return cls(
            episode_id=ep.episode_id,
            start_position=np.asarray(ep.start_position, float),
            goal_positions=np.array([g.position for g in ep.goals], float).reshape(-1, 3),
            goal_radii=np.array([g.extent_radius for g in ep.goals], float).reshape(-1),
            success_distance=3.0 if tau is None else float(tau),
            geodesic_distance=L,
            reference_path=ref,
            subgoals=subgoals,
            branch_goals=_points(nb.get("branch_goals")),
            fields=fields,
            conditional="subgoals" in nb or "branch_goals" in nb,
            reference_kind=kind,
            route_length=route,
        )


def _points(items: JSON) -> np.ndarray:
    if not items:
        return np.zeros((0, 3))
    pts = [it["position"] if isinstance(it, Mapping) else it for it in items]
    return np.asarray(pts, dtype=float).reshape(-1, 3)


def save_trajectories(path: str | Path, trajectories: Sequence[Trajectory]) -> Path:
    """Write trajectories atomically and byte-reproducibly; format by suffix (``.json``,
    ``.json.gz`` or ``.npz``)."""
    path = Path(path)
    if path.suffix == ".npz":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
            index = []
            for i, t in enumerate(trajectories):
                d = t.to_dict()
                index.append({k: d[k] for k in ("episode_id", "stop", "surfaces", "termination") if k in d})
                for name in ("positions", *_ARRAYS):
                    v = getattr(t, name)
                    if v is not None:
                        _zip_array(z, f"t{i}.{name}", v)
            _zip_array(z, "index", np.array(json.dumps(index, sort_keys=True)))
        return atomic_write_bytes(path, buf.getvalue())
    doc = {"schema": SCHEMA, "trajectories": [t.to_dict() for t in trajectories]}
    if path.name.endswith(".json.gz"):
        return write_json_gz(path, doc)
    return atomic_write_bytes(path, dumps_json(doc, indent=None).encode("utf-8"))


def _zip_array(z: zipfile.ZipFile, name: str, a: np.ndarray) -> None:
    info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    b = io.BytesIO()
    np.lib.format.write_array(b, np.ascontiguousarray(a), allow_pickle=False)
    z.writestr(info, b.getvalue())


def load_trajectories(path: str | Path) -> list[Trajectory]:
    """Read a trajectory file written by :func:`save_trajectories` (validated)."""
    file = str(path)
    p = Path(path)
    if p.suffix == ".npz":
        arrays = read_npz(p, NPZ_SCHEMA)
        if arrays["index"].size != 1:
            raise EpisodeFormatError(file, "index", "one JSON text", f"{arrays['index'].size} values")
        try:
            index = loads_json(str(arrays["index"].reshape(-1)[0]))
        except ValueError as e:
            raise EpisodeFormatError(file, "index", "the JSON list of trajectory records", str(e)) from None
        if not isinstance(index, list):
            raise EpisodeFormatError(file, "index", "a JSON list of trajectory records", type(index).__name__)
        out = []
        for i, rec in enumerate(index):
            if not isinstance(rec, dict):
                raise EpisodeFormatError(file, f"index[{i}]", "an object with episode_id, stop, ...", rec)
            d = dict(rec)
            for name in ("positions", *_ARRAYS):
                if f"t{i}.{name}" in arrays:
                    d[name] = arrays[f"t{i}.{name}"]
            out.append(Trajectory.from_dict(d, file, f"trajectories[{i}]"))
        return out
    try:
        doc = read_json(p)
    except (OSError, ValueError) as e:
        raise EpisodeFormatError(file, "<file>", "a navbench trajectory JSON file", str(e)) from e
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise EpisodeFormatError(file, "schema", f"'{SCHEMA}'", doc.get("schema") if isinstance(doc, dict) else None)
    items = doc.get("trajectories")
    if not isinstance(items, list):
        raise EpisodeFormatError(file, "trajectories", "a list")
    return [Trajectory.from_dict(d, file, f"trajectories[{i}]") for i, d in enumerate(items)]
