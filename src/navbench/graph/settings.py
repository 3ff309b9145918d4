"""Typed thresholds of the spatial scene graph (SPEC §2, CondVLN §3.1.3)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject


@dataclass(frozen=True)
class GraphSettings:
    """Thresholds for the semantic and canonical predicates; metres and degrees.

    Attributes:
        near_max: ``near`` when ``d_used <= near_max`` (m).
        far_min: ``far from`` when ``d_used >= far_min`` (m).
        higher_min: ``higher than`` when ``δy >= higher_min``; ``lower than`` when
            ``δy <= -higher_min`` (m), where ``δy = y_subject - y_reference`` (centres).
        above_min_dy: ``above`` / ``below`` need ``|δy| >= above_min_dy`` (m) ...
        above_max_h: ... and a horizontal centre distance ``h <= above_max_h`` (m), or
            overlapping XZ footprints when ``above_footprint`` is true and both objects have AABBs.
        above_footprint: accept overlapping XZ AABB footprints for ``above`` / ``below``.
        elevation_deg: elevation angle (deg) beyond which the canonical predicate becomes
            ``...-and-up of`` / ``...-and-down of``.
    """

    near_max: float = 1.0
    far_min: float = 3.0
    higher_min: float = 0.5
    above_min_dy: float = 0.3
    above_max_h: float = 0.5
    above_footprint: bool = True
    elevation_deg: float = 30.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "above_footprint":
                if not isinstance(v, bool):
                    raise ConfigError(f"GraphSettings.{f.name}: expected a bool, got {v!r}")
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ConfigError(
                    f"GraphSettings.{f.name}: expected a finite number >= 0, got {v!r}"
                )
        if self.near_max >= self.far_min:
            raise ConfigError(
                f"GraphSettings: expected near_max < far_min, got {self.near_max} >= {self.far_min}"
            )
        if not 0.0 < self.elevation_deg < 90.0:
            raise ConfigError(
                f"GraphSettings.elevation_deg: expected a value in (0, 90), got {self.elevation_deg}"
            )

    def to_dict(self) -> JSONObject:
        """Plain dict of the thresholds (written into graph JSON for traceability)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: JSONObject, source: str = "<settings>") -> GraphSettings:
        """Build from a dict (e.g. a TOML ``[graph]`` table); unknown keys are an error."""
        if not isinstance(d, dict):
            raise ConfigError(f"{source}: [graph]: expected a table of thresholds, got {d!r}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ConfigError(
                f"{source}: unknown graph setting(s) {unknown}; expected some of {sorted(names)}"
            )
        try:
            return cls(**d)
        except ConfigError as e:
            raise ConfigError(f"{source}: [graph] {e}") from None
