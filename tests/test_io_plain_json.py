"""``is_plain_json`` says exactly when a document is what the JSON reader gives back for its own
text, which lets the importers check a scene document instead of parsing it back: the reference
is the round trip itself (``loads_json(dumps_json(doc))``, compared with types)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navbench.io import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    JSONLimitError,
    dumps_json,
    is_plain_json,
    loads_json,
)


def same(a: object, b: object) -> bool:
    """Equal values of equal types all the way down (``1 == 1.0 == True`` does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


def round_trips(doc: object) -> bool:
    try:
        return same(loads_json(dumps_json(doc), allow_nan=True), doc)  # type: ignore[arg-type]
    except (ValueError, TypeError, JSONLimitError):
        return False


def nested(depth: int) -> object:
    doc: object = 1
    for _ in range(depth):
        doc = [doc]
    return doc


@pytest.mark.parametrize(("doc", "plain"), [
    ({"a": [1, 2.5, "x", None, True, {"b": []}]}, True),
    ([], True), ("text", True), (-(10 ** MAX_INT_DIGITS - 1), True),
    ({"a": (1, 2)}, False),  # a tuple comes back a list
    ({1: "a"}, False),  # an int key comes back a string
    ({"a": math.nan}, False), ([math.inf], False),  # not written at all
    ([10 ** MAX_INT_DIGITS], False),  # 31 digits: the reader refuses it
    ([1.0 + 0j], False), ({"a": {1, 2}}, False),
    (nested(MAX_JSON_DEPTH), True), (nested(MAX_JSON_DEPTH + 1), False),
])
def test_hand_cases(doc: object, plain: bool) -> None:
    assert is_plain_json(doc) is plain
    assert round_trips(doc) is plain


def test_subclasses_of_json_types_are_not_plain() -> None:
    class Tag(str):
        pass

    class Num(float):
        pass

    for doc in ([Tag("a")], [Num(1.5)], {"k": Tag("v")}):
        assert not is_plain_json(doc)
        assert json.loads(dumps_json(doc)) == doc  # equal, but the types come back plain


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(10 ** 32), 10 ** 32) | st.floats() | st.text(max_size=4)
    | st.tuples(st.integers()),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3) | st.integers(), c, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None, database=None)
@given(JSONISH)
def test_plain_means_the_round_trip_gives_it_back(doc: object) -> None:
    assert is_plain_json(doc) == round_trips(doc)
