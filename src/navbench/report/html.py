"""Rendering of report tables and figures: markdown, CSV and one self-contained ``report.html``.

Cells read ``value [lo, hi] (n)`` (:mod:`navbench.report.cells`): rates in percent with one
decimal, other metrics with two decimals (NE and ADO in metres, CE in cells per metre), ``–``
where no episode defines the cell. CSV files keep the raw numbers (fractions, metres) with
``<column> n``, ``<column> lo`` and ``<column> hi`` columns per value column. The HTML embeds figures as base64 PNG and its CSS
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

from navbench.io import atomic_write_text
from navbench.report.cells import (
    cell_texts,
    column_kind,
    column_labels,
    display_frame,
    index_names,
    index_tuples,
    levels,
)
from navbench.report.html_table import Links, table_markup
from navbench.report.tables import Table


@dataclass(frozen=True)
class FigureImage:
    """A rendered figure: ``key`` (file stem), ``title``, PNG bytes, a caption and, when asked
    for, the same figure as vector files (``(extension, bytes)`` pairs: ``pdf``, ``svg``)."""

    key: str
    title: str
    png: bytes
    caption: str = ""
    vectors: tuple[tuple[str, bytes], ...] = ()


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
    header = index_names(d) + column_labels(d)
    out.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
    out.append("|" + "|".join(["---"] * len(index_names(d)) + ["---:"] * d.shape[1]) + "|")
    for idx, row in zip(index_tuples(d), d.itertuples(index=False), strict=True):
        out.append("| " + " | ".join(_md_escape(x) for x in (*idx, *row)) + " |")
    if table.note:
        out += ["", table.note]
    return "\n".join(out) + "\n"


def table_csv(table: Table) -> str:
    """CSV with index columns, then per value column its raw value (an integer in count
    columns), ``<column> n`` and, for columns with intervals, ``<column> lo`` and
    ``<column> hi`` (the 95% interval; empty where there is none) except in count and p-value
    columns."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if table.values is None or table.counts is None:
        w.writerow(["note"])
        w.writerow([table.note])
        return buf.getvalue()
    names = column_labels(table.values)
    vals, counts = table.values.to_numpy(dtype=float), table.counts.to_numpy()
    lo = None if table.lo is None else table.lo.to_numpy(dtype=float)
    hi = None if table.hi is None else table.hi.to_numpy(dtype=float)
    kinds = [column_kind(table, c) for c in table.values.columns]
    is_count = [k == "count" for k in kinds]
    has_ci = [k not in ("count", "p") for k in kinds]
    w.writerow([*index_names(table.values),
                *(x for nm, ci in zip(names, has_ci, strict=True)
                  for x in (nm, f"{nm} n", *((f"{nm} lo", f"{nm} hi") if ci else ())))])

    def num(x: float) -> str:
        return "" if math.isnan(x) else repr(x)

    for i, idx in enumerate(index_tuples(table.values)):
        cells: list[str] = []
        for j in range(table.values.shape[1]):
            v = float(vals[i, j])
            text = "" if math.isnan(v) else str(int(v)) if is_count[j] else repr(v)
            cells += [text, str(int(counts[i, j]))]
            if has_ci[j]:
                cells += ["" if lo is None else num(float(lo[i, j])),
                          "" if hi is None else num(float(hi[i, j]))]
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
div.tbl{overflow-x:auto;max-width:100%;margin:4px 0;display:flex;flex-wrap:wrap;column-gap:14px;align-items:flex-start}
table{border-collapse:collapse;font-size:12px;margin:0 0 6px}
caption{caption-side:top;text-align:left;font-size:11px;color:#666;padding:2px 0}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:right;white-space:normal}
th{background:#f0f3f7}tbody th{text-align:left;background:#fafafa}
span.lab{display:inline-block;max-width:16em}
th.corner{text-align:left;color:#555}
sup.eps{font-size:9px;white-space:nowrap}sup.eps a{text-decoration:none}
p.note{font-size:12px;color:#555;margin:4px 0 10px}p.skip{font-style:italic;color:#a33}
p.instr{font-size:13px;margin:4px 0 8px;max-width:70em}
ul.eps{font-size:12px;padding-left:18px}ul.eps a{margin:0 2px}span.n{color:#777}
figure{display:inline-block;margin:8px 12px 8px 0;vertical-align:top;max-width:100%}
figure img{max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:12px;color:#444;max-width:900px}
td span.n{color:#555}td span.ci{color:#666;font-size:11px}thead th[colspan]{text-align:center}th.level{text-align:right;font-weight:normal}
table.meta td,table.meta th{text-align:left;overflow-wrap:anywhere}table.meta th{white-space:nowrap}
@media print{
body{margin:0;max-width:none;font-size:11px}
div.tbl{overflow:visible;display:block}
table{font-size:10px;page-break-inside:auto}tr,img,figure{page-break-inside:avoid}
th,td{padding:2px 4px}
h2,h3{page-break-after:avoid}
a{color:inherit}
}
""".strip()


def table_html(table: Table, links: Links | None = None) -> str:
    """One table (or its skip note) as an HTML fragment: wrapping, split into column groups
    where it is too wide for a page (:mod:`navbench.report.html_table`); ``links`` go after
    cells (row key, column key)."""
    head = f"<h3>{html.escape(table.title)}</h3>\n"
    if table.skipped:
        return head + f'<p class="note skip">{html.escape(table.note)}</p>\n'
    assert table.values is not None
    d = table.values
    cells = [[(t.value, t.interval, t.n) for t in row] for row in cell_texts(table)]
    body = table_markup(index_tuples(d), index_names(d), [levels(c) for c in d.columns],
                        [str(n) if n is not None else "" for n in d.columns.names], cells, links)
    note = f'<p class="note">{html.escape(table.note)}</p>\n' if table.note else ""
    return head + f'<div class="tbl">{body}</div>\n' + note


def figure_html(fig: FigureImage) -> str:
    """One figure as an ``<figure>`` with the PNG inlined (base64 data URI)."""
    b64 = base64.b64encode(fig.png).decode("ascii")
    cap = html.escape(fig.caption or fig.title)
    return (f'<figure id="fig-{html.escape(fig.key)}"><img alt="{html.escape(fig.title)}" '
            f'src="data:image/png;base64,{b64}"><figcaption><b>{html.escape(fig.title)}</b>. '
            f"{cap}</figcaption></figure>\n")


Part = tuple[str, Sequence[Table], Sequence[FigureImage]]


def render_html(title: str, parts: Sequence[Part], figures: Sequence[FigureImage] = (),
                meta: Mapping[str, str] | None = None, *,
                links: Sequence[Mapping[str, Links]] | None = None,
                extras: Sequence[str] | None = None) -> str:
    """The whole report as one self-contained HTML document: one section per
    ``(heading, tables, figures)`` part (a task), then ``figures`` (episode maps). Per part,
    ``links`` (table key → cell links) go into its tables and ``extras`` (HTML) after them."""
    parts_html = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                  f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style></head><body>",
                  f"<h1>{html.escape(title)}</h1>"]
    if meta:
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                       for k, v in meta.items())
        parts_html.append(f'<table class="meta">{rows}</table>')
    parts_html.append('<p class="note">Cells: value (n episodes) and the 95% interval [lo, hi] '
                      "below it (each table's note names its method). Rates in %, NE/ADO in m, "
                      "CE in cells per m; – = no episode defines the cell. One section per task.</p>")
    if len(parts) > 1:
        toc = " · ".join(f'<a href="#sec-{k}">{html.escape(h)}</a>' for k, (h, _, _) in enumerate(parts))
        parts_html.append(f'<p class="note">{toc}</p>')
    for k, (heading, tables, figs) in enumerate(parts):
        parts_html.append(f'<h2 id="sec-{k}">{html.escape(heading)}</h2>')
        part_links = links[k] if links is not None and k < len(links) else {}
        parts_html += [table_html(t, part_links.get(t.key)) for t in tables]
        if extras is not None and k < len(extras) and extras[k]:
            parts_html.append(extras[k])
        parts_html += [figure_html(f) for f in figs]
    parts_html.append("<h2>Episode maps</h2>")
    if not figures:
        parts_html.append('<p class="note skip">no episode map could be drawn from these inputs</p>')
    parts_html += [figure_html(f) for f in figures]
    parts_html.append("</body></html>\n")
    return "\n".join(parts_html)
