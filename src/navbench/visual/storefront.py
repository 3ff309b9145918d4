"""Storefront appearance: a shop front set into a place's facade with a legible sign, windows,
a recessed door, a fascia and an awning.

``storefront_parts(place, rng, sign=None)`` returns the parts in WORLD coordinates plus the
sign image keyed by its material key. The shop front is built in a facade frame (x along the
facade, y up from the place's entrance height, z out of the facade towards the street) and
placed with the place's ``yaw`` (the direction the facade faces) on its footprint's wall line.

Sign height. Both robots must see the whole sign with their base 3-15 m from the facade
(``sim/embodiments.py``). Spot's camera is 0.52 m up (sole 0.22 + 0.30), 0.5 m ahead of the
base, pitched 10° down, 79° vertical field of view: with the base 3 m from the wall the camera
is 2.32 m from the sign face (0.18 m out), so the top of its view there is
``0.52 + 2.32·tan(29.5°)`` = 1.83 m. The Turtlebot's camera is 0.37 m up, 0.15 m ahead, level:
``0.37 + 2.67·tan(39.5°)`` = 2.57 m. Both views reach the ground beyond 0.6 m. The sign
therefore spans :data:`SIGN_BAND` = 1.12-1.72 m (0.1 m margin for Spot's pitching gait),
across the shop front above the windows and over the door's upper part (the door stands in
front of the place's entrance point, the PlaceNav goal); ``scene/procgen/buildings.py`` puts
the matching collision box there.
"""

from __future__ import annotations

import math

import numpy as np

from navbench.rng import derive
from navbench.scene.model import Box, Place, Scene
from navbench.scene.storefront_geometry import SIGN_BAND
from navbench.visual.materials import Material, tinted
from navbench.visual.mesh import Part, box, transform
from navbench.visual.signs import sign_image, sign_style

#: Sign depth out of the facade: its face is at 0.18 m (inside the 0.3 m place footprint).
SIGN_Z = (0.12, 0.18)
DOOR_WIDTH = 1.0
DOOR_HEIGHT = 2.1
SIGN_PX_PER_M = 160.0  # ~110 px over the sign height: more than it covers in a 640x480 view at 3 m


def sign_material(place: Place) -> str:
    """Material key of a place's sign texture (the key of its image in the returned textures)."""
    return f"storesign_{place.id}"


def default_sign_span(width: float) -> tuple[float, float]:
    """Facade-frame x extent (m) of the sign on a shop front ``width`` wide: all of it but the piers."""
    return (-width / 2 + 0.25, width / 2 - 0.25)


def _frame(place: Place) -> tuple[np.ndarray, float, np.ndarray, float]:
    """Facade frame: origin (wall centre, entrance height), yaw, world x axis, width (m)."""
    n = np.array([-math.sin(place.yaw), -math.cos(place.yaw)])  # facing direction (XZ)
    t = np.array([-n[1], n[0]])
    fp = np.asarray(place.footprint, float)
    if len(fp) < 2:
        raise ValueError(f"place {place.id}: footprint needs at least 2 points")
    along, out = fp @ t, fp @ n
    mid = (along.min() + along.max()) / 2
    o2 = mid * t + out.min() * n
    yaw = place.yaw + math.pi  # local +Z -> n
    ex = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
    origin = np.array([o2[0], float(place.entrance[1]), o2[1]])
    return origin, yaw, ex, float(along.max() - along.min())


def _face(x0: float, x1: float, y0: float, y1: float, z: float, material: str, t: float = 0.004,
          uv: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> Part:
    """A thin panel whose +Z face at ``z`` carries the texture's ``uv`` = (u0, v0, u1, v1)
    rectangle (the whole texture by default; u to +x, v up).

    Closed front and back quads ``t`` apart (a volume, so renderers can compute its hull).
    """
    v = np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z),
                  (x0, y0, z - t), (x1, y0, z - t), (x1, y1, z - t), (x0, y1, z - t)], float)
    a, b, c, d = uv
    uvs = np.array([(a, b), (c, b), (c, d), (a, d), (a, b), (c, b), (c, d), (a, d)], float)
    f = [(0, 1, 2), (0, 2, 3), (4, 6, 5), (4, 7, 6), (0, 4, 5), (0, 5, 1), (1, 5, 6), (1, 6, 2),
         (2, 6, 7), (2, 7, 3), (3, 7, 4), (3, 4, 0)]
    return Part(v, np.array(f, np.int32), uvs, material)


