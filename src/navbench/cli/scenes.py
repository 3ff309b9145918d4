"""``navbench scenes generate`` and ``navbench scene show``.

Scene kinds are dispatched through :data:`GENERATORS` (kind → builder of one scene from a
seed and the parsed options), so a new procedural kind is one function and one dict entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from navbench.cli._app import scene_app, scenes_app
from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject

if TYPE_CHECKING:
    from navbench.scene.model import Scene

INDEX_SCHEMA = "navbench.scenes_index/1"


def _indoor(seed: int, rooms: tuple[int, int] | None) -> tuple[Scene, JSONObject, str]:
    from navbench.scene.procgen.indoor import GENERATOR_VERSION, IndoorSettings, generate_house

    settings = IndoorSettings(rooms=rooms) if rooms else IndoorSettings()
    return generate_house(seed, None, settings), settings.to_dict(), GENERATOR_VERSION


def _outdoor(seed: int, rooms: tuple[int, int] | None) -> tuple[Scene, JSONObject, str]:
    from navbench.scene.procgen.outdoor import GENERATOR_VERSION, OutdoorSettings, generate_city

    scene = generate_city(seed, OutdoorSettings())
    return scene, scene.meta["settings"], GENERATOR_VERSION


def _hybrid(seed: int, rooms: tuple[int, int] | None) -> tuple[Scene, JSONObject, str]:
    from navbench.rng import derive
    from navbench.scene.procgen.hybrid import GENERATOR_VERSION, HybridSettings, generate_hybrid

    settings = HybridSettings()
    if rooms:
        n = int(derive(seed, "hybrid-rooms").integers(rooms[0], rooms[1] + 1))
        settings = HybridSettings(n_rooms=n)
    scene = generate_hybrid(seed, settings)
    return scene, {"n_rooms": settings.n_rooms, "radius": settings.radius,
                   "city": scene.meta["settings"]}, GENERATOR_VERSION


#: kind → ``builder(scene_seed, rooms_range) -> (scene, parameters, generator_version)``.
GENERATORS: dict[str, Callable[[int, tuple[int, int] | None], tuple[Scene, JSONObject, str]]] = {
    "indoor": _indoor,
    "outdoor": _outdoor,
    "hybrid": _hybrid,
}


def parse_rooms(text: str | None) -> tuple[int, int] | None:
    """``"6"`` → ``(6, 6)``, ``"3-8"`` → ``(3, 8)``; ``None`` stays ``None``."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not m:
        raise ConfigError(f"--rooms: expected N or MIN-MAX (e.g. 6 or 3-8), got {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if not 1 <= lo <= hi <= 10:
        raise ConfigError(f"--rooms: expected 1 <= MIN <= MAX <= 10, got {text!r}")
    return lo, hi


@scenes_app.command("generate")
def generate(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")],
    kind: Annotated[str, typer.Option("--kind", help="Scene kind: " + ", ".join(GENERATORS) + ".")] = "indoor",
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Number of scenes.")] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Base seed; scene i uses seed + i.")] = 0,
    rooms: Annotated[str | None, typer.Option(
        "--rooms", help="Rooms per house: N or MIN-MAX (1-10).")] = None,
    pictures: Annotated[bool, typer.Option("--pictures", help="Also write <id>/scene.png.")] = False,
) -> None:
    """Generate procedural scenes: OUT/<scene_id>/scene.json and OUT/index.json."""
    from navbench.io import write_json
    from navbench.progress import ProgressReporter
    from navbench.scene.io import save

    if kind not in GENERATORS:
        raise ConfigError(f"--kind: expected one of {', '.join(GENERATORS)}, got {kind!r}")
    room_range = parse_rooms(rooms)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: expected a folder, got the file {str(out)!r}")
    entries: list[JSONObject] = []
    params: JSONObject = {}
    version = ""
    with ProgressReporter(f"generating {kind} scenes", count, unit="scenes") as progress:
        for i in range(count):
            s = seed + i
            scene, params, version = GENERATORS[kind](s, room_range)
            rel = f"{scene.id}/scene.json"
            save(scene, out / rel)
            pic = None
            if pictures:
                from navbench.report.bev import save_scene_png

                pic = f"{scene.id}/scene.png"
                save_scene_png(scene, out / pic)
            entries.append({"id": scene.id, "kind": scene.kind, "path": rel, "picture": pic,
                            "seed": s, "n_rooms": len(scene.rooms),
                            "n_objects": len(scene.objects)})
            progress.update(advance=1)
    write_json(out / "index.json", {
        "schema": INDEX_SCHEMA, "kind": kind, "seed": seed, "count": count,
        "generator_version": version, "parameters": params, "scenes": entries,
    })
    typer.echo(f"wrote {count} {kind} scenes and index.json to {out}")


@scene_app.command("show")
def show(
    scene_path: Annotated[Path, typer.Argument(help="A scene.json file.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="PNG path (default: SCENE.png).")] = None,
    dpi: Annotated[int, typer.Option("--dpi", min=20, max=600, help="Pixels per inch.")] = 100,
    size: Annotated[float, typer.Option("--size", min=2.0, max=40.0, help="Picture side (inches).")] = 10.0,
    labels: Annotated[bool, typer.Option("--labels/--no-labels", help="Write room and object labels.")] = True,
    instruction: Annotated[str | None, typer.Option(
        "--instruction", help="A conditional instruction: the objects it refers to are labelled "
                              "in bold dark red, always (with a leader line where crowded).")] = None,
) -> None:
    """Draw a bird's-eye view (rooms, walls, doors, objects, north arrow) to a PNG."""
    from navbench.report.bev import save_scene_png
    from navbench.scene.io import load

    scene = load(scene_path)
    target = out if out is not None else scene_path.with_suffix(".png")
    referenced = None
    if instruction is not None:
        from navbench.report.bev_labels import referenced_objects
        from navbench.tasks.conditional import Vocabulary, parse

        words = frozenset({o.label for o in scene.objects} | {r.label for r in scene.rooms})
        referenced = referenced_objects(scene, parse(instruction, Vocabulary(words)))
    save_scene_png(scene, target, dpi=dpi, size=size, labels=labels, referenced=referenced)
    px = round(size * dpi)
    refs = "" if referenced is None else f", {len(referenced)} referenced objects labelled"
    typer.echo(f"wrote {target} ({px} x {px} px{refs})")
