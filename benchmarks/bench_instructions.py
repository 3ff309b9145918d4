"""Speed of scene-graph building and instruction generation (one core).

Prints: graph build time for a 6-room procedural house (vectorised) against a plain-Python
per-pair reference computed in the same run, and instructions per second (graph excluded,
no path finding) against the target of 2,000/s.

    python benchmarks/bench_instructions.py
"""

from __future__ import annotations

import math
import time

from navbench.graph import build_scene_graph
from navbench.graph.relations import ObjectArrays
from navbench.scene import Scene
from navbench.tasks.conditional import generate_instructions


def _house() -> Scene:
    try:
        from navbench.scene.procgen.indoor import generate_house

        return generate_house(0, n_rooms=6)
    except ImportError:  # fall back to the test generator
        import sys

        sys.path.insert(0, ".")
        from tests.conditional.synth import random_scene

        return random_scene(0, n_rooms=6)


def _loop_reference(scene: Scene) -> int:
    """Per-pair Python loop computing the same centre/AABB distances and azimuths."""
    n = 0
    for r in scene.rooms:
        a = ObjectArrays.from_objects(scene.objects_in(r.id))
        for i in range(len(a.ids)):
            for j in range(len(a.ids)):
                if i == j:
                    continue
                d = [a.centers[j][k] - a.centers[i][k] for k in range(3)]
                math.sqrt(sum(x * x for x in d))
                sum(max(a.lo[i][k] - a.hi[j][k], a.lo[j][k] - a.hi[i][k], 0.0) ** 2 for k in range(3))
                math.degrees(math.atan2(-d[2], d[0]))
                n += 1
    return n


def main() -> None:
    scene = _house()
    reps = 20
    t = time.perf_counter()
    for _ in range(reps):
        sg = build_scene_graph(scene)
    t_graph = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    pairs = _loop_reference(scene)
    t_loop = time.perf_counter() - t
    print(f"house: {len(scene.rooms)} rooms, {len(scene.objects)} objects, {pairs} ordered pairs")
    print(f"graph build (metrics + networkx + edges): {t_graph * 1e3:.2f} ms")
    print(f"plain-loop metrics only (reference):      {t_loop * 1e3:.2f} ms "
          f"(ratio build/loop = {t_graph / t_loop:.2f})")
    n = 3000
    generate_instructions(scene, 60, 0, graph=sg)  # warm up
    t = time.perf_counter()
    insts = generate_instructions(scene, n, 1, graph=sg)
    dt = time.perf_counter() - t
    print(f"instructions: {len(insts)} in {dt:.2f} s = {len(insts) / dt:.0f}/s "
          f"(target 2000/s, ratio {len(insts) / dt / 2000:.2f}x)")


if __name__ == "__main__":
    main()
