"""Exception hierarchy. Every error a user can cause is a :class:`NavbenchError`.

The CLI prints the message of a ``NavbenchError`` (no traceback) and exits with status 2,
so messages must say *which file*, *which field* and *what was expected*.
"""

from __future__ import annotations

from pathlib import Path


class NavbenchError(Exception):
    """Base class of every error navbench raises on bad input or bad configuration.

    The message is always one line: line breaks that came in with user data (a JSON key, a
    file name) are shown escaped, so the CLI's one-line error stays one line.
    """

    def __str__(self) -> str:
        return super().__str__().replace("\r", "\\r").replace("\n", "\\n")


class FormatError(NavbenchError):
    """A file does not follow its format.

    Args:
        file: the offending file (or a description such as ``"<memory>"``).
        field: JSON path (``objects[12].center``) or record name of the first problem.
        expected: what the field should have been.
        got: a short description of what was found (optional).
    """

    def __init__(self, file: str | Path, field: str, expected: str, got: object = None) -> None:
        self.file = str(file)
        self.field = field
        self.expected = expected
        self.got = got
        msg = f"{self.file}: field '{field}': expected {expected}"
        if got is not None:
            text = repr(got)
            if len(text) > 80:
                text = text[:77] + "..."
            msg += f", got {text}"
        super().__init__(msg)


class SceneFormatError(FormatError):
    """A ``scene.json`` (or an imported source file) is malformed."""


class EpisodeFormatError(FormatError):
    """An episode, dataset or prediction file is malformed."""


class ConfigError(NavbenchError):
    """Invalid settings or command-line options."""


class MissingDependencyError(NavbenchError):
    """An optional Python package or a system library is missing; the message says how to get it."""


class InterruptedRunError(NavbenchError):
    """A run was stopped by Ctrl-C (or SIGTERM); the message says what was saved and how to
    resume. The CLI exits with status 130 for it."""


def in_words(e: BaseException) -> str:
    """What a Python exception raised while reading a file means, in words, for the ``got`` of
    a :class:`FormatError` (a class name such as ``KeyError: 'x'`` or ``AssertionError: ''``
    tells a user nothing)."""
    text = str(e).strip().splitlines()[0][:120] if str(e).strip() else ""
    if isinstance(e, KeyError):
        return f"no field {text}" if text else "a missing field"
    if isinstance(e, IndexError):
        return f"a list too short or an index out of range ({text or 'no detail'})"
    if isinstance(e, (TypeError, AttributeError)):
        return f"a value of the wrong type ({text or 'no detail'})"
    if isinstance(e, UnicodeDecodeError):
        return "text that is not UTF-8"
    if isinstance(e, RecursionError):
        return "too deeply nested data"
    if isinstance(e, (ValueError, ArithmeticError)):
        return f"a value out of range or unparsable ({text or 'no detail'})"
    if isinstance(e, FileNotFoundError):
        return f"a missing file ({e.filename or text or '?'})"
    if isinstance(e, (EOFError, MemoryError)):
        return "truncated or oversized data"
    if isinstance(e, SyntaxError):
        return "a header that is not a Python literal"
    return text or "unreadable data"
