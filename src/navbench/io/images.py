"""Image sizes read from the file header, and the pixel budget checked before any decode.

A PNG of a few kilobytes can declare 20,000 × 20,000 pixels (1.2 GB as RGB once decoded), so
texture images of imported meshes are measured from their header (:func:`image_size`: PNG
``IHDR``, JPEG ``SOFn``, other formats through Pillow's lazy ``open``, which decodes nothing)
and only decoded within the budget (:func:`max_pixels`, default :data:`DEFAULT_MAX_PIXELS`);
larger ones are drawn in their material's colour with a warning.
"""

from __future__ import annotations

import io
import os
import struct
import warnings
from pathlib import Path
from typing import BinaryIO

#: Default pixel budget of one texture image: 8192² (a 16k texture is over it).
DEFAULT_MAX_PIXELS = 8192 * 8192
#: Environment variable that sets the default budget (pixels, an integer > 0).
MAX_PIXELS_ENV = "NAVBENCH_MAX_TEXTURE_PIXELS"

_PNG = b"\x89PNG\r\n\x1a\n"
#: JPEG start-of-frame markers (baseline, progressive, lossless, ...), which carry the size.
_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def max_pixels(value: int | None = None) -> int:
    """The pixel budget: ``value`` when given, else ``$NAVBENCH_MAX_TEXTURE_PIXELS``, else
    :data:`DEFAULT_MAX_PIXELS`.

    Raises:
        ValueError: a value (or the variable) that is not an integer > 0.
    """
    if value is None:
        text = os.environ.get(MAX_PIXELS_ENV, "").strip()
        if not text:
            return DEFAULT_MAX_PIXELS
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{MAX_PIXELS_ENV}: expected a number of pixels, got {text[:40]!r}") from None
    if value <= 0:
        raise ValueError(f"a pixel budget > 0, got {value}")
    return int(value)


def _jpeg_size(f: BinaryIO) -> tuple[int, int] | None:
    f.seek(2)
    while True:
        b = f.read(1)
        while b == b"\xff":  # fill bytes before a marker
            b = f.read(1)
        if not b:
            return None
        marker = b[0]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            continue
        raw = f.read(2)
        if len(raw) < 2:
            return None
        (length,) = struct.unpack(">H", raw)
        if marker in _SOF:
            seg = f.read(5)
            if len(seg) < 5:
                return None
            h, w = struct.unpack(">HH", seg[1:5])
            return w, h
        if length < 2:
            return None
        f.seek(length - 2, io.SEEK_CUR)
        b = f.read(1)
        if b != b"\xff":
            return None
        f.seek(-1, io.SEEK_CUR)


def _size(f: BinaryIO) -> tuple[int, int] | None:
    head = f.read(24)
    if head.startswith(_PNG) and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return w, h
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(f)
    f.seek(0)
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(f) as im:  # lazy: reads the header only
                return int(im.size[0]), int(im.size[1])
    except Exception:  # Pillow raises many kinds on unknown or damaged headers; bombs too
        return None


def image_size(source: bytes | str | Path) -> tuple[int, int] | None:
    """``(width, height)`` in pixels from an image's header (bytes or a file), decoding nothing;
    None when the header cannot be read (an unknown format, damaged bytes, or a size past
    Pillow's own limit)."""
    try:
        if isinstance(source, bytes):
            return _size(io.BytesIO(source))
        with open(source, "rb") as f:
            return _size(f)
    except (OSError, struct.error, ValueError):
        return None


def over_budget(source: bytes | str | Path, budget: int | None = None) -> tuple[int, int] | None:
    """The image's ``(width, height)`` when it exceeds the pixel budget (see :func:`max_pixels`),
    else None (also for unreadable headers, which the decoder then reports)."""
    size = image_size(source)
    if size is None:
        return None
    return size if size[0] * size[1] > max_pixels(budget) else None
