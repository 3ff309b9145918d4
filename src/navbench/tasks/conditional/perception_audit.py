"""Does deciding a condition need perception? The per-category / per-source dataset audit.

For instructions (or a dataset's conditional episodes) and their scenes, per group (each
category, each scene source as ``source:<name>``, and ``all``):

* ``presence`` / ``relation``: conditions, the blind prior's accuracy on them
  (:class:`~navbench.tasks.conditional.blind.BlindPrior`, its own scene left out) and the
  majority-class share (the accuracy of always answering the commoner truth);
* ``branch_blind``: instructions where the branch the blind answers select is the recorded one,
  and ``branch_chance`` = mean 1 / branches (what a coin per branch gets, as outcomes are
  balanced);
* ``relations_in_margin``: evaluated relation conditions whose pair neither surely holds nor
  surely fails the predicate (:mod:`.margins`), of ``evaluated_relations``;
  ``qualifiers_in_margin``: qualified references that do not single out their target under the
  same rule, of ``qualified``;
* ``truth_mismatches``: conditions whose recorded truth differs from the scene (annotation for
  presence, scene-graph predicate for relations);
* ``references``: targets, anchors and relation objects named; ``small_references``: those
  below ``min_size`` (visible size, :mod:`.references`); ``median_target_m``: the median
  visible size of the targets; ``outside_references``: those outside their room polygon.

:func:`scene_facts` adds per source: objects, objects outside their room, objects below the size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from statistics import median

from navbench.graph.relations import ObjectArrays, pair_metrics
from navbench.graph.settings import GraphSettings
from navbench.jsontypes import JSONObject
from navbench.scene.model import Scene, SceneObject
from navbench.tasks.conditional.blind import BlindPrior
from navbench.tasks.conditional.instruction import CATEGORIES, Instruction
from navbench.tasks.conditional.margins import MarginSettings, decidable, qualifies
from navbench.tasks.conditional.program import (
    Go,
    ObjectRef,
    Presence,
    Program,
    Relation,
    Seq,
    conditions,
    evaluate,
)
from navbench.tasks.conditional.references import DEFAULT_MIN_SIZE, outside_room, visible_size

#: Columns of an audit row, in print order.
AUDIT_KEYS: tuple[str, ...] = (
    "episodes", "presence", "presence_blind", "presence_majority", "relation", "relation_blind",
    "relation_majority", "branch_blind", "branch_chance", "evaluated_relations",
    "relations_in_margin", "qualified", "qualifiers_in_margin", "truth_mismatches", "references",
    "small_references", "median_target_m", "outside_references",
)


def _targets(p: Program) -> list[ObjectRef]:
    if isinstance(p, Go):
        return [p.target]
    if isinstance(p, Seq):
        return [r for s in p.steps for r in _targets(s)]
    return _targets(p.then) + _targets(p.else_)


def _pair(subject: SceneObject, predicate: str, reference: SceneObject, graph: GraphSettings,
          margins: MarginSettings) -> tuple[bool, bool, bool]:
    """(graph truth, surely holds, surely fails) of "subject <predicate> reference"."""
    pm = pair_metrics(ObjectArrays.from_objects([reference, subject]), graph)
    yes, no = decidable(pm, predicate, graph, margins)
    return bool(pm.holds(predicate)[0, 1]), bool(yes[0, 1]), bool(no[0, 1])


def _qualifier_ok(scene: Scene, ref: ObjectRef, graph: GraphSettings, margins: MarginSettings) -> bool:
    q = ref.qualifier
    assert q is not None
    objs = scene.objects_in(scene.object_index[str(ref.object_id)].room_id)
    idx = {o.id: k for k, o in enumerate(objs)}
    if str(q.anchor_id) not in idx or str(ref.object_id) not in idx:
        return False
    pm = pair_metrics(ObjectArrays.from_objects(objs), graph)
    others = [k for k, o in enumerate(objs) if o.label == ref.label and o.id != ref.object_id]
    return qualifies(pm, q.predicate, idx[str(q.anchor_id)], idx[str(ref.object_id)], others,
                     graph, margins)


def _one(inst: Instruction, scene: Scene, prior: BlindPrior, graph: GraphSettings,
         margins: MarginSettings, min_size: float) -> tuple[Counter[str], list[float]]:
    """Counts of one instruction (sums of :data:`AUDIT_KEYS`, with ``*_right`` / ``*_true``
    numerators) and its targets' visible sizes."""
    c: Counter[str] = Counter(episodes=1)
    objs = scene.object_index
    answers = prior.answers(inst.program, scene.id)
    ev = evaluate(inst.program, inst.truths)
    evaluated = set(ev.evaluated)
    named: list[SceneObject] = []
    for k, cond in enumerate(conditions(inst.program)):
        cid = f"c{k}"
        truth = bool(inst.truths[cid])
        kind = "presence" if isinstance(cond, Presence) else "relation"
        c[kind] += 1
        c[f"{kind}_true"] += truth
        c[f"{kind}_right"] += answers[cid] == truth
        if isinstance(cond, Presence):
            real = any(o.label == cond.label for o in scene.objects_in(cond.room_id))
            c["truth_mismatches"] += real != truth
            continue
        assert isinstance(cond, Relation)
        s, r = objs[str(cond.subject.object_id)], objs[str(cond.reference.object_id)]
        named += [s, r]
        holds, yes, no = _pair(s, cond.predicate, r, graph, margins)
        c["truth_mismatches"] += holds != truth
        if cid in evaluated:
            c["evaluated_relations"] += 1
            c["relations_in_margin"] += not (yes or no)
    c["branch_right"] += prior.branch(inst.program, scene.id).branch_path == ev.branch_path
    sizes = []
    for ref in _targets(inst.program):
        t = objs[str(ref.object_id)]
        named.append(t)
        v = visible_size(t)
        if v is not None:
            sizes.append(v)
        if ref.qualifier is not None:
            c["qualified"] += 1
            c["qualifiers_in_margin"] += not _qualifier_ok(scene, ref, graph, margins)
            named.append(objs[str(ref.qualifier.anchor_id)])
    for o in named:
        c["references"] += 1
        v = visible_size(o)
        c["small_references"] += v is not None and v < min_size
        c["outside_references"] += outside_room(scene, o)
    return c, sizes


