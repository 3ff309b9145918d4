"""Streaming OpenStreetMap reader: ``.osm`` XML (also ``.osm.gz`` / ``.osm.bz2``) with the
standard library's expat, ``.pbf`` with pyosmium (optional extra ``navbench[osm]``).

The XML path never builds a tree: elements are handled as they stream by, node coordinates go
into compact arrays (24 bytes a node), tags are kept only for nodes that carry a key the
importer uses (:data:`NODE_KEYS`), and ways keep their node references as ``int64`` arrays.
Hostile XML is refused: any document type declaration (DTD), entity declaration or external
entity reference stops the parse (OSM files never have one), so entity expansion ("billion
laughs") and external fetches cannot happen.

Limits (:data:`MAX_NODES`, :data:`MAX_WAYS`, :data:`MAX_RELATIONS`): a file with more elements
is refused with a message naming the limit and how to cut a window (``--bbox`` keeps only the
nodes within :data:`BBOX_MARGIN_M` of the window, so a large extract can be cut without
holding all of it).
"""

from __future__ import annotations

import bz2
import gzip
import math
import xml.parsers.expat
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from navbench.errors import MissingDependencyError, SceneFormatError

#: Nodes kept (inside the bbox and its margin when one is given) before the reader refuses.
MAX_NODES = 5_000_000
#: Ways kept before the reader refuses.
MAX_WAYS = 1_000_000
#: Relations kept before the reader refuses.
MAX_RELATIONS = 200_000
#: With a bbox, nodes farther than this (m) outside it are not stored.
BBOX_MARGIN_M = 300.0
#: Node keys whose tags are kept (places, crossings, stops, street furniture).
NODE_KEYS = frozenset({
    "shop", "amenity", "office", "tourism", "leisure", "craft", "highway", "public_transport",
    "crossing", "railway", "natural", "emergency", "man_made", "barrier", "entrance",
})
#: Relation types the importer assembles (areas with holes).
AREA_RELATIONS = frozenset({"multipolygon"})


@dataclass
class Way:
    """An OSM way: id, tags and the ids of its nodes in order."""

    id: int
    tags: dict[str, str]
    refs: np.ndarray


@dataclass
class Relation:
    """An OSM relation: id, tags and ``(type, ref, role)`` members."""

    id: int
    tags: dict[str, str]
    members: list[tuple[str, int, str]]


