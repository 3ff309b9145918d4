"""Helpers shared by the scene-source loaders: file reading with located errors, frame
conversions, label normalisation, room assignment and the provenance record in ``Scene.meta``.

Every loader converts into the Habitat frame (metres, +Y up, forward -Z) at load time.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from navbench.errors import SceneFormatError
from navbench.geometry import Vec2, Vec3, point_in_polygon, polygon_area
from navbench.io import MAX_JSON_BYTES, JSONLimitError, describe_read_error, loads_json
from navbench.jsontypes import JSON, JSONObject
from navbench.scene.model import Room, Scene

#: Version of the converters; recorded in ``Scene.meta["converter_version"]``.
CONVERTER_VERSION = "1.0"


def fail(file: str | Path, field: str, expected: str, got: object = None) -> SceneFormatError:
    """A :class:`SceneFormatError` for ``file`` (use as ``raise fail(...)``)."""
    return SceneFormatError(Path(file).name if isinstance(file, Path) else file, field, expected, got)


def read_text(path: str | Path) -> str:
    """UTF-8 text of a (possibly ``.gz``) file; a missing or unreadable file is a format error.
    At most :data:`~navbench.io.MAX_JSON_BYTES` of (decompressed) text are read."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
        if len(raw) > MAX_JSON_BYTES:
            raise fail(path, "<file>", f"at most {MAX_JSON_BYTES} bytes of text", f"{len(raw) - 1}+ bytes")
        return raw.decode("utf-8")
    except FileNotFoundError as e:
        raise fail(path, "<file>", "an existing file", str(path)) from e
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as e:
        raise fail(path, "<file>", "a readable UTF-8 (or gzip) text file", describe_read_error(e)) from e


def parse_json(text: str, file: str | Path, where: str = "<document>") -> JSON:
    """Parse JSON text within navbench's JSON limits (:func:`navbench.io.loads_json`: nesting,
    integer length, size; NaN and Infinity are accepted and reported by the field readers as
    non-finite numbers); a syntax error (truncated file, ...) names the line and column."""
    try:
        return loads_json(text, allow_nan=True)
    except json.JSONDecodeError as e:
        raise fail(file, f"{where} (line {e.lineno}, column {e.colno})",
                   "valid JSON", e.msg) from e
    except JSONLimitError as e:  # its text is the expectation ("at most 64 levels of nesting")
        raise fail(file, where, str(e)) from None


def read_json_file(path: str | Path) -> JSON:
    """Read a JSON (or gzip JSON) file with located errors."""
    return parse_json(read_text(path), path)


def require(obj: JSON, key: str, file: str | Path, where: str, kind: type | tuple[type, ...],
            expected: str) -> JSON:
    """``obj[key]`` checked to be an instance of ``kind`` (error names ``where.key``)."""
    field = f"{where}.{key}" if where else key
    if not isinstance(obj, dict):
        raise fail(file, where or "<document>", "a JSON object", type(obj).__name__)
    if key not in obj:
        raise fail(file, field, expected, "missing")
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise fail(file, field, expected, value)
    return value


def optional_list(obj: JSONObject, key: str, file: str | Path, where: str, expected: str) -> list[JSON]:
    """``obj[key]`` when it is a list, ``[]`` when it is missing or null; anything else is a
    format error naming ``where.key``."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise fail(file, f"{where}.{key}" if where else key, expected, type(value).__name__)
    return value


def as_float(value: JSON, file: str | Path, field: str) -> float:
    """A finite float, else a format error naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise fail(file, field, "a finite number", value)
    return float(value)


def vec3(value: JSON, file: str | Path, field: str) -> Vec3:
    """Three finite numbers from a list or an ``{x, y, z}`` object."""
    if isinstance(value, dict):
        try:
            value = [value["x"], value["y"], value["z"]]
        except KeyError as e:
            raise fail(file, field, "an object with x, y, z", value) from e
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise fail(file, field, "3 numbers [x, y, z]", value)
    x, y, z = (as_float(v, file, f"{field}[{i}]") for i, v in enumerate(value))
    return (x, y, z)


def zup_to_habitat(p: Sequence[float]) -> Vec3:
    """Z-up right-handed (x, y, z) → Habitat (x, z, −y)."""
    return (float(p[0]), float(p[2]), -float(p[1]))


def zup_size_to_habitat(s: Sequence[float]) -> Vec3:
    """Axis-aligned extents in a Z-up frame (sx, sy, sz) → Habitat (sx, sz, sy)."""
    return (float(s[0]), float(s[2]), float(s[1]))


def unity_to_habitat(p: Sequence[float]) -> Vec3:
    """Unity / AI2-THOR (left-handed, Y up) (x, y, z) → Habitat (x, y, −z)."""
    return (float(p[0]), float(p[1]), -float(p[2]))


def ccw(poly: Sequence[Sequence[float]]) -> tuple[Vec2, ...]:
    """The XZ polygon as a tuple of points, reversed if needed to be CCW seen from above."""
    pts = tuple((float(p[0]), float(p[1])) for p in poly)
    if len(pts) >= 2 and pts[0] == pts[-1]:
        pts = pts[:-1]
    return pts if polygon_area(pts) >= 0 else pts[::-1]


