"""Scene model, ``scene.json`` I/O and scene sources (SPEC §1)."""

from navbench.scene.io import SCHEMA, dumps, load, loads, save, scene_from_dict, scene_to_dict
from navbench.scene.model import (
    OUTDOOR,
    PORTAL_KINDS,
    SCENE_KINDS,
    SURFACE_CLASSES,
    Box,
    Mesh,
    Place,
    Portal,
    Room,
    Scene,
    SceneObject,
    Surface,
)

__all__ = [
    "OUTDOOR",
    "PORTAL_KINDS",
    "SCENE_KINDS",
    "SCHEMA",
    "SURFACE_CLASSES",
    "Box",
    "Mesh",
    "Place",
    "Portal",
    "Room",
    "Scene",
    "SceneObject",
    "Surface",
    "dumps",
    "load",
    "loads",
    "save",
    "scene_from_dict",
    "scene_to_dict",
]
