"""The report prints and captures whole: in a real headless Chromium at 900 and 1400 px and with
print CSS on an A4 page, no table is wider than its container and nothing sticks out of the body.

Chromium comes from Debian (``apt-get install chromium``; ``.ci/run`` installs it). Without it
these tests skip, except under CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from navbench.report.build import build_report_from_rows
from navbench.report.html_table import table_markup
from tests.report.chromium import MEASURE, Browser, chromium_path
from tests.report.test_html import _inputs

EXE = chromium_path()
if EXE is None and os.environ.get("CI"):
    raise RuntimeError("CI: chromium is missing (apt-get install chromium); .ci/run installs it")
needs_chromium = pytest.mark.skipif(EXE is None, reason="chromium not installed (apt-get install "
                                    "chromium); the layout check needs a real browser")
A4_PX = 718  # 210 mm − 2 × 10 mm margins at 96 px per inch
HOSTILE = "<b>agent&amp;\"quoted'</b>-" + "x" * 90  # no space to wrap at, markup to escape


def test_markup_by_hand_split_header_and_rowspans() -> None:
    rows = [("a", "t1"), ("a", "t2"), ("b", "t1")]
    cols = [("m1", "SR"), ("m1", "SPL"), ("m2", "SR")]
    cells = [["1 (2)", "3", "4"], ["5", "6", "7"], ["8", "9", "10"]]
    one = table_markup(rows, ["run", "task"], cols, ["metric", "stat"], cells)
    assert one.count("<table>") == 1 and "<caption>" not in one
    # header: the upper column level's name in the corner, the row names in the last row
    assert ('<tr><th class="corner" colspan="2">metric</th><th colspan="2">m1</th><th>m2</th></tr>'
            '<tr><th class="corner">run</th><th class="corner">task</th><th>SR</th><th>SPL</th>'
            '<th>SR</th></tr>') in one
    lab = '<th rowspan="2"><span class="lab">a</span></th>'
    assert f'<tr>{lab}<th><span class="lab">t1</span></th><td>1 (2)</td>' in one
    assert '<tr><th><span class="lab">t2</span></th><td>5</td>' in one  # "a" spans both rows
    # widest word × 0.64 em + 1.25 em padding: labels "run" 3.17 + "task" 3.81 = 6.98 em, m1's
    # columns 2 × 3.17 = 6.34 em ("SPL", "(2)"), m2's 2.53 em: within 14 em m1 fits, m1 + m2 not
    two = table_markup(rows, ["run", "task"], cols, ["metric", "stat"], cells, max_em=14.0)
    assert two.count("<table>") == 2 and "<caption>part 2 of 2</caption>" in two
    first, second = two.split("\n")
    assert "<th>SPL</th>" in first and "m2" not in first and "<th>m2</th>" in second
    assert second.count(lab) == 1  # row labels repeated per group
    linked = table_markup(rows, ["run", "task"], cols, ["metric", "stat"], cells,
                          {(("b", "t1"), ("m2", "SR")): [("episodes/x&y.html", "1")]})
    assert '<td>10 <sup class="eps"><a href="episodes/x&amp;y.html">1</a></sup></td>' in linked


def _wide_rows() -> dict[str, list[dict]]:
    """Six runs over 9 (depth, chain) configurations, 6 scene sources and 7 termination labels:
    Table 2 has 28 value columns, Table 3 18, the termination table 8."""
    sources = ["procthor", "mp3d", "hm3d", "gibson", "habitat-test-scenes", "replica_cad_baked_lighting"]
    labels = ["success", "timeout", "collision", "perception_error", "agent_error", "stuck",
              "post_exit_wandering_without_reason"]
    runs = ["oracle-branch", "scene-graph", "first-branch", "random",
            "my-own-agent-with-a-long-descriptive-name-v2", HOSTILE]
    out: dict[str, list[dict]] = {}
    for k, run in enumerate(runs):
        rows = []
        for i in range(27):
            lab = labels[(i + k) % len(labels)]
            s = float(lab == "success")
            rows.append({"episode_id": str(i), "task": "conditional", "scene_kind": "indoor",
                         "source": sources[i % len(sources)], "depth": 1 + i % 3,
                         "chain_length": 1 + i // 3 % 3, "category": f"cat{i % 4}",
                         "success": s, "spl": 0.7 * s, "bsa": s, "csr": s, "oracle_success": 1.0,
                         "ne": 1.5 * (1 - s) + 0.1 * i, "ndtw": 0.5, "sdtw": 0.4 * s, "ce": 0.9,
                         "cr": 0.1, "ado": 0.3, "nsr": 0.95, "soft_spl": 0.6, "geodesic_length": 2.0 + i,
                         "termination": lab, "branch_outcome": "correct" if s else "other_branch"})
        out[run] = rows
    return out


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of :func:`_wide_rows`, with an episode map and a long unbroken meta value."""
    _, scenes, traj, eps = _inputs()
    rows = _wide_rows()
    traj = {"oracle-branch": {"2": traj["oracle"]["2"]}, HOSTILE: {"2": traj["agent"]["2"]}}
    return build_report_from_rows(rows, tmp_path_factory.mktemp("wide") / "rep", scenes, traj,
                                  episodes=eps,
                                  meta={"run folders": "/a/very/long/path/" + "segment" * 40})


