"""A blind prior: answers conditions from label / room-type statistics, never from the scene.

What VQA / EQA papers call the "blind" or "question-only" baseline: how far common sense about
which objects stand in which rooms (and which relations hold between which labels) gets an
agent that never looks. Statistics are counted per scene, so that answers for an episode can
leave its own scene out (a prior fitted on a dataset's train split never sees an eval scene;
fitted on the evaluated scenes themselves it is leave-one-scene-out).

Answer rule for a presence condition (label L, room type T): the majority truth of (L, T)
presence conditions in the statistics; on a tie or none, whether at least half the rooms of
type T hold L; a room type never seen: the majority truth of all presence conditions. For a
relation (subject label, predicate, reference label): the majority truth of that triplet, else
of the predicate, else of all relation conditions. Ties of the last resort answer ``True`` for
presence and ``False`` for relations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from navbench.errors import FormatError
from navbench.jsontypes import JSON, JSONObject
from navbench.scene.model import Scene
from navbench.tasks.conditional.program import (
    Condition,
    Evaluation,
    Presence,
    Program,
    conditions,
    evaluate,
)

BLIND_SCHEMA = "navbench.blind_prior/1"


@dataclass
class SceneCounts:
    """The statistics one scene contributes.

    Attributes:
        rooms: room type → rooms of that type.
        holding: (label, room type) → rooms of that type holding an object with the label.
        presence: (label, room type, truth) → presence conditions asked with that truth.
        relations: (subject label, predicate, reference label, truth) → relation conditions.
    """

    rooms: Counter[str] = field(default_factory=Counter)
    holding: Counter[tuple[str, str]] = field(default_factory=Counter)
    presence: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    relations: Counter[tuple[str, str, str, bool]] = field(default_factory=Counter)

    def add_scene(self, scene: Scene) -> None:
        """Count the rooms of ``scene`` and the labels they hold."""
        for r in scene.rooms:
            self.rooms[r.label] += 1
            for lab in sorted({o.label for o in scene.objects_in(r.id)}):
                self.holding[(lab, r.label)] += 1

    def add_conditions(self, program: Program, truths: Mapping[str, bool]) -> None:
        """Count the conditions of a program with their truths."""
        for k, c in enumerate(conditions(program)):
            t = bool(truths[f"c{k}"])
            if isinstance(c, Presence):
                self.presence[(c.label, c.room, t)] += 1
            else:
                self.relations[(c.subject.label, c.predicate, c.reference.label, t)] += 1


def _majority(t: int, f: int) -> bool | None:
    return None if t == f else t > f


class BlindPrior:
    """Per-scene statistics and the answer rule of the module docstring."""

    def __init__(self, scenes: Mapping[str, SceneCounts]) -> None:
        self.scenes = dict(sorted(scenes.items()))
        self.total = SceneCounts()
        for sc in self.scenes.values():
            self.total.rooms.update(sc.rooms)
            self.total.holding.update(sc.holding)
            self.total.presence.update(sc.presence)
            self.total.relations.update(sc.relations)
        self._pred: Counter[tuple[str, bool]] = Counter()
        self._rel_all: Counter[bool] = Counter()
        self._pres_all: Counter[bool] = Counter()
        self._by_scene_pred: dict[str, Counter[tuple[str, bool]]] = {}
        for sid, sc in self.scenes.items():
            own: Counter[tuple[str, bool]] = Counter()
            for (_s, p, _r, t), n in sc.relations.items():
                own[(p, t)] += n
            self._by_scene_pred[sid] = own
            self._pred.update(own)
        for (_s, _p, _r, t), n in self.total.relations.items():
            self._rel_all[t] += n
        for (_l, _r, t), n in self.total.presence.items():
            self._pres_all[t] += n

    @classmethod
    def fit(cls, scenes: Iterable[Scene],
            conditions_of: Iterable[tuple[str, Program, Mapping[str, bool]]] = ()) -> BlindPrior:
        """Statistics of ``scenes`` and of conditions ``(scene id, program, truths)`` asked in
        them (conditions of scenes not given count under their scene id all the same)."""
        per: dict[str, SceneCounts] = {}
        for s in scenes:
            per.setdefault(s.id, SceneCounts()).add_scene(s)
        for sid, prog, truths in conditions_of:
            per.setdefault(sid, SceneCounts()).add_conditions(prog, truths)
        return cls(per)

    def _count(self, table: str, key: tuple[object, ...], exclude: str | None) -> int:
        n = int(getattr(self.total, table)[key])
        own = self.scenes.get(str(exclude)) if exclude is not None else None
        return n - int(getattr(own, table)[key]) if own is not None else n

    def answer(self, c: Condition, exclude: str | None = None) -> bool:
        """The blind answer to ``c``, leaving the statistics of scene ``exclude`` out."""
        if isinstance(c, Presence):
            t = self._count("presence", (c.label, c.room, True), exclude)
            f = self._count("presence", (c.label, c.room, False), exclude)
            m = _majority(t, f)
            if m is not None:
                return m
            rooms = self._rooms(c.room, exclude)
            if rooms:
                return 2 * self._count("holding", (c.label, c.room), exclude) >= rooms
            own = self.scenes.get(str(exclude))
            pt = self._pres_all[True] - (sum(n for k, n in own.presence.items() if k[2]) if own else 0)
            pf = self._pres_all[False] - (sum(n for k, n in own.presence.items() if not k[2]) if own else 0)
            return pt >= pf
        s, p, r = c.subject.label, c.predicate, c.reference.label
        m = _majority(self._count("relations", (s, p, r, True), exclude),
                      self._count("relations", (s, p, r, False), exclude))
        if m is not None:
            return m
        own_pred = self._by_scene_pred.get(str(exclude), Counter())
        m = _majority(self._pred[(p, True)] - own_pred[(p, True)],
                      self._pred[(p, False)] - own_pred[(p, False)])
        if m is not None:
            return m
        ot = sum(n for (_p, t), n in own_pred.items() if t)
        of = sum(n for (_p, t), n in own_pred.items() if not t)
        return self._rel_all[True] - ot > self._rel_all[False] - of

    def _rooms(self, room_type: str, exclude: str | None) -> int:
        own = self.scenes.get(str(exclude)) if exclude is not None else None
        return self.total.rooms[room_type] - (own.rooms[room_type] if own is not None else 0)

    def answers(self, program: Program, exclude: str | None = None) -> dict[str, bool]:
        """Condition id → blind answer, for every condition of ``program``."""
        return {f"c{k}": self.answer(c, exclude) for k, c in enumerate(conditions(program))}

    def branch(self, program: Program, exclude: str | None = None) -> Evaluation:
        """The branch a blind agent takes: ``program`` executed with the blind answers."""
        return evaluate(program, self.answers(program, exclude))

    # ---- JSON
    def to_json(self) -> JSONObject:
        """``{"schema", "scenes": {id: {"rooms", "holding", "presence", "relations"}}}``."""
        out: JSONObject = {}
        for sid, sc in self.scenes.items():
            out[sid] = {
                "rooms": dict(sorted(sc.rooms.items())),
                "holding": [[lab, room, n] for (lab, room), n in sorted(sc.holding.items())],
                "presence": [[lab, room, t, n] for (lab, room, t), n in sorted(sc.presence.items())],
                "relations": [[s, p, r, t, n] for (s, p, r, t), n in sorted(sc.relations.items())],
            }
        return {"schema": BLIND_SCHEMA, "scenes": out}

    @classmethod
    def from_json(cls, doc: JSON, file: str = "<memory>") -> BlindPrior:
        """Inverse of :meth:`to_json`; raises :class:`FormatError` naming the bad field."""
        if not isinstance(doc, dict) or doc.get("schema") != BLIND_SCHEMA:
            raise FormatError(file, "schema", repr(BLIND_SCHEMA), None if not isinstance(doc, dict)
                              else doc.get("schema"))
        scenes = doc.get("scenes")
        if not isinstance(scenes, dict):
            raise FormatError(file, "scenes", "an object of scene statistics", scenes)
        per: dict[str, SceneCounts] = {}
        for sid, d in scenes.items():
            where = f"scenes.{sid}"
            try:
                sc = SceneCounts(Counter({str(k): int(v) for k, v in d["rooms"].items()}))
                for lab, room, n in d["holding"]:
                    sc.holding[(str(lab), str(room))] = int(n)
                for lab, room, t, n in d["presence"]:
                    sc.presence[(str(lab), str(room), bool(t))] = int(n)
                for s, p, r, t, n in d["relations"]:
                    sc.relations[(str(s), str(p), str(r), bool(t))] = int(n)
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                raise FormatError(file, where, "rooms, holding, presence and relations tables",
                                  type(e).__name__) from None
            per[str(sid)] = sc
        return cls(per)


__all__ = ["BLIND_SCHEMA", "BlindPrior", "SceneCounts"]
