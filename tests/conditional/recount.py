"""Independent recount of what a blind agent and a person make of generated conditions.

Reads instruction records (``program`` trees, ``truths``, ``branch_index``) and the scenes they
were drawn from (as navbench's loaders convert the raw files: the only code shared with the
generator) and recomputes everything else with its own loops: condition truths
(:mod:`tests.conditional.oracle`), the perception margins of every evaluated relation condition
and direction / near qualifier, blind priors fitted on the *other* scenes (leave one scene out),
the branch a blind agent picks, object sizes and objects whose centre lies outside their room
polygon. It never imports the generator's truth, margin, prior or audit code.

Margins (a person would decide differently inside them):

* direction ("A is north of B"): horizontal centre distance < 0.5 m, or the bearing within 10°
  of a boundary of the stated 45° sector, or (for a pair inside the sector) the elevation within
  10° of the ±30° level bound;
* near / far from: the used distance within 0.3 m of the 1.0 / 3.0 m threshold;
* higher / lower than: the height difference strictly between 0.1 m and the 0.5 m threshold;
* above / below: the height difference strictly between 0.1 m and the 0.3 m threshold.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from navbench.scene import Scene, SceneObject
from navbench.tasks.conditional import program_from_dict  # serialisation only
from tests.conditional.oracle import AZ, box, condition_truths, d_used, holds

DIRECTIONS = {f"{a} of": 45.0 * k for k, a in enumerate(AZ)}
CAMERA_F_PX = 240.0 / math.tan(math.radians(79.0) / 2.0)  # 480 px rows, 79° vertical FOV


# --------------------------------------------------------------------------- programs (own walk)

def conds(p: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Conditions of a program dict in pre-order (condition, then, else; seq steps in order)."""
    if p["op"] == "go":
        return []
    if p["op"] == "seq":
        return [c for s in p["steps"] for c in conds(s)]
    return [p["cond"], *conds(p["then"]), *conds(p["else"])]


def run(p: Mapping[str, Any], answer: Mapping[int, bool]) -> tuple[list[str], list[int], list[Mapping[str, Any]]]:
    """Execute a program dict with truths by pre-order index: (branch path, evaluated condition
    indices, visited target refs)."""
    order = {id(c): k for k, c in enumerate(conds(p))}
    path: list[str] = []
    evaluated: list[int] = []
    visits: list[Mapping[str, Any]] = []

    def walk(n: Mapping[str, Any]) -> None:
        if n["op"] == "go":
            visits.append(n["target"])
        elif n["op"] == "seq":
            for s in n["steps"]:
                walk(s)
        else:
            k = order[id(n["cond"])]
            evaluated.append(k)
            take = answer[k]
            path.append("then" if take else "else")
            walk(n["then"] if take else n["else"])

    walk(p)
    return path, evaluated, visits


def n_outcomes(p: Mapping[str, Any]) -> int:
    """Number of feasible branch paths of a program dict."""
    if p["op"] == "go":
        return 1
    if p["op"] == "seq":
        return math.prod(n_outcomes(s) for s in p["steps"])
    return n_outcomes(p["then"]) + n_outcomes(p["else"])


