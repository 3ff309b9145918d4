"""Oracle replays for videos: stream a path to the follower, stop at its end, record frames."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from navbench.jsontypes import Observation
from navbench.scene.model import Scene
from navbench.sim.actions import StopAction, WaypointAction
from navbench.sim.embodiments import SPOT, Embodiment
from navbench.sim.simulator import GoalLike, SimSettings, Simulator
from navbench.sim.verify import reference_waypoints
from navbench.sim.video import depth_to_rgb


@dataclass(frozen=True)
class SimpleGoal:
    """A goal record: position (x, y, z), radius and optional size (sx, sy, sz)."""

    position: tuple[float, float, float]
    radius: float | None = None
    size: tuple[float, float, float] | None = None


def replay_oracle(scene: Scene, start: Sequence[float], yaw: float, goals: Sequence[GoalLike],
                  path: Sequence[Sequence[float]], embodiment: Embodiment = SPOT, *,
                  width: int = 320, height: int = 240, max_time: float = 120.0,
                  frame_every: int = 2, progress: Callable[[float], None] | None = None,
                  ) -> tuple[list[np.ndarray], dict[str, np.ndarray], str]:
    """Follow ``path`` ([x, y, z] rows, starting at ``start``) and stop at its end.

    Returns frames (chase view | head RGB | depth, uint8), the records and the label.
    """
    from navbench.sim.sensors import Camera

    settings = SimSettings(render=True, width=width, height=height, max_time=max_time)
    sim = Simulator(scene, embodiment, settings)
    chase = Camera(sim.world, "robot/chase", width, height, show_robot=True)
    try:
        obs = sim.reset_to(start, yaw, goals)
        pts = np.vstack([np.asarray(start, float)[None], np.asarray(path, float).reshape(-1, 3)])
        frames: list[np.ndarray] = []

        def grab(o: Observation) -> None:
            view, _, _ = chase.render(sim.data)
            frames.append(np.hstack([view, o["rgb"], depth_to_rgb(o["depth"])]))

        grab(obs)
        obs, done, _ = sim.step(WaypointAction(tuple(reference_waypoints(pts))))
        k = 1
        while not done and not sim.follower.reached:
            obs, done, _ = sim.step(WaypointAction((), append=True))
            k += 1
            if k % frame_every == 0:
                grab(obs)
            if progress is not None:
                progress(sim.time)
        if not done:
            obs, done, _ = sim.step(StopAction())
        grab(obs)
        return frames, sim.records(), str(sim.label)
    finally:
        chase.close()
        sim.close()
