"""Constants and helpers of the dataset layout shared by the builder
(:mod:`navbench.episodes.dataset`), the writer (:mod:`.writer`) and the reader (:mod:`.loader`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from navbench import __version__
from navbench.episodes.model import Episode
from navbench.episodes.task_spec import TASK_SPECS
from navbench.jsontypes import JSONObject

SCHEMA = "navbench.dataset/1"
GENERATOR = f"navbench.dataset/{__version__}"
#: Tasks written in the VLN-CE R2R format (with ``_gt`` files), from :data:`TASK_SPECS`.
R2R_TASKS: tuple[str, ...] = tuple(t.name for t in TASK_SPECS if t.episode_format == "r2r")
GROUP_KEYS = ("category", "depth", "chain_length", "scene_kind", "object_category", "horizon",
              "cross_room", "goal_kind", "stage_start")


def renumber(eps: Sequence[tuple[Episode, JSONObject | None]]
             ) -> list[tuple[Episode, JSONObject | None]]:
    """Ids ``0..n-1`` (also ``trajectory_id``); the old id goes to ``info.navbench.source_id``."""
    out = []
    for i, (e, gt) in enumerate(eps):
        info = dict(e.info)
        info["navbench"] = {**e.navbench, "source_id": e.episode_id}
        out.append((replace(e, episode_id=str(i), trajectory_id=i, info=info), gt))
    return out


def group_counts(eps: Sequence[Episode]) -> JSONObject:
    """Counts by the grouping keys of ``info.navbench`` present in the episodes."""
    out: JSONObject = {"total": len(eps)}
    for k in GROUP_KEYS:
        vals = [e.navbench.get(k, e.object_category if k == "object_category" else None) for e in eps]
        c = Counter(str(v).lower() if isinstance(v, bool) else str(v) for v in vals if v is not None)
        if c:
            out[f"by_{k}"] = dict(sorted(c.items()))
    lengths = np.array([e.geodesic_distance for e in eps], float)
    if len(lengths):
        q = np.quantile(lengths, [0.0, 0.25, 0.5, 0.75, 1.0])
        out["geodesic_distance"] = {"mean": round(float(lengths.mean()), 4),
                                    **{n: round(float(v), 4) for n, v in zip(("min", "q25", "median", "q75", "max"), q, strict=True)}}
    return out
