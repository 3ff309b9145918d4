"""Pictures drawn once across a face (UV 0..1, not tiled by metres): the view out of a window,
rugs, wall art and photos, screens (a TV programme, a desktop), a keyboard's keys and a shop's
lit interior behind its glass. Same generator contract as ``visual.textures`` (seeded,
``(size, size, 3)`` uint8, row 0 = the top of the picture).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from navbench.visual.indoor_textures import fbm2, noise2, ramp, u8

RGB = tuple[float, float, float]


def _grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) per pixel in [0, 1): x along columns, y down the rows (0 = top)."""
    c = (np.arange(size) + 0.5) / size
    return np.broadcast_to(c[None, :], (size, size)), np.broadcast_to(c[:, None], (size, size))


def _sky(rng: np.random.Generator, size: int, y: np.ndarray, horizon: float) -> np.ndarray:
    """Blue sky paling to the horizon with soft cumulus clouds (float RGB)."""
    t = np.clip(y / horizon, 0, 1)
    sky = ramp(t, (0.36, 0.56, 0.86), (0.82, 0.89, 0.96))
    cloud = np.clip((fbm2(rng, size, 3, 6, 5) - 0.5) * 3.2, 0, 1) * (0.4 + 0.6 * (1 - t))
    return sky * (1 - cloud[..., None]) + np.array((0.98, 0.98, 0.97)) * cloud[..., None]


def window_view(rng: np.random.Generator, size: int) -> np.ndarray:
    """What a ground-floor window shows: sky and clouds, a far tree line and roofs, a garden
    hedge, lawn. Windows map different parts of it (several metres of view per window)."""
    _x, y = _grid(size)
    horizon = 0.5
    img = _sky(rng, size, y, horizon)
    trees = horizon - 0.06 - 0.1 * fbm2(rng, size, 12, 1, 4)[0][None, :]
    far = ramp(fbm2(rng, size, 24, 24, 2), (0.2, 0.32, 0.2), (0.38, 0.5, 0.32))
    img = np.where((y > trees)[..., None], far, img)
    roofs = np.zeros(size, bool)
    for _ in range(3):  # a few houses between the trees
        c, w = rng.uniform(0, 1), rng.uniform(0.08, 0.18)
        roofs |= np.abs(((np.arange(size) + 0.5) / size - c + 0.5) % 1.0 - 0.5) < w / 2
    wall = roofs[None, :] & (y > horizon - 0.08) & (y < horizon + 0.02)
    img = np.where(wall[..., None], np.array((0.86, 0.83, 0.76)), img)
    roof = roofs[None, :] & (y > horizon - 0.12) & (y <= horizon - 0.08)
    img = np.where(roof[..., None], np.array((0.5, 0.24, 0.18)), img)
    hedge = (y > horizon + 0.02) & (y < horizon + 0.12 + 0.03 * noise2(rng, size, 16, 1)[0][None, :])
    img = np.where(hedge[..., None], ramp(fbm2(rng, size, 32, 32, 2), (0.12, 0.26, 0.1), (0.3, 0.46, 0.22)), img)
    lawn = y >= horizon + 0.12
    grass = ramp(0.6 * fbm2(rng, size, 8, 8, 3) + 0.4 * rng.random((size, size)), (0.32, 0.5, 0.2), (0.52, 0.7, 0.3))
    return u8(np.where(lawn[..., None], grass, img))


# --------------------------------------------------------------------------- rugs
def _palette(rng: np.random.Generator, n: int, options: tuple[RGB, ...]) -> list[np.ndarray]:
    idx = rng.permutation(len(options))[:n]
    return [np.asarray(options[i]) for i in idx]


RUG_COLOURS: tuple[RGB, ...] = ((0.55, 0.12, 0.12), (0.12, 0.18, 0.4), (0.85, 0.78, 0.6), (0.2, 0.35, 0.3),
                                (0.75, 0.45, 0.2), (0.9, 0.88, 0.82), (0.3, 0.2, 0.3), (0.5, 0.55, 0.6))


