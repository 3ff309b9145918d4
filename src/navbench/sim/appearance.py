"""Put a scene's visual layer (``navbench.visual``) into a MuJoCo spec.

Visual geoms are mesh geoms that never collide (``contype = conaffinity = 0``) in
:data:`GROUP_APPEARANCE` (structure and objects) or :data:`GROUP_CEILING` (ceilings, drawn by
the robot's head camera only, so chase-camera videos still see into rooms). Each carries the
semantics (ref, label, kind) of the scene entity it shows, so segmentation stays exact. Boxes
that look like boxes (buildings, sidewalks, ground slabs, signs: ``SceneVisuals.box_materials``)
are drawn as themselves: their collision geom gets the material (uniform texture mapping) and
moves to :data:`GROUP_SELF` (still seen by the simulator's ground ray casts), which saves
thousands of geoms in a city. All other collision geoms stay in group 0, which cameras do not
draw when the world has an appearance (:attr:`World.appearance`). Materials: one MuJoCo
material per material key (tint included), one 2D texture per texture key (image row 0 = the
top, v = 1); mesh UVs are texture repeats. Outdoors a textured skybox (``visual.sky``), distance
haze and a sun whose shadows are baked (``visual.shadows``); indoors a dim sun and a point light
per room (≤ 6).
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Iterator

import mujoco
import numpy as np

from navbench.visual.build import SceneVisuals
from navbench.visual.sky import HORIZON, sky_faces

#: Geom groups of the visual layer (0 collision, 1 scene meshes, 2 robot, 3 hfield, 5 culled).
GROUP_APPEARANCE = 1
GROUP_CEILING = 4
GROUP_SELF = 3  # the heightfield group: ray-cast by the simulator, drawn only with an appearance
#: Visual geoms per attached sub-spec (see :func:`add_appearance`).
GEOM_CHUNK = 2000
#: Most point lights per world (the fixed-function renderer shades with a handful only).
MAX_POINT_LIGHTS = 6
#: Skybox face size (texels): ~4 texels per degree of a 90° view.
SKY_PX = 256
#: Distance haze: fog starts and is complete at these distances (m).
FOG_M = (60.0, 1500.0)
#: Visual meshes whose surface (m², vertices in MuJoCo's float32) is below this are left out:
#: MuJoCo refuses them ("mesh surface area is too small": a 1.6e-6 m² shadow sliver of a
#: 200 m demo city, two of whose vertices coincide in float32) and no camera would see them.
MIN_MESH_AREA = 1e-10


def mesh_area(vertices: np.ndarray, faces: np.ndarray) -> float:
    """Surface area (m²) of a triangle mesh with its vertices rounded to float32, as MuJoCo
    stores them.

    >>> mesh_area(np.array([[0, 0, 0], [1, 0, 0], [0, 0, 1]], float), np.array([[0, 1, 2]]))
    0.5
    >>> mesh_area(np.array([[-40.5, 0.0, 95.4256390], [-40.5, 0.0, 95.4256395], [-34.0, 0.0, 100.0]]),
    ...           np.array([[0, 1, 2]]))
    0.0
    """
    v = np.asarray(vertices, dtype=np.float32).astype(np.float64)
    f = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    if not len(f):
        return 0.0
    cross = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    return float(0.5 * np.linalg.norm(cross, axis=1).sum())


@contextlib.contextmanager
def quiet_attach() -> Iterator[None]:
    """Silence MuJoCo's compile-time warning about the unprefixed sub-specs of the visual layer."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Attaching a spec with an empty prefix")
        yield


def _quat(yaw: float) -> list[float]:
    return [math.cos(yaw / 2.0), 0.0, math.sin(yaw / 2.0), 0.0]


