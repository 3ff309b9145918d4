"""Cell text and header layout of report tables, shared by the Markdown, HTML and LaTeX writers.

A cell reads ``value [lo, hi] (n)``: the mean, its 95% interval (Wilson score for binary rates,
percentile bootstrap over episodes for other means; the table's note names the method per
column) and the number of episodes behind it. Rates are in percent with one decimal, other
metrics with two decimals (NE and ADO in metres, CE in cells per metre); ``–`` where no episode
defines the cell, no interval where there is none (a mean over one episode). Share columns read
``pct% [lo, hi] (count)``, p-value columns ``0.031`` (``<0.001`` below 0.001), seed-spread
columns ``mean ± sd (seeds)``, count columns the count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from navbench.report.tables import P_COL, RATES, SD_COL, Table

DASH = "–"
#: Columns (any header level) that hold plain counts, shown and written as integers.
COUNT_COLS = ("episodes", "excluded", "crashed", "seeds")


@dataclass(frozen=True)
class CellText:
    """The parts of one cell's text: ``value``, ``interval`` (``"[lo, hi]"`` or ``""``) and
    ``n`` (``"(n)"`` or ``""``)."""

    value: str
    interval: str = ""
    n: str = ""

    def __str__(self) -> str:
        return " ".join(p for p in (self.value, self.interval, self.n) if p)


def levels(col: object) -> tuple[str, ...]:
    """Header labels of a column, top level first."""
    return tuple(str(c) for c in col) if isinstance(col, tuple) else (str(col),)


def column_kind(table: Table, col: object) -> str:
    """``count`` | ``p`` | ``sd`` | ``share`` | ``rate`` | ``number``: how a column is shown."""
    lv = levels(col)
    if any(x in COUNT_COLS for x in lv):
        return "count"
    if lv[-1] == P_COL:
        return "p"
    if lv[-1] == SD_COL:
        return "sd"
    if lv[-1] in table.share_cols:
        return "share"
    return "rate" if any(x in RATES for x in lv) else "number"


def p_text(p: float) -> str:
    """A p-value with three decimals, ``<0.001`` below 0.001."""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def cell_text(table: Table, col: object, value: float, n: int, lo: float = math.nan,
              hi: float = math.nan) -> CellText:
    """Text of one cell (see the module docstring)."""
    kind = column_kind(table, col)
    if kind == "count":
        return CellText(str(int(n)))
    if math.isnan(value):
        return CellText(str(int(n)) if kind == "share" else DASH)
    if kind == "p":
        return CellText(p_text(value))
    pct = kind in ("rate", "share") or any(x in RATES for x in levels(col))
    scale, fmt = (100.0, "{:.1f}") if pct else (1.0, "{:.2f}")

    def num(x: float) -> str:
        t = fmt.format(scale * x)
        return t[1:] if t.startswith("-") and float(t) == 0 else t  # no "-0.0"

    has = not (math.isnan(lo) or math.isnan(hi))
    if kind == "sd":
        return CellText(num(value) + (f" ± {num(hi - value)}" if has else ""), "", f"({int(n)})")
    sign = "%" if kind == "share" else ""
    return CellText(num(value) + sign, f"[{num(lo)}, {num(hi)}]" if has else "", f"({int(n)})")


def format_cell(table: Table, col: object, value: float, n: int, lo: float = math.nan,
                hi: float = math.nan) -> str:
    """Display text of one cell: ``str`` of :func:`cell_text`."""
    return str(cell_text(table, col, value, n, lo, hi))


def cell_texts(table: Table) -> list[list[CellText]]:
    """:func:`cell_text` of every cell, row by row."""
    if table.values is None or table.counts is None:
        raise ValueError(f"table {table.key} was skipped: {table.note}")
    v, c = table.values.to_numpy(dtype=float), table.counts.to_numpy()
    shape = v.shape
    lo = table.lo.to_numpy(dtype=float) if table.lo is not None else None
    hi = table.hi.to_numpy(dtype=float) if table.hi is not None else None
    return [[cell_text(table, col, float(v[i, j]), int(c[i, j]),
                       math.nan if lo is None else float(lo[i, j]),
                       math.nan if hi is None else float(hi[i, j]))
             for j, col in enumerate(table.values.columns)] for i in range(shape[0])]


def display_frame(table: Table) -> pd.DataFrame:
    """The table as strings, same index and columns as ``table.values``."""
    data = [[str(x) for x in row] for row in cell_texts(table)]
    assert table.values is not None
    return pd.DataFrame(data, index=table.values.index, columns=table.values.columns)


def index_tuples(df: pd.DataFrame) -> list[tuple[str, ...]]:
    """Row labels, one tuple per row."""
    return [levels(i) for i in df.index]


def index_names(df: pd.DataFrame) -> list[str]:
    """Names of the row-label columns (``run``, ``category``, ...)."""
    return [str(n) if n is not None else "" for n in df.index.names]


def column_labels(df: pd.DataFrame) -> list[str]:
    """One label per column: its header levels joined by `` / `` (empty levels left out)."""
    return [" / ".join(x for x in levels(c) if x) for c in df.columns]
