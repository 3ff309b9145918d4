"""``navbench dataset audit``: the perception audit of a dataset's conditional episodes.

The blind prior (:class:`~navbench.tasks.conditional.blind.BlindPrior`) is fitted on the
scenes of the dataset's ``train`` split (their rooms, and the conditions of their conditional
episodes) and answers the episodes of the other splits; a dataset without that split (the
demo's: everything in ``eval``) is answered leave-one-scene-out over all its scenes (the
episode's own scene is always left out). Leave-one-scene-out inside one split understates a
prior where that split is balanced (the held-out scene's pairs lean the other way in the
rest), so the prior's own split is audited only when asked for. The figures are those of
:func:`~navbench.tasks.conditional.perception_audit.perception_audit`, with the margins and
smallest reference size the dataset was built with (``manifest.conditional_instructions``;
the defaults for datasets that do not record them).
"""

from __future__ import annotations

from pathlib import Path

from navbench.episodes.conditional import episode_instruction
from navbench.episodes.loader import Dataset, load_dataset
from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject
from navbench.tasks.conditional import Instruction
from navbench.tasks.conditional.blind import BlindPrior
from navbench.tasks.conditional.margins import MarginSettings
from navbench.tasks.conditional.perception_audit import perception_audit, scene_facts
from navbench.tasks.conditional.references import DEFAULT_MIN_SIZE


def conditional_instructions(ds: Dataset, splits: tuple[str, ...] | None = None) -> list[Instruction]:
    """The instructions of the dataset's ``conditional`` episodes (every split by default)."""
    if "conditional" not in ds.tasks:
        raise ConfigError(f"{ds.root}: no conditional episodes (tasks: {list(ds.tasks)})")
    out = []
    for split in splits or ds.splits:
        if split in ds.manifest.files.get("conditional", {}):
            out += [episode_instruction(e) for e in ds.episodes("conditional", split)]
    return out


def prior_split(ds: Dataset, split: str = "train") -> str | None:
    """``split`` when the dataset has it with conditional episodes, else ``None`` (all scenes,
    leave-one-scene-out)."""
    has = split in ds.manifest.splits and split in ds.manifest.files.get("conditional", {})
    return split if has else None


def fit_blind_prior(dataset: str | Path | Dataset, split: str = "train") -> BlindPrior:
    """The blind prior of a dataset: the rooms and conditional episodes of the scenes of
    ``split`` (every scene when the dataset has no such split; :func:`prior_split`)."""
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    use = prior_split(ds, split)
    ids = ds.manifest.splits[use] if use is not None else list(ds.manifest.scenes)
    insts = conditional_instructions(ds, (use,) if use is not None else None)
    return BlindPrior.fit([ds.scene(s) for s in sorted(ids)],
                          ((i.scene_id, i.program, i.truths) for i in insts if i.scene_id in ids))


def _built_with(ds: Dataset) -> tuple[MarginSettings, float]:
    """Margins and smallest reference size (the least over scene kinds) the manifest's
    ``conditional_instructions`` records; the defaults for older datasets."""
    ins = ds.manifest.raw.get("conditional_instructions") or {}
    m = ins.get("margins")
    margins = MarginSettings(**m) if isinstance(m, dict) else MarginSettings()
    sizes = [v for v in (ins.get("min_reference_size_by_kind") or {}).values()
             if isinstance(v, (int, float))]
    return margins, float(min(sizes)) if sizes else DEFAULT_MIN_SIZE


def audited_splits(ds: Dataset, prior: str | None, splits: tuple[str, ...] | None = None
                   ) -> tuple[str, ...]:
    """The splits audited: ``splits`` if given; else every split but the prior's (a prior is
    judged on scenes it was not fitted on); else (no other split, or no prior split) all."""
    have = tuple(s for s in ds.splits if s in ds.manifest.files.get("conditional", {}))
    if splits:
        bad = [s for s in splits if s not in have]
        if bad:
            raise ConfigError(f"{ds.root}: no conditional split {bad}; expected some of {list(have)}")
        return tuple(splits)
    rest = tuple(s for s in have if s != prior)
    return rest if prior is not None and rest else have


def audit_dataset(dataset: str | Path | Dataset, split: str = "train",
                  splits: tuple[str, ...] | None = None) -> JSONObject:
    """The audit of a dataset (module docstring) over the episodes of :func:`audited_splits`.

    Returns ``{"dataset", "prior": {"split", "scenes", "rule"}, "audited_splits",
    "min_reference_size", "margins", "groups": {group: row}, "scenes": {source: facts}}``: rows
    per category, per ``source:<name>`` and ``all`` of
    :data:`~navbench.tasks.conditional.perception_audit.AUDIT_KEYS`; ``scenes`` covers every
    scene of the dataset.
    """
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    prior = fit_blind_prior(ds, split)
    use = prior_split(ds, split)
    which = audited_splits(ds, use, splits)
    insts = conditional_instructions(ds, which)
    scenes = {sid: ds.scene(sid) for sid in sorted(ds.manifest.scenes)}
    margins, size = _built_with(ds)
    return {
        "dataset": str(ds.root),
        "prior": {"split": use, "scenes": len(prior.scenes),
                  "rule": "leave one scene out" if use is None else f"fitted on {use}"},
        "audited_splits": list(which),
        "min_reference_size": size,
        "margins": margins.to_dict(),
        "groups": perception_audit(insts, scenes, prior, margins=margins, min_size=size),
        "scenes": scene_facts(scenes.values(), size),
    }


__all__ = ["audit_dataset", "audited_splits", "conditional_instructions", "fit_blind_prior",
           "prior_split"]
