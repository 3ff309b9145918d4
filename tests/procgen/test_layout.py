"""Floor-plan building blocks against hand-computed cases."""

from __future__ import annotations

import pytest

from navbench.rng import derive
from navbench.scene.procgen.layout import (
    PlanRejectedError,
    _split_1d,
    room_program,
    shared_edge,
    treemap,
)


def test_treemap_hand_example() -> None:
    # areas 2, 2, 4 in a 4 x 2 rectangle: first cut after the first two (sums 4 | 4) at x = 2,
    # then the 2 x 2 left half is cut at x = 1.
    assert treemap((0.0, 0.0, 4.0, 2.0), [2.0, 2.0, 4.0]) == [
        (0.0, 0.0, 1.0, 2.0), (1.0, 0.0, 2.0, 2.0), (2.0, 0.0, 4.0, 2.0)]


def test_split_1d_respects_minimum_widths() -> None:
    # proportional widths of 1, 4, 5 m in a 10 m strip; the first must be >= 2 m, the rest
    # share the remaining 8 m in ratio 4:5.
    r = _split_1d((0.0, 0.0, 10.0, 3.0), [1.0, 4.0, 5.0], 0, [2.0, 2.0, 2.0])
    assert r[0] == pytest.approx((0.0, 0.0, 2.0, 3.0))
    assert r[1] == pytest.approx((2.0, 0.0, 2.0 + 8 * 4 / 9, 3.0))
    assert r[2] == pytest.approx((2.0 + 8 * 4 / 9, 0.0, 10.0, 3.0))
    with pytest.raises(PlanRejectedError):
        _split_1d((0.0, 0.0, 5.0, 3.0), [1.0, 1.0, 1.0], 0, [2.0, 2.0, 2.0])


def test_shared_edge() -> None:
    assert shared_edge((0, 0, 4, 3), (4, 1, 6, 5)) == ("x", 4, 1, 3)
    assert shared_edge((0, 0, 4, 3), (1, 3, 2, 5)) == ("z", 3, 1, 2)
    assert shared_edge((0, 0, 4, 3), (4, 3, 6, 5)) is None  # corner contact only
    assert shared_edge((0, 0, 4, 3), (5, 0, 6, 3)) is None


@pytest.mark.parametrize("n", range(1, 11))
def test_room_program_counts_and_hallway(n: int) -> None:
    for s in range(30):
        labels = room_program(n, derive(s, "t"))
        assert len(labels) == n
        assert ("hallway" in labels) == (n > 5)
        assert all(type(x) is str for x in labels)
        if n >= 4:
            assert {"kitchen", "living room", "bedroom", "bathroom"} <= set(labels)
