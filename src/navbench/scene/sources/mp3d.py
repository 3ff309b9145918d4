"""Matterport3D ``.house`` files (``house_segmentations/<scan>.house``, also shipped with
habitat's MP3D scenes).

ASCII records, fields separated by spaces; first line ``ASCII 1.1``. Used here:

- ``R region_index level_index 0 0 label px py pz xlo ylo zlo xhi yhi zhi height ...`` → rooms
  (label from the region code, SPEC §8; ``Z`` = junk regions are dropped);
- ``S surface_index region_index 0 label px py pz nx ny nz ...`` and
  ``V vertex_index surface_index label px py pz nx ny nz ...`` → the region's floor polygon
  (its upward-facing surface); the region's bounding box when it has none;
- ``C category_index raw_index raw_name mpcat40_index mpcat40_name ...`` (``#`` = space);
- ``O object_index region_index category_index px py pz a0x a0y a0z a1x a1y a1z r0 r1 r2 ...``
  → objects (oriented box: centre, two axes, half-extents);
- ``P portal_index region0 region1 label xlo ylo zlo xhi yhi zhi ...`` → openings.

Frame: Z up → Habitat (x, y, z) → (x, z, −y); sizes (sx, sy, sz) → (sx, sz, sy).
"""

from __future__ import annotations

import builtins
import math
from pathlib import Path

import numpy as np

from navbench.geometry import polygon_area, yaw_of_direction
from navbench.io import MAX_INT_DIGITS
from navbench.scene.model import Portal, Room, Scene, SceneObject
from navbench.scene.sources._common import (
    ccw,
    clean_label,
    fail,
    obb_to_habitat,
    provenance,
    read_text,
    rect_xz,
    zup_to_habitat,
)
from navbench.scene.sources.mesh import UpAxis, load_mesh

#: MP3D region codes → room labels (SPEC §8).
REGION_LABELS: dict[str, str] = {
    "a": "bathroom", "b": "bedroom", "c": "closet", "d": "dining room", "e": "entryway",
    "f": "family room", "g": "garage", "h": "hallway", "i": "library", "j": "laundry room",
    "k": "kitchen", "l": "living room", "m": "meeting room", "n": "lounge", "o": "office",
    "p": "porch", "r": "rec room", "s": "stairs", "t": "toilet", "u": "utility room",
    "v": "tv room", "w": "gym", "x": "outdoor", "y": "balcony", "z": "other room", "B": "bar",
    "C": "classroom", "D": "dining booth", "S": "spa", "Z": "junk", "-": "room",
}

#: mpcat40 categories that are building structure, not objects (dropped unless asked).
STRUCTURE = frozenset({"void", "unlabeled", "wall", "floor", "ceiling"})

_MIN_TOKENS = {"H": 13, "L": 13, "R": 15, "S": 17, "V": 10, "C": 6, "O": 16}


class _Line:
    def __init__(self, file: Path, lineno: int, tokens: list[str]):
        self.file, self.lineno, self.t = file, lineno, tokens

    def where(self, what: str) -> str:
        return f"line {self.lineno} ({self.t[0]} record): {what}"

    def int(self, i: int, what: str) -> int:
        try:
            if len(self.t[i].lstrip("+-")) > MAX_INT_DIGITS:
                raise fail(self.file, self.where(what), f"an integer of at most {MAX_INT_DIGITS} digits",
                           f"{len(self.t[i])} characters")
            return int(self.t[i])
        except (IndexError, ValueError) as e:
            got = self.t[i] if i < len(self.t) else "missing"
            raise fail(self.file, self.where(what), "an integer", got) from e

    def vec(self, i: builtins.int, what: str, n: builtins.int = 3) -> list[float]:
        try:
            v = [float(x) for x in self.t[i:i + n]]
        except ValueError as e:
            raise fail(self.file, self.where(what), f"{n} numbers", " ".join(self.t[i:i + n])) from e
        if len(v) != n or not all(math.isfinite(x) for x in v):
            raise fail(self.file, self.where(what), f"{n} finite numbers",
                       " ".join(self.t[i:i + n]) or "missing")
        return v


