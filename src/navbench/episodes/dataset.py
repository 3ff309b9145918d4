"""Build a navbench dataset directory (layout below), scene-disjoint splits, in parallel.

Layout (``DATASET/``)::

    manifest.json                          counts, dropped, splits, settings, seed, versions,
                                           embodiment (+ per scene kind), navmesh_settings
    scenes/<scene_id>/scene.json           the scenes (episode ``scene_id`` points here)
    navmeshes/<scene_id>.npz               NavMesh.save
    <task>/<split>/<split>.json.gz         VLN-CE R2R (conditional, conditional_oracle, route)
    <task>/<split>/<split>_gt.json.gz      GT locations/actions (0.25 m / 15° follower)
    objectnav|placenav/<split>/<split>.json.gz (+ content/<scene>.json.gz)   habitat ObjectNav

Episode ids are renumbered ``0..n-1`` per file in (scene id, generation order) order; the
generator's id is kept in ``info.navbench.source_id``. Same scenes, settings and seed →
byte-identical directory (no timestamps; every file canonical and written atomically).
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.episodes.budget import within_budget
from navbench.episodes.conditional import ConditionalEpisodeSettings
from navbench.episodes.conditional_build import (  # noqa: F401  (RESAMPLE_ROUNDS re-exported)
    RESAMPLE_ROUNDS,
    conditional_scene,
    split_label_stats,
)
from navbench.episodes.gt import with_gt
from navbench.episodes.instruction_controls import InstructionControls
from navbench.episodes.layout import (  # noqa: F401  (re-exported: the dataset's constants)
    GENERATOR,
    GROUP_KEYS,
    R2R_TASKS,
    SCHEMA,
)
from navbench.episodes.model import Episode
from navbench.episodes.route import RouteEpisodeSettings
from navbench.episodes.task_spec import TASK_SPECS
from navbench.errors import ConfigError
from navbench.io import publish_dir
from navbench.jsontypes import JSONObject
from navbench.paths import check_id, inside
from navbench.rng import child_seed, derive
from navbench.scene.model import Scene

if TYPE_CHECKING:
    from navbench.episodes.loader import Manifest
    from navbench.nav import NavMesh, NavSettings
    from navbench.tasks.conditional import RoomLabelStats

#: Tasks a dataset build generates (:data:`TASK_SPECS` rows not derived from another task;
#: ``conditional`` also writes its derived ``conditional_oracle``), in table order.
TASKS: tuple[str, ...] = tuple(t.name for t in TASK_SPECS if t.derived_from is None)
#: Tasks whose reference paths ``--verify`` replays in the simulator (NavVerse App. 8.2).
VERIFY_TASKS: tuple[str, ...] = tuple(t.name for t in TASK_SPECS if t.verify)


@dataclass(frozen=True)
class DatasetSettings:
    """What :func:`build_dataset` generates per scene.

    Attributes:
        episodes_per_scene: instructions / episodes drawn per scene and task (before drops).
        categories: conditional instruction categories (``None`` = all six).
        conditional: conditional episode options (τ, start facing, ...).
        instructions: conditional instruction controls (relation / cross-room / subgoal
            shares, evidence observability, horizons, margins, smallest reference size;
            :class:`~navbench.episodes.conditional_build.InstructionControls`).
        gt_step, gt_turn_deg: the GT follower's forward step (m) and turn (°).
        navmesh_preset: NavSettings preset per scene kind (outdoor and hybrid scenes use the
            ``outdoor`` preset: 0.25 m cells, 0.25 m agent radius).
        navmesh_overrides: NavSettings fields changed per scene kind. Hybrid scenes use
            0.1 m cells: with 0.25 m cells the house's 0.12–0.2 m walls can fall between cell
            centres and paths leak through them instead of using the exit.
        route: route-VLN episode options (templates, optional LLM refinement).
        embodiment: the robot the dataset is built for (``turtlebot``, ``spot`` or ``None``).
            The navmesh of starts, goals and reference paths of every task keeps the
            embodiment's planning clearance: ``agent_radius = max(preset radius,
            clearance)`` (turtlebot 0.32 m, spot 0.4 m; :data:`navbench.nav.settings.
            EMBODIMENT_CLEARANCE`), and ObjectNav/PlaceNav τ = 1.0 + r_robot of that robot
            (NavVerse: 1.18 m turtlebot, 1.6 m spot). ``None`` = the plain presets
            (habitat-compatible 0.1 m indoors) and Spot's τ 1.6 m.
        embodiment_by_kind: per scene kind, another embodiment than ``embodiment`` (e.g.
            ``{"outdoor": "spot"}``: the Turtlebot cannot climb curbs).
        verify: replay each ObjectNav/PlaceNav/route reference path in the simulator and drop
            rejected episodes (reason ``verify_<reason>``); slow.
        verify_embodiment: embodiment of the verification rollout (``spot`` or ``turtlebot``;
            ``None`` = the scene's dataset embodiment, spot when that is ``None``).
        verify_agent_radius: with ``verify``, navmeshes keep at least this clearance (m) so
            the rollout base fits along the reference paths; ``None`` = the embodiment's
            ``clearance`` (spot 0.4 m, turtlebot 0.32 m). Measured on procedural houses: with
            the indoor preset's 0.1 m both bases get stuck at corners; Spot jams on ~15% of
            paths at 0.4 m (dropped as ``verify_stuck``) and on none at 0.5 m, but at 0.5 m
            most goals in small rooms lose their approach points.
    """

    episodes_per_scene: int = 100
    categories: tuple[str, ...] | None = None
    conditional: ConditionalEpisodeSettings = field(default_factory=ConditionalEpisodeSettings)
    instructions: InstructionControls = field(default_factory=InstructionControls)
    gt_step: float = 0.25
    gt_turn_deg: float = 15.0
    navmesh_preset: dict[str, str] = field(default_factory=lambda: {
        "indoor": "indoor", "outdoor": "outdoor", "hybrid": "outdoor"})
    navmesh_overrides: dict[str, dict[str, float]] = field(default_factory=lambda: {
        "hybrid": {"cell_size": 0.1}})
    route: RouteEpisodeSettings = field(default_factory=RouteEpisodeSettings)
    embodiment: str | None = "turtlebot"
    embodiment_by_kind: dict[str, str | None] = field(default_factory=dict)
    verify: bool = False
    verify_embodiment: str | None = None
    verify_agent_radius: float | None = None

    def __post_init__(self) -> None:
        from navbench.nav.settings import EMBODIMENT_CLEARANCE

        if self.episodes_per_scene < 0:
            raise ConfigError(f"episodes_per_scene: expected >= 0, got {self.episodes_per_scene}")
        names = {"embodiment": self.embodiment, "verify_embodiment": self.verify_embodiment,
                 **{f"embodiment_by_kind[{k!r}]": v for k, v in self.embodiment_by_kind.items()}}
        for key, name in names.items():
            if name is not None and name not in EMBODIMENT_CLEARANCE:
                raise ConfigError(f"DatasetSettings.{key}: expected one of "
                                  f"{sorted(EMBODIMENT_CLEARANCE)} or None, got {name!r}")

    def embodiment_for(self, kind: str) -> str | None:
        """The embodiment the episodes of a scene kind are built for (``None``: none)."""
        return self.embodiment_by_kind.get(kind, self.embodiment)

    def verify_embodiment_for(self, kind: str) -> str:
        """Embodiment of the ``verify`` rollout for a scene kind."""
        return self.verify_embodiment or self.embodiment_for(kind) or "spot"

    def goal_success_distance(self, kind: str) -> float:
        """ObjectNav/PlaceNav τ (m) = 1.0 + r_robot of the kind's embodiment (spot if none)."""
        from navbench.nav.settings import embodiment_radius

        return 1.0 + embodiment_radius(self.embodiment_for(kind) or "spot")

    def end_clearance(self, kind: str) -> float:
        """Clearance (m) of starts and goal approach points for the kind's embodiment
        (:data:`navbench.nav.settings.EMBODIMENT_END_CLEARANCE`; 0 without one)."""
        from navbench.nav.settings import EMBODIMENT_END_CLEARANCE

        emb = self.embodiment_for(kind)
        return 0.0 if emb is None else EMBODIMENT_END_CLEARANCE[emb]

    def nav_settings(self, kind: str) -> NavSettings:
        """The :class:`~navbench.nav.NavSettings` of a scene kind: preset, overrides, then the
        embodiment's clearance (and ``verify_agent_radius`` / the verify body's clearance
        with ``verify``) as a lower bound of ``agent_radius``, and its preset's ``max_climb``
        (Turtlebot 0.02 m: no curbs, crosswalks only) as an upper bound of ``max_climb``."""
        from navbench.nav import NavSettings
        from navbench.nav.settings import embodiment_clearance

        ns = NavSettings.preset(self.navmesh_preset.get(kind, "indoor"),
                                **self.navmesh_overrides.get(kind, {}))
        radius, climb = ns.agent_radius, ns.max_climb
        bodies = [self.embodiment_for(kind)]
        if self.verify:
            bodies.append(self.verify_embodiment_for(kind))
        for emb in bodies:
            if emb is not None:  # paths the robot can follow: its clearance and the steps it climbs
                radius = max(radius, embodiment_clearance(emb))
                climb = min(climb, NavSettings.preset(emb).max_climb)
        if self.verify and self.verify_agent_radius is not None:
            radius = max(radius, self.verify_agent_radius)
        if (radius, climb) == (ns.agent_radius, ns.max_climb):
            return ns
        return ns.replace(agent_radius=radius, max_climb=climb)

    def to_dict(self) -> JSONObject:
        """JSON-able settings (recorded in the manifest)."""
        return dataclasses.asdict(self)


def parse_split(text: str) -> dict[str, float]:
    """``"train=0.8,eval=0.2"`` → ``{"train": 0.8, "eval": 0.2}`` (fractions summing to 1)."""
    out: dict[str, float] = {}
    for part in text.split(","):
        name, sep, frac = part.strip().partition("=")
        try:
            value = float(frac)
        except ValueError:
            value = -1.0
        if not sep or not name.strip() or not 0 <= value <= 1 or name.strip() in out:
            raise ConfigError(f"--split-by-scene: expected NAME=FRACTION,... (e.g. train=0.8,eval=0.2), got {text!r}")
        out[name.strip()] = value
    if abs(sum(out.values()) - 1.0) > 1e-6:
        raise ConfigError(f"--split-by-scene: fractions must sum to 1, got {sum(out.values())}")
    return out


def assign_splits(scene_ids: Sequence[str], split: dict[str, float], seed: int) -> dict[str, list[str]]:
    """Scene-disjoint splits: shuffle the sorted ids with ``seed``, cut by largest remainder."""
    ids = sorted(scene_ids)
    order = [ids[i] for i in derive(seed, "splits").permutation(len(ids))]
    raw = {k: v * len(ids) for k, v in split.items()}
    n = {k: int(v) for k, v in raw.items()}
    for k in sorted(raw, key=lambda k: (-(raw[k] - n[k]), list(split).index(k)))[: len(ids) - sum(n.values())]:
        n[k] += 1
    out, i = {}, 0
    for k in split:
        out[k] = sorted(order[i: i + n[k]])
        i += n[k]
    return out


def load_scenes(scenes: str | Path | Iterable[Scene]) -> list[Scene]:
    """The scenes of a dataset build: every ``scene.json`` under a folder (else its ``*.json``
    but ``index.json``), in path order, or the given scenes; raises ``ConfigError`` for a missing
    folder, no scene files, or duplicate scene ids."""
    from navbench.scene.io import load

    if isinstance(scenes, (str, Path)):
        root = Path(scenes)
        if not root.is_dir():
            raise ConfigError(f"--scenes: expected a directory of scene.json files, got {root}")
        files = sorted(root.rglob("scene.json")) or sorted(
            p for p in root.glob("*.json") if p.name != "index.json")
        if not files:
            raise ConfigError(f"--scenes {root}: no scene.json found")
        out = [load(f) for f in files]
    else:
        out = list(scenes)
    ids = [s.id for s in out]
    dup = sorted(k for k, v in Counter(ids).items() if v > 1)
    if dup:
        raise ConfigError(f"scenes: duplicate scene ids {dup}")
    return sorted(out, key=lambda s: s.id)


# --------------------------------------------------------------------- per-scene work

@dataclass
class SceneResult:
    """Episodes (with GT) of one scene per task, and drop counts per task and reason."""

    scene_id: str
    episodes: dict[str, list[tuple[Episode, JSONObject | None]]]
    dropped: dict[str, dict[str, int]]
    resampled: dict[str, int] = field(default_factory=dict)


def _goal_task(task: str) -> Callable[[Scene, NavMesh, int, DatasetSettings, Counter[str]], list[Episode]]:
    def run(scene: Scene, nm: NavMesh, seed: int, s: DatasetSettings, drop: Counter[str]) -> list[Episode]:
        from navbench.episodes import goal_tasks

        gs = goal_tasks.GoalTaskSettings(success_distance=s.goal_success_distance(scene.kind),
                                         end_clearance=s.end_clearance(scene.kind))
        return goal_tasks.goal_episodes(task, scene, nm, seed, s.episodes_per_scene, drop, gs)
    return run


def _route(scene: Scene, nm: NavMesh, seed: int, s: DatasetSettings, drop: Counter[str]) -> list[Episode]:
    from navbench.episodes.route import route_episodes

    rs = s.route  # NavVerse: τ = 1.0 + r_robot for route VLN too, unless set explicitly
    if rs.success_distance is None:
        rs = dataclasses.replace(rs, success_distance=s.goal_success_distance(scene.kind))
    return route_episodes(scene, nm, seed, s.episodes_per_scene, drop, rs)


#: The episode builder of each task of :data:`TASKS`: ``(scene, navmesh, seed, settings, drop)
#: -> list[Episode]`` (``build_scene`` also passes the conditional one its split's label statistics).
_BUILDERS: dict[str, Callable[[Scene, NavMesh, int, DatasetSettings, Counter[str]], list[Episode]]] = {
    "conditional": conditional_scene, "objectnav": _goal_task("objectnav"),
             "placenav": _goal_task("placenav"), "route": _route}
assert set(_BUILDERS) == set(TASKS), "a TaskSpec row without its builder, or the reverse"


def verify_episodes(scene: Scene, eps: list[Episode], embodiment: str, drop: Counter[str]) -> list[Episode]:
    """Episodes whose reference-path rollout passes :func:`navbench.sim.verify.verify_episode`
    (NavVerse App. 8.2); rejected ones are counted in ``drop`` as ``verify_<reason>``.

    The one place the episode builder reaches downstream into the simulator: quality control
    is part of generation in NavVerse, and it is imported only when asked for.
    """
    if not eps:
        return eps
    from navbench.sim.embodiments import get_embodiment
    from navbench.sim.simulator import SimSettings, Simulator
    from navbench.sim.verify import verify_episode

    emb = get_embodiment(embodiment)
    try:
        sim = Simulator(scene, emb, SimSettings(render=False))
    except (ValueError, RuntimeError) as err:  # the simulator cannot load this scene
        logging.getLogger(__name__).warning("--verify: scene %s: simulator failed (%s); its episodes are dropped",
                                            scene.id, err)
        drop["verify_sim_error"] += len(eps)
        return []
    out = []
    for e in eps:
        # τ of the task (NavVerse 1.0 + r_robot, route VLN too), goal extent from its size
        tau = float(e.navbench.get("success_distance", 1.0 + emb.radius))
        r = verify_episode(scene, e, emb, simulator=sim, tau=tau)
        if r.accepted:
            info = dict(e.info)
            info["navbench"] = {**e.navbench, "verify": {"duration": round(r.duration, 3),
                                                          "travelled": round(r.travelled, 3),
                                                          "embodiment": embodiment}}
            out.append(replace(e, info=info))
        else:
            drop[f"verify_{r.reason}"] += 1
    return out


def build_scene(scene: Scene, tasks: Sequence[str], seed: int, settings: DatasetSettings,
                navmesh_out: str | None = None, label_stats: RoomLabelStats | None = None
                ) -> SceneResult:
    """Navmesh + episodes of every task for one scene (the process-pool unit of work);
    ``label_stats``: the presence-distractor statistics of its split (conditional)."""
    from navbench.nav import NavMesh

    ns = settings.nav_settings(scene.kind)
    nm = NavMesh.build(scene, ns)
    if navmesh_out is not None:
        nm.save(navmesh_out)
    eps: dict[str, list[tuple[Episode, JSONObject | None]]] = {}
    dropped: dict[str, dict[str, int]] = {}
    resampled: dict[str, int] = {}
    for task in tasks:
        drop: Counter[str] = Counter()
        task_seed = child_seed(seed, scene.id, task)
        made = conditional_scene(scene, nm, task_seed, settings, drop, label_stats) \
            if task == "conditional" else _BUILDERS[task](scene, nm, task_seed, settings, drop)
        n_resampled = drop.pop("resampled", 0)
        if n_resampled:
            resampled[task] = n_resampled
        if settings.verify and task in VERIFY_TASKS:
            made = verify_episodes(scene, made, settings.verify_embodiment_for(scene.kind), drop)
        if task in R2R_TASKS:
            eps[task] = within_budget(task, with_gt(made, settings.gt_step, settings.gt_turn_deg, drop),
                                      drop)
        else:
            eps[task] = [(e, None) for e in made]
        dropped[task] = dict(sorted(drop.items()))
    return SceneResult(scene.id, eps, dropped, resampled)


def _job(args: tuple[Scene, tuple[str, ...], int, DatasetSettings, str, RoomLabelStats | None]
         ) -> SceneResult:
    return build_scene(*args)


# --------------------------------------------------------------------- build

def build_dataset(
    scenes: str | Path | Iterable[Scene],
    out: str | Path,
    tasks: Sequence[str] = ("conditional",),
    split: dict[str, float] | str = "train=0.8,eval=0.2",
    seed: int = 0,
    workers: int = 1,
    settings: DatasetSettings | None = None,
    *,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
    scene_ids: dict[str, str] | None = None,
) -> Manifest:
    """Generate a dataset directory (see the module docstring) and return its :class:`Manifest`.

    Parameters
    ----------
    scenes : str, Path or iterable of Scene
        A directory of ``scene.json`` files (searched recursively, see :func:`load_scenes`) or
        Scene objects.
    out : str or Path
        Output directory; built in a temporary sibling and renamed at the end.
    tasks : sequence of str, default ("conditional",)
        Any of :data:`TASKS` (``conditional`` also writes ``conditional_oracle``).
    split : dict or str, default "train=0.8,eval=0.2"
        Split fractions by scene (a scene's episodes all go to one split).
    seed : int, default 0
        Master seed: the same scenes, settings and seed give byte-identical files.
    workers : int, default 1
        Processes (1 = in this process).
    settings : DatasetSettings, optional
        Episodes per scene, categories, embodiment, navmesh presets, ``--verify``, ...
    overwrite : bool, default False
        Replace an existing non-empty ``out``.
    progress : callable, optional
        Called as ``progress(done_scenes, total_scenes)``, first with 0 done.
    scene_ids : dict, optional
        Episode ``scene_id`` per scene id (e.g. habitat GLB stages from
        ``navbench.export.habitat.habitat_scene_ids``); the scene id stays in
        ``info.navbench.scene``. Default: ``scenes/<id>/scene.json``.

    Returns
    -------
    Manifest
        What ``manifest.json`` holds: ``seed``, ``tasks``, ``splits`` (scene ids per split),
        ``files``, ``scenes``, ``counts`` (episodes per task and split, with statistics) and
        ``dropped`` (rejected draws by reason).

    Raises
    ------
    navbench.errors.ConfigError
        Unknown task, bad split, no scenes or duplicate scene ids, or a non-empty ``out``
        without ``overwrite``.

    Examples
    --------
    Two ObjectNav episodes on a two-room house, all in the ``eval`` split:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from navbench.episodes.dataset import DatasetSettings, build_dataset
    >>> from navbench.scene.procgen.indoor import generate_house
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     m = build_dataset([generate_house(0, n_rooms=2)], Path(tmp) / "ds", tasks=["objectnav"],
    ...                       split="eval=1", settings=DatasetSettings(episodes_per_scene=2))
    ...     files = sorted(str(f.relative_to(Path(tmp) / "ds")) for f in Path(tmp, "ds").rglob("*.*"))
    >>> m.counts["objectnav"]["eval"]["total"], m.counts["objectnav"]["eval"]["by_object_category"]
    (2, {'speaker': 1, 'trash can': 1})
    >>> files  # doctest: +NORMALIZE_WHITESPACE
    ['manifest.json', 'navmeshes/house_0_2.npz', 'objectnav/eval/content/house_0_2.json.gz',
     'objectnav/eval/eval.json.gz', 'scenes/house_0_2/scene.json']
    >>> build_dataset([generate_house(0, n_rooms=2)], "unused", tasks=["pointnav"])
    Traceback (most recent call last):
    ...
    navbench.errors.ConfigError: --tasks: expected some of ['conditional', 'objectnav', 'placenav', 'route'], got ['pointnav']
    """
    from navbench.episodes.writer import write_dataset

    s = settings or DatasetSettings()
    bad = [t for t in tasks if t not in TASKS]
    if bad or not tasks:
        raise ConfigError(f"--tasks: expected some of {list(TASKS)}, got {list(tasks)}")
    tasks = tuple(t for t in TASKS if t in tasks)
    fractions = parse_split(split) if isinstance(split, str) else dict(split)
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise ConfigError(f"--out {out}: directory exists and is not empty (use --force to replace it)")
    scene_list = load_scenes(scenes)
    splits = assign_splits([sc.id for sc in scene_list], fractions, seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "navmeshes").mkdir()
        stats = split_label_stats(scene_list, splits, s) if "conditional" in tasks else {}
        jobs = [(sc, tasks, seed, s, str(inside(tmp / "navmeshes", f"{check_id(sc.id, 'scenes', 'id')}.npz")),
                 stats.get(sc.id)) for sc in scene_list]
        results: list[SceneResult] = []
        if progress:
            progress(0, len(jobs))
        if workers <= 1 or len(jobs) <= 1:
            for i, j in enumerate(jobs):
                results.append(_job(j))
                if progress:
                    progress(i + 1, len(jobs))
        else:
            with ProcessPoolExecutor(max_workers=workers) as ex:
                for i, r in enumerate(ex.map(_job, jobs, chunksize=1)):
                    results.append(r)
                    if progress:
                        progress(i + 1, len(jobs))
        if scene_ids is not None:
            results = [with_scene_ids(r, scene_ids) for r in results]
        manifest = write_dataset(tmp, scene_list, results, tasks, splits, seed, s, fractions)
        publish_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


def with_scene_ids(r: SceneResult, scene_ids: dict[str, str]) -> SceneResult:
    """``r`` with every episode's ``scene_id`` = ``scene_ids[r.scene_id]`` (scene id kept in
    ``info.navbench.scene``)."""
    sid = scene_ids[r.scene_id]
    eps = {}
    for task, pairs in r.episodes.items():
        eps[task] = [(replace(e, scene_id=sid, info={**e.info, "navbench": {**e.navbench, "scene": r.scene_id}}), gt)
                     for e, gt in pairs]
    return replace(r, episodes=eps)

