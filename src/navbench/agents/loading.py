"""Finding, constructing and checking agents: :func:`load_agent` (once per run, before any episode).

An agent is named by a built-in name (:data:`BUILTINS`), a ``"module:Class"`` path (modules in
the current working folder are found, as ``python -m`` would) or an ``http(s)://host:port`` URL
of a ``navbench serve-agent`` server. The agent is constructed and its declarations
(``privileged``, ``sensors``, ``action_space``) checked here, so that a bad agent fails the run
at load with one :class:`~navbench.errors.ConfigError` line, never each episode.
"""

from __future__ import annotations

import importlib
import os
import sys

from navbench.agents.base import Agent, HabitatAgentAdapter, check_agent
from navbench.errors import ConfigError, NavbenchError

#: Built-in agents by name → "module:Class" (imported only when chosen).
from navbench.jsontypes import JSON

BUILTINS: dict[str, str] = {
    "random": "navbench.agents.baselines:RandomAgent",
    "forward": "navbench.agents.baselines:ForwardAgent",
    "oracle-path": "navbench.agents.oracle:OraclePathAgent",
    "oracle-goal": "navbench.agents.oracle:OracleGoalAgent",
    "first-branch": "navbench.agents.oracle:FirstBranchAgent",
    "oracle-branch": "navbench.agents.oracle:OracleBranchAgent",
    "blind-prior": "navbench.agents.blind:BlindPriorAgent",
    "oracle-branch-grounded": "navbench.agents.scene_graph_agent:GroundedOracleBranchAgent",
    "scene-graph": "navbench.agents.scene_graph_agent:SceneGraphAgent",
    "vlm": "navbench.agents.llm.vlm:VLMAgent",
    "llm-planner": "navbench.agents.llm.planner:LLMPlannerAgent",
}


def _with_cwd_on_path() -> None:
    """Let ``module:Class`` find modules in the working folder (the console script's
    ``sys.path`` starts with the script's folder, not the working folder)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


def import_target(path: str) -> object:
    """The object a ``"module:attr.attr"`` path names.

    Raises:
        ConfigError: malformed path, module not importable (or raising at import), no attribute.
    """
    mod, _, attr = path.partition(":")
    if not mod or not attr:
        raise ConfigError(f"agent: expected a built-in name ({', '.join(BUILTINS)}), "
                          f"'module:Class' or 'http://host:port', got {path!r}")
    _with_cwd_on_path()
    try:
        obj: object = importlib.import_module(mod)
    except ImportError as e:
        raise ConfigError(f"agent {path!r}: cannot import module {mod!r} ({e})") from e
    except Exception as e:  # the module itself raised while importing
        raise ConfigError(f"agent {path!r}: importing module {mod!r} raised "
                          f"{type(e).__name__}: {e}") from e
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ConfigError(f"agent {path!r}: module {mod!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def resolve(name_or_path: str) -> object:
    """The class (or factory) a name resolves to; ``None`` for ``http(s)://`` remote agents."""
    s = name_or_path.strip()
    if s.startswith(("http://", "https://")):
        return None
    return import_target(BUILTINS.get(s, s))


def load_agent(name_or_path: str, **kwargs: JSON) -> Agent:  # --agent-arg values
    """An agent by built-in name, ``"module:Class"`` path or ``"http(s)://host:port"`` URL.

    Keyword arguments go to the agent's constructor. Objects that are not :class:`Agent`
    subclasses but have ``act`` are wrapped in :class:`HabitatAgentAdapter`. The agent's
    declarations are checked with :func:`~navbench.agents.base.check_agent`.

    Parameters
    ----------
    name_or_path : str
        A key of :data:`BUILTINS` (imported only when chosen), ``"package.module:Class"``
        (modules in the working folder are found) or the URL of a ``navbench serve-agent``.
    **kwargs
        Constructor arguments (``seed``, ``forward_steps``, ... ; ``timeout_s`` for URLs).

    Returns
    -------
    Agent
        The constructed, checked agent.

    Raises
    ------
    navbench.errors.ConfigError
        Unknown name, unimportable path, bad constructor arguments, a constructor that
        raised, or bad declarations (unknown sensors, privileged facts, action space).

    Examples
    --------
    >>> from navbench.agents import load_agent
    >>> a = load_agent("forward", forward_steps=3)
    >>> type(a).__name__, a.action_space, a.forward_steps
    ('ForwardAgent', 'discrete', 3)
    >>> type(load_agent("navbench.agents.baselines:RandomAgent", seed=1)).__name__
    'RandomAgent'
    >>> load_agent("forward", speed=2)
    Traceback (most recent call last):
    ...
    navbench.errors.ConfigError: agent 'forward': bad arguments ['speed'] (...)
    """
    s = name_or_path.strip()
    if s.startswith(("http://", "https://")):
        from navbench.agents.remote import RemoteAgent

        return RemoteAgent(s, **kwargs)
    target = resolve(s)
    try:
        obj = target(**kwargs) if callable(target) else target
    except TypeError as e:
        raise ConfigError(f"agent {s!r}: bad arguments {sorted(kwargs)} ({e})") from e
    except NavbenchError:
        raise
    except Exception as e:  # a user constructor that raises: one line, not a traceback
        raise ConfigError(f"agent {s!r}: constructor raised {type(e).__name__}: {e}") from e
    if isinstance(obj, Agent):
        check_agent(obj)
        return obj
    if callable(getattr(obj, "act", None)):
        adapter = HabitatAgentAdapter(obj)
        check_agent(adapter)
        return adapter
    raise ConfigError(f"agent {s!r}: {obj!r} has no act(observation) method")
