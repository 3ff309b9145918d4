"""CLI commands of this area: ``navbench serve-agent`` and ``navbench agents list``."""

from __future__ import annotations

from typing import Annotated

import typer

from navbench.cli._app import app

agents_app = typer.Typer(help="Navigation agents: built-ins and remote agents.",
                         no_args_is_help=True, add_completion=False)
app.add_typer(agents_app, name="agents")


def _kwargs(pairs: list[str]) -> dict[str, object]:
    from navbench.errors import ConfigError
    from navbench.io import loads_json

    out: dict[str, object] = {}
    for p in pairs:
        key, sep, val = p.partition("=")
        if not sep or not key:
            raise ConfigError(f"--arg: expected KEY=VALUE, got {p!r}")
        try:
            out[key] = loads_json(val)
        except ValueError:  # not JSON (or past the JSON limits): the text itself
            out[key] = val
    return out


@agents_app.command("list")
def list_agents() -> None:
    """List the built-in agents (name, action space, privileged facts)."""
    from rich.console import Console
    from rich.table import Column, Table

    from navbench.agents.loading import BUILTINS, import_target
    from navbench.errors import ConfigError

    # names are what users type into --agent: never truncate them, wrap the other columns
    t = Table(Column("name", no_wrap=True, overflow="ignore", min_width=22),
              Column("class", overflow="fold"),
              "action space", "privileged")

    for name, path in BUILTINS.items():
        try:
            cls = import_target(path)
        except ConfigError as e:
            t.add_row(name, path, "unavailable", str(e))
            continue
        priv = ", ".join(sorted(getattr(cls, "privileged", ()))) or "-"
        t.add_row(name, path, str(getattr(cls, "action_space", "?")), priv)
    Console().print(t)


@app.command("serve-agent")
def serve_agent_cmd(
    agent: str = typer.Argument(..., help="Built-in name or module:Class."),
    host: str = typer.Option("127.0.0.1", help="Interface to bind."),
    port: int = typer.Option(8765, help="TCP port."),
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", help="Constructor argument KEY=VALUE (JSON value); repeatable.")] = None,
    max_sessions: Annotated[int, typer.Option(
        "--max-sessions", min=1,
        help="Evaluation sessions served at once, each with its own agent instance (one per "
             "evaluate worker); more are refused with HTTP 429.")] = 8,
    session_idle: Annotated[float, typer.Option(
        "--session-idle", help="Seconds without a request after which a session may be closed "
                               "to make room for a new one.")] = 900.0,
) -> None:
    """Serve an agent over navbench's remote-agent HTTP protocol (GET /info, POST /reset, /act,
    /close); every evaluation session (each evaluate worker) gets its own agent instance."""
    from navbench.agents.loading import load_agent
    from navbench.agents.server import AgentServer

    kwargs = _kwargs(arg or [])
    a = load_agent(agent, **kwargs)
    if getattr(a, "privileged", None):
        from navbench.errors import ConfigError

        raise ConfigError(f"agent {agent!r} needs privileged facts {sorted(a.privileged)}, "
                          "which the remote protocol never sends")
    srv = AgentServer(a, host, port, factory=lambda: load_agent(agent, **kwargs),
                      max_sessions=max_sessions, session_idle_s=session_idle)
    typer.echo(f"serving {agent} on {srv.url}, at most {max_sessions} sessions (Ctrl-C to stop)")
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
