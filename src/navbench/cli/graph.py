"""``navbench graph ...``: build spatial scene graphs and draw one room."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from navbench.cli._app import graph_app
from navbench.errors import ConfigError

if TYPE_CHECKING:
    from navbench.graph import GraphSettings, SceneGraph


def _settings(config: Path | None) -> GraphSettings:
    from navbench.graph import GraphSettings
    from navbench.io import TOMLLimitError, describe_read_error, read_toml

    if config is None:
        return GraphSettings()
    try:
        doc = read_toml(config)
    except TOMLLimitError as e:  # says what was expected: valid TOML, nesting, integer length
        raise ConfigError(f"{config}: cannot read TOML: expected {e}") from None
    except OSError as e:
        raise ConfigError(f"{config}: cannot read TOML ({describe_read_error(e)})") from None
    return GraphSettings.from_dict(doc.get("graph", {}), str(config))


@graph_app.command("build")
def build(
    scene: Annotated[Path, typer.Argument(help="scene.json file.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Output graph JSON (node-link per room).")],
    config: Annotated[
        Path | None, typer.Option("--config", help="TOML file with a [graph] table of thresholds.")
    ] = None,
    figure: Annotated[
        Path | None, typer.Option("--figure", help="Also draw one room to this image (.png/.svg).")
    ] = None,
    room: Annotated[
        str | None, typer.Option("--room", help="Room id for --figure (default: the first room).")
    ] = None,
) -> None:
    """Build the scene graph of every room of SCENE (CondVLN §3.1.3) and write it as JSON."""
    from navbench.graph import build_scene_graph, write_scene_graph
    from navbench.scene import load

    sg = build_scene_graph(load(scene), _settings(config))
    write_scene_graph(out, sg)
    n_edges = sum(len(sg.relations(r)) for r in sg.rooms)
    typer.echo(f"wrote {out}: {len(sg.rooms)} rooms, {n_edges} relations")
    if figure is not None:
        _figure(sg, room, figure)


def _figure(sg: SceneGraph, room: str | None, path: Path) -> None:
    from navbench.graph.figure import save_room_figure

    if not sg.rooms:
        raise ConfigError(f"scene {sg.scene_id!r} has no rooms to draw")
    rid = room or next(iter(sg.rooms))
    if rid not in sg.rooms:
        raise ConfigError(f"--room: expected one of {sorted(sg.rooms)}, got {rid!r}")
    save_room_figure(sg.rooms[rid], path)
    typer.echo(f"wrote {path} (room {rid})")


@graph_app.command("figure")
def figure_cmd(
    scene: Annotated[Path, typer.Argument(help="scene.json file.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Output image (.png / .svg / .pdf).")],
    room: Annotated[str | None, typer.Option("--room", help="Room id (default: the first room).")] = None,
    config: Annotated[Path | None, typer.Option("--config", help="TOML file with a [graph] table.")] = None,
) -> None:
    """Draw one room's scene graph (north up; arrows subject → reference)."""
    from navbench.graph import build_scene_graph
    from navbench.scene import load

    _figure(build_scene_graph(load(scene), _settings(config)), room, out)
