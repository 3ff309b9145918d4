"""CLI commands of this area (registered on the groups of :mod:`navbench.cli._app`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from navbench.cli._app import nav_app

if TYPE_CHECKING:
    from navbench.nav import NavMesh
    from navbench.scene.model import Scene

_Preset = Annotated[str, typer.Option("--preset", "-p",
                                      help="Navmesh preset: indoor, outdoor, spot, turtlebot.")]
_ScenePath = Annotated[Path, typer.Argument(help="scene.json file.")]


def _build(scene_path: Path, preset: str) -> tuple[NavMesh, Scene]:
    from rich.progress import Progress, SpinnerColumn, TextColumn

    from navbench.nav import NavMesh, NavSettings
    from navbench.scene import load

    settings = NavSettings.preset(preset)
    scene = load(scene_path)
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), transient=True) as prog:
        prog.add_task(f"building navmesh of {scene.id} ({preset})", total=None)
        return NavMesh.build(scene, settings), scene


@nav_app.command("build")
def build_cmd(
    scene_path: _ScenePath,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output navmesh .npz.")],
    preset: _Preset = "indoor",
    prepare_queries: Annotated[bool, typer.Option(
        "--prepare-queries", help="Also save the one-off query precomputation (seconds on a "
        "city; later find_path calls on the loaded navmesh are ~2x faster).")] = False,
) -> None:
    """Build a navigation mesh from SCENE.json and save it as .npz."""
    nm, _ = _build(scene_path, preset)
    nm.save(out, queries=prepare_queries)
    areas = ", ".join(f"{nm.island_area(i):.1f}" for i in nm.islands[:5])
    typer.echo(f"{out}: {len(nm.layers)} layer(s), {len(nm.islands)} island(s) [m²: {areas}"
               f"{', ...' if len(nm.islands) > 5 else ''}]")


@nav_app.command("show")
def show_cmd(
    scene_path: _ScenePath,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output image (.png, .pdf, .svg).")],
    preset: _Preset = "indoor",
    navmesh: Annotated[Path | None, typer.Option("--navmesh", help="Use a saved navmesh .npz.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sample path's end points.")] = 0,
) -> None:
    """Draw the walkable area, islands and a sample shortest path over a bird's-eye view."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from navbench.io import atomic_write_with
    from navbench.nav import NavMesh
    from navbench.nav.plot import draw_navmesh
    from navbench.rng import derive

    if navmesh is not None:
        from navbench.scene import load

        nm, scene = NavMesh.load(navmesh), load(scene_path)
    else:
        nm, scene = _build(scene_path, preset)
    fig, ax = plt.subplots(figsize=(8, 8))
    try:
        from navbench.report.bev import draw_scene

        draw_scene(ax, scene)
    except Exception:  # the BEV module is optional here; fall back to room outlines
        for room in scene.rooms:
            xs = [p[0] for p in (*room.floor_polygon, room.floor_polygon[0])]
            zs = [p[1] for p in (*room.floor_polygon, room.floor_polygon[0])]
            ax.plot(xs, zs, color="0.3", lw=0.8)
    path = None
    if nm.islands:
        rng = derive(seed, "nav-show", nm.scene_id)
        a, b = nm.sample_point(rng), nm.sample_point(rng)
        path = nm.find_path(a, b)
    draw_navmesh(ax, nm, path=path)
    ax.set_title(f"{nm.scene_id}: {len(nm.islands)} island(s)"
                 + (f", path {path.geodesic_distance:.2f} m" if path and path.points else ""))
    atomic_write_with(out, lambda p: fig.savefig(p, dpi=150, bbox_inches="tight",
                                                 format=out.suffix.lstrip(".") or "png"))
    plt.close(fig)
    typer.echo(str(out))
