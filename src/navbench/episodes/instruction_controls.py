"""The conditional instruction controls of a dataset build (``dataset build`` flags).

Relation and cross-room shares, the lead-subgoal share, evidence observability and allowed
horizons (the sampler's :class:`~navbench.tasks.conditional.InstructionSettings`), the
decidable-relation margins (:mod:`navbench.tasks.conditional.margins`) and the smallest
reference size (default: what the embodiment's camera resolves at 1.5 m,
:mod:`navbench.tasks.conditional.references`). JSON-able: the manifest records them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from navbench.errors import ConfigError
from navbench.tasks.conditional.margins import MarginSettings
from navbench.tasks.conditional.references import (
    DEFAULT_MIN_SIZE,
    EMBODIMENT_CAMERA,
    resolvable_size,
)

if TYPE_CHECKING:
    from navbench.tasks.conditional import InstructionSettings


@dataclass(frozen=True)
class InstructionControls:
    """The instruction sampler's controls of a dataset build (JSON-able; see the sampler's
    :class:`~navbench.tasks.conditional.InstructionSettings` for their meaning).

    Attributes:
        p_relation: share of relation conditions (``--p-relation``).
        p_cross_room: share of draws across rooms (``--p-cross-room``).
        p_subgoal: share of instructions with a lead subgoal (``--p-subgoal``).
        evidence: ``"on_route"`` / ``"off_route"`` evidence observability only (``--evidence``;
            ``None``: any).
        horizons: allowed horizons (``--horizon 1,2``; ``None``: any).
        min_reference_size: smallest visible size (m) of a referenced object (``--min-size``);
            ``None``: what the embodiment's camera resolves with 32 rows at 1.5 m (0.165 m for
            both robots), the SPEC §6 camera's without an embodiment.
        margins: the decidable-relation margins.
    """

    p_relation: float = 0.3
    p_cross_room: float = 0.5
    p_subgoal: float = 0.4
    evidence: str | None = None
    horizons: tuple[int, ...] | None = None
    min_reference_size: float | None = None
    margins: MarginSettings = field(default_factory=MarginSettings)

    def __post_init__(self) -> None:
        try:
            self.sampler_settings(None)
        except ConfigError as e:
            raise ConfigError(str(e).replace("InstructionSettings.", "instruction controls: ")) from None

    def reference_size(self, embodiment: str | None) -> float:
        """Smallest reference (m) for a scene built for ``embodiment``."""
        if self.min_reference_size is not None:
            return float(self.min_reference_size)
        if embodiment is None:
            return DEFAULT_MIN_SIZE
        fovy, rows = EMBODIMENT_CAMERA[embodiment]
        return round(resolvable_size(fovy, rows), 3)

    def sampler_settings(self, embodiment: str | None, **extra: object) -> InstructionSettings:
        """The sampler settings these controls give (``extra``: ``targets``, ``min_target_gap``)."""
        from navbench.tasks.conditional import InstructionSettings

        return InstructionSettings(
            p_relation=self.p_relation, p_cross_room=self.p_cross_room, p_subgoal=self.p_subgoal,
            evidence=self.evidence, horizons=self.horizons, margins=self.margins,
            min_reference_size=self.reference_size(embodiment), **extra)  # type: ignore[arg-type]


__all__ = ["InstructionControls"]