def parse_house(path: str | Path) -> dict[str, list[_Line]]:
    """Records of a ``.house`` file grouped by type (``"P"`` portals only; panoramas skipped)."""
    path = Path(path)
    lines = read_text(path).splitlines()
    if not lines or lines[0].strip() != "ASCII 1.1":
        raise fail(path, "line 1", "the header 'ASCII 1.1'", lines[0][:40] if lines else "empty file")
    out: dict[str, list[_Line]] = {k: [] for k in "HLRPSVCOE"}
    for n, text in enumerate(lines[1:], start=2):
        tokens = text.split()
        if not tokens or tokens[0] not in out:
            continue
        rec = _Line(path, n, tokens)
        kind = tokens[0]
        if kind == "P":
            if len(tokens) < 11 or _is_number(tokens[4]):
                continue  # a panorama record: "P name panorama_index region_index 0 ..."
        elif len(tokens) < _MIN_TOKENS.get(kind, 0):
            raise fail(path, rec.where("fields"), f"at least {_MIN_TOKENS[kind]} fields (truncated?)",
                       len(tokens))
        out[kind].append(rec)
    if not out["H"]:
        raise fail(path, "H record", "a house record 'H name label #images ...'", "missing")
    h = out["H"][0]
    for kind, col, what in (("O", 8, "#objects"), ("C", 9, "#categories"), ("R", 10, "#regions"),
                            ("L", 12, "#levels")):
        declared = h.int(col, what)
        if declared != len(out[kind]):
            raise fail(path, h.where(what), f"{declared} {kind} records as declared (truncated file?)",
                       len(out[kind]))
    return out


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def load_mp3d(
    path: str | Path,
    *,
    categories: str = "mpcat40",
    keep_structure: bool = False,
    mesh: str | Path | None = None,
    up: UpAxis = "z",
    scene_id: str | None = None,
) -> Scene:
    """Load a Matterport3D ``.house`` file into a :class:`Scene` (see module docstring).

    Args:
        categories: object labels from ``"mpcat40"`` (default) or the ``"raw"`` category names.
        keep_structure: keep wall / floor / ceiling / void objects.
        mesh: scan geometry (``<scan>.glb`` / ``.obj`` / ``.ply``), Z-up by default.
    """
    path = Path(path)
    if categories not in ("mpcat40", "raw"):
        from navbench.errors import ConfigError

        raise ConfigError(f"--categories: expected 'mpcat40' or 'raw', got {categories!r}")
    rec = parse_house(path)
    approx: list[str] = []
    verts: dict[int, list[tuple[float, float, float]]] = {}
    for v in rec["V"]:
        verts.setdefault(v.int(2, "surface_index"), []).append(zup_to_habitat(v.vec(4, "position")))
    floors: dict[int, tuple[float, list[tuple[float, float, float]]]] = {}
    for s in rec["S"]:
        normal = s.vec(8, "normal")
        pts = verts.get(s.int(1, "surface_index"), [])
        if normal[2] < 0.9 or len(pts) < 3:
            continue
        area = abs(polygon_area([(p[0], p[2]) for p in pts]))
        region = s.int(2, "region_index")
        if area > floors.get(region, (0.0, []))[0]:
            floors[region] = (area, pts)
    rooms: list[Room] = []
    bbox_rooms = 0
    centres: dict[int, tuple[float, float]] = {}
    for r in rec["R"]:
        idx, level = r.int(1, "region_index"), r.int(2, "level_index")
        code = r.t[5][:1]
        if code not in REGION_LABELS:
            raise fail(path, r.where("label"), "a region code (a, b, c, ... Z, -)", r.t[5])
        lo, hi = r.vec(9, "bbox min"), r.vec(12, "bbox max")
        if code == "Z":
            continue
        height = r.vec(15, "height", 1)[0] if len(r.t) > 15 else 0.0
        if height <= 0:
            height = hi[2] - lo[2]
        if idx in floors:
            pts = floors[idx][1]
            poly = ccw([(p[0], p[2]) for p in pts])
            floor_y = float(np.mean([p[1] for p in pts]))
        else:
            bbox_rooms += 1
            poly = rect_xz((lo[0], -hi[1]), (hi[0], -lo[1]))
            floor_y = lo[2]
        rooms.append(Room(f"region{idx}", REGION_LABELS[code], poly, floor_y, height, level))
        centres[idx] = ((lo[0] + hi[0]) / 2, -(lo[1] + hi[1]) / 2)
    if bbox_rooms:
        approx.append(f"{bbox_rooms} regions without a floor surface use their bounding box")

    cats: dict[int, tuple[str, str]] = {}
    for c in rec["C"]:
        cats[c.int(1, "category_index")] = (clean_label(c.t[3]), clean_label(c.t[5]))
    room_ids = {r.id for r in rooms}
    objects: list[SceneObject] = []
    dropped = 0
    for o in rec["O"]:
        idx, region, cat = o.int(1, "object_index"), o.int(2, "region_index"), o.int(3, "category_index")
        if cat >= 0 and cat not in cats:
            raise fail(path, o.where("category_index"), "the index of a C record", cat)
        raw, mp40 = cats.get(cat, ("unknown", "unlabeled"))
        if not keep_structure and mp40 in STRUCTURE:
            dropped += 1
            continue
        center = zup_to_habitat(o.vec(4, "center"))
        a0, a1 = np.array(o.vec(7, "axis0")), np.array(o.vec(10, "axis1"))
        half = o.vec(13, "radii")
        axes_z = np.array([a0, a1, np.cross(a0, a1)])
        norms = np.linalg.norm(axes_z, axis=1)
        if np.any(norms < 1e-9):
            raise fail(path, o.where("axis0/axis1"), "two non-zero, non-parallel axes", o.t[7:13])
        axes = np.array([zup_to_habitat(a / n) for a, n in zip(axes_z, norms, strict=True)])
        size, yaw, aabb = obb_to_habitat(center, axes, half)
        room = f"region{region}" if f"region{region}" in room_ids else None
        objects.append(SceneObject(f"object{idx}", raw if categories == "raw" else mp40, center, room,
                                   size, None if size is not None else aabb, None, yaw))
    portals = _portals(rec["P"], room_ids, centres)
    meshes = (load_mesh(mesh, up),) if mesh is not None else ()
    name = rec["H"][0].t[1] if len(rec["H"][0].t) > 1 else path.stem
    return Scene(
        scene_id or path.stem, "indoor", "mp3d", rooms=tuple(rooms), objects=tuple(objects),
        portals=tuple(portals), meshes=meshes,
        meta=provenance(path, "mp3d", approx, house_name=name, categories=categories,
                        dropped_structure_objects=dropped, has_geometry=bool(meshes),
                        levels=len(rec["L"])),
    )


def _portals(recs: list[_Line], room_ids: set[str], centres: dict[int, tuple[float, float]]) -> list[Portal]:
    out: list[Portal] = []
    for p in recs:
        idx, r0, r1 = p.int(1, "portal_index"), p.int(2, "region0_index"), p.int(3, "region1_index")
        lo, hi = p.vec(5, "bbox min"), p.vec(8, "bbox max")
        if f"region{r0}" not in room_ids or f"region{r1}" not in room_ids:
            continue
        c = zup_to_habitat([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]])
        ex, ey = hi[0] - lo[0], hi[1] - lo[1]
        d = np.array(centres[r1]) - np.array(centres[r0])
        direction = (float(np.sign(d[0]) or 1.0), 0.0) if ex <= ey else (0.0, float(np.sign(d[1]) or 1.0))
        out.append(Portal(f"portal{idx}", "opening", (f"region{r0}", f"region{r1}"), c,
                          max(ex, ey), hi[2] - lo[2], yaw_of_direction(*direction)))
    return out
