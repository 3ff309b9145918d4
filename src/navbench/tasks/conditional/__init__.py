"""Conditional navigation instructions (CondVLN §3.1.4, §4; SPEC §3)."""

from navbench.tasks.conditional.audit import CENSUS_KEYS, audit_instructions
from navbench.tasks.conditional.distractors import RoomLabelStats, room_label_stats
from navbench.tasks.conditional.instruction import (
    CATEGORIES,
    Instruction,
    dumps_instructions,
    read_instructions,
    write_instructions,
)
from navbench.tasks.conditional.linearize import linearize
from navbench.tasks.conditional.margins import MarginSettings, decidable
from navbench.tasks.conditional.parser import ParseError, parse
from navbench.tasks.conditional.program import (
    Condition,
    Evaluation,
    Go,
    If,
    ObjectRef,
    Presence,
    Program,
    Qualifier,
    Relation,
    Seq,
    chain_length,
    conditions,
    depth,
    evaluate,
    follow,
    outcomes,
    program_from_dict,
    program_to_dict,
    targets,
)
from navbench.tasks.conditional.sampler import (
    InstructionSettings,
    SamplingError,
    SceneIndex,
    generate_instructions,
)
from navbench.tasks.conditional.templates import TemplateError, realise
from navbench.tasks.conditional.vocabulary import Vocabulary, read_vocabulary

__all__ = [
    "CATEGORIES",
    "CENSUS_KEYS",
    "Condition",
    "Evaluation",
    "Go",
    "If",
    "Instruction",
    "InstructionSettings",
    "MarginSettings",
    "ObjectRef",
    "ParseError",
    "Presence",
    "Program",
    "Qualifier",
    "Relation",
    "RoomLabelStats",
    "SamplingError",
    "SceneIndex",
    "Seq",
    "TemplateError",
    "Vocabulary",
    "audit_instructions",
    "chain_length",
    "conditions",
    "decidable",
    "depth",
    "dumps_instructions",
    "evaluate",
    "follow",
    "generate_instructions",
    "linearize",
    "outcomes",
    "parse",
    "program_from_dict",
    "program_to_dict",
    "read_instructions",
    "read_vocabulary",
    "realise",
    "room_label_stats",
    "targets",
    "write_instructions",
]
