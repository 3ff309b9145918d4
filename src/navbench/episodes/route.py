"""Route-style VLN episodes (NavVerse App. 8.3; VLN-CE R2R layout, SPEC §4).

Per episode: a goal drawn uniformly among the scene's nameable objects and places
(:meth:`~navbench.tasks.route_landmarks.RouteContext.refer`; outdoor scenes with places draw a
place or an object with equal odds); its approach points: next to the object (inside its room,
if it has one), or around a place's entrance point (in front of the door, not anywhere along
the facade); a start on the largest island (hybrid scenes: inside the house, outdoor goals
only — see :mod:`navbench.episodes.goal_tasks`; starts are pre-filtered by straight-line
distance) whose reference path to the approach points is at most ``max_path`` long and whose
L — habitat's d_0, the geodesic start → path end on the navmesh passed in (the dataset's, the
one scoring measures on), stored as ``geodesic_distance`` — is at least ``min_path``;
start yaw facing the path ± U(−30°, 30°). In scenes with roads (``sidewalks_only``) the path
comes from :class:`~navbench.nav.pedestrian.PedestrianPlanner` (no roadway: streets crossed on
crosswalks; yards and lawns costly), its length is ``info.navbench.route_length`` (≥ L), starts
never stand on a crosswalk or road, outdoor starts stand on preferred ground, and parked
vehicles are not goals. The instruction comes from
:func:`navbench.tasks.route.route_instruction`, optionally refined
(:mod:`navbench.tasks.route_refine`). The single goal is the path's end; τ is NavVerse's
1.0 m + r_robot for every task, route VLN included (the dataset builder passes the scene's
robot; VLN-CE's 3.0 m only when asked for). Drop reasons: ``no_goal_candidates``,
``no_island``, ``no_path_in_range``.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from navbench.episodes.approach import approach_points, object_room
from navbench.episodes.conditional import path_yaw, scene_path
from navbench.episodes.goal_tasks import outdoor_instances
from navbench.episodes.model import Episode, Goal
from navbench.episodes.starts import near_start, samples_near_goals, start_sampler
from navbench.geometry import path_length, quat4, vec3, wrap_angle, yaw_to_quaternion
from navbench.nav import NavMesh
from navbench.nav.pedestrian import PedestrianPlanner, has_roadway
from navbench.rng import derive
from navbench.scene.model import Scene
from navbench.scene.procgen.outdoor_groups import VEHICLES
from navbench.tasks.objectnav import SUCCESS_DISTANCE, GoalInstance, object_instances
from navbench.tasks.placenav import place_instances
from navbench.tasks.route import RouteContext, RouteSettings, route_instruction
from navbench.tasks.route_refine import RefineSettings, refine_instruction

#: VLN-CE success distance (m).
#: NavVerse τ = 1.0 + r_robot for the Spot-like robot (the default when no robot is given).
ROUTE_SUCCESS_DISTANCE = SUCCESS_DISTANCE


@dataclass(frozen=True)
class RouteEpisodeSettings:
    """Options of :func:`route_episodes` (metres, degrees).

    Attributes:
        min_path, max_path: smallest L (d_0) and longest reference route (m).
        success_distance: goal radius τ; ``None`` = NavVerse 1.0 + r_robot of the robot the
            dataset is built for (Spot's 1.6 m when called directly).
        yaw_jitter_deg: start yaw = path direction ± U(−jitter, jitter).
        approach_distance: approach points lie within this XZ distance of the goal footprint.
        start_tries: path queries per goal; start_draws: cheap start draws per query;
            goal_tries: goals drawn per episode before it is dropped.
        neighbourhood_radius: hybrid scenes: goals within this distance of the indoor anchor.
        instruction: template options; refine: optional LLM endpoint (``None`` = templates).
        sidewalks_only: in scenes with a roadway, plan reference paths on a pedestrian navmesh
            (sidewalks and crosswalks, never the road, yards and lawns costly;
            :mod:`navbench.nav.pedestrian`).
        end_clearance: starts and goal approach points keep this clearance (m) from obstacles,
            as ObjectNav's do (the robot turns there; ``dataset build`` sets the robot's
            ``EMBODIMENT_END_CLEARANCE``): Spot touched the fridge it stopped at, or the
            armchair beside its start, in 12 of 25 route episodes without it.
    """

    min_path: float = 5.0
    max_path: float = 50.0
    success_distance: float | None = None
    yaw_jitter_deg: float = 30.0
    approach_distance: float = 1.0
    start_tries: int = 10
    start_draws: int = 100
    neighbourhood_radius: float = 50.0
    instruction: RouteSettings = field(default_factory=RouteSettings)
    refine: RefineSettings | None = None
    sidewalks_only: bool = True
    goal_tries: int = 3
    end_clearance: float = 0.0


def route_goals(scene: Scene, ctx: RouteContext, radius: float = 50.0) -> dict[str, list[GoalInstance]]:
    """Nameable goal instances by kind (``object``, ``place``); hybrid scenes: outdoor ones only."""
    objs = object_instances(scene)
    places = place_instances(scene)
    if scene.kind == "hybrid":
        objs, places = outdoor_instances(scene, objs, radius), outdoor_instances(scene, places, radius)
    out = {"object": [i for v in objs.values() for i in v if ctx.refer(i.id) is not None
                      and i.category not in VEHICLES],
           "place": [i for v in places.values() for i in v if ctx.refer(i.id) is not None]}
    return {k: sorted(v, key=lambda i: i.id) for k, v in out.items() if v}


def route_episodes(scene: Scene, nm: NavMesh, seed: int, n: int, drop: Counter[str],
                   settings: RouteEpisodeSettings | None = None, first: int = 0) -> list[Episode]:
    """``n`` draws (numbers ``first`` … ``first + n − 1``) of route episodes; failures counted
    in ``drop`` by reason. Starts lie within ``max_path`` m (XZ) of the goal: drawn there
    directly in scenes much larger than that (:func:`~navbench.episodes.starts.
    samples_near_goals`), else area-uniform and kept when close enough."""
    s = settings or RouteEpisodeSettings()
    if s.success_distance is None:
        s = dataclasses.replace(s, success_distance=ROUTE_SUCCESS_DISTANCE)
    full = nm  # L (d_0) is measured here: the navmesh the dataset ships and scoring uses
    planner: NavMesh | PedestrianPlanner = nm
    if s.sidewalks_only and has_roadway(scene):
        planner = PedestrianPlanner(scene, nm.settings)
        nm = planner.full
    ctx = RouteContext(scene, s.instruction)
    goals = route_goals(scene, ctx, s.neighbourhood_radius)
    if not goals or not nm.islands:
        drop["no_goal_candidates" if not goals else "no_island"] += n
        return []
    aps: dict[str, object] = {}
    base = start_sampler(scene, nm)
    pref = (planner.preferred if isinstance(planner, PedestrianPlanner) and scene.kind != "hybrid"
            else None)

    near = scene.kind != "hybrid" and samples_near_goals(nm, s.max_path)

    def sample(rng: np.random.Generator, goal: GoalInstance) -> np.ndarray | None:
        # outdoors: starts on preferred ground (sidewalks, not yards), never mid-street
        p = near_start(nm, rng, (goal.position[0], goal.y, goal.position[2]), s.max_path) \
            if near else base(rng)
        if p is None or ctx.on_street(p) or (pref is not None and pref.island_of(p) is None):
            return None
        if s.end_clearance > nm.settings.agent_radius and nm.distance_to_obstacle(p) < s.end_clearance:
            return None
        return p

    kinds = sorted(goals)
    out = []
    for k in range(first, first + n):
        rng = derive(seed, scene.id, "route", k)
        path, reason = None, "no_approach"
        for _ in range(s.goal_tries):
            kind = kinds[int(rng.integers(len(kinds)))]
            goal = goals[kind][int(rng.integers(len(goals[kind])))]
            if goal.id not in aps:  # a place: in front of its entrance, not along the whole facade
                ent = (goal.position[0], goal.position[2])
                lo, hi = (goal.lo, goal.hi) if kind == "object" else (ent, ent)
                aps[goal.id] = approach_points(nm, lo, hi, 0, s.approach_distance, y=goal.y,
                                               min_clearance=s.end_clearance,
                                               room=object_room(scene, goal.id) if kind == "object" else None)
            ap = aps[goal.id]
            if ap is None:
                continue
            reason = "no_path_in_range"
            found = _sample_path(planner, full, rng, sample, goal,
                                 ap.points, s)  # type: ignore[attr-defined]
            if found is not None:
                path, d0 = found
                break
        if path is None:
            drop[reason] += 1
            continue
        out.append(_episode(scene, ctx, goal, kind, path, d0, rng, s, k))
    return out


def _sample_path(planner: NavMesh | PedestrianPlanner, full: NavMesh, rng: np.random.Generator,
                 sample: object, goal: GoalInstance, points: np.ndarray, s: RouteEpisodeSettings
                 ) -> tuple[np.ndarray, float] | None:
    """A reference path (N, 3) of length ≤ ``max_path`` and its L (``full`` navmesh geodesic
    start → path end, ≥ ``min_path``), or ``None`` after ``start_tries`` starts."""
    gx, gz = goal.position[0], goal.position[2]
    for _ in range(s.start_tries):
        start = None
        for _ in range(s.start_draws):
            p = sample(rng, goal)  # type: ignore[operator]
            if p is not None and math.hypot(p[0] - gx, p[2] - gz) <= s.max_path:
                start = p
                break
        if start is None:
            continue
        sp = (planner.find_path(start, points, s.max_path) if isinstance(planner, PedestrianPlanner)
              else planner.find_path(start, points))
        if sp.points is None or not (s.min_path <= sp.geodesic_distance <= s.max_path):
            continue
        path = np.asarray(sp.points, float)
        d0 = full.geodesic_distance(path[0], path[-1])
        if s.min_path <= d0 <= s.max_path:
            return path, float(d0)
    return None


def _episode(scene: Scene, ctx: RouteContext, goal: GoalInstance, kind: str, path: np.ndarray,
             d0: float, rng: np.random.Generator, s: RouteEpisodeSettings, k: int) -> Episode:
    yaw = wrap_angle(path_yaw(path) + math.radians(float(rng.uniform(-s.yaw_jitter_deg, s.yaw_jitter_deg))))
    ins = route_instruction(ctx, path, yaw, goal.id, int(rng.integers(2**31)))
    text, status = ins.text, "template"
    if s.refine is not None:
        text, status = refine_instruction(ins.text, [ctx.refer(i) or "" for i in ins.landmarks], s.refine)
    length = path_length(path)
    nb = {
        "task": "route", "scene": scene.id, "scene_kind": scene.kind, "source": scene.source,
        "success_distance": s.success_distance, "goal_kind": kind, "goal_id": goal.id,
        "goal_label": goal.category, "goal_phrase": ins.goal_phrase,
        "goal_instance_position": [float(v) for v in goal.position],
        "landmarks": list(ins.landmarks), "directives": [d.to_dict() for d in ins.directives],
        "n_directives": sum(d.kind != "arrive" for d in ins.directives),
        "simplified_path": [[round(float(c), 4) for c in p] for p in ins.simplified_path],
        "template_text": ins.text, "refine_status": status, "route_length": length,
    }
    if scene.kind == "hybrid":
        nb["stage_start"] = "indoor"
    end = tuple(float(v) for v in path[-1])
    return Episode(
        episode_id=f"{scene.id}:{k}", scene_id=scene_path(scene.id),
        start_position=vec3(path[0]), start_rotation=quat4(yaw_to_quaternion(yaw)),
        goals=(Goal(vec3(end), s.success_distance, goal.id),), instruction_text=text,
        reference_path=tuple(vec3(p) for p in path), geodesic_distance=d0,
        info={"navbench": nb},
    )
