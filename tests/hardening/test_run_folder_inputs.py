"""Run-folder inputs a user gets wrong: a file where a folder belongs, a non-database handed to
``results repair``, a typo in a friction study. Each is one line, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.errors import ConfigError
from navbench.eval import ResultsDB
from navbench.eval.db_safety import CorruptDatabaseError
from navbench.eval.settings import EvalSettings
from tests.hardening.test_dataset_check import _cli


def _listing(d: Path) -> list[tuple[str, bytes]]:
    return sorted((p.name, p.read_bytes()) for p in d.iterdir())


def test_repair_of_a_text_file_writes_nothing(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("my notes\n")
    (tmp_path / "empty").write_bytes(b"")
    before = _listing(tmp_path)
    for name, what in (("notes.txt", "not SQLite at all"), ("empty", "an empty file")):
        assert _cli(["results", "repair", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert name in err and what in err and "Traceback" not in err, err
    assert _listing(tmp_path) == before  # no .repair-* folder, no .lock file


def test_evaluate_refuses_a_file_as_its_run_folder(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_bytes(b"")
    before = _listing(tmp_path)
    args = ["evaluate", str(tmp_path / "ds"), "-a", "random", "-o", str(tmp_path / "afile")]
    assert _cli(args) == 2
    err = capsys.readouterr().err
    assert "afile" in err and "run folder" in err and "Traceback" not in err, err
    assert _listing(tmp_path) == before  # the empty file was not made a database


def test_corrupt_file_outside_a_run_folder_names_itself_in_the_repair_hint(tmp_path: Path) -> None:
    bad = tmp_path / "mine.sqlite"
    with ResultsDB(bad) as db:
        db.get_or_create_run("a", "h", {}, 0, "v")
    raw = bytearray(bad.read_bytes())
    raw[:100] = bytes(100)  # a damaged header: repair rebuilds it, so the hint sends the user there
    bad.write_bytes(bytes(raw))
    with pytest.raises(CorruptDatabaseError) as ei:
        ResultsDB(bad)
    # the hint names the file (before: its folder, i.e. FOLDER/results.sqlite, another file)
    assert str(ei.value).endswith(f"navbench results repair {bad}")


def test_a_file_repair_cannot_salvage_is_not_sent_to_repair(tmp_path: Path) -> None:
    bad = tmp_path / "mine.sqlite"
    bad.write_text("not a database at all" * 10)
    with pytest.raises(CorruptDatabaseError) as ei:
        ResultsDB(bad)
    assert "results repair cannot help" in str(ei.value) and "move the file away" in str(ei.value)


def test_unknown_friction_class_is_refused(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown surface class 'flor'.*floor, green"):
        EvalSettings(friction_override={"flor": 0.3})
    assert EvalSettings(friction_override={"green": 0.3}).friction_override == {"green": 0.3}
    args = ["evaluate", str(tmp_path / "ds"), "-a", "random", "-o", str(tmp_path / "run"),
            "--friction", "lava=2"]
    assert _cli(args) == 2
    err = capsys.readouterr().err
    assert "unknown surface class 'lava'" in err and "Traceback" not in err, err
    assert not (tmp_path / "run").exists()
