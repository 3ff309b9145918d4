"""CLI: graph build / figure and instructions generate / parse on hand-built scenes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.scene import save
from navbench.tasks.conditional import parse, read_instructions
from tests.conditional.synth import random_scene


def run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as e:
        main(args)
    return int(e.value.code or 0)


def test_graph_build_and_figure(tmp_path: Path) -> None:
    scene = random_scene(3)
    save(scene, tmp_path / "s.json")
    assert run(["graph", "build", str(tmp_path / "s.json"), "-o", str(tmp_path / "g.json"),
                "--figure", str(tmp_path / "f.png"), "--room", "r1"]) == 0
    doc = json.loads((tmp_path / "g.json").read_text())
    assert set(doc["rooms"]) == {r.id for r in scene.rooms}
    n1 = len(scene.objects_in("r1"))
    rel = [e for e in doc["rooms"]["r1"]["edges"] if e["kind"] == "relation"]
    assert sum(e["predicate_type"] == "canonical" for e in rel) == n1 * (n1 - 1)
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    assert run(["graph", "figure", str(tmp_path / "s.json"), "-o", str(tmp_path / "x.png"),
                "--room", "nope"]) == 2


def test_instructions_generate_is_reproducible(tmp_path: Path) -> None:
    d = tmp_path / "scenes"
    for i in (1, 2):
        save(random_scene(i), d / f"s{i}.json")
    args = ["instructions", "generate", "--scenes", str(d), "--per-scene", "12", "--seed", "5"]
    assert run([*args, "--out", str(tmp_path / "a.jsonl")]) == 0
    assert run([*args, "--out", str(tmp_path / "b.jsonl")]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    insts = read_instructions(tmp_path / "a.jsonl")
    assert len(insts) == 24 and all(parse(i.text) == i.program for i in insts)
    assert run([*args, "--out", str(tmp_path / "c.jsonl"), "--categories", "bogus"]) == 2


def test_instructions_parse_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["instructions", "parse",
                "If there is a lamp in the hall, go to the bed in the hall, else go to the "
                "lamp in the hall."]) == 0
    assert json.loads(capsys.readouterr().out)["op"] == "if"
    assert run(["instructions", "parse", "fly to the moon"]) == 2
