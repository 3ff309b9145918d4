"""Vegetation and landscape meshes: trees (several species), palms, bushes, hedges, potted
plants, planters, boulders, fountains, statues, sandboxes.

Local frame of :mod:`navbench.visual.mesh` (metres, bottom at y = 0, footprint centred).
A tree's box is its *trunk* box: the canopy reaches out to ``OUTDOOR_ALLOWANCE`` (2x) of it.
"""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.compose import blob, lathe, slab
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part, box, cone, cylinder, sphere, transform
from navbench.visual.shapes import rod

Size = tuple[float, float, float]
TREE_SPECIES = ("broadleaf", "conifer", "columnar", "birch")


def _leaf(rng: np.random.Generator, base: str = "leaves") -> str:
    """A foliage material with a per-instance green shade."""
    g = np.array((0.55, 0.8, 0.4)) * rng.uniform(0.75, 1.1) + rng.uniform(-0.06, 0.06, 3)
    return tinted(base, g)


def tree(size: Size, rng: np.random.Generator) -> list[Part]:
    """A tree: trunk plus layered foliage; the species (broadleaf, conifer, columnar, birch) by ``rng``."""
    w, H, d = size
    sp = str(rng.choice(TREE_SPECIES))
    R = min(w, d)  # canopy radius: 2x the trunk box's half-width
    leaf = _leaf(rng)
    trunk_r = min(0.22 * R, 0.2)
    bark = tinted("bark", (0.95, 0.93, 0.88)) if sp == "birch" else "bark"
    trunk_top = {"broadleaf": 0.55, "conifer": 0.3, "columnar": 0.4, "birch": 0.6}[sp] * H
    parts = [cylinder(trunk_r, trunk_top, bark, segments=10, center=(0.0, trunk_top / 2, 0.0),
                      radius_top=trunk_r * 0.7)]
    if sp == "conifer":
        n = 4
        y0 = 0.18 * H
        step = (H - y0) / (n + 0.6)
        for k in range(n):
            r = R * (1.0 - 0.2 * k) * float(rng.uniform(0.9, 1.0))
            h = step * 1.6
            yb = y0 + k * step
            parts.append(cone(r, min(h, H - yb), leaf, segments=12, center=(0.0, yb + min(h, H - yb) / 2, 0.0)))
        return parts
    if sp == "columnar":
        hc = H - 0.25 * H
        parts.append(blob(1.0, leaf, (0.0, 0.25 * H + hc / 2, 0.0), rng, scale=(0.8 * R, hc / 2 * 0.95, 0.8 * R)))
        return parts
    # broadleaf / birch: three overlapping lumpy layers of foliage, widest at the bottom
    base = 0.42 * H if sp == "broadleaf" else 0.5 * H
    hc = H - base
    for k, (fy, fr) in enumerate(((0.3, 0.95), (0.58, 0.8), (0.8, 0.55))):
        off = rng.uniform(-0.1, 0.1, 2) * R
        ry = hc * (0.3 if k < 2 else 0.2)
        parts.append(blob(1.0, leaf if k != 1 else _leaf(rng), (float(off[0]), base + fy * hc, float(off[1])), rng,
                          scale=(fr * R * 0.85, ry, fr * R * 0.85)))
    return parts


def palm_tree(size: Size, rng: np.random.Generator) -> list[Part]:
    """A palm: slender, slightly leaning ringed trunk and a crown of drooping fronds."""
    w, H, d = size
    r = min(w, d) * 0.3
    lean = float(rng.uniform(-0.12, 0.12)) * min(w, d)
    top_y = H * 0.86
    parts: list[Part] = []
    n = 6
    for k in range(n):  # trunk in segments with a ring at each joint
        y0, y1 = top_y * k / n, top_y * (k + 1) / n
        x0, x1 = lean * (k / n) ** 2, lean * ((k + 1) / n) ** 2
        parts.append(rod((x0, y0, 0.0), (x1, y1, 0.0), r * (1 - 0.25 * k / n), "bark", segments=8,
                         radius_end=r * (1 - 0.25 * (k + 1) / n)))
    top = (lean, top_y, 0.0)
    fl = 1.9 * min(w, d)  # frond length (reach within the 4x allowance)
    leaf = _leaf(rng, "palm_leaves")
    m = int(rng.integers(7, 10))
    for k in range(m):
        a = 2 * math.pi * (k + rng.uniform(-0.2, 0.2)) / m
        fr = box((fl, 0.03, 0.28 * fl), leaf, center=(fl / 2, 0.0, 0.0))
        parts.append(transform(fr, roll=float(rng.uniform(-0.55, -0.25)), yaw=a, offset=top))
    parts.append(sphere(r * 1.4, "bark", rings=6, segments=10, center=top))
    return parts


