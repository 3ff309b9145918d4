"""Physical execution (NavVerse App. 6): MuJoCo world, embodiments, control, sensors, episodes.

>>> from navbench.sim import Simulator, SimSettings, SPOT
>>> sim = Simulator(scene, embodiment=SPOT, settings=SimSettings(render=False))  # doctest: +SKIP
>>> obs = sim.reset(episode)                                                       # doctest: +SKIP
>>> obs, done, info = sim.step(DiscreteAction("forward"))                          # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from navbench.sim.embodiments import EMBODIMENTS, SPOT, TURTLEBOT, Embodiment, get_embodiment
from navbench.sim.simulator import LABELS, EpisodeLike, SimSettings, Simulator, SimulatorLike

if TYPE_CHECKING:
    from navbench.sim.env import NavEnv

__all__ = ["EMBODIMENTS", "LABELS", "SPOT", "TURTLEBOT", "Embodiment", "EpisodeLike", "NavEnv",
           "SimSettings", "Simulator", "SimulatorLike", "get_embodiment"]


def __getattr__(name: str) -> Any:
    if name == "NavEnv":  # gymnasium is imported only when the env is used
        from navbench.sim.env import NavEnv

        return NavEnv
    raise AttributeError(name)
