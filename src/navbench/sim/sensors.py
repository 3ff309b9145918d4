"""RGB, depth and semantic segmentation from MuJoCo's renderer on the CPU (Mesa).

Two GL passes per frame: a shaded RGB pass, then a segmentation pass (flat ID colours) whose
colour and depth buffers are read together. Depth is metric z-depth along the camera's optical
axis (m), ``0`` where nothing was hit, clipped to [near, far] = [0.1, 1000] m by default.
Segmentation pixels hold *segment ids* (0 = nothing / the robot): one id per scene entity
(object, surface, room, or geom without a scene id); :attr:`Camera.segmentation_labels` maps
them to ``(scene id, label)``. Culling is size-aware: a static geom whose AABB diagonal is
``s`` metres is hidden (geom group 5) when it is farther than ``min(max_cull, s · cull_distance)``
from the camera (``cull_distance`` = the limit for a 1 m object; buildings stay to 300 m; flat
ground pieces to 120 m, storefronts to 80 m), or out of the view frustum (see ``Camera._cull``).
With a visual layer (:attr:`World.appearance`) the visual meshes are drawn (and segmented, with
their scene ids) instead of the collision geoms; ceilings only for the head camera. Its RGB is
exposed across daylight and room light (``sim.exposure``: metered per frame from the
segmentation pass); outdoors distant geometry fades into the sky's haze.

``MUJOCO_GL`` picks the GL backend (``osmesa`` by default, set only here, when the first
renderer is created in this process; ``egl`` and ``glfw`` also work).
"""

from __future__ import annotations

import math
import os
import weakref
from typing import Literal, Protocol, overload

import mujoco
import numpy as np

from navbench.errors import MissingDependencyError
from navbench.sim.appearance import FOG_M, GROUP_CEILING, GROUP_SELF
from navbench.sim.embodiments import (
    GROUP_HFIELD,
    GROUP_HIDDEN,
    GROUP_ROBOT,
    GROUP_STATIC,
    GROUP_VISUAL,
)
from navbench.sim.exposure import expose_coded
from navbench.sim.world import World
from navbench.visual.imported import LOD_DISTANCE_M


class GLContextLike(Protocol):
    """MuJoCo's off-screen GL contexts (``mujoco.osmesa``/``egl``/``glfw`` ``GLContext``)."""

    def make_current(self) -> None: ...
    def free(self) -> None: ...

_APT = {
    "osmesa": "apt-get install libosmesa6",
    "egl": "apt-get install libegl1 libopengl0 libgl1-mesa-dri",
    "glfw": "apt-get install libglfw3 libgl1",
}


def _free(ctx: GLContextLike, mjr: mujoco.MjrContext) -> None:
    ctx.make_current()
    mjr.free()
    ctx.free()


def gl_context(width: int, height: int) -> GLContextLike:
    """Create and make current an off-screen GL context for ``MUJOCO_GL`` (default osmesa).

    Raises:
        MissingDependencyError: the GL library cannot be loaded; names the apt package.
    """
    backend = os.environ.setdefault("MUJOCO_GL", "osmesa").lower().strip()
    if backend not in _APT:
        raise MissingDependencyError(
            f"MUJOCO_GL={backend!r} is not supported for rendering; use osmesa, egl or glfw"
        )
    try:
        if backend == "osmesa":
            from mujoco.osmesa import GLContext
        elif backend == "egl":
            from mujoco.egl import GLContext
        else:
            from mujoco.glfw import GLContext
        ctx = GLContext(width, height)
        ctx.make_current()
    except Exception as e:  # ImportError, OSError, RuntimeError from PyOpenGL / the loader
        raise MissingDependencyError(
            f"cannot create a {backend} OpenGL context for rendering ({type(e).__name__}: {e}). "
            f"Install the system library with `sudo {_APT[backend]}` (or run `make setup`), "
            "or set MUJOCO_GL to another backend (osmesa, egl)."
        ) from e
    return ctx


