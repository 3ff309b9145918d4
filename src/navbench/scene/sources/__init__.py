"""Scene sources: import real scene files into a navbench :class:`~navbench.scene.Scene`.

Every loader converts into the Habitat frame at load time and records provenance in
``Scene.meta`` (``source_file``, ``converter_version``, ``approximations``)::

    from navbench.scene.sources import import_scene
    scene = import_scene("house_0.json", "procthor", assets="asset-database.json")

=========  ==========================================  =====================================
format     input                                       options
=========  ==========================================  =====================================
procthor   house ``.json`` / ProcTHOR-10k ``.jsonl(.gz)``  assets, index, asset_fallback, ...
habitat    ``*.scene_instance.json`` / dataset config /  dataset, scene, semantic, labels,
           ``*.semantic_config.json``                   mesh, up
mp3d       ``<scan>.house``                            categories, keep_structure, mesh, up
hm3d       ``<scene>.semantic.txt``                    semantic_mesh, mesh, up
gibson     ``3DSceneGraph_<name>.npz``                 mesh, up
mesh       ``.glb`` / ``.gltf`` / ``.obj`` / ``.ply``      up (textured; kept as a side file)
=========  ==========================================  =====================================
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path

from navbench.errors import ConfigError
from navbench.scene.model import Scene

#: format name → (module, loader function).
FORMATS: dict[str, tuple[str, str]] = {
    "procthor": ("navbench.scene.sources.procthor", "load_procthor"),
    "habitat": ("navbench.scene.sources.habitat", "load_habitat"),
    "mp3d": ("navbench.scene.sources.mp3d", "load_mp3d"),
    "hm3d": ("navbench.scene.sources.hm3d", "load_hm3d"),
    "gibson": ("navbench.scene.sources.gibson", "load_gibson"),
    "mesh": ("navbench.scene.sources.mesh", "load_mesh_scene"),
}


def detect_format(path: str | Path) -> str | None:
    """The format a file name implies, or None when it is ambiguous."""
    name = Path(path).name.lower()
    if name.endswith((".scene_instance.json", ".scene_dataset_config.json", ".semantic_config.json")):
        return "habitat"
    if name.endswith(".house"):
        return "mp3d"
    if name.endswith(".semantic.txt"):
        return "hm3d"
    if name.endswith(".npz"):
        return "gibson"
    if name.endswith((".glb", ".gltf", ".obj", ".ply")):
        return "mesh"
    if name.endswith((".jsonl", ".jsonl.gz")) or name.startswith("house"):
        return "procthor"
    return None


def loader(fmt: str) -> Callable[..., Scene]:
    """The loader function of a format (imported lazily)."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    module, name = FORMATS[fmt]
    fn: Callable[..., Scene] = getattr(importlib.import_module(module), name)
    return fn


def import_scene(path: str | Path, fmt: str | None = None, **options: object) -> Scene:
    """Import a scene file of format ``fmt`` (detected from the file name when None).

    ``options`` are the keyword arguments of that format's loader; options set to None are
    ignored, unknown ones raise :class:`ConfigError` naming the options the format accepts.
    Each texture image of the scene's meshes over the pixel budget (:func:`navbench.io.max_pixels`)
    is reported by one warning naming the file and the colour drawn instead.
    """
    if fmt is None:
        fmt = detect_format(path)
        if fmt is None:
            raise ConfigError(f"{Path(path).name}: cannot tell the format from the name; pass "
                              f"--format ({'|'.join(FORMATS)})")
    fn = loader(fmt)
    accepted = [p for p in inspect.signature(fn).parameters if p != "path"]
    given = {k: v for k, v in options.items() if v is not None}
    unknown = sorted(set(given) - set(accepted))
    if unknown:
        raise ConfigError(f"format {fmt!r} does not use option(s) {', '.join(unknown)}; "
                          f"it accepts: {', '.join(accepted)}")
    from navbench.scene.meshfile import warn_oversized_textures
    from navbench.scene.sources._common import validated

    scene = validated(fn(Path(path), **given), path)
    for m in scene.meshes:  # texture images the visual layer will not decode: said once, here
        if m.file is not None:
            warn_oversized_textures(m.file)
    return scene


__all__ = ["FORMATS", "detect_format", "import_scene", "loader"]
