"""``navbench scenes import-osm`` / ``city`` / ``hybrid``: outdoor and indoor-to-outdoor scenes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import scenes_app
from navbench.errors import ConfigError


def _bbox(text: str | None) -> tuple[float, float, float, float] | None:
    if text is None:
        return None
    try:
        v = tuple(float(x) for x in text.split(","))
    except ValueError:
        v = ()
    if len(v) != 4 or not (v[0] < v[2] and v[1] < v[3]):
        raise ConfigError(f"--bbox: expected MIN_LON,MIN_LAT,MAX_LON,MAX_LAT with min < max, got {text!r}")
    return v


@scenes_app.command("import-osm")
def import_osm(
    file: Annotated[Path, typer.Argument(help="OpenStreetMap .osm (XML) or .pbf file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output scene.json.")],
    bbox: Annotated[str | None, typer.Option("--bbox", help="MIN_LON,MIN_LAT,MAX_LON,MAX_LAT (degrees); default: data extent.")] = None,
    sidewalk_width: Annotated[float, typer.Option(help="Sidewalk width beside vehicle roads (m).")] = 3.0,
    scene_id: Annotated[str | None, typer.Option("--id", help="Scene id (default: the file stem).")] = None,
) -> None:
    """Import buildings, highways and shops/amenities from OSM as an outdoor scene."""
    import navbench.scene as ns
    from navbench.scene.sources.osm import load_osm

    scene = load_osm(file, _bbox(bbox), scene_id=scene_id, sidewalk_width=sidewalk_width)
    ns.save(scene, out)
    typer.echo(f"{out}: {len(scene.surfaces)} surfaces, {len(scene.places)} places, "
               f"{len(scene.boxes)} boxes, {len(scene.meshes)} meshes")


@scenes_app.command("city")
def city(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output scene.json.")],
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    size: Annotated[float, typer.Option(help="Side of the square city (m, <= 1000).")] = 1000.0,
    cars: Annotated[int, typer.Option(help="Cars on lanes (<= 200).")] = 200,
    objects: Annotated[int, typer.Option(help="Sidewalk objects (<= 1000).")] = 1000,
    road_density: Annotated[float, typer.Option(help="Road length per area (km/km², 5..37; NavVerse: 36.4).")] = 30.0,
) -> None:
    """Generate a procedural outdoor city (roads, sidewalks, buildings, storefronts, cars)."""
    import navbench.scene as ns
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    s = generate_city(seed, OutdoorSettings(size=(size, size), cars=cars, sidewalk_objects=objects,
                                            road_density=road_density))
    ns.save(s, out)
    typer.echo(f"{out}: {len(s.places)} places, {len(s.objects)} objects, {len(s.boxes)} boxes, "
               f"{len(s.meta['groups'])} groups, {s.meta['road_density']:.1f} km of road per km²")


@scenes_app.command("hybrid")
def hybrid(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output scene.json.")],
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    house: Annotated[Path | None, typer.Option(help="Indoor scene.json with an exit portal (default: generate one).")] = None,
    radius: Annotated[float, typer.Option(help="Objects and cars within this distance of the exit (m).")] = 50.0,
) -> None:
    """Generate an indoor-to-outdoor scene: a house behind a road-facing facade."""
    import navbench.scene as ns
    from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid

    h = ns.load(house) if house is not None else None
    s = generate_hybrid(seed, HybridSettings(radius=radius), house=h)
    ns.save(s, out)
    typer.echo(f"{out}: {len(s.rooms)} rooms, {len(s.places)} places, exit {s.meta['exit_portal']}")
