"""Storefront sign images: the place's name (and category) in large bold lettering, category
colours and a category icon drawn with Pillow primitives.

Every one of the 17 place categories of ``scene/procgen/urban.py`` has a :class:`SignStyle`
(background, lettering colour, icon) in :data:`SIGN_STYLES`; lettering and background have a
WCAG contrast ratio of at least 3 (the "large text" level; most are above 4.5). The font is
the DejaVu Sans Bold that matplotlib ships (nothing is downloaded). Images follow the texture
convention of ``visual/outdoor_textures.py``: row 0 is the top of the sign, column 0 its left
edge as seen from the street.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Draw = ImageDraw.ImageDraw


@functools.lru_cache(maxsize=1)
def font_path() -> str:
    """Path of the DejaVu Sans Bold TrueType font bundled with matplotlib.

    Looks in matplotlib's ``mpl-data`` folder first (importing ``matplotlib.font_manager``
    costs ~0.7 s), else asks ``findfont``.
    """
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("matplotlib")
    for root in (spec.submodule_search_locations or []) if spec else []:
        f = Path(root) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
        if f.is_file():
            return str(f)
    from matplotlib.font_manager import FontProperties, findfont

    return findfont(FontProperties(family="DejaVu Sans", weight="bold"), fallback_to_default=True)


@functools.lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(), px)


# --------------------------------------------------------------------------- icons
# Each icon draws into the square (x, y, s) (top-left corner, side, pixels) in colour c.
def _cup(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.rounded_rectangle((x + 0.18 * s, y + 0.42 * s, x + 0.66 * s, y + 0.86 * s), radius=0.08 * s, fill=c)
    d.ellipse((x + 0.58 * s, y + 0.5 * s, x + 0.84 * s, y + 0.74 * s), outline=c, width=max(2, int(0.06 * s)))
    d.rectangle((x + 0.1 * s, y + 0.88 * s, x + 0.76 * s, y + 0.93 * s), fill=c)
    for k in range(3):  # steam
        sx = x + (0.28 + 0.14 * k) * s
        d.arc((sx - 0.05 * s, y + 0.1 * s, sx + 0.05 * s, y + 0.36 * s), 100, 260, fill=c, width=max(2, int(0.04 * s)))


def _fork_knife(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    w = max(2, int(0.05 * s))
    for k in range(3):
        tx = x + (0.22 + 0.08 * k) * s
        d.line((tx, y + 0.1 * s, tx, y + 0.35 * s), fill=c, width=w)
    d.rounded_rectangle((x + 0.2 * s, y + 0.33 * s, x + 0.41 * s, y + 0.45 * s), radius=0.04 * s, fill=c)
    d.rectangle((x + 0.275 * s, y + 0.4 * s, x + 0.335 * s, y + 0.9 * s), fill=c)
    d.polygon([(x + 0.62 * s, y + 0.1 * s), (x + 0.76 * s, y + 0.2 * s), (x + 0.74 * s, y + 0.52 * s),
               (x + 0.62 * s, y + 0.52 * s)], fill=c)
    d.rectangle((x + 0.62 * s, y + 0.5 * s, x + 0.69 * s, y + 0.9 * s), fill=c)


def _bank(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.polygon([(x + 0.1 * s, y + 0.32 * s), (x + 0.5 * s, y + 0.1 * s), (x + 0.9 * s, y + 0.32 * s)], fill=c)
    for k in range(4):
        cx = x + (0.2 + 0.2 * k) * s
        d.rectangle((cx - 0.045 * s, y + 0.38 * s, cx + 0.045 * s, y + 0.78 * s), fill=c)
    d.rectangle((x + 0.08 * s, y + 0.8 * s, x + 0.92 * s, y + 0.9 * s), fill=c)


def _basket(d: Draw, x: float, y: float, s: float, c: RGB) -> None:  # convenience store: "24" bag
    d.polygon([(x + 0.15 * s, y + 0.35 * s), (x + 0.85 * s, y + 0.35 * s), (x + 0.78 * s, y + 0.9 * s),
               (x + 0.22 * s, y + 0.9 * s)], fill=c)
    d.arc((x + 0.3 * s, y + 0.1 * s, x + 0.7 * s, y + 0.55 * s), 180, 360, fill=c, width=max(2, int(0.06 * s)))


def _cross(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.rectangle((x + 0.36 * s, y + 0.1 * s, x + 0.64 * s, y + 0.9 * s), fill=c)
    d.rectangle((x + 0.1 * s, y + 0.36 * s, x + 0.9 * s, y + 0.64 * s), fill=c)


def _bread(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:  # a baguette and a round loaf
    w = max(3, int(0.2 * s))
    a, b = (x + 0.14 * s, y + 0.62 * s), (x + 0.7 * s, y + 0.14 * s)
    d.line((a, b), fill=c, width=w)
    for p in (a, b):
        d.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=c)
    for k in range(3):  # score marks
        f = 0.28 + 0.22 * k
        cx, cy = a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
        d.line((cx - 0.06 * s, cy - 0.02 * s, cx + 0.02 * s, cy + 0.07 * s), fill=bg, width=max(2, int(0.035 * s)))
    d.chord((x + 0.42 * s, y + 0.5 * s, x + 0.94 * s, y + 1.0 * s), 180, 360, fill=c)
    d.rectangle((x + 0.42 * s, y + 0.74 * s, x + 0.94 * s, y + 0.9 * s), fill=c)


def _book(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
    d.polygon([(x + 0.5 * s, y + 0.3 * s), (x + 0.08 * s, y + 0.2 * s), (x + 0.08 * s, y + 0.8 * s),
               (x + 0.5 * s, y + 0.9 * s), (x + 0.92 * s, y + 0.8 * s), (x + 0.92 * s, y + 0.2 * s)], fill=c)
    d.line((x + 0.5 * s, y + 0.3 * s, x + 0.5 * s, y + 0.9 * s), fill=bg, width=max(2, int(0.04 * s)))
    for k in range(3):
        yy = y + (0.4 + 0.12 * k) * s
        d.line((x + 0.16 * s, yy, x + 0.42 * s, yy + 0.03 * s), fill=bg, width=max(1, int(0.025 * s)))
        d.line((x + 0.58 * s, yy + 0.03 * s, x + 0.84 * s, yy), fill=bg, width=max(1, int(0.025 * s)))


def _shirt(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.polygon([(x + 0.35 * s, y + 0.12 * s), (x + 0.08 * s, y + 0.3 * s), (x + 0.2 * s, y + 0.48 * s),
               (x + 0.28 * s, y + 0.42 * s), (x + 0.28 * s, y + 0.9 * s), (x + 0.72 * s, y + 0.9 * s),
               (x + 0.72 * s, y + 0.42 * s), (x + 0.8 * s, y + 0.48 * s), (x + 0.92 * s, y + 0.3 * s),
               (x + 0.65 * s, y + 0.12 * s), (x + 0.5 * s, y + 0.24 * s)], fill=c)


def _cart(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    w = max(2, int(0.06 * s))
    d.line((x + 0.05 * s, y + 0.18 * s, x + 0.2 * s, y + 0.18 * s, x + 0.32 * s, y + 0.68 * s,
            x + 0.82 * s, y + 0.68 * s), fill=c, width=w, joint="curve")
    d.polygon([(x + 0.24 * s, y + 0.3 * s), (x + 0.92 * s, y + 0.3 * s), (x + 0.84 * s, y + 0.58 * s),
               (x + 0.3 * s, y + 0.58 * s)], fill=c)
    for cx in (0.38, 0.76):
        d.ellipse((x + (cx - 0.07) * s, y + 0.74 * s, x + (cx + 0.07) * s, y + 0.88 * s), fill=c)


def _cocktail(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.polygon([(x + 0.12 * s, y + 0.15 * s), (x + 0.88 * s, y + 0.15 * s), (x + 0.5 * s, y + 0.55 * s)], fill=c)
    d.rectangle((x + 0.47 * s, y + 0.5 * s, x + 0.53 * s, y + 0.85 * s), fill=c)
    d.rectangle((x + 0.3 * s, y + 0.84 * s, x + 0.7 * s, y + 0.9 * s), fill=c)
    d.ellipse((x + 0.62 * s, y + 0.04 * s, x + 0.78 * s, y + 0.2 * s), fill=c)


def _bed(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.rectangle((x + 0.08 * s, y + 0.3 * s, x + 0.16 * s, y + 0.85 * s), fill=c)
    d.rectangle((x + 0.08 * s, y + 0.58 * s, x + 0.92 * s, y + 0.72 * s), fill=c)
    d.rectangle((x + 0.84 * s, y + 0.58 * s, x + 0.92 * s, y + 0.85 * s), fill=c)
    d.ellipse((x + 0.2 * s, y + 0.4 * s, x + 0.4 * s, y + 0.56 * s), fill=c)
    d.rounded_rectangle((x + 0.44 * s, y + 0.44 * s, x + 0.9 * s, y + 0.58 * s), radius=0.05 * s, fill=c)


def _envelope(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
    d.rectangle((x + 0.08 * s, y + 0.25 * s, x + 0.92 * s, y + 0.8 * s), fill=c)
    w = max(2, int(0.05 * s))
    d.line((x + 0.1 * s, y + 0.28 * s, x + 0.5 * s, y + 0.58 * s, x + 0.9 * s, y + 0.28 * s), fill=bg, width=w)


def _scissors(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    w = max(2, int(0.07 * s))
    d.line((x + 0.2 * s, y + 0.1 * s, x + 0.62 * s, y + 0.65 * s), fill=c, width=w)
    d.line((x + 0.8 * s, y + 0.1 * s, x + 0.38 * s, y + 0.65 * s), fill=c, width=w)
    for cx in (0.3, 0.7):
        d.ellipse((x + (cx - 0.15) * s, y + 0.62 * s, x + (cx + 0.15) * s, y + 0.92 * s), outline=c, width=w)


def _dumbbell(d: Draw, x: float, y: float, s: float, c: RGB) -> None:
    d.rectangle((x + 0.2 * s, y + 0.46 * s, x + 0.8 * s, y + 0.54 * s), fill=c)
    for x0 in (0.08, 0.22, 0.68, 0.82):
        d.rounded_rectangle((x + x0 * s, y + 0.28 * s, x + (x0 + 0.1) * s, y + 0.72 * s), radius=0.03 * s, fill=c)


def _burger(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
    d.chord((x + 0.1 * s, y + 0.18 * s, x + 0.9 * s, y + 0.7 * s), 180, 360, fill=c)
    d.rectangle((x + 0.08 * s, y + 0.48 * s, x + 0.92 * s, y + 0.58 * s), fill=c)
    d.rounded_rectangle((x + 0.1 * s, y + 0.64 * s, x + 0.9 * s, y + 0.82 * s), radius=0.06 * s, fill=c)
    for k in range(4):
        cx = x + (0.3 + 0.13 * k) * s
        d.ellipse((cx - 0.02 * s, y + 0.3 * s, cx + 0.02 * s, y + 0.34 * s), fill=bg)


def _ice_cream(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:  # two scoops on a waffle cone
    d.ellipse((x + 0.3 * s, y + 0.04 * s, x + 0.7 * s, y + 0.36 * s), fill=c)
    d.ellipse((x + 0.2 * s, y + 0.22 * s, x + 0.8 * s, y + 0.56 * s), fill=c)
    d.polygon([(x + 0.24 * s, y + 0.5 * s), (x + 0.76 * s, y + 0.5 * s), (x + 0.5 * s, y + 0.96 * s)], fill=c)
    w = max(1, int(0.03 * s))
    d.line((x + 0.2 * s, y + 0.48 * s, x + 0.8 * s, y + 0.48 * s), fill=bg, width=w)  # scoop rim
    for k in range(3):  # waffle cross-hatch
        f = 0.3 + 0.2 * k
        d.line((x + (0.24 + 0.52 * f) * s, y + 0.5 * s, x + (0.24 + 0.26 * f) * s, y + (0.5 + 0.46 * f) * s), fill=bg, width=w)
        d.line((x + (0.76 - 0.52 * f) * s, y + 0.5 * s, x + (0.76 - 0.26 * f) * s, y + (0.5 + 0.46 * f) * s), fill=bg, width=w)


def _flower(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
    cx, cy, r = x + 0.5 * s, y + 0.36 * s, 0.13 * s
    for k in range(6):
        a = 2 * math.pi * k / 6
        px, py = cx + 1.3 * r * math.cos(a), cy + 1.3 * r * math.sin(a)
        d.ellipse((px - r, py - r, px + r, py + r), fill=c)
    d.ellipse((cx - 0.8 * r, cy - 0.8 * r, cx + 0.8 * r, cy + 0.8 * r), fill=bg)
    d.rectangle((cx - 0.03 * s, cy + 1.5 * r, cx + 0.03 * s, y + 0.94 * s), fill=c)
    d.ellipse((cx, y + 0.66 * s, cx + 0.22 * s, y + 0.78 * s), fill=c)


def _shop(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
    d.rectangle((x + 0.12 * s, y + 0.4 * s, x + 0.88 * s, y + 0.9 * s), fill=c)
    d.polygon([(x + 0.05 * s, y + 0.42 * s), (x + 0.2 * s, y + 0.15 * s), (x + 0.8 * s, y + 0.15 * s),
               (x + 0.95 * s, y + 0.42 * s)], fill=c)
    d.rectangle((x + 0.42 * s, y + 0.58 * s, x + 0.58 * s, y + 0.9 * s), fill=bg)


def _plain(fn: Callable[[Draw, float, float, float, RGB], None]) -> Callable[..., None]:
    def draw(d: Draw, x: float, y: float, s: float, c: RGB, bg: RGB) -> None:
        fn(d, x, y, s, c)
    return draw


@dataclass(frozen=True)
class SignStyle:
    """A category's sign look: background and lettering colours (sRGB 0..255) and its icon."""

    bg: RGB
    fg: RGB
    icon: Callable[[Draw, float, float, float, RGB, RGB], None]
    icon_name: str


