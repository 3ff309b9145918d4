"""Storefront signs: lettering present, large and high-contrast, declared colours, all 17
categories distinct (colour histograms, icon shapes), fonts shipped by a dependency."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from navbench.scene.procgen.urban import PLACE_CATEGORIES
from navbench.visual.signs import SIGN_STYLES, contrast_ratio, font_path, sign_image, sign_style

W, H = 900, 128


def test_every_place_category_has_a_style_and_the_font_is_dejavu_bold() -> None:
    assert set(SIGN_STYLES) == set(PLACE_CATEGORIES)
    assert Path(font_path()).name == "DejaVuSans-Bold.ttf"
    assert len({s.icon_name for s in SIGN_STYLES.values()}) == 17
    assert sign_style("laundromat").bg not in {s.bg for s in SIGN_STYLES.values()}


def test_contrast_ratio_reference_values() -> None:
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)  # WCAG example


def _text_mask(img: np.ndarray, fg: tuple[int, int, int]) -> np.ndarray:
    """Pixels close to the lettering colour in the text area (right of the icon square, inside the border)."""
    b = max(2, H // 24)
    region = img[3 * b:H - 3 * b, H + 2 * b:W - 3 * b].astype(int)
    return np.abs(region - np.array(fg)).sum(axis=2) < 60


@pytest.mark.parametrize("cat", PLACE_CATEGORIES)
def test_sign_shows_large_high_contrast_lettering_in_the_declared_colours(cat: str) -> None:
    st = SIGN_STYLES[cat]
    name = f"Maple {cat.title()}"
    img = sign_image(name, cat, W, H)
    assert img.shape == (H, W, 3) and img.dtype == np.uint8
    assert tuple(img[0, 0]) == st.bg and tuple(img[H // 2, W - 1]) == st.bg  # background outside the border
    assert contrast_ratio(st.bg, st.fg) >= 3.0  # WCAG large-text level
    mask = _text_mask(img, st.fg)
    assert 0.05 < mask.mean() < 0.6
    rows = np.flatnonzero(mask.any(axis=1))
    assert rows.max() - rows.min() > 0.4 * H  # large lettering: over 40 % of the sign height
    _, n = ndimage.label(mask)
    letters = sum(c.isalnum() for c in name)
    assert n >= 0.7 * letters  # glyphs are separate blobs: the name is there, not a bar
    icon = np.abs(img[:, :H].astype(int) - np.array(st.fg)).sum(axis=2) < 60
    assert icon[8:-8, 8:H - 8].mean() > 0.08  # an icon in the lettering colour


def test_signs_of_the_17_categories_are_pairwise_distinct() -> None:
    def hist(img: np.ndarray) -> np.ndarray:
        q = (img // 32).reshape(-1, 3).astype(int)
        h = np.bincount(q[:, 0] * 64 + q[:, 1] * 8 + q[:, 2], minlength=512).astype(float)
        return h / h.sum()

    imgs = {c: sign_image("Harbor", c, W, H) for c in PLACE_CATEGORIES}
    hs = {c: hist(i) for c, i in imgs.items()}
    for a, b in itertools.combinations(PLACE_CATEGORIES, 2):
        assert np.abs(hs[a] - hs[b]).sum() > 0.5, (a, b)  # L1 distance of colour histograms
    b = 3 * max(2, H // 24)  # inside the border: the icon square only
    masks = {c: np.abs(i[b:H - b, b:H - b].astype(int) - np.array(SIGN_STYLES[c].fg)).sum(axis=2) < 60
             for c, i in imgs.items()}
    for a, b in itertools.combinations(PLACE_CATEGORIES, 2):
        iou = (masks[a] & masks[b]).sum() / max(1, (masks[a] | masks[b]).sum())
        assert iou < 0.8, (a, b)  # icons have different shapes


def test_names_without_their_category_get_a_category_line_and_output_is_seeded() -> None:
    img = sign_image("Starbucks", "cafe", W, H)
    mask = _text_mask(img, SIGN_STYLES["cafe"].fg)
    lines = ndimage.label(mask.any(axis=1))[1]
    assert lines == 2  # the name and "CAFE"
    assert img.tobytes() == sign_image("Starbucks", "cafe", W, H).tobytes()
    assert img.tobytes() != sign_image("Starbucks", "bar", W, H).tobytes()
    assert not math.isnan(float(img.mean()))
