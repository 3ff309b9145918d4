"""``--friction-scale`` / ``--friction CLASS=MU`` reach the simulator's traction caps."""

from __future__ import annotations

import pytest

from navbench.errors import ConfigError
from navbench.eval.pipeline import EvalSettings
from navbench.scene import Box, Scene
from navbench.sim import SPOT, SimSettings, Simulator


def test_cli_friction_values_parse_and_reject_bad_input():
    from navbench.cli.evaluate import _frictions

    assert _frictions(["floor=0.2", " road = 0.5"]) == {"floor": 0.2, "road": 0.5}
    assert _frictions(None) == {}
    for bad in ("floor", "floor=x", "floor=-1", "=0.3"):
        with pytest.raises(ConfigError, match="--friction"):
            _frictions([bad])
    with pytest.raises(ConfigError, match="--friction-scale"):
        EvalSettings(friction_scale=0.0)
    with pytest.raises(ConfigError, match="--friction"):
        EvalSettings(friction_override={"floor": -0.1})


def test_scale_and_override_set_the_mu_the_simulator_reads():
    floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
    curb = Box("c", "curb", (3.0, 0.05, 0.0), (1.0, 0.1, 1.0), label="curb")
    scene = Scene("flat", "outdoor", "test", boxes=(floor, curb))
    sim = Simulator(scene, SPOT, SimSettings(friction_scale=0.5, friction_override={"floor": 0.2}))
    mu = {sim.world.geoms[g].name: sim.contacts.friction[g] for g in sim.world.static_geoms}
    # floor: override 0.2 then × 0.5; curb: SURFACE_FRICTION["curb"] = 0.9 × 0.5
    assert mu == pytest.approx({"box:floor": 0.1, "box:c": 0.45})