def _s(bg: RGB, fg: RGB, icon: Callable[..., None], name: str) -> SignStyle:
    return SignStyle(bg, fg, icon, name)


#: Sign style per place category (the 17 of ``PLACE_CATEGORIES``); others use :data:`DEFAULT_STYLE`.
SIGN_STYLES: dict[str, SignStyle] = {
    "restaurant": _s((120, 18, 30), (255, 255, 255), _plain(_fork_knife), "fork and knife"),
    "cafe": (_s((88, 52, 32), (246, 232, 200), _plain(_cup), "steaming cup")),
    "bank": _s((20, 40, 100), (240, 200, 80), _plain(_bank), "columned bank building"),
    "convenience store": _s((245, 130, 20), (25, 20, 10), _plain(_basket), "shopping bag"),
    "pharmacy": _s((0, 120, 60), (255, 255, 255), _plain(_cross), "cross"),
    "bakery": _s((236, 200, 140), (90, 45, 10), _bread, "baguette and loaf"),
    "bookstore": _s((20, 70, 70), (250, 240, 220), _book, "open book"),
    "clothing store": _s((235, 120, 170), (25, 25, 25), _plain(_shirt), "t-shirt"),
    "supermarket": _s((140, 200, 60), (10, 50, 20), _plain(_cart), "shopping cart"),
    "bar": _s((20, 20, 25), (255, 180, 40), _plain(_cocktail), "cocktail glass"),
    "hotel": _s((80, 40, 130), (255, 255, 255), _plain(_bed), "bed"),
    "post office": _s((255, 210, 0), (0, 50, 140), _envelope, "envelope"),
    "hair salon": _s((120, 210, 230), (10, 30, 60), _plain(_scissors), "scissors"),
    "gym": _s((55, 60, 70), (150, 230, 40), _plain(_dumbbell), "dumbbell"),
    "fast food": _s((220, 40, 20), (255, 230, 0), _burger, "burger"),
    "ice cream shop": _s((170, 230, 210), (170, 0, 90), _ice_cream, "ice cream cone"),
    "florist": _s((250, 248, 240), (20, 100, 40), _flower, "flower"),
}
DEFAULT_STYLE = _s((90, 90, 95), (255, 255, 255), _shop, "shop front")


