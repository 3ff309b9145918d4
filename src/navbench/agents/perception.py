"""Perception for observation-only agents: back-projection of depth + semantic pixels into
world-frame object detections and floor patches, a seeded detector-noise model, and room-type
recognition.

What an agent receives (SPEC §6, ``sensors = {"semantic"}``): per-pixel metric z-depth (m,
0 = no hit), segment ids and a segment id → *label* table (no scene ids), the pinhole
intrinsics K (pixels, u right, v down), ``cam_to_body`` (OpenGL camera: x right, y up, looks
−Z) and the base pose (x, y, z, yaw) whose y is the *ground point*. The body origin sits an
unknown height above that ground point; :class:`Perceiver` estimates it once from the floor
pixels (they must lie at the ground point's height).

Segment ids are used only **within one frame** (as an instance-segmentation output); across
frames, detections are associated by label and 3D overlap (``agents.mapping.ObjectMap``).
Room floors are labelled ``"floor/<room type>"`` by the simulator (a region annotation, like
habitat's semantic regions); the reported room type goes through the same confusion noise as
object labels. Floors labelled just ``"floor"`` carry no type: the agent then recognises the
room from the objects seen on it (:func:`room_type`, a common-sense prior).

World frame: Habitat (metres, +Y up, north = −Z); yaw θ turns (x, z) body coordinates into
world ones as (x cos θ + z sin θ, −x sin θ + z cos θ).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from navbench.errors import ConfigError
from navbench.jsontypes import Observation

#: Labels of structure (never reported as objects).
STRUCTURE_LABELS: frozenset[str] = frozenset(
    {"floor", "wall", "ceiling", "door", "doorframe", "window", "terrain", "stairs", "robot",
     "sidewalk", "road", "crosswalk", "green", "water", "building"})

#: Common-sense cues: object label → room type it indicates (weight 1 each). The agent's prior,
#: not read from any scene; a room's type is the type with most cue objects on its floor.
ROOM_CUES: dict[str, str] = {
    **dict.fromkeys(("fridge", "oven", "dishwasher", "counter", "microwave", "pot", "stove",
                     "kettle", "toaster"), "kitchen"),
    **dict.fromkeys(("bed", "wardrobe", "nightstand", "pillow", "dresser"), "bedroom"),
    **dict.fromkeys(("toilet", "sink", "towel rack", "washing machine", "laundry detergent",
                     "bathtub", "shower"), "bathroom"),
    **dict.fromkeys(("sofa", "coffee table", "tv stand", "tv", "game console", "remote control",
                     "armchair"), "living room"),
    **dict.fromkeys(("dining table",), "dining room"),
    **dict.fromkeys(("desk", "office chair", "computer", "monitor"), "office"),
}


#: Room types the detector knows besides those in a scene's label table (for confusion draws).
ROOM_TYPES: tuple[str, ...] = ("bathroom", "bedroom", "dining room", "kitchen", "living room",
                               "office")


def floor_room(label: str) -> str | None:
    """``"kitchen"`` for ``"floor/kitchen"``, ``""`` for an untyped ``"floor"``, else ``None``."""
    if label == "floor":
        return ""
    if label.startswith("floor/"):
        return label[6:]
    return None


def room_type(labels: Sequence[str], cues: Mapping[str, str] | None = None) -> str | None:
    """The room type most supported by ``labels`` (ties: alphabetical), ``None`` without cues."""
    votes: dict[str, int] = {}
    for lab in labels:
        t = (cues or ROOM_CUES).get(lab)
        if t is not None:
            votes[t] = votes.get(t, 0) + 1
    if not votes:
        return None
    return min(votes, key=lambda t: (-votes[t], t))


@dataclass(frozen=True)
class NoiseModel:
    """Seeded detector noise (all zero = perfect perception).

    Errors are drawn once per (episode, frame-level segment) so that a detector consistently
    misses or mislabels the same object, as real detectors do; position noise is a persistent
    per-object offset plus per-frame jitter.

    Attributes:
        miss_prob: probability that an object is never detected.
        confusion_prob: probability that an object (or a room's type) is reported with another
            label, drawn uniformly from the other labels the detector knows.
        position_sigma: σ (m) of the persistent XZ offset of each object; per-frame jitter is σ/2.
        seed: base seed; the episode id is mixed in by :meth:`Perceiver.reset`.
    """

    miss_prob: float = 0.0
    confusion_prob: float = 0.0
    position_sigma: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("miss_prob", "confusion_prob"):
            v = getattr(self, name)
            if not (0.0 <= v <= 1.0):
                raise ConfigError(f"noise: {name}: expected a probability in [0, 1], got {v}")
        if not (self.position_sigma >= 0.0 and math.isfinite(self.position_sigma)):
            raise ConfigError(f"noise: position_sigma: expected metres ≥ 0, got {self.position_sigma}")

    @classmethod
    def level(cls, x: float, seed: int = 0) -> NoiseModel:
        """One knob: miss and confusion probability ``x``, position σ = ``x`` metres."""
        return cls(miss_prob=x, confusion_prob=x, position_sigma=x, seed=seed)

    @property
    def is_zero(self) -> bool:
        """Whether the model adds no noise."""
        return self.miss_prob == 0 and self.confusion_prob == 0 and self.position_sigma == 0


@dataclass
class Detection:
    """One object seen in one frame (world frame, m).

    Attributes:
        label: reported category.
        points: (N, 3) world points of its visible pixels.
        lo, hi: AABB of ``points``.
        pixels: number of pixels.
    """

    label: str
    points: np.ndarray
    lo: np.ndarray = field(init=False)
    hi: np.ndarray = field(init=False)
    pixels: int = 0

    def __post_init__(self) -> None:
        self.lo, self.hi = self.points.min(axis=0), self.points.max(axis=0)

    @property
    def center(self) -> np.ndarray:
        """AABB centre (m)."""
        return 0.5 * (self.lo + self.hi)


@dataclass
class Frame:
    """Perception output of one observation.

    Attributes:
        detections: objects (noise applied).
        floors: per floor segment, its (N, 3) world points.
        floor_types: per floor segment, the reported room type (noise applied; ``""`` if the
            floor carries no type).
        points: (M, 3) world points of every valid non-floor pixel (subsampled) for obstacle
            mapping (floor pixels are never obstacles, even when the body's pitch while walking
            lifts far floor points above the obstacle height band).
        camera: camera centre in the world (m).
    """

    detections: list[Detection]
    floors: list[np.ndarray]
    points: np.ndarray
    camera: np.ndarray
    floor_types: list[str] = field(default_factory=list)


def pixel_rays(intrinsics: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """(H, W, 3) camera-frame points at unit z-depth (OpenGL camera: x right, y up, −Z ahead)."""
    h, w = shape
    k = np.asarray(intrinsics, float)
    u, v = np.meshgrid(np.arange(w, dtype=float), np.arange(h, dtype=float))
    x = (u - k[0, 2]) / k[0, 0]
    y = -(v - k[1, 2]) / k[1, 1]
    return np.stack([x, y, -np.ones_like(x)], axis=-1)


def camera_to_world(pose: Sequence[float], cam_to_body: np.ndarray,
                    body_height: float) -> np.ndarray:
    """4×4 camera → world transform for base pose (x, y_ground, z, yaw) and body height (m)."""
    x, y, z, yaw = (float(v) for v in pose[:4])
    c, s = math.cos(yaw), math.sin(yaw)
    b2w = np.array([[c, 0.0, s, x], [0.0, 1.0, 0.0, y + body_height],
                    [-s, 0.0, c, z], [0.0, 0.0, 0.0, 1.0]])
    return b2w @ np.asarray(cam_to_body, float)


def back_project(depth: np.ndarray, intrinsics: np.ndarray, c2w: np.ndarray) -> np.ndarray:
    """(H, W, 3) world points of every pixel (metric z-depth; rows with depth 0 are garbage)."""
    rays = pixel_rays(intrinsics, depth.shape) * np.asarray(depth, float)[..., None]
    return rays @ c2w[:3, :3].T + c2w[:3, 3]


class Perceiver:
    """Turns observations into :class:`Frame` s (see module docs).

    Args:
        noise: detector noise.
        min_pixels: segments with fewer valid pixels are ignored.
        max_range: pixels farther than this (m, z-depth) are ignored.
        stride: pixel subsampling of the occupancy points.
        body_height: body origin above the ground point (m); ``None`` = estimate from the floor.
    """

    def __init__(self, noise: NoiseModel | None = None, min_pixels: int = 6,
                 max_range: float = 8.0, stride: int = 2, body_height: float | None = None) -> None:
        self.noise = noise or NoiseModel()
        self.min_pixels, self.max_range, self.stride = int(min_pixels), float(max_range), int(stride)
        self.fixed_height = body_height
        self.reset("")

    def reset(self, episode_id: str) -> None:
        """Start an episode: new noise draws (seeded by the noise seed and ``episode_id``)."""
        from navbench.rng import derive

        self.body_height = self.fixed_height
        self._rng = derive(self.noise.seed, "perception-noise", episode_id)
        self._fate: dict[int, tuple[bool, str | None, np.ndarray]] = {}
        self.room_confusion: dict[int, str] = {}

    def _fate_of(self, seg: int, label: str, known: Sequence[str]) -> tuple[bool, str, np.ndarray]:
        f = self._fate.get(seg)
        if f is None:
            n = self.noise
            missed = bool(self._rng.random() < n.miss_prob)
            new: str | None = None
            if self._rng.random() < n.confusion_prob:
                others = [k for k in known if k != label]
                if others:
                    new = others[int(self._rng.integers(len(others)))]
            off = np.zeros(3)
            if n.position_sigma > 0:
                off[[0, 2]] = self._rng.normal(0.0, n.position_sigma, 2)
            f = self._fate[seg] = (missed, new, off)
        return f[0], f[1] or label, f[2]

    def confuse_room(self, key: int, rtype: str | None, types: Sequence[str]) -> str | None:
        """Room-type recognition noise for room region ``key`` (persistent per region)."""
        if rtype is None or self.noise.confusion_prob == 0:
            return rtype
        if key not in self.room_confusion:
            others = [t for t in types if t != rtype]
            hit = self._rng.random() < self.noise.confusion_prob and others
            self.room_confusion[key] = others[int(self._rng.integers(len(others)))] if hit else ""
        return self.room_confusion[key] or rtype

    def _calibrate(self, obs: Observation, floor_mask: np.ndarray) -> None:
        if self.body_height is not None or floor_mask.sum() < 20:
            return
        c2w = camera_to_world(obs["pose"], obs["cam_to_body"], 0.0)
        pts = back_project(obs["depth"], obs["intrinsics"], c2w)[floor_mask]
        self.body_height = float(obs["pose"][1] - np.median(pts[:, 1]))

    def observe(self, obs: Observation) -> Frame | None:
        """Detections, floor patches and occupancy points of ``obs``; ``None`` before the body
        height is known (no floor seen yet) or without depth/semantic."""
        if "depth" not in obs or "semantic" not in obs:
            return None
        depth = np.asarray(obs["depth"], float)
        sem = np.asarray(obs["semantic"])
        labels: Mapping[int, str] = obs.get("semantic_labels", {})
        valid = (depth > 0) & (depth <= self.max_range)
        floor_ids = [k for k, v in labels.items() if floor_room(v) is not None]
        floor_mask = valid & np.isin(sem, floor_ids)
        self._calibrate(obs, floor_mask)
        if self.body_height is None:
            return None
        c2w = camera_to_world(obs["pose"], obs["cam_to_body"], self.body_height)
        world = back_project(depth, obs["intrinsics"], c2w)
        known = sorted({v for v in labels.values()
                        if v not in STRUCTURE_LABELS and floor_room(v) is None})
        rtypes = sorted({floor_room(v) or "" for v in labels.values()} - {""} | set(ROOM_TYPES))
        dets: list[Detection] = []
        floors: list[np.ndarray] = []
        ftypes: list[str] = []
        ids, counts = np.unique(sem[valid], return_counts=True)
        for seg, cnt in zip(ids.tolist(), counts.tolist(), strict=True):
            lab = labels.get(seg)
            if seg == 0 or lab is None or cnt < self.min_pixels:
                continue
            pts = world[valid & (sem == seg)]
            rt = floor_room(lab)
            if rt is not None:
                floors.append(pts)
                ftypes.append(self._fate_of(seg, rt, rtypes)[1] if rt else "")
                continue
            if lab in STRUCTURE_LABELS:
                continue
            missed, lab2, off = self._fate_of(seg, lab, known)
            if missed:
                continue
            if self.noise.position_sigma > 0:
                off = off.copy()
                off[[0, 2]] += self._rng.normal(0.0, 0.5 * self.noise.position_sigma, 2)
            dets.append(Detection(lab2, pts + off, pixels=cnt))
        s = self.stride
        sub = (valid & ~floor_mask)[::s, ::s]
        return Frame(dets, floors, world[::s, ::s][sub], c2w[:3, 3].copy(), ftypes)


__all__ = ["ROOM_CUES", "ROOM_TYPES", "STRUCTURE_LABELS", "Detection", "Frame", "NoiseModel",
           "Perceiver", "back_project", "camera_to_world", "floor_room", "pixel_rays", "room_type"]