def add_appearance(spec: mujoco.MjSpec, vis: SceneVisuals, collision: dict[str, mujoco.MjsGeom],
                   seed: int = 0) -> list[tuple[str, str | None, str, str, str, bool]]:
    """Add meshes, textures, materials, lights and visual geoms of ``vis`` to ``spec``; give the
    self-drawn collision geoms (``collision``: name → geom) their materials. Outdoors also the
    seeded sky (``visual.sky``) and distance haze towards its horizon colour.

    Returns ``(geom name, ref, label, kind, layer, daylight)`` per visual geom added, for the geom
    table. Compile ``spec`` under :func:`quiet_attach` (MuJoCo repeats the unprefixed-attach
    warning).
    """
    for key, img in vis.textures.items():
        h, w = img.shape[:2]
        tex = spec.add_texture(name=f"tex:{key}", type=mujoco.mjtTexture.mjTEXTURE_2D, width=w, height=h,
                               nchannel=3)
        tex.data = np.ascontiguousarray(img[::-1], dtype=np.uint8).tobytes()  # bytes: 400× faster than a list
    for key, m in vis.materials.items():
        mat = spec.add_material()
        mat.name = f"mat:{key}"
        if key in vis.uniform:  # texture mapped per metre on a primitive (box) geom
            mat.texuniform = True
            mat.texrepeat = [1.0 / vis.uniform[key]] * 2
        mat.rgba = list(m.rgba)
        mat.specular, mat.shininess, mat.reflectance = m.specular, m.shininess, m.reflectance
        mat.emission = m.emission
        if m.texture and m.texture in vis.textures:
            tex = [""] * int(mujoco.mjtTextureRole.mjNTEXROLE)
            tex[int(mujoco.mjtTextureRole.mjTEXROLE_RGB)] = f"tex:{m.texture}"
            mat.textures = tex
    unseen = {key for key, p in vis.meshes.items() if mesh_area(p.vertices, p.faces) < MIN_MESH_AREA}
    for key, p in vis.meshes.items():
        if key in unseen:
            continue
        mesh = spec.add_mesh()
        mesh.name = f"vmesh:{key}"
        v, uv = p.vertices, p.uv
        if len(v) < 4:  # MuJoCo wants 4 vertices per mesh: repeat the first (unused)
            v = np.vstack([v, np.repeat(v[:1], 4 - len(v), axis=0)])
            uv = np.vstack([uv, np.repeat(uv[:1], 4 - len(uv), axis=0)])
        mesh.uservert = v.ravel().tolist()  # lists: the bindings convert numpy element by element
        mesh.userface = p.faces.ravel().tolist()
        mesh.usertexcoord = uv.ravel().tolist()  # v up: image rows are flipped on upload
        mesh.inertia = mujoco.mjtMeshInertia.mjMESH_INERTIA_SHELL
        mesh.maxhullvert = 4  # never collides: the smallest convex hull halves a city's compile time
    for name, key in vis.box_materials.items():
        geom = collision.get(f"box:{name}")
        if geom is None:
            continue
        geom.material = f"mat:{key}:u"
        geom.rgba = list(vis.materials[f"{key}:u"].rgba)
        geom.group = GROUP_SELF
    out = []
    for start in range(0, len(vis.geoms), GEOM_CHUNK):
        # MjSpec.add_geom costs time proportional to the geoms already in the spec (a 1 km² city:
        # ~0.4 ms each); a small spec per chunk, attached unprefixed, keeps it linear.
        chunk = mujoco.MjSpec()
        for g in vis.geoms[start:start + GEOM_CHUNK]:
            if g.mesh in unseen:
                continue
            geom = chunk.worldbody.add_geom()
            geom.name = g.name
            geom.type = mujoco.mjtGeom.mjGEOM_MESH
            geom.meshname = f"vmesh:{g.mesh}"  # resolved in ``spec`` at compile time
            geom.material = f"mat:{g.material}"
            geom.pos = list(g.pos)
            geom.quat = _quat(g.yaw)
            geom.contype, geom.conaffinity = 0, 0
            geom.group = GROUP_CEILING if g.layer == "ceiling" else GROUP_APPEARANCE
            out.append((g.name, g.ref, g.label, g.kind, g.layer, g.daylight))
        handler = mujoco.get_mju_user_warning()
        mujoco.set_mju_user_warning(lambda _msg: None)  # "empty prefix may prevent saving": no XML is saved
        try:
            spec.attach(chunk, frame=spec.worldbody.add_frame(), prefix="")
        finally:
            mujoco.set_mju_user_warning(handler)
    if vis.outdoor:  # indoors the ceilings hide it, and the skybox costs ~20 % of a CPU frame
        size = SKY_PX
        tex = spec.add_texture(name="sky", type=mujoco.mjtTexture.mjTEXTURE_SKYBOX, width=size, height=6 * size,
                               nchannel=3)
        tex.data = sky_faces(seed, size).tobytes()
        # distance haze: linear fog from FOG_M[0] to FOG_M[1] metres towards the horizon colour
        # (MuJoCo's fog distances are fractions of the model extent, set by the camera)
        spec.visual.rgba.fog = [*HORIZON, 1.0]
        spec.visual.rgba.haze = [*HORIZON, 1.0]
    points = [lt for lt in vis.lights if lt.kind == "point"][:MAX_POINT_LIGHTS]
    for lt in [*[x for x in vis.lights if x.kind == "sun"], *points]:
        light = spec.worldbody.add_light()
        light.diffuse = [lt.diffuse] * 3
        light.castshadow = lt.castshadow
        if lt.kind == "sun":
            light.type = mujoco.mjtLightType.mjLIGHT_DIRECTIONAL
            light.dir = list(lt.dir)
            light.pos = list(lt.pos)
        else:
            light.type = mujoco.mjtLightType.mjLIGHT_POINT
            light.pos = list(lt.pos)
            light.attenuation = [1.0, 0.0, 0.08]
    spec.visual.headlight.ambient = [0.3, 0.3, 0.3] if vis.outdoor else [0.38, 0.38, 0.38]
    spec.visual.headlight.diffuse = [0.25, 0.25, 0.25]
    spec.visual.quality.shadowsize = 1024
    return out
