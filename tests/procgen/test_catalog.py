"""The object catalogue: size sanity against known real dimensions, plan consistency."""

from __future__ import annotations

from navbench.rng import derive
from navbench.scene.procgen.catalog import CATALOG, CHILDREN, FIRST_CHILD, REPEATABLE, ROOM_PLANS


def test_at_least_60_categories_with_valid_ranges() -> None:
    assert len(CATALOG) >= 60
    for c in CATALOG.values():
        assert c.label == c.label.lower() and c.mode in ("wall", "free", "top")
        for lo, hi in c.size:
            assert 0 < lo <= hi


def test_known_real_sizes() -> None:
    # (width, height, depth) of common furniture in metres
    bed_w, _bed_h, bed_d = CATALOG["bed"].size
    assert bed_w[0] >= 0.9 and bed_w[1] <= 2.0  # single (0.9 m) to queen
    assert bed_d[0] >= 1.9 and bed_d[1] <= 2.2  # ~2 m long
    assert CATALOG["counter"].size[1] == (0.9, 0.92)  # standard worktop height
    assert CATALOG["dining table"].size[1][0] >= 0.72 and CATALOG["dining table"].size[1][1] <= 0.78
    assert CATALOG["toilet"].size[1][0] >= 0.7 and CATALOG["toilet"].size[1][1] <= 0.85
    assert CATALOG["fridge"].size[1][0] >= 1.6 and CATALOG["fridge"].size[1][1] <= 2.0
    assert CATALOG["mug"].size[1][1] <= 0.12 and CATALOG["sofa"].size[0][0] >= 1.5


def test_supports_plans_and_sampling_are_consistent() -> None:
    for c in CATALOG.values():
        for child in c.supports:
            assert CATALOG[child].mode == "top"
    for plan in ROOM_PLANS.values():
        for item in plan:
            assert item.label in CATALOG and CATALOG[item.label].mode != "top"
            assert 0 < item.p <= 1 and 1 <= item.count[0] <= item.count[1]
    for parent, child in FIRST_CHILD.items():
        assert child in CATALOG[parent].supports
    assert set(CHILDREN) <= set(CATALOG) and set(CATALOG) >= REPEATABLE
    rng = derive(0, "size")
    for c in CATALOG.values():
        s = c.sample_size(rng)
        for v, (lo, hi) in zip(s, c.size, strict=True):
            assert lo - 0.005 <= v <= hi + 0.005
