"""Atomic writes: the target holds the old bytes or the new ones, never a half-written file, and
a failed write leaves no temporary file behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from navbench.io import atomic_write_bytes, atomic_write_text, atomic_write_with


def test_bytes_and_text_land_whole_with_plain_open_permissions(tmp_path: Path) -> None:
    p = tmp_path / "a" / "b.bin"
    atomic_write_bytes(p, b"\x00\x01")
    assert p.read_bytes() == b"\x00\x01"
    atomic_write_text(p, "é")
    assert p.read_bytes() == b"\xc3\xa9"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~mask
    assert sorted(x.name for x in p.parent.iterdir()) == ["b.bin"]


def test_a_failed_write_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    p = tmp_path / "fig.png"
    p.write_bytes(b"old")

    def half(tmp: Path) -> None:
        tmp.write_bytes(b"ne")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write_with(p, half)
    with pytest.raises(TypeError):
        atomic_write_bytes(p, "not bytes")  # type: ignore[arg-type]
    assert p.read_bytes() == b"old"
    assert [x.name for x in tmp_path.iterdir()] == ["fig.png"]
