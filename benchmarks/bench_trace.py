"""Cost of streaming the episode's rows for crash scoring (``navbench.eval.trace``) in the loop.

Runs the same episodes of :func:`navbench.agents.rollout.run_episode` on the two-room scene
three ways, interleaved, each first in turn (best of ``--repeats`` per way): no tracer (reference), the local
workers' tracer (:class:`StepTracer` → :class:`SpillFile`, one ``os.write`` per step) and the Ray workers' one (:class:`BatchedSink`, its sends
collected in a list). A blind velocity agent (the cheapest step: ~0.1 ms of physics) and a
discrete one (~1.7 ms a step) are timed separately. Prints ms per episode and the ratio to the
reference of the same run, then the hooks' own µs per step, and checks that the three ways record the same rows and that the
spill file reads back as the simulator's rows.

    .venv/bin/python benchmarks/bench_trace.py [--steps 300] [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import two_room_scene

from navbench.agents.base import Agent
from navbench.agents.rollout import run_episode
from navbench.episodes import Episode, Goal
from navbench.eval.trace import (
    BatchedSink,
    PartialTrace,
    SpillFile,
    StepTracer,
    TraceChunk,
    read_spill,
    spill_path,
)
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import Action, DiscreteAction, VelocityAction


class Circler(Agent):
    """Drives a slow circle (velocity) or turns left (discrete) for ever."""

    def __init__(self, space: str) -> None:
        self.action_space = space

    def act(self, observation: Any) -> Action:
        if self.action_space == "velocity":
            return VelocityAction(0.3, 0.0, 0.4)
        return DiscreteAction("left")


def run(sim: Simulator, space: str, steps: int, hook: Callable[[int], None] | None) -> float:
    ep = Episode("e", "two_rooms", (2.0, 0.0, -2.0), (0.0, 0.0, 0.0, 1.0), (Goal((6.0, 0.0, -1.0)),))
    t = time.perf_counter()
    run_episode(sim, Circler(space), ep, max_steps=steps, on_step=hook)
    return time.perf_counter() - t


def hook_cost(folder: str, calls: int = 20000) -> dict[str, float]:
    """µs per step of each hook alone: a recorder gaining one row per step (the simulator's
    :class:`~navbench.sim.records.StepRecords`), best of 3 passes; ``rows only`` is the
    reference (the row written, no hook)."""
    from types import SimpleNamespace

    from navbench.sim.records import StepRecords

    out: dict[str, float] = {}
    for name in ("rows only", "spill", "batched"):
        for _ in range(3):
            rec = StepRecords((("floor", True),))
            sim = SimpleNamespace(recorder=SimpleNamespace(rows=rec))
            spill = SpillFile(folder, 1, ["e"])
            hook = None if name == "rows only" else StepTracer(
                sim, spill if name == "spill" else BatchedSink(lambda c: None), "e")
            t = time.perf_counter()
            for i in range(calls):
                buf, n = rec.next_row()
                buf[n, 0] = i
                if hook is not None:
                    hook(i)
            out[name] = min(out.get(name, np.inf), (time.perf_counter() - t) / calls * 1e6)
            spill.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    sim = Simulator(two_room_scene(), SPOT, SimSettings(max_time=1e6))
    folder = tempfile.mkdtemp(prefix="bench-trace-")
    for space in ("velocity", "discrete"):
        steps = args.steps if space == "velocity" else args.steps // 10
        best = {"none": np.inf, "spill": np.inf, "batched": np.inf}
        rows: dict[str, np.ndarray] = {}
        for r in range(args.repeats):
            ways = ["none", "spill", "batched"]
            for way in ways[r % 3:] + ways[:r % 3]:  # each way first in turn
                spill = SpillFile(folder, 0, ["e"])
                sent: list[TraceChunk] = []

                hook = {"none": None, "spill": StepTracer(sim, spill, "e"),
                        "batched": StepTracer(sim, BatchedSink(sent.append), "e")}[way]
                best[way] = min(best[way], run(sim, space, steps, hook))
                spill.close()
                rows.setdefault("none", sim.records()["position"])
                assert np.array_equal(sim.records()["position"], rows["none"])
                if way == "spill":  # the step limit ends the episode after the hook: every row
                    trace = PartialTrace()
                    for chunk in read_spill(spill_path(folder, 0, 0), "e"):
                        trace.add(chunk)
                    assert np.array_equal(trace.trajectory()["positions"], rows["none"])
        ref = best["none"]
        print(f"{space}: {steps} steps, {len(rows['none'])} rows, best of {args.repeats}")
        for k, v in best.items():
            print(f"  {k:8s} {v * 1e3:8.2f} ms/episode  ratio {v / ref:.3f}")
    sim.close()
    cost = hook_cost(folder)
    print("hook alone (µs per step, best of 3): " +
          ", ".join(f"{k} {v:.2f}" for k, v in cost.items()))


if __name__ == "__main__":
    main()