def sign_style(category: str) -> SignStyle:
    """The :class:`SignStyle` of ``category`` (:data:`DEFAULT_STYLE` if it has none)."""
    return SIGN_STYLES.get(category, DEFAULT_STYLE)


def _layouts(name: str, category: str) -> list[list[str]]:
    """Candidate text layouts: the name on one line or split in two (the category is added as
    a second line instead when the name does not contain it)."""
    if category and category.lower() not in name.lower():
        return [[name, category.upper()]]
    words = name.split()
    out = [[name]]
    if len(words) > 1:
        k = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
        out.append([" ".join(words[:k]), " ".join(words[k:])])
    return out


def _fit(draw: Draw, lines: list[str], width: float, height: float) -> tuple[ImageFont.FreeTypeFont, list[tuple[float, float, float, float]]]:
    """The largest font (px) at which all ``lines`` fit in ``width`` x ``height``; their bboxes."""
    lo, hi = 6, max(8, int(height / len(lines) * 1.2))
    best = _font(lo)
    while lo <= hi:
        mid = (lo + hi) // 2
        f = _font(mid)
        boxes = [draw.textbbox((0, 0), t, font=f) for t in lines]
        w = max(b[2] - b[0] for b in boxes)
        h = sum(b[3] - b[1] for b in boxes) + 0.15 * mid * (len(lines) - 1)
        if w <= width and h <= height:
            best, lo = f, mid + 1
        else:
            hi = mid - 1
    return best, [draw.textbbox((0, 0), t, font=best) for t in lines]


