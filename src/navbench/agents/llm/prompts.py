"""Prompts of the zero-shot LLM / VLM agents, as data (edit here, nowhere else).

Style of NavGPT (Zhou et al., 2024) and Open-Nav (Qiao et al., 2025): the model is told its
role, the task and the action vocabulary, sees the current view and a short history, and is
asked to *reason first, then choose* one action on a final ``Action:`` line. Templates use
:meth:`str.format` fields; ``{{`` / ``}}`` are literal braces.
"""

from __future__ import annotations

#: Action vocabularies shown to the model, by action space.
VOCABULARY: dict[str, str] = {
    "discrete": (
        "- MOVE_FORWARD: walk {forward_step:.2f} m straight ahead\n"
        "- TURN_LEFT: turn {turn_deg:.0f} degrees to the left on the spot\n"
        "- TURN_RIGHT: turn {turn_deg:.0f} degrees to the right on the spot\n"
        "- STOP: you have arrived; this ends the episode"
    ),
    "waypoint": (
        "- MOVE <distance> <angle>: turn by <angle> degrees (positive = left, negative = right, "
        "between -180 and 180), then walk <distance> metres (0 to {max_move:.1f}) straight\n"
        "- TURN <angle>: turn on the spot by <angle> degrees (positive = left)\n"
        "- STOP: you have arrived; this ends the episode"
    ),
}

#: Reply formats, by action space (what the parser looks for first).
FORMAT: dict[str, str] = {
    "discrete": (
        "Reply in this format:\n"
        "Thought: <what you see, where the goal probably is, what to do next>\n"
        "Action: <one of MOVE_FORWARD, TURN_LEFT, TURN_RIGHT, STOP>"
    ),
    "waypoint": (
        "Reply in this format:\n"
        "Thought: <what you see, where the goal probably is, what to do next>\n"
        "Action: <MOVE <distance> <angle> | TURN <angle> | STOP>\n"
        "for example `Action: MOVE 1.5 -30`."
    ),
}

VLM_SYSTEM = (
    "You are a navigation agent (a robot) in an indoor or outdoor environment. You see the "
    "world only through your front camera. Follow the task by choosing one action at a time.\n"
    "Actions:\n{vocabulary}\n\n"
    "Think step by step about the current image and the history first, then choose exactly one "
    "action. Stop only when the goal is within about {tau:.1f} m in front of you.\n{format}"
)

#: What the task is, by task kind (``instruction`` or ``goal``).
TASK_TEXT: dict[str, str] = {
    "instruction": "Instruction: {instruction}",
    "goal": "Task: find a {goal} and stop next to it.",
    "none": "Task: explore and stop when you are done.",
}

VLM_STEP = (
    "{task}\n"
    "Step {step} (you may act at most {max_calls} times).\n"
    "History (oldest first): {history}\n"
    "{frames_note}"
)

FRAMES_NOTE: dict[str, str] = {
    "one": "The image is your current front view.",
    "many": "The images are your last {n} front views, oldest first; the last one is now.",
}

RETRY_NOTE = ("Your previous reply had no valid action line. Answer again and end with one "
              "`Action:` line from the list.")

#: The llm-planner's system prompt: instruction → program (JSON) for the symbolic executor.
PLANNER_SYSTEM = (
    "You turn a navigation instruction into a program that a robot executes. The robot checks "
    "conditions with its own perception and walks to targets; you only write the program.\n"
    "Program (JSON):\n"
    '- {{"op": "go", "target": REF}}: walk to an object\n'
    '- {{"op": "if", "cond": COND, "then": PROGRAM, "else": PROGRAM}}\n'
    '- {{"op": "seq", "steps": [PROGRAM, PROGRAM, ...]}} (at least two steps, in order)\n'
    'REF = {{"label": "<object>", "room": "<room>", "qualifier": null | '
    '{{"predicate": "<predicate>", "anchor": "<object>"}}}} '
    "(the object in that room; the qualifier says the object is <predicate> the anchor)\n"
    'COND = {{"type": "presence", "label": "<object>", "room": "<room>"}} '
    "(there is such an object in that room) | "
    '{{"type": "relation", "subject": REF, "predicate": "<predicate>", "reference": REF}} '
    "(the subject is <predicate> the reference)\n"
    "Predicates: {predicates}.\n"
    "Instructions say \"<direction>-and-up of\" as \"above and to the <direction> of\" and "
    "\"<direction>-and-down of\" as \"below and to the <direction> of\" (\"the lamp above and "
    "to the south of the table\": predicate \"south-and-up of\"); write the predicate as listed.\n"
    "Labels are lower-case singular nouns as written in the instruction (\"coffee table\", "
    "\"living room\"). When a condition does not hold, the robot takes the \"else\" program; "
    "an instruction without a condition is a single go (or a seq of gos).\n"
    "Think briefly, then give the program as one JSON object in a ```json block."
)

PLANNER_EXAMPLE_INSTRUCTION = (
    "If the kitchen has a kettle, go to the stool north of the fridge in the kitchen, "
    "otherwise walk to the sofa in the living room."
)

PLANNER_EXAMPLE_REPLY = (
    "Thought: one condition (a kettle in the kitchen); then-branch: a qualified stool; "
    "else-branch: the sofa.\n"
    "```json\n"
    '{"op": "if", "cond": {"type": "presence", "label": "kettle", "room": "kitchen"}, '
    '"then": {"op": "go", "target": {"label": "stool", "room": "kitchen", "qualifier": '
    '{"predicate": "north of", "anchor": "fridge"}}}, '
    '"else": {"op": "go", "target": {"label": "sofa", "room": "living room", "qualifier": null}}}'
    "\n```"
)

PLANNER_USER = "Instruction: {instruction}"

PLANNER_REPAIR = ("That program is not valid: {error}. Reply again with one corrected JSON "
                  "program in a ```json block.")
