"""Test scaffolding: conditional episodes for generated houses, built independently of the
agents (brute-force approach points on the navmesh, shortest paths through the targets)."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from navbench.episodes import Episode, Goal
from navbench.nav import NavMesh, NavSettings
from navbench.rng import derive
from navbench.scene.model import Scene
from navbench.tasks.conditional import generate_instructions, program_to_dict

TAU = 1.0


def nav_for(scene: Scene, radius: float = 0.45) -> NavMesh:
    return NavMesh.build(scene, dataclasses.replace(NavSettings.preset("indoor"), agent_radius=radius))


def approach_point(nm: NavMesh, obj, island: int) -> np.ndarray | None:
    """Brute force: the navigable point of ``island`` nearest (XZ) to the object centre."""
    c = np.asarray(obj.center, float)
    best, best_d = None, math.inf
    for dx in np.arange(-2.0, 2.0001, 0.1):
        for dz in np.arange(-2.0, 2.0001, 0.1):
            d = math.hypot(dx, dz)
            if d >= best_d:
                continue
            p = np.array([c[0] + dx, 0.0, c[2] + dz])
            if nm.island_of(p) == island:
                best, best_d = p, d
    return best


def conditional_episodes(scene: Scene, nm: NavMesh, n: int, seed: int) -> list[Episode]:
    rng = derive(seed, "test-episodes", scene.id)
    objs = {o.id: o for o in scene.objects}
    out = []
    for ins in generate_instructions(scene, n, seed):
        start = nm.sample_point(rng, island="largest")
        isl = nm.island_of(start)
        pts = {}
        ok = True
        for oid in (*ins.subgoal_ids, ins.goal_id, *ins.branch_goal_ids):
            p = approach_point(nm, objs[oid], isl)
            if p is None:
                ok = False
                break
            pts[oid] = p
        if not ok:
            continue
        chain = [start] + [pts[o] for o in (*ins.subgoal_ids, ins.goal_id)]
        path = [start]
        length = 0.0
        for a, b in itertools.pairwise(chain):
            sp = nm.find_path(a, b)
            if sp.points is None:
                ok = False
                break
            path.extend(sp.points[1:])
            length += sp.geodesic_distance
        if not ok:
            continue
        yaw = float(rng.uniform(-math.pi, math.pi))
        out.append(Episode(
            episode_id=f"{scene.id}-{len(out)}", scene_id=scene.id, start_position=tuple(start),
            start_rotation=(0.0, math.sin(yaw / 2), 0.0, math.cos(yaw / 2)),
            goals=(Goal(tuple(pts[ins.goal_id]), TAU, ins.goal_id),), instruction_text=ins.text,
            reference_path=tuple(tuple(map(float, p)) for p in path), geodesic_distance=length,
            info={"navbench": {
                "task": "conditional", "success_distance": TAU, "category": ins.category,
                "n_branches": ins.n_branches, "branch_index": ins.branch_index,
                "program": program_to_dict(ins.program), "truths": dict(ins.truths),
                "subgoals": [pts[o].tolist() for o in ins.subgoal_ids],
                "branch_goals": [pts[o].tolist() for o in ins.branch_goal_ids],
            }},
        ))
    return out
