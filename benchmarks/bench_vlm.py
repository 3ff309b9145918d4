"""Overhead of the ``vlm`` agent per decision (PNG encode, request, cache) against the
simulator step it drives. Reference measured in the same run: one discrete simulator step
with rendering (physics of one primitive + one RGB-D frame) in a generated house.

Usage: python benchmarks/bench_vlm.py [--width 640] [--height 480] [--steps 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from navbench.agents import load_agent, make_task
from navbench.episodes import Episode, Goal
from navbench.nav import NavMesh, NavSettings
from navbench.rng import derive
from navbench.scene.procgen.indoor import generate_house
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import DiscreteAction

REPLY = json.dumps({"choices": [{"message": {"role": "assistant", "content": "Action: TURN_LEFT"}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(REPLY)))
        self.end_headers()
        self.wfile.write(REPLY)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    ap.add_argument("--steps", type=int, default=20)
    a = ap.parse_args()
    scene = generate_house(1)
    start = NavMesh.build(scene, NavSettings.preset("indoor")).sample_point(
        derive(0, "bench-vlm"), island="largest")
    ep = Episode("b0", scene.id, tuple(float(v) for v in start), (0, 0, 0, 1),
                 (Goal((float(start[0]) + 50.0, float(start[1]), float(start[2]))),),
                 instruction_text="find the door")
    sim = Simulator(scene, SPOT, SimSettings(render=True, width=a.width, height=a.height))
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/v1"
    try:
        obs = sim.reset(ep)
        t0 = time.perf_counter()
        frames = []
        for _ in range(a.steps):
            obs, done, _ = sim.step(DiscreteAction("left"))
            frames.append({k: obs[k] for k in ("pose", "time", "rgb")})
            if done:
                raise SystemExit(f"the benchmark episode ended early: {sim.label}")
        t_sim = (time.perf_counter() - t0) / a.steps
        with tempfile.TemporaryDirectory() as d:
            timings = {}
            for mode in ("off", "readwrite", "hit"):
                agent = load_agent("vlm", base_url=url, model="bench", cache_dir=d,
                                   cache="readwrite" if mode == "hit" else mode)
                agent.reset(make_task(ep, agent))
                t0 = time.perf_counter()
                for f in frames:
                    agent.act(f)
                timings[mode] = (time.perf_counter() - t0) / a.steps
                if mode == "hit":
                    assert agent.diagnostics()["cached_calls"] == a.steps
    finally:
        srv.shutdown()
        sim.close()
    print(f"simulator step with {a.width}x{a.height} rendering: {1e3 * t_sim:.1f} ms (reference)")
    for mode, label in (("off", "live request, no cache"), ("readwrite", "live request + cache write"),
                        ("hit", "cache hit (replay)")):
        print(f"vlm decision, {label}: {1e3 * timings[mode]:.1f} ms = "
              f"{timings[mode] / t_sim:.2f} x the simulator step")


if __name__ == "__main__":
    main()