def _slab(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float, mat: str) -> Part:
    return box((x1 - x0, y1 - y0, z1 - z0), mat, center=((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))


#: Heights (m above the entrance level) of the shop front: stall riser top, glazing top, fascia
#: (bottom, top; a second sign the size of the band sign, for eyes above the robots') and the
#: cornice top; the awning's mounting height and its projection over the sidewalk.
RISER = 0.45
GLAZING_TOP = 2.3
FASCIA = (2.45, 3.05)
CORNICE = 3.25
AWNING_Y = 2.42
AWNING_OUT = 1.0
AWNING_DROP = 0.15
AWNING_VALANCE = 0.2  # its bottom edge 2.07 m up: over people's heads
#: Depths out of the facade (m): the frame's front (the place footprint's 0.3 m), the glazing,
#: and the door, recessed behind reveals.
FRONT_Z = 0.3
GLASS_Z = 0.1
DOOR_Z = 0.03
#: Frame colours of fronts not painted in the category colour.
FRAME_COLOURS = ((0.12, 0.12, 0.13), (0.16, 0.2, 0.16), (0.12, 0.15, 0.24), (0.9, 0.9, 0.88), (0.35, 0.2, 0.14))


def storefront_parts(place: Place, rng: np.random.Generator, sign: Box | None = None
                     ) -> tuple[list[Part], dict[str, np.ndarray]]:
    """The shop front of ``place``: parts in world coordinates and ``{material key: image}``.

    A traditional shop front over the whole width of the place, up to a cornice at
    :data:`CORNICE`: pilasters at both ends and a fascia board carrying the name, a stall
    riser under large windows set back behind the frame (the shop's lit interior behind
    them), mullions, the door recessed behind its reveals and a soffit in front of the
    place's entrance point (the PlaceNav goal) with one handle, the band sign (an
    image-textured face on a thin box) in :data:`SIGN_BAND` across the glazing where both
    robots' cameras see it, and a fabric awning over the sidewalk (above head height, plain
    or striped in the category colour). Below the awning everything stays within the
    place's 0.3 m footprint. If ``sign`` (the scene's sign collision box) is given, the band
    sign is drawn exactly over its extent along the facade and its height. The texture dict
    holds the sign image under :func:`sign_material` (a texture for a white material); the
    fascia shows the same image.

    Raises:
        ValueError: the place has no footprint to build on.
    """
    origin, yaw, ex, width = _frame(place)
    st = sign_style(place.category)
    brand = rng.random() < 0.45
    fc = np.array(st.bg) / 255.0 if brand else np.asarray(FRAME_COLOURS[int(rng.integers(len(FRAME_COLOURS)))])
    frame = tinted("shop_frame", fc * rng.uniform(0.9, 1.1))
    sx0, sx1 = default_sign_span(width)
    y0, y1 = SIGN_BAND
    if sign is not None:
        rel = np.asarray(sign.center, float) - origin
        c = float(rel @ ex)
        half = sign.size[0] / 2
        sx0, sx1 = c - half, c + half
        y0, y1 = float(rel[1] - sign.size[1] / 2), float(rel[1] + sign.size[1] / 2)
    # the door stands in front of the place's entrance point (the PlaceNav goal), clear of the piers
    door_x = float((np.asarray(place.entrance, float) - origin) @ ex)
    door_x = min(max(door_x, -width / 2 + 0.3 + DOOR_WIDTH / 2), width / 2 - 0.3 - DOOR_WIDTH / 2)
    door_h = DOOR_HEIGHT
    dx0, dx1 = door_x - DOOR_WIDTH / 2, door_x + DOOR_WIDTH / 2
    pil = min(0.3, 0.12 * width)
    fz = FRONT_Z
    parts = [
        _slab(-width / 2, -width / 2 + pil, 0.0, CORNICE, 0.0, fz, frame),  # pilasters
        _slab(width / 2 - pil, width / 2, 0.0, CORNICE, 0.0, fz, frame),
        _slab(-width / 2 + pil, width / 2 - pil, GLAZING_TOP, FASCIA[1] + 0.05, 0.0, fz - 0.04, frame),  # fascia board
        _slab(-width / 2, width / 2, FASCIA[1] + 0.05, CORNICE, 0.0, fz + 0.06, frame),  # cornice (above the awning)
        _slab(sx0, sx1, y0 - 0.06, y1 + 0.06, GLASS_Z, SIGN_Z[0], frame),  # band sign backing on the glazing
        _slab(sx0 - 0.02, sx1 + 0.02, y0 - 0.02, y1 + 0.02, SIGN_Z[0], SIGN_Z[1] - 0.002,
              tinted("shop_frame", np.array(st.fg) / 255.0)),
        _face(sx0, sx1, y0, y1, SIGN_Z[1], sign_material(place)),
    ]
    fa0, fa1 = -width / 2 + pil + 0.1, width / 2 - pil - 0.1
    fh = FASCIA[1] - FASCIA[0]
    fw = min(fa1 - fa0, (sx1 - sx0) * fh / max(y1 - y0, 1e-6))  # the band sign's image, not stretched
    parts.append(_face(-fw / 2, fw / 2, FASCIA[0], FASCIA[1], fz - 0.035, sign_material(place)))
    riser = tinted("granite", (0.35, 0.35, 0.36)) if rng.random() < 0.5 else frame
    inside = "shop_interior"
    for wx0, wx1 in ((-width / 2 + pil, dx0 - 0.1), (dx1 + 0.1, width / 2 - pil)):
        if wx1 - wx0 < 0.3:
            continue
        parts.append(_slab(wx0, wx1, 0.0, RISER, 0.0, fz - 0.05, riser))  # stall riser
        parts.append(_slab(wx0, wx1, RISER, RISER + 0.05, 0.0, fz - 0.02, frame))  # sill
        u0 = float(rng.uniform(0, 0.5))
        parts.append(_face(wx0, wx1, RISER + 0.05, GLAZING_TOP, GLASS_Z, inside,
                           uv=(u0, 0.0, u0 + (wx1 - wx0) / 4.0, 1.0)))
        panes = max(1, int((wx1 - wx0) / 1.4))
        for k in range(1, panes):
            x = wx0 + k * (wx1 - wx0) / panes
            parts.append(_slab(x - 0.035, x + 0.035, RISER, GLAZING_TOP, GLASS_Z, GLASS_Z + 0.06, frame))
        parts.append(_slab(wx0, wx1, 2.0, 2.05, GLASS_Z, GLASS_Z + 0.05, frame))  # transom bar
    # the recessed entrance: reveals from the door back to the front, a soffit, the door
    parts += [
        _slab(dx0 - 0.1, dx0, 0.0, GLAZING_TOP, DOOR_Z, fz - 0.02, frame),
        _slab(dx1, dx1 + 0.1, 0.0, GLAZING_TOP, DOOR_Z, fz - 0.02, frame),
        _slab(dx0, dx1, door_h, GLAZING_TOP, DOOR_Z, fz - 0.02, frame),
    ]
    glazed = rng.random() < 0.6
    if glazed:  # an aluminium-framed glass door showing the shop
        parts += [_slab(dx0, dx1, 0.0, door_h, DOOR_Z - 0.02, DOOR_Z, frame),
                  _face(dx0 + 0.1, dx1 - 0.1, 0.15, door_h - 0.12, DOOR_Z + 0.003, inside,
                        uv=(0.4, 0.1, 0.65, 0.95))]
    else:
        parts.append(_slab(dx0, dx1, 0.0, door_h, DOOR_Z - 0.02, DOOR_Z + 0.01, "door_wood"))
    parts.append(_slab(dx1 - 0.15, dx1 - 0.1, 0.88, 1.05, DOOR_Z + 0.01, DOOR_Z + 0.05, "chrome"))  # handle
    # awning over the sidewalk, under the fascia: a sloping sheet and a valance at its front
    colour = max((st.bg, st.fg), key=lambda c: max(c) - min(c))  # the more saturated of the two
    canvas = tinted("awning_stripes" if rng.random() < 0.5 else "awning", np.array(colour) / 255.0)
    drop = AWNING_DROP
    slope = math.atan2(drop, AWNING_OUT)
    sheet = _slab(-width / 2 + pil, width / 2 - pil, -0.012, 0.012, 0.0, math.hypot(AWNING_OUT, drop), canvas)
    parts.append(transform(sheet, pitch=slope, offset=(0.0, AWNING_Y, fz)))
    ay = AWNING_Y - drop
    parts.append(_slab(-width / 2 + pil, width / 2 - pil, ay - AWNING_VALANCE, ay, fz + AWNING_OUT - 0.012,
                       fz + AWNING_OUT, canvas))
    world = [transform(p, yaw=yaw, offset=tuple(origin)) for p in parts]
    px_w = max(64, round((sx1 - sx0) * SIGN_PX_PER_M))
    px_h = max(32, round((y1 - y0) * SIGN_PX_PER_M))
    return world, {sign_material(place): sign_image(place.name, place.category, px_w, px_h)}


def scene_storefronts(scene: Scene, seed: int = 0) -> list[tuple[Place, list[Part], dict[str, np.ndarray]]]:
    """Shop fronts of every place of ``scene`` that has a footprint: ``(place, world parts, textures)``.

    Each uses the scene's ``kind="sign"`` box whose ``ref`` is the place id (when there is one) and
    its own random stream ``derive(seed, "storefront", place.id)``, so the result depends only on
    the scene and ``seed``.
    """
    signs = {b.ref: b for b in scene.boxes if b.kind == "sign" and b.ref}
    return [(pl, *storefront_parts(pl, derive(seed, "storefront", pl.id), signs.get(pl.id)))
            for pl in scene.places if len(pl.footprint) >= 2]


def sign_materials(textures: dict[str, np.ndarray]) -> dict[str, Material]:
    """Materials for sign textures: white (untinted), matte, texture key = material key."""
    return {key: Material((1.0, 1.0, 1.0, 1.0), key, 0.1, 0.1) for key in textures}
