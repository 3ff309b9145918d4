"""Camera exposure across daylight and room light, with a tone-mapping shoulder.

The renderer shades every surface as if one light level fell on it. In fact daylight (the
street through an open door, the view through a window) is many times brighter than a lit
room: ~10,000 lux outdoors in the shade against ~100-500 lux indoors. Each visual geom says
which it gets (``visual.build.VisualGeom.daylight``); a pixel's scene-referred linear value is
its rendered linear value times :data:`DAYLIGHT_RATIO` (daylight) or 1 (room light).

Exposure is metered on the frame like a camera's auto-exposure: with a fraction ``f`` of the
pixels in daylight, the exposure is the reciprocal of the frame's log-mean light level
``R^f`` (``R`` = the ratio), so the gains are ``R^-f`` on room pixels and ``R^(1-f)`` on
daylight pixels. Frames wholly in one light are left as rendered (``f`` = 0 or 1: gain 1).
Values then pass a shoulder (linear up to ``KNEE``, then ``K + (1-K)(1 - exp(-(x-K)/(1-K)))``,
slope 1 at the knee, approaching white) and are encoded back to sRGB. A window in a room view
(f ≈ 0.05) shows the view at ~5.5× the room's exposure: nearly white with its shapes kept; at
an open exit the street is several times brighter than the hall, as in a photograph.
"""

from __future__ import annotations

import numba as nb
import numpy as np

#: Daylight / room light ratio of the scene-referred values (linear).
DAYLIGHT_RATIO = 6.0
#: Linear value where the tone curve's shoulder starts.
KNEE = 0.7


def srgb_to_linear(v: np.ndarray) -> np.ndarray:
    """sRGB-encoded values in [0, 1] → linear (IEC 61966-2-1)."""
    v = np.asarray(v, float)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(x: np.ndarray) -> np.ndarray:
    """Linear values in [0, 1] → sRGB encoding."""
    x = np.clip(np.asarray(x, float), 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)


def shoulder(x: np.ndarray, knee: float = KNEE) -> np.ndarray:
    """The tone curve: identity below ``knee``, then an exponential shoulder towards 1.

    >>> [round(float(v), 3) for v in shoulder(np.array([0.5, 0.7, 1.0, 4.0]))]
    [0.5, 0.7, 0.89, 1.0]
    """
    x = np.asarray(x, float)
    k = knee
    return np.where(x <= k, x, k + (1 - k) * (1 - np.exp(-(x - k) / (1 - k))))


def gains(f: float, ratio: float = DAYLIGHT_RATIO) -> tuple[float, float]:
    """(room gain, daylight gain) for a frame with a fraction ``f`` of daylight pixels.

    >>> gains(0.0), gains(1.0)
    ((1.0, 6.0), (0.16666666666666666, 1.0))
    """
    return float(ratio ** -f), float(ratio ** (1.0 - f))


def tone_lut(gain: float) -> np.ndarray:
    """(256,) uint8: an sRGB value → its exposed, tone-mapped sRGB value."""
    lin = srgb_to_linear(np.arange(256) / 255.0) * gain
    return np.clip(np.rint(linear_to_srgb(shoulder(lin)) * 255), 0, 255).astype(np.uint8)


def expose(rgb: np.ndarray, daylight: np.ndarray, ratio: float = DAYLIGHT_RATIO) -> np.ndarray:
    """``rgb`` (H, W, 3) uint8 exposed for a frame whose ``daylight`` (H, W) bool pixels get
    daylight: a new array, or ``rgb`` itself when the frame is wholly in one light."""
    f = float(np.count_nonzero(daylight)) / max(daylight.size, 1)
    if f <= 0.0 or f >= 1.0:
        return rgb
    g_room, g_day = gains(f, ratio)
    lut = np.concatenate([tone_lut(g_room), tone_lut(g_day)])
    idx = rgb.astype(np.uint16)
    idx |= (daylight.astype(np.uint16) << 8)[..., None]
    return lut.take(idx)


@nb.njit(cache=True)
def _count(code: np.ndarray, day_of_code: np.ndarray) -> int:
    n = 0
    for i in range(code.shape[0]):
        for j in range(code.shape[1]):
            n += day_of_code[code[i, j]]
    return n


@nb.njit(cache=True)
def _apply(rgb: np.ndarray, code: np.ndarray, day_of_code: np.ndarray, lut: np.ndarray, out: np.ndarray) -> None:
    for i in range(rgb.shape[0]):
        for j in range(rgb.shape[1]):
            base = 256 * day_of_code[code[i, j]]
            for c in range(3):
                out[i, j, c] = lut[base + rgb[i, j, c]]


def expose_coded(rgb: np.ndarray, code: np.ndarray, day_of_code: np.ndarray,
                 ratio: float = DAYLIGHT_RATIO) -> np.ndarray:
    """:func:`expose` for a frame whose pixels carry a code (``code`` (H, W) integers) and
    ``day_of_code`` (uint8 0/1 per code) says which codes are in daylight; compiled, one pass
    to meter and one to map (the renderer's hot path)."""
    n = int(_count(code, day_of_code))
    f = n / max(code.size, 1)
    if f <= 0.0 or f >= 1.0:
        return rgb
    g_room, g_day = gains(f, ratio)
    lut = np.concatenate([tone_lut(g_room), tone_lut(g_day)])
    out = np.empty_like(rgb)
    _apply(rgb, code, day_of_code, lut, out)
    return out
