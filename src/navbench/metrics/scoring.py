"""Scoring of external runs: prediction files → trajectories → metrics table (SPEC §4, §5).

Prediction formats:

- ``r2r`` (VLN-CE): one JSON object ``{episode_id: [{"position": [x,y,z], "heading": yaw,
  "stop": bool}, ...]}``; the first entry is the start; the trajectory ends at the first
  ``"stop": true`` (stopped) or at the last entry (not stopped);
- ``rxr`` (RxR-Habitat): JSON lines ``{"instruction_id": ..., "path": [[x,y,z], ...]}``; the
  path ends where the agent stopped; ``instruction_id`` matches the episode's
  ``instruction.instruction_id`` (kept in ``info["instruction"]``) or else its episode id;
- ``navbench``: a navbench trajectory file (:mod:`navbench.metrics.trajectory`).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from navbench.episodes import Episode
from navbench.errors import EpisodeFormatError
from navbench.io import atomic_write_text, loads_json, read_json, write_json
from navbench.jsontypes import JSON, JSONMapping, JSONObject
from navbench.metrics.aggregate import aggregate, branch_confusion_counts, label_counts
from navbench.metrics.episode import METRIC_KEYS, compute_episode_metrics, failure_metrics
from navbench.metrics.fidelity import DtwMethod
from navbench.metrics.trajectory import EpisodeFacts, Trajectory, load_trajectories
from navbench.paths import inside, safe_name
from navbench.scene.validate import MAX_COORD

if TYPE_CHECKING:  # metrics never import the navmesh at run time (see NavmeshGeodesic)
    from navbench.nav import NavMesh

PredictionFormat = Literal["auto", "r2r", "rxr", "navbench"]
#: Limits of every prediction reader (README "Robustness / limits"): the file's size on disk
#: (gzip: also the decompressed text) and the points of one episode's path. 100,000 points are
#: 2.8 h of 10 Hz steps (NavVerse's timeout is 300 s; VLN-CE's 500 steps); a longer path is not
#: a trajectory but a denial of service (a 1.6 M-point rxr path took 103 s and 725 MB).
MAX_PREDICTION_BYTES = 256 << 20
MAX_PATH_POINTS = 100_000
#: ``fn(episode, positions (T, 3)) -> (T,)`` geodesic distances to the episode's nearest goal.
GeodesicFn = Callable[[Episode, np.ndarray], np.ndarray]
#: ``fn(episode, positions (T, 3)) -> (T,)`` bool: which positions lie off the navmesh.
OffMeshFn = Callable[[Episode, np.ndarray], np.ndarray]


def detect_format(path: str | Path) -> str:
    """Guess a prediction format from the file name and content."""
    p = Path(path)
    if p.suffix == ".npz":
        return "navbench"
    if p.name.endswith((".jsonl", ".jsonl.gz")):
        return "rxr"
    try:
        data = read_json(p)
    except ValueError:
        return "rxr"  # JSON lines do not parse as one document
    except OSError as e:
        raise EpisodeFormatError(path, "<file>", "a readable prediction file", str(e)) from e
    return "navbench" if isinstance(data, dict) and "schema" in data else "r2r"


def _step_position(v: JSON, file: str, where: str) -> list[float]:
    if not (isinstance(v, list) and len(v) == 3 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in v
    )):
        raise EpisodeFormatError(file, where, "[x, y, z] of finite numbers", v)
    if max(abs(float(x)) for x in v) > MAX_COORD:
        raise EpisodeFormatError(file, where, f"a position within ±{MAX_COORD:g} m (the scene extent "
                                 "limit)", v)
    return [float(x) for x in v]


def read_r2r_predictions(path: str | Path) -> dict[str, Trajectory]:
    """Read a VLN-CE ``r2r`` prediction file (validated; errors name the episode and step)."""
    file = str(path)
    try:
        data = read_json(path)
    except (OSError, ValueError) as e:
        raise EpisodeFormatError(file, "<file>", "a JSON object {episode_id: [steps]}", str(e)) from e
    if not isinstance(data, dict):
        raise EpisodeFormatError(file, "<root>", "a JSON object {episode_id: [steps]}", type(data).__name__)
    out: dict[str, Trajectory] = {}
    for eid, steps in data.items():
        if not isinstance(steps, list) or not steps:
            raise EpisodeFormatError(file, str(eid), "a non-empty list of steps", steps)
        if len(steps) > MAX_PATH_POINTS:
            raise EpisodeFormatError(file, str(eid), f"at most {MAX_PATH_POINTS:,} steps per episode",
                                     f"{len(steps):,} steps")
        pos, head, stopped = [], [], False
        for i, s in enumerate(steps):
            w = f"{eid}[{i}]"
            if not isinstance(s, dict) or "position" not in s:
                raise EpisodeFormatError(file, w, "an object with position, heading, stop", s)
            pos.append(_step_position(s["position"], file, f"{w}.position"))
            h = s.get("heading", 0.0)
            if isinstance(h, list) and len(h) == 1:  # some exporters wrap the heading
                h = h[0]
            if isinstance(h, bool) or not isinstance(h, (int, float)):
                raise EpisodeFormatError(file, f"{w}.heading", "a number (radians)", h)
            head.append(float(h))
            stop = s.get("stop", False)
            if not isinstance(stop, bool):
                raise EpisodeFormatError(file, f"{w}.stop", "true or false", stop)
            if stop:
                stopped = True
                break
        out[str(eid)] = Trajectory(str(eid), np.array(pos), stopped, headings=np.array(head))
    return out


def read_rxr_predictions(path: str | Path) -> dict[str, Trajectory]:
    """Read an RxR-Habitat JSON-lines prediction file, keyed by ``str(instruction_id)``."""
    file = str(path)
    try:
        raw = Path(path).read_bytes()
        if file.endswith(".gz"):
            import zlib

            try:
                d = zlib.decompressobj(wbits=31)
                raw = d.decompress(raw, MAX_PREDICTION_BYTES + 1)
                if len(raw) > MAX_PREDICTION_BYTES:
                    raise OSError(f"more than {MAX_PREDICTION_BYTES:,} bytes of decompressed text")
                if not d.eof:
                    raise EOFError
            except (EOFError, zlib.error) as e:
                raise OSError(f"damaged gzip stream ({e or 'truncated'})") from None
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise EpisodeFormatError(file, "<file>", "a readable UTF-8 (gzip) JSON-lines file", str(e)) from None
    out: dict[str, Trajectory] = {}
    for n, line in enumerate(io.StringIO(text), start=1):
        if not line.strip():
            continue
        if line.count("[") > MAX_PATH_POINTS + 1:  # counted before parsing: a bound on the points
            raise EpisodeFormatError(file, f"line {n}.path", f"at most {MAX_PATH_POINTS:,} points",
                                     f"about {line.count('[') - 1:,} points")
        try:
            rec = loads_json(line)
        except ValueError as e:
            raise EpisodeFormatError(file, f"line {n}", "a JSON object", line[:60]) from e
        if not isinstance(rec, dict) or "instruction_id" not in rec or "path" not in rec:
            raise EpisodeFormatError(file, f"line {n}", "an object with instruction_id and path", rec)
        path_ = rec["path"]
        if not isinstance(path_, list) or not path_:
            raise EpisodeFormatError(file, f"line {n}.path", "a non-empty list of [x, y, z]", path_)
        if len(path_) > MAX_PATH_POINTS:
            raise EpisodeFormatError(file, f"line {n}.path", f"at most {MAX_PATH_POINTS:,} points",
                                     f"{len(path_):,} points")
        pts = [_step_position(p, file, f"line {n}.path[{i}]") for i, p in enumerate(path_)]
        key = str(rec["instruction_id"])
        out[key] = Trajectory(key, np.array(pts), True)
    return out


def read_predictions(path: str | Path, fmt: PredictionFormat = "auto") -> dict[str, Trajectory]:
    """Prediction file → ``{key: Trajectory}`` (key = episode id, or instruction id for rxr),
    within :data:`MAX_PREDICTION_BYTES` and :data:`MAX_PATH_POINTS`."""
    if not Path(path).is_file():
        raise EpisodeFormatError(path, "<file>", "an existing prediction file")
    size = Path(path).stat().st_size
    if size > MAX_PREDICTION_BYTES:
        raise EpisodeFormatError(path, "<file>", f"a prediction file of at most {MAX_PREDICTION_BYTES:,} bytes",
                                 f"{size:,} bytes")
    f = detect_format(path) if fmt == "auto" else fmt
    if f == "r2r":
        return read_r2r_predictions(path)
    if f == "rxr":
        return read_rxr_predictions(path)
    if f == "navbench":
        trajs = load_trajectories(path)
        for t in trajs:
            if len(t.positions) > MAX_PATH_POINTS:
                raise EpisodeFormatError(path, f"trajectory {t.episode_id}.positions",
                                         f"at most {MAX_PATH_POINTS:,} points", f"{len(t.positions):,} points")
        return {t.episode_id: t for t in trajs}
    raise EpisodeFormatError(path, "<format>", "one of auto, r2r, rxr, navbench", fmt)


def _prediction_key(ep: Episode, fmt: str) -> str:
    if fmt == "rxr":
        instr = ep.info.get("instruction")
        if isinstance(instr, dict) and "instruction_id" in instr:
            return str(instr["instruction_id"])
    return ep.episode_id


@dataclass
class ScoreResult:
    """Per-episode rows, aggregates and diagnostics of one scored run."""

    rows: list[JSONObject]
    summary: JSONObject
    terminations: dict[str, int]
    branch_confusion: dict[str, int]
    missing: list[str]
    unmatched: list[str]
    settings: JSONObject
    notes: list[str] = field(default_factory=list)

    @property
    def unreachable(self) -> list[str]:
        """Ids of episodes whose goal is unreachable (flagged, excluded from means)."""
        return [r["episode_id"] for r in self.rows if not r["reachable"]]

    def to_json(self) -> JSONObject:
        """The ``metrics.json`` document."""
        return {
            "settings": self.settings,
            "notes": self.notes,
            "summary": self.summary,
            "terminations": self.terminations,
            "branch_confusion": self.branch_confusion,
            "unreachable": self.unreachable,
            "missing_predictions": self.missing,
            "unmatched_predictions": self.unmatched,
            "episodes": self.rows,
        }


def score_episodes(
    episodes: Sequence[Episode],
    predictions: Mapping[str, Trajectory],
    *,
    fmt: str = "r2r",
    tau: float | None = 3.0,
    strict: bool = True,
    require_stop: bool = True,
    dtw_method: DtwMethod = "exact",
    geodesic: GeodesicFn | None = None,
    gt: Mapping[str, JSONMapping] | None = None,
    start_length: Callable[[Episode], float] | None = None,
    off_mesh: OffMeshFn | None = None,
    missing: Literal["fail", "skip"] = "fail",
) -> ScoreResult:
    """Score predictions against episodes (defaults follow VLN-CE: τ = 3.0 m, ``d < τ``).

    ``tau=None`` uses each episode's own success distance. With ``geodesic`` the distance to a
    point goal is geodesic per step, else (and to object goals with a size, as ``evaluate``
    measures them) the 3D Euclidean (NavVerse) form; reachability is then decided
    once per episode from the navmesh (the geodesic from the start: ``inf`` = unreachable,
    flagged and excluded from every mean), and an unknown L is taken from it; ``start_length``
    (e.g. :meth:`NavmeshGeodesic.start_length`) decides it instead, so that object goals off the
    navmesh count as reachable through their reference path's end. ``off_mesh`` (e.g.
    :meth:`NavmeshGeodesic.off_navmesh`) marks each geodesically scored row's
    ``stop_off_navmesh`` (its stop point lies off the navmesh; :class:`NavmeshGeodesic` scores
    such a point as given, not from the nearest navigable point) and counts them in
    ``settings["stop_off_navmesh"]``. ``gt`` (the
    ``{split}_gt.json.gz`` records by episode id) supplies the nDTW reference locations; without
    it the reference path resampled every 0.25 m is used. Episodes without a prediction are
    listed in ``missing``; with ``missing="fail"`` (default) each is also a failed row
    (termination ``no_prediction``, :func:`~navbench.metrics.episode.failure_metrics`: SR 0,
    SPL 0, ...), so that a run whose agent crashed on the episodes it would fail never scores
    above the same run without crashes; ``"skip"`` leaves them out of every mean. Predictions
    matching no episode are listed in ``unmatched``.
    """
    if missing not in ("fail", "skip"):
        raise ValueError(f"missing: expected 'fail' or 'skip', got {missing!r}")
    rows: list[JSONObject] = []
    missing_ids: list[str] = []
    used: set[str] = set()
    n_euclid = 0  # episodes scored with the Euclidean d_t although a navmesh was given
    n_off = 0  # geodesically scored episodes whose stop point is off the navmesh
    for ep in episodes:
        key = _prediction_key(ep, fmt)
        traj = predictions.get(key)
        if traj is None:
            missing_ids.append(ep.episode_id)
            if missing == "fail":
                rows.append(_no_prediction_row(ep, tau, gt, geodesic, start_length))
            continue
        used.add(key)
        facts = EpisodeFacts.from_episode(ep, success_distance=tau,
                                          gt=None if gt is None else gt.get(str(ep.episode_id)))
        gd = None
        if geodesic is not None:
            # object goals with a size: NavVerse's d_t (3D minus half the size), as evaluate's
            # distance="auto" measures them; point goals: geodesic per step
            point_goals = all(g.size is None for g in ep.goals)
            gd = geodesic(ep, traj.positions) if point_goals else None
            L = (float(start_length(ep)) if start_length is not None  # once per episode
                 else float(geodesic(ep, np.asarray([ep.start_position]))[0]))
            if math.isinf(L) or math.isnan(facts.geodesic_distance):
                facts = replace(facts, geodesic_distance=L)
            if gd is not None and math.isfinite(L) and not np.isfinite(gd).all():
                gd = None  # a goal off the navmesh (inside furniture): NavVerse Euclidean d_t
            n_euclid += gd is None
        off = None
        if gd is not None and off_mesh is not None:
            off = bool(np.asarray(off_mesh(ep, traj.positions[-1:])).reshape(-1)[0])
            n_off += off
        row = compute_episode_metrics(
            Trajectory(ep.episode_id, traj.positions, traj.stopped, traj.timestamps,
                       traj.headings, traj.collisions, traj.obstacle_distances,
                       traj.surfaces, traj.termination, traj.preferred),
            facts, strict=strict, require_stop=require_stop, goal_distances=gd,
            dtw_method=dtw_method,
        )
        if off is not None:
            row["stop_off_navmesh"] = off
        rows.append({**{k: v for k, v in facts.fields.items() if k not in row}, **row})
    unmatched = sorted(set(predictions) - used)
    if predictions and not rows:
        raise EpisodeFormatError(
            "<predictions>", "episode ids", "ids matching the episodes file",
            sorted(predictions)[:5],
        )
    taus = sorted({float(r["tau"]) for r in rows})
    settings = {
        "format": fmt, "tau": tau if tau is not None else (taus[0] if len(taus) == 1 else taus),
        "tau_source": "given" if tau is not None else "episodes",
        "comparison": "<" if strict else "<=",
        "require_stop": require_stop, "dtw_method": dtw_method,
        "ndtw_reference": "gt_locations" if gt is not None else "dense_reference",
        "distance_to_goal": ("euclidean" if geodesic is None or n_euclid == len(rows) else
                             "geodesic" if not n_euclid else
                             f"geodesic ({len(rows) - n_euclid} point-goal episodes), euclidean "
                             f"({n_euclid} object-goal episodes)"),
    }
    if off_mesh is not None and geodesic is not None:
        settings["stop_off_navmesh"] = n_off
    return ScoreResult(
        rows=rows, summary=aggregate(rows), terminations=label_counts(rows),
        branch_confusion=branch_confusion_counts(rows), missing=missing_ids,
        unmatched=unmatched, settings=settings,
    )


def _no_prediction_row(ep: Episode, tau: float | None, gt: Mapping[str, JSONMapping] | None,
                       geodesic: GeodesicFn | None,
                       start_length: Callable[[Episode], float] | None) -> JSONObject:
    """The failed row of an episode without a prediction; L and reachability as scored rows get
    them (from the navmesh when given)."""
    facts = EpisodeFacts.from_episode(ep, success_distance=tau,
                                      gt=None if gt is None else gt.get(str(ep.episode_id)))
    if geodesic is not None:
        L = (float(start_length(ep)) if start_length is not None
             else float(geodesic(ep, np.asarray([ep.start_position]))[0]))
        if math.isinf(L) or math.isnan(facts.geodesic_distance):
            facts = replace(facts, geodesic_distance=L)
    row = failure_metrics(facts, termination="no_prediction")
    return {**{k: v for k, v in facts.fields.items() if k not in row}, "episode_id": ep.episode_id,
            **row}


def per_episode_csv(rows: Sequence[JSONMapping]) -> str:
    """CSV text of the rows (columns: id, metrics, then the other fields; empty = undefined)."""
    cols = ["episode_id", "reachable", *METRIC_KEYS]
    for r in rows:
        cols.extend(k for k in r if k not in cols)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow(["" if r.get(c) is None else _cell(r.get(c)) for c in cols])
    return buf.getvalue()


def _cell(v: object) -> object:
    return repr(v) if isinstance(v, float) else v


def write_score(result: ScoreResult, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``metrics.json`` and ``per_episode.csv`` into ``out_dir`` (atomically)."""
    out = Path(out_dir)
    j = write_json(out / "metrics.json", result.to_json())
    c = atomic_write_text(out / "per_episode.csv", per_episode_csv(result.rows))
    return j, c


