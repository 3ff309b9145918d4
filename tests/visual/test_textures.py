"""Procedural textures: determinism, seeds, tiling and the on-disk cache."""

from __future__ import annotations

import numpy as np
import pytest

from navbench.visual.textures import INDOOR_TEXTURES, cache_dir, texture, texture_hash


@pytest.mark.parametrize("key", sorted(INDOOR_TEXTURES))
def test_same_seed_same_bytes_other_seed_other_bytes(key):
    a = texture(key, 3, 64, use_cache=False)
    b = texture(key, 3, 64, use_cache=False)
    c = texture(key, 4, 64, use_cache=False)
    assert a.shape == (64, 64, 3) and a.dtype == np.uint8
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != c.tobytes()
    assert a.std() > 1.0  # not a flat colour


@pytest.mark.parametrize("key", ["oak", "walnut", "carpet", "stone", "paint", "linen", "parquet_oak", "herringbone", "wicker"])
def test_textures_tile_without_a_seam(key):
    img = texture(key, 0, 128, use_cache=False).astype(float)
    seam = np.abs(img[:, 0] - img[:, -1]).mean()  # wrap-around neighbours
    inner = np.abs(img[:, 63] - img[:, 64]).mean()  # ordinary neighbours
    assert seam <= 2.5 * inner + 2.0


def test_cache_round_trip_and_corrupt_file(tmp_path):
    a = texture("tile", 1, 32, cache=tmp_path)
    path = tmp_path / f"tile-{texture_hash('tile', 1, 32)}.npy"
    assert path.exists() and not list(tmp_path.glob("*.tmp"))
    assert np.array_equal(np.load(path), a)
    path.write_bytes(b"garbage")  # a torn write from another process is regenerated
    assert np.array_equal(texture("tile", 1, 32, cache=tmp_path), a)


def test_cache_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("NAVBENCH_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path / "visual"
    monkeypatch.delenv("NAVBENCH_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_dir() == tmp_path / "x" / "navbench" / "visual"
    assert cache_dir(tmp_path / "y") == tmp_path / "y"
