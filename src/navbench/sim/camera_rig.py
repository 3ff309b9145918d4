"""Sensor rigs: where the head camera sits and what it sees (height, pitch, field of view, image
size, clip planes, reported depth range and depth noise), independent of the robot's body.

An agent trained on habitat's or AI2-THOR's camera sees a different world from a 0.37 m
Turtlebot camera; a :class:`CameraRig` moves only the sensor, so "does not know the object" can
be told apart from "never saw this viewpoint". The robot's physics and footprint stay the
same: the rig replaces :attr:`Embodiment.camera <navbench.sim.embodiments.Embodiment>` (a
MuJoCo camera, no geom) and the image size.

Presets (:data:`PRESETS`), each with its source:

- ``robot``: the embodiment's own head camera at the settings' image size (640×480 by
  default): Spot 0.52 m up, 0.5 m ahead, 10° down; Turtlebot 0.37 m, level; 79° vertical FOV.
  Every field is ``None`` ("the embodiment's"), so frames are byte-identical to a run without
  a rig.
- ``habitat-vlnce``: habitat-lab's default sensor ``POSITION [0, 1.25, 0]`` (at the agent's
  centre, level), VLN-CE's ``vlnce_task.yaml`` RGB sensor ``WIDTH/HEIGHT 224, HFOV 90`` and
  habitat-lab's depth sensor ``MIN_DEPTH 0.0, MAX_DEPTH 10.0`` (VLN-CE's depth sensor is
  256×256 at the same 90°; render it with ``size=256x256``).
- ``procthor``: the ProcTHOR ObjectNav agent of ``allenai/procthor-rl``
  (``config/agent/default.yaml``: agent mode ``default``, camera 1.5759992 m up, AI2-THOR
  ``fieldOfView`` 65°, which is vertical; ``config/main.yaml``: 400×300 frames, horizon 0 at
  the start), so HFOV = 2 atan(tan 32.5° · 400/300) = 80.7°. Its models resize frames to 224.

Overrides: ``"habitat-vlnce,size=256x256"``, ``"height=1.25,hfov=90,size=224x224"`` (on the
robot's own camera) — see :func:`parse_camera`. Keys: ``height`` (m above the ground point),
``pitch`` (deg, positive looks down), ``hfov`` (deg), ``size`` (WxH px), ``forward`` (m ahead
of the base centre), ``near``/``far`` (clip planes, m), ``depth`` (``MIN-MAX`` m: reported
depth is clipped to it, ``0`` stays "no hit"), ``noise`` (σ₁ m: Gaussian depth noise with
σ(z) = σ₁ · z², the quadratic growth of structured-light and stereo sensors).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import numpy as np

from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject
from navbench.sim.embodiments import CameraMount, Embodiment

#: Default image size (px) of the robot rig (``SimSettings.width/height``).
DEFAULT_SIZE = (640, 480)
#: Default clip planes (m) of the head camera (``sim.sensors.Camera``).
DEFAULT_NEAR, DEFAULT_FAR = 0.02, 1000.0


def fovy_of_hfov(hfov_deg: float, width: int, height: int) -> float:
    """Vertical field of view (deg) of a pinhole camera with square pixels:
    ``2 atan(tan(hfov/2) · H/W)``.

    >>> round(fovy_of_hfov(90.0, 224, 224), 6), round(fovy_of_hfov(90.0, 640, 480), 3)
    (90.0, 73.74)
    """
    return math.degrees(2.0 * math.atan(math.tan(math.radians(hfov_deg) / 2.0) * height / width))


def hfov_of_fovy(fovy_deg: float, width: int, height: int) -> float:
    """Horizontal field of view (deg) from the vertical one: ``2 atan(tan(fovy/2) · W/H)``.

    >>> round(hfov_of_fovy(65.0, 400, 300), 1)
    80.7
    """
    return math.degrees(2.0 * math.atan(math.tan(math.radians(fovy_deg) / 2.0) * width / height))


@dataclass(frozen=True)
class CameraRig:
    """A head-camera spec; ``None`` fields keep the embodiment's own value (or the settings'
    image size), so the all-``None`` ``robot`` rig changes nothing.

    Attributes:
        name: preset name (``robot``, ``habitat-vlnce``, ``procthor``) or ``custom``.
        height: optical centre above the base's ground point on flat floor (m).
        pitch: downward tilt (deg; positive looks down).
        hfov: horizontal field of view (deg); the vertical one follows from the image size.
        size: image (width, height) in pixels.
        forward: optical centre ahead of the base centre (m).
        near, far: clip planes (m): nothing nearer than ``near`` is drawn.
        depth_range: reported depth (m) clipped to ``(min, max)``; ``0`` ("no hit") stays 0.
        depth_noise: σ₁ (m): Gaussian noise with σ(z) = σ₁ · z² on every hit; 0 = exact depth.
    """

    name: str = "robot"
    height: float | None = None
    pitch: float | None = None
    hfov: float | None = None
    size: tuple[int, int] | None = None
    forward: float | None = None
    near: float = DEFAULT_NEAR
    far: float = DEFAULT_FAR
    depth_range: tuple[float, float] | None = None
    depth_noise: float = 0.0

    @property
    def is_default(self) -> bool:
        """The embodiment's own camera at the settings' size (nothing to change)."""
        return self == ROBOT

    def image_size(self, default: tuple[int, int] = DEFAULT_SIZE) -> tuple[int, int]:
        """(width, height) in pixels: :attr:`size`, else ``default``."""
        return self.size if self.size is not None else (int(default[0]), int(default[1]))

    def mount(self, emb: Embodiment, default_size: tuple[int, int] = DEFAULT_SIZE) -> CameraMount:
        """The camera mount on ``emb``'s body (its origin is ``sole_height`` above the ground)."""
        own = emb.camera
        w, h = self.image_size(default_size)
        y = own.pos[1] if self.height is None else self.height - emb.sole_height
        z = own.pos[2] if self.forward is None else -self.forward
        pitch = own.pitch if self.pitch is None else math.radians(self.pitch)
        fovy = own.fovy if self.hfov is None else fovy_of_hfov(self.hfov, w, h)
        return CameraMount(pos=(own.pos[0], y, z), pitch=pitch, fovy=fovy)

    def apply(self, emb: Embodiment, default_size: tuple[int, int] = DEFAULT_SIZE) -> Embodiment:
        """``emb`` with this rig's camera (the same body, mass, limits and footprint)."""
        if self.is_default:
            return emb
        return dataclasses.replace(emb, camera=self.mount(emb, default_size))

    def process_depth(self, depth: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        """Noise (σ(z) = σ₁ z², on hits only) then the reported range; in place, returned."""
        if self.depth_noise > 0.0 and rng is not None:
            hit = depth > 0.0
            z = depth[hit].astype(np.float64)
            depth[hit] = np.maximum(z + rng.standard_normal(z.shape) * self.depth_noise * z * z, 1e-6)
        if self.depth_range is not None:
            lo, hi = self.depth_range
            hit = depth > 0.0
            np.clip(depth, lo, hi, out=depth, where=hit)
        return depth

    def describe(self, emb: Embodiment, default_size: tuple[int, int] = DEFAULT_SIZE) -> JSONObject:
        """What an agent is told about its camera (:class:`~navbench.agents.base.Task`'s
        ``camera``, the remote protocol): the rig name, pinhole intrinsics ``fx, fy, cx, cy``
        (px; OpenCV convention, pixel centres at integers), ``width, height`` (px), ``hfov_deg,
        vfov_deg``, ``height_m`` (optical centre above the ground point), ``forward_m``,
        ``pitch_deg`` (down), clip planes ``near_m, far_m``, the reported ``depth_min_m,
        depth_max_m`` (``null``: unclipped) and ``depth_noise_m`` (σ₁)."""
        w, h = self.image_size(default_size)
        m = self.mount(emb, default_size)
        f = (h / 2.0) / math.tan(math.radians(m.fovy) / 2.0)
        lo, hi = self.depth_range if self.depth_range is not None else (None, None)
        return {"rig": self.name, "width": w, "height": h, "fx": f, "fy": f,
                "cx": (w - 1) / 2.0, "cy": (h - 1) / 2.0,
                "hfov_deg": hfov_of_fovy(m.fovy, w, h), "vfov_deg": m.fovy,
                "height_m": m.pos[1] + emb.sole_height, "forward_m": -m.pos[2],
                "pitch_deg": math.degrees(m.pitch), "near_m": self.near, "far_m": self.far,
                "depth_min_m": lo, "depth_max_m": hi, "depth_noise_m": self.depth_noise}

    def to_json(self) -> JSONObject:
        """The rig as recorded with a run (its fields; ``None`` = the embodiment's)."""
        d: JSONObject = {k: v for k, v in dataclasses.asdict(self).items()}
        for k in ("size", "depth_range"):
            if d[k] is not None:
                d[k] = list(d[k])
        return d

    def label(self) -> str:
        """A one-line description for reports: ``habitat-vlnce (1.25 m, 0°, HFOV 90°, 224×224)``."""
        if self.is_default:
            return "robot (the embodiment's own camera)"
        parts = []
        if self.height is not None:
            parts.append(f"{self.height:g} m")
        if self.pitch is not None:
            parts.append(f"pitch {self.pitch:g}°")
        if self.hfov is not None:
            parts.append(f"HFOV {self.hfov:.1f}°".replace(".0°", "°"))
        if self.size is not None:
            parts.append(f"{self.size[0]}×{self.size[1]}")
        if self.depth_range is not None:
            parts.append(f"depth {self.depth_range[0]:g}–{self.depth_range[1]:g} m")
        if self.depth_noise:
            parts.append(f"noise {self.depth_noise:g}·z² m")
        return f"{self.name} ({', '.join(parts)})" if parts else self.name


ROBOT = CameraRig()
HABITAT_VLNCE = CameraRig("habitat-vlnce", height=1.25, pitch=0.0, hfov=90.0, size=(224, 224),
                          forward=0.0, near=0.01, far=1000.0, depth_range=(0.0, 10.0))
PROCTHOR = CameraRig("procthor", height=1.5759992, pitch=0.0,
                     hfov=round(hfov_of_fovy(65.0, 400, 300), 4), size=(400, 300), forward=0.0)
#: The named rigs (see the module docs for their sources).
PRESETS: dict[str, CameraRig] = {r.name: r for r in (ROBOT, HABITAT_VLNCE, PROCTHOR)}

_KEYS = ("height", "pitch", "hfov", "size", "forward", "near", "far", "depth", "noise")


def _bad(text: str, what: str) -> ConfigError:
    return ConfigError(f"--camera {text!r}: {what}")


def _number(text: str, key: str, value: str, lo: float, hi: float) -> float:
    try:
        v = float(value)
    except ValueError:
        v = math.nan
    if not (lo <= v <= hi):  # NaN fails this too
        raise _bad(text, f"{key}: expected a number in [{lo:g}, {hi:g}], got {value!r}")
    return v


def parse_camera(text: str | CameraRig | None) -> CameraRig:
    """A rig from ``"PRESET"``, ``"PRESET,key=value,..."`` or ``"key=value,..."`` (on the robot's
    own camera); keys and units in the module docs.

    Raises:
        ConfigError: one line naming the bad key or value and what was expected.

    >>> parse_camera("habitat-vlnce").label()
    'habitat-vlnce (1.25 m, pitch 0°, HFOV 90°, 224×224, depth 0–10 m)'
    >>> r = parse_camera("height=1.25,hfov=90,size=224x224")
    >>> r.name, r.height, r.hfov, r.size, r.pitch
    ('custom', 1.25, 90.0, (224, 224), None)
    >>> parse_camera("habitat-vlnce,size=256x256").size
    (256, 256)
    """
    if text is None:
        return ROBOT
    if isinstance(text, CameraRig):
        return text
    items = [t.strip() for t in str(text).split(",") if t.strip()]
    if not items:
        raise _bad(text, f"expected a preset ({', '.join(PRESETS)}) or key=value pairs")
    rig = ROBOT
    if "=" not in items[0]:
        name = items.pop(0).lower()
        if name not in PRESETS:
            raise _bad(text, f"unknown preset {name!r}; expected one of {', '.join(PRESETS)} "
                             f"or key=value pairs ({', '.join(_KEYS)})")
        rig = PRESETS[name]
    changes: dict[str, object] = {}
    for item in items:
        key, sep, value = (s.strip() for s in item.partition("="))
        key = key.lower()
        if not sep:
            raise _bad(text, f"expected key=value after the preset, got {item!r}")
        if key not in _KEYS:
            raise _bad(text, f"unknown key {key!r}; expected one of {', '.join(_KEYS)}")
        if key == "size":
            m = re.fullmatch(r"(\d+)[xX](\d+)", value)
            if not m or not all(16 <= int(g) <= 4096 for g in m.groups()):
                raise _bad(text, f"size: expected WxH with 16..4096 pixels each (e.g. 224x224), got {value!r}")
            changes["size"] = (int(m.group(1)), int(m.group(2)))
        elif key == "depth":
            lo_s, dash, hi_s = value.partition("-")
            lo = _number(text, "depth", lo_s, 0.0, 1e5) if dash else math.nan
            hi = _number(text, "depth", hi_s, 0.0, 1e5) if dash else math.nan
            if not (lo < hi):
                raise _bad(text, f"depth: expected MIN-MAX in metres with MIN < MAX (e.g. 0-10), got {value!r}")
            changes["depth_range"] = (lo, hi)
        elif key == "noise":
            changes["depth_noise"] = _number(text, "noise", value, 0.0, 1.0)
        else:
            lo, hi = {"height": (0.05, 10.0), "pitch": (-89.0, 89.0), "hfov": (1.0, 170.0),
                      "forward": (-5.0, 5.0), "near": (0.001, 10.0), "far": (0.1, 1e5)}[key]
            changes[key] = _number(text, key, value, lo, hi)
    out = dataclasses.replace(rig, **changes)  # type: ignore[arg-type]  # keys checked above
    if changes:
        out = dataclasses.replace(out, name=rig.name if rig is not ROBOT else "custom")
    if not out.near < out.far:
        raise _bad(text, f"near/far: expected near < far, got {out.near:g} and {out.far:g} m")
    return out


def rig_of_json(d: object, where: str = "camera") -> CameraRig:
    """Inverse of :meth:`CameraRig.to_json` (a run's recorded rig); ``None`` → ``robot``."""
    if d is None:
        return ROBOT
    if not isinstance(d, dict):
        raise ConfigError(f"{where}: expected an object with the rig's fields, got {type(d).__name__}")
    known = {f.name for f in dataclasses.fields(CameraRig)}
    bad = sorted(set(d) - known)
    if bad:
        raise ConfigError(f"{where}: unknown field(s) {bad}; expected some of {sorted(known)}")
    kw = dict(d)
    for k in ("size", "depth_range"):
        if kw.get(k) is not None:
            kw[k] = tuple(kw[k])
    return CameraRig(**kw)