def rug_persian(rng: np.random.Generator, size: int) -> np.ndarray:
    """Oriental rug: a field with a central medallion and a lattice, a wide border, fringe ends."""
    x, y = _grid(size)
    field, border, accent, light = _palette(rng, 4, RUG_COLOURS)
    cx, cy = np.abs(x - 0.5), np.abs(y - 0.5)
    img = np.broadcast_to(field, (size, size, 3)).copy()
    lattice = (np.abs(np.sin((x + y) * np.pi * 14)) < 0.18) | (np.abs(np.sin((x - y) * np.pi * 14)) < 0.18)
    img[lattice] = img[lattice] * 0.7 + accent * 0.3
    med = (cx / 0.22) ** 2 + (cy / 0.3) ** 2
    img[med < 1.0] = accent
    img[med < 0.55] = light
    img[med < 0.2] = border
    frame = (np.maximum(cx, cy) > 0.36)
    img[frame] = border
    band = (np.maximum(cx, cy) > 0.4) & (np.maximum(cx, cy) < 0.44)
    img[band] = light
    fringe = cy > 0.48
    img[fringe] = (0.92, 0.9, 0.84)
    wear = 0.88 + 0.12 * fbm2(rng, size, 16, 16, 3) + 0.05 * (rng.random((size, size)) - 0.5)
    return u8(img * wear[..., None])


def rug_modern(rng: np.random.Generator, size: int) -> np.ndarray:
    """Modern rug: a few overlapping soft-edged colour blocks and lines on a plain field."""
    x, y = _grid(size)
    field, a, b, line = _palette(rng, 4, RUG_COLOURS)
    img = np.broadcast_to(field, (size, size, 3)).copy()
    for col in (a, b):
        x0, y0 = rng.uniform(0.05, 0.6, 2)
        w, h = rng.uniform(0.2, 0.45, 2)
        img[(x > x0) & (x < x0 + w) & (y > y0) & (y < y0 + h)] = col
    for _ in range(3):
        if rng.random() < 0.5:
            img[np.abs(x - rng.uniform(0.1, 0.9)) < 0.008] = line
        else:
            img[np.abs(y - rng.uniform(0.1, 0.9)) < 0.008] = line
    pile = 0.9 + 0.1 * rng.random((size, size))
    return u8(img * pile[..., None])


def rug_stripes(rng: np.random.Generator, size: int) -> np.ndarray:
    """Flat-weave rug: bands of two or three colours across its length, a plain edge."""
    x, y = _grid(size)
    cols = _palette(rng, 3, RUG_COLOURS)
    edges = np.sort(rng.uniform(0.08, 0.92, 6))
    band = np.searchsorted(edges, y)
    img = np.stack([cols[int(k) % 3] for k in range(7)])[band]
    weave = 0.9 + 0.1 * (np.sin(x * np.pi * size / 2) > 0)
    edge = (np.abs(x - 0.5) > 0.47) | (np.abs(y - 0.5) > 0.47)
    img[edge] = img[edge] * 0.6
    return u8(img * weave[..., None])


