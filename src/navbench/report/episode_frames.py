"""First-person frames re-rendered from a recorded trajectory, for the episode pages.

The simulator records the robot base's position (world frame, m) and yaw (rad) at every agent
step; :class:`FrameRenderer` places the robot there with
:class:`navbench.sim.snapshot.Snapshotter` (no physics) and renders its head camera, keeping one
world per scene and robot while the pages of that scene are written. Frames are small JPEGs
(default 320 × 240 px). Without a recorded yaw the robot faces its direction of travel (the
next step's position, else the previous one's).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Scene

if TYPE_CHECKING:
    from navbench.sim.snapshot import Snapshotter

FRAME_SIZE = (320, 240)  #: frame width and height (px)
JPEG_QUALITY = 82


def heading_at(positions: np.ndarray, yaws: np.ndarray | None, k: int) -> float:
    """Yaw (rad) of step ``k``: the recorded one, else toward the next (or from the previous)
    position that differs in XZ; 0 (facing -Z) for a robot that never moved.

    >>> p = np.array([[0.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0]])
    >>> round(heading_at(p, None, 0), 4), round(heading_at(p, None, 2), 4)  # east: -π/2
    (-1.5708, -1.5708)
    """
    if yaws is not None and len(yaws) > k and np.isfinite(yaws[k]):
        return float(yaws[k])
    xz = positions[:, [0, 2]]
    for j in list(range(k + 1, len(xz))) + list(range(k - 1, -1, -1)):
        d = xz[j] - xz[k] if j > k else xz[k] - xz[j]
        if float(np.hypot(*d)) > 1e-6:
            return yaw_of_direction(float(d[0]), float(d[1]))
    return 0.0


def jpeg(rgb: np.ndarray, quality: int = JPEG_QUALITY) -> bytes:
    """JPEG bytes of an (H, W, 3) uint8 image (Pillow, no metadata)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgb)).save(buf, format="JPEG", quality=quality)
    return buf.getvalue()


class FrameRenderer:
    """Head-camera frames of recorded poses, one world per (scene, robot) at a time."""

    def __init__(self, size: tuple[int, int] = FRAME_SIZE, visuals: bool = True) -> None:
        self.size, self.visuals = size, visuals
        self._key: tuple[str, str] | None = None
        self._snap: Snapshotter | None = None

    def frames(self, scene: Scene, robot: str, positions: np.ndarray, yaws: np.ndarray | None,
               steps: Sequence[int]) -> list[bytes]:
        """JPEG frames of ``steps`` of the trajectory ``positions`` (T, 3) / ``yaws`` (T,)."""
        snap = self._world(scene, robot)
        p = np.asarray(positions, dtype=float).reshape(-1, 3)
        return [jpeg(snap.view(p[k], yaw=heading_at(p, yaws, k)).rgb) for k in steps]

    def _world(self, scene: Scene, robot: str) -> Snapshotter:
        from navbench.sim.embodiments import get_embodiment
        from navbench.sim.snapshot import Snapshotter

        if self._snap is None or self._key != (scene.id, robot):
            self.close()
            w, h = self.size
            self._snap = Snapshotter(scene, get_embodiment(robot), width=w, height=h,
                                     visuals=self.visuals)
            self._key = (scene.id, robot)
        return self._snap

    def close(self) -> None:
        """Free the current world's GL context."""
        if self._snap is not None:
            self._snap.close()
            self._snap = None
            self._key = None
