"""``navbench`` command-line interface.

Errors a user can cause (:class:`~navbench.errors.NavbenchError`) are printed as one line
without a traceback, and the process exits with status 2.
"""

from __future__ import annotations

import sys

import typer

from navbench import __version__
from navbench.cli import (  # noqa: F401  (each module registers its commands)
    agents,
    dataset,
    demo,
    evaluate,
    export,
    graph,
    instructions,
    nav,
    outdoor,
    render,
    report,
    scenes,
    score,
    sim,
    sources,
)
from navbench.cli._app import app
from navbench.errors import InterruptedRunError, NavbenchError


def _version(value: bool) -> None:
    if value:
        typer.echo(f"navbench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Build, run and score embodied-navigation benchmarks."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``navbench`` script (exits the process)."""
    try:
        app(args=argv, prog_name="navbench")
    except InterruptedRunError as e:
        typer.secho(str(e), err=True, fg=typer.colors.YELLOW)
        sys.exit(130)
    except NavbenchError as e:
        typer.secho(f"error: {e}", err=True, fg=typer.colors.RED)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.secho("interrupted", err=True, fg=typer.colors.YELLOW)
        sys.exit(130)


if __name__ == "__main__":
    main()