def sign_image(name: str, category: str, width: int = 1024, height: int = 160) -> np.ndarray:
    """The sign of a place as an (height, width, 3) uint8 image.

    Layout: background in the category colour with a lettering-coloured border; the icon in a
    square at the left (``height`` px); the name (and the category when the name lacks it) as
    large as fits in the rest, centred, bold.
    """
    st = sign_style(category)
    img = Image.new("RGB", (width, height), st.bg)
    d = ImageDraw.Draw(img)
    b = max(2, height // 24)
    d.rectangle((b, b, width - 1 - b, height - 1 - b), outline=st.fg, width=b)
    pad = 3 * b
    s = height - 2 * pad
    st.icon(d, pad, pad, s, st.fg, st.bg)
    x0 = pad + s + 2 * pad
    tw, th = width - x0 - 2 * pad, height - 2 * pad
    fits = [(*_fit(d, lines, tw, th), lines) for lines in _layouts(name, category)]
    f, boxes, lines = max(fits, key=lambda t: t[0].size)
    gap = 0.15 * f.size
    total = sum(bb[3] - bb[1] for bb in boxes) + gap * (len(lines) - 1)
    y = pad + (th - total) / 2
    for t, bb in zip(lines, boxes, strict=True):
        w = bb[2] - bb[0]
        d.text((x0 + (tw - w) / 2 - bb[0], y - bb[1]), t, font=f, fill=st.fg)
        y += bb[3] - bb[1] + gap
    return np.asarray(img, dtype=np.uint8).copy()


def relative_luminance(rgb: RGB | np.ndarray) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..255)."""
    c = np.asarray(rgb, float) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ np.array([0.2126, 0.7152, 0.0722]))


def contrast_ratio(a: RGB | np.ndarray, b: RGB | np.ndarray) -> float:
    """WCAG 2 contrast ratio (1..21) between two sRGB colours."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
