"""One picture from a robot's own camera (or a sensor rig) at a given pose, without physics.

:func:`render_view` places the robot's base at ``pos`` (``pos[1]`` is the floor height), turns
it to face ``look_at`` in the ground plane (the camera keeps the rig's height and pitch: the
embodiment's own unless a :class:`~navbench.sim.camera_rig.CameraRig` is given) and renders
RGB, metric depth and segment ids through :class:`navbench.sim.sensors.Camera`.
:class:`Snapshotter` keeps the world and the GL context for many views of one scene.

A camera inside a collision box sees the box's inside faces culled away: an all-black or
see-through frame with depth 0. :func:`camera_inside` finds such a box (the camera's optical
centre within ``near`` of a box's inside, boxes only: scan meshes are not checked);
:meth:`Snapshotter.view` warns (:class:`CameraInsideGeometryWarning`) and records it in
:attr:`View.inside`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import mujoco
import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, Scene
from navbench.sim.camera_rig import CameraRig, parse_camera
from navbench.sim.embodiments import Embodiment
from navbench.sim.world import build_world


class CameraInsideGeometryWarning(UserWarning):
    """The camera's optical centre is inside a collision box (the picture shows its inside)."""


@dataclass(frozen=True)
class View:
    """One rendered view: ``rgb`` (H, W, 3) uint8, ``depth`` (H, W) float32 z-depth in metres
    (0 = nothing), ``semantic`` (H, W) int32 segment ids and ``labels`` id → (scene id, label);
    ``inside``: the box the camera is inside (``"id (label)"``), else ``None``; ``eye``: the
    camera's optical centre (world, m)."""

    rgb: np.ndarray
    depth: np.ndarray
    semantic: np.ndarray
    labels: dict[int, tuple[str | None, str]]
    inside: str | None = None
    eye: tuple[float, float, float] | None = None


def camera_inside(scene: Scene, point: Sequence[float] | np.ndarray, margin: float = 0.0) -> Box | None:
    """The first collision box of ``scene`` whose volume, grown by ``margin`` (m) on every side,
    contains ``point`` (world, m); ``None`` if none does. A box of yaw θ about +Y maps world
    offsets d to box-frame (cos θ dx − sin θ dz, dy, sin θ dx + cos θ dz).

    >>> from navbench.scene import Box, Scene
    >>> wall = Box("w", "wall", (0.0, 1.5, 0.0), (4.0, 3.0, 0.2), yaw=math.pi / 2, label="wall")
    >>> s = Scene("s", "indoor", "handmade", boxes=(wall,))
    >>> camera_inside(s, (0.05, 1.2, 1.9)).id, camera_inside(s, (0.3, 1.2, 0.0))
    ('w', None)
    """
    if not scene.boxes:
        return None
    p = np.asarray(point, float)
    c = np.array([b.center for b in scene.boxes], float)
    half = np.array([b.size for b in scene.boxes], float) / 2.0 + margin
    yaw = np.array([b.yaw for b in scene.boxes], float)
    d = p - c
    cs, sn = np.cos(yaw), np.sin(yaw)
    local = np.column_stack([cs * d[:, 0] - sn * d[:, 2], d[:, 1], sn * d[:, 0] + cs * d[:, 2]])
    hit = np.flatnonzero(np.all(np.abs(local) < half, axis=1))
    return scene.boxes[int(hit[0])] if len(hit) else None


class Snapshotter:
    """A scene's world (visual layer on by default) plus the robot and its head camera
    (``camera``: a rig or its text, :func:`~navbench.sim.camera_rig.parse_camera`; its size
    replaces ``width``/``height``)."""

    def __init__(self, scene: Scene, embodiment: Embodiment, *, width: int = 640, height: int = 480,
                 visuals: bool = True, seed: int = 0, cache: str | Path | None = None,
                 cull_distance: float | None = 80.0, camera: CameraRig | str | None = None):
        from navbench.sim.sensors import Camera

        self.scene = scene
        self.rig = parse_camera(camera)
        self.embodiment = self.rig.apply(embodiment, (width, height))
        width, height = self.rig.image_size((width, height))
        self.world = build_world(scene, self.embodiment, offscreen=(width, height), visuals=visuals,
                                 seed=seed, cache=cache)
        self.data = mujoco.MjData(self.world.model)
        self.camera = Camera(self.world, width=width, height=height, cull_distance=cull_distance,
                             depth_range=(self.rig.near, self.rig.far))

    def view(self, pos: Sequence[float] | np.ndarray, look_at: Sequence[float] | np.ndarray | None = None,
             yaw: float | None = None, *, warn: bool = True) -> View:
        """Render from base position ``pos`` (x, floor y, z) facing ``look_at`` (or ``yaw``, rad);
        warns (``warn``) when the camera is inside a collision box (:attr:`View.inside`)."""
        if yaw is None:
            if look_at is None:
                raise ValueError("give look_at or yaw")
            dx, dz = float(look_at[0]) - float(pos[0]), float(look_at[2]) - float(pos[2])
            yaw = yaw_of_direction(dx, dz) if math.hypot(dx, dz) > 1e-9 else 0.0
        d = self.data
        mujoco.mj_resetData(self.world.model, d)
        d.qpos[:4] = [float(pos[0]), float(pos[1]), float(pos[2]), yaw]
        mujoco.mj_forward(self.world.model, d)
        eye = d.cam_xpos[self.camera.cam_id].copy()
        box = camera_inside(self.scene, eye, margin=self.rig.near)
        inside = None if box is None else f"{box.id} ({box.label or box.kind})"
        if inside is not None and warn:
            warnings.warn(camera_inside_message(eye, inside), CameraInsideGeometryWarning, stacklevel=2)
        rgb, depth, sem = self.camera.render(d)
        if self.rig.depth_range is not None or self.rig.depth_noise:
            from navbench.rng import derive

            rng = derive(0, "depth-noise", *(round(float(v), 6) for v in (*pos[:3], yaw)))
            depth = self.rig.process_depth(depth, rng)
        return View(rgb, depth, sem, dict(self.camera.segmentation_labels), inside,
                    (float(eye[0]), float(eye[1]), float(eye[2])))

    def close(self) -> None:
        """Free the GL context."""
        self.camera.close()


def camera_inside_message(eye: Sequence[float] | np.ndarray, inside: str) -> str:
    """One line: where the camera is and which box it is inside."""
    x, y, z = (float(v) for v in eye)
    return (f"the camera at ({x:.2f}, {y:.2f}, {z:.2f}) m is inside the collision box {inside}: "
            "the picture shows the box's inside (black or see-through, depth 0); move --pos")


def render_view(scene: Scene, embodiment: Embodiment, pos: Sequence[float], look_at: Sequence[float], *,
                width: int = 640, height: int = 480, visuals: bool = True, seed: int = 0,
                camera: CameraRig | str | None = None, warn: bool = True) -> View:
    """One view of ``scene`` from ``embodiment``'s head camera or the ``camera`` rig (see the
    module docstring)."""
    snap = Snapshotter(scene, embodiment, width=width, height=height, visuals=visuals, seed=seed,
                       camera=camera)
    try:
        return snap.view(pos, look_at, warn=warn)
    finally:
        snap.close()
