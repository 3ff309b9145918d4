"""CLI commands of this area (registered on the groups of :mod:`navbench.cli._app`)."""

from __future__ import annotations