def refs(p: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every Go target of a program dict."""
    if p["op"] == "go":
        return [p["target"]]
    if p["op"] == "seq":
        return [r for s in p["steps"] for r in refs(s)]
    return refs(p["then"]) + refs(p["else"])


# --------------------------------------------------------------------------- geometry (own)

def _inside(poly: Sequence[tuple[float, float]], x: float, z: float) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, z1), (x2, z2) = poly[i], poly[(i + 1) % n]
        if (z1 > z) != (z2 > z) and x < x1 + (z - z1) * (x2 - x1) / (z2 - z1):
            inside = not inside
    return inside


def _edge_distance(poly: Sequence[tuple[float, float]], x: float, z: float) -> float:
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x1, z1), (x2, z2) = poly[i], poly[(i + 1) % n]
        dx, dz = x2 - x1, z2 - z1
        t = 0.0 if dx == dz == 0 else max(0.0, min(1.0, ((x - x1) * dx + (z - z1) * dz) / (dx * dx + dz * dz)))
        best = min(best, math.hypot(x - x1 - t * dx, z - z1 - t * dz))
    return best


def outside_room(scene: Scene, o: SceneObject, tol: float = 0.15) -> bool:
    """Whether the object's centre lies more than ``tol`` m outside its room's floor polygon."""
    room = scene.room_index.get(str(o.room_id))
    if room is None:
        return False
    x, z = o.center[0], o.center[2]
    return not _inside(room.floor_polygon, x, z) and _edge_distance(room.floor_polygon, x, z) > tol


def rooms_containing(scene: Scene, x: float, z: float) -> list[str]:
    return [r.id for r in scene.rooms if _inside(r.floor_polygon, x, z)]


def visible_size(o: SceneObject) -> float | None:
    """sqrt(product of the two largest extents) (m), from size, else AABB, else 2·radius."""
    if o.size is not None:
        e = sorted(o.size)
    elif o.aabb is not None:
        e = sorted(o.aabb[1][k] - o.aabb[0][k] for k in range(3))
    elif o.radius is not None:
        return 2.0 * o.radius
    else:
        return None
    return math.sqrt(e[1] * e[2])


def pixels_at(size: float, distance: float = 1.5) -> float:
    """Image rows an object of ``size`` m spans at ``distance`` m (SPEC §6 camera)."""
    return CAMERA_F_PX * size / distance


# --------------------------------------------------------------------------- margins (own)

def _off(subj: SceneObject, ref: SceneObject, centre_deg: float) -> tuple[float, float, float]:
    dx, dy, dz = (subj.center[k] - ref.center[k] for k in range(3))
    h = math.hypot(dx, dz)
    ang = math.degrees(math.atan2(-dz, dx))
    off = abs((ang - centre_deg + 180.0) % 360.0 - 180.0)
    return h, off, math.degrees(math.atan2(dy, h))


def undecidable(subj: SceneObject, pred: str, ref: SceneObject) -> bool:
    """Whether "subj <pred> ref" lies inside a margin (module docstring)."""
    dy = subj.center[1] - ref.center[1]
    if pred in DIRECTIONS:
        h, off, el = _off(subj, ref, DIRECTIONS[pred])
        if h < 0.5 or abs(off - 22.5) < 10.0:
            return True
        return off < 22.5 and abs(el) > 20.0
    if pred in ("near", "far from"):
        thr = 1.0 if pred == "near" else 3.0
        return abs(d_used(subj, ref)[1] - thr) < 0.3
    if pred in ("higher than", "lower than"):
        v = dy if pred == "higher than" else -dy
        return 0.1 < v < 0.5
    if pred in ("above", "below"):
        v = dy if pred == "above" else -dy
        return 0.1 < v < 0.3
    return False


def qualifier_undecidable(scene: Scene, target: SceneObject, pred: str, anchor: SceneObject) -> bool:
    """A qualified reference "the <label> <pred> the <anchor>" a person could not resolve: the
    target inside a margin, another same-label object in its room not clearly failing it, or (for
    near) another one less than 0.5 m farther than the target."""
    others = [o for o in scene.objects if o.room_id == target.room_id and o.label == target.label
              and o.id != target.id]
    if undecidable(target, pred, anchor) or not holds(target, pred, anchor):
        return True
    for o in others:
        if undecidable(o, pred, anchor) or holds(o, pred, anchor):
            return True
        if pred == "near" and d_used(o, anchor)[1] - d_used(target, anchor)[1] < 0.5:
            return True
    return False


# --------------------------------------------------------------------------- priors (own)

def room_labels(scene: Scene) -> list[tuple[str, set[str]]]:
    """(room label, object labels in it) per room."""
    out = []
    for r in scene.rooms:
        out.append((r.label, {o.label for o in scene.objects if o.room_id == r.id}))
    return out


@dataclass
class Tally:
    """Right / total counters by name."""

    right: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)

    def add(self, name: str, ok: bool) -> None:
        self.total[name] += 1
        self.right[name] += bool(ok)

    def rate(self, name: str) -> float | None:
        return self.right[name] / self.total[name] if self.total[name] else None


def _majority(c: Counter[bool]) -> bool | None:
    if c[True] == c[False]:
        return None
    return c[True] > c[False]


_SUMS = ("evaluated_relations", "margin", "qualified", "qual_margin", "mismatch", "small", "outside",
         "targets")


@dataclass
class Record:
    """One condition as the recount sees it."""

    scene: str
    kind: str  # presence | relation
    truth: bool
    key: tuple[str, ...]  # presence: (label, room label); relation: (subject, predicate, reference)


def recount(records: Iterable[Mapping[str, Any]], scenes: Mapping[str, Scene],
            group_of: Any = None) -> dict[str, dict[str, Any]]:
    """Figures per group (``group_of(record) -> list of group names``; default category and
    ``source:<scene source>``, plus ``all``).

    Per group: ``n`` instructions; presence / relation conditions and their majority-class
    share; blind presence accuracy of three priors fitted on the other scenes (``ever``: the
    label is in some room of that type; ``frequency``: in at least half of them, an unseen room
    type: the majority truth of all presence conditions, ties true; ``pairs``: the majority
    truth of (label, room type) conditions, else ``frequency``); blind relation accuracy
    (``predicate``: majority truth per predicate, else of all relation conditions, ties false;
    ``triplet``: per (subject label, predicate, reference label), else ``predicate``); the best
    blind branch choice over those priors vs chance (mean 1/branches); truth mismatches; evaluated relation conditions and
    qualified references inside the margins; targets smaller than 32 px at 1.5 m; references
    to objects outside their room; branch-index histogram.
    """
    recs = list(records)
    per_scene_rooms = {sid: room_labels(sc) for sid, sc in scenes.items()}
    conds_of: list[list[Record]] = []
    for r in recs:
        sc = scenes[r["scene_id"]]
        out = []
        for k, c in enumerate(conds(r["program"])):
            t = bool(r["truths"][f"c{k}"])
            if c["type"] == "presence":
                out.append(Record(sc.id, "presence", t, (c["label"], c["room"])))
            else:
                out.append(Record(sc.id, "relation", t,
                                  (c["subject"]["label"], c["predicate"], c["reference"]["label"])))
        conds_of.append(out)
    # truth counts per scene, for leave-one-scene-out priors
    pair_counts: dict[str, dict[tuple[str, ...], Counter[bool]]] = defaultdict(lambda: defaultdict(Counter))
    pred_counts: dict[str, dict[str, Counter[bool]]] = defaultdict(lambda: defaultdict(Counter))
    for cs in conds_of:
        for c in cs:
            pair_counts[c.scene][c.key][c.truth] += 1
            if c.kind == "relation":
                pred_counts[c.scene][c.key[1]][c.truth] += 1
    loo_cache: dict[str, Any] = {}

    def loo(scene_id: str) -> Any:
        if scene_id in loo_cache:
            return loo_cache[scene_id]
        rooms: Counter[str] = Counter()
        has: Counter[tuple[str, str]] = Counter()
        pairs: dict[tuple[str, ...], Counter[bool]] = defaultdict(Counter)
        preds: dict[str, Counter[bool]] = defaultdict(Counter)
        pres_all: Counter[bool] = Counter()
        rel_all: Counter[bool] = Counter()
        for sid in scenes:
            if sid == scene_id:
                continue
            for rl, labs in per_scene_rooms[sid]:
                rooms[rl] += 1
                for lab in labs:
                    has[(lab, rl)] += 1
            for key, cnt in pair_counts[sid].items():
                pairs[key].update(cnt)
                (pres_all if len(key) == 2 else rel_all).update(cnt)
            for p, cnt in pred_counts[sid].items():
                preds[p].update(cnt)
        loo_cache[scene_id] = (rooms, has, pairs, preds, _majority(pres_all), _majority(rel_all))
        return loo_cache[scene_id]

    def answers(c: Record) -> dict[str, bool]:
        rooms, has, pairs, preds, pres_major, rel_major = loo(c.scene)
        if c.kind == "presence":
            lab, rl = c.key
            ever = has[(lab, rl)] > 0
            freq = has[(lab, rl)] >= 0.5 * rooms[rl] if rooms[rl] else pres_major is not False
            pm = _majority(pairs.get(c.key, Counter()))
            return {"ever": ever, "frequency": freq, "pairs": freq if pm is None else pm}
        pr = _majority(preds.get(c.key[1], Counter()))
        pr = bool(rel_major) if pr is None else pr
        tm = _majority(pairs.get(c.key, Counter()))
        return {"predicate": pr, "triplet": pr if tm is None else tm}

    groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(recs):
        names = group_of(r) if group_of else [r["category"], f"source:{scenes[r['scene_id']].source}"]
        for g in [*names, "all"]:
            groups[g].append(i)
    combos = [(p, q) for p in ("ever", "frequency", "pairs") for q in ("predicate", "triplet")]
    per_inst = []
    for r, cs in zip(recs, conds_of, strict=True):
        sc = scenes[r["scene_id"]]
        ans = [answers(c) for c in cs]
        info: dict[str, Any] = {"tally": Tally(), "margin": 0, "qual_margin": 0, "mismatch": 0,
                                "small": 0, "outside": 0, "targets": 0, "evaluated_relations": 0,
                                "qualified": 0}
        t = info["tally"]
        for c, a in zip(cs, ans, strict=True):
            for name, v in a.items():
                t.add(f"{c.kind}:{name}", v == c.truth)
            t.add(f"{c.kind}:true", c.truth)
        truths = {k: c.truth for k, c in enumerate(cs)}
        path, evaluated, _ = run(r["program"], truths)
        for p, q in combos:
            blind = {k: ans[k][p if c.kind == "presence" else q] for k, c in enumerate(cs)}
            t.add(f"branch:{p}+{q}", run(r["program"], blind)[0] == path)
        t.add("chance", True)
        info["chance"] = 1.0 / n_outcomes(r["program"])
        # truths and margins from raw objects
        recomputed = condition_truths(sc, program_from_dict(r["program"]))
        info["mismatch"] = sum(recomputed[k] != c.truth for k, c in enumerate(cs))
        all_conds = conds(r["program"])
        for k in evaluated:
            c = all_conds[k]
            if c["type"] != "relation":
                continue
            s_obj = sc.object_index[c["subject"]["object_id"]]
            r_obj = sc.object_index[c["reference"]["object_id"]]
            info["evaluated_relations"] += 1
            info["margin"] += undecidable(s_obj, c["predicate"], r_obj)
        for ref in refs(r["program"]):
            tgt = sc.object_index[ref["object_id"]]
            info["targets"] += 1
            q = ref.get("qualifier")
            named = [tgt]
            if q is not None:
                anchor = sc.object_index[q["anchor_id"]]
                named.append(anchor)
                info["qualified"] += 1
                info["qual_margin"] += qualifier_undecidable(sc, tgt, q["predicate"], anchor)
            for o in named:
                v = visible_size(o)
                info["small"] += v is not None and pixels_at(v) < 32.0
                info["outside"] += outside_room(sc, o)
        per_inst.append(info)
    out: dict[str, dict[str, Any]] = {}
    for g, idx in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        tot = Tally()
        row: dict[str, Any] = {"n": len(idx)}
        sums: Counter[str] = Counter()
        chance = 0.0
        hist: Counter[int] = Counter()
        for i in idx:
            info = per_inst[i]
            tot.right.update(info["tally"].right)
            tot.total.update(info["tally"].total)
            for k in _SUMS:
                sums[k] += info[k]
            chance += info["chance"]
            hist[(recs[i]["category"], recs[i]["branch_index"])] += 1
        for kind, names in (("presence", ("ever", "frequency", "pairs")), ("relation", ("predicate", "triplet"))):
            n = tot.total[f"{kind}:true"]
            row[f"{kind}_n"] = n
            if n:
                share = tot.right[f"{kind}:true"] / n
                row[f"{kind}_majority"] = max(share, 1 - share)
                for name in names:
                    row[f"{kind}_{name}"] = tot.rate(f"{kind}:{name}")
                row[f"{kind}_best"] = max(row[f"{kind}_{name}"] for name in names)
        row["branch_best"] = max(tot.rate(f"branch:{p}+{q}") or 0.0 for p, q in combos)
        row["branch_by_prior"] = {f"{p}+{q}": tot.rate(f"branch:{p}+{q}") for p, q in combos}
        row["chance"] = chance / len(idx) if idx else None
        row.update({k: sums[k] for k in _SUMS})
        row["branch_hist"] = {f"{c}:{b}": n for (c, b), n in sorted(hist.items())}
        out[g] = row
    return out


def scene_facts(scenes: Mapping[str, Scene]) -> dict[str, dict[str, int]]:
    """Per source: objects, objects outside their room polygon, objects under 32 px at 1.5 m."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for sc in scenes.values():
        for o in sc.objects:
            if o.room_id is None:
                continue
            row = out[sc.source]
            row["objects"] += 1
            row["outside"] += outside_room(sc, o)
            v = visible_size(o)
            row["small"] += v is not None and pixels_at(v) < 32.0
    return {k: dict(v) for k, v in sorted(out.items())}


__all__ = ["box", "outside_room", "qualifier_undecidable", "recount", "scene_facts", "undecidable",
           "visible_size"]
