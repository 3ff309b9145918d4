"""The words a parser may accept as object and room labels (a scene's labels and synonyms).

A vocabulary file is either

* a navbench scene (``*.json``): the labels of its objects and rooms, or
* a text file, one entry a line (UTF-8; blank lines and ``#`` comments ignored)::

      # labels (object categories and room labels), lower-case
      sofa
      coffee table
      living room
      # synonyms: the word on the left is read as the label on the right
      couch = sofa
      lounge = living room

A synonym must name a label of the same file. Built-in synonyms (:data:`SYNONYMS`) apply too,
but only when their target is a label and the word itself is not (a scene that has a "couch"
keeps it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from navbench.errors import FormatError
from navbench.scene import load

#: Object and room synonyms, used only with a vocabulary (never changing a word the scene uses).
SYNONYMS: dict[str, str] = {
    "couch": "sofa", "settee": "sofa", "tv": "television", "telly": "television",
    "lounge": "living room", "sitting room": "living room", "restroom": "bathroom",
    "washroom": "bathroom", "hall": "hallway", "corridor": "hallway", "fridge": "refrigerator",
    "bookcase": "shelf", "cupboard": "cabinet", "plant pot": "plant", "potted plant": "plant",
    "dining area": "dining room", "study": "office", "toilet room": "bathroom",
}


@dataclass(frozen=True)
class Vocabulary:
    """Accepted labels and extra synonyms (word → label)."""

    labels: frozenset[str]
    synonyms: Mapping[str, str] = field(default_factory=dict)

    def resolve(self, word: str) -> str | None:
        """The label ``word`` stands for, or None when it is neither a label nor a synonym of one."""
        if word in self.labels:
            return word
        for table in (self.synonyms, SYNONYMS):
            target = table.get(word)
            if target is not None and target in self.labels:
                return target
        return None

    @classmethod
    def of(cls, words: Vocabulary | Iterable[str]) -> Vocabulary:
        """A vocabulary from itself or from an iterable of labels."""
        return words if isinstance(words, Vocabulary) else cls(frozenset(words))


def read_vocabulary(path: str | Path) -> Vocabulary:
    """Read a vocabulary file (format in the module docstring).

    Raises:
        FormatError: naming the file, the line and what was expected.
    """
    p = Path(path)
    if p.suffix.lower() == ".json":
        scene = load(p)
        return Vocabulary(frozenset(o.label for o in scene.objects) | {r.label for r in scene.rooms})
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(p, "file", "a readable UTF-8 text file of labels", type(e).__name__) from e
    labels: set[str] = set()
    synonyms: dict[str, tuple[str, int]] = {}
    for k, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip().lower()
        if not line:
            continue
        word, eq, target = (" ".join(s.split()) for s in line.partition("="))
        if not word or (eq and not target) or "=" in target:
            raise FormatError(p, f"line {k}", "'label' or 'word = label'", raw.strip())
        if eq:
            synonyms[word] = (target, k)
        else:
            labels.add(word)
    for word, (target, k) in synonyms.items():
        if target not in labels:
            raise FormatError(p, f"line {k}", f"a synonym of a label listed in the file ({target!r} is not)",
                              word)
    if not labels:
        raise FormatError(p, "file", "at least one label")
    return Vocabulary(frozenset(labels), {w: t for w, (t, _) in synonyms.items()})