# --------------------------------------------------------------------------- wall art, photos
def art_landscape(rng: np.random.Generator, size: int) -> np.ndarray:
    """A painted landscape: sky, layered hills, a lake or field, brush texture."""
    _x, y = _grid(size)
    img = _sky(rng, size, y, 0.45)
    tones = (((0.3, 0.42, 0.55), (0.42, 0.52, 0.6)), ((0.25, 0.4, 0.25), (0.4, 0.55, 0.3)),
             ((0.35, 0.45, 0.2), (0.55, 0.6, 0.3)))
    for k, (lo, hi) in enumerate(tones):
        ridge = 0.38 + 0.12 * k + 0.1 * (fbm2(rng, size, 4, 1, 3)[0][None, :] - 0.5)
        img = np.where((y > ridge)[..., None], ramp(fbm2(rng, size, 12, 12, 2), lo, hi), img)
    if rng.random() < 0.5:
        lake = (y > 0.75) & (y < 0.86)
        img[lake] = img[lake] * 0.4 + np.array((0.55, 0.7, 0.85)) * 0.6
    brush = 0.92 + 0.08 * noise2(rng, size, size // 8, size // 3)
    return u8(img * brush[..., None])


def art_abstract(rng: np.random.Generator, size: int) -> np.ndarray:
    """Abstract colour-field painting: two or three soft horizontal fields (Rothko-like)."""
    x, y = _grid(size)
    cols = _palette(rng, 4, ((0.75, 0.2, 0.15), (0.95, 0.7, 0.2), (0.15, 0.25, 0.5), (0.9, 0.88, 0.8),
                             (0.2, 0.45, 0.4), (0.55, 0.15, 0.35), (0.1, 0.1, 0.12)))
    img = np.broadcast_to(cols[0], (size, size, 3)).copy()
    cuts = np.sort(rng.uniform(0.25, 0.75, 2))
    for k, (a, b) in enumerate(((0.08, cuts[0] - 0.03), (cuts[0] + 0.03, cuts[1] - 0.03), (cuts[1] + 0.03, 0.92))):
        soft = np.clip(np.minimum(y - a, b - y) * 40, 0, 1) * np.clip(np.minimum(x - 0.08, 0.92 - x) * 40, 0, 1)
        img = img * (1 - soft[..., None]) + cols[1 + k % 3] * soft[..., None]
    brush = 0.9 + 0.1 * fbm2(rng, size, 6, 24, 3)
    return u8(img * brush[..., None])


def art_geometric(rng: np.random.Generator, size: int) -> np.ndarray:
    """Geometric print: circles and rectangles in a few flat colours on off-white."""
    im = Image.new("RGB", (size, size), (238, 234, 224))
    d = ImageDraw.Draw(im)
    cols = [(200, 70, 50), (30, 60, 120), (230, 180, 40), (20, 20, 24), (90, 140, 120)]
    for _ in range(int(rng.integers(4, 8))):
        c = cols[int(rng.integers(len(cols)))]
        x0, y0 = (float(v) * size for v in rng.uniform(0.05, 0.7, 2))
        s = float(rng.uniform(0.12, 0.4)) * size
        if rng.random() < 0.5:
            d.ellipse((x0, y0, x0 + s, y0 + s), fill=c)
        else:
            d.rectangle((x0, y0, x0 + s, y0 + s * float(rng.uniform(0.3, 1.2))), fill=c)
    return np.asarray(im, np.uint8).copy()


def photo(rng: np.random.Generator, size: int) -> np.ndarray:
    """A family photo: two people (heads and shoulders) in front of a sunny background."""
    x, y = _grid(size)
    img = ramp(y, (0.45, 0.65, 0.9), (0.4, 0.6, 0.35))
    img = np.where((y > 0.62)[..., None], ramp(fbm2(rng, size, 8, 8, 2), (0.3, 0.5, 0.22), (0.5, 0.65, 0.3)), img)
    skin = ((0.93, 0.76, 0.62), (0.72, 0.52, 0.38), (0.5, 0.34, 0.24))
    shirts = ((0.8, 0.2, 0.2), (0.2, 0.35, 0.7), (0.95, 0.95, 0.9), (0.3, 0.55, 0.35))
    for cx in (0.33, 0.67):
        s = np.asarray(skin[int(rng.integers(3))])
        hair = np.asarray(((0.15, 0.1, 0.06), (0.55, 0.4, 0.2), (0.3, 0.2, 0.1))[int(rng.integers(3))])
        body = ((x - cx) / 0.2) ** 2 + ((y - 1.05) / 0.45) ** 2 < 1
        head = ((x - cx) / 0.1) ** 2 + ((y - 0.45) / 0.13) ** 2 < 1
        top = head & (y < 0.4)
        img[body] = shirts[int(rng.integers(4))]
        img[head] = s
        img[top] = hair
        for ex in (-0.035, 0.035):
            img[((x - cx - ex) / 0.012) ** 2 + ((y - 0.45) / 0.012) ** 2 < 1] = (0.1, 0.08, 0.06)
    return u8(img)


# --------------------------------------------------------------------------- screens, keys
def screen_tv(rng: np.random.Generator, size: int) -> np.ndarray:
    """A TV programme: a bright outdoor scene (sky, hills, a presenter) with a channel logo."""
    img = art_landscape(rng, size) / 255.0
    x, y = _grid(size)
    person = (((x - 0.62) / 0.1) ** 2 + ((y - 0.95) / 0.4) ** 2 < 1) | (((x - 0.62) / 0.05) ** 2 + ((y - 0.47) / 0.07) ** 2 < 1)
    img[person] = (0.2, 0.22, 0.3)
    logo = (x > 0.86) & (x < 0.95) & (y > 0.06) & (y < 0.13)
    img[logo] = (0.95, 0.95, 0.95)
    bar = (y > 0.82) & (y < 0.9) & (x > 0.05) & (x < 0.7)
    img[bar] = (0.1, 0.2, 0.55)
    return u8(np.clip(img * 1.1, 0, 1))


def screen_desktop(rng: np.random.Generator, size: int) -> np.ndarray:
    """A computer desktop: a wallpaper, two application windows with text lines, a taskbar."""
    wall = art_abstract(rng, size)
    im = Image.fromarray(wall).filter(ImageFilter.GaussianBlur(size / 40))
    d = ImageDraw.Draw(im)
    s = size
    for k in range(2):
        x0, y0 = (0.08 + 0.3 * k) * s, (0.1 + 0.2 * k) * s
        x1, y1 = x0 + 0.5 * s, y0 + 0.5 * s
        d.rectangle((x0, y0, x1, y1), fill=(245, 245, 245), outline=(120, 120, 120))
        d.rectangle((x0, y0, x1, y0 + 0.05 * s), fill=(40, 90, 170))
        for j in range(6):
            ly = y0 + (0.1 + 0.06 * j) * s
            d.rectangle((x0 + 0.04 * s, ly, x0 + (0.1 + 0.3 * float(rng.random())) * s, ly + 0.02 * s), fill=(90, 90, 90))
    d.rectangle((0, 0.93 * s, s, s), fill=(30, 32, 38))
    for j in range(5):
        d.rectangle(((0.04 + 0.07 * j) * s, 0.945 * s, (0.09 + 0.07 * j) * s, 0.985 * s),
                    fill=(200, 200, 210) if j else (60, 140, 230))
    return np.asarray(im, np.uint8).copy()


def keyboard_keys(rng: np.random.Generator, size: int) -> np.ndarray:
    """A keyboard's top seen from above: 5 rows of light key caps with dark gaps and a space
    bar (the whole picture spans the key area; white caps, tinted by the material)."""
    im = Image.new("RGB", (size, size), (40, 40, 44))
    d = ImageDraw.Draw(im)
    rows = 5
    for r in range(rows):
        y0 = (0.06 + r * 0.185) * size
        n = 14 if r < 4 else 3
        widths = [1.0] * n if r < 4 else [3.0, 8.0, 3.0]
        tot = sum(widths)
        x = 0.03 * size
        for w in widths:
            kw = w / tot * 0.94 * size
            g = int(rng.integers(228, 246))
            d.rectangle((x + 0.004 * size, y0, x + kw - 0.004 * size, y0 + 0.15 * size), fill=(g, g, g + 2))
            x += kw
    return np.asarray(im, np.uint8).copy()


def clock_face(rng: np.random.Generator, size: int) -> np.ndarray:
    """A clock face: white dial, twelve hour marks, hour and minute hands at a seeded time."""
    im = Image.new("RGB", (size, size), (30, 30, 34))
    d = ImageDraw.Draw(im)
    c, r = size / 2, size * 0.46
    d.ellipse((c - r, c - r, c + r, c + r), fill=(246, 244, 238))
    for k in range(12):
        a = k * np.pi / 6
        r0 = r * (0.78 if k % 3 else 0.72)
        d.line((c + r0 * np.sin(a), c - r0 * np.cos(a), c + r * 0.9 * np.sin(a), c - r * 0.9 * np.cos(a)),
               fill=(20, 20, 20), width=max(1, size // (40 if k % 3 else 24)))
    hour, minute = float(rng.uniform(0, 12)), float(rng.uniform(0, 60))
    for ang, ln, wd in ((hour / 12 * 2 * np.pi, 0.5, size // 22), (minute / 60 * 2 * np.pi, 0.78, size // 36)):
        d.line((c, c, c + r * ln * np.sin(ang), c - r * ln * np.cos(ang)), fill=(15, 15, 15), width=max(1, wd))
    d.ellipse((c - size * 0.03, c - size * 0.03, c + size * 0.03, c + size * 0.03), fill=(180, 30, 30))
    return np.asarray(im, np.uint8).copy()


def shop_interior(rng: np.random.Generator, size: int) -> np.ndarray:
    """A shop seen through its window: lit ceiling, shelves of coloured goods, a counter, the
    glass's sky reflection across the top."""
    x, y = _grid(size)
    img = ramp(y, (0.92, 0.9, 0.84), (0.55, 0.5, 0.45))
    for k in range(4):
        lamp = (np.abs(((x * 4) % 1.0) - 0.5) < 0.2) & (np.abs(y - 0.05 - 0.02 * k) < 0.006)
        img[lamp] = (1.0, 1.0, 0.95)
    goods = np.array(((0.85, 0.2, 0.15), (0.2, 0.4, 0.8), (0.95, 0.8, 0.2), (0.3, 0.65, 0.35), (0.9, 0.9, 0.88)))
    for k, y0 in enumerate((0.22, 0.38, 0.54)):
        shelf = (y > y0) & (y < y0 + 0.12) & ((x < 0.3) | (x > 0.7))
        idx = (np.floor(x * 40).astype(int) * 7 + k * 3) % len(goods)
        item = goods[idx] * (0.8 + 0.2 * noise2(rng, size, 40, 4)[..., None])
        img = np.where(shelf[..., None], item, img)
        img[(np.abs(y - y0 - 0.125) < 0.008) & ((x < 0.3) | (x > 0.7))] = (0.35, 0.3, 0.25)
    counter = (y > 0.6) & (x > 0.35) & (x < 0.65)
    img[counter] = (0.4, 0.3, 0.22)
    refl = np.clip(0.35 - y, 0, 0.35) / 0.35 * 0.35
    return u8(img * (1 - refl[..., None]) + np.array((0.75, 0.85, 0.95)) * refl[..., None])


def awning_stripes(rng: np.random.Generator, size: int) -> np.ndarray:
    """Awning canvas: four 0.25 m stripes across u, light and mid grey (tinted by the awning's
    colour: the colour and a darker shade of it), with a faint weave (tile 1 m)."""
    x, _ = _grid(size)
    band = np.floor(x * 4).astype(int) % 2
    g = np.where(band == 0, 0.97, 0.62) * (0.95 + 0.05 * noise2(rng, size, 64, 64))
    return u8(ramp(g, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))


#: Picture generators by texture key.
DECOR_TEXTURES: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "window_view": window_view, "rug_persian": rug_persian, "rug_modern": rug_modern,
    "rug_stripes": rug_stripes, "art_landscape": art_landscape, "art_abstract": art_abstract,
    "art_geometric": art_geometric, "photo": photo, "screen_tv": screen_tv,
    "screen_desktop": screen_desktop, "keyboard_keys": keyboard_keys, "shop_interior": shop_interior,
    "clock_face": clock_face, "awning_stripes": awning_stripes,
}
