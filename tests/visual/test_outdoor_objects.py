"""Outdoor object meshes: every category, inside its box, non-degenerate, seeded, and with
per-category silhouette checks measured on the triangles (vertical ray casts, part positions)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.visual.build import material_table
from navbench.visual.materials import split_key
from navbench.visual.mesh import Part, bounds
from navbench.visual.outdoor_objects import OUTDOOR_ALLOWANCE, OUTDOOR_BUILDERS, OUTDOOR_SIZES

# The 65 categories of the shared vocabulary, copied from the lead's list.
VOCABULARY = (
    "car", "van", "truck", "bus", "motorcycle", "scooter", "bicycle", "tree", "palm tree", "bush", "hedge",
    "potted plant", "planter", "street light", "traffic light", "utility pole", "flag pole", "stop sign",
    "street sign", "bus stop sign", "sandwich board", "parking meter", "fire hydrant", "mailbox",
    "newspaper box", "trash can", "recycling bin", "dumpster", "bench", "picnic table", "table", "chair",
    "umbrella", "patio heater", "bus shelter", "phone booth", "information kiosk", "vending machine", "atm",
    "drinking fountain", "fountain", "statue", "bike rack", "bollard", "traffic cone", "traffic barrel",
    "barrier", "fence", "portable toilet", "electrical box", "ev charger", "market stall", "food cart",
    "crate", "pallet", "shopping cart", "slide", "swing set", "seesaw", "sandbox", "basketball hoop",
    "street clock", "boulder", "construction sign", "generator",
)


def build(cat: str, seed: int, scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> tuple[list[Part], tuple]:
    size = tuple(s * k for s, k in zip(OUTDOOR_SIZES[cat], scale, strict=True))
    return OUTDOOR_BUILDERS[cat](size, np.random.default_rng(seed)), size


def heights_at(parts: list[Part], x: float, z: float) -> list[float]:
    """Brute-force vertical ray cast: heights where the line (x, ·, z) crosses a triangle."""
    out = []
    for p in parts:
        t = p.vertices[p.faces]
        a, b, c = t[:, 0], t[:, 1], t[:, 2]
        d = (b[:, 0] - a[:, 0]) * (c[:, 2] - a[:, 2]) - (c[:, 0] - a[:, 0]) * (b[:, 2] - a[:, 2])
        ok = np.abs(d) > 1e-12  # triangles seen edge-on from above are skipped
        a, b, c, d = a[ok], b[ok], c[ok], d[ok]
        u = ((x - a[:, 0]) * (c[:, 2] - a[:, 2]) - (c[:, 0] - a[:, 0]) * (z - a[:, 2])) / d
        v = ((b[:, 0] - a[:, 0]) * (z - a[:, 2]) - (x - a[:, 0]) * (b[:, 2] - a[:, 2])) / d
        hit = (u >= 0) & (v >= 0) & (u + v <= 1)
        out += list((a[:, 1] + u * (b[:, 1] - a[:, 1]) + v * (c[:, 1] - a[:, 1]))[hit])
    return sorted(out)


def of(parts: list[Part], prefix: str) -> list[Part]:
    return [p for p in parts if split_key(p.material)[0].startswith(prefix)]


def test_every_vocabulary_category_has_a_builder() -> None:
    assert len(set(VOCABULARY)) == 65
    assert set(OUTDOOR_BUILDERS) == set(VOCABULARY) == set(OUTDOOR_SIZES)


@pytest.mark.parametrize("cat", sorted(OUTDOOR_SIZES))
def test_parts_fill_their_box_and_are_well_formed(cat: str) -> None:
    table = material_table()
    a = OUTDOOR_ALLOWANCE.get(cat, 1.0)
    for seed, scale in ((0, (1.0, 1.0, 1.0)), (1, (1.2, 0.85, 1.15)), (2, (0.85, 1.2, 0.9))):
        parts, (sx, sy, sz) = build(cat, seed, scale)
        assert parts
        for p in parts:
            assert np.isfinite(p.vertices).all() and np.isfinite(p.uv).all()
            assert p.faces.min() >= 0 and p.faces.max() < len(p.vertices)
            t = p.vertices[p.faces]
            area = np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1) / 2
            assert area.sum() > 1e-6, (cat, p.material)
            assert split_key(p.material)[0] in table, (cat, p.material)
        lo, hi = bounds(parts)
        eps = 1e-6
        assert lo[1] >= -eps and hi[1] <= sy + eps, (cat, lo, hi)
        assert max(-lo[0], hi[0]) <= a * sx / 2 + eps and max(-lo[2], hi[2]) <= a * sz / 2 + eps, (cat, lo, hi)
        assert lo[1] <= 0.02, f"{cat} floats above the ground"
        assert hi[1] >= 0.85 * sy, f"{cat} is much lower than its box"
        assert max((hi[0] - lo[0]) / sx, (hi[2] - lo[2]) / sz) >= 0.5, f"{cat} is much narrower than its box"


@pytest.mark.parametrize("cat", sorted(OUTDOOR_SIZES))
def test_same_seed_same_mesh_and_instances_vary(cat: str) -> None:
    def sig(parts: list[Part]) -> bytes:
        return b"".join(p.vertices.tobytes() + p.faces.tobytes() + p.uv.tobytes() + p.material.encode() for p in parts)

    a, _ = build(cat, 7)
    b, _ = build(cat, 7)
    assert sig(a) == sig(b)
    variants = {sig(build(cat, s)[0]) for s in range(6)}
    assert len(variants) >= 2, f"{cat}: every seed gives the same instance"


def _tyres_on_ground(parts: list[Part]) -> list[np.ndarray]:
    """Centres (x, y, z) of the tyre parts whose lowest point touches y = 0."""
    return [p.vertices.mean(axis=0) for p in of(parts, "tyre") if p.vertices[:, 1].min() < 1e-3]


@pytest.mark.parametrize("cat,n", [("car", 4), ("van", 4), ("bus", 4), ("truck", 6)])
def test_road_vehicles_stand_on_their_wheels(cat: str, n: int) -> None:
    for seed in range(6):
        parts, (L, _, _W) = build(cat, seed)
        c = _tyres_on_ground(parts)
        assert len(c) == n
        xs, zs = np.array([p[0] for p in c]), np.array([p[2] for p in c])
        assert (zs > 0).sum() == n // 2 and (zs < 0).sum() == n // 2  # both sides
        assert (xs > 0.2 * L).sum() >= 2 and (xs < -0.2 * L).sum() >= 2  # front and rear axles
        body = [p for p in parts if split_key(p.material)[0] in ("car_paint",)]
        assert min(p.vertices[:, 1].min() for p in body) > 0.05  # ground clearance under the body
        glass = of(parts, "glass")
        assert glass and max(p.vertices[:, 1].max() for p in glass) > 0.6 * OUTDOOR_SIZES[cat][1]


def test_car_body_types_differ_in_cabin_length() -> None:
    roof_lengths = set()
    for seed in range(40):
        parts, _ = build("car", seed)
        g = of(parts, "glass_dark")[0].vertices
        top = g[g[:, 1] > g[:, 1].max() - 1e-6]
        roof_lengths.add(round(float(top[:, 0].max() - top[:, 0].min()), 2))
    assert len(roof_lengths) >= 4  # sedan, hatchback, SUV and van-like roofs


@pytest.mark.parametrize("cat", ["bicycle", "motorcycle", "scooter"])
def test_two_wheelers_have_two_wheels_in_line(cat: str) -> None:
    parts, (L, _, _) = build(cat, 0)
    c = _tyres_on_ground(parts)
    assert len(c) == 2
    assert abs(c[0][2]) < 1e-6 and abs(c[1][2]) < 1e-6
    assert abs(c[0][0] - c[1][0]) > 0.5 * L


@pytest.mark.parametrize("cat,frac", [("bench", 0.5), ("picnic table", 0.55), ("chair", 0.5)])
def test_seats_have_a_gap_underneath(cat: str, frac: float) -> None:
    for seed in range(4):
        parts, (w, H, d) = build(cat, seed)
        zs = np.linspace(-0.3, 0.3, 13) * d if cat != "picnic table" else np.linspace(0.3, 0.48, 7) * d
        rays = [heights_at(parts, 0.1 * w, float(z)) for z in zs]
        assert sum(bool(h) for h in rays) >= len(zs) // 2, "no seat above the centre"
        for h in rays:  # nothing between the ground and the seat
            assert not h or min(h) > frac * H - 0.1, (cat, h)


def test_table_top_is_held_up_with_free_space_below() -> None:
    for seed in range(6):
        parts, (w, H, _d) = build("table", seed)
        hits = heights_at(parts, 0.3 * w, 0.0)
        assert hits and min(hits) > H - 0.05


def test_traffic_light_head_at_top_red_over_amber_over_green() -> None:
    parts, (_, H, _) = build("traffic light", 0)
    ys = [float(of(parts, f"signal_{c}")[0].vertices[:, 1].mean()) for c in ("red", "amber", "green")]
    assert ys[0] > ys[1] > ys[2] > 0.7 * H


def test_street_light_lamp_hangs_over_the_street_side() -> None:
    parts, (_, H, d) = build("street light", 0)
    lamp = of(parts, "lamp_glow")[0].vertices
    assert lamp[:, 1].min() > 0.9 * H
    assert lamp[:, 2].mean() > 2 * d  # reaches out in front (+Z), beyond the pole
    assert heights_at(parts, 0.0, float(lamp[:, 2].mean()))[0] > 0.9 * H  # nothing below it


def test_trees_have_a_trunk_under_wider_foliage() -> None:
    for seed in range(8):
        parts, (_w, H, _) = build("tree", seed)
        trunk = of(parts, "bark")
        leaves = of(parts, "leaves")
        assert trunk and leaves
        tv = np.vstack([p.vertices for p in trunk])
        lv = np.vstack([p.vertices for p in leaves])
        assert tv[:, 1].min() < 1e-9 and lv[:, 1].min() > 0.15 * H
        assert np.abs(lv[:, 0]).max() > 2 * np.abs(tv[:, 0]).max()


def test_stop_sign_is_an_octagon() -> None:
    parts, (_w, H, _) = build("stop sign", 0)
    v = of(parts, "sign_red")[0].vertices
    c = v.mean(axis=0)
    ang = np.round(np.degrees(np.arctan2(v[:, 1] - c[1], v[:, 0] - c[0])) % 360, 3)
    assert len(set(ang.tolist())) == 8
    assert v[:, 1].min() > 0.6 * H


def test_umbrella_canopy_is_wide_and_high() -> None:
    parts, (_w, H, _) = build("umbrella", 0)
    canvas = np.vstack([p.vertices for p in of(parts, "canvas")])
    assert canvas[:, 0].max() - canvas[:, 0].min() > 1.5
    assert canvas[:, 1].min() > 0.75 * H


def test_traffic_cone_narrows_upwards() -> None:
    parts, (_w, H, _) = build("traffic cone", 0)
    v = np.vstack([p.vertices for p in of(parts, "plastic_orange")])
    top = np.hypot(v[:, 0], v[:, 2])[v[:, 1] > 0.9 * H].max()
    bands = sorted(of(parts, "reflective_white"), key=lambda p: p.vertices[:, 1].mean())
    radii = [np.hypot(p.vertices[:, 0], p.vertices[:, 2]).max() for p in bands]
    assert len(bands) >= 2 and radii == sorted(radii, reverse=True) and top < 0.3 * radii[0]


def test_bus_shelter_is_open_at_the_front_and_roofed() -> None:
    parts, (_w, H, d) = build("bus shelter", 0)
    hits = heights_at(parts, 0.0, 0.3 * d)
    assert hits and min(hits) > H - 0.15  # only the roof above the waiting area's front half
    assert of(parts, "glass")


def test_swing_seats_hang_free_from_the_beam() -> None:
    parts, (_w, _H, _) = build("swing set", 0)
    for seat in of(parts, "rubber"):
        x = float(seat.vertices[:, 0].mean())
        hits = heights_at(parts, x, 0.0)
        below = [h for h in hits if h < seat.vertices[:, 1].min() - 1e-6]
        assert not below and seat.vertices[:, 1].min() > 0.3


def test_fence_posts_span_its_length() -> None:
    parts, (w, H, _d) = build("fence", 3)
    xs = sorted(float(p.vertices[:, 0].mean()) for p in parts
                if math.isclose(p.vertices[:, 1].max() - p.vertices[:, 1].min(), H, rel_tol=1e-6))
    assert len(xs) >= 3 and xs[0] < -0.45 * w and xs[-1] > 0.45 * w


def test_car_in_a_z_long_box_runs_along_z_with_its_front_at_plus_z() -> None:
    parts = OUTDOOR_BUILDERS["car"]((1.9, 1.6, 4.6), np.random.default_rng(0))  # procgen's car boxes
    lo, hi = bounds(parts)
    assert hi[2] - lo[2] > 4.0 and hi[0] - lo[0] < 1.95
    c = _tyres_on_ground(parts)
    assert len(c) == 4 and np.ptp([p[2] for p in c]) > 2.0 and np.ptp([p[0] for p in c]) < 1.9
    assert np.vstack([p.vertices for p in of(parts, "lamp_glow")])[:, 2].min() > 1.5  # head lights in front
    assert np.vstack([p.vertices for p in of(parts, "signal_red")])[:, 2].max() < -1.5  # tail lights behind


def test_car_in_an_x_long_box_has_its_front_towards_box_plus_x() -> None:
    # the scene build rotates meshes by the box yaw + pi, so box +X (the heading) is mesh -X
    parts, (L, _, _) = build("car", 0)
    assert np.vstack([p.vertices for p in of(parts, "lamp_glow")])[:, 0].max() < -0.4 * L
    assert np.vstack([p.vertices for p in of(parts, "signal_red")])[:, 0].min() > 0.4 * L
