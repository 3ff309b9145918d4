"""Spatial relations and per-room scene graphs (CondVLN §3.1.3, SPEC §2)."""

from navbench.graph.relations import (
    ALL_PREDICATES,
    AZIMUTH_NAMES,
    CANONICAL_PREDICATES,
    DISTANCE_KINDS,
    ELEVATION_NAMES,
    PREDICATE_PHRASES,
    SEMANTIC_PREDICATES,
    ObjectArrays,
    PairMetrics,
    canonical_name,
    pair_metrics,
    predicate_phrase,
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
    "PREDICATE_PHRASES",
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
    "predicate_phrase",
    "write_scene_graph",
]
