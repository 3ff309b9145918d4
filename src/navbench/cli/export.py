"""``navbench scenes export SCENES... --format habitat -o OUT/`` (habitat-sim scene dataset)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import scenes_app
from navbench.errors import ConfigError

EXPORT_FORMATS = ("habitat",)


def scene_files(paths: list[Path]) -> list[Path]:
    """``scene.json`` files named directly or found (recursively) under folders, sorted."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.rglob("scene.json"))
            if not found:
                raise ConfigError(f"SCENES {p}: expected scene.json files in the folder, found none")
            out.extend(found)
        elif p.is_file():
            out.append(p)
        else:
            raise ConfigError(f"SCENES {p}: expected a scene.json file or a folder of them (not found)")
    return out


@scenes_app.command("export")
def export_cmd(
    scenes: Annotated[list[Path], typer.Argument(help="scene.json files or folders of them.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (a habitat scene dataset).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="Export format: habitat.")] = "habitat",
    seed: Annotated[int, typer.Option("--seed", help="Visual-layer seed (same seed -> identical GLBs).")] = 0,
    texture_size: Annotated[int, typer.Option("--texture-size", min=16, max=2048,
                                              help="Procedural texture side (px).")] = 128,
    force: Annotated[bool, typer.Option("--force", help="Replace a non-empty output folder.")] = False,
) -> None:
    """Write textured GLB stages, stage configs and navbench.scene_dataset_config.json to OUT."""
    from rich.progress import Progress

    from navbench.export.habitat import DATASET_CONFIG, export_habitat
    from navbench.scene.io import load

    if fmt not in EXPORT_FORMATS:
        raise ConfigError(f"--format: expected one of {', '.join(EXPORT_FORMATS)}, got {fmt!r}")
    files = scene_files(scenes)
    loaded = []
    with Progress(disable=not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task("loading scenes", total=len(files))
        for f in files:
            loaded.append(load(f))
            progress.advance(task)
    index = export_habitat(loaded, out, seed=seed, overwrite=force, texture_size=texture_size)
    total = sum(e["bytes"] for e in index["scenes"].values())
    for sid, e in index["scenes"].items():
        typer.echo(f"{sid}: {e['glb']} ({e['bytes'] / 1e6:.2f} MB)")
    typer.echo(f"wrote {len(index['scenes'])} stages ({total / 1e6:.2f} MB) and {DATASET_CONFIG} to {out}")
