"""Names for the data navbench leaves untyped: JSON documents and observation dicts.

A parsed JSON document (``json.load``, a TOML table, an HTTP body) has no static shape: readers
check it field by field and raise :class:`navbench.errors.NavbenchError` subclasses that name the
file and field. An observation dict (SPEC §6) maps sensor names to values of mixed types (arrays,
floats, strings). These aliases are the only places where navbench spells ``Any`` for such data,
each with its reason; ``scripts/any_census.py`` counts their uses as commented ``Any``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

JSON: TypeAlias = Any  # untyped JSON value: dict, list, str, int, float, bool or None
JSONObject: TypeAlias = dict[str, Any]  # untyped JSON object: str keys, any JSON values
JSONMapping: TypeAlias = Mapping[str, Any]  # read-only untyped JSON object
Observation: TypeAlias = Mapping[str, Any]  # SPEC §6 observation: sensor -> array, float, str
Kwargs: TypeAlias = dict[str, Any]  # keyword arguments passed on to a callee that checks them

__all__ = ["JSON", "JSONMapping", "JSONObject", "Kwargs", "Observation"]
