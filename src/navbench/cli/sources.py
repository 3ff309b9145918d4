"""CLI commands of this area (registered on the groups of :mod:`navbench.cli._app`).

``navbench scenes import SOURCE --format procthor|habitat|mp3d|hm3d|gibson -o scene.json``
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import scenes_app


@scenes_app.command("import")
def import_cmd(
    source: Annotated[Path, typer.Argument(
        help="Source file: house.json / .jsonl(.gz), *.scene_instance.json, *.house, "
        "*.semantic.txt or 3DSceneGraph_*.npz.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output scene.json.")],
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", help="procthor | habitat | mp3d | hm3d | gibson | mesh (default: from the file name; .glb/.gltf/.obj/.ply = mesh).")] = None,
    assets: Annotated[Path | None, typer.Option(help="procthor: asset-database.json (labels, sizes).")] = None,
    asset_fallback: Annotated[bool, typer.Option(
        help="procthor: without --assets, labels from assetId prefixes, sizes unknown.")] = False,
    index: Annotated[int | None, typer.Option(
        help="procthor: line of a ProcTHOR-10k .jsonl(.gz) (0-based).")] = None,
    dataset: Annotated[Path | None, typer.Option(help="habitat: *.scene_dataset_config.json.")] = None,
    scene: Annotated[str | None, typer.Option(
        help="habitat: scene instance name when SOURCE is a dataset config.")] = None,
    semantic: Annotated[Path | None, typer.Option(help="habitat: *.semantic_config.json with regions.")] = None,
    labels: Annotated[Path | None, typer.Option(help="habitat: template -> label map (.json or .csv).")] = None,
    categories: Annotated[str | None, typer.Option(
        help="mp3d: object labels from 'mpcat40' (default) or 'raw'.")] = None,
    semantic_mesh: Annotated[Path | None, typer.Option(
        help="hm3d: <scene>.semantic.glb (object positions).")] = None,
    mesh: Annotated[Path | None, typer.Option(help="Static geometry: scene .glb/.obj/.ply (trimesh).")] = None,
    up: Annotated[str | None, typer.Option(
        help="Up axis of mesh files: y or z (default per format: habitat y; mp3d, hm3d, gibson z).")] = None,
    scene_id: Annotated[str | None, typer.Option(help="Scene id (default: from the file name).")] = None,
) -> None:
    """Import a real scene file (ProcTHOR, Habitat, Matterport3D, HM3D, Gibson 3DSG) as scene.json."""
    from rich.console import Console

    from navbench.scene import save
    from navbench.scene.sources import detect_format, import_scene
    from navbench.scene.sources.mesh import check_up

    if up is not None:
        check_up(up)
    console = Console(stderr=True)
    with console.status(f"importing {source.name} ..."):
        imported = import_scene(
            source, fmt or detect_format(source),
            assets=assets, asset_fallback=asset_fallback or None, index=index, dataset=dataset,
            scene=scene, semantic=semantic, labels=labels, categories=categories,
            semantic_mesh=semantic_mesh, mesh=mesh, up=up, scene_id=scene_id,
        )
        save(imported, output)
    geometry = len(imported.boxes) + len(imported.meshes)
    typer.echo(
        f"{output}: {imported.source} scene {imported.id!r}: {len(imported.rooms)} rooms, {len(imported.objects)} "
        f"objects, {len(imported.portals)} portals, {len(imported.boxes)} boxes, {len(imported.meshes)} meshes"
    )
    if geometry == 0:
        typer.echo("note: no static geometry; scene graphs and instructions work, but episodes and "
                   "simulation need geometry (re-run with --mesh SCENE.glb)")
