"""Run the Examples sections of the public API's docstrings (doctests) in the default test run.

The modules are listed here instead of collecting ``src/navbench`` with ``--doctest-modules``:
that would import every module, including the optional extras' (``eval.ray_executor`` needs
ray, ``scene.sources.osm`` osmium) and the CLI, in every default run, and a module that fails
to import would fail collection of the whole suite. ``test_every_module_with_examples_is_listed``
keeps the list complete: a docstring example in a module that is not listed fails the suite.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import navbench

MODULES = (
    "navbench.agents",
    "navbench.agents.loading",
    "navbench.agents.rollout",
    "navbench.agents.scene_graph.reasoning",
    "navbench.agents.scene_graph_agent",
    "navbench.episodes.budget",
    "navbench.episodes.dataset",
    "navbench.eval.budget",
    "navbench.eval.pipeline",
    "navbench.geometry",
    "navbench.graph.relations",
    "navbench.graph.scene_graph",
    "navbench.metrics.aggregate",
    "navbench.metrics.efficiency",
    "navbench.metrics.episode",
    "navbench.metrics.stages",
    "navbench.metrics.stats",
    "navbench.nav.navmesh",
    "navbench.progress",
    "navbench.report.bev_layout",
    "navbench.report.build",
    "navbench.report.runs",
    "navbench.report.episode_frames",
    "navbench.report.html",
    "navbench.report.html_table",
    "navbench.report.latex",
    "navbench.report.moments",
    "navbench.scene.io",
    "navbench.scene.procgen.indoor",
    "navbench.scene.procgen.outdoor",
    "navbench.sim",
    "navbench.sim.appearance",
    "navbench.sim.camera_rig",
    "navbench.sim.env",
    "navbench.sim.exposure",
    "navbench.sim.mjc",
    "navbench.sim.protocols",
    "navbench.sim.records",
    "navbench.sim.simulator",
    "navbench.sim.snapshot",
    "navbench.sim.stuck",
    "navbench.sim.traction",
    "navbench.tasks.conditional.distractors",
    "navbench.tasks.conditional.margins",
    "navbench.tasks.conditional.parser",
    "navbench.tasks.conditional.references",
    "navbench.tasks.conditional.rewrite",
    "navbench.tasks.conditional.sampler",
    "navbench.visual.mtl",
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules_with_examples() -> set[str]:
    src = Path(navbench.__file__).parent
    out = set()
    for f in src.rglob("*.py"):
        if ">>>" in f.read_text(encoding="utf-8"):
            parts = f.relative_to(src.parent).with_suffix("").parts
            out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_every_module_with_examples_is_listed() -> None:
    assert _modules_with_examples() <= set(MODULES), "add these modules to MODULES"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder().find(module) if t.examples]
    assert tests, f"{name} has no docstring examples"
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for t in tests:
        runner.run(t)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} examples failed in {name} (output above)"