def perception_audit(instructions: Iterable[Instruction], scenes: Mapping[str, Scene],
                     prior: BlindPrior, graph: GraphSettings | None = None,
                     margins: MarginSettings | None = None, min_size: float = DEFAULT_MIN_SIZE,
                     ) -> dict[str, JSONObject]:
    """Rows of :data:`AUDIT_KEYS` per category (in :data:`CATEGORIES` order), per
    ``source:<name>``, then ``all`` (module docstring). Rates are ``None`` for no condition.

    Instructions whose scene is not in ``scenes`` are skipped.
    """
    g = graph or GraphSettings()
    m = margins or MarginSettings()
    sums: dict[str, Counter[str]] = {}
    sizes: dict[str, list[float]] = {}
    chance: dict[str, float] = {}
    for inst in instructions:
        scene = scenes.get(inst.scene_id)
        if scene is None:
            continue
        got, sz = _one(inst, scene, prior, g, m, min_size)
        for key in (inst.category, f"source:{scene.source}", "all"):
            sums.setdefault(key, Counter()).update(got)
            sizes.setdefault(key, []).extend(sz)
            chance[key] = chance.get(key, 0.0) + 1.0 / inst.n_branches
    order = [c for c in CATEGORIES if c in sums] + sorted(
        k for k in sums if k not in CATEGORIES and k != "all") + (["all"] if "all" in sums else [])
    out: dict[str, JSONObject] = {}
    for key in order:
        s = sums[key]
        row: JSONObject = {"episodes": s["episodes"]}
        for kind in ("presence", "relation"):
            n = s[kind]
            row[kind] = n
            row[f"{kind}_blind"] = round(s[f"{kind}_right"] / n, 4) if n else None
            row[f"{kind}_majority"] = round(max(s[f"{kind}_true"], n - s[f"{kind}_true"]) / n, 4) \
                if n else None
        row["branch_blind"] = round(s["branch_right"] / s["episodes"], 4)
        row["branch_chance"] = round(chance[key] / s["episodes"], 4)
        for k in ("evaluated_relations", "relations_in_margin", "qualified", "qualifiers_in_margin",
                  "truth_mismatches", "references", "small_references"):
            row[k] = s[k]
        row["median_target_m"] = round(median(sizes[key]), 3) if sizes[key] else None
        row["outside_references"] = s["outside_references"]
        out[key] = {k: row[k] for k in AUDIT_KEYS}
    return out


def scene_facts(scenes: Iterable[Scene], min_size: float = DEFAULT_MIN_SIZE) -> dict[str, JSONObject]:
    """Per scene source: ``scenes``, ``objects`` (in a room), ``outside_room`` (centre outside
    its room polygon: dropped as references) and ``small`` (below ``min_size``)."""
    out: dict[str, Counter[str]] = {}
    for sc in scenes:
        row = out.setdefault(sc.source, Counter())
        row["scenes"] += 1
        for o in sc.objects:
            if o.room_id is None:
                continue
            row["objects"] += 1
            row["outside_room"] += outside_room(sc, o)
            v = visible_size(o)
            row["small"] += v is not None and v < min_size
    return {k: {f: v[f] for f in ("scenes", "objects", "outside_room", "small")}
            for k, v in sorted(out.items())}


__all__ = ["AUDIT_KEYS", "perception_audit", "scene_facts"]
