"""The ``llm-planner`` agent: a language model as the instruction parser of the neurosymbolic
scene-graph agent (CondVLN §4's split: language → program, perception → condition truths).

At reset the instruction is sent once (text only, prompts in
:mod:`navbench.agents.llm.prompts`); the reply's JSON program (``{"op": "go" | "if" | "seq",
...}``, :func:`~navbench.tasks.conditional.program_from_dict` with ids optional) replaces the
rule-based parse. Everything else is :class:`~navbench.agents.scene_graph_agent.SceneGraphAgent`:
conditions are answered by its own perception and maps (no privileged facts), targets are
grounded on its observed scene graph and reached on its own occupancy map.

An invalid or missing program is sent back with the error (``plan_attempts`` requests in all,
default 2). Then ``on_plan_failure`` decides: ``parser`` (default) falls back to the rule-based
parser (``plan_source = "parser"`` in the diagnostics) and ``stop`` ends the episode at once.
ObjectNav / PlaceNav episodes (no instruction) need no plan: the agent searches the goal
category as the scene-graph agent does, without a request. Endpoint failures after retries end
the episode as ``agent_error``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from navbench.agents.base import Task
from navbench.agents.http_limits import MAX_REPLY_BYTES
from navbench.agents.llm import prompts
from navbench.agents.llm.client import TOTAL_TIMEOUT_S, CacheMode, UsageStats, client_from_args
from navbench.agents.llm.parse import normalise_program, program_json
from navbench.agents.scene_graph_agent import SceneGraphAgent
from navbench.errors import ConfigError, NavbenchError
from navbench.jsontypes import JSON, JSONMapping, JSONObject, Observation
from navbench.sim.actions import Action, StopAction

if TYPE_CHECKING:
    from navbench.tasks.conditional import Program

PLAN_FAILURE_MODES: tuple[str, ...] = ("parser", "stop")


def check_program(p: Program) -> None:
    """Raise ``ValueError`` when a program uses a predicate the scene graph does not know."""
    from navbench.graph.relations import ALL_PREDICATES
    from navbench.tasks.conditional import Go, If, Relation, Seq

    def preds(node: object) -> list[str]:
        if isinstance(node, Go):
            q = node.target.qualifier
            return [] if q is None else [q.predicate]
        if isinstance(node, If):
            c = node.cond
            out = preds(node.then) + preds(node.else_)
            if isinstance(c, Relation):
                out.append(c.predicate)
                out += [r.qualifier.predicate for r in (c.subject, c.reference) if r.qualifier]
            return out
        if isinstance(node, Seq):
            return [x for s in node.steps for x in preds(s)]
        return []

    bad = sorted(set(preds(p)) - set(ALL_PREDICATES))
    if bad:
        raise ValueError(f"unknown predicate(s) {bad}; expected one of: {', '.join(ALL_PREDICATES)}")


class LLMPlannerAgent(SceneGraphAgent):
    """Scene-graph agent whose program comes from a language model (see module docs).

    Args:
        base_url, model, api_key_env, cache, cache_dir, timeout_s, total_timeout_s,
            max_reply_bytes, retries, backoff_s, max_concurrency, temperature, max_tokens,
            extra_params: as for the ``vlm`` agent.
        plan_attempts: requests per instruction (the first plus repairs).
        on_plan_failure: ``parser`` or ``stop``.
        seed: perception-noise seed (``--seed``).
        **scene_graph: arguments of :class:`SceneGraphAgent` (``noise``, ``seed``,
            ``clearance``, ``explore_budget``, ``stop_after_decision``...).
    """

    name: ClassVar[str] = "llm-planner"

    def __init__(self, base_url: str, model: str, api_key_env: str | None = None,
                 cache: CacheMode = "readwrite", cache_dir: str | Path | None = None,
                 timeout_s: float = 60.0, retries: int = 4, backoff_s: float = 1.0,
                 max_concurrency: int = 4, temperature: float = 0.0, max_tokens: int = 1024,
                 extra_params: JSONMapping | None = None, plan_attempts: int = 2,
                 on_plan_failure: str = "parser", seed: int = 0,
                 total_timeout_s: float = TOTAL_TIMEOUT_S, max_reply_bytes: int = MAX_REPLY_BYTES,
                 **scene_graph: JSON) -> None:  # SceneGraphAgent's --agent-arg values
        if on_plan_failure not in PLAN_FAILURE_MODES:
            raise ConfigError(f"llm-planner: on_plan_failure: expected one of "
                              f"{', '.join(PLAN_FAILURE_MODES)}, got {on_plan_failure!r}")
        if int(plan_attempts) < 1:
            raise ConfigError(f"llm-planner: plan_attempts: expected >= 1, got {plan_attempts}")
        super().__init__(seed=seed, **scene_graph)
        self.client = client_from_args(
            base_url, model, api_key_env=api_key_env, cache=cache, cache_dir=cache_dir,
            timeout_s=timeout_s, retries=retries, backoff_s=backoff_s,
            max_concurrency=max_concurrency, temperature=temperature, max_tokens=max_tokens,
            extra_params=extra_params, total_timeout_s=total_timeout_s,
            max_reply_bytes=max_reply_bytes)
        self.plan_attempts, self.on_plan_failure = int(plan_attempts), on_plan_failure
        self.stats = UsageStats()
        self.plan_info: JSONObject = {}

    def reset(self, task: Task) -> None:
        self.stats = UsageStats()
        self.plan_info = {"plan_source": None}
        super().reset(task)  # calls load_program

    def messages(self, instruction: str) -> list[JSONObject]:
        """System prompt, one worked example, then the instruction."""
        from navbench.graph.relations import ALL_PREDICATES

        system = prompts.PLANNER_SYSTEM.format(predicates=", ".join(ALL_PREDICATES))
        return [{"role": "system", "content": system},
                {"role": "user", "content": prompts.PLANNER_USER.format(
                    instruction=prompts.PLANNER_EXAMPLE_INSTRUCTION)},
                {"role": "assistant", "content": prompts.PLANNER_EXAMPLE_REPLY},
                {"role": "user", "content": prompts.PLANNER_USER.format(instruction=instruction)}]

    def plan(self, instruction: str) -> Program | None:
        """The program the model writes for ``instruction``, or ``None`` after
        ``plan_attempts`` invalid replies (each counted in ``parse_failures``)."""
        from navbench.tasks.conditional import program_from_dict

        msgs = self.messages(instruction)
        errors: list[str] = []
        for _ in range(self.plan_attempts):
            reply = self.client.complete(msgs)
            self.stats.add(reply)
            d = program_json(reply.text)
            try:
                if d is None:
                    raise ValueError("no JSON object with an \"op\" key in the reply")
                prog = program_from_dict(normalise_program(d), "llm reply", "program")
                check_program(prog)
                return prog
            except (NavbenchError, ValueError) as e:
                errors.append(str(e))
                self.stats.parse_failures += 1
                msgs = [*msgs, {"role": "assistant", "content": reply.text},
                        {"role": "user", "content": prompts.PLANNER_REPAIR.format(error=e)}]
        self.plan_info["plan_errors"] = errors
        return None

    def load_program(self, task: Task) -> Program | None:
        if task.kind != "conditional" or not task.instruction:
            return None
        from navbench.tasks.conditional import program_to_dict

        prog = self.plan(task.instruction)
        if prog is not None:
            self.plan_info["plan_source"] = "llm"
        elif self.on_plan_failure == "parser":
            self.plan_info["plan_source"] = "parser"
            prog = super().load_program(task)
        else:
            self.plan_info["plan_source"] = "none"
            return None
        self.plan_info["plan"] = None if prog is None else program_to_dict(prog)
        return prog

    def act(self, observation: Observation) -> Action:
        if self.plan_info.get("plan_source") == "none":
            return StopAction()
        return super().act(observation)

    def diagnostics(self) -> JSONObject:
        """Scene-graph diagnostics, the plan and where it came from, and the cost counters."""
        return {**super().diagnostics(), **self.plan_info, **self.stats.as_dict(),
                "model": self.client.model}


__all__ = ["LLMPlannerAgent", "check_program"]
