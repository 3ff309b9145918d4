"""Options of the conditional instruction sampler (:mod:`.sampler`) and its version."""

from __future__ import annotations

from dataclasses import dataclass, field

from navbench.errors import ConfigError
from navbench.graph.relations import AZIMUTH_NAMES, SEMANTIC_PREDICATES
from navbench.tasks.conditional.margins import MarginSettings
from navbench.tasks.conditional.references import DEFAULT_MIN_SIZE

_LEVEL_CANONICAL = tuple(f"{a} of" for a in AZIMUTH_NAMES)


#: The conditional instruction generator's version, recorded in dataset manifests: 2 = decidable
#: margins, usable references, balanced plausible presence distractors (1: navbench 0.2.0).
GENERATOR = "navbench.conditional/2"
#: Values of the ``evidence`` control (``InstructionSettings.evidence``).
EVIDENCE: tuple[str, ...] = ("on_route", "off_route")


@dataclass(frozen=True)
class InstructionSettings:
    """Sampler options.

    Attributes:
        p_relation: probability that a condition is a spatial relation (else object presence).
        p_cross_room: probability of drawing conditions and targets across rooms; otherwise
            everything is drawn in one room (the recorded ``cross_room`` axis is computed).
        relation_predicates: predicates used in relation conditions.
        qualifier_predicates: predicates used to disambiguate targets.
        max_attempts: draws per instruction before giving up.
        p_subgoal: probability of a lead subgoal ``Seq(Go(W0), program)`` (any category).
        min_target_gap: the targets of one instruction are at least this far apart (m, XZ
            footprint gap), so that an agent's stopping point tells which branch it took
            (episode builders set it to twice the success distance and check the exact goal
            positions again); ``0`` (the default) disables it.
        targets: ids of the objects that may be navigation targets (goal, subgoals and every
            branch's target; e.g. those a robot can reach, as episode builders pass them);
            ``None`` (the default): every referable object. Conditions may name any object.
        margins: the decidable-relation margins of relation conditions and qualifiers
            (:class:`~navbench.tasks.conditional.margins.MarginSettings`).
        min_reference_size: objects whose visible size (m) is below this are never targets,
            anchors, relation objects or presence labels (default: what the SPEC §6 camera
            resolves with 32 rows at 1.5 m, 0.165 m; :mod:`.references`); ``0`` keeps all.
        evidence: keep only instructions whose ``evidence_observability`` axis is this
            (``"on_route"`` / ``"off_route"``; ``None``: any), by re-drawing.
        horizons: allowed horizons (navigation segments, subgoals + 1); the lead subgoal is
            added or left out to meet them (``None``: any, a lead with ``p_subgoal``).
    """

    p_relation: float = 0.3
    p_cross_room: float = 0.5
    relation_predicates: tuple[str, ...] = SEMANTIC_PREDICATES + _LEVEL_CANONICAL
    qualifier_predicates: tuple[str, ...] = ("near", "above", "below", *_LEVEL_CANONICAL)
    max_attempts: int = 200
    min_target_gap: float = 0.0
    p_subgoal: float = 0.4
    targets: frozenset[str] | None = None
    margins: MarginSettings = field(default_factory=MarginSettings)
    min_reference_size: float = DEFAULT_MIN_SIZE
    evidence: str | None = None
    horizons: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for name in ("p_relation", "p_cross_room", "p_subgoal"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"InstructionSettings.{name}: expected a value in [0, 1], got {v}")
        if not self.relation_predicates or not self.qualifier_predicates:
            raise ConfigError("InstructionSettings: predicate lists must not be empty")
        if self.min_target_gap < 0:
            raise ConfigError("InstructionSettings.min_target_gap: expected >= 0")
        if self.max_attempts < 1:
            raise ConfigError("InstructionSettings.max_attempts: expected >= 1")
        if not self.min_reference_size >= 0:
            raise ConfigError(f"InstructionSettings.min_reference_size: expected >= 0 m, "
                              f"got {self.min_reference_size}")
        if self.evidence is not None and self.evidence not in EVIDENCE:
            raise ConfigError(f"InstructionSettings.evidence: expected one of {list(EVIDENCE)} "
                              f"or None, got {self.evidence!r}")
        if self.horizons is not None and (not self.horizons or any(
                isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in self.horizons)):
            raise ConfigError(f"InstructionSettings.horizons: expected integers >= 1, got {self.horizons!r}")


__all__ = ["EVIDENCE", "GENERATOR", "InstructionSettings"]
