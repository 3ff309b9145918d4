"""The conditional part of a dataset build: per-split label statistics, the per-scene builder
that keeps the category mix after drops, and the manifest record of the instruction controls
(:class:`~navbench.episodes.instruction_controls.InstructionControls`).

Presence distractors are balanced over each split's scenes (:func:`split_label_stats`): each
(label, room type) pair is asked true and false about equally often within train and within
eval, so a prior fitted on train learns nothing it could use on eval.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from navbench.episodes.budget import within_budget
from navbench.episodes.conditional import conditional_episodes, instruction_settings
from navbench.episodes.gt import with_gt
from navbench.episodes.model import Episode
from navbench.jsontypes import JSONObject
from navbench.rng import child_seed, derive
from navbench.scene.model import Scene

if TYPE_CHECKING:
    from navbench.episodes.dataset import DatasetSettings
    from navbench.nav import NavMesh
    from navbench.tasks.conditional import RoomLabelStats

#: Rounds of per-category re-sampling that refill categories after episode drops.
RESAMPLE_ROUNDS = 8


def split_label_stats(scenes: Sequence[Scene], splits: Mapping[str, Sequence[str]],
                      settings: DatasetSettings) -> dict[str, RoomLabelStats]:
    """Scene id → the label statistics of its split's scenes (with the smallest reference size
    of its kind's embodiment)."""
    from navbench.tasks.conditional import room_label_stats

    by_id = {s.id: s for s in scenes}
    out: dict[str, RoomLabelStats] = {}
    for ids in splits.values():
        members = [by_id[i] for i in ids if i in by_id]
        cache: dict[float, RoomLabelStats] = {}
        for s in members:
            size = settings.instructions.reference_size(settings.embodiment_for(s.kind))
            if size not in cache:
                cache[size] = room_label_stats(members, size)
            out[s.id] = cache[size]
    return out


def conditional_scene(scene: Scene, nm: NavMesh, seed: int, s: DatasetSettings, drop: Counter[str],
                      label_stats: RoomLabelStats | None = None) -> list[Episode]:
    """Conditional episodes of one scene whose categories keep the requested mix after drops:
    the round-robin quota per category is refilled by targeted re-sampling of the short
    categories (``RESAMPLE_ROUNDS`` rounds of exactly the shortfall each, so every generated
    instruction is kept or dropped by reason; the extra ones are counted in ``drop["resampled"]``,
    which :func:`~navbench.episodes.dataset.build_scene` moves to ``SceneResult.resampled``).
    Episodes whose reference does not fit the action budget (``over_budget``,
    :func:`~navbench.episodes.budget.within_budget`) are dropped before the quota is counted, so
    they are refilled too. Starts and approach points keep the embodiment's end clearance
    (``DatasetSettings.end_clearance``, or ``s.conditional.end_clearance`` where larger);
    instructions follow ``s.instructions`` with the split's ``label_stats``."""
    from navbench.tasks.conditional import (
        CATEGORIES,
        Instruction,
        SamplingError,
        generate_instructions,
    )

    cats = list(s.categories or CATEGORIES)
    k = int(derive(seed, scene.id, "category-offset").integers(len(cats)))
    cats = cats[k:] + cats[:k]  # the round-robin remainder lands on a different category per scene
    n = s.episodes_per_scene
    # starts and approach points keep the embodiment's end clearance, as ObjectNav's do
    cs = replace(s.conditional, end_clearance=max(s.conditional.end_clearance,
                                                  s.end_clearance(scene.kind)))
    ist = instruction_settings(scene, cs, nm, s.instructions, s.embodiment_for(scene.kind))
    loose = replace(ist, targets=None)

    def draw(count: int, key: tuple[object, ...], which: list[str], first: int,
             fallback: bool = True) -> list[Instruction] | None:
        """Instructions whose targets all have approach points; with ``fallback``, where that
        fails (a category with too few such targets), from every referable object (the
        unapproachable ones are then dropped by reason); ``None`` when none can be drawn."""
        for st in (ist, loose) if fallback else (ist,):
            try:
                return generate_instructions(scene, count, child_seed(seed, *key), categories=which,
                                             instruction_settings=st, start_index=first,
                                             label_stats=label_stats)
            except SamplingError:
                continue
        return None

    def fitting(got: list[Episode]) -> list[Episode]:  # budget drops are refilled like the rest
        pairs = with_gt(got, s.gt_step, s.gt_turn_deg, drop)
        return [e for e, _ in within_budget("conditional", pairs, drop)]

    # all categories at once; if one of them fails, the rounds below draw each on its own
    ins = draw(n, ("instructions",), cats, 0, fallback=False)
    eps: list[Episode] = []
    if ins is not None:
        eps, d = conditional_episodes(scene, nm, ins, seed, cs)
        drop.update(d)
        eps = fitting(eps)
    quota = Counter(cats[i % len(cats)] for i in range(n))
    have = Counter(e.navbench["category"] for e in eps)
    # when the first draw failed, the refill's first n instructions stand in for it (they are
    # not "resampled"), so that kept + dropped = n + resampled still holds
    start, owed = n, 0 if ins is not None else n
    for r in range(1, RESAMPLE_ROUNDS + 1):
        short = {c: quota[c] - have[c] for c in cats if have[c] < quota[c]}
        if not short:
            break
        for c, need in short.items():  # per category, so one category's shortage stays its own
            more = draw(need, ("instructions", c, r), [c], start)
            if more is None:
                continue
            start += len(more)
            k = min(owed, len(more))
            owed -= k
            drop["resampled"] += len(more) - k
            got, d = conditional_episodes(scene, nm, more, seed, cs)
            drop.update(d)
            got = fitting(got)
            eps += got
            have[c] += len(got)
    if owed:
        drop["scene_unsupported"] += owed
    return eps


def controls_record(s: DatasetSettings, kinds: Sequence[str]) -> JSONObject:
    """What the manifest records of the instruction controls: the controls themselves and the
    smallest reference size used per scene kind."""
    return {**dataclasses.asdict(s.instructions),
            "min_reference_size_by_kind": {k: s.instructions.reference_size(s.embodiment_for(k))
                                           for k in kinds}}


__all__ = ["RESAMPLE_ROUNDS", "conditional_scene", "controls_record",
           "split_label_stats"]
