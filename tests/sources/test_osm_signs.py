"""OSM storefront signs hang in the band both robots see (1.12-1.72 m above the sidewalk), like
the procedural city's, and the visual layer draws them there."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.scene.model import Scene
from tests.outdoor.test_osm_stages_cli import ll, write_osm


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    from navbench.scene.sources import osm

    p = tmp_path_factory.mktemp("osm_signs") / "town.osm"
    write_osm(p)
    lo, la = ll(-100, 100)
    hi_lo, hi_la = ll(100, -100)
    return osm.load_osm(p, (lo, la, hi_lo, hi_la))


def test_osm_sign_boxes_lie_in_the_band(town: Scene) -> None:
    signs = {b.ref: b for b in town.boxes if b.kind == "sign"}
    places = {p.id: p for p in town.places}
    assert set(signs) == set(places) and len(signs) == 2
    for pid, s in signs.items():
        bottom, top = s.center[1] - s.size[1] / 2, s.center[1] + s.size[1] / 2
        assert (bottom, top) == pytest.approx((1.12, 1.72), abs=1e-9), pid  # sidewalk top y = 0
        assert places[pid].entrance[1] == 0.0
    # the bakery's facade is the south edge z = -15 of bldg_200, facing +Z: the sign box spans
    # 0.12-0.18 m out of it (inside the 0.3 m shop front), across the 8 m front between its
    # 0.25 m piers (7.5 m, as the procedural city's signs)
    bak = next(s for pid, s in signs.items() if places[pid].category == "bakery")
    assert bak.center[2] == pytest.approx(-15 + 0.15, abs=0.01) and bak.size[2] == pytest.approx(0.06)
    assert bak.size[0] == pytest.approx(7.5, abs=1e-6) and math.cos(bak.yaw) == pytest.approx(-1.0, abs=1e-6)


def test_visual_sign_of_an_osm_place_is_drawn_in_the_band(town: Scene) -> None:
    from navbench.visual.storefront import sign_material, storefront_parts

    place = next(p for p in town.places if p.category == "bakery")
    sign = next(b for b in town.boxes if b.kind == "sign" and b.ref == place.id)
    parts, _ = storefront_parts(place, np.random.default_rng(0), sign)
    faces = [q for q in parts if q.material == sign_material(place)]  # the band and the fascia above
    spans = sorted((float(q.vertices[:, 1].min()), float(q.vertices[:, 1].max())) for q in faces)
    assert spans[0] == pytest.approx((1.12, 1.72), abs=1e-6)
    assert all(lo >= 1.72 for lo, _ in spans[1:])  # the fascia's copy of the name sits higher up


def test_procgen_and_osm_declare_one_band() -> None:
    from navbench.scene.storefront_geometry import SIGN_BAND
    from navbench.visual import storefront

    assert storefront.SIGN_BAND is SIGN_BAND and SIGN_BAND == (1.12, 1.72)

