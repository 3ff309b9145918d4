"""Spatial relations and per-room scene graphs (CondVLN §3.1.3, SPEC §2)."""

from navbench.graph.relations import (
    ALL_PREDICATES,
    AZIMUTH_NAMES,
    CANONICAL_PREDICATES,
    DISTANCE_KINDS,
    ELEVATION_NAMES,
    SEMANTIC_PREDICATES,
    ObjectArrays,
    PairMetrics,
    canonical_name,
    pair_metrics,
)
from navbench.graph.scene_graph import (
    GRAPH_SCHEMA,
    RoomGeometry,
    SceneGraph,
    build_room_graph,
    build_scene_graph,
    write_scene_graph,
)
from navbench.graph.settings import GraphSettings

__all__ = [
    "ALL_PREDICATES",
    "AZIMUTH_NAMES",
    "CANONICAL_PREDICATES",
    "DISTANCE_KINDS",
    "ELEVATION_NAMES",
    "GRAPH_SCHEMA",
    "SEMANTIC_PREDICATES",
    "GraphSettings",
    "ObjectArrays",
    "PairMetrics",
    "RoomGeometry",
    "SceneGraph",
    "build_room_graph",
    "build_scene_graph",
    "canonical_name",
    "pair_metrics",
    "write_scene_graph",
]
