"""One picture from a robot's own camera at a given pose, without running physics.

:func:`render_view` places the robot's base at ``pos`` (``pos[1]`` is the floor height), turns
it to face ``look_at`` in the ground plane (the camera keeps the embodiment's height and pitch)
and renders RGB, metric depth and segment ids through :class:`navbench.sim.sensors.Camera`.
:class:`Snapshotter` keeps the world and the GL context for many views of one scene.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import mujoco
import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Scene
from navbench.sim.embodiments import Embodiment
from navbench.sim.world import build_world


@dataclass(frozen=True)
class View:
    """One rendered view: ``rgb`` (H, W, 3) uint8, ``depth`` (H, W) float32 z-depth in metres
    (0 = nothing), ``semantic`` (H, W) int32 segment ids and ``labels`` id → (scene id, label)."""

    rgb: np.ndarray
    depth: np.ndarray
    semantic: np.ndarray
    labels: dict[int, tuple[str | None, str]]


class Snapshotter:
    """A scene's world (visual layer on by default) plus the robot and its head camera."""

    def __init__(self, scene: Scene, embodiment: Embodiment, *, width: int = 640, height: int = 480,
                 visuals: bool = True, seed: int = 0, cache: str | Path | None = None,
                 cull_distance: float | None = 80.0):
        from navbench.sim.sensors import Camera

        self.embodiment = embodiment
        self.world = build_world(scene, embodiment, offscreen=(width, height), visuals=visuals, seed=seed,
                                 cache=cache)
        self.data = mujoco.MjData(self.world.model)
        self.camera = Camera(self.world, width=width, height=height, cull_distance=cull_distance)

    def view(self, pos: Sequence[float] | np.ndarray, look_at: Sequence[float] | np.ndarray | None = None, yaw: float | None = None) -> View:
        """Render from base position ``pos`` (x, floor y, z) facing ``look_at`` (or ``yaw``, rad)."""
        if yaw is None:
            if look_at is None:
                raise ValueError("give look_at or yaw")
            dx, dz = float(look_at[0]) - float(pos[0]), float(look_at[2]) - float(pos[2])
            yaw = yaw_of_direction(dx, dz) if math.hypot(dx, dz) > 1e-9 else 0.0
        d = self.data
        mujoco.mj_resetData(self.world.model, d)
        d.qpos[:4] = [float(pos[0]), float(pos[1]), float(pos[2]), yaw]
        mujoco.mj_forward(self.world.model, d)
        rgb, depth, sem = self.camera.render(d)
        return View(rgb, depth, sem, dict(self.camera.segmentation_labels))

    def close(self) -> None:
        """Free the GL context."""
        self.camera.close()


def render_view(scene: Scene, embodiment: Embodiment, pos: Sequence[float], look_at: Sequence[float], *,
                width: int = 640, height: int = 480, visuals: bool = True, seed: int = 0) -> View:
    """One view of ``scene`` from ``embodiment``'s head camera (see the module docstring)."""
    snap = Snapshotter(scene, embodiment, width=width, height=height, visuals=visuals, seed=seed)
    try:
        return snap.view(pos, look_at)
    finally:
        snap.close()
