"""Report tables as LaTeX (booktabs), and a ``report.tex`` that compiles with pdflatex.

One ``tables/<task>/<key>.tex`` per report table — a ``table`` float to ``\\input`` into a paper —
whose caption says what is measured, n and the interval method (the table's title and note), and
one ``report.tex`` (article class, booktabs, graphicx, geometry: all in Debian's
``texlive-latex-base`` and ``texlive-latex-recommended``) that inputs every table and includes
the figures' PDF files. Every text cell, header and caption is escaped (:func:`escape`): LaTeX's
special characters, and characters pdflatex cannot typeset (mapped to a command or written as
``[U+XXXX]``), so any run name compiles.

A value cell is ``\\nbcell{value}{[lo, hi]}{n}``: the value with n in small type and the
interval below it. ``\\nbcell`` is defined with ``\\providecommand`` in every table file, so a
paper may define its own first (e.g. to drop n). Wide tables are split into column groups of at
most :data:`MAX_COLUMNS` value columns, one tabular under another, and shrunk to the line width
only when still wider.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path

from navbench.io import atomic_write_text
from navbench.paths import safe_name
from navbench.report.cells import CellText, cell_texts, index_names, index_tuples, levels
from navbench.report.html import FigureImage
from navbench.report.tables import Table

#: Value columns per tabular; wider tables continue in a second tabular below.
MAX_COLUMNS = 8

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
            "#": r"\#", "^": r"\textasciicircum{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''",
            "[": "{[}", "]": "{]}"}
_UNICODE = {"·": r"\textperiodcentered{}", "ℓ": r"$\ell$", "τ": r"$\tau$", "χ": r"$\chi$",
            "α": r"$\alpha$", "ε": r"$\varepsilon$", "δ": r"$\delta$", "Δ": r"$\Delta$",
            "θ": r"$\theta$", "π": r"$\pi$", "μ": r"$\mu$", "µ": r"$\mu$", "ω": r"$\omega$",
            "–": "--", "—": "---", "−": r"$-$", "±": r"$\pm$", "×": r"$\times$", "÷": r"$\div$",
            "≤": r"$\leq$", "≥": r"$\geq$", "≈": r"$\approx$", "≠": r"$\neq$", "→": r"$\rightarrow$",
            "←": r"$\leftarrow$", "∧": r"$\wedge$", "∨": r"$\vee$", "¬": r"$\neg$", "∝": r"$\propto$",
            "²": r"\textsuperscript{2}", "³": r"\textsuperscript{3}", "ⁿ": r"\textsuperscript{n}",
            "°": r"\textdegree{}", "§": r"\S{}", "…": r"\dots{}", "‘": "`", "’": "'", "“": "``",
            "”": "''", "✕": "x", "★": "*", "\u00a0": "~", "•": r"\textbullet{}"}


def escape(text: str) -> str:
    """``text`` as LaTeX that typesets it with pdflatex: special characters escaped, known
    Unicode symbols as commands, Latin letters with accents kept (inputenc utf8), anything else
    as ``[U+XXXX]``; control characters dropped.

    >>> escape("50% of a_b & {c} · d=1,ℓ=2")
    '50\\\\% of a\\\\_b \\\\& \\\\{c\\\\} \\\\textperiodcentered{} d=1,$\\\\ell$=2'
    """
    out = []
    for ch in text:
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ch in "\n\t\r":
            out.append(" ")
        elif ch.isascii():
            out.append(ch if ch.isprintable() else "")
        elif 0xC0 <= ord(ch) <= 0x17F and ch.isalpha():
            out.append(ch)  # Latin-1 / Latin Extended-A letters: utf8 inputenc composes them
        else:
            out.append(rf"\texttt{{[U+{ord(ch):04X}]}}")
    return "".join(out)


def _num(s: str) -> str:
    """A formatted number or interval: minus signs as math minus."""
    return escape(s).replace("-", "$-$")


def _cell(t: CellText) -> str:
    if not t.n and not t.interval:
        return _num(t.value)
    return rf"\nbcell{{{_num(t.value)}}}{{{_num(t.interval)}}}{{{escape(t.n.strip('()'))}}}"


def label_of(task: str, key: str) -> str:
    """The ``\\label`` of a table: ``tab:<task>:<key>`` with only letters, digits and ``-``."""
    return "tab:" + re.sub(r"[^A-Za-z0-9-]+", "-", f"{task}:{key}")


def _chunks(cols: list[tuple[str, ...]]) -> list[list[int]]:
    """Column indices in groups of at most :data:`MAX_COLUMNS`, split between top-level groups
    where possible."""
    groups = [list(g) for _, g in groupby(range(len(cols)), key=lambda j: cols[j][0] if len(cols[j]) > 1 else j)]
    out: list[list[int]] = [[]]
    for g in groups:
        while len(g) > MAX_COLUMNS:  # a group wider than a chunk is cut
            if out[-1]:
                out.append([])
            out[-1], g = g[:MAX_COLUMNS], g[MAX_COLUMNS:]
            out.append([])
        if len(out[-1]) + len(g) > MAX_COLUMNS and out[-1]:
            out.append([])
        out[-1] += g
    return [c for c in out if c]


def _tabular(t: Table, cols: list[int]) -> str:
    assert t.values is not None
    names = index_names(t.values)
    all_cols = [levels(c) for c in t.values.columns]
    sub = [all_cols[j] for j in cols]
    depth = max(len(c) for c in sub)
    k = len(names)
    lines = [rf"\begin{{tabular}}{{{'l' * k}{'r' * len(sub)}}}", r"\toprule"]
    for lev in range(depth - 1):  # group rows: \multicolumn over spans, \cmidrule under each
        runs = [(key[-1], len(list(g))) for key, g in groupby(sub, key=lambda c: c[: lev + 1])]
        cells, rules, at = [""] * k, [], k + 1
        for lab, span in runs:
            cells.append(rf"\multicolumn{{{span}}}{{c}}{{{escape(lab)}}}" if span > 1 else escape(lab))
            if lab:
                rules.append(rf"\cmidrule(lr){{{at}-{at + span - 1}}}")
            at += span
        lines += [" & ".join(cells) + r" \\", " ".join(rules)]
    lines.append(" & ".join([escape(n) for n in names] + [escape(c[-1]) for c in sub]) + r" \\")
    lines.append(r"\midrule")
    texts = cell_texts(t)
    prev: tuple[str, ...] = ()
    for labels, row in zip(index_tuples(t.values), texts, strict=True):
        shown = [("" if lev < len(labels) - 1 and labels[: lev + 1] == prev[: lev + 1] else escape(lab))
                 for lev, lab in enumerate(labels)]
        if prev and len(labels) > 1 and labels[0] != prev[0]:
            lines.append(r"\addlinespace")
        lines.append(" & ".join(shown + [_cell(row[j]) for j in cols]) + r" \\")
        prev = labels
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def table_latex(t: Table, label: str) -> str:
    """One ``table`` float (see the module docstring); a skipped table becomes a comment."""
    if t.skipped:
        return f"% {escape(t.title)}: {escape(t.note)}\n"
    assert t.values is not None
    caption = escape(t.title) + ". " + escape(
        "Cells: value [95% interval] (n episodes); rates in %. " + t.note)
    parts = [_tabular(t, c) for c in _chunks([levels(c) for c in t.values.columns])]
    body = "\n\\par\\medskip\n".join(
        r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%" + "\n" + p + "}"
        for p in parts)
    return "\n".join([
        r"\providecommand{\nbcell}[3]{\begin{tabular}[c]{@{}r@{}}#1\,{\scriptsize(#3)}\\[-2pt]"
        r"{\scriptsize #2}\end{tabular}}",
        r"\begin{table}[!htbp]", r"\centering\small",
        rf"\caption[{escape(t.title)}]{{{caption}}}", rf"\label{{{label}}}", body,
        r"\end{table}", ""])


def figure_latex(fig: FigureImage, path: str) -> str:
    """A ``figure`` float including ``path`` (a PDF relative to ``report.tex``)."""
    return "\n".join([
        r"\begin{figure}[!htbp]", r"\centering",
        rf"\includegraphics[width=\linewidth,height=0.75\textheight,keepaspectratio]{{{path}}}",
        rf"\caption[{escape(fig.title)}]{{{escape(fig.title)}. {escape(fig.caption)}}}",
        rf"\label{{fig:{re.sub(r'[^A-Za-z0-9-]+', '-', fig.key)}}}", r"\end{figure}", ""])


LatexPart = tuple[str, str, Sequence[Table], Sequence[FigureImage]]


def latex_document(title: str, parts: Sequence[LatexPart], figures: Sequence[FigureImage] = (),
                   *, table_dir: str | None = "tables", figure_dir: str = "figures") -> str:
    """``report.tex``: one section per ``(task, heading, tables, figures)`` part, tables as
    ``\\input{<table_dir>/<task>/<key>}`` (inline when ``table_dir`` is ``None``: one
    self-contained file), figures (those with a PDF) from ``<figure_dir>``."""
    out = [r"\documentclass[10pt]{article}", r"\usepackage[utf8]{inputenc}",
           r"\usepackage[margin=2cm]{geometry}", r"\usepackage{booktabs}", r"\usepackage{graphicx}",
           r"\ifdefined\extrafloats\extrafloats{200}\fi", rf"\title{{{escape(title)}}}", r"\date{}",
           r"\begin{document}", r"\maketitle",
           escape("Cells: value [95% interval] (n episodes); rates in %, NE and ADO in m, CE in "
                  "cells per m; – where no episode defines the cell. Each caption names the "
                  "interval method and the paired test.")]
    for task, heading, tables, figs in parts:
        out.append(rf"\clearpage\section{{{escape(heading)}}}")
        out += [rf"\input{{{table_dir}/{task}/{t.key}}}" if table_dir is not None
                else table_latex(t, label_of(task, t.key)) for t in tables]
        out += [figure_latex(f, f"{figure_dir}/{safe_name(f.key)}.pdf") for f in figs
                if dict(f.vectors).get("pdf")]
    if any(dict(f.vectors).get("pdf") for f in figures):
        out.append(r"\clearpage\section{Episode maps}")
        out += [figure_latex(f, f"{figure_dir}/{safe_name(f.key)}.pdf") for f in figures
                if dict(f.vectors).get("pdf")]
    out += [r"\end{document}", ""]
    return "\n".join(out)


def write_latex_tables(tables: Sequence[Table], folder: str | Path, task: str) -> list[Path]:
    """``<key>.tex`` per table into ``folder`` (atomically)."""
    folder = Path(folder)
    return [atomic_write_text(folder / f"{t.key}.tex", table_latex(t, label_of(task, t.key)))
            for t in tables]
