"""Paper-style tables of a dataset: counts by category, depth, chain length; path lengths."""

from __future__ import annotations

from collections import Counter

import numpy as np

from navbench.episodes.loader import Dataset
from navbench.jsontypes import JSONObject

#: Path-length histogram bin edges (m); the last bin is open.
LENGTH_BINS = (0.0, 2.5, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 50.0)


def dataset_tables(ds: Dataset) -> dict[str, list[JSONObject]]:
    """Tables (lists of row dicts) computed from the episode files themselves.

    ``episodes``: task × split counts with path-length mean/median;
    ``by_<key>``: counts per value of ``category``, ``depth``, ``chain_length``,
    ``object_category``, ``scene_kind``, ``goal_kind`` (route: object / place),
    ``stage_start`` (hybrid scenes: ``indoor``) (task × split × value);
    ``path_length``: histogram of ``geodesic_distance`` over :data:`LENGTH_BINS`.
    """
    tables: dict[str, list[JSONObject]] = {"episodes": [], "path_length": []}
    for task in ds.tasks:
        for split in ds.splits:
            eps = ds.episodes(task, split)
            L = np.array([e.geodesic_distance for e in eps], float)
            tables["episodes"].append({
                "task": task, "split": split, "episodes": len(eps),
                "scenes": len({e.navbench.get("scene", e.scene_id) for e in eps}),
                "mean_L": round(float(L.mean()), 2) if len(L) else None,
                "median_L": round(float(np.median(L)), 2) if len(L) else None,
            })
            for key in ("category", "depth", "chain_length", "object_category", "scene_kind", "goal_kind",
                        "stage_start"):
                c = Counter(str(e.navbench.get(key, e.object_category if key == "object_category" else None))
                            for e in eps)
                c.pop("None", None)
                for v, n in sorted(c.items()):
                    tables.setdefault(f"by_{key}", []).append({"task": task, "split": split, key: v, "episodes": n})
            edges = [*LENGTH_BINS, np.inf]
            h, _ = np.histogram(L, bins=edges)
            for lo, hi, n in zip(edges[:-1], edges[1:], h, strict=True):
                label = f"[{lo:g}, {hi:g})" if np.isfinite(hi) else f">= {lo:g}"
                tables["path_length"].append({"task": task, "split": split, "L (m)": label, "episodes": int(n)})
    return tables
