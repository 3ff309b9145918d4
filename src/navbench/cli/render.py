"""``navbench scene render`` (one robot-camera picture) and ``navbench scene gallery``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import scene_app
from navbench.errors import ConfigError


def parse_vec3(text: str, flag: str) -> tuple[float, float, float]:
    """``"1,0,-2.5"`` → ``(1.0, 0.0, -2.5)``; finite, within the scenes' ±100 km."""
    from navbench.scene.validate import MAX_COORD

    parts = text.split(",")
    try:
        if len(parts) != 3:
            raise ValueError
        x, y, z = (float(p) for p in parts)
        if not all(abs(v) <= MAX_COORD for v in (x, y, z)):  # NaN fails this too
            raise ValueError
    except ValueError:
        raise ConfigError(f"{flag}: expected X,Y,Z in metres (e.g. 1.5,0,-2), finite and within "
                          f"±{MAX_COORD / 1000:.0f} km, got {text!r}") from None
    return x, y, z


def parse_size(text: str) -> tuple[int, int]:
    """``"640x480"`` → ``(640, 480)``."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m or not (16 <= int(m.group(1)) <= 4096 and 16 <= int(m.group(2)) <= 4096):
        raise ConfigError(f"--size: expected WxH with 16..4096 pixels each (e.g. 640x480), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _save_png(path: Path, img) -> None:
    from PIL import Image

    from navbench.io import atomic_write_with

    atomic_write_with(path, lambda p: Image.fromarray(img).save(p, format="PNG"))


@scene_app.command("render")
def render(
    scene_path: Annotated[Path, typer.Argument(help="A scene.json file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="RGB PNG to write.")],
    pos: Annotated[str, typer.Option("--pos", help="Robot base X,Y,Z (m); Y is the floor height.")],
    look_at: Annotated[str, typer.Option("--look-at", help="Point X,Y,Z the robot turns to face (m).")],
    robot: Annotated[str, typer.Option("--robot", help="Camera of this robot: spot or turtlebot.")] = "spot",
    depth: Annotated[Path | None, typer.Option("--depth", help="Also write metric depth: .npy (float32 m) "
                                               "or .png (uint16 mm).")] = None,
    semantic: Annotated[Path | None, typer.Option("--semantic", help="Also write segment ids as a 16-bit PNG "
                                                  "plus <name>.json mapping id to (scene id, label).")] = None,
    size: Annotated[str, typer.Option("--size", help="Image size WxH (px).")] = "640x480",
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the visual layer.")] = 0,
    flat: Annotated[bool, typer.Option("--flat", help="Draw the flat collision boxes (no visual layer).")] = False,
    camera: Annotated[str | None, typer.Option("--camera", help="Camera rig instead of the robot's own: habitat-vlnce, procthor, robot, or key=value overrides (height=1.25,pitch=0,hfov=90,size=224x224,...; see navbench evaluate --help). Its size replaces --size.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Refuse (exit 2, nothing written) when the camera is inside a collision box; by default only warn.")] = False,
) -> None:
    """Render the scene from the robot's own head camera (its height and pitch), or from a --camera
    rig, at --pos facing --look-at. Warns when the camera is inside a collision box (--strict: refuses)."""
    import numpy as np

    from navbench.io import atomic_write_bytes, write_json
    from navbench.scene.io import load
    from navbench.sim.camera_rig import parse_camera
    from navbench.sim.embodiments import get_embodiment
    from navbench.sim.snapshot import render_view

    p, target = parse_vec3(pos, "--pos"), parse_vec3(look_at, "--look-at")
    w, h = parse_size(size)
    emb = get_embodiment(robot)
    scene = load(scene_path)
    rig = parse_camera(camera)
    view = render_view(scene, emb, p, target, width=w, height=h, visuals=not flat, seed=seed,
                       camera=rig, warn=False)
    h, w = view.depth.shape
    if view.inside is not None and view.eye is not None:
        from navbench.sim.snapshot import camera_inside_message

        msg = camera_inside_message(view.eye, view.inside)
        if strict:
            raise ConfigError(f"--pos {pos}: {msg}")
        typer.secho(f"warning: {msg}", err=True, fg=typer.colors.YELLOW)
    _save_png(out, view.rgb)
    written = [str(out)]
    if depth is not None:
        if depth.suffix == ".npy":
            import io

            buf = io.BytesIO()
            np.save(buf, view.depth, allow_pickle=False)
            atomic_write_bytes(depth, buf.getvalue())
        else:
            _save_png(depth, np.clip(np.rint(view.depth * 1000.0), 0, 65535).astype(np.uint16))
        written.append(str(depth))
    if semantic is not None:
        _save_png(semantic, view.semantic.astype(np.uint16))
        write_json(semantic.with_suffix(".json"), {str(k): list(v) for k, v in sorted(view.labels.items())})
        written.append(str(semantic))
    centre = view.labels.get(int(view.semantic[h // 2, w // 2]), (None, "nothing"))
    typer.echo(f"wrote {', '.join(written)} ({w} x {h} px, {robot} {'camera' if rig.is_default else 'with the ' + rig.label() + ' camera'}); centre pixel: "
               f"{centre[1]} ({centre[0]}) at {view.depth[h // 2, w // 2]:.2f} m")


@scene_app.command("gallery")
def gallery(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder (created if missing).")],
    robot: Annotated[str, typer.Option("--robot", help="Camera of this robot: spot or turtlebot.")] = "spot",
    tile: Annotated[str, typer.Option("--tile", help="Size of one view WxH (px).")] = "160x120",
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the meshes and the city.")] = 0,
) -> None:
    """Contact sheets of every indoor and outdoor category (robot camera at 1.5 m and 4 m) and of
    every storefront category (from the sidewalk): OUT/indoor.png, outdoor.png, storefronts.png."""
    from navbench.sim.embodiments import get_embodiment
    from navbench.sim.gallery import write_gallery

    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: expected a folder, got the file {str(out)!r}")
    paths = write_gallery(out, get_embodiment(robot), seed=seed, tile=parse_size(tile))
    typer.echo("wrote " + ", ".join(str(p) for p in paths))