def rect_xz(lo: Sequence[float], hi: Sequence[float]) -> tuple[Vec2, ...]:
    """CCW rectangle from XZ bounds (habitat frame) ``lo = (xmin, zmin)``, ``hi = (xmax, zmax)``."""
    return ccw([(lo[0], lo[1]), (hi[0], lo[1]), (hi[0], hi[1]), (lo[0], hi[1])])


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def camel_words(name: str) -> str:
    """``"CoffeeTable"`` → ``"coffee table"``, ``"TVStand"`` → ``"tv stand"``, ``"living_room"``
    → ``"living room"`` (lower-case words separated by single spaces)."""
    words: list[str] = []
    for part in re.split(r"[\s_#\-/]+", name.strip()):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return " ".join(words)


def clean_label(name: str) -> str:
    """Lower-case, single-spaced label; underscores and ``#`` become spaces."""
    return " ".join(re.split(r"[\s_#]+", name.strip().lower())).strip()


def assign_room(rooms: Sequence[Room], center: Sequence[float], tol: float = 0.3) -> str | None:
    """Id of the room whose floor polygon contains the XZ of ``center`` (and whose storey spans
    its height); else the nearest room within ``tol`` metres (objects hung on walls); else None."""
    x, y, z = (float(c) for c in center)
    candidates = [r for r in rooms if r.floor_y - 0.5 <= y <= r.floor_y + r.height + 0.5] or list(rooms)
    for r in candidates:
        if point_in_polygon((x, z), r.floor_polygon):
            return r.id
    best, best_d = None, tol
    for r in candidates:
        d = _dist_to_polygon((x, z), r.floor_polygon)
        if d <= best_d:
            best, best_d = r.id, d
    return best


def _dist_to_polygon(pt: Vec2, poly: Sequence[Vec2]) -> float:
    p = np.asarray(pt, dtype=float)
    a = np.asarray(poly, dtype=float)
    b = np.roll(a, -1, axis=0)
    ab = b - a
    t = np.clip(((p - a) * ab).sum(1) / np.maximum((ab * ab).sum(1), 1e-18), 0.0, 1.0)
    return float(np.linalg.norm(a + t[:, None] * ab - p, axis=1).min())


def obb_to_habitat(center: Vec3, axes: np.ndarray, half: Sequence[float]
                   ) -> tuple[Vec3 | None, float, tuple[Vec3, Vec3]]:
    """An oriented box already in the Habitat frame → ``(size, yaw, aabb)``.

    ``axes`` is a 3x3 array whose rows are the box's unit axes; ``half`` its half-extents.
    When one axis is vertical (within ~8°) the box is upright: ``size`` = (extent along the
    first horizontal axis, vertical extent, extent along the other) and ``yaw`` rotates the
    box's local +X onto that first horizontal axis. Otherwise ``size`` is ``None`` and only the
    world AABB of the 8 corners describes it.
    """
    ax = np.asarray(axes, dtype=float)
    h = np.abs(np.asarray(half, dtype=float))
    c = np.asarray(center, dtype=float)
    ext = (np.abs(ax) * h[:, None]).sum(axis=0)
    aabb = (tuple(map(float, c - ext)), tuple(map(float, c + ext)))
    k = int(np.argmax(np.abs(ax[:, 1])))
    if abs(ax[k, 1]) < 0.99:
        return None, 0.0, aabb  # type: ignore[return-value]
    i, j = [n for n in range(3) if n != k]
    a = ax[i]
    yaw = math.atan2(-a[2], a[0])
    size = (float(2 * h[i]), float(2 * h[k]), float(2 * h[j]))
    return size, yaw, aabb  # type: ignore[return-value]


def validated(scene: Scene, path: str | Path) -> Scene:
    """``scene``, unchanged, once it passed the validation :func:`navbench.scene.load` applies to
    the ``scene.json`` it will be saved as (a save → load round trip in memory), so that an
    importer never writes a file navbench itself rejects.

    Raises:
        SceneFormatError: naming the source file and the converted scene's field.
    """
    validated_text(scene, path)
    return scene


def validated_text(scene: Scene, path: str | Path) -> str:
    """The ``scene.json`` text of ``scene`` (:func:`navbench.scene.dumps`) once it passed
    :func:`validated`'s check: an importer can write it as is instead of encoding it again.

    The check is the loader's (:func:`navbench.scene.loads` of the text); where the scene's
    document is plain JSON (:func:`navbench.io.is_plain_json`, the usual case) the document
    itself is checked, which is the same check without parsing the text back (a 10^6-node
    city: 22 s instead of 27 s, and no second document in memory).

    Raises:
        SceneFormatError: naming the source file and the converted scene's field.
    """
    from navbench.io import dumps_json, is_plain_json
    from navbench.scene.io import loads, scene_from_dict, scene_to_dict

    doc = scene_to_dict(scene)
    try:
        text = dumps_json(doc, indent=1)
    except ValueError as e:  # NaN / inf slipped into a field
        raise fail(path, "<converted scene>", "finite numbers in every field", str(e)) from None
    try:
        if is_plain_json(doc) and len(text) <= MAX_JSON_BYTES:
            scene_from_dict(doc, str(path))
        else:
            loads(text, str(path))
    except SceneFormatError as e:
        raise SceneFormatError(Path(path).name, f"(converted scene) {e.field}", e.expected,
                               e.got) from None
    return text


def provenance(path: str | Path, fmt: str, approximations: Sequence[str], **extra: JSON) -> JSONObject:
    """The ``Scene.meta`` record: source file name, converter version, what was approximated."""
    meta: JSONObject = {
        "source_file": Path(path).name,
        "source_format": fmt,
        "converter_version": CONVERTER_VERSION,
        "frame": "habitat (metres, +Y up, forward -Z)",
        "approximations": list(approximations),
    }
    meta.update(extra)
    return meta
