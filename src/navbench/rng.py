"""Deterministic random streams.

Every generator in navbench takes an integer ``seed`` and derives independent child streams
by name, so adding a new random draw in one place never shifts the draws of another::

    rng = derive(seed, "indoor", scene_index)

The derivation hashes the keys with BLAKE2 (stable across machines and Python versions, unlike
``hash()``) into a :class:`numpy.random.SeedSequence`.
"""

from __future__ import annotations

import hashlib

import numpy as np


def key_entropy(*keys: object) -> list[int]:
    """Stable 32-bit words from arbitrary keys (their ``str``)."""
    h = hashlib.blake2b(digest_size=16)
    for k in keys:
        h.update(str(k).encode("utf-8"))
        h.update(b"\x1f")
    d = h.digest()
    return [int.from_bytes(d[i : i + 4], "little") for i in range(0, 16, 4)]


def derive(seed: int, *keys: object) -> np.random.Generator:
    """A PCG64 generator that depends only on ``seed`` and the ``keys``."""
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, int(seed) >> 32, *key_entropy(*keys)])
    return np.random.Generator(np.random.PCG64(ss))


def child_seed(seed: int, *keys: object) -> int:
    """A derived non-negative 63-bit integer seed (for passing to other processes)."""
    return int(derive(seed, *keys).integers(0, 2**63 - 1))
