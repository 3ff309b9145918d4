"""``navbench instructions ...``: generate, parse and inspect conditional instructions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import instructions_app
from navbench.errors import ConfigError


def _scene_files(d: Path) -> list[Path]:
    """Scene files of a folder: ``**/scene.json`` (``scenes generate`` / dataset layout), else
    ``*.json`` other than ``index.json`` (the ``scenes generate`` index is not a scene)."""
    if not d.is_dir():
        raise ConfigError(f"--scenes: expected a folder of scene.json files, got {d}")
    files = sorted(d.glob("**/scene.json")) or sorted(
        p for p in d.glob("*.json") if p.name != "index.json")
    if not files:
        raise ConfigError(f"--scenes: no '*.json' or '*/scene.json' files in {d}")
    return files


@instructions_app.command("generate")
def generate(
    scenes: Annotated[Path, typer.Option("--scenes", help="Folder of scene files (*.json or */scene.json).")],
    out: Annotated[Path, typer.Option("--out", help="Output JSON lines file.")],
    per_scene: Annotated[int, typer.Option("--per-scene", min=1, help="Instructions per scene.")] = 60,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Random seed.")] = 0,
    categories: Annotated[str, typer.Option(
        "--categories",
        help="Comma-separated subset of simple,nested,deep_nested,chain,long_chain,nested_chain.",
    )] = "",
    p_relation: Annotated[float, typer.Option("--p-relation", help="Share of relation conditions.")] = 0.3,
    p_cross_room: Annotated[float, typer.Option("--p-cross-room", help="Share of cross-room draws.")] = 0.5,
) -> None:
    """Generate conditional instructions (CondVLN §3.1.4) for every scene in a folder; presence
    distractors are balanced over the folder's scenes (their label / room-type statistics)."""
    from rich.progress import Progress

    from navbench.scene import load
    from navbench.tasks.conditional import (
        InstructionSettings,
        SamplingError,
        generate_instructions,
        room_label_stats,
        write_instructions,
    )

    cats = [c.strip() for c in categories.split(",") if c.strip()] or None
    ist = InstructionSettings(p_relation=p_relation, p_cross_room=p_cross_room)
    files = _scene_files(scenes)
    loaded = [load(f) for f in files]
    stats = room_label_stats(loaded, ist.min_reference_size)
    insts = []
    skipped: list[str] = []
    with Progress(disable=False) as prog:
        task = prog.add_task("instructions", total=len(files))
        for f, sc in zip(files, loaded, strict=True):
            try:
                insts += generate_instructions(sc, per_scene, seed, cats, instruction_settings=ist,
                                               label_stats=stats)
            except SamplingError as e:
                skipped.append(f"{f}: {e}")
            prog.advance(task)
    for s in skipped:
        typer.secho(f"skipped {s}", err=True, fg=typer.colors.YELLOW)
    write_instructions(out, insts)
    typer.echo(f"wrote {out}: {len(insts)} instructions from {len(files) - len(skipped)} scenes")


@instructions_app.command("parse")
def parse_cmd(
    text: Annotated[str, typer.Argument(help="Instruction text.")],
    vocabulary: Annotated[Path | None, typer.Option(
        "--vocabulary",
        help="Accepted labels: a scene JSON (its object and room labels) or a text file, one "
             "label a line, 'word = label' for a synonym, '#' comments.")] = None,
) -> None:
    """Parse an instruction into its program (JSON) or fail with the offending fragment."""
    from navbench.io import dumps_json
    from navbench.tasks.conditional import parse, program_to_dict, read_vocabulary

    vocab = None if vocabulary is None else read_vocabulary(vocabulary)
    typer.echo(dumps_json(program_to_dict(parse(text, vocab))), nl=False)


@instructions_app.command("audit")
def audit_cmd(
    file: Annotated[Path, typer.Argument(help="Instructions JSON lines file (instructions generate).")],
    scenes: Annotated[Path | None, typer.Option(
        "--scenes", help="Folder of the scenes (for the qualifier margin check).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the census as JSON.")] = None,
) -> None:
    """Consistency census per category: absent targets, dead conditions, unresolvable
    qualifiers, scope markers, connective variety, subgoals, parser round trip (issue 16)."""
    from rich.console import Console
    from rich.table import Table

    from navbench.io import write_json
    from navbench.scene import load
    from navbench.tasks.conditional import CENSUS_KEYS, audit_instructions, read_instructions

    insts = read_instructions(file)
    by_id = None
    if scenes is not None:
        by_id = {}
        for f in _scene_files(scenes):
            sc = load(f)
            by_id[sc.id] = sc
    census = audit_instructions(insts, by_id)
    table = Table(title=f"{file}: {len(insts)} instructions")
    table.add_column("category")
    for k in CENSUS_KEYS:
        table.add_column(k.replace("_", " "), justify="right")
    for cat, row in census.items():
        table.add_row(cat, *("-" if row[k] is None else str(row[k]) for k in CENSUS_KEYS))
    Console(width=200).print(table)
    if json_out is not None:
        write_json(json_out, census)
