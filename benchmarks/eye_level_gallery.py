"""Eye-level pictures of random object categories, for open-set blind naming.

Renders ``--n`` categories drawn at random (seeded) from the indoor catalogue with a habitat
VLN-CE-like camera: 1.25 m above the floor, level, 90° field of view, 224×224 (square, so the
horizontal and vertical fields are both 90°). Each category twice: alone in a studio (small
objects on a side table), its box front ``distance`` m from the camera, and in a generated
furnished house, 1.5 m in front of an instance. Two sheets: ``blind.png`` (numbered tiles, no
names: name what you see before reading the key) and ``key.png`` / ``key.txt`` (the names).

The camera is the ``habitat-vlnce`` rig (:mod:`navbench.sim.camera_rig`; ``--camera`` takes any
rig) on the Spot body (its own body is not drawn); physics is not run.

Usage: python benchmarks/eye_level_gallery.py -o OUT [--n 20] [--seed 0] [--camera habitat-vlnce]
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from navbench.scene.procgen.catalog import CATALOG
from navbench.scene.procgen.indoor import IndoorSettings, generate_house
from navbench.sim import SPOT
from navbench.sim.camera_rig import CameraRig, parse_camera
from navbench.sim.gallery import _font, studio_scene
from navbench.sim.snapshot import Snapshotter


def studio_views(cats: list[str], rig: CameraRig, seed: int) -> list[np.ndarray]:
    """Each category alone (small ones on a side table), seen from a standing person's eyes."""
    items = []
    for c in cats:
        cat = CATALOG[c]
        mid = tuple(round((a + b) / 2, 2) for a, b in cat.size)
        items.append((c, mid, cat.mode == "top"))
    scene, spots = studio_scene(items, "indoor")
    snap = Snapshotter(scene, SPOT, seed=seed, camera=rig)
    out = []
    try:
        for (_label, c, half_d), (_, sz, top) in zip(spots, items, strict=True):
            dist = 0.9 if top else max(1.3, 1.0 * max(sz[0], sz[1]))
            pos = (c[0], 0.0, c[2] - half_d - dist)
            out.append(snap.view(pos, (c[0], 0.0, c[2])).rgb)
    finally:
        snap.close()
    return out


def _viewpoint(scene, obj) -> np.ndarray | None:
    """A standing point 1.5 m (else 1.2 or 2 m) from ``obj``'s box, in front of it first, then
    turning around it in 30° steps: inside its room, 0.3 m clear of walls and of every other
    box, with a clear sight line over anything lower than 1 m."""
    import shapely

    room = scene.room_index.get(obj.room_id)
    if room is None:
        return None
    inner = shapely.Polygon(room.floor_polygon).buffer(-0.35)
    tall, low = [], []
    for b in scene.boxes:
        if b.kind in ("floor", "ground") or b.ref == obj.id or b.ref == obj.parent_id:
            continue
        c, s = math.cos(b.yaw), math.sin(b.yaw)
        hx, hz = b.size[0] / 2, b.size[2] / 2
        pts = [(b.center[0] + c * x + s * z, b.center[2] - s * x + c * z) for x, z in
               ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))]
        poly = shapely.Polygon(pts)
        (tall if b.center[1] + b.size[1] / 2 > 1.0 else low).append(poly)
    blocks = shapely.union_all(tall) if tall else shapely.Polygon()
    near = shapely.union_all(tall + low).buffer(0.3) if tall or low else shapely.Polygon()
    centre = np.asarray(obj.center, float)
    for dist in (1.5, 1.2, 2.0):
        for k in range(12):
            a = obj.yaw + (1 if k % 2 else -1) * math.radians(30) * ((k + 1) // 2)
            p = centre + np.array([-math.sin(a), 0.0, -math.cos(a)]) * (obj.size[2] / 2 + dist)
            pt = shapely.Point(p[0], p[2])
            sight = shapely.LineString([(p[0], p[2]), (centre[0], centre[2])])
            if inner.contains(pt) and not near.contains(pt) and not sight.intersects(blocks):
                return p
    return None


def house_views(cats: list[str], rig: CameraRig, seed: int) -> list[np.ndarray | None]:
    """Each category in generated houses (seeds ``seed``, ``seed + 1`` ..., at most 40): the
    first instance with a free viewpoint (:func:`_viewpoint`), seen from there."""
    found: dict[str, tuple[int, np.ndarray, np.ndarray]] = {}
    houses = {}
    for k in range(40):
        if len(found) == len(cats):
            break
        h = generate_house(seed + k, None, IndoorSettings(rooms=(6, 8)))
        houses[seed + k] = h
        for o in h.objects:
            if o.label in cats and o.label not in found and o.size is not None:
                p = _viewpoint(h, o)
                if p is not None:
                    found[o.label] = (seed + k, np.asarray(o.center, float), p)
    out: list[np.ndarray | None] = []
    snaps: dict[int, Snapshotter] = {}
    try:
        for c in cats:
            if c not in found:
                out.append(None)
                continue
            hs, centre, pos = found[c]
            if hs not in snaps:
                snaps[hs] = Snapshotter(houses[hs], SPOT, seed=seed, camera=rig)
            out.append(snaps[hs].view((pos[0], 0.0, pos[2]), (centre[0], 0.0, centre[2])).rgb)
    finally:
        for s in snaps.values():
            s.close()
    return out


def sheet(rows: list[list[np.ndarray | None]], labels: list[str], size: tuple[int, int]) -> Image.Image:
    """Columns = categories, rows = views (``size`` = W, H px each); columns headed by ``labels``."""
    font = _font(12)
    band, gap = 18, 6
    n, (w, h) = len(labels), size
    im = Image.new("RGB", (n * (w + gap), band + len(rows) * (h + gap)), (255, 255, 255))
    d = ImageDraw.Draw(im)
    for j, lab in enumerate(labels):
        d.text((j * (w + gap) + 2, 2), lab, fill=(0, 0, 0), font=font)
        for i, row in enumerate(rows):
            if row[j] is not None:
                im.paste(Image.fromarray(row[j]), (j * (w + gap), band + i * (h + gap)))
    return im


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--camera", default="habitat-vlnce", help="camera rig (navbench evaluate --camera)")
    a = ap.parse_args()
    rig = parse_camera(a.camera)
    size = rig.image_size()
    rng = np.random.default_rng(a.seed)
    cats = [str(c) for c in rng.choice(sorted(CATALOG), size=a.n, replace=False)]
    studio = studio_views(cats, rig, a.seed)
    house = house_views(cats, rig, a.seed)
    a.out.mkdir(parents=True, exist_ok=True)
    half = (a.n + 1) // 2
    for name, labels in (("blind", [f"#{i + 1}" for i in range(a.n)]), ("key", [f"#{i + 1} {c}" for i, c in enumerate(cats)])):
        top = sheet([studio[:half], house[:half]], labels[:half], size)
        bottom = sheet([studio[half:], house[half:]], labels[half:], size)
        im = Image.new("RGB", (max(top.width, bottom.width), top.height + bottom.height + 10), (255, 255, 255))
        im.paste(top, (0, 0))
        im.paste(bottom, (0, top.height + 10))
        im.save(a.out / f"{name}.png")
    (a.out / "key.txt").write_text("".join(f"#{i + 1} {c} ({CATALOG[c].mode})\n" for i, c in enumerate(cats)))
    print(f"wrote {a.out}/blind.png, key.png, key.txt")


if __name__ == "__main__":
    main()
