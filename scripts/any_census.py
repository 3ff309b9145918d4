#!/usr/bin/env python3
"""Count `Any` uses and `type: ignore` comments in a source tree (issue 21's typing census).

An `Any` use is a NAME token `Any` outside import statements (so `typing.Any`, `Any` in
annotations, casts and quoted annotations' code all count; `from typing import Any` does not).
A use is *commented* when its line, or the line above, carries a `#` comment, which is how the
project documents why data is untyped JSON.

Usage: python scripts/any_census.py [ROOT ...]   (default: src/navbench)
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

_IGNORE = re.compile(r"#\s*type:\s*ignore\b")


@dataclass
class Census:
    """Counts for one file or a whole tree."""

    any_uses: int = 0
    any_commented: int = 0
    type_ignores: int = 0

    def add(self, other: Census) -> None:
        """Accumulate another census into this one."""
        self.any_uses += other.any_uses
        self.any_commented += other.any_commented
        self.type_ignores += other.type_ignores


def count_source(text: str) -> Census:
    """Census of one module's source text."""
    out = Census()
    commented: set[int] = set()  # 1-based line numbers that carry a comment
    any_lines: list[int] = []
    in_import = False  # inside an import statement
    at_start = True  # the next code token starts a logical line
    layout = (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            commented.add(tok.start[0])
            if _IGNORE.search(tok.string):
                out.type_ignores += 1
            continue
        if tok.type == tokenize.NEWLINE:
            in_import, at_start = False, True
            continue
        if tok.type in layout:
            continue
        if at_start and tok.type == tokenize.NAME and tok.string in ("import", "from"):
            in_import = True
        elif tok.type == tokenize.NAME and tok.string == "Any" and not in_import:
            any_lines.append(tok.start[0])
        at_start = False
    out.any_uses = len(any_lines)
    out.any_commented = sum(1 for n in any_lines if n in commented or n - 1 in commented)
    return out


def count_tree(root: Path) -> tuple[Census, dict[Path, Census]]:
    """Census of every `*.py` under `root`: (total, per file)."""
    total = Census()
    per_file: dict[Path, Census] = {}
    for path in sorted(root.rglob("*.py")):
        c = count_source(path.read_text(encoding="utf-8"))
        per_file[path] = c
        total.add(c)
    return total, per_file


def main(argv: list[str]) -> int:
    """Print the totals, then the ten files with the most `Any` uses."""
    roots = [Path(a) for a in argv] or [Path("src/navbench")]
    for root in roots:
        total, per_file = count_tree(root)
        print(f"{root}: {total.any_uses} Any ({total.any_commented} with a comment), "
              f"{total.type_ignores} type: ignore, {len(per_file)} files")
        top = sorted(per_file.items(), key=lambda kv: -kv[1].any_uses)[:10]
        for path, c in top:
            if c.any_uses:
                print(f"  {c.any_uses:4d} Any  {c.type_ignores:3d} ignore  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