def bush(size: Size, rng: np.random.Generator) -> list[Part]:
    """A bush: a cluster of 4-6 lumpy foliage balls filling the box."""
    w, H, d = size
    leaf = _leaf(rng)
    parts = [blob(1.0, leaf, (0.0, H * 0.45, 0.0), rng, scale=(0.42 * w, 0.45 * H, 0.42 * d))]
    for _ in range(int(rng.integers(3, 6))):
        a = rng.uniform(0, 2 * math.pi)
        s = rng.uniform(0.22, 0.3)
        ox, oz = 0.25 * w * math.cos(a), 0.25 * d * math.sin(a)
        parts.append(blob(1.0, _leaf(rng), (ox, s * H * 1.4, oz), rng, scale=(s * w, s * H * 1.4, s * d)))
    return parts


def hedge(size: Size, rng: np.random.Generator) -> list[Part]:
    """A clipped hedge: a long leafy block with a lumpy rounded top."""
    w, H, d = size
    leaf = _leaf(rng, "leaves")
    parts = [slab(-w / 2 + 0.05, w / 2 - 0.05, 0.0, 0.8 * H, -d / 2 + 0.05, d / 2 - 0.05, leaf)]
    n = max(2, int(w / (0.8 * d)))
    for k in range(n):
        x = -w / 2 + (k + 0.5) * w / n
        parts.append(blob(1.0, leaf, (x, 0.75 * H, 0.0), rng, scale=(w / n * 0.6, 0.24 * H, d * 0.45)))
    return parts


def potted_plant(size: Size, rng: np.random.Generator) -> list[Part]:
    """A potted plant: a tapered terracotta (or grey) pot and a leafy crown on stems."""
    w, H, d = size
    rp = 0.4 * min(w, d)
    hp = 0.35 * H
    pot = "terracotta" if rng.random() < 0.6 else tinted("concrete", (0.7, 0.7, 0.72))
    parts = [lathe([(0.0, 0.0), (rp * 0.75, 0.0), (rp, hp), (rp * 1.05, hp), (0.0, hp)], pot, segments=16)]
    leaf = _leaf(rng)
    for _ in range(int(rng.integers(3, 6))):
        a = rng.uniform(0, 2 * math.pi)
        ox, oz = 0.22 * w * math.cos(a), 0.22 * d * math.sin(a)
        top = float(rng.uniform(0.7, 0.85)) * H
        parts.append(rod((0.0, hp, 0.0), (ox, top, oz), 0.012, "leaves", segments=5))
        parts.append(blob(1.0, leaf, (ox, top, oz), rng, scale=(0.22 * w, 0.15 * H, 0.22 * d)))
    return parts


def planter(size: Size, rng: np.random.Generator) -> list[Part]:
    """A planter: a square concrete or wooden tub with soil and low greenery (some flowers)."""
    w, H, d = size
    mat = "concrete" if rng.random() < 0.5 else "planks"
    hb = 0.55 * H
    t = 0.06 * min(w, d)
    parts = [slab(-w / 2, w / 2, 0.0, hb, -d / 2, -d / 2 + t, mat), slab(-w / 2, w / 2, 0.0, hb, d / 2 - t, d / 2, mat),
             slab(-w / 2, -w / 2 + t, 0.0, hb, -d / 2 + t, d / 2 - t, mat),
             slab(w / 2 - t, w / 2, 0.0, hb, -d / 2 + t, d / 2 - t, mat),
             slab(-w / 2 + t, w / 2 - t, 0.0, hb * 0.9, -d / 2 + t, d / 2 - t, "soil")]
    leaf = _leaf(rng)
    for kx in (-1, 1):
        for kz in (-1, 1):
            c = (kx * 0.22 * w, hb * 0.9 + 0.2 * H, kz * 0.22 * d)
            parts.append(blob(1.0, leaf, c, rng, scale=(0.24 * w, 0.22 * H, 0.24 * d)))
    flower = tinted("flower", (0.95, 0.4, 0.6) if rng.random() < 0.5 else (0.98, 0.85, 0.2))
    for _ in range(5):
        x, z = rng.uniform(-0.3, 0.3, 2)
        parts.append(sphere(0.05 * min(w, d), flower, rings=4, segments=6, center=(x * w, 0.93 * H, z * d)))
    return parts


def boulder(size: Size, rng: np.random.Generator) -> list[Part]:
    """A boulder: a flattened, strongly lumpy granite ellipsoid resting on the ground."""
    w, H, d = size
    p = sphere(1.0, "granite", rings=8, segments=12, center=(0.0, 0.0, 0.0), scale=(w / 2, H / 2, d / 2))
    bump = 1.0 + 0.25 * (rng.random(len(p.vertices)) - 0.5)
    v = p.vertices.reshape(9, 13, 3) * bump.reshape(9, 13, 1)
    v[:, -1] = v[:, 0]
    v[0, :], v[-1, :] = v[0, 0], v[-1, 0]
    v = v.reshape(-1, 3) * 0.95
    v[:, 1] = np.maximum(v[:, 1], -0.3 * H)  # flat underside sits on the ground
    v[:, 1] = (v[:, 1] - v[:, 1].min()) / np.ptp(v[:, 1]) * H
    return [Part(v, p.faces, p.uv, "granite")]


