"""LaTeX output: escaping, booktabs structure, determinism, and (slow) pdflatex compiles it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from navbench.report.build import build_report_from_rows
from navbench.report.figures import bar_charts
from navbench.report.latex import MAX_COLUMNS, _chunks, escape, label_of, table_latex
from navbench.report.sections import report_sections
from tests.report.test_html import _inputs, _make_db

PDFLATEX = shutil.which("pdflatex")
HOSTILE = 'a_b & c%d $e #f {g} ~h ^i \\j <k> |l| "m" [n] ℓ·τ≥ é ß 😀 中'


def test_escape_by_hand() -> None:
    assert escape("a_b & 50%") == r"a\_b \& 50\%"
    assert escape("{x} $y$ #z") == r"\{x\} \$y\$ \#z"
    assert escape("~^\\") == r"\textasciitilde{}\textasciicircum{}\textbackslash{}"
    assert escape("d=1,ℓ=2 · τ ≥ 3 – 4") == r"d=1,$\ell$=2 \textperiodcentered{} $\tau$ $\geq$ 3 -- 4"
    assert escape("[lo]") == "{[}lo{]}"
    assert escape("café") == "café"  # Latin letters stay (inputenc utf8)
    assert escape("😀中") == r"\texttt{[U+1F600]}\texttt{[U+4E2D]}"
    assert escape("a\nb\x07") == "a b"


def _rows() -> dict:
    rows, *_ = _inputs()
    return {HOSTILE: rows["agent"], "oracle": rows["oracle"]}


def test_table_latex_structure_and_caption() -> None:
    sec = report_sections(_rows())[0]
    overall = next(t for t in sec.tables if t.key == "overall")
    tex = table_latex(overall, label_of(sec.task, overall.key))
    assert tex.count(r"\toprule") == tex.count(r"\bottomrule") == len(_chunks(
        [tuple(str(x) for x in (c if isinstance(c, tuple) else (c,))) for c in overall.values.columns]))
    assert r"\label{tab:conditional-overall}" in tex and r"\midrule" in tex
    assert r"\caption[Overall results per run]{Overall results per run. Cells: value {[}95\% interval{]}" in tex
    assert "Wilson score interval for" in tex and "n excluded (unreachable goal)" in tex
    # SR of the agent: 1 of 2 → 50.0 [9.5, 90.5] (2); the hostile name is escaped, never raw
    assert r"\nbcell{50.0}{{[}9.5, 90.5{]}}{2}" in tex
    assert escape(HOSTILE) in tex and "a_b &" not in tex
    gap = table_latex(next(t for t in sec.tables if t.key == "oracle_gap"), "tab:x")
    assert r"\multicolumn{4}{c}{SR}" in gap and r"\cmidrule(lr){2-5}" in gap
    assert "McNemar" in gap


def test_wide_tables_split_at_group_boundaries() -> None:
    cols = [(g, m) for g in ("a", "b", "c") for m in ("SR", "SPL", "BSA")]
    assert _chunks(cols) == [[0, 1, 2, 3, 4, 5], [6, 7, 8]]
    flat = [(f"m{i}",) for i in range(2 * MAX_COLUMNS + 1)]
    assert [len(c) for c in _chunks(flat)] == [MAX_COLUMNS, MAX_COLUMNS, 1]


def test_latex_report_folder(tmp_path: Path) -> None:
    rows, scenes, traj, eps = _inputs()
    build_report_from_rows(rows, tmp_path / "r", scenes, traj, episodes=eps, latex=True)
    out = {p.relative_to(tmp_path / "r"): p.read_bytes() for p in sorted((tmp_path / "r").rglob("*"))
           if p.is_file()}
    files = {str(p) for p in out}
    assert {"report.tex", "tables/conditional/overall.tex", "tables/conditional/oracle_gap.tex",
            "figures/conditional_bars.pdf", "figures/conditional_bars.svg",
            "figures/bev_2.pdf", "figures/bev_2.svg", "figures/bev_2.png"} <= files
    tex = out[Path("report.tex")].decode()
    assert r"\input{tables/conditional/overall}" in tex
    assert r"\includegraphics[width=\linewidth,height=0.75\textheight,keepaspectratio]{figures/bev_2.pdf}" in tex
    assert out[Path("figures/bev_2.pdf")].startswith(b"%PDF")
    assert b"<svg" in out[Path("figures/conditional_bars.svg")]
    assert b"Type3" not in out[Path("figures/conditional_bars.pdf")]  # fonts as Type 42
    plain = tmp_path / "plain"
    build_report_from_rows(rows, plain, scenes, traj, episodes=eps, max_bev=0)
    assert not (plain / "report.tex").exists() and not list(plain.rglob("*.pdf"))


def test_vector_figures_are_byte_identical() -> None:
    rows, *_ = _inputs()
    a, b = (bar_charts(rows, vector=True) for _ in range(2))
    assert a is not None and b is not None and a.vectors == b.vectors
    assert [ext for ext, _ in a.vectors] == ["pdf", "svg"]


@pytest.mark.slow
def test_latex_report_folder_is_deterministic(tmp_path: Path) -> None:
    rows, scenes, traj, eps = _inputs()
    outs = []
    for k in range(2):
        build_report_from_rows(rows, tmp_path / f"r{k}", scenes, traj, episodes=eps, latex=True)
        outs.append({p.relative_to(tmp_path / f"r{k}"): p.read_bytes()
                     for p in sorted((tmp_path / f"r{k}").rglob("*")) if p.is_file()})
    assert outs[0] == outs[1]


def _pdflatex(folder: Path, tex: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", tex],
                          cwd=folder, capture_output=True, text=True, timeout=240)


@pytest.mark.slow
@pytest.mark.skipif(PDFLATEX is None, reason="pdflatex not installed (Debian: apt-get install "
                    "texlive-latex-base texlive-latex-recommended)")
def test_latex_report_compiles_with_pdflatex(tmp_path: Path) -> None:
    rows, scenes, traj, eps = _inputs()
    rows = {HOSTILE: rows["agent"], "oracle": rows["oracle"]}
    traj = {HOSTILE: traj["agent"], "oracle": traj["oracle"]}
    build_report_from_rows(rows, tmp_path / "rep", scenes, traj, episodes=eps, latex=True,
                           title="Report of run " + HOSTILE)
    res = _pdflatex(tmp_path / "rep", "report.tex")
    assert res.returncode == 0, res.stdout[-3000:]
    assert (tmp_path / "rep" / "report.pdf").read_bytes().startswith(b"%PDF")
    assert "Undefined control sequence" not in res.stdout and "Missing $" not in res.stdout


@pytest.mark.slow
@pytest.mark.skipif(PDFLATEX is None, reason="pdflatex not installed (Debian: apt-get install "
                    "texlive-latex-base texlive-latex-recommended)")
def test_results_export_latex_compiles(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import navbench.cli.evaluate  # noqa: F401  (registers the command)
    from navbench.cli._app import app

    _make_db(tmp_path / "run")
    res = CliRunner().invoke(app, ["results", "export", str(tmp_path / "run"), "-f", "latex",
                                   "-o", str(tmp_path / "t.tex")])
    assert res.exit_code == 0, res.output
    tex = (tmp_path / "t.tex").read_text()
    assert r"\begin{table}" in tex and r"\input{" not in tex  # one self-contained file
    out = _pdflatex(tmp_path, "t.tex")
    assert out.returncode == 0, out.stdout[-3000:]


def test_cli_report_latex_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    import navbench.cli.report  # noqa: F401  (registers the command)
    from navbench.cli._app import app

    _make_db(tmp_path / "run")
    res = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-o", str(tmp_path / "rep"),
                                   "--latex"])
    assert res.exit_code == 0, res.output
    assert "report.tex" in res.output
    tex = (tmp_path / "rep" / "tables" / "conditional" / "condvln_table2.tex").read_text()
    assert r"\toprule" in tex and r"\label{tab:conditional-condvln-table2}" in tex
    assert (tmp_path / "rep" / "figures" / "conditional_bars.pdf").is_file()
