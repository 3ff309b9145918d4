"""``dataset check`` rules for a conditional episode's ground truth (SPEC §3): its program, the
condition truths, the selected branch and the goals recorded from them.

The reader (:func:`navbench.episodes.model.check_episode`) already refuses programs that do not
parse and malformed subgoal / branch-goal points; these rules check that what the file records
is *consistent*:

- the program is small enough to enumerate (at most :data:`MAX_CONDITIONS` conditions and
  :data:`MAX_OUTCOMES` feasible branch paths, counted without enumerating them);
- every target and condition names objects and rooms of the episode's scene;
- ``truths`` gives a boolean for exactly the program's conditions ``c0``, ``c1``, ...;
- executing the program with those truths gives the recorded ``branch_path``, ``branch_index``,
  goal object (``goal_object_id``) and subgoal objects (``subgoals[k].object_id``), in order;
- every branch goal's object is a target of the program.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from navbench.errors import FormatError
from navbench.jsontypes import JSON, JSONObject

if TYPE_CHECKING:
    from navbench.episodes.model import Episode
    from navbench.scene.model import Scene
    from navbench.tasks.conditional.program import Program

#: Most conditions one program may hold (the paper's deepest nested chain has 6).
MAX_CONDITIONS = 64
#: Most feasible branch paths one program may have (a Seq multiplies its steps' outcomes).
MAX_OUTCOMES = 4096


def count_outcomes(p: Program) -> int:
    """Number of feasible branch paths of ``p`` (``len(outcomes(p))``) without listing them."""
    from navbench.tasks.conditional.program import Go, If

    if isinstance(p, Go):
        return 1
    if isinstance(p, If):
        return count_outcomes(p.then) + count_outcomes(p.else_)
    n = 1
    for s in p.steps:
        n *= count_outcomes(s)
        if n > MAX_OUTCOMES:
            return n
    return n


def _ids(items: JSON) -> list[str | None]:
    out: list[str | None] = []
    for it in items if isinstance(items, list) else []:
        oid = it.get("object_id") if isinstance(it, dict) else None
        out.append(oid if isinstance(oid, str) else None)
    return out


def program_problems(e: Episode, scene: Scene | None) -> list[str]:
    """Inconsistencies of a conditional episode's program with its scene and recorded ground
    truth (see the module docs); empty when the episode has no program."""
    from navbench.tasks.conditional.program import (
        Presence,
        conditions,
        evaluate,
        outcomes,
        program_from_dict,
        targets,
    )

    nb: JSONObject = e.navbench
    if not isinstance(nb.get("program"), dict):
        return []
    try:
        prog = program_from_dict(nb["program"], "<episode>", "info.navbench.program")
    except FormatError as err:
        return [f"{err.field}: expected {err.expected}, got {err.got!r}"]
    conds = conditions(prog)
    if len(conds) > MAX_CONDITIONS or count_outcomes(prog) > MAX_OUTCOMES:
        return [f"info.navbench.program: expected at most {MAX_CONDITIONS} conditions and "
                f"{MAX_OUTCOMES} branch paths, got {len(conds)} conditions"]
    found: list[str] = []
    if scene is not None:
        objects = {o.id for o in scene.objects}
        rooms = {r.id for r in scene.rooms}
        refs = list(targets(prog))
        for c in conds:
            if isinstance(c, Presence):
                if c.room_id is not None and c.room_id not in rooms:
                    found.append(f"info.navbench.program: condition room {c.room_id!r} is not a room of "
                                 f"scene {scene.id!r}")
            else:
                refs += [c.subject, c.reference]
        for r in refs:
            if r.object_id is not None and r.object_id not in objects:
                found.append(f"info.navbench.program: object {r.object_id!r} ({r.label}) is not an "
                             f"object of scene {scene.id!r}")
            if r.room_id is not None and r.room_id not in rooms:
                found.append(f"info.navbench.program: room {r.room_id!r} ({r.room}) is not a room of "
                             f"scene {scene.id!r}")
    truths = nb.get("truths")
    if truths is None:
        return found
    want = {f"c{k}" for k in range(len(conds))}
    if not isinstance(truths, dict) or set(truths) != want or \
            not all(isinstance(v, bool) for v in truths.values()):
        return [*found, f"info.navbench.truths: expected true/false for each of {sorted(want)}, "
                        f"got {truths!r}"[:300]]
    ev = evaluate(prog, truths)
    path = nb.get("branch_path")
    if path is not None and not (isinstance(path, list) and all(isinstance(b, str) for b in path)):
        found.append(f"info.navbench.branch_path: expected a list of branch names, got {path!r}"[:300])
    elif path is not None and path != list(ev.branch_path):
        found.append(f"info.navbench.branch_path: the program with its truths takes {list(ev.branch_path)}, "
                     f"the file records {path!r}"[:300])
    index = nb.get("branch_index")
    if index is not None and (isinstance(index, bool) or index != outcomes(prog).index(ev.branch_path)):
        found.append(f"info.navbench.branch_index: expected {outcomes(prog).index(ev.branch_path)} "
                     f"(the program's branch), got {index!r}")
    goal = nb.get("goal_object_id")
    if goal is not None and ev.goal.object_id is not None and goal != ev.goal.object_id:
        found.append(f"info.navbench.goal_object_id: the program's branch ends at {ev.goal.object_id!r}, "
                     f"the file records {goal!r}")
    sub_ids = _ids(nb.get("subgoals"))
    want_ids = [r.object_id for r in ev.subgoals]
    if nb.get("subgoals") is not None and (len(sub_ids) != len(want_ids) or any(
            a is not None and b is not None and a != b for a, b in zip(sub_ids, want_ids, strict=False))):
        found.append(f"info.navbench.subgoals: the program's branch visits {want_ids} before its goal, "
                     f"the file records {sub_ids}")
    every = {r.object_id for r in targets(prog)}
    for k, oid in enumerate(_ids(nb.get("branch_goals"))):
        if oid is not None and oid not in every:
            found.append(f"info.navbench.branch_goals[{k}].object_id: {oid!r} is not a target of the program")
    return found
