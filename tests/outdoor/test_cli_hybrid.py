"""``navbench scenes hybrid --house`` with the hand-built two-room house (tests/conftest.py).

The house has two 4 m x 4 m rooms ``r0``, ``r1`` and one exit portal ``d1`` between ``r1`` and
outdoor; the hybrid generator prefixes every house id with ``h_`` and leaves ``outdoor`` as is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import navbench.scene as ns
from navbench.cli import main
from tests.conftest import two_room_scene


def run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as e:
        main(args)
    return int(e.value.code or 0)


def _shoelace(poly: list[list[float]]) -> float:
    s = 0.0
    for (x0, z0), (x1, z1) in zip(poly, poly[1:] + poly[:1], strict=True):
        s += x0 * z1 - x1 * z0
    return abs(s) / 2


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("hybrid_cli")
    ns.save(two_room_scene(), d / "house.json")
    outs = []
    for name in ("a.json", "b.json"):
        args = ["scenes", "hybrid", "-o", str(d / name), "--seed", "0", "--house", str(d / "house.json")]
        assert run(args) == 0
        outs.append(d / name)
    return outs[0], outs[1]


def test_hybrid_cli_keeps_the_house(outputs: tuple[Path, Path]) -> None:
    out, _ = outputs
    scene = ns.load(out)
    assert scene.kind == "hybrid"
    exits = [p for p in scene.portals if p.kind == "exit"]
    assert len(exits) == 1
    assert exits[0].id == "h_d1" and exits[0].regions == ("h_r1", "outdoor")
    assert scene.meta["exit_portal"] == "h_d1"
    rooms = {r.id: r for r in scene.rooms}
    assert set(rooms) == {"h_r0", "h_r1"}
    assert rooms["h_r0"].label == "kitchen" and rooms["h_r1"].label == "living room"
    doc = json.loads(out.read_text())
    assert doc["kind"] == "hybrid"
    for r in doc["rooms"]:  # 4 m x 4 m = 16 m², moved rigidly (shoelace on the stored polygon)
        assert _shoelace(r["floor_polygon"]) == pytest.approx(16.0, abs=1e-4)
        assert rooms[r["id"]].area == pytest.approx(16.0, abs=1e-4)
    # the interior door keeps its prefixed rooms too
    doors = [p for p in scene.portals if p.kind == "door"]
    assert [(p.id, p.regions) for p in doors] == [("h_d0", ("h_r0", "h_r1"))]


def test_hybrid_cli_is_reproducible(outputs: tuple[Path, Path]) -> None:
    a, b = outputs
    assert a.read_bytes() == b.read_bytes()
