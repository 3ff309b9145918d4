"""Rendering of report tables and figures: markdown, CSV and one self-contained ``report.html``.

Cells read ``value (n)``: rates in percent with one decimal, other metrics with two decimals
(NE and ADO in metres, CE in cells per metre), ``–`` where no episode defines the cell; share
columns read ``count (pct%)``. CSV files keep the raw numbers (fractions, metres) with one
``<column> n`` count column per value column. The HTML embeds figures as base64 PNG and its CSS
inline, references no external URL, and contains no timestamp, so it is byte-identical for
identical inputs.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from navbench.io import atomic_write_text
from navbench.report.tables import RATES, Table

DASH = "–"


@dataclass(frozen=True)
class FigureImage:
    """A rendered figure: ``key`` (file stem), ``title``, PNG bytes and a caption."""

    key: str
    title: str
    png: bytes
    caption: str = ""


#: Columns (last header level) that hold episode counts, shown and written as integers.
COUNT_COLS = ("episodes", "excluded")


def _levels(col: object) -> tuple[str, ...]:
    return tuple(str(c) for c in col) if isinstance(col, tuple) else (str(col),)


def format_cell(table: Table, col: object, value: float, n: int) -> str:
    """Display text of one cell (see the module docstring)."""
    lv = _levels(col)
    if lv[-1] in COUNT_COLS:
        return str(int(n))
    if lv[-1] in table.share_cols:
        return str(int(n)) if math.isnan(value) else f"{int(n)} ({100 * value:.1f}%)"
    if math.isnan(value):
        return DASH
    if any(x in RATES for x in lv):
        return f"{100 * value:.1f} ({int(n)})"
    return f"{value:.2f} ({int(n)})"


def display_frame(table: Table) -> pd.DataFrame:
    """The table as strings, same index and columns as ``table.values``."""
    if table.values is None or table.counts is None:
        raise ValueError(f"table {table.key} was skipped: {table.note}")
    frame = table.values
    v, c = frame.to_numpy(dtype=float), table.counts.to_numpy()
    data = [[format_cell(table, col, float(v[i, j]), int(c[i, j]))
             for j, col in enumerate(frame.columns)] for i in range(len(v))]
    return pd.DataFrame(data, index=frame.index, columns=frame.columns)


def _index_tuples(df: pd.DataFrame) -> list[tuple[str, ...]]:
    return [_levels(i) for i in df.index]


def _index_names(df: pd.DataFrame) -> list[str]:
    return [str(n) if n is not None else "" for n in df.index.names]


def _col_names(df: pd.DataFrame) -> list[str]:
    return [" / ".join(x for x in _levels(c) if x) for c in df.columns]


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


#: Characters that make Markdown syntax inside a line (emphasis, code, links and images through
#: their brackets, headings, tables, strikethrough), escaped by :func:`markdown_text`.
_MD_SPECIAL = "\\`*_[]#|~"


def markdown_text(s: str) -> str:
    """``s`` as literal Markdown inline text: one line (line breaks become spaces), HTML tags
    and entities inert (``<`` ``>`` ``&`` as entities), Markdown syntax backslash-escaped, so a
    user-given string (a report ``--title``) cannot add headings, links, emphasis or HTML.

    >>> markdown_text("<b>x</b> [y](javascript:z)\\n# h")
    '&lt;b&gt;x&lt;/b&gt; \\\\[y\\\\](javascript:z) \\\\# h'
    """
    one = " ".join(s.split())
    one = html.escape(one, quote=False)
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in one)


def table_markdown(table: Table) -> str:
    """GitHub markdown: ``### title``, the table (or the skip note), then the note."""
    out = [f"### {table.title}", ""]
    if table.skipped:
        return "\n".join([*out, f"*{table.note}*", ""])
    d = display_frame(table)
    header = _index_names(d) + _col_names(d)
    out.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
    out.append("|" + "|".join(["---"] * len(_index_names(d)) + ["---:"] * d.shape[1]) + "|")
    for idx, row in zip(_index_tuples(d), d.itertuples(index=False), strict=True):
        out.append("| " + " | ".join(_md_escape(x) for x in (*idx, *row)) + " |")
    if table.note:
        out += ["", table.note]
    return "\n".join(out) + "\n"


