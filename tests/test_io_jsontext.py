"""Indented JSON by C-encoded leaves gives exactly the standard library's text (the reference
is ``json.dumps`` itself, an independent encoder): nesting, empty containers, polygon-like
lists of pairs, strings with commas and brackets, non-string keys, and the same errors."""

from __future__ import annotations

import json
import math
import random

import pytest

from navbench.io import dumps_json
from navbench.io.jsontext import dumps_indented


def ref(obj: object, indent: int) -> str:
    return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)


CASES: list[object] = [
    {}, [], {"a": {}}, [[]], [[1], []], [[1, 2], [3]], [[1, None, True], (2.5, -0.0)], [["a,b"], [1]],
    [["],["], [2]], {"a": [{}, []]}, [1, True, None, 'x,\n"é]', 1.5e300, -0.0, 10**20, 1e-7],
    {7: 2, 2.5: [1], True: {}, False: 0, None: "a", "k": "v"}, ((1, 2), (3,)), {"a": [1, [2, {"b": None}]]},
    "s", 3, 1.0, None, [[[1]], [2]], {"poly": [[0.1, 2.0], [3.0, -4.5]], "holes": [[[1.0, 1.0], [2, 2]]]},
]


@pytest.mark.parametrize("indent", [0, 1, 2])
def test_same_text_as_the_standard_library(indent: int) -> None:
    for c in CASES:
        assert dumps_indented(c, indent) == ref(c, indent), c


def _random_doc(rng: random.Random, depth: int = 0) -> object:
    r = rng.random()
    if depth > 4 or r < 0.3:
        return rng.choice([rng.uniform(-1e3, 1e3), rng.randint(-5, 5), None, True, "a,[b]", "é", 0.1])
    if r < 0.55:
        return [[rng.uniform(-9, 9) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(0, 4))]
    if r < 0.8:
        return [_random_doc(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {f"k{i}": _random_doc(rng, depth + 1) for i in range(rng.randint(0, 4))}


def test_random_documents() -> None:
    rng = random.Random(5)
    for _ in range(300):
        d = _random_doc(rng)
        assert dumps_indented(d, 1) == ref(d, 1)
    assert dumps_json({"a": [[1.0, 2.0]]}) == ref({"a": [[1.0, 2.0]]}, 1) + "\n"


@pytest.mark.parametrize("bad", [[math.nan], [[1.0], [math.inf]], {"a": {"b": -math.inf}}, {"a": [{"b": [math.nan]}]}])
def test_non_finite_numbers_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        dumps_indented(bad, 1)


def test_unserialisable_values_and_keys_are_refused() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps_indented({"a": [object(), {"b": 1}]}, 1)
    with pytest.raises(TypeError, match="keys must be"):
        dumps_indented({(1, 2): [1, [2]]}, 1)
