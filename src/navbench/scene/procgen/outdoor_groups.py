"""Outdoor object catalog (the fixed 65-category vocabulary) and contextual group templates.

Sizes are ``(x, y, z)`` box extents in metres: x is the width along the object's front (for
vehicles: the length along the heading, local +X = forward), y the height, z the depth.

A group template lays its members out in a *group frame*: ``u`` metres along the curb (or the
group's long axis inside a lot) from the group start, ``v`` metres away from the curb into the
sidewalk (negative = on the roadway beside the curb, e.g. cones around road works or the van of
a delivery zone). A member with ``yaw`` 0 faces the street (the -v direction); yaw 90 turns it
a quarter turn left (its x then runs along v). A member with ``on = k`` is stacked: its box
bottom sits on member k's top, centred on it (crate on a pallet, potted plant on a table).
Groups are conditioned on the region type of the place they stand in (NavVerse App. 7.4):
``commercial`` / ``residential`` street sides (storefronts or none), ``construction`` sides,
``park`` and ``plaza`` blocks (their sidewalks and, for ``zone="lot"`` groups, their interior).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The fixed outdoor vocabulary: label -> typical box size (x, y, z) in metres.
CATALOG: dict[str, tuple[float, float, float]] = {
    "car": (4.5, 1.5, 1.8), "van": (5.2, 2.2, 2.0), "truck": (7.5, 3.2, 2.5), "bus": (12.0, 3.2, 2.5),
    "motorcycle": (2.1, 1.1, 0.8), "scooter": (1.1, 1.1, 0.45), "bicycle": (1.7, 1.0, 0.5),
    "tree": (0.6, 6.0, 0.6), "palm tree": (0.5, 7.0, 0.5), "bush": (1.2, 1.0, 1.2),
    "hedge": (3.0, 1.1, 0.8), "potted plant": (0.6, 1.2, 0.6), "planter": (1.0, 0.8, 1.0),
    "street light": (0.3, 6.0, 0.3), "traffic light": (0.3, 3.5, 0.3), "utility pole": (0.35, 8.0, 0.35),
    "flag pole": (0.2, 7.0, 0.2), "stop sign": (0.75, 2.4, 0.1), "street sign": (0.9, 2.8, 0.1),
    "bus stop sign": (0.5, 2.6, 0.1), "sandwich board": (0.6, 1.0, 0.5), "parking meter": (0.3, 1.4, 0.3),
    "fire hydrant": (0.35, 0.8, 0.35), "mailbox": (0.5, 1.2, 0.5), "newspaper box": (0.5, 1.1, 0.5),
    "trash can": (0.6, 1.0, 0.6), "recycling bin": (0.7, 1.1, 0.7), "dumpster": (2.0, 1.4, 1.2),
    "bench": (1.8, 0.9, 0.6), "picnic table": (1.8, 0.8, 1.6), "table": (0.8, 0.75, 0.8),
    "chair": (0.5, 0.9, 0.5), "umbrella": (0.3, 2.4, 0.3), "patio heater": (0.5, 2.2, 0.5),
    "bus shelter": (3.5, 2.5, 1.4), "phone booth": (1.0, 2.3, 1.0), "information kiosk": (1.2, 2.2, 0.5),
    "vending machine": (1.0, 1.9, 0.8), "atm": (0.8, 1.7, 0.7), "drinking fountain": (0.5, 1.0, 0.5),
    "fountain": (3.0, 1.6, 3.0), "statue": (1.0, 2.5, 1.0), "bike rack": (2.0, 0.8, 0.5),
    "bollard": (0.25, 0.9, 0.25), "traffic cone": (0.4, 0.7, 0.4), "traffic barrel": (0.6, 1.0, 0.6),
    "barrier": (2.0, 1.0, 0.5), "fence": (3.0, 1.2, 0.1), "portable toilet": (1.1, 2.3, 1.1),
    "electrical box": (0.9, 1.3, 0.5), "ev charger": (0.5, 1.6, 0.4), "market stall": (2.5, 2.4, 1.8),
    "food cart": (2.0, 2.1, 1.2), "crate": (0.6, 0.5, 0.4), "pallet": (1.2, 0.15, 1.0),
    "shopping cart": (0.9, 1.0, 0.55), "slide": (3.0, 2.2, 0.8), "swing set": (3.5, 2.3, 1.8),
    "seesaw": (3.0, 0.8, 0.4), "sandbox": (2.5, 0.3, 2.5), "basketball hoop": (1.0, 3.5, 1.5),
    "street clock": (0.5, 4.0, 0.5), "boulder": (1.2, 0.8, 1.0), "construction sign": (0.8, 1.3, 0.6),
    "generator": (1.2, 1.0, 0.8),
}
assert len(CATALOG) == 65

#: Vehicle labels (placed on the roadway, x = length along the heading).
VEHICLES: tuple[str, ...] = ("car", "van", "truck", "bus", "motorcycle")
#: Region types that condition group and single-object choice.
REGIONS: tuple[str, ...] = ("commercial", "residential", "construction", "park", "plaza")


@dataclass(frozen=True)
class Member:
    """One member of a group template (frame and units: see the module docstring)."""

    label: str
    u: float
    v: float
    yaw: float = 0.0  # degrees, multiple of 90
    on: int = -1  # index of the supporting member, -1 = on the ground / roadway

    @property
    def footprint(self) -> tuple[float, float]:
        """Extent (along u, along v) of the box in the group frame (m)."""
        x, _y, z = CATALOG[self.label]
        return (z, x) if round(self.yaw / 90) % 2 else (x, z)


@dataclass(frozen=True)
class GroupSpec:
    """A contextual group: regions it appears in, zone (``curb`` or ``lot``), weight, members."""

    regions: tuple[str, ...]
    zone: str
    weight: float
    members: tuple[Member, ...]
    no_parking: float = 0.0  # extra curb length (m) kept free of parked cars around the group


M = Member
C, R, K, P, Z = "commercial", "residential", "construction", "park", "plaza"
GROUPS: dict[str, GroupSpec] = {
    # ---- street sides (furniture zone next to the curb, v in [0.2, 1.6] m; v < 0 on the road)
    "bus stop": GroupSpec((C, R), "curb", 2.0, (
        M("bus stop sign", 0.25, 0.3), M("bus shelter", 2.5, 0.9), M("trash can", 4.8, 0.6)), 12.0),
    "bus layover": GroupSpec((C,), "curb", 0.6, (
        M("bus stop sign", 0.25, 0.3), M("bench", 2.0, 0.9), M("bus", 7.0, -1.55)), 2.0),
    "bike parking": GroupSpec((C, R, P), "curb", 2.0, (
        M("bike rack", 1.5, 0.45), M("bicycle", 0.85, 1.05), M("bicycle", 2.75, 1.05))),
    "scooter parking": GroupSpec((C, R), "curb", 1.0, (
        M("scooter", 0.25, 0.8, 90), M("scooter", 0.85, 0.8, 90), M("scooter", 1.45, 0.8, 90),
        M("street sign", 2.3, 0.3))),
    "motorcycle parking": GroupSpec((C,), "curb", 0.8, (
        M("street sign", 0.45, 0.3), M("motorcycle", 1.4, -1.35, 90), M("motorcycle", 2.5, -1.35, 90),
        M("motorcycle", 3.6, -1.35, 90)), 1.0),
    "cafe terrace": GroupSpec((C,), "curb", 2.0, (
        M("table", 0.9, 1.1), M("chair", 0.25, 1.1, 90), M("chair", 1.55, 1.1, -90),
        M("umbrella", 2.2, 1.1), M("table", 3.5, 1.1), M("potted plant", 3.5, 1.1, 0, 4),
        M("chair", 2.85, 1.1, 90), M("chair", 4.15, 1.1, -90), M("patio heater", 5.0, 1.1))),
    "dining patio": GroupSpec((C,), "curb", 1.2, (
        M("sandwich board", 0.3, 0.5), M("table", 1.5, 1.1), M("chair", 0.85, 1.1, 90),
        M("chair", 2.15, 1.1, -90), M("umbrella", 2.8, 1.1), M("table", 4.1, 1.1),
        M("chair", 3.45, 1.1, 90), M("chair", 4.75, 1.1, -90))),
    "food cart corner": GroupSpec((C, P, Z), "curb", 1.2, (
        M("sandwich board", 0.3, 0.5), M("food cart", 1.9, 0.9), M("umbrella", 3.3, 0.9),
        M("trash can", 4.0, 0.6))),
    "flower stand": GroupSpec((C,), "curb", 1.0, (
        M("table", 0.4, 1.0), M("potted plant", 0.4, 1.0, 0, 0), M("potted plant", 1.4, 1.0),
        M("planter", 2.6, 0.9), M("sandwich board", 3.6, 0.5))),
    "ev charging": GroupSpec((C, R), "curb", 1.2, (
        M("bollard", 0.15, 0.3), M("ev charger", 0.8, 0.4), M("ev charger", 5.6, 0.4),
        M("bollard", 6.25, 0.3), M("car", 3.2, -1.2)), 1.0),
    "recycling point": GroupSpec((R, C), "curb", 1.5, (
        M("recycling bin", 0.35, 0.8), M("recycling bin", 1.25, 0.8), M("recycling bin", 2.15, 0.8),
        M("trash can", 3.0, 0.8))),
    "dumpster corner": GroupSpec((R, K), "curb", 1.0, (
        M("dumpster", 1.0, 0.9), M("recycling bin", 2.5, 0.8), M("trash can", 3.35, 0.8))),
    "delivery zone": GroupSpec((C,), "curb", 1.2, (
        M("pallet", 0.6, 0.9), M("crate", 0.45, 0.9, 0, 0), M("crate", 0.45, 0.9, 0, 1),
        M("crate", 0.95, 0.9, 90, 0), M("shopping cart", 1.9, 0.8), M("van", 3.0, -1.3)), 2.0),
    "newsstand": GroupSpec((C,), "curb", 1.0, (
        M("newspaper box", 0.25, 0.6), M("newspaper box", 0.85, 0.6), M("trash can", 1.6, 0.6))),
    "rest area": GroupSpec((R, C, P), "curb", 1.5, (
        M("planter", 0.5, 0.9), M("bench", 2.1, 0.9), M("trash can", 3.5, 0.8))),
    "mail point": GroupSpec((R,), "curb", 1.2, (
        M("mailbox", 0.25, 0.6), M("newspaper box", 0.95, 0.6), M("street light", 1.6, 0.4))),
    "utility corner": GroupSpec((R, K), "curb", 1.0, (
        M("utility pole", 0.2, 0.4), M("electrical box", 1.05, 0.6), M("street sign", 2.1, 0.3))),
    "phone corner": GroupSpec((C,), "curb", 0.8, (
        M("phone booth", 0.5, 0.9), M("trash can", 1.4, 0.6), M("mailbox", 2.0, 0.6))),
    "atm point": GroupSpec((C,), "curb", 0.8, (
        M("atm", 0.4, 0.8), M("bollard", 1.1, 0.3), M("trash can", 1.7, 0.6))),
    "vending corner": GroupSpec((C, P, Z), "curb", 1.0, (
        M("vending machine", 0.5, 0.8), M("vending machine", 1.6, 0.8), M("recycling bin", 2.55, 0.8))),
    "info point": GroupSpec((C, Z, P), "curb", 0.8, (
        M("information kiosk", 0.6, 0.6), M("street sign", 1.8, 0.3), M("bench", 3.3, 0.9))),
    "parking meters": GroupSpec((C,), "curb", 1.2, (
        M("parking meter", 0.15, 0.35), M("street sign", 1.0, 0.3), M("parking meter", 6.0, 0.35))),
    "clock corner": GroupSpec((C, Z), "curb", 0.6, (
        M("street clock", 0.25, 0.7), M("bench", 1.6, 0.9), M("planter", 3.1, 0.9))),
    "bollard row": GroupSpec((C, Z), "curb", 0.8, (
        M("bollard", 0.15, 0.3), M("bollard", 1.45, 0.3), M("bollard", 2.75, 0.3), M("bollard", 4.05, 0.3))),
    "shopping cart corral": GroupSpec((C,), "curb", 0.6, (
        M("shopping cart", 0.45, 0.5), M("shopping cart", 0.45, 1.2), M("shopping cart", 1.5, 0.5),
        M("bollard", 2.2, 0.3))),
    "hedge row": GroupSpec((R, P), "curb", 1.0, (
        M("hedge", 1.5, 1.1), M("bush", 3.8, 0.9), M("hedge", 6.1, 1.1))),
    "road works": GroupSpec((K,), "curb", 3.0, (
        M("construction sign", 0.4, 0.6), M("traffic cone", 1.2, -0.5), M("barrier", 2.9, -1.0),
        M("traffic cone", 4.6, -0.5), M("traffic barrel", 5.5, -1.2), M("generator", 5.5, 0.8)), 4.0),
    "utility repair": GroupSpec((K, R), "curb", 1.5, (
        M("barrier", 1.0, 1.2), M("barrier", 3.1, 1.2), M("traffic cone", 4.4, 0.5),
        M("construction sign", 5.3, 0.6), M("traffic barrel", 6.2, 0.6))),
    "site frontage": GroupSpec((K,), "curb", 2.0, (
        M("fence", 1.5, 1.5), M("fence", 4.6, 1.5), M("portable toilet", 7.0, 0.9),
        M("dumpster", 9.0, 0.9))),
    "site delivery": GroupSpec((K,), "curb", 1.5, (
        M("pallet", 0.6, 0.9), M("crate", 0.5, 0.9, 0, 0), M("generator", 2.0, 0.8),
        M("traffic cone", 2.6, -0.4), M("truck", 6.8, -1.55)), 2.0),
    # ---- park and plaza interiors (lot zone; the frame is the group's own)
    "playground": GroupSpec((P,), "lot", 2.0, (
        M("slide", 1.5, 0.4), M("swing set", 5.5, 0.9), M("seesaw", 1.5, 3.0), M("sandbox", 5.5, 4.0),
        M("bench", 9.0, 0.9, 90))),
    "basketball court": GroupSpec((P,), "lot", 1.0, (
        M("basketball hoop", 0.5, 0.75), M("bench", 2.5, 3.0), M("drinking fountain", 4.0, 3.0))),
    "picnic area": GroupSpec((P,), "lot", 1.5, (
        M("picnic table", 0.9, 0.8), M("picnic table", 3.6, 0.8), M("trash can", 5.3, 0.4),
        M("recycling bin", 5.3, 1.3))),
    "rock garden": GroupSpec((P,), "lot", 1.0, (
        M("boulder", 0.6, 0.5), M("boulder", 2.4, 1.4), M("bush", 4.0, 0.6), M("bush", 1.0, 2.6))),
    "hedge garden": GroupSpec((P, Z), "lot", 1.0, (
        M("hedge", 1.5, 0.4), M("bench", 1.5, 1.5), M("hedge", 1.5, 2.6), M("bush", 3.8, 1.5))),
    "portable toilets": GroupSpec((P, K), "lot", 0.5, (
        M("portable toilet", 0.55, 0.55), M("portable toilet", 1.75, 0.55), M("trash can", 2.8, 0.4))),
    "fountain square": GroupSpec((Z,), "lot", 2.0, (
        M("fountain", 2.5, 2.5), M("bench", 2.5, 0.3), M("bench", 2.5, 4.7), M("trash can", 4.7, 0.3))),
    "statue garden": GroupSpec((Z, P), "lot", 1.2, (
        M("statue", 2.0, 1.5), M("hedge", 2.0, 0.4), M("hedge", 2.0, 2.6), M("bench", 4.5, 1.5, 90))),
    "market stall row": GroupSpec((Z,), "lot", 2.0, (
        M("market stall", 1.25, 0.9), M("market stall", 4.0, 0.9), M("market stall", 6.75, 0.9),
        M("pallet", 4.0, 2.6), M("crate", 3.7, 2.6, 0, 3), M("crate", 4.3, 2.6, 0, 3),
        M("crate", 3.7, 2.6, 0, 4))),
    "flag plaza": GroupSpec((Z,), "lot", 0.8, (
        M("flag pole", 0.1, 0.1), M("flag pole", 2.1, 0.1), M("flag pole", 4.1, 0.1), M("bench", 2.1, 1.5))),
    "palm court": GroupSpec((Z,), "lot", 0.8, (
        M("palm tree", 0.25, 0.25), M("palm tree", 4.25, 0.25), M("planter", 2.25, 0.5),
        M("bench", 2.25, 1.6))),
    "food truck court": GroupSpec((Z, P), "lot", 1.0, (
        M("food cart", 1.0, 0.6), M("food cart", 4.0, 0.6), M("picnic table", 2.5, 2.6),
        M("trash can", 4.7, 2.6))),
}

#: Single (ungrouped) objects per region: label -> relative frequency. Trees and lights
#: everywhere; parking meters on commercial sides; utility poles and bushes on residential ones.
SINGLES: dict[str, dict[str, float]] = {
    C: {"tree": 3.0, "street light": 3.0, "trash can": 2.0, "bench": 1.0, "fire hydrant": 1.0,
        "planter": 1.0, "parking meter": 1.0, "bollard": 1.0, "mailbox": 0.4, "potted plant": 0.6,
        "newspaper box": 0.4, "street sign": 0.5},
    R: {"tree": 4.0, "street light": 3.0, "utility pole": 1.0, "fire hydrant": 1.0, "bush": 1.0,
        "trash can": 1.0, "mailbox": 0.6, "recycling bin": 0.5, "electrical box": 0.4, "bench": 0.5},
    K: {"traffic cone": 2.0, "traffic barrel": 1.0, "street light": 2.0, "fire hydrant": 1.0,
        "construction sign": 1.0, "tree": 1.0, "utility pole": 0.5},
    P: {"tree": 5.0, "street light": 2.0, "bench": 2.0, "trash can": 1.5, "bush": 1.0,
        "fire hydrant": 0.5, "drinking fountain": 0.3},
    Z: {"street light": 3.0, "bench": 2.0, "palm tree": 1.0, "planter": 1.5, "trash can": 1.5,
        "bollard": 1.5, "tree": 1.0, "fire hydrant": 0.5},
}
#: Objects at block corners, next to the crosswalk landings (region -> choices).
CORNER: dict[str, tuple[str, ...]] = {
    C: ("traffic light", "street sign"), R: ("stop sign", "street sign"), K: ("stop sign", "street sign"),
    P: ("stop sign", "street sign"), Z: ("traffic light", "street sign"),
}

#: Curb-side objects that forbid parking this far (m) either side of them (hydrant gaps).
NO_PARKING_AROUND: dict[str, float] = {"fire hydrant": 4.5}
#: Depth of the sidewalk furniture zone next to the curb (m); the walking zone stays free.
FURNITURE_ZONE = 1.6


def group_extent(spec: GroupSpec) -> tuple[float, float, float, float]:
    """Bounding box ``(u0, v0, u1, v1)`` of a template's member footprints (m)."""
    fs = [(m.u - m.footprint[0] / 2, m.v - m.footprint[1] / 2, m.u + m.footprint[0] / 2,
           m.v + m.footprint[1] / 2) for m in spec.members]
    return (min(f[0] for f in fs), min(f[1] for f in fs), max(f[2] for f in fs), max(f[3] for f in fs))


