#!/usr/bin/env python3
"""Count `Any` uses and `type: ignore` comments in a source tree (issue 21's typing census).

An `Any` use is a NAME token `Any` outside import statements (so `typing.Any`, `Any` in
annotations, casts and quoted annotations' code all count; `from typing import Any` does not).
A use is *commented* when its line, or the line above, carries a `#` comment, which is how the
project documents why data is untyped JSON.

An *alias* is a module-level assignment whose value spells `Any` and whose line carries a comment,
such as `JSON: TypeAlias = Any  # untyped JSON value` in `navbench/jsontypes.py`. Its definition
counts as a commented `Any` use; every use of the alias name elsewhere in the tree counts once
under "alias uses" (the alias' comment documents them), not as an `Any` use.

Usage: python scripts/any_census.py [--by-package] [ROOT ...]   (default: src/navbench)
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
    alias_uses: int = 0

    def add(self, other: Census) -> None:
        """Accumulate another census into this one."""
        self.any_uses += other.any_uses
        self.any_commented += other.any_commented
        self.type_ignores += other.type_ignores
        self.alias_uses += other.alias_uses


def _names(text: str) -> list[tuple[str, int, bool]]:
    """(name, line, inside an import statement) for every NAME token of a module."""
    out: list[tuple[str, int, bool]] = []
    in_import, at_start = False, True
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NEWLINE:
            in_import, at_start = False, True
            continue
        if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
                        tokenize.COMMENT):
            continue
        if at_start and tok.type == tokenize.NAME and tok.string in ("import", "from"):
            in_import = True
        if tok.type == tokenize.NAME:
            out.append((tok.string, tok.start[0], in_import))
        at_start = False
    return out


_ALIAS = re.compile(r"^([A-Za-z_]\w*)\s*(?::\s*TypeAlias\s*)?=\s*[^#\n]*\bAny\b[^#\n]*#")


def find_aliases(text: str) -> set[str]:
    """Module-level names assigned a type that spells `Any`, with a comment on the same line."""
    return {m.group(1) for line in text.splitlines() if (m := _ALIAS.match(line))}


def count_alias_uses(text: str, aliases: set[str]) -> int:
    """Uses of the alias names outside import statements and outside their own definitions."""
    defined = {n for n in find_aliases(text)}
    lines = text.splitlines()
    uses = 0
    for name, line, in_import in _names(text):
        if name not in aliases or in_import:
            continue
        if name in defined and _ALIAS.match(lines[line - 1] or "") and \
                lines[line - 1].startswith(name):
            continue
        uses += 1
    return uses


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


def count_tree(root: Path) -> tuple[Census, dict[Path, Census], set[str]]:
    """Census of every `*.py` under `root`: (total, per file, alias names)."""
    texts = {path: path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.py"))}
    aliases: set[str] = set()
    for text in texts.values():
        aliases |= find_aliases(text)
    total = Census()
    per_file: dict[Path, Census] = {}
    for path, text in texts.items():
        c = count_source(text)
        c.alias_uses = count_alias_uses(text, aliases)
        per_file[path] = c
        total.add(c)
    return total, per_file, aliases


def _line(name: str, c: Census) -> str:
    return (f"{name}: {c.any_uses} Any ({c.any_commented} with a comment, "
            f"{c.any_uses - c.any_commented} without), {c.alias_uses} alias uses, "
            f"{c.type_ignores} type: ignore")


def main(argv: list[str]) -> int:
    """Print the totals, then per package (`--by-package`) or the ten files with the most
    uncommented `Any` uses."""
    by_package = "--by-package" in argv
    roots = [Path(a) for a in argv if a != "--by-package"] or [Path("src/navbench")]
    for root in roots:
        total, per_file, aliases = count_tree(root)
        print(_line(str(root), total) + f", {len(per_file)} files")
        print(f"  aliases: {', '.join(sorted(aliases)) or '-'}")
        if by_package:
            packages: dict[str, Census] = {}
            for path, c in per_file.items():
                rel = path.relative_to(root).parts
                packages.setdefault(rel[0] if len(rel) > 1 else "(top)", Census()).add(c)
            for name, c in sorted(packages.items()):
                print("  " + _line(name, c))
            continue
        top = sorted(per_file.items(), key=lambda kv: -(kv[1].any_uses - kv[1].any_commented))
        for path, c in top[:10]:
            if c.any_uses > c.any_commented:
                print(f"  {c.any_uses - c.any_commented:4d} uncommented Any  "
                      f"{c.type_ignores:3d} ignore  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
