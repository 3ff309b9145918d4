"""HTML markup of one report table that prints and captures whole: it wraps, or splits into
column groups, never needs a horizontal scroll bar.

Cells, headers and row labels wrap at spaces (``45.5 (11)`` over two lines) and inside words
longer than :data:`LONG` characters (:func:`breakable`); row labels are at most :data:`LABEL_EM`
wide. So a table's narrowest layout (its *min-content width*) is the sum over columns of the
widest unbreakable piece of text plus the cell padding. That width is
estimated here in em of the table font, conservatively (:data:`CHAR_EM` per character is wider
than the average glyph of the sans-serif fonts the page names); a table whose estimate exceeds
:data:`MAX_EM` is split into column groups of at most that width, each drawn as its own table
with the row labels repeated — whole top-level column groups (a source, a metric) stay
together where they fit. 58 em at 12 px is 696 px: an A4 page printed with 10 mm margins has
718 px, a 900 px wide window 852 px.

Header: one row per column level (the upper levels' names stand in the corner) and the row
labels' names in the corner of the last one, so no header row is empty. Row labels repeat
levels only where they change (``rowspan``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

#: Estimated advance of one character (em): above Liberation Sans / Arial / Helvetica's widest
#: digits (0.556 em) and their average letters, at the bold weight of the headers.
CHAR_EM = 0.64
#: Horizontal padding plus border of one cell (em): 2 × 7 px + 1 px at 12 px.
PAD_EM = 1.25
#: Widest column group (em of the table font).
MAX_EM = 58.0
#: Row labels (run names) are at most this wide (em; CSS ``span.lab``): longer ones wrap.
LABEL_EM = 16.0

Key = tuple[str, ...]
#: (row key, column key) → links ``(href, text)`` written after the cell's text.
Links = Mapping[tuple[Key, Key], Sequence[tuple[str, str]]]
#: A cell: plain text, or ``(value, interval, n)``, drawn as ``value (n)`` over a smaller
#: ``[lo, hi]`` line (either part may be empty).
Cell = str | tuple[str, str, str]


#: Words longer than this get a break opportunity (``<wbr>``) every :data:`PIECE` characters.
LONG = 20
PIECE = 10


def breakable(text: str) -> str:
    """``text`` escaped for HTML, with ``<wbr>`` every :data:`PIECE` characters inside words
    longer than :data:`LONG` (a run name or a path without spaces then wraps).

    >>> breakable("a<b " + "x" * 21)
    'a&lt;b xxxxxxxxxx<wbr>xxxxxxxxxx<wbr>x'
    """
    out = []
    for w in text.split(" "):
        if len(w) > LONG:
            out.append("<wbr>".join(html.escape(w[k:k + PIECE]) for k in range(0, len(w), PIECE)))
        else:
            out.append(html.escape(w))
    return " ".join(out)


def word_em(text: str) -> float:
    """Estimated width (em) of the widest unbreakable piece of ``text`` (a word; a piece of
    :data:`PIECE` characters of a longer one, see :func:`breakable`) plus padding.

    >>> word_em("45.5 (11)"), word_em(""), word_em("y" * 30)
    (3.81, 1.25, 7.65)
    """
    longest = max((len(w) if len(w) <= LONG else PIECE for w in text.split()), default=0)
    return round(longest * CHAR_EM + PAD_EM, 6)


def column_groups(col_em: Sequence[float], top: Sequence[str], label_em: float,
                  max_em: float = MAX_EM) -> list[list[int]]:
    """Split columns of widths ``col_em`` (em) into groups whose total with the row labels
    (``label_em``) stays within ``max_em``; columns with the same consecutive ``top`` label
    stay together unless they alone are too wide. Always at least one column per group.

    >>> column_groups([10, 10, 10, 10], ["a", "a", "b", "b"], 10, max_em=35)
    [[0, 1], [2, 3]]
    >>> column_groups([10, 10, 10], ["a", "a", "a"], 10, max_em=25)
    [[0], [1], [2]]
    """
    runs: list[list[int]] = []
    for j, t in enumerate(top):
        if runs and top[runs[-1][-1]] == t:
            runs[-1].append(j)
        else:
            runs.append([j])
    budget = max(max_em - label_em, 0.0)
    groups: list[list[int]] = []
    cur: list[int] = []
    used = 0.0

    def push(cols: list[int]) -> None:
        nonlocal cur, used
        w = sum(col_em[j] for j in cols)
        if cur and used + w > budget:
            groups.append(cur)
            cur, used = [], 0.0
        cur += cols
        used += w

    for run in runs:
        if sum(col_em[j] for j in run) <= budget:
            push(run)
        else:  # a top-level group wider than a page: column by column
            for j in run:
                push([j])
    if cur:
        groups.append(cur)
    return groups


def cell_em(cell: Cell) -> float:
    """Estimated min-content width (em) of a cell: its widest line (:func:`word_em`).

    >>> cell_em(("45.5", "[21.3, 72.0]", "(11)")) == word_em("[21.3, 72.0]")
    True
    """
    if isinstance(cell, str):
        return word_em(cell)
    value, interval, n = cell
    return max(word_em(f"{value} {n}"), word_em(interval))


def _cell(cell: Cell, links: Sequence[tuple[str, str]] = ()) -> str:
    if isinstance(cell, str):
        out = breakable(cell)
    else:
        value, interval, n = cell
        out = breakable(value)
        out += f' <span class="n">{html.escape(n)}</span>' if n else ""
        out += f'<br><span class="ci">{html.escape(interval)}</span>' if interval else ""
    if links:
        out += ' <sup class="eps">' + " ".join(
            f'<a href="{html.escape(h)}">{html.escape(t)}</a>' for h, t in links) + "</sup>"
    return out


def table_markup(rows: Sequence[Key], row_names: Sequence[str], cols: Sequence[Key],
                 col_names: Sequence[str], cells: Sequence[Sequence[Cell]], links: Links | None = None,
                 max_em: float = MAX_EM) -> str:
    """The table (rows × cols of :data:`Cell`) as one or more ``<table>`` elements.

    ``rows`` / ``cols`` are the row and column keys (one label per level), ``row_names`` and
    ``col_names`` the level names; ``links`` adds links after cells.
    """
    links = links or {}
    nlev = max((len(c) for c in cols), default=1)
    cols = [tuple(c) + ("",) * (nlev - len(c)) for c in cols]
    label_em = sum(min(max(word_em(r[k]) for r in [*rows, tuple(row_names)]), LABEL_EM + PAD_EM)
                   for k in range(len(row_names)))
    col_em = []
    for j, c in enumerate(cols):
        extra = max((len(links.get((r, c), ())) for r in rows), default=0) * 1.2
        col_em.append(max([word_em(c[-1]), *(cell_em(cells[i][j]) for i in range(len(rows)))])
                      + extra)
    groups = column_groups(col_em, [c[0] for c in cols] if nlev > 1 else [str(j) for j in range(len(cols))],
                           label_em, max_em)
    out = []
    for g, idx in enumerate(groups):
        cap = f"<caption>part {g + 1} of {len(groups)}</caption>" if len(groups) > 1 else ""
        out.append(f"<table>{cap}<thead>{_header(row_names, [cols[j] for j in idx], col_names)}"
                   f"</thead><tbody>{_body(rows, [cols[j] for j in idx], idx, cells, links)}"
                   "</tbody></table>")
    return "\n".join(out)


def _header(row_names: Sequence[str], cols: Sequence[Key], col_names: Sequence[str]) -> str:
    nlev = len(cols[0]) if cols else 1
    out = []
    for lev in range(nlev):
        if lev < nlev - 1:
            name = col_names[lev] if lev < len(col_names) else ""
            tr = [f'<th class="corner" colspan="{len(row_names)}">{breakable(name)}</th>']
        else:
            tr = [f'<th class="corner">{breakable(n)}</th>' for n in row_names]
        j = 0
        while j < len(cols):
            k = j + 1
            while lev < nlev - 1 and k < len(cols) and cols[k][: lev + 1] == cols[j][: lev + 1]:
                k += 1
            span = f' colspan="{k - j}"' if k - j > 1 else ""
            tr.append(f"<th{span}>{breakable(cols[j][lev])}</th>")
            j = k
        out.append("<tr>" + "".join(tr) + "</tr>")
    return "".join(out)


def _body(rows: Sequence[Key], cols: Sequence[Key], idx: Sequence[int], cells: Sequence[Sequence[Cell]],
          links: Links) -> str:
    out = []
    for i, r in enumerate(rows):
        tr = []
        for lev, label in enumerate(r):
            if i and rows[i - 1][: lev + 1] == r[: lev + 1]:
                continue  # covered by the rowspan above
            n = 1
            while i + n < len(rows) and rows[i + n][: lev + 1] == r[: lev + 1]:
                n += 1
            span = f' rowspan="{n}"' if n > 1 else ""
            tr.append(f'<th{span}><span class="lab">{breakable(label)}</span></th>')
        tr += [f"<td>{_cell(cells[i][j], links.get((r, c), ()))}</td>" for j, c in zip(idx, cols, strict=True)]
        out.append("<tr>" + "".join(tr) + "</tr>")
    return "".join(out)
