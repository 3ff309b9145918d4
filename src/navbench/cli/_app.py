"""The Typer application and its command groups.

Each area of navbench adds its commands in its own module of this package
(``navbench.cli.scenes``, ``navbench.cli.nav``, ...), importing heavy modules lazily inside
the command functions so that ``navbench --help`` stays fast.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="navbench",
    help="Build, run and score embodied-navigation benchmarks (conditional VLN, indoor-to-outdoor).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _group(name: str, help_: str) -> typer.Typer:
    g = typer.Typer(help=help_, no_args_is_help=True, add_completion=False)
    app.add_typer(g, name=name)
    return g


scenes_app = _group("scenes", "Generate or import many scenes.")
scene_app = _group("scene", "Inspect one scene.")
nav_app = _group("nav", "Navigation meshes: build, inspect.")
graph_app = _group("graph", "Spatial scene graphs (CondVLN §3.1.3).")
instructions_app = _group("instructions", "Conditional navigation instructions (CondVLN §3.1.4).")
dataset_app = _group("dataset", "Episode datasets (VLN-CE / habitat-lab formats).")
sim_app = _group("sim", "MuJoCo simulation: replays and videos.")
results_app = _group("results", "Evaluation results databases.")
