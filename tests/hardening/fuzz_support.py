"""Shared pieces of the hypothesis fuzz suites (``test_fuzz_readers``, ``test_fuzz_importers``):
settings, the property runner and the structural / byte mutators.

``NAVBENCH_FUZZ_EXAMPLES`` (default 120) sets the examples per property of the bounded tests,
``NAVBENCH_FUZZ_EXAMPLES_SLOW`` (default 1500) those of the ``slow`` variants; raise them (and pass
``--hypothesis-seed``) to hunt for tracebacks before CI does.
"""

from __future__ import annotations

import copy
import math
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navbench.errors import NavbenchError

FUZZ_EXAMPLES = int(os.environ.get("NAVBENCH_FUZZ_EXAMPLES", "120"))
FUZZ_EXAMPLES_SLOW = int(os.environ.get("NAVBENCH_FUZZ_EXAMPLES_SLOW", "1500"))
_COMMON = {"deadline": None, "database": None, "derandomize": False,
           "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture]}
FAST = settings(max_examples=FUZZ_EXAMPLES, **_COMMON)
SLOW = settings(max_examples=FUZZ_EXAMPLES_SLOW, **_COMMON)
WORK = Path(tempfile.mkdtemp(prefix="navbench-fuzz-"))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=6),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=6,
)
BAD_NUMBERS = st.sampled_from([math.nan, math.inf, -math.inf, "1.0", True, [1.0], {"x": 1}])


def properties(body: Callable[[Any], None], fast_share: float = 1.0
               ) -> tuple[Callable[..., None], Callable[..., None]]:
    """A bounded test (``fast_share`` x ``FUZZ_EXAMPLES`` examples: mesh-loading importers use
    fewer) and a ``slow`` test (``FUZZ_EXAMPLES_SLOW``) of one property."""
    n = max(1, round(FUZZ_EXAMPLES * fast_share))
    fast = (FAST if n == FUZZ_EXAMPLES else settings(max_examples=n, **_COMMON))(given(st.data())(body))
    slow = pytest.mark.slow(SLOW(given(st.data())(body)))
    return fast, slow


def outcome(fn: Callable[..., Any], *args: Any) -> bool:
    """True when ``fn`` accepted the input, False when it raised a NavbenchError; anything else
    propagates and fails the test (a traceback)."""
    try:
        fn(*args)
    except NavbenchError as e:
        assert "\n" not in str(e).strip(), f"multi-line error: {e}"
        return False
    return True


def tree_paths(doc: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from tree_paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from tree_paths(v, (*prefix, i))


def set_at(doc: Any, path: tuple, value: Any, delete: bool = False) -> Any:
    if not path:
        return value
    t = doc
    for k in path[:-1]:
        t = t[k]
    if delete and isinstance(t, dict):
        del t[path[-1]]
    elif delete and isinstance(t, list):
        t.pop(path[-1])
    else:
        t[path[-1]] = value
    return doc


def mutate_tree(data: Any, base: Any, paths: list[tuple]) -> Any:
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            doc = set_at(doc, path, data.draw(JSON), delete=data.draw(st.booleans()))
        except (KeyError, IndexError, TypeError):
            continue  # the path vanished with an earlier mutation
    return doc


def mutate_bytes(data: Any, raw: bytes) -> bytes:
    b = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 3))):
        if not b:
            break
        i = data.draw(st.integers(0, len(b) - 1))
        op = data.draw(st.sampled_from(["truncate", "flip", "insert"]))
        if op == "truncate":
            del b[i:]
        elif op == "flip":
            b[i] ^= data.draw(st.integers(1, 255))
        else:
            b[i:i] = data.draw(st.binary(min_size=1, max_size=8))
    return bytes(b)


def numeric_leaves(doc: Any, keep: Callable[[tuple], bool]) -> list[tuple]:
    def leaf(p: tuple) -> Any:
        t = doc
        for k in p:
            t = t[k]
        return t
    return [p for p in tree_paths(doc) if p and keep(p) and isinstance(leaf(p), (int, float))
            and not isinstance(leaf(p), bool)]
