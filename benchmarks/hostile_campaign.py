"""Hostile-input campaign: malformed files, hostile ids and hostile agents through the CLI.

Runs every case in one process through ``navbench.cli.main`` and classifies it:

- ``clean``: rejected with a one-line ``error:`` and exit status 2 (or accepted, when it should be);
- ``traceback``: an exception other than a ``NavbenchError`` escaped;
- ``silent``: bad input accepted (exit 0, or the fault recorded as something else);
- ``escape``: a file was written outside the output folder;
- ``false_reject``: valid input refused;
- ``unclear``: rejected in one line, but the line quotes a bare exception (``got 'AssertionError: '``)
  instead of saying in words what failed;
- ``memory``: accepted, but past the memory budget (``hostile_assets.RSS_BUDGET_MB``).

Usage (compare a checkout against another one)::

    PYTHONPATH=/work/main/src python benchmarks/hostile_campaign.py   # before
    PYTHONPATH=$PWD/src      python benchmarks/hostile_campaign.py   # after

Prints one line per case and the counts; ``--json FILE`` writes them. Takes ~1–2 min on 2 cores.
The importer and repair cases (``importer_cases``, ``repair_cases``) are the ones the importer
fuzzing (``tests/hardening/test_fuzz_importers.py``) found; ``limit_cases`` (JSON limits in every
importer), ``hostile_datasets`` (``dataset check`` on malformed datasets, ``score`` on malformed
branch goals, trajectory ``.npz``, deep TOML, report titles, huge predictions), ``hostile_results``
(row-level database damage and ``results repair``) and ``hostile_assets`` (mesh side files outside
the mesh's folder, texture bombs) add the cases of the hardening round after them.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gzip
import io
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hostile_assets import side_file_cases, texture_bomb_cases  # the script's own folder
from hostile_datasets import dataset_check_cases, misc_cases, score_cases
from hostile_importers import importer_cases, limit_cases, repair_cases
from hostile_results import repair_damage_cases

AGENTS = '''
import math
from navbench.agents.base import Agent
from navbench.sim.actions import VelocityAction, WaypointAction, DiscreteAction

class NaNVelocity(Agent):
    action_space = "velocity"
    def act(self, obs):
        return VelocityAction(math.nan, 0.0, 0.0)

class InfWaypoint(Agent):
    def act(self, obs):
        return WaypointAction(((math.inf, 0.0, math.nan),))

class FarWaypoint(Agent):
    def act(self, obs):
        return WaypointAction(((1e9, 0.0, math.nan),))

class Raising(Agent):
    def __init__(self):
        raise RuntimeError("no model file")

class BadSensors(Agent):
    sensors = frozenset({"lidar"})
    def act(self, obs):
        return DiscreteAction("stop")

class Stopper(Agent):
    action_space = "discrete"
    def act(self, obs):
        return DiscreteAction("stop")
'''


#: An error line that quotes an exception instead of saying what failed ("got 'IndexError: ...'").
BARE_EXCEPTION = re.compile(r"got [\"']?[A-Z]\w*(Error|Exception)\b")


def run_cli(argv: list[str]) -> tuple[str, int | None, str]:
    """``(kind, exit status, stderr)``; kind is ``exit`` or ``traceback``."""
    from navbench.cli import main

    err, out = io.StringIO(), io.StringIO()
    code: int | None = 0
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        return "traceback", None, traceback.format_exc(limit=3)
    return "exit", code, err.getvalue()


class Campaign:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.outside = root / "outside"
        self.outside.mkdir()
        self.rows: list[tuple[str, str, str]] = []

    def _files(self) -> set[str]:
        return {str(p) for p in self.root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}

    def case(self, name: str, argv: list[str], *, expect: str = "reject",
             check: Callable[[], bool] | None = None, writes: tuple[str, ...] = ()) -> None:
        """Run one case; ``check`` (after an exit 0) tells whether the fault was reported;
        ``writes``: folders the command may write besides its ``-o``/``--out``."""
        before = self._files()
        kind, code, err = run_cli(argv)
        outs = [os.path.realpath(argv[i + 1]) for i, a in enumerate(argv[:-1]) if a in ("-o", "--out")]
        outs += [os.path.realpath(w) for w in writes]
        escaped = {f for f in self._files() - before
                   if not any(os.path.realpath(f).startswith(o + os.sep) or os.path.realpath(f) == o
                              for o in outs)}
        if escaped:
            verdict = "escape"
        elif kind == "traceback":
            verdict = "traceback"
        elif expect == "reject":
            verdict = "clean" if code == 2 else ("silent" if code == 0 else "traceback")
            if code == 0 and check is not None and check():
                verdict = "clean"
            if verdict == "clean" and code == 2 and BARE_EXCEPTION.search(err):
                verdict = "unclear"
        else:
            verdict = "clean" if code == 0 else "false_reject"
            if code == 0 and check is not None and not check():
                verdict = "silent"
        last = (err.strip().splitlines() or [""])[-1][:150]
        self.rows.append((name, verdict, last))
        print(f"{verdict:12s} {name:45s} {last}", flush=True)


def _gz_json(path: Path) -> Any:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _write_gz(path: Path, doc: Any) -> None:
    path.write_bytes(gzip.compress(json.dumps(doc).encode()))


def _db_text(run: Path) -> str:
    db = run / "results.sqlite"
    if not db.is_file():
        return ""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT * FROM sqlite_master").fetchall()
        tables = [r[1] for r in rows if r[0] == "table"]
        return " ".join(str(con.execute(f"SELECT * FROM {t}").fetchall()) for t in tables)
    finally:
        con.close()


def scene_cases(c: Campaign, base: dict[str, Any]) -> None:
    def mutated(name: str, fn: Callable[[dict[str, Any]], Any]) -> Path:
        d = copy.deepcopy(base)
        fn(d)
        folder = c.root / "scenes_bad" / name / "s"
        folder.mkdir(parents=True)
        (folder / "scene.json").write_text(json.dumps(d))
        return folder

    def set_(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
        def fn(d: dict[str, Any]) -> None:
            t = d
            for k in path[:-1]:
                t = t[k]
            t[path[-1]] = value
        return fn

    def parent_cycle(d: dict[str, Any]) -> None:
        a, b = d["objects"][0], d["objects"][1]
        a["parent_id"], b["parent_id"] = b["id"], a["id"]

    r0 = base["rooms"][0]["floor_polygon"]
    xs = [p[0] for p in r0]
    zs = [p[1] for p in r0]
    x0, x1, z0, z1 = min(xs), max(xs), min(zs), max(zs)
    geometry = {
        "zero_area_room": set_(["rooms", 0, "floor_polygon"], [[x0, z0], [x1, z0], [x1, z0]]),
        "bowtie_room": set_(["rooms", 0, "floor_polygon"], [[x0, z0], [x1, z1], [x1, z0], [x0, z1]]),
        "self_parent": lambda d: d["objects"][0].__setitem__("parent_id", d["objects"][0]["id"]),
        "parent_cycle": parent_cycle,
        "far_object_1e7": set_(["objects", 0, "center"], [1e7, 0.5, 0.0]),
        "far_room_1e12": set_(["rooms", 0, "floor_polygon"], [[0, 0], [1e12, 0], [1e12, 1e12], [0, 1e12]]),
        "negative_box_size": set_(["geometry", "boxes", 0, "size"], [-1.0, 1.0, 1.0]),
    }
    for name, fn in geometry.items():
        folder = mutated(name, fn)
        c.case(f"scene {name}: nav build", ["nav", "build", str(folder / "scene.json"),
                                            "-o", str(c.root / "o" / f"{name}.npz")])
        c.case(f"scene {name}: dataset build", ["dataset", "build", "--scenes", str(folder.parent),
                                                "-o", str(c.root / "o" / f"ds_{name}"), "-n", "1",
                                                "--tasks", "objectnav"])
    for name, sid in (("dotdot_id", "../../escape_dotdot"), ("absolute_id", str(c.outside / "abs")),
                      ("slash_id", "a/../../../escape_slash")):
        folder = mutated(name, set_(["id"], sid))
        c.case(f"scene {name}: dataset build", ["dataset", "build", "--scenes", str(folder.parent),
                                                "-o", str(c.root / "o" / "x" / f"ds_{name}"),
                                                "-n", "1", "--tasks", "objectnav"])
    text = json.dumps(base)
    traps = {
        "deep_nesting": text[:-1] + ', "meta": ' + "[" * 5000 + "]" * 5000 + "}",
        "int_400_digits": text.replace('"center": [', '"center": [' + "9" * 400 + ", ", 1),
        "float_1e400": text.replace('"center": [', '"center": [1e400, ', 1),
        "nan_in_meta": text[:-1] + ', "meta": {"x": NaN}}',
        "truncated": text[: len(text) // 2],
        "not_utf8": None,
    }
    for name, t in traps.items():
        folder = c.root / "scenes_bad" / name / "s"
        folder.mkdir(parents=True)
        if t is None:
            (folder / "scene.json").write_bytes(b'{"schema": "\xff\xfe"}')
        else:
            (folder / "scene.json").write_text(t)
        f = str(folder / "scene.json")
        c.case(f"scene {name}: nav build", ["nav", "build", f, "-o", str(c.root / "o" / f"{name}.npz")])
        c.case(f"scene {name}: graph build", ["graph", "build", f, "-o", str(c.root / "o" / f"{name}.json")])
        c.case(f"scene {name}: save via dataset build",
               ["dataset", "build", "--scenes", str(folder.parent), "-o", str(c.root / "o" / f"d_{name}"),
                "-n", "1", "--tasks", "objectnav"])


def dataset_cases(c: Campaign, ds: Path, scene_file: Path) -> None:
    ep_file = ds / "objectnav" / "val" / "content"
    content = next(ep_file.glob("*.json.gz"))

    def copy_ds(name: str) -> Path:
        d = c.root / "ds_bad" / name
        shutil.copytree(ds, d)
        return d

    # bad dataset field: success_distance "far"
    d = copy_ds("tau_far")
    doc = _gz_json(d / "conditional" / "val" / "val.json.gz")
    doc["episodes"][0]["info"]["navbench"]["success_distance"] = "far"
    _write_gz(d / "conditional" / "val" / "val.json.gz", doc)
    run = c.root / "runs" / "tau_far"
    c.case("dataset success_distance 'far': evaluate",
           ["evaluate", str(d), "-a", "forward", "--task", "conditional",
            "--split", "val", "--episodes", "0", "-o", str(run)],
           check=lambda: "success_distance" in _db_text(run) and "agent_error" not in _db_text(run))
    # hostile episode id → report figure path
    d = copy_ds("evil_episode_id")
    doc = _gz_json(d / "conditional" / "val" / "val.json.gz")
    doc["episodes"][0]["episode_id"] = "../../../../escape_episode"
    _write_gz(d / "conditional" / "val" / "val.json.gz", doc)
    run = c.root / "runs" / "evil_id"
    rc = run_cli(["evaluate", str(d), "-a", "oracle-path", "--task", "conditional", "--split", "val",
                  "--episodes", "../../../../escape_episode", "-o", str(run)])
    c.case("episode id '../..': report figures",
           ["report", str(run), "-o", str(c.root / "o" / "rep" / "r"), "--dataset", str(d),
            "--split", "val"], expect="accept")
    print(f"   (the evaluate that made that run: {rc[0]} {rc[1]} {rc[2].strip()[-100:]})")
    # manifest paths pointing outside
    d = copy_ds("manifest_escape")
    m = json.loads((d / "manifest.json").read_text())
    (c.outside / "secret.json.gz").write_bytes(gzip.compress(b'{"episodes": []}'))
    m["files"]["conditional"]["val"]["episodes"] = "../../outside/secret.json.gz"
    (d / "manifest.json").write_text(json.dumps(m))
    c.case("manifest path '../..': evaluate",
           ["evaluate", str(d), "-a", "forward", "--task", "conditional", "--split", "val",
            "-o", str(c.root / "runs" / "manifest_escape")])
    # gz traps in an episode file
    for name, raw in (("truncated_gz", gzip.compress(b'{"episodes": [')[:-6]),
                      ("deep_gz", gzip.compress(b'{"episodes": ' + b"[" * 5000 + b"]" * 5000 + b"}")),
                      ("big_int_gz", gzip.compress(b'{"episodes": [], "instruction_vocab": {"word_list": [' + b"9" * 400 + b"]}}")),
                      ("not_gzip", b"hello")):
        d = copy_ds(name)
        (d / "conditional" / "val" / "val.json.gz").write_bytes(raw)
        c.case(f"episode file {name}: score", ["score", "--episodes", str(d), "--task", "conditional",
                                               "--split", "val", "--predictions", str(c.root / "pred_ok.json")])
    # objectnav content file with missing keys
    d = copy_ds("objectnav_missing")
    doc = _gz_json(d / "objectnav" / "val" / "content" / content.name)
    del doc["episodes"][0]["start_position"]
    _write_gz(d / "objectnav" / "val" / "content" / content.name, doc)
    c.case("objectnav episode without start_position: evaluate",
           ["evaluate", str(d), "-a", "forward", "--task", "objectnav", "--split", "val",
            "--episodes", "0", "-o", str(c.root / "runs" / "objectnav_missing")])
    # manifest broken
    for name, text in (("manifest_truncated", '{"schema": "navbench.dataset/1", '),
                       ("manifest_scenes_list", None)):
        d = copy_ds(name)
        if text is None:
            m = json.loads((d / "manifest.json").read_text())
            m["scenes"] = {k: "oops" for k in m["scenes"]}
            text = json.dumps(m)
        (d / "manifest.json").write_text(text)
        c.case(f"{name}: evaluate", ["evaluate", str(d), "-a", "forward", "--task", "objectnav",
                                     "--split", "val", "--episodes", "0", "-o", str(c.root / "runs" / name)])
    # predictions
    for name, doc in (("pred_nan", '{"0": [{"position": [NaN, 0, 0], "stop": true}]}'),
                      ("pred_deep", '{"0": ' + "[" * 5000 + "]" * 5000 + "}"),
                      ("pred_string", '"hello"'),
                      ("pred_big_int", '{"0": [{"position": [' + "9" * 400 + ', 0, 0], "stop": true}]}')):
        p = c.root / f"{name}.json"
        p.write_text(doc)
        c.case(f"predictions {name}: score", ["score", "--episodes", str(ds), "--task", "conditional",
                                             "--split", "val", "--predictions", str(p), "--format", "r2r"])


def agent_cases(c: Campaign, ds: Path) -> None:
    # modules in the working folder: first as a user would run it (console script, no cwd on
    # sys.path), then with the folder on sys.path so that the agent faults themselves are tested
    c.case("agent module in the working folder: evaluate",
           ["evaluate", str(ds), "-a", "hostile_agents:Stopper", "--task", "objectnav", "--split", "val",
            "--episodes", "0", "-o", str(c.root / "runs" / "cwd")], expect="accept")
    sys.path.insert(0, str(c.root))
    for name, expect, check_text in (
            ("NaNVelocity", "reject", "non-finite"), ("InfWaypoint", "reject", "non-finite"),
            ("FarWaypoint", "reject", "out of range"), ("Raising", "reject", None),
            ("BadSensors", "reject", None)):
        run = c.root / "runs" / f"agent_{name}"
        c.case(f"agent {name}: evaluate",
               ["evaluate", str(ds), "-a", f"hostile_agents:{name}", "--task", "objectnav",
                "--split", "val", "--episodes", "0", "--max-time", "20", "-o", str(run)],
               expect=expect,
               check=(lambda t=check_text, r=run: t in _db_text(r)) if check_text else None)


def results_cases(c: Campaign) -> None:
    for name, raw in (("garbage", b"not a database at all" * 100),
                      ("truncated_sqlite", b"SQLite format 3\x00" + b"\x00" * 50)):
        run = c.root / "runs_bad" / name
        run.mkdir(parents=True)
        (run / "results.sqlite").write_bytes(raw)
        c.case(f"results db {name}: results show", ["results", "show", str(run)])
        c.case(f"results db {name}: report", ["report", str(run), "-o", str(c.root / "o" / f"rep_{name}")])


def config_cases(c: Campaign, scene_file: Path) -> None:
    for name, text in (("toml_syntax", "[graph\nnear_max = 1"), ("toml_type", "[graph]\nnear_max = 'x'"),
                       ("toml_unknown", "[graph]\nnearr = 1.0"), ("toml_negative", "[graph]\nfar_min = -1.0"),
                       ("toml_order", "[graph]\nnear_max = 5.0"), ("toml_not_table", "graph = 3"),
                       ("toml_not_utf8", None)):
        p = c.root / f"{name}.toml"
        if text is None:
            p.write_bytes(b"\xff\xfe[graph]")
        else:
            p.write_text(text)
        c.case(f"config {name}: graph build", ["graph", "build", str(scene_file), "-o",
                                               str(c.root / "o" / f"{name}.json"), "--config", str(p)])


def http_cases(c: Campaign) -> None:
    """The ``serve-agent`` server and the remote client against hostile peers."""
    import http.server
    import socket
    import threading

    from navbench.agents.baselines import ForwardAgent
    from navbench.agents.remote import RemoteAgent
    from navbench.agents.server import AgentServer

    srv = AgentServer(ForwardAgent(), "127.0.0.1", 0)
    srv.start()
    host, port = srv.server_address[:2]

    def raw(req: bytes, timeout: float = 5.0) -> bytes:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.sendall(req)
            try:
                return s.recv(200)
            except OSError:
                return b"<no answer>"

    def status(reply: bytes) -> str:
        return reply.split(b"\r\n", 1)[0].decode("latin-1")

    def verdict(name: str, ok: bool, bad: str, note: str) -> None:
        v = "clean" if ok else bad
        c.rows.append((name, v, note))
        print(f"{v:12s} {name:45s} {note}", flush=True)

    body = b'{"task": "hello"}'
    r = status(raw(b"POST /reset HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)))
    verdict("serve-agent: string task", " 400 " in r, "traceback" if " 500 " in r else "silent", r)
    body = b'{"observation": "x"}'
    r = status(raw(b"POST /act HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)))
    verdict("serve-agent: string observation", " 400 " in r, "traceback" if " 500 " in r else "silent", r)
    r = status(raw(b"POST /act HTTP/1.1\r\nContent-Length: 10000000000\r\n\r\n{", timeout=3.0))
    verdict("serve-agent: 10 GB Content-Length", " 413 " in r, "silent", r or "<timeout>")
    before = threading.active_count()
    socks = []
    for _ in range(100):
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(b"POST /act HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        socks.append(s)
    time.sleep(0.5)
    grown = threading.active_count() - before
    for s in socks:
        s.close()
    verdict("serve-agent: 100 half-sent requests", grown <= 40, "silent", f"{grown} threads held")
    srv.shutdown()
    srv.server_close()

    class Huge(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a: Any) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            data = b'{"action": "' + b"x" * (64 << 20) + b'"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            with contextlib.suppress(OSError):
                self.wfile.write(data)

    hs = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Huge)
    threading.Thread(target=hs.serve_forever, daemon=True).start()
    agent = RemoteAgent(f"http://127.0.0.1:{hs.server_address[1]}", timeout_s=10, retries=0)
    try:
        agent.act({"pose": [0, 0, 0, 0]})
        verdict("remote agent: 64 MB reply", False, "silent", "accepted")
    except Exception as e:
        msg = str(e)
        verdict("remote agent: 64 MB reply", len(msg) < 2000 and "NavbenchError" in
                [k.__name__ for k in type(e).__mro__], "silent", f"{type(e).__name__}, {len(msg)} chars")
    hs.shutdown()
    hs.server_close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write the per-case verdicts and counts here")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--only", type=lambda t: t.split(","), help="comma-separated case groups to run "
                    "(scenes, datasets, agents, results, repair, importers, config, http, limits, check, "
                    "score, misc, repair_damage, side_files, texture_bombs); default: all")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="navbench-hostile-"))
    os.chdir(root)
    (root / "hostile_agents.py").write_text(AGENTS)
    sys.path[:] = [p for p in sys.path if p not in ("", ".", str(root))]  # as the console script
    try:
        _, code, err = run_cli(["scenes", "generate", "--kind", "indoor", "--count", "1", "--rooms", "3",
                                   "--seed", "1", "--out", str(root / "sc")])
        assert code == 0, err
        scene_file = next((root / "sc").glob("*/scene.json"))
        base = json.loads(scene_file.read_text())
        _, code, err = run_cli(["dataset", "build", "--scenes", str(root / "sc"), "-o", str(root / "ds"),
                                   "-n", "2", "--tasks", "conditional,objectnav", "--split-by-scene", "val=1"])
        assert code == 0, err
        ds = root / "ds"
        (root / "pred_ok.json").write_text("{}")
        _, code, err = run_cli(["evaluate", str(ds), "-a", "oracle-path", "--task", "conditional",
                                   "--split", "val", "-o", str(root / "runs" / "base_op")])
        assert code == 0, err
        c = Campaign(root)
        run = root / "runs" / "base_op"
        groups: dict[str, Callable[[], None]] = {
            "scenes": lambda: scene_cases(c, base), "datasets": lambda: dataset_cases(c, ds, scene_file),
            "agents": lambda: agent_cases(c, ds), "results": lambda: results_cases(c),
            "repair": lambda: repair_cases(c), "importers": lambda: importer_cases(c),
            "config": lambda: config_cases(c, scene_file), "http": lambda: http_cases(c),
            "limits": lambda: limit_cases(c), "check": lambda: dataset_check_cases(c, ds),
            "score": lambda: score_cases(c, ds), "misc": lambda: misc_cases(c, ds, scene_file, run),
            "repair_damage": lambda: repair_damage_cases(c, run), "side_files": lambda: side_file_cases(c),
            "texture_bombs": lambda: texture_bomb_cases(c),
        }
        unknown = set(args.only or ()) - set(groups)
        if unknown:
            raise SystemExit(f"--only: unknown groups {sorted(unknown)}; groups: {', '.join(groups)}")
        for name, fn in groups.items():
            if not args.only or name in args.only:
                fn()
        counts = Counter(v for _, v, _ in c.rows)
        print("counts:", dict(sorted(counts.items())), f"(of {len(c.rows)} cases)")
        if args.json:
            args.json.write_text(json.dumps({"counts": counts, "cases": c.rows}, indent=1))
    finally:
        os.chdir("/")
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