@dataclass
class OsmData:
    """What the importer needs from a file.

    Attributes:
        node_ids: ids of the stored nodes, sorted (int64).
        node_lonlat: ``(N, 2)`` longitude, latitude (degrees) in ``node_ids`` order.
        node_tags: tags of the nodes that carry a key of :data:`NODE_KEYS`.
        ways, relations: every way and every ``multipolygon`` relation.
        bounds: the file's ``<bounds>`` (min_lon, min_lat, max_lon, max_lat), if any.
        dropped_nodes: nodes skipped because they lie outside the bbox margin.
    """

    node_ids: np.ndarray
    node_lonlat: np.ndarray
    node_tags: dict[int, dict[str, str]]
    ways: list[Way]
    relations: list[Relation]
    bounds: tuple[float, float, float, float] | None = None
    dropped_nodes: int = 0

    def lookup(self, refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(lonlat (K, 2), found (K,) bool)`` of node ids ``refs`` (missing rows are NaN)."""
        refs = np.asarray(refs, dtype=np.int64)
        if not len(self.node_ids):
            return np.full((len(refs), 2), np.nan), np.zeros(len(refs), bool)
        i = np.searchsorted(self.node_ids, refs).clip(0, len(self.node_ids) - 1)
        found = self.node_ids[i] == refs
        out = np.where(found[:, None], self.node_lonlat[i], np.nan)
        return out, found


@dataclass
class _Builder:
    """Accumulates elements while a file streams by (shared by the XML and PBF readers)."""

    path: Path
    window: tuple[float, float, float, float] | None
    ids: array[int] = field(default_factory=lambda: array("q"))
    lon: array[float] = field(default_factory=lambda: array("d"))
    lat: array[float] = field(default_factory=lambda: array("d"))
    node_tags: dict[int, dict[str, str]] = field(default_factory=dict)
    ways: list[Way] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    bounds: tuple[float, float, float, float] | None = None
    dropped: int = 0

    def node(self, nid: int, lon: float, lat: float, tags: dict[str, str] | None) -> None:
        if not (-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0):
            raise SceneFormatError(self.path, f"node {nid}.lat/lon",
                                   "lon in [-180, 180] and lat in [-90, 90] (degrees)", (lon, lat))
        w = self.window
        if w is not None and not (w[0] <= lon <= w[2] and w[1] <= lat <= w[3]):
            self.dropped += 1
            return
        if len(self.ids) >= MAX_NODES:
            raise SceneFormatError(self.path, "<file>", f"at most {MAX_NODES:,} nodes (the importer's "
                                   "limit; cut a window with --bbox or `osmium extract -b`)", "more")
        self.ids.append(nid)
        self.lon.append(lon)
        self.lat.append(lat)
        if tags and not NODE_KEYS.isdisjoint(tags):
            self.node_tags[nid] = tags

    def way(self, wid: int, tags: dict[str, str], refs: array[int]) -> None:
        if len(self.ways) >= MAX_WAYS:
            raise SceneFormatError(self.path, "<file>", f"at most {MAX_WAYS:,} ways (cut a window with "
                                   "--bbox or `osmium extract -b`)", "more")
        self.ways.append(Way(wid, tags, np.frombuffer(refs, dtype=np.int64).copy() if len(refs)
                             else np.zeros(0, np.int64)))

    def relation(self, rid: int, tags: dict[str, str], members: list[tuple[str, int, str]]) -> None:
        if tags.get("type") not in AREA_RELATIONS:
            return
        if len(self.relations) >= MAX_RELATIONS:
            raise SceneFormatError(self.path, "<file>", f"at most {MAX_RELATIONS:,} multipolygon "
                                   "relations (cut a window with --bbox)", "more")
        self.relations.append(Relation(rid, tags, members))

    def done(self) -> OsmData:
        ids = np.frombuffer(self.ids, dtype=np.int64) if len(self.ids) else np.zeros(0, np.int64)
        ll = np.c_[np.frombuffer(self.lon, dtype=np.float64), np.frombuffer(self.lat, dtype=np.float64)] \
            if len(self.ids) else np.zeros((0, 2))
        order = np.argsort(ids, kind="stable")
        ids, ll = ids[order], ll[order]
        if len(ids) > 1:  # a duplicate id: the last one in the file wins (as osmium's index does)
            last = np.r_[ids[1:] != ids[:-1], True]
            ids, ll = ids[last], ll[last]
        return OsmData(ids, ll, self.node_tags, self.ways, self.relations, self.bounds, self.dropped)


def window_of(bbox: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
    """``bbox`` grown by :data:`BBOX_MARGIN_M` on every side (degrees), or ``None``."""
    if bbox is None:
        return None
    lat0 = math.radians((bbox[1] + bbox[3]) / 2)
    dlat = math.degrees(BBOX_MARGIN_M / 6_371_008.8)
    dlon = dlat / max(math.cos(lat0), 1e-6)
    return (bbox[0] - dlon, bbox[1] - dlat, bbox[2] + dlon, bbox[3] + dlat)


def read_osm(path: str | Path, bbox: tuple[float, float, float, float] | None = None) -> OsmData:
    """Stream ``path`` (``.osm``/``.osm.xml``/``.osm.gz``/``.osm.bz2`` or ``.pbf``) into
    :class:`OsmData`; with ``bbox`` (degrees) only nodes near it are kept."""
    path = Path(path)
    if not path.is_file():
        raise SceneFormatError(path, "<file>", "an existing OSM file")
    b = _Builder(path, window_of(bbox))
    name = path.name.lower()
    if name.endswith((".pbf", ".o5m")):
        _read_pbf(path, b)
    else:
        opener: Callable[..., IO[bytes]] = (gzip.open if name.endswith(".gz")  # type: ignore[assignment]
                                            else bz2.open if name.endswith(".bz2") else open)
        try:
            with opener(path, "rb") as f:
                _read_xml(f, path, b)
        except (OSError, EOFError) as e:
            raise SceneFormatError(path, "<file>", "a readable OSM XML file (.osm, .osm.gz, .osm.bz2)",
                                   str(e)) from e
    return b.done()


class _RefusedError(Exception):
    """Raised from inside an expat callback; re-raised as a SceneFormatError with the line."""


def _read_xml(f: IO[bytes], path: Path, b: _Builder) -> None:
    p = xml.parsers.expat.ParserCreate()
    p.buffer_text = True
    p.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    kind = ""  # the open element: "node", "way", "relation" or ""
    ident = 0
    lon = lat = 0.0
    tags: dict[str, str] = {}
    refs = array("q")
    members: list[tuple[str, int, str]] = []
    seen_root = False

    def refuse(*_: object) -> Any:
        raise _RefusedError("a document type declaration or entity (OSM XML has none; refused so that "
                       "no entity is expanded or fetched)")

    def start(name: str, a: dict[str, str]) -> None:
        nonlocal kind, ident, lon, lat, tags, refs, members, seen_root
        try:
            if name == "nd":
                if kind == "way":
                    refs.append(int(a["ref"]))
            elif name == "tag":
                if kind:
                    tags[a["k"]] = a["v"]
            elif name == "node":
                kind, ident, tags = "node", int(a["id"]), {}
                lon, lat = float(a["lon"]), float(a["lat"])
                if not (math.isfinite(lon) and math.isfinite(lat)):
                    raise ValueError
            elif name == "way":
                kind, ident, tags, refs = "way", int(a["id"]), {}, array("q")
            elif name == "member":
                if kind == "relation":
                    members.append((a.get("type", ""), int(a["ref"]), a.get("role", "")))
            elif name == "relation":
                kind, ident, tags, members = "relation", int(a["id"]), {}, []
            elif name == "bounds":
                b.bounds = (float(a["minlon"]), float(a["minlat"]), float(a["maxlon"]), float(a["maxlat"]))
            elif name == "osm":
                seen_root = True
        except (KeyError, ValueError):
            need = {"nd": "ref", "tag": "k and v", "member": "ref", "bounds": "minlon/minlat/maxlon/maxlat"}
            raise _RefusedError(f"<{name}> with {need.get(name, 'id, lat and lon' if name == 'node' else 'id')} "
                           f"(numbers finite), got {dict(list(a.items())[:4])}") from None

    def end(name: str) -> None:
        nonlocal kind
        if name != kind:
            return
        if name == "node":
            b.node(ident, lon, lat, tags)
        elif name == "way":
            b.way(ident, tags, refs)
        else:
            b.relation(ident, tags, members)
        kind = ""

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.StartDoctypeDeclHandler = refuse
    p.EntityDeclHandler = refuse
    p.ExternalEntityRefHandler = refuse
    try:
        p.ParseFile(f)
    except xml.parsers.expat.ExpatError as e:
        raise SceneFormatError(path, f"line {e.lineno}, column {e.offset}", "well-formed OSM XML",
                               xml.parsers.expat.ErrorString(e.code)) from e
    except _RefusedError as e:
        raise SceneFormatError(path, f"line {p.CurrentLineNumber}", str(e)) from e
    if not seen_root:
        raise SceneFormatError(path, "<root>", "an <osm> document (OpenStreetMap XML)")


def _read_pbf(path: Path, b: _Builder) -> None:
    try:
        import osmium
    except ImportError as e:  # pragma: no cover - osmium is an optional extra
        raise MissingDependencyError(".pbf import needs pyosmium: pip install 'navbench[osm]' "
                                     "(.osm XML needs nothing)") from e

    class H(osmium.SimpleHandler):  # osmium ships no annotations: mypy sees Any
        def node(self, n: Any) -> None:
            if not n.location.valid():
                return
            tags = {t.k: t.v for t in n.tags} if len(n.tags) else None
            b.node(n.id, n.location.lon, n.location.lat, tags)

        def way(self, w: Any) -> None:
            b.way(w.id, {t.k: t.v for t in w.tags}, array("q", [nd.ref for nd in w.nodes]))

        def relation(self, r: Any) -> None:
            tags = {t.k: t.v for t in r.tags}
            if tags.get("type") in AREA_RELATIONS:
                kinds = {"n": "node", "w": "way", "r": "relation"}
                b.relation(r.id, tags, [(kinds.get(m.type, m.type), m.ref, m.role) for m in r.members])

    try:
        H().apply_file(str(path))
    except SceneFormatError:
        raise
    except (RuntimeError, ValueError) as e:
        raise SceneFormatError(path, "<file>", "an OSM PBF file", str(e)) from e


__all__ = ["BBOX_MARGIN_M", "MAX_NODES", "MAX_RELATIONS", "MAX_WAYS", "NODE_KEYS", "OsmData",
           "Relation", "Way", "read_osm", "window_of"]