@needs_chromium
@pytest.mark.timeout(180)
def test_no_table_clips_at_900_and_1400_px_and_in_print(wide_report: Path, tmp_path: Path) -> None:
    html = wide_report
    text = html.read_text()
    assert HOSTILE not in text and "&lt;b&gt;agent&amp;amp;" in text  # escaped everywhere
    assert text.count("<table>") > 12  # the widest tables were split into column groups
    pages = sorted((html.parent / "episodes").glob("*.html"))
    assert pages  # oracle-branch's episode 2 ended in a collision: it has a page
    with Browser(EXE) as b:  # type: ignore[arg-type]
        for width, media in ((900, "screen"), (A4_PX, "print")):
            b.open(pages[0], width, media=media)
            m = b.js(MEASURE)
            assert not m["overflow"] and m["doc_scroll_w"] <= m["doc_client_w"], (width, m["overflow"][:5])
        for width, media in ((900, "screen"), (1400, "screen"), (A4_PX, "print")):
            b.open(html, width, media=media)
            m = b.js(MEASURE)
            assert len(m["tables"]) == text.count("<table") and len(m["tables"]) > 12
            clipped = [t for t in m["tables"] if t["scroll_w"] > t["client_w"]
                       or t["table_w"] > t["client_w"] + 0.5]
            assert not clipped, (width, media, clipped)
            assert not m["overflow"], (width, media, m["overflow"][:5])
            assert m["doc_scroll_w"] <= m["doc_client_w"] == width
            if media == "screen":
                w, h = b.screenshot(tmp_path / f"shot_{width}.png")
                assert w == width and h > 2000
                from matplotlib.image import imread

                img = imread(tmp_path / f"shot_{width}.png")[..., :3]
                dark = (img.mean(axis=2) < 0.5).mean()  # text, table borders, plotted lines
                coloured = (np.ptp(img, axis=2) > 0.2).mean()  # figures (bars, rooms)
                assert img.shape[1] == width and dark > 0.003 and coloured > 0.001, (dark, coloured)


@needs_chromium
@pytest.mark.timeout(120)
def test_the_measurement_sees_a_clipped_table(wide_report: Path, tmp_path: Path) -> None:
    """Control: the same report with the tables forced onto one line (the old CSS) clips."""
    old = re.sub(r"white-space:normal", "white-space:nowrap", wide_report.read_text())
    old = old.replace("overflow-wrap:anywhere", "overflow-wrap:normal").replace(
        '<div class="tbl">', '<div class="tbl" style="display:block">')
    bad = tmp_path / "old.html"
    bad.write_text(old.replace(HOSTILE, "y" * 200))
    with Browser(EXE) as b:  # type: ignore[arg-type]
        b.open(bad, 900)
        m = b.js(MEASURE)
    clipped = [t for t in m["tables"] if t["scroll_w"] > t["client_w"]]
    assert clipped and np.max([t["table_w"] for t in m["tables"]]) > 900