def table_csv(table: Table) -> str:
    """CSV with index columns, then per value column its raw value (an integer in count
    columns) and ``<column> n``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if table.values is None or table.counts is None:
        w.writerow(["note"])
        w.writerow([table.note])
        return buf.getvalue()
    names = _col_names(table.values)
    w.writerow([*_index_names(table.values), *(x for nm in names for x in (nm, f"{nm} n"))])
    vals, counts = table.values.to_numpy(dtype=float), table.counts.to_numpy()
    is_count = [_levels(c)[-1] in COUNT_COLS for c in table.values.columns]
    for i, idx in enumerate(_index_tuples(table.values)):
        cells: list[str] = []
        for j in range(table.values.shape[1]):
            v = float(vals[i, j])
            text = "" if math.isnan(v) else str(int(v)) if is_count[j] else repr(v)
            cells += [text, str(int(counts[i, j]))]
        w.writerow([*idx, *cells])
    return buf.getvalue()


def write_tables(tables: Sequence[Table], folder: str | Path) -> list[Path]:
    """Write ``<key>.md`` and ``<key>.csv`` per table into ``folder`` (atomically)."""
    folder = Path(folder)
    out = []
    for t in tables:
        out.append(atomic_write_text(folder / f"{t.key}.md", table_markdown(t)))
        out.append(atomic_write_text(folder / f"{t.key}.csv", table_csv(t)))
    return out


_CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}
h3{font-size:15px;margin:20px 0 6px}
div.scroll{overflow-x:auto;max-width:100%;margin:4px 0}
table{border-collapse:collapse;font-size:12px;margin:0}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:right;white-space:nowrap}
th{background:#f0f3f7}tbody th{text-align:left;background:#fafafa}
p.note{font-size:12px;color:#555;margin:4px 0 10px}p.skip{font-style:italic;color:#a33}
figure{display:inline-block;margin:8px 12px 8px 0;vertical-align:top}
figure img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:12px;color:#444;max-width:900px}
.meta td,.meta th{text-align:left}
""".strip()


def table_html(table: Table) -> str:
    """One table (or its skip note) as an HTML fragment."""
    head = f"<h3>{html.escape(table.title)}</h3>\n"
    if table.skipped:
        return head + f'<p class="note skip">{html.escape(table.note)}</p>\n'
    body = display_frame(table).to_html(border=0, escape=True, na_rep=DASH, sparsify=True)
    note = f'<p class="note">{html.escape(table.note)}</p>\n' if table.note else ""
    return head + f'<div class="scroll">{body}</div>\n' + note


def figure_html(fig: FigureImage) -> str:
    """One figure as an ``<figure>`` with the PNG inlined (base64 data URI)."""
    b64 = base64.b64encode(fig.png).decode("ascii")
    cap = html.escape(fig.caption or fig.title)
    return (f'<figure id="fig-{html.escape(fig.key)}"><img alt="{html.escape(fig.title)}" '
            f'src="data:image/png;base64,{b64}"><figcaption><b>{html.escape(fig.title)}</b>. '
            f"{cap}</figcaption></figure>\n")


Part = tuple[str, Sequence[Table], Sequence[FigureImage]]


def render_html(title: str, parts: Sequence[Part], figures: Sequence[FigureImage] = (),
                meta: Mapping[str, str] | None = None) -> str:
    """The whole report as one self-contained HTML document: one section per
    ``(heading, tables, figures)`` part (a task), then ``figures`` (episode maps)."""
    parts_html = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                  f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style></head><body>",
                  f"<h1>{html.escape(title)}</h1>"]
    if meta:
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                       for k, v in meta.items())
        parts_html.append(f'<table class="meta">{rows}</table>')
    parts_html.append('<p class="note">Cells: value (n episodes). Rates in %, NE/ADO in m, CE in '
                      "cells per m; – = no episode defines the cell. One section per task.</p>")
    if len(parts) > 1:
        links = " · ".join(f'<a href="#sec-{k}">{html.escape(h)}</a>' for k, (h, _, _) in enumerate(parts))
        parts_html.append(f'<p class="note">{links}</p>')
    for k, (heading, tables, figs) in enumerate(parts):
        parts_html.append(f'<h2 id="sec-{k}">{html.escape(heading)}</h2>')
        parts_html += [table_html(t) for t in tables]
        parts_html += [figure_html(f) for f in figs]
    parts_html.append("<h2>Episode maps</h2>")
    if not figures:
        parts_html.append('<p class="note skip">no episode map could be drawn from these inputs</p>')
    parts_html += [figure_html(f) for f in figures]
    parts_html.append("</body></html>\n")
    return "\n".join(parts_html)