def _check() -> None:
    """Import-time consistency: vocabulary, regions, curb fit, no overlaps, valid supports."""
    for name, g in GROUPS.items():
        assert g.zone in ("curb", "lot") and set(g.regions) <= set(REGIONS), name
        for i, m in enumerate(g.members):
            assert m.label in CATALOG, (name, m.label)
            assert m.on < i and round(m.yaw) % 90 == 0, (name, i)
            du, dv = m.footprint
            if g.zone == "curb":
                on_road = m.v + dv / 2 <= -0.2
                assert on_road or (m.v - dv / 2 >= 0.05 and m.v + dv / 2 <= FURNITURE_ZONE + 0.05), (name, i)
            else:
                assert m.u - du / 2 >= -1e-9 and m.v - dv / 2 >= -1e-9, (name, i)
            for j in range(i):
                o = g.members[j]
                if m.on != o.on:  # different supports: the support checks below cover them
                    continue
                eu, ev = o.footprint
                sep_u = abs(m.u - o.u) >= (du + eu) / 2 - 1e-9
                sep_v = abs(m.v - o.v) >= (dv + ev) / 2 - 1e-9
                assert sep_u or sep_v, (name, i, j)
            if m.on >= 0:
                s = g.members[m.on]
                su, sv = s.footprint
                assert abs(m.u - s.u) + du / 2 <= su / 2 + 1e-9 and abs(m.v - s.v) + dv / 2 <= sv / 2 + 1e-9, (
                    name, i)


_check()
assert len(GROUPS) >= 30
