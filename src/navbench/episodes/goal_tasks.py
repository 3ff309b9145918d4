"""ObjectNav and PlaceNav episodes (NavVerse App. 8.1, SPEC §7).

Per episode: a goal category drawn uniformly among the scene's categories; a start sampled on
the largest navmesh island; a shortest path to the approach points
(:mod:`navbench.episodes.approach`, within 1 m of the footprint and at NavVerse distance to
goal ≤ τ − 0.2 m, :func:`goal_approach`; an object in a room is approached from inside that
room) of every instance of the category. Every instance of the category with approach points
is a goal of every episode of that category in the scene (habitat's ``goals_by_category``:
one goal list per scene and category, so a habitat scorer and navbench count the same
instances); a start is kept when the closest instance has 5 ≤ L ≤ 50 m, so every goal is at
least 5 m away (NavVerse keeps only instances with L in [5, 50] m; here farther ones are goals
too, as habitat would score them), else retry, then drop.
The start yaw faces the next waypoint of the closest instance's path ± U(−30°, 30°).
``geodesic_distance`` = L of the closest instance; its path is the reference path. Each goal
carries its approach points as ``view_points`` (habitat's success area).

Indoor-to-outdoor scenes (``scene.kind == "hybrid"``, NavVerse App. 8.1): starts are sampled
inside the house rooms (:func:`indoor_start`) and goal instances are the outdoor ones within
the scene's neighbourhood radius of the indoor anchor (:func:`outdoor_instances`);
``info.navbench.stage_start = "indoor"``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from navbench.episodes.approach import Approach, approach_points, object_room
from navbench.episodes.conditional import path_yaw, scene_path
from navbench.episodes.model import Episode, Goal
from navbench.episodes.starts import near_start, samples_near_goals, start_sampler
from navbench.geometry import goal_surface_distance, quat4, vec3, wrap_angle, yaw_to_quaternion
from navbench.nav import NavMesh
from navbench.rng import derive
from navbench.scene.model import Room, Scene
from navbench.tasks.objectnav import SUCCESS_DISTANCE, GoalInstance, object_instances
from navbench.tasks.placenav import place_instances


@dataclass(frozen=True)
class GoalTaskSettings:
    """NavVerse sampling options (metres, degrees). ``success_distance`` τ = 1.0 + r_robot of
    the robot the dataset is built for; approach points lie at NavVerse distance to goal
    ≤ τ − ``stop_margin`` so that a follower stopping near a path's end still succeeds; starts
    and approach points keep ``end_clearance`` (m) from obstacles (the robot turns there)."""

    min_path: float = 5.0
    max_path: float = 50.0
    yaw_jitter_deg: float = 30.0
    approach_distance: float = 1.0
    success_distance: float = SUCCESS_DISTANCE
    stop_margin: float = 0.2
    start_tries: int = 10
    neighbourhood_radius: float = 50.0
    end_clearance: float = 0.0


def goal_approach(nm: NavMesh, inst: GoalInstance, s: GoalTaskSettings, room: Room | None = None
                  ) -> Approach | None:
    """Approach points of a goal instance from which the episode succeeds: within
    ``approach_distance`` of its footprint (or, failing that, of its goal position) and at
    NavVerse distance to goal (:func:`~navbench.geometry.goal_surface_distance`, 3D, to the
    goal position less half its horizontal size) at most ``success_distance − stop_margin``;
    inside ``room`` (the instance's room, :func:`~navbench.episodes.approach.object_room`) when given."""
    r = 0.5 * max(inst.size[0], inst.size[2]) if inst.size is not None else 0.0
    limit = s.success_distance - s.stop_margin
    xz = (inst.position[0], inst.position[2])
    for lo, hi, reach in ((inst.lo, inst.hi, s.approach_distance), (xz, xz, max(limit + r, 0.0))):
        ap = approach_points(nm, lo, hi, 0, reach, y=inst.y, min_clearance=s.end_clearance, room=room)
        if ap is None:
            continue
        dtg = np.array([goal_surface_distance(p, [inst.position], [r]) for p in ap.points])
        keep = dtg <= limit
        if keep.any():
            return Approach(ap.points[keep], ap.distances[keep])
    return None


def outdoor_instances(scene: Scene, inst: dict[str, list[GoalInstance]], radius: float
                      ) -> dict[str, list[GoalInstance]]:
    """Instances outside every room and within ``radius`` m (XZ) of ``meta["indoor_anchor"]``
    (``meta["neighbourhood_radius"]`` overrides ``radius``); empty categories are removed."""
    from navbench.scene.stages import indoor_mask

    anchor = scene.meta.get("indoor_anchor")
    r = float(scene.meta.get("neighbourhood_radius", radius))
    out: dict[str, list[GoalInstance]] = {}
    for cat, items in inst.items():
        pts = np.array([i.position for i in items], float).reshape(-1, 3)
        keep = ~indoor_mask(scene, pts)
        if anchor is not None:
            keep &= np.hypot(pts[:, 0] - anchor[0], pts[:, 2] - anchor[2]) <= r
        kept = [i for i, k in zip(items, keep, strict=True) if k]
        if kept:
            out[cat] = kept
    return out


def goal_episodes(task: str, scene: Scene, nm: NavMesh, seed: int, n: int, drop: Counter[str],
                  settings: GoalTaskSettings | None = None, first: int = 0) -> list[Episode]:
    """``n`` draws (numbers ``first`` … ``first + n − 1``, each its own random stream) of
    ``task`` (``objectnav`` or ``placenav``) episodes; failures counted in ``drop``.

    In scenes much larger than the goal range (:func:`~navbench.episodes.starts.
    samples_near_goals`: a 1 km² city) a start is drawn within ``max_path`` m (XZ) of an
    instance of the drawn category (uniform among them), area-uniform there; elsewhere
    area-uniform on the largest island (indoors in hybrid scenes)."""
    s = settings or GoalTaskSettings()
    inst = object_instances(scene) if task == "objectnav" else place_instances(scene)
    if scene.kind == "hybrid":
        inst = outdoor_instances(scene, inst, s.neighbourhood_radius)
    if not inst or not nm.islands:
        drop["no_goal_categories" if not inst else "no_island"] += n
        return []
    cats = list(inst)
    aps = {i.id: goal_approach(nm, i, s, object_room(scene, i.id) if task == "objectnav" else None)
           for v in inst.values() for i in v}
    base = start_sampler(scene, nm)
    near = scene.kind != "hybrid" and samples_near_goals(nm, s.max_path)

    def sample(rng: np.random.Generator, cands: list[GoalInstance]) -> np.ndarray | None:
        if not near:
            return base(rng)
        i = cands[int(rng.integers(len(cands)))]
        return near_start(nm, rng, (i.position[0], i.y, i.position[2]), s.max_path)

    out = []
    for k in range(first, first + n):
        rng = derive(seed, scene.id, task, k)
        cat = cats[int(rng.integers(len(cats)))]
        cands = [i for i in inst[cat] if aps[i.id] is not None]
        if not cands:
            drop["no_approach"] += 1
            continue
        ep = None
        for _ in range(s.start_tries):
            ep = _try(task, scene, nm, rng, cat, cands, aps, s, k, sample)
            if ep is not None:
                break
        if ep is None:
            drop["no_instance_in_range"] += 1
            continue
        out.append(ep)
    return out


def _try(task: str, scene: Scene, nm: NavMesh, rng: np.random.Generator, cat: str,
         cands: list[GoalInstance], aps: dict, s: GoalTaskSettings, k: int,
         sample: Callable[[np.random.Generator, list[GoalInstance]], np.ndarray | None]
         ) -> Episode | None:
    start = sample(rng, cands)
    if start is None or (s.end_clearance > nm.settings.agent_radius
                         and nm.distance_to_obstacle(start) < s.end_clearance):
        return None
    kept = []  # every reachable instance; all of ``cands`` are the episode's goals
    for i in cands:
        sp = nm.find_path(start, aps[i.id].points)
        if sp.points is not None and math.isfinite(sp.geodesic_distance):
            kept.append((sp.geodesic_distance, i, np.asarray(sp.points, float)))
    if not kept:
        return None
    kept.sort(key=lambda t: (t[0], t[1].id))
    length, closest, path = kept[0]
    if not s.min_path <= length <= s.max_path:  # the closest goal is habitat's d_0
        return None
    yaw = wrap_angle(path_yaw(path) + math.radians(float(rng.uniform(-s.yaw_jitter_deg, s.yaw_jitter_deg))))
    goals = tuple(Goal(i.position, s.success_distance, i.id, i.size,
                       tuple(vec3(p) for p in aps[i.id].points)) for i in cands)
    nb = {"task": task, "scene": scene.id, "scene_kind": scene.kind, "source": scene.source,
          "success_distance": s.success_distance, "closest_goal": closest.id,
          "goal_path_lengths": {i.id: round(float(d), 6) for d, i, _ in kept}}
    if scene.kind == "hybrid":
        nb["stage_start"] = "indoor"
    return Episode(
        episode_id=f"{scene.id}:{k}", scene_id=scene_path(scene.id),
        start_position=vec3(path[0]), start_rotation=quat4(yaw_to_quaternion(yaw)),
        goals=goals, reference_path=tuple(vec3(p) for p in path),
        geodesic_distance=float(length), object_category=cat, info={"navbench": nb},
    )

