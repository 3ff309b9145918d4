"""The report tables of evaluation runs as one LaTeX file (``navbench results export -f latex``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from navbench.io import atomic_write_text
from navbench.report.latex import latex_document
from navbench.report.runs import read_runs
from navbench.report.sections import report_sections


def export_latex(runs: Sequence[str | Path], out: str | Path, *, run_id: str | None = None,
                 oracle: str | None = None, title: str = "navbench results") -> Path:
    """Write every report table of the runs in ``runs`` (run folders or ``.sqlite`` files; only
    ``run_id`` when given) as booktabs tables in one self-contained LaTeX document ``out``
    (compiles with pdflatex; no figures: ``navbench report --latex`` writes those).

    Episode fields come from the results database (what the runs recorded), so tables that need
    fields the runs did not record are left out, as in the report.
    """
    from navbench.errors import ConfigError

    rows_by_run, _ = read_runs(runs)
    if run_id is not None:
        rows_by_run = {k: [r for r in v if r.get("run_id") == run_id] for k, v in rows_by_run.items()}
        rows_by_run = {k: v for k, v in rows_by_run.items() if v}
        if not rows_by_run:
            raise ConfigError(f"--run-id: no episode of run {run_id!r} in "
                              f"{', '.join(str(r) for r in runs)}")
    sections = report_sections(rows_by_run, oracle)
    doc = latex_document(title, [(s.task, s.title, s.tables, []) for s in sections], table_dir=None)
    return atomic_write_text(Path(out), doc)