class NavmeshGeodesic:
    """A :data:`GeodesicFn` over ``<scene>.npz`` navmeshes of a folder (loaded once each); the
    scene key is ``info["navbench"]["scene"]``, else the stem of ``scene_id``.

    A position p on the navmesh is scored by its geodesic distance to the nearest goal. A
    position off it is scored as given, never from the nearest navigable point s alone (that
    would move a stop 1.04 m from the goal to 0.95 m): ``‖p − s‖ + geodesic(s)``, the walk from
    p through s, which is never less than the straight-line distance ``‖p − g‖``; the
    straight-line distance itself when no navigable point lies within the navmesh's
    ``snap_radius``. (A plain straight line would count a stop beside a wall as reaching a goal
    in the next room.)
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, NavMesh] = {}

    def navmesh(self, ep: Episode) -> NavMesh:
        """The navmesh of the episode's scene (``EpisodeFormatError`` when missing)."""
        from navbench.nav import NavMesh  # lazy: metrics never import the navmesh at module level

        key = str(ep.navbench.get("scene") or Path(ep.scene_id).name.split(".")[0])
        if key not in self._cache:
            f = inside(self.root, f"{safe_name(key)}.npz")
            if not f.is_file():
                raise EpisodeFormatError(f, "<file>", f"the navmesh of scene {key!r} for episode {ep.episode_id}")
            self._cache[key] = NavMesh.load(f)
        return self._cache[key]

    def off_navmesh(self, ep: Episode, positions: np.ndarray) -> np.ndarray:
        """``(T,)`` bool: the positions that lie off the episode scene's navmesh (an
        :data:`OffMeshFn`)."""
        nm = self.navmesh(ep)
        pts = np.asarray(positions, float).reshape(-1, 3)
        return np.array([nm.island_of(p) is None for p in pts], dtype=bool)

    def __call__(self, ep: Episode, positions: np.ndarray) -> np.ndarray:
        nm = self.navmesh(ep)
        goals = np.array([g.position for g in ep.goals], float).reshape(-1, 3)
        pts = np.asarray(positions, float).reshape(-1, 3)
        off = self.off_navmesh(ep, pts)
        if not off.any():
            return np.asarray(nm.geodesic_distances(pts, goals), float)
        # off the navmesh: from the nearest navigable point on a goal's island (as the search
        # itself would snap), plus the way there
        isl = next((i for i in (nm.island_of(g) for g in goals) if i is not None), None)
        query, offset = pts.copy(), np.zeros(len(pts))
        straight = np.zeros(len(pts), dtype=bool)
        for k in np.flatnonzero(off):
            s = nm.snap_point(pts[k], isl) if isl is not None else None
            s = nm.snap_point(pts[k]) if s is None else s
            if s is None:
                straight[k] = True
            else:
                query[k], offset[k] = s, float(np.linalg.norm(pts[k] - s))
        d = np.asarray(nm.geodesic_distances(query, goals), float) + offset
        if straight.any() and len(goals):
            d[straight] = np.linalg.norm(pts[straight, None, :] - goals[None, :, :], axis=2).min(axis=1)
        return d

    def start_length(self, ep: Episode) -> float:
        """L from the start, decided once per episode (:func:`~navbench.episodes.reachability.start_geodesic`)."""
        from navbench.episodes.reachability import start_geodesic

        return start_geodesic(self.navmesh(ep), ep)


def navmesh_geodesic(navmesh_dir: str | Path) -> NavmeshGeodesic | None:
    """A :class:`NavmeshGeodesic` over ``navmesh_dir/<scene>.npz`` files, or ``None`` if the
    folder is absent or empty."""
    root = Path(navmesh_dir)
    if not root.is_dir() or not any(root.glob("*.npz")):
        return None
    return NavmeshGeodesic(root)
