"""Instruction parser on held-out human paraphrases and on hostile input.

Held-out set: ``benchmarks/data/paraphrases_heldout.jsonl``, one record per line with the
paraphrase class, the text a person wrote and a reference text in the generator's own grammar
(written by hand, never used by the tests). A paraphrase is *understood* when it parses to the
same program as its reference; *wrong* when it parses to another program (a silent misreading);
*refused* on a ``ParseError``; *crashed* on any other exception (e.g. ``RecursionError``) or
when one parse takes more than ``--limit`` seconds.

Fuzz: random word salads from the grammar's own fragments, deeply nested "if" (up to 10,000
levels), very long sequences and chains; every input must give a program or a ``ParseError``.
The time per parse is printed as a ratio to parsing the reference texts (same run).

Usage: python benchmarks/bench_parser.py [--fuzz 300] [--seed 0] [--limit 10] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import signal
import time
from pathlib import Path
from types import FrameType

import numpy as np

from navbench.tasks.conditional import ParseError, parse

HELD_OUT = Path(__file__).with_name("data") / "paraphrases_heldout.jsonl"
FRAGMENTS = ("if", "there is", "a sofa", "in the", "living room", ",", ".", ";", ":", "otherwise",
             "go to", "the lamp", "kitchen", "then", "check whether", "if so", "unless", "not",
             "first", "and then", "1.", "->", "?", "is", "south west of", "there", "it", "or else",
             "if not", "in case", "else if", "the tv stand", "near", "no", "you can't see", "one")


class _TimeoutError(Exception):
    pass


def _alarm(_sig: int, _frame: FrameType | None) -> None:
    raise _TimeoutError


def _try(text: str, limit: float) -> tuple[str, object, float]:
    """("ok", program) | ("refused", message) | ("crashed", repr); and the seconds taken."""
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.perf_counter()
    try:
        return "ok", parse(text), time.perf_counter() - t0
    except ParseError as e:
        return "refused", str(e), time.perf_counter() - t0
    except _TimeoutError:
        return "crashed", f"no answer within {limit} s", time.perf_counter() - t0
    except Exception as e:  # the census counts every other failure as a crash
        return "crashed", f"{type(e).__name__}: {str(e)[:80]}", time.perf_counter() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def held_out(limit: float, verbose: bool) -> float:
    """Print the held-out census; return the mean seconds per reference parse."""
    rows = [json.loads(line) for line in HELD_OUT.read_text().splitlines() if line.strip()]
    counts = {"understood": 0, "wrong": 0, "refused": 0, "crashed": 0}
    ref_s = 0.0
    for r in rows:
        kind, ref, dt = _try(r["reference"], limit)
        ref_s += dt
        if kind != "ok":
            raise SystemExit(f"reference does not parse: {r['reference']!r}: {ref}")
        kind, got, _ = _try(r["text"], limit)
        verdict = kind if kind != "ok" else "understood" if got == ref else "wrong"
        counts[verdict] += 1
        if verbose or verdict in ("wrong", "crashed"):
            print(f"  {verdict:10s} [{r['class']}] {r['text']}" + ("" if kind == "ok" else f"\n{' ' * 13}{got}"))
    print(f"held-out paraphrases: {len(rows)}; " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return ref_s / len(rows)


def hostile(n: int, seed: int, limit: float, ref_s: float) -> None:
    """Print the fuzz census: crashes and the slowest parse relative to a reference parse."""
    rng = np.random.default_rng(seed)
    inputs = [" ".join(FRAGMENTS[int(k)] for k in rng.integers(len(FRAGMENTS), size=int(rng.integers(1, 60))))
              for _ in range(n)]
    leaf = "go to the lamp in the kitchen"
    cond = "if there is a sofa in the living room"
    for depth in (10, 100, 1000, 10_000):
        inputs.append("if " * depth)
        inputs.append(f"{cond}, " * depth + leaf + ", otherwise " * depth + leaf)
        inputs.append(f"{cond}, then: " * depth + leaf + ". otherwise, " + leaf)
        inputs.append(" and then ".join([leaf] * depth))
        inputs.append(f"{cond}, {leaf}. " + f"otherwise, {cond}, {leaf}. " * depth + f"otherwise, {leaf}.")
        inputs.append("(" * depth + leaf + ")" * depth)
    counts = {"ok": 0, "refused": 0, "crashed": 0}
    worst, worst_text = 0.0, ""
    for text in inputs:
        kind, msg, dt = _try(text, limit)
        counts[kind] += 1
        if dt > worst:
            worst, worst_text = dt, text
        if kind == "crashed":
            print(f"  crashed ({len(text)} chars): {text[:70]!r}...: {msg}")
    print(f"hostile inputs: {len(inputs)}; " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"slowest parse: {worst:.3f} s = {worst / ref_s:.0f}x a reference parse "
          f"({len(worst_text)} chars: {worst_text[:50]!r}...)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzz", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per parse before it counts as a crash")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    ref_s = held_out(a.limit, a.verbose)
    hostile(a.fuzz, a.seed, a.limit, ref_s)


if __name__ == "__main__":
    main()
