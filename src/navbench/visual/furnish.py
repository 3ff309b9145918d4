"""The visual-only furnishing of a scene's rooms, in a fixed order (each step leaves the wall
spans it used to the next): door casings and open leaves, windows with curtains or blinds,
mirrors over bathroom sinks, pictures, skirting boards, rugs, then surface clutter. Only
scenes with rooms and wall boxes (generated houses, ProcTHOR) get them; seeded per room, door
and piece of furniture, so the result depends on the scene and ``seed`` only.
"""

from __future__ import annotations

from navbench.scene.model import Scene
from navbench.visual import architecture as arch
from navbench.visual.clutter import clutter
from navbench.visual.decor import mirrors, rugs, wall_art
from navbench.visual.interior import (
    Fitting,
    Occupancy,
    doors,
    reserve_openings,
    skirting,
    wall_faces,
    windows,
)


def fittings(scene: Scene, seed: int) -> list[Fitting]:
    """Every fitting of ``scene`` (world frame), in build order."""
    if not scene.rooms or not any(b.kind == "wall" for b in scene.boxes):
        return []
    locate = arch.RoomLocator(scene.rooms)
    faces = wall_faces(scene, locate)
    occ = Occupancy(scene)
    reserve_openings(scene, occ)
    out = doors(scene, occ, locate, seed)
    out += windows(scene, faces, occ, seed)
    out += mirrors(scene, faces, occ, seed)
    out += wall_art(scene, faces, occ, seed)
    out += skirting(scene, faces, seed)
    out += rugs(scene, seed)
    out += clutter(scene, seed)
    return out
