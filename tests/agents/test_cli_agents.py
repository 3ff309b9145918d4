"""``navbench agents list`` and ``navbench serve-agent`` through ``navbench.cli.main``.

No real server is started: ``navbench.agents.server.AgentServer`` is replaced by a stub that
records what the command would have served.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import navbench.agents.server as server_mod
from navbench.agents.loading import BUILTINS
from navbench.cli import main

#: Built-in names as documented (hand list; BUILTINS must hold at least these).
EXPECTED_NAMES = ("random", "forward", "oracle-path", "oracle-goal", "first-branch",
                  "oracle-branch", "oracle-branch-grounded", "scene-graph")


def run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as e:
        main(args)
    return int(e.value.code or 0)


def _rows(out: str) -> dict[str, list[str]]:
    """Body rows of the rich table: first cell → all cells (box-drawing ``│`` separators)."""
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0]:
            rows[cells[0]] = cells
    return rows


def test_agents_list_names_every_builtin(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # wide enough that rich neither wraps nor truncates
    assert set(EXPECTED_NAMES) <= set(BUILTINS)
    assert run(["agents", "list"]) == 0
    out = capsys.readouterr().out
    assert "unavailable" not in out
    rows = _rows(out)
    assert set(rows) == set(BUILTINS), out
    # columns: name, class, action space, privileged (hand values from the agents' docs)
    assert rows["oracle-path"][2:] == ["waypoint", "reference_path"]
    assert rows["oracle-goal"][3] == "goals, navmesh, scene"
    assert rows["oracle-branch-grounded"][3] == "program"
    assert rows["scene-graph"][3] == "-"
    assert rows["random"][2] == "discrete" and rows["random"][3] == "-"


def test_agents_list_names_are_not_truncated_at_80_columns(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert run(["agents", "list"]) == 0
    assert set(_rows(capsys.readouterr().out)) == set(BUILTINS)


class _StubServer:
    """Stands in for AgentServer: records the agent, 'serves' until a Ctrl-C."""

    made: ClassVar[list[Any]] = []

    def __init__(self, agent: Any, host: str, port: int, **kw: Any) -> None:
        self.agent, self.url = agent, f"http://{host}:{port}"
        _StubServer.made.append(self)
        self.closed = False

    def serve_forever(self) -> None:
        raise KeyboardInterrupt

    def server_close(self) -> None:
        self.closed = True


@pytest.fixture
def stub_server(monkeypatch: pytest.MonkeyPatch) -> type[_StubServer]:
    _StubServer.made = []
    monkeypatch.setattr(server_mod, "AgentServer", _StubServer)
    return _StubServer


@pytest.mark.parametrize(("agent", "facts"), [
    ("oracle-path", "['reference_path']"),
    ("oracle-goal", "['goals', 'navmesh', 'scene']"),
    ("oracle-branch-grounded", "['program']"),
])
def test_serve_agent_refuses_privileged(agent: str, facts: str, stub_server: type[_StubServer],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve-agent", agent, "--port", "0"]) == 2
    cap = capsys.readouterr()
    assert cap.err.count("\n") == 1  # one line, no traceback
    err = cap.err.strip()
    assert err.startswith("error: ")
    assert f"agent {agent!r} needs privileged facts {facts}" in err
    assert "remote protocol never sends" in err
    assert "Traceback" not in cap.err and "serving" not in cap.out
    assert stub_server.made == []  # refused before any server was built


def test_serve_agent_serves_unprivileged(stub_server: type[_StubServer],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Control: a non-privileged built-in gets past the check (stub server, no socket)."""
    assert run(["serve-agent", "forward", "--host", "127.0.0.1", "--port", "9"]) == 0
    assert len(stub_server.made) == 1
    srv = stub_server.made[0]
    assert type(srv.agent).__name__ == "ForwardAgent" and srv.closed
    assert "serving forward on http://127.0.0.1:9" in capsys.readouterr().out
