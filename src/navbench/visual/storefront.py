"""Storefront appearance: a shop front on a place's facade with a legible sign, window and door.

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


def _face(x0: float, x1: float, y0: float, y1: float, z: float, material: str, t: float = 0.004) -> Part:
    """A thin panel whose +Z face at ``z`` carries the whole texture once (u to +x, v up).

    Closed front and back quads ``t`` apart (a volume, so renderers can compute its hull).
    """
    v = np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z),
                  (x0, y0, z - t), (x1, y0, z - t), (x1, y1, z - t), (x0, y1, z - t)], float)
    uv = np.array([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0), (1, 0), (1, 1), (0, 1)], float)
    f = [(0, 1, 2), (0, 2, 3), (4, 6, 5), (4, 7, 6), (0, 4, 5), (0, 5, 1), (1, 5, 6), (1, 6, 2),
         (2, 6, 7), (2, 7, 3), (3, 7, 4), (3, 4, 0)]
    return Part(v, np.array(f, np.int32), uv, material)


def _slab(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float, mat: str) -> Part:
    return box((x1 - x0, y1 - y0, z1 - z0), mat, center=((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))


def storefront_parts(place: Place, rng: np.random.Generator, sign: Box | None = None
                     ) -> tuple[list[Part], dict[str, np.ndarray]]:
    """The shop front of ``place``: parts in world coordinates and ``{material key: image}``.

    Parts: piers and fascia in a dark frame colour, shop windows on a plinth, a door with a
    handle in front of the place's entrance point, an awning in the category colour and the
    sign (an image-textured face on a thin box) in :data:`SIGN_BAND`, across the whole front
    like lettering on the glazing (it covers the door's upper part). If ``sign`` (the scene's
    sign collision box) is given, the sign is drawn exactly over its extent along the facade
    and its height. The texture dict holds the sign image under :func:`sign_material` (a
    texture for a white, untinted material).

    Raises:
        ValueError: the place has no footprint to build on.
    """
    origin, yaw, ex, width = _frame(place)
    st = sign_style(place.category)
    frame = tinted("shop_frame", np.array((0.16, 0.16, 0.17)) * rng.uniform(0.7, 1.6))
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
    top = y1 + 0.65
    parts = [
        _slab(-width / 2, -width / 2 + 0.2, 0.0, top, 0.01, 0.12, frame),  # piers
        _slab(width / 2 - 0.2, width / 2, 0.0, top, 0.01, 0.12, frame),
        _slab(-width / 2, width / 2, y1 + 0.05, top, 0.01, 0.12, frame),  # fascia above the sign
        _slab(sx0, sx1, y0 - 0.1, y1 + 0.05, 0.01, 0.09, frame),  # sign backing
        _slab(-width / 2 + 0.2, width / 2 - 0.2, 0.0, 0.4, 0.01, 0.1, frame),  # plinth under the window
    ]
    for wx0, wx1 in ((-width / 2 + 0.2, dx0 - 0.08), (dx1 + 0.08, width / 2 - 0.2)):
        if wx1 - wx0 > 0.3:  # shop windows either side of the door, mullions every ~1.6 m
            parts.append(_slab(wx0, wx1, 0.4, y0 - 0.1, 0.02, 0.06, "shop_window"))
            panes = max(1, int((wx1 - wx0) / 1.6))
            for k in range(1, panes):
                x = wx0 + k * (wx1 - wx0) / panes
                parts.append(_slab(x - 0.03, x + 0.03, 0.4, y0 - 0.1, 0.02, 0.08, frame))
    parts += [
        _slab(dx0 - 0.08, dx1 + 0.08, 0.0, door_h + 0.08, 0.01, 0.1, frame),  # door frame
        _slab(dx0, dx1, 0.0, door_h, 0.02, 0.11, "door_wood" if rng.random() < 0.5 else "shop_window"),
        _slab(dx1 - 0.15, dx1 - 0.1, 0.88, 1.05, 0.11, 0.15, "chrome"),  # handle
        _slab(sx0 - 0.02, sx1 + 0.02, y0 - 0.02, y1 + 0.02, SIGN_Z[0], SIGN_Z[1] - 0.002,
              tinted("shop_frame", np.array(st.fg) / 255.0)),
        _face(sx0, sx1, y0, y1, SIGN_Z[1], sign_material(place)),
    ]
    # awning over the whole front, in the sign colour (above the sign: never hides it from below)
    aw = _slab(-width / 2, width / 2, -0.02, 0.02, 0.0, 0.28, tinted("awning", np.array(st.bg) / 255.0))
    parts.append(transform(aw, pitch=0.35, offset=(0.0, top - 0.05, 0.02)))
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
