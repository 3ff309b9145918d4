"""The gallery's contact sheet: one labelled tile (1.5 m view | 4 m view) per category."""

from __future__ import annotations

import numpy as np

from navbench.sim import SPOT
from navbench.sim.gallery import GUTTER, SPLIT, category_sheet


def test_sheet_has_one_tile_per_category_with_both_views():
    cats = [("chair", (0.46, 0.9, 0.48), False), ("mug", (0.09, 0.1, 0.09), True), ("bed", (1.4, 0.55, 2.05), False)]
    sheet = np.asarray(category_sheet(cats, "indoor", SPOT, size=(48, 36), columns=2))
    band = max(9, 36 // 10) + 6
    block = 2 * 48 + 2  # 1.5 m view | grey line | 4 m view
    assert sheet.shape == (2 * (36 + band) + GUTTER, 2 * block + GUTTER, 3)
    first = sheet[:36, :48].astype(float)
    assert first.std() > 5  # a picture, not blank
    assert (sheet[:36, 48:50] == SPLIT).all()  # a grey line between one category's two views...
    assert (sheet[:, block:block + GUTTER] == 255).all()  # ...a white gutter between categories
    assert (sheet[36 + band:36 + band + GUTTER] == 255).all()  # and between rows
    assert (sheet[36 + band + GUTTER:, block + GUTTER:] == 255).all()  # the fourth slot stays empty
