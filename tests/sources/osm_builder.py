"""Hand-drawn OpenStreetMap files for the importer's tests: elements placed in local metres
(x east, z south = -north, as the importer's projection) around (13.40° E, 52.52° N)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

LON0, LAT0 = 13.40, 52.52
KX = 6_371_008.8 * math.radians(1) * math.cos(math.radians(LAT0))
KZ = 6_371_008.8 * math.radians(1)


def ll(x: float, z: float) -> tuple[float, float]:
    """(lon, lat) of local XZ metres."""
    return LON0 + x / KX, LAT0 - z / KZ


class Osm:
    """An OSM XML document under construction."""

    def __init__(self) -> None:
        self.nodes: list[str] = []
        self.ways: list[str] = []
        self.relations: list[str] = []
        self._id = 1000

    def _next(self) -> int:
        self._id += 1
        return self._id

    @staticmethod
    def _tags(tags: dict[str, str] | None) -> str:
        from xml.sax.saxutils import quoteattr

        return "".join(f"<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in (tags or {}).items())

    def node(self, x: float, z: float, tags: dict[str, str] | None = None) -> int:
        i = self._next()
        lon, lat = ll(x, z)
        self.nodes.append(f'<node id="{i}" version="1" lat="{lat:.9f}" lon="{lon:.9f}">{self._tags(tags)}</node>')
        return i

    def way(self, pts: Sequence[tuple[float, float] | int], tags: dict[str, str] | None = None,
            closed: bool = False, wid: int | None = None) -> int:
        """A way through points (new nodes) or existing node ids; ``closed`` repeats the first."""
        ids = [p if isinstance(p, int) else self.node(*p) for p in pts]
        ids += ids[:1] if closed else []
        i = wid if wid is not None else self._next()
        nd = "".join(f'<nd ref="{k}"/>' for k in ids)
        self.ways.append(f'<way id="{i}" version="1">{nd}{self._tags(tags)}</way>')
        return i

    def rect(self, x0: float, z0: float, x1: float, z1: float, tags: dict[str, str] | None = None,
             wid: int | None = None) -> int:
        return self.way([(x0, z0), (x1, z0), (x1, z1), (x0, z1)], tags, closed=True, wid=wid)

    def relation(self, members: Sequence[tuple[int, str]], tags: dict[str, str], rid: int | None = None) -> int:
        i = rid if rid is not None else self._next()
        m = "".join(f'<member type="way" ref="{w}" role="{r}"/>' for w, r in members)
        self.relations.append(f'<relation id="{i}" version="1">{m}{self._tags(tags)}</relation>')
        return i

    def text(self) -> str:
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n'
                + "\n".join(self.nodes + self.ways + self.relations) + "\n</osm>\n")

    def write(self, path: Path) -> Path:
        path.write_text(self.text())
        return path


def bbox(x0: float, z0: float, x1: float, z1: float) -> tuple[float, float, float, float]:
    """Lon/lat bbox of the local rectangle [x0, x1] x [z0, z1]."""
    lo0, la1 = ll(x0, z0)
    lo1, la0 = ll(x1, z1)
    return (lo0, la0, lo1, la1)
