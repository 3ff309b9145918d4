"""Episode pages: key moments by hand, sampling of failed episodes, the pages and their links."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from pathlib import Path

import numpy as np
import pytest

from navbench.report.build import build_report_from_rows
from navbench.report.episode_pages import select_samples
from navbench.report.moments import key_moments, polyline_distance
from tests.conftest import two_room_scene
from tests.report.test_html import _inputs


def _moments(p: list[list[float]], **kw: object) -> list[tuple[int, str, str]]:
    return [(m.step, m.kind, m.text) for m in key_moments(p, **kw)]  # type: ignore[arg-type]


def test_subgoal_moments_reached_nearest_and_in_order() -> None:
    # walk east along z = 0; subgoal 1 at (3, 0.3) is reached at step 3 (0.30 m <= τ; step 2 is
    # 1.04 m away). Subgoal 2 at (1, 2) is searched from step 3 on: 2.83, 3.61, 4.47 m at steps
    # 3, 4, 5, so it is "nearest" at step 3 (step 1, 2.00 m, lies before subgoal 1) and merges.
    p = [[float(x), 0.0, 0.0] for x in range(6)]
    assert _moments(p, tau=0.5, subgoals=[[3.0, 0, 0.3], [1.0, 0, 2.0]]) == [
        (0, "start", "start"),
        (3, "subgoal", "subgoal 1 reached (0.30 m); subgoal 2 nearest (2.83 m)"),
        (5, "stop", "stop")]


def test_exit_contact_and_merged_moments() -> None:
    p = [[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0], [3.0, 0, 0]]
    got = _moments(p, tau=1.0, outdoor=[False, False, True, True], contacts=[0, 0, 0, 2],
                   stop_text="stop: collision")
    assert got == [(0, "start", "start"), (2, "exit", "went outdoors"),
                   (3, "first contact", "first contact; stop: collision")]
    # started indoors, never got out: the step nearest to the exit at (1.2, 0, 1) is step 1 (1.02 m)
    got = _moments(p, tau=1.0, outdoor=[False] * 4, exits=[[1.2, 0, 1.0]])
    assert (1, "exit", "nearest an exit (1.02 m), never got out") in got
    # started outdoors (a hybrid scene's outdoor start): no exit moment
    assert all(k != "exit" for _, k, _ in _moments(p, tau=1.0, outdoor=[True] * 4, exits=[[1, 0, 1]]))
    assert key_moments([], tau=1.0) == []


def test_polyline_distance_against_dense_sampling() -> None:
    rng = np.random.default_rng(3)
    line = rng.uniform(-5, 5, (6, 3))
    pts = rng.uniform(-6, 6, (40, 3))
    t = np.linspace(0, 1, 4001)[:, None]
    dense = np.vstack([a + t * (b - a) for a, b in itertools.pairwise(line)])[:, [0, 2]]
    brute = np.min(np.linalg.norm(pts[:, None, [0, 2]] - dense[None], axis=2), axis=1)
    assert np.allclose(polyline_distance(pts, line), brute, atol=2e-3)


def test_samples_per_group_round_robin_and_cap() -> None:
    def row(eid: str, lab: str, out: str = "", kind: str = "indoor", s: float = 0.0) -> dict:
        return {"episode_id": eid, "termination": lab, "branch_outcome": out, "success": s,
                "task": "conditional", "scene_kind": kind}

    rows = {"a": [row("10", "timeout"), row("2", "timeout"), row("3", "timeout"), row("1", "x", s=1.0),
                  row("4", "collision", "elsewhere"), row("5", "timeout", kind="hybrid"),
                  {**row("6", "timeout"), "reachable": False}],
            "b": [row("7", "timeout")]}
    have = {("a", e) for e in ("10", "2", "3", "4", "5")}  # b's episode has no trajectory
    def src(task: str, run: str, eid: str) -> str | None:
        return run if (run, eid) in have else None

    got = select_samples([("conditional", rows)], src, per_group=2)
    # groups sorted by (task · scene kind, label, outcome); natural id order inside a group
    assert [(s.run, s.episode_id, s.label, s.rank, s.of) for s in got] == [
        ("a", "5", "timeout", 1, 1), ("a", "4", "collision", 1, 1), ("a", "2", "timeout", 1, 3),
        ("a", "3", "timeout", 2, 3)]
    assert got[0].group == "conditional · hybrid" and got[1].outcome == "elsewhere"
    # at most 3 pages: every group's first sample comes before any second one
    assert [s.episode_id for s in select_samples([("conditional", rows)], src, 2, max_pages=3)] == [
        "5", "4", "2"]
    assert len({s.page for s in got}) == 4 and all(s.page.startswith("episodes/") for s in got)


HOSTILE_RUN = "<script>alert(1)</script> agent"


def test_pages_are_linked_escaped_and_show_moments_and_frames(tmp_path: Path) -> None:
    rows, scenes, traj, eps = _inputs()
    rows = {HOSTILE_RUN: rows["agent"], "oracle": rows["oracle"]}
    traj = {HOSTILE_RUN: traj["agent"], "oracle": traj["oracle"]}
    eps = [dataclasses.replace(e, instruction_text="Go <b>north</b> & stop.") for e in eps]
    # the agent turned in place at the start (recorded yaw), then walked
    records = {HOSTILE_RUN: {"2": {"yaw": np.array([0.0, -math.pi / 4, -math.pi / 2]),
                                   "t": np.array([0.0, 0.1, 0.2])}}}
    html = build_report_from_rows(rows, tmp_path / "rep", scenes, traj, episodes=eps, records=records)
    report = html.read_text()
    pages = sorted((tmp_path / "rep" / "episodes").glob("*.html"))
    assert len(pages) == 1  # the agent failed episode 2 (perception_error at other_branch)
    page = pages[0].read_text()
    link = f'href="episodes/{pages[0].name}"'
    assert report.count(link) == 4  # termination cell, branch confusion "simple" and "all", the list
    assert "<script>" not in page + report and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Go &lt;b&gt;north&lt;/b&gt; &amp; stop." in page
    assert "Instruction: “Go &lt;b&gt;north&lt;/b&gt; &amp; stop.”" in report  # the map caption
    # moments by hand (see test_html._inputs): the stop (2.5, -0.6) is 1.80 m from the reference's
    # first segment (1,-3)-(4,-2); step 1 (2, -2) is 0.63 m from it
    items = re.findall(r"<li>(.*?)</li>", page)
    assert items == ["start · step 0 · t = 0.0 s",
                     "left the reference path (the stop is 1.80 m from it) · step 1 · t = 0.1 s",
                     "stop: perception_error · step 2 · t = 0.2 s"]
    assert page.count("data:image/jpeg;base64,") == 3 and page.count("data:image/png;base64,") == 1
    assert "turtlebot head camera" in page and 'href="../report.html"' in page


def test_frames_face_the_recorded_yaw(tmp_path: Path) -> None:
    from navbench.report.episode_frames import FrameRenderer, heading_at

    p = np.array([[2.0, 0.0, -2.0], [3.0, 0.0, -2.0]])  # moving east: heading −π/2
    assert heading_at(p, None, 0) == pytest.approx(-math.pi / 2)
    r = FrameRenderer(size=(64, 48))
    try:
        scene = two_room_scene()
        by_motion = r.frames(scene, "turtlebot", p, None, [0])
        east = r.frames(scene, "turtlebot", p, np.array([-math.pi / 2, 0.0]), [0])
        west = r.frames(scene, "turtlebot", p, np.array([math.pi / 2, 0.0]), [0])
    finally:
        r.close()
    assert by_motion == east and east != west and east[0][:2] == b"\xff\xd8"  # JPEG