class Camera:
    """Renders one model camera (by name) into RGB (H,W,3 uint8), depth (H,W float32) and
    segment ids (H,W int32).

    Args:
        world: the compiled world.
        camera: camera name in the model (the robot head camera by default).
        width, height: image size (px).
        cull_distance: distance (m) beyond which a 1 m object is hidden; an object of AABB
            diagonal ``s`` m is hidden beyond ``min(max_cull, s · cull_distance)``; ``None``: no culling.
        show_robot: draw the robot's own geoms (off for the head camera).
        depth_range: (near, far) clip distances (m).
        max_cull: no static geom is drawn farther than this (m).
        ceilings: draw room ceilings (default: only for the head camera).
        lod_distance: outdoor objects switch from detailed parts to one far mesh here (m).
        ground_cull, sign_cull: farthest ground pieces (roads, sidewalks...) and storefronts (m).
        samples: multisample anti-aliasing samples per pixel of the off-screen buffer (0: none;
            4 roughly doubles a frame on a CPU renderer, and blends segment ids at edges).
    """

    def __init__(self, world: World, camera: str = "robot/head", width: int = 640,
                 height: int = 480, cull_distance: float | None = 80.0,
                 show_robot: bool = False, depth_range: tuple[float, float] = (0.02, 1000.0),
                 max_cull: float = 300.0, ceilings: bool | None = None, lod_distance: float = 25.0,
                 ground_cull: float = 120.0, sign_cull: float = 80.0, samples: int = 0):
        m = world.model
        if width > m.vis.global_.offwidth or height > m.vis.global_.offheight:
            raise ValueError(f"image {width}x{height} exceeds the model's offscreen buffer")
        self.world, self.width, self.height = world, width, height
        self.cam_id = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, camera)
        if self.cam_id < 0:
            raise ValueError(f"no camera named {camera!r}")
        self.cull_distance = cull_distance
        self.near, self.far = depth_range
        ext = float(m.stat.extent)
        m.vis.map.znear = self.near / ext
        m.vis.map.zfar = self.far / ext
        self._ctx = gl_context(width, height)
        model_samples = int(m.vis.quality.offsamples)
        m.vis.quality.offsamples = samples  # read once, by the context; MSAA costs ~half a CPU frame
        try:
            self._mjr = mujoco.MjrContext(m, mujoco.mjtFontScale.mjFONTSCALE_100)
        finally:
            m.vis.quality.offsamples = model_samples
        # Free GL objects before interpreter shutdown (PyOpenGL cannot free them afterwards).
        self._finalizer = weakref.finalize(self, _free, self._ctx, self._mjr)
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self._mjr)
        self._mjr.readDepthMap = mujoco.mjtDepthMap.mjDEPTH_ZEROFAR
        self._scn = mujoco.MjvScene(m, maxgeom=max(1000, 2 * m.ngeom + 100))
        # MuJoCo mirrors the scene in the local +Z face of reflective boxes (a vertical face here:
        # Y is up); that extra pass costs ~20 % of a street frame and shows nothing right.
        self._scn.flags[mujoco.mjtRndFlag.mjRND_REFLECTION] = 0
        if world.sky:  # distance haze towards the sky's horizon (``sim.appearance``), RGB only
            m.vis.map.fogstart, m.vis.map.fogend = FOG_M[0] / ext, FOG_M[1] / ext
            self._scn.flags[mujoco.mjtRndFlag.mjRND_FOG] = 1
        # exposure across daylight and room light (``sim.exposure``): per geom, then the sky
        self._day = np.array([g.daylight for g in world.geoms] + [world.sky], bool)
        self._expose = world.appearance and bool(self._day.any())
        self._seg_flags = self._scn.flags.copy()
        for flag, on in ((mujoco.mjtRndFlag.mjRND_SEGMENT, 1), (mujoco.mjtRndFlag.mjRND_IDCOLOR, 1),
                         (mujoco.mjtRndFlag.mjRND_SKYBOX, 0), (mujoco.mjtRndFlag.mjRND_SHADOW, 0),
                         (mujoco.mjtRndFlag.mjRND_FOG, 0), (mujoco.mjtRndFlag.mjRND_HAZE, 0)):
            self._seg_flags[flag] = on
        self._cam = mujoco.MjvCamera()
        self._cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
        self._cam.fixedcamid = self.cam_id
        self._opt = mujoco.MjvOption()
        self._opt.geomgroup[:] = 1
        self._opt.geomgroup[GROUP_HIDDEN] = 0
        self._opt.geomgroup[GROUP_ROBOT] = 1 if show_robot else 0
        # Mesh scenes render their visual meshes, not the collision heightfield.
        has_visual = bool(np.any(m.geom_group == GROUP_VISUAL))
        self._opt.geomgroup[GROUP_HFIELD] = 0 if has_visual else 1
        if world.appearance:  # the visual layer replaces the collision geoms in pictures
            self._opt.geomgroup[GROUP_STATIC] = 0
            self._opt.geomgroup[GROUP_SELF] = 1  # boxes drawn as themselves
            self._opt.geomgroup[GROUP_CEILING] = int(camera == "robot/head" if ceilings is None else ceilings)
        self._rect = mujoco.MjrRect(0, 0, width, height)
        self._rgb = np.empty((height, width, 3), np.uint8)
        self._seg = np.empty((height, width, 3), np.uint8)
        self._depth = np.empty((height, width), np.float32)
        # Segment ids: one per scene entity.
        keys: dict[tuple[str | None, str], int] = {}
        self.segmentation_labels: dict[int, tuple[str | None, str]] = {}
        self._geom_seg = np.zeros(m.ngeom + 1, np.int32)
        for gid, info in enumerate(world.geoms):
            if info.kind == "robot":
                continue
            key = (info.ref if info.ref is not None else info.name, info.label)
            if key not in keys:
                keys[key] = len(keys) + 1
                self.segmentation_labels[keys[key]] = (info.ref, info.label)
            self._geom_seg[gid] = keys[key]
        self._static = world.static_geoms
        self._lo, self._hi = world.aabb_lo[self._static], world.aabb_hi[self._static]
        diag = np.linalg.norm(self._hi - self._lo, axis=1)
        hi = np.full(len(self._static), np.inf)
        if cull_distance is not None:
            hi = np.minimum(max_cull, np.maximum(diag, 0.05) * cull_distance)
        infos = [world.geoms[g] for g in self._static]
        # flat ground far away is a few pixel rows at the horizon; shop fronts are props
        ground = np.array([i.ground for i in infos], bool)
        hi = np.where(ground, np.minimum(hi, ground_cull), hi)
        hi = np.where(np.array([i.kind == "sign" for i in infos], bool), np.minimum(hi, sign_cull), hi)
        layers = np.array([i.layer for i in infos], dtype=object)
        hi = np.where(layers == "near", np.minimum(hi, lod_distance), hi)
        lo = np.where(layers == "far", lod_distance, 0.0)
        hi = np.where(layers == "tile_near", np.minimum(hi, LOD_DISTANCE_M), hi)  # imported-mesh tiles
        lo = np.where(layers == "tile_far", LOD_DISTANCE_M, lo)
        self._limit2, self._near2 = hi**2, lo**2
        self._lod = bool(np.isin(layers, ("far", "tile_far")).any())
        shadows = [g for g in self._static if world.geoms[g].layer == "shadow"]
        self._first_shadow = min(shadows) if shadows else m.ngeom + 1
        # View frustum (camera frame: looks along -z, y up): inward normals of the four side
        # planes and of the camera's own plane (facing forward), all through the camera; exact for
        # pictures unless geoms out of view can show up in shadow maps or reflections, then off.
        self._centre, self._half = (self._lo + self._hi) / 2.0, (self._hi - self._lo) / 2.0 + 0.01
        ty = math.tan(math.radians(float(m.cam_fovy[self.cam_id])) / 2.0)
        tx = ty * width / height
        self._planes = np.array([[1.0, 0.0, -tx], [-1.0, 0.0, -tx], [0.0, 1.0, -ty], [0.0, -1.0, -ty],
                                 [0.0, 0.0, -1.0]])
        ortho = bool(getattr(m, "cam_projection", np.zeros(m.ncam))[self.cam_id])
        # MuJoCo mirrors the scene only in reflective planes and boxes, and only with the reflection
        # flag on (this camera turns it off: see above)
        mirror = np.isin(m.geom_type, (mujoco.mjtGeom.mjGEOM_PLANE, mujoco.mjtGeom.mjGEOM_BOX)) & (m.geom_matid >= 0)
        mirror[mirror] = m.mat_reflectance[m.geom_matid[mirror]] > 0
        mirrors = bool(mirror.any()) and bool(self._scn.flags[mujoco.mjtRndFlag.mjRND_REFLECTION])
        shadowed = bool(np.any(m.light_castshadow)) or mirrors
        self._frustum = cull_distance is not None and not ortho and not shadowed

    @property
    def geom_segments(self) -> np.ndarray:
        """Lookup table: MuJoCo geom id → segment id (0 for robot geoms)."""
        return self._geom_seg[:-1]

    def intrinsics(self) -> np.ndarray:
        """3×3 pinhole matrix K (pixels; OpenCV convention: pixel centres at integers,
        u right, v down), from the camera's vertical field of view."""
        fovy = math.radians(float(self.world.model.cam_fovy[self.cam_id]))
        f = (self.height / 2.0) / math.tan(fovy / 2.0)
        return np.array([[f, 0.0, (self.width - 1) / 2.0],
                         [0.0, f, (self.height - 1) / 2.0],
                         [0.0, 0.0, 1.0]])

    def _cull(self, data: mujoco.MjData) -> np.ndarray | None:
        """Hide (geom group 5) static geoms beyond their distance limit or whose AABB lies wholly
        outside the view frustum (perspective cameras without shadow-casting lights or reflective
        materials); returns the saved ``geom_group`` to restore, or ``None`` if nothing is hidden."""
        if (self.cull_distance is None and not self._lod) or len(self._static) == 0:
            return None
        p = data.cam_xpos[self.cam_id]
        gap = np.maximum(np.maximum(self._lo - p, p - self._hi), 0.0)
        d2 = np.einsum("ij,ij->i", gap, gap)
        far = (d2 > self._limit2) | (d2 < self._near2)
        if self._frustum:  # AABB wholly on the outer side of a side plane
            n = self._planes @ data.cam_xmat[self.cam_id].reshape(3, 3).T  # world normals (5, 3)
            reach = (self._centre - p) @ n.T + self._half @ np.abs(n).T
            far |= (reach < 0.0).any(axis=1)
        if not far.any():
            return None
        m = self.world.model
        saved = m.geom_group.copy()
        m.geom_group[self._static[far]] = GROUP_HIDDEN
        return saved

    @overload
    def render(self, data: mujoco.MjData, rgb: Literal[True] = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    @overload
    def render(self, data: mujoco.MjData, rgb: bool) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]: ...

    def render(self, data: mujoco.MjData, rgb: bool = True) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """RGB, depth and segment ids of the current state (copies); ``rgb=False`` skips the
        shaded pass (one pass instead of two; RGB is then ``None``)."""
        m = self.world.model
        self._ctx.make_current()
        saved = self._cull(data)
        try:
            mujoco.mjv_updateScene(m, data, self._opt, None, self._cam,
                                   mujoco.mjtCatBit.mjCAT_ALL, self._scn)
        finally:
            if saved is not None:
                m.geom_group[:] = saved
        scn = self._scn
        if rgb:
            mujoco.mjr_render(self._rect, scn, self._mjr)
            mujoco.mjr_readPixels(self._rgb, None, self._rect, self._mjr)
        # Segment colour -> scene geom index -> model geom id -> segment id.
        n = n_all = scn.ngeom
        seg_to_geom = np.full(n + 2, -1, np.int32)
        geom_obj = mujoco.mjtObj.mjOBJ_GEOM
        for i in range(n):
            g = scn.geoms[i]
            if g.objtype == geom_obj:
                if g.objid >= self._first_shadow:
                    n = i  # baked shadows (last static geoms) are drawn in RGB only
                    break
                if g.segid >= 0:
                    seg_to_geom[g.segid + 1] = g.objid
        flags = scn.flags.copy()
        scn.flags[:] = self._seg_flags
        scn.ngeom = n
        try:
            mujoco.mjr_render(self._rect, scn, self._mjr)
            mujoco.mjr_readPixels(self._seg, self._depth, self._rect, self._mjr)
        finally:
            scn.flags[:] = flags
            scn.ngeom = n_all
        # Rows are read bottom-up: index flipped views (fancy indexing returns fresh arrays).
        if n + 1 < 256:  # ids fit in the red channel
            code: np.ndarray = self._seg[::-1, :, 0]
        else:
            s = self._seg[::-1].astype(np.int32)
            code = (s[..., 0] | (s[..., 1] << 8) | (s[..., 2] << 16)).clip(0, n + 1)
        semantic = np.take(self._geom_seg[seg_to_geom], code)  # index -1 hits the trailing 0
        depth = self._linear_depth(self._depth[::-1])
        image = self._rgb[::-1].copy() if rgb else None
        if image is not None and self._expose:
            image = expose_coded(image, code, self._day[seg_to_geom].view(np.uint8))
        return image, depth, semantic

    def _linear_depth(self, zbuf: np.ndarray) -> np.ndarray:
        """Reverse-Z depth buffer → metric z-depth (m, float32; a new array); 0 where nothing
        was drawn."""
        ext = float(self.world.model.stat.extent)
        znear = np.float32(self.world.model.vis.map.znear * ext)
        zfar = np.float32(self.world.model.vis.map.zfar * ext)
        c = -(zfar + znear) / (zfar - znear)
        d = -(np.float32(2) * zfar * znear) / (zfar - znear)
        c, d = np.float32(-0.5) * c - np.float32(0.5), np.float32(-0.5) * d
        out = zbuf + c
        with np.errstate(divide="ignore"):
            np.divide(d, out, out=out)
        out[(zbuf <= 0.0) | ~np.isfinite(out) | (out >= np.float32(0.999) * zfar)] = 0.0
        return out

    def close(self) -> None:
        """Free GL resources (idempotent)."""
        self._finalizer()
