"""Physical execution (NavVerse App. 6): MuJoCo world, embodiments, control, sensors, episodes.

>>> from navbench.episodes import Episode, Goal
>>> from navbench.scene import Box, Scene
>>> from navbench.sim import SPOT, SimSettings, Simulator
>>> from navbench.sim.actions import DiscreteAction
>>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
>>> scene = Scene("flat", "indoor", "handmade", boxes=(floor,))
>>> episode = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -2.0)),))
>>> sim = Simulator(scene, embodiment=SPOT, settings=SimSettings(render=False))
>>> obs = sim.reset(episode)                      # per-episode τ: sim.reset(episode, tau=2.5)
>>> obs, done, info = sim.step(DiscreteAction("forward"))
>>> sorted(info)
['collision', 'distance_to_goal', 'label', 'primitive_completed', 'time']

See :meth:`Simulator.reset`, :meth:`Simulator.step` and :class:`navbench.sim.env.NavEnv` (the
Gymnasium environment).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from navbench.sim.camera_rig import PRESETS as CAMERA_PRESETS
from navbench.sim.camera_rig import CameraRig, parse_camera
from navbench.sim.embodiments import EMBODIMENTS, SPOT, TURTLEBOT, Embodiment, get_embodiment
from navbench.sim.simulator import LABELS, EpisodeLike, SimSettings, Simulator, SimulatorLike

if TYPE_CHECKING:
    from navbench.sim.env import NavEnv

__all__ = ["CAMERA_PRESETS", "EMBODIMENTS", "LABELS", "SPOT", "TURTLEBOT", "CameraRig", "Embodiment", "EpisodeLike", "NavEnv",
           "SimSettings", "Simulator", "SimulatorLike", "get_embodiment", "parse_camera"]


def __getattr__(name: str) -> type[NavEnv]:
    if name == "NavEnv":  # gymnasium is imported only when the env is used
        from navbench.sim.env import NavEnv

        return NavEnv
    raise AttributeError(name)
