"""Per-room spatial scene graphs (SPEC §2, CondVLN §3.1.3) and their node-link JSON export.

In memory each room is a :class:`networkx.DiGraph` with one room node and one node per
object. Edges: ``room → object`` with ``kind="contains"``, and for every ordered object pair
one edge ``subject → reference`` with ``kind="relation"`` that reads "subject is <p> reference"
for every ``p`` in its ``predicates`` list (the canonical predicate first, then the semantic
ones that pass their thresholds; ``predicate_types`` is the parallel list of
``"canonical"`` / ``"semantic"``), plus the metrics that produced them. The JSON export
flattens this into one edge record per predicate (a node-link multigraph).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np

from navbench.graph.relations import (
    AZIMUTH_NAMES,
    DISTANCE_KINDS,
    ELEVATION_NAMES,
    SEMANTIC_PREDICATES,
    ObjectArrays,
    PairMetrics,
    canonical_name,
    pair_metrics,
)
from navbench.graph.settings import GraphSettings
from navbench.io import write_json
from navbench.jsontypes import JSONObject
from navbench.scene.model import Room, Scene

GRAPH_SCHEMA = "navbench.graph/1"
_METRIC_KEYS = ("d_center", "d_sphere", "d_aabb", "d_used")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


@dataclass(frozen=True, eq=False)
class RoomGeometry:
    """The arrays behind one room graph (kept for fast vectorised queries by samplers)."""

    objects: ObjectArrays
    pairs: PairMetrics


def _room_edges(
    room: Room, objs: ObjectArrays, pm: PairMetrics
) -> Iterator[tuple[str, str, JSONObject]]:
    n = pm.n
    if n < 2:
        return
    ii, jj = np.nonzero(~np.eye(n, dtype=bool))
    sem = np.stack([pm.semantic[p][ii, jj] for p in SEMANTIC_PREDICATES], axis=1).tolist()
    cols = {
        k: getattr(pm, k)[ii, jj].tolist() for k in _METRIC_KEYS
    }
    kinds = pm.used_kind[ii, jj].tolist()
    az = pm.azimuth_bin[ii, jj].tolist()
    el = pm.elevation_bin[ii, jj].tolist()
    ids = objs.ids
    for k, (i, j) in enumerate(zip(ii.tolist(), jj.tolist(), strict=True)):
        preds = [canonical_name(az[k], el[k])]
        preds += [p for p, on in zip(SEMANTIC_PREDICATES, sem[k], strict=True) if on]
        yield ids[j], ids[i], {
            "kind": "relation",
            "subject": ids[j],
            "reference": ids[i],
            "predicates": preds,
            "predicate_types": ["canonical"] + ["semantic"] * (len(preds) - 1),
            "d_center": _num(cols["d_center"][k]),
            "d_sphere": _num(cols["d_sphere"][k]),
            "d_aabb": _num(cols["d_aabb"][k]),
            "d_used": _num(cols["d_used"][k]),
            "d_used_kind": DISTANCE_KINDS[kinds[k]],
            "azimuth_bin": AZIMUTH_NAMES[az[k]],
            "elevation_bin": ELEVATION_NAMES[el[k]],
        }


def build_room_graph(
    scene: Scene, room: Room | str, settings: GraphSettings | None = None
) -> nx.DiGraph[str]:
    """The directed scene graph of one room (see the module docstring for its layout)."""
    return _build_room(scene, room, settings)[0]


def _build_room(
    scene: Scene, room: Room | str, settings: GraphSettings | None
) -> tuple[nx.DiGraph[str], RoomGeometry]:
    if isinstance(room, str):
        if room not in scene.room_index:
            raise KeyError(f"scene {scene.id!r} has no room {room!r}")
        room = scene.room_index[room]
    objects = scene.objects_in(room.id)
    objs = ObjectArrays.from_objects(objects)
    pm = pair_metrics(objs, settings)
    g: nx.DiGraph[str] = nx.DiGraph(room_id=room.id, room_label=room.label)
    g.add_node(room.id, kind="room", label=room.label, floor_y=room.floor_y, height=room.height)
    for o in objects:
        b = o.bounds
        g.add_node(
            o.id,
            kind="object",
            label=o.label,
            center=[_num(v) for v in o.center],
            aabb=None if b is None else [[_num(v) for v in b[0]], [_num(v) for v in b[1]]],
            radius=None if o.extent_radius is None else _num(o.extent_radius),
            radius_given=o.radius is not None,
        )
        g.add_edge(room.id, o.id, kind="contains")
    g.add_edges_from(_room_edges(room, objs, pm))
    return g, RoomGeometry(objs, pm)


@dataclass(frozen=True, eq=False)
class SceneGraph:
    """All room graphs of a scene.

    Attributes:
        scene_id: the scene's id.
        settings: thresholds used.
        rooms: room id → :class:`networkx.DiGraph` (scene room order).
        geometry: room id → the arrays the graph was built from.
    """

    scene_id: str
    settings: GraphSettings
    rooms: dict[str, nx.DiGraph[str]]
    geometry: dict[str, RoomGeometry]

    def relations(self, room_id: str) -> list[JSONObject]:
        """One flat record per (subject, predicate, reference) in a room, with its metrics."""
        out = []
        for _u, _v, d in self.rooms[room_id].edges(data=True):
            if d["kind"] != "relation":
                continue
            base = {k: v for k, v in d.items() if k not in ("predicates", "predicate_types", "kind")}
            for p, t in zip(d["predicates"], d["predicate_types"], strict=True):
                out.append({**base, "predicate": p, "predicate_type": t})
        return out

    def to_json(self) -> JSONObject:
        """Node-link JSON: per room ``{"directed", "multigraph", "graph", "nodes", "edges"}``.

        Relation edges are flattened to one record per predicate with ``key`` = predicate, so
        ``networkx.node_link_graph(room_doc, edges="edges")`` gives a ``MultiDiGraph``.
        """
        rooms: JSONObject = {}
        for rid, g in self.rooms.items():
            nodes = [{"id": n, **d} for n, d in g.nodes(data=True)]
            edges: list[JSONObject] = []
            for u, v, d in g.edges(data=True):
                if d["kind"] == "contains":
                    edges.append({"source": u, "target": v, "key": "contains", "kind": "contains"})
                    continue
                base = {k: x for k, x in d.items() if k not in ("predicates", "predicate_types")}
                for p, t in zip(d["predicates"], d["predicate_types"], strict=True):
                    edges.append(
                        {"source": u, "target": v, "key": p, **base, "predicate": p,
                         "predicate_type": t}
                    )
            rooms[rid] = {
                "directed": True,
                "multigraph": True,
                "graph": dict(g.graph),
                "nodes": nodes,
                "edges": edges,
            }
        return {
            "schema": GRAPH_SCHEMA,
            "scene_id": self.scene_id,
            "settings": self.settings.to_dict(),
            "rooms": rooms,
        }


def build_scene_graph(scene: Scene, settings: GraphSettings | None = None) -> SceneGraph:
    """Build the graph of every room of ``scene`` (objects without a known room are skipped).

    Parameters
    ----------
    scene : Scene
        Rooms and objects (centres and sizes in m, Habitat frame).
    settings : GraphSettings, optional
        Relation thresholds (``near_max`` 1.0 m, ``far_min`` 3.0 m, ...); default
        :class:`GraphSettings`.

    Returns
    -------
    SceneGraph
        One :class:`networkx.DiGraph` per room (room and object nodes; ``contains`` and
        relation edges), the arrays they were built from, and :meth:`SceneGraph.relations`
        as flat records (CondVLN §3.1.3).

    Examples
    --------
    A chair 1.2 m east of a table: their boxes are 0.45 m apart (x 0.5–1.5 and 1.95–2.45),
    within ``near_max``, so each is ``near`` the other, and the compass predicate follows the
    azimuth (east = +X):

    >>> from navbench.graph import build_scene_graph
    >>> from navbench.scene import Room, Scene, SceneObject
    >>> room = Room("r0", "kitchen", ((0, 0), (4, 0), (4, -4), (0, -4)), 0.0, 2.7)
    >>> table = SceneObject("o0", "table", (1.0, 0.4, -2.0), "r0", size=(1.0, 0.8, 0.6))
    >>> chair = SceneObject("o1", "chair", (2.2, 0.45, -2.0), "r0", size=(0.5, 0.9, 0.5))
    >>> g = build_scene_graph(Scene("k", "indoor", "handmade", rooms=(room,), objects=(table, chair)))
    >>> sorted(g.rooms["r0"].nodes)
    ['o0', 'o1', 'r0']
    >>> [(r["subject"], r["predicate"], r["reference"], r["d_used"]) for r in g.relations("r0")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('o0', 'west of', 'o1', 0.45), ('o0', 'near', 'o1', 0.45),
     ('o1', 'east of', 'o0', 0.45), ('o1', 'near', 'o0', 0.45)]
    """
    s = settings or GraphSettings()
    rooms: dict[str, nx.DiGraph[str]] = {}
    geometry: dict[str, RoomGeometry] = {}
    for room in scene.rooms:
        rooms[room.id], geometry[room.id] = _build_room(scene, room, s)
    return SceneGraph(scene.id, s, rooms, geometry)


def write_scene_graph(path: str | Path, graph: SceneGraph) -> Path:
    """Write :meth:`SceneGraph.to_json` atomically as canonical JSON."""
    return write_json(path, graph.to_json())
