"""Verification rollout (NavVerse App. 8.2): follow an episode's reference path physically.

An episode is accepted when the rollout (i) gets within τ of some goal instance at some time
(oracle success), (ii) lasts 5 < duration ≤ 100 s, (iii) travels 5 < P < 50 m, (iv) ends
without a failure (fall, stuck, timeout), and (v) — ours, so that an oracle on the accepted
episodes has collision rate 0 — never touches a non-ground obstacle (``allow_collisions``). The rollout streams the reference waypoints to the
follower (headings along the path, free final heading) and stops when the last one is reached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from navbench.geometry import path_length, yaw_of_direction
from navbench.scene.model import Scene
from navbench.sim.actions import WaypointAction
from navbench.sim.embodiments import SPOT, Embodiment
from navbench.sim.simulator import EpisodeLike, SimSettings, Simulator


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of one verification rollout.

    Attributes:
        accepted: all criteria hold.
        reason: ``"ok"`` or the first failed criterion (``no_reference_path``, ``fall``,
            ``collision``, ``stuck``, ``timeout``, ``no_oracle_success``, ``too_short``,
            ``too_long``, ``travel_too_short``, ``travel_too_long``).
        duration: simulated seconds until the path end was reached (or the rollout ended).
        travelled: executed 3D path length P (m).
        oracle_success: min over time of the distance to goal ≤ τ.
        min_distance_to_goal: that minimum (m).
        collided: the rollout touched a non-ground obstacle.
    """

    accepted: bool
    reason: str
    duration: float
    travelled: float
    oracle_success: bool
    min_distance_to_goal: float
    collided: bool = False


def reference_waypoints(path: np.ndarray) -> list[tuple[float, float, float]]:
    """(x, z, yaw) waypoints from reference locations: heading of the incoming segment, free
    (``nan``) at the end."""
    pts = np.asarray(path, float)
    out = []
    for i in range(1, len(pts)):
        d = pts[i] - pts[i - 1]
        yaw = yaw_of_direction(d[0], d[2]) if math.hypot(d[0], d[2]) > 1e-9 else math.nan
        out.append((float(pts[i, 0]), float(pts[i, 2]), yaw if i < len(pts) - 1 else math.nan))
    return out


def verify_episode(scene: Scene, episode: EpisodeLike, embodiment: Embodiment = SPOT, *,
                   settings: SimSettings | None = None, max_duration: float = 100.0,
                   min_duration: float = 5.0, min_travel: float = 5.0, max_travel: float = 50.0,
                   stuck_time: float = 10.0, allow_collisions: bool = False,
                   simulator: Simulator | None = None, tau: float | None = None) -> VerifyResult:
    """Run the verification rollout of ``episode`` (``simulator`` may be reused per scene) with
    success distance ``tau`` (m; ``None``: the simulator's :attr:`~Simulator.default_tau`)."""
    ref = getattr(episode, "reference_path", None)
    if ref is None or len(ref) < 2:
        return VerifyResult(False, "no_reference_path", 0.0, 0.0, False, math.inf)
    sim = simulator or Simulator(scene, embodiment, settings or SimSettings(render=False))
    sim.reset(episode, tau=tau)
    wps = reference_waypoints(np.asarray(ref, float))
    sim.step(WaypointAction(tuple(wps)))
    limit = max_duration + 1.0
    best_t, best_p = 0.0, sim.pose()[:3]
    while sim.label is None and not sim.follower.reached and sim.time < limit:
        sim.step(WaypointAction((), append=True))
        p = sim.pose()[:3]
        if np.linalg.norm(p - best_p) > 0.25:
            best_t, best_p = sim.time, p
        elif sim.time - best_t > stuck_time:
            break
    rec = sim.records()
    travelled = path_length(rec["position"])
    dmin = float(rec["dtg"].min()) if len(rec["dtg"]) else math.inf
    oracle = dmin <= sim.tau
    duration = sim.time
    collided = bool(rec["collision"].any())
    if sim.label == "fall":
        reason = "fall"
    elif sim.label is not None and sim.label != "success":
        reason = sim.label
    elif collided and not allow_collisions:
        reason = "collision"
    elif not sim.follower.reached:
        reason = "timeout" if duration >= limit else "stuck"
    elif not oracle:
        reason = "no_oracle_success"
    elif duration <= min_duration:
        reason = "too_short"
    elif duration > max_duration:
        reason = "too_long"
    elif travelled <= min_travel:
        reason = "travel_too_short"
    elif travelled >= max_travel:
        reason = "travel_too_long"
    else:
        reason = "ok"
    return VerifyResult(reason == "ok", reason, duration, travelled, oracle, dmin, collided)