def fountain(size: Size, rng: np.random.Generator) -> list[Part]:
    """A fountain: round stone basin with water, a central column, a bowl and a water jet."""
    w, H, d = size
    R = 0.5 * min(w, d)
    hb = 0.28 * H
    parts = [lathe([(R * 0.97, 0.0), (R, hb), (R * 0.9, hb), (R * 0.88, 0.05 * H), (0.0, 0.05 * H)], "granite",
                   segments=24, scale_xz=(w / (2 * R), d / (2 * R))),
             cylinder(R * 0.9, 0.02, "water", segments=24, center=(0.0, 0.8 * hb, 0.0))]
    parts[-1] = transform(parts[-1], scale=(w / (2 * R), 1.0, d / (2 * R)))
    ct = 0.7 * H
    parts.append(cylinder(0.06 * R, ct, "granite", segments=10, center=(0.0, ct / 2, 0.0), radius_top=0.04 * R))
    for k in range(int(rng.integers(1, 3))):  # one or two tiers of bowls
        y, rb = ct - k * 0.25 * H, (0.3 + 0.15 * k) * R
        parts.append(lathe([(0.0, y - 0.08 * H), (rb * 0.3, y - 0.08 * H), (rb, y), (0.0, y)], "granite", segments=16))
        parts.append(cylinder(rb * 0.85, 0.015, "water", segments=16, center=(0.0, y - 0.01, 0.0)))
    parts.append(cone(0.04 * R, H - ct, "water", segments=8, center=(0.0, ct + (H - ct) / 2, 0.0)))
    return parts


def statue(size: Size, rng: np.random.Generator) -> list[Part]:
    """A statue: a granite plinth and a bronze standing figure (legs, torso, arms, head)."""
    w, H, d = size
    hp = float(rng.uniform(0.3, 0.4)) * H
    parts = [slab(-w / 2, w / 2, 0.0, hp, -d / 2, d / 2, "granite"),
             slab(-w * 0.45, w * 0.45, hp, hp + 0.04 * H, -d * 0.45, d * 0.45, "granite")]
    y = hp + 0.04 * H
    fh = H - y  # figure height
    s = min(w, d)
    mat = "bronze"
    for x in (-0.07 * s, 0.07 * s):
        parts.append(rod((x, y, 0.0), (x * 0.8, y + 0.47 * fh, 0.0), 0.05 * s, mat))
    parts.append(cylinder(0.15 * s, 0.33 * fh, mat, segments=10, center=(0.0, y + 0.63 * fh, 0.0), radius_top=0.18 * s))
    parts.append(sphere(0.08 * fh, mat, rings=6, segments=10, center=(0.0, y + 0.88 * fh, 0.0)))
    raise_arm = rng.random() < 0.5
    for sx in (-1, 1):
        hand = (sx * 0.35 * s, y + (0.98 * fh if raise_arm and sx > 0 else 0.5 * fh), 0.05 * s)
        parts.append(rod((sx * 0.17 * s, y + 0.77 * fh, 0.0), hand, 0.04 * s, mat))
    return parts


def sandbox(size: Size, rng: np.random.Generator) -> list[Part]:
    """A sandbox: a low square wooden frame filled with sand, with corner seats."""
    w, H, d = size
    t = 0.08
    parts = [slab(-w / 2, w / 2, 0.0, H, -d / 2, -d / 2 + t, "planks"), slab(-w / 2, w / 2, 0.0, H, d / 2 - t, d / 2, "planks"),
             slab(-w / 2, -w / 2 + t, 0.0, H, -d / 2 + t, d / 2 - t, "planks"),
             slab(w / 2 - t, w / 2, 0.0, H, -d / 2 + t, d / 2 - t, "planks"),
             slab(-w / 2 + t, w / 2 - t, 0.0, 0.7 * H, -d / 2 + t, d / 2 - t, "sand")]
    for kx in (-1, 1):
        for kz in (-1, 1):
            c = (kx * (w / 2 - 0.2), H - 0.02, kz * (d / 2 - 0.2))
            parts.append(box((0.4, 0.04, 0.4), "planks", center=c))
    toy = tinted("plastic", (0.9, 0.2, 0.1) if rng.random() < 0.5 else (0.1, 0.4, 0.9))
    parts.append(cylinder(0.08, 0.1, toy, segments=10, center=(0.2 * w * rng.uniform(-1, 1), 0.75 * H, 0.1 * d)))
    return parts


PLANT_BUILDERS = {
    "tree": tree, "palm tree": palm_tree, "bush": bush, "hedge": hedge, "potted plant": potted_plant,
    "planter": planter, "boulder": boulder, "fountain": fountain, "statue": statue, "sandbox": sandbox,
}
