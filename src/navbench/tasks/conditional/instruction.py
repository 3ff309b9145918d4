"""The :class:`Instruction` record (one generated conditional instruction) and JSONL I/O."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from navbench.errors import FormatError
from navbench.io import atomic_write_text, loads_json
from navbench.jsontypes import JSON, JSONObject
from navbench.tasks.conditional.program import (
    Program,
    chain_length,
    depth,
    program_from_dict,
    program_to_dict,
)

INSTRUCTION_SCHEMA = "navbench.instruction/1"
#: Instruction categories of CondVLN Table 1 with their (depth, chain length).
CATEGORIES: dict[str, tuple[int, int]] = {
    "simple": (1, 1),
    "nested": (2, 1),
    "deep_nested": (3, 1),
    "chain": (1, 2),
    "long_chain": (1, 3),
    "nested_chain": (2, 2),
}


@dataclass(frozen=True)
class Instruction:
    """A conditional instruction with its ground truth (SPEC §3).

    Attributes:
        id: ``"{scene_id}:{index}"``.
        scene_id: the scene's id.
        category: one of :data:`CATEGORIES`.
        text: the instruction as given to agents.
        program: the program tree (references carry scene object / room ids).
        truths: condition id (``"c0"``, pre-order) → truth in the scene.
        branch_path: ``"then"`` / ``"else"`` per executed ``If``.
        branch_index: index of ``branch_path`` among the program's outcomes (0 = first branch).
        n_branches: number of outcomes of the program.
        goal_id: scene object id of the selected branch's final target.
        subgoal_ids: object ids visited before the goal on the selected branch, in order.
        branch_goal_ids: final-target object ids of every other outcome, in outcome order.
        axes: controlled axes (``cross_room``, ``evidence_observability``, ``horizon``,
            ``condition_rooms``, ``target_rooms``, ...), see the sampler's docstring.
        linear_text: the oracle-linear instruction (CondVLN §4).
    """

    id: str
    scene_id: str
    category: str
    text: str
    program: Program
    truths: dict[str, bool]
    branch_path: tuple[str, ...]
    branch_index: int
    n_branches: int
    goal_id: str
    subgoal_ids: tuple[str, ...]
    branch_goal_ids: tuple[str, ...]
    axes: JSONObject = field(default_factory=dict)
    linear_text: str = ""

    @property
    def depth(self) -> int:
        """Nesting depth computed from the program."""
        return depth(self.program)

    @property
    def chain_length(self) -> int:
        """Else-if chain length computed from the program."""
        return chain_length(self.program)

    def to_dict(self) -> JSONObject:
        """JSON-able dict (``depth`` / ``chain_length`` included for readers; recomputed on load)."""
        return {
            "schema": INSTRUCTION_SCHEMA,
            "id": self.id,
            "scene_id": self.scene_id,
            "category": self.category,
            "text": self.text,
            "linear_text": self.linear_text,
            "depth": self.depth,
            "chain_length": self.chain_length,
            "program": program_to_dict(self.program),
            "truths": dict(self.truths),
            "branch_path": list(self.branch_path),
            "branch_index": self.branch_index,
            "n_branches": self.n_branches,
            "goal_id": self.goal_id,
            "subgoal_ids": list(self.subgoal_ids),
            "branch_goal_ids": list(self.branch_goal_ids),
            "axes": dict(self.axes),
        }

    @classmethod
    def from_dict(cls, d: JSON, file: str = "<memory>", where: str = "") -> Instruction:
        """Inverse of :meth:`to_dict`; raises :class:`FormatError` naming the bad field."""
        p = f"{where}." if where else ""
        if not isinstance(d, dict):
            raise FormatError(file, where or "<record>", "a JSON object", d)

        def get(key: str, typ: type | tuple[type, ...], expected: str) -> JSON:
            v = d.get(key)
            if not isinstance(v, typ) or (isinstance(v, bool) and typ is int):
                raise FormatError(file, p + key, expected, v)
            return v

        cat = get("category", str, "a string")
        if cat not in CATEGORIES:
            raise FormatError(file, p + "category", f"one of {list(CATEGORIES)}", cat)
        truths = get("truths", dict, "an object of condition id -> bool")
        if not all(isinstance(v, bool) for v in truths.values()):
            raise FormatError(file, p + "truths", "boolean values", truths)
        strs = ("subgoal_ids", "branch_goal_ids", "branch_path")
        lists = {k: get(k, list, "a list of strings") for k in strs}
        for k, v in lists.items():
            if not all(isinstance(x, str) for x in v):
                raise FormatError(file, p + k, "a list of strings", v)
        return cls(
            id=get("id", str, "a string"),
            scene_id=get("scene_id", str, "a string"),
            category=cat,
            text=get("text", str, "a string"),
            program=program_from_dict(d.get("program"), file, p + "program"),
            truths=dict(truths),
            branch_path=tuple(lists["branch_path"]),
            branch_index=get("branch_index", int, "an integer"),
            n_branches=get("n_branches", int, "an integer"),
            goal_id=get("goal_id", str, "a string"),
            subgoal_ids=tuple(lists["subgoal_ids"]),
            branch_goal_ids=tuple(lists["branch_goal_ids"]),
            axes=dict(get("axes", dict, "an object")),
            linear_text=get("linear_text", str, "a string"),
        )


def dumps_instructions(insts: Iterable[Instruction]) -> str:
    """JSON lines text (one compact, key-ordered record per line)."""
    return "".join(
        json.dumps(i.to_dict(), ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
        for i in insts
    )


def write_instructions(path: str | Path, insts: Iterable[Instruction]) -> Path:
    """Atomically write instructions as JSON lines."""
    return atomic_write_text(path, dumps_instructions(insts))


def read_instructions(path: str | Path) -> list[Instruction]:
    """Read a JSONL file written by :func:`write_instructions` (errors name file and line)."""
    path = Path(path)
    out = []
    if not path.is_file():
        raise FormatError(path, "<file>", "an existing JSON lines file of instructions", "missing")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                d = loads_json(line)
            except ValueError as e:  # syntax, nesting, integer length
                raise FormatError(path, f"line {n}", "a JSON object", str(e)) from None
            out.append(Instruction.from_dict(d, str(path), f"line {n}"))
    return out
