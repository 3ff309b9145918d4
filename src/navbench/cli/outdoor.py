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
    file: Annotated[Path, typer.Argument(help="OpenStreetMap .osm / .osm.gz / .osm.bz2 (XML) or .pbf file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output scene.json.")],
    bbox: Annotated[str | None, typer.Option("--bbox", help="MIN_LON,MIN_LAT,MAX_LON,MAX_LAT (degrees): the window to import; default: the data extent.")] = None,
    sidewalk_width: Annotated[float, typer.Option(help="Sidewalk width where the map gives none (m).")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the street furniture and parked cars.")] = 0,
    cars_per_km2: Annotated[float, typer.Option(help="Parked vehicles per km² (NavVerse: up to 200 per 1 km² scene).")] = 200.0,
    objects_per_km2: Annotated[float, typer.Option(help="Sidewalk objects per km² (NavVerse: up to 1,000).")] = 1000.0,
    scene_id: Annotated[str | None, typer.Option("--id", help="Scene id (default: the file stem).")] = None,
) -> None:
    """Import a real map as an outdoor scene: streets, sidewalks, crosswalks, buildings, storefronts
    from its shops, street furniture and parked cars."""
    from navbench.io import atomic_write_text
    from navbench.scene.sources.osm import OsmSettings, import_osm
    from navbench.scene.sources.osm_ground import tile_workers

    if sidewalk_width <= 0 or cars_per_km2 < 0 or objects_per_km2 < 0:
        raise ConfigError("--sidewalk-width: expected > 0; --cars-per-km2 / --objects-per-km2: expected >= 0")
    settings = OsmSettings(sidewalk_width=sidewalk_width, seed=seed, cars_per_km2=cars_per_km2,
                           objects_per_km2=objects_per_km2)
    scene, text = import_osm(file, _bbox(bbox), scene_id=scene_id, settings=settings, workers=tile_workers())
    atomic_write_text(out, text)  # = navbench.scene.save(scene, out), encoded once
    typer.echo(_summary(out, scene))


def _summary(out: Path, scene: object) -> str:
    from navbench.scene.model import Scene
    from navbench.scene.procgen.outdoor_groups import VEHICLES

    assert isinstance(scene, Scene)
    cars = sum(1 for o in scene.objects if o.label in VEHICLES and o.id.startswith("car_"))
    meta = scene.meta
    unknown = sum(meta.get("osm_places", {}).get("unknown", {}).values())
    issues = ", ".join(f"{k} {v}" for k, v in meta.get("osm_issues", {}).items()) or "none"
    cw = meta.get("crosswalks", {})
    return (f"{out}: {len(scene.places)} places ({unknown} shops of other kinds), {len(scene.objects)} objects "
            f"({cars} parked vehicles, {len(meta.get('groups', {}))} groups), crosswalks {cw.get('osm', 0)} mapped + "
            f"{cw.get('derived', 0)} derived, {len(scene.boxes)} boxes; geometry repaired/skipped: {issues}")


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
    osm: Annotated[Path | None, typer.Option("--osm", help="Embed the house behind a road-facing building of this OpenStreetMap file instead of a procedural city.")] = None,
    bbox: Annotated[str | None, typer.Option("--bbox", help="With --osm: MIN_LON,MIN_LAT,MAX_LON,MAX_LAT window.")] = None,
) -> None:
    """Generate an indoor-to-outdoor scene: a house behind a road-facing facade."""
    import navbench.scene as ns

    h = ns.load(house) if house is not None else None
    if osm is not None:
        from navbench.scene.sources.osm_hybrid import OsmHybridSettings, load_osm_hybrid

        s = load_osm_hybrid(osm, _bbox(bbox), seed, OsmHybridSettings(radius=radius), house=h)
    else:
        if bbox is not None:
            raise ConfigError("--bbox: only with --osm")
        from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid

        s = generate_hybrid(seed, HybridSettings(radius=radius), house=h)
    ns.save(s, out)
    typer.echo(f"{out}: {len(s.rooms)} rooms, {len(s.places)} places, exit {s.meta['exit_portal']}")
