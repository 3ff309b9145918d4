"""Read a dataset directory: :func:`load_dataset` → :class:`Dataset` (manifest, episodes, scenes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.episodes.layout import SCHEMA
from navbench.episodes.model import Episode
from navbench.errors import ConfigError, FormatError
from navbench.io import read_json
from navbench.jsontypes import JSON, JSONObject
from navbench.paths import inside

if TYPE_CHECKING:
    from navbench.nav import NavMesh
    from navbench.scene.model import Scene


@dataclass(frozen=True)
class Manifest:
    """``manifest.json`` of a dataset (see :mod:`navbench.episodes.dataset`).

    Attributes:
        seed: master seed; tasks: task folders; splits: split → scene ids;
        counts: task → split → counts by category/depth/...; files: task → split → paths;
        dropped: task → scene → reason → count; scenes: scene id → facts; raw: the whole document.
    """

    seed: int
    tasks: tuple[str, ...]
    splits: dict[str, list[str]]
    counts: JSONObject
    files: JSONObject
    dropped: JSONObject
    scenes: JSONObject
    raw: JSONObject = field(repr=False, hash=False)

    @classmethod
    def from_dict(cls, d: JSON, file: str = "<memory>") -> Manifest:
        """Validate the fields navbench reads; raises :class:`FormatError` naming the field."""
        if not isinstance(d, dict):
            raise FormatError(file, "<root>", "an object", type(d).__name__)
        if d.get("schema") != SCHEMA:
            raise FormatError(file, "schema", repr(SCHEMA), d.get("schema"))
        for k, typ in (("seed", int), ("tasks", list), ("splits", dict), ("counts", dict),
                       ("files", dict), ("dropped", dict), ("scenes", dict)):
            if not isinstance(d.get(k), typ):
                raise FormatError(file, k, f"a {typ.__name__}", d.get(k))
        for sid, info in d["scenes"].items():
            if not isinstance(info, dict) or not all(
                    isinstance(info.get(k), str) for k in ("scene", "navmesh")):
                raise FormatError(file, f"scenes.{sid}", "an object with 'scene' and 'navmesh' paths",
                                  info)
        for name, ids in d["splits"].items():
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise FormatError(file, f"splits.{name}", "a list of scene ids", ids)
        emb = d.get("embodiment")
        if emb is not None and not isinstance(emb, str):
            raise FormatError(file, "embodiment", "a robot name or null", emb)
        return cls(d["seed"], tuple(d["tasks"]), d["splits"], d["counts"], d["files"],
                   d["dropped"], d["scenes"], d)

    @property
    def embodiment(self) -> str | None:
        """The robot the dataset was built for (``None``: plain presets, or an older dataset)."""
        return self.raw.get("embodiment")

    def scene_embodiment(self, scene_id: str) -> str | None:
        """The robot the episodes of one scene were built for (per scene kind, see
        ``DatasetSettings.embodiment_by_kind``); falls back to :attr:`embodiment`."""
        info = self.scenes.get(scene_id, {})
        return info.get("embodiment", self.embodiment)


class Dataset:
    """A dataset directory opened for reading (episodes are read lazily and cached)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        mf = self.root / "manifest.json"
        if not mf.is_file():
            raise ConfigError(f"{self.root}: not a navbench dataset (manifest.json missing)")
        try:
            doc = read_json(mf)
        except (OSError, ValueError) as e:
            raise FormatError(mf, "<file>", "a readable UTF-8 JSON manifest", str(e)) from None
        self.manifest = Manifest.from_dict(doc, str(mf))
        self._episodes = lru_cache(maxsize=None)(self._read)

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task folders present (e.g. ``conditional``, ``conditional_oracle``, ``objectnav``)."""
        return self.manifest.tasks

    @property
    def splits(self) -> tuple[str, ...]:
        """Split names."""
        return tuple(self.manifest.splits)

    def path(self, task: str, split: str, kind: str = "episodes") -> Path:
        """Path of a task/split file (``kind`` = ``episodes`` or ``gt``)."""
        try:
            rel = self.manifest.files[task][split][kind]
        except (KeyError, TypeError):
            raise ConfigError(f"{self.root}: no {kind} file for task {task!r} split {split!r} "
                              f"(tasks: {list(self.tasks)}, splits: {list(self.splits)})") from None
        return inside(self.root, str(rel))

    def episodes(self, task: str, split: str) -> list[Episode]:
        """Episodes of a task and split (R2R or habitat ObjectNav files)."""
        return list(self._episodes(task, split))

    def _read(self, task: str, split: str) -> tuple[Episode, ...]:
        p = self.path(task, split)
        if task in ("objectnav", "placenav"):
            from navbench.episodes.habitat_objectnav import read_objectnav

            return tuple(read_objectnav(p))
        from navbench.episodes.vlnce import read_r2r

        return tuple(read_r2r(p))

    def gt(self, task: str, split: str) -> dict[str, JSONObject]:
        """GT locations/actions of an R2R task split, keyed by episode id."""
        from navbench.episodes.vlnce import read_gt

        return read_gt(self.path(task, split, "gt"))

    def scene_path(self, scene_id: str) -> Path:
        """``scenes/<id>/scene.json``."""
        if scene_id not in self.manifest.scenes:
            raise ConfigError(f"{self.root}: unknown scene {scene_id!r}")
        return inside(self.root, str(self.manifest.scenes[scene_id]["scene"]))

    def scene(self, scene_id: str) -> Scene:
        """Load a scene (:class:`navbench.scene.Scene`)."""
        from navbench.scene.io import load

        return load(self.scene_path(scene_id))

    def navmesh(self, scene_id: str) -> NavMesh:
        """Load a scene's navmesh (:class:`navbench.nav.NavMesh`)."""
        from navbench.nav import NavMesh

        if scene_id not in self.manifest.scenes:
            raise ConfigError(f"{self.root}: unknown scene {scene_id!r}")
        return NavMesh.load(inside(self.root, str(self.manifest.scenes[scene_id]["navmesh"])))


def load_dataset(path: str | Path) -> Dataset:
    """Open a dataset directory written by :func:`navbench.episodes.dataset.build_dataset`."""
    return Dataset(path)
