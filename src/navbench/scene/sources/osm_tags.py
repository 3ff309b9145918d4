"""What OpenStreetMap tags mean to an outdoor scene: road widths and sidewalks, building
heights and colours, PlaceNav categories of shops and amenities, terrain classes and region
types of areas, and street furniture mapped onto the outdoor object vocabulary.

Every table here is a plain dict so that the README and tests can show it whole. Lengths are
metres; a tag value that does not parse is ignored (the default applies), never an error.

PlaceNav categories (the 17 of :data:`~navbench.scene.procgen.urban.PLACE_CATEGORIES`) from
``(key, value)`` pairs (:data:`PLACE_TABLE`); the first key of ``amenity``, ``shop``,
``tourism``, ``leisure``, ``healthcare``, ``office``, ``craft`` that an element has decides its
kind (``"shop=hardware"``); kinds that map to no category are counted as unknown, not placed.
"""

from __future__ import annotations

import re

from navbench.scene.procgen.urban import LANE_WIDTH, PLACE_CATEGORIES

#: Default lane counts per ``highway`` type (both directions).
DEFAULT_LANES: dict[str, int] = {
    "motorway": 4, "trunk": 4, "primary": 4, "secondary": 2, "tertiary": 2, "residential": 2,
    "unclassified": 2, "living_street": 1, "service": 1, "motorway_link": 1, "trunk_link": 1,
    "primary_link": 1, "secondary_link": 1, "tertiary_link": 1, "road": 2, "busway": 1,
}
#: ``highway`` values of ways people walk on (sidewalk-class surfaces, not roads).
FOOT_WAYS = ("footway", "pedestrian", "path", "steps", "cycleway", "bridleway", "corridor")
#: Default width (m) of a foot way without a ``width`` tag.
FOOT_WIDTH: dict[str, float] = {"pedestrian": 4.0, "footway": 2.0, "cycleway": 2.0, "steps": 2.0}
#: Vehicle roads that get sidewalks on both sides when no ``sidewalk`` tag says otherwise.
SIDEWALK_BY_DEFAULT = frozenset({
    "primary", "secondary", "tertiary", "residential", "unclassified", "primary_link",
    "secondary_link", "tertiary_link", "road",
})
#: Vehicle roads where cars park along the curb unless ``parking:*`` says no.
PARKING_BY_DEFAULT = frozenset({"secondary", "tertiary", "residential", "unclassified", "road", "living_street"})

#: ``(key, value)`` → PlaceNav category (NavVerse's 17 storefront categories).
PLACE_TABLE: dict[tuple[str, str], str] = {
    ("amenity", "restaurant"): "restaurant", ("amenity", "food_court"): "restaurant",
    ("amenity", "cafe"): "cafe", ("shop", "coffee"): "cafe", ("shop", "tea"): "cafe",
    ("amenity", "bank"): "bank",
    ("shop", "convenience"): "convenience store", ("shop", "kiosk"): "convenience store",
    ("shop", "general"): "convenience store", ("shop", "newsagent"): "convenience store",
    ("amenity", "pharmacy"): "pharmacy", ("shop", "chemist"): "pharmacy", ("healthcare", "pharmacy"): "pharmacy",
    ("shop", "bakery"): "bakery", ("shop", "pastry"): "bakery",
    ("shop", "books"): "bookstore",
    ("shop", "clothes"): "clothing store", ("shop", "boutique"): "clothing store",
    ("shop", "fashion"): "clothing store", ("shop", "shoes"): "clothing store",
    ("shop", "supermarket"): "supermarket", ("shop", "grocery"): "supermarket",
    ("amenity", "bar"): "bar", ("amenity", "pub"): "bar", ("amenity", "biergarten"): "bar",
    ("tourism", "hotel"): "hotel", ("tourism", "motel"): "hotel", ("tourism", "hostel"): "hotel",
    ("tourism", "guest_house"): "hotel",
    ("amenity", "post_office"): "post office",
    ("shop", "hairdresser"): "hair salon",
    ("leisure", "fitness_centre"): "gym", ("amenity", "gym"): "gym",
    ("amenity", "fast_food"): "fast food",
    ("amenity", "ice_cream"): "ice cream shop", ("shop", "ice_cream"): "ice cream shop",
    ("shop", "florist"): "florist",
}
assert set(PLACE_TABLE.values()) == set(PLACE_CATEGORIES)
#: Keys that make an element a storefront-like point of interest, in priority order.
PLACE_KEYS = ("amenity", "shop", "tourism", "leisure", "healthcare", "office", "craft")
#: Kinds under these keys that are never storefronts (street furniture, areas, transport).
NOT_A_STOREFRONT: dict[str, frozenset[str]] = {
    "amenity": frozenset({
        "parking", "parking_space", "bench", "waste_basket", "recycling", "bicycle_parking",
        "post_box", "telephone", "vending_machine", "atm", "drinking_water", "fountain", "shelter",
        "charging_station", "parking_entrance", "motorcycle_parking", "toilets", "clock",
        "grit_bin", "waste_disposal", "hunting_stand", "bicycle_rental", "taxi", "loading_dock",
        "parcel_locker", "bus_station", "fuel", "school", "kindergarten", "university", "college",
        "place_of_worship", "hospital", "townhall", "police", "fire_station", "library", "theatre",
        "cinema", "community_centre", "social_facility", "clinic", "doctors", "dentist",
        "marketplace", "car_wash", "grave_yard", "public_bookcase", "bbq", "picnic_table",
    }),
    "leisure": frozenset({"park", "garden", "playground", "pitch", "sports_centre", "stadium",
                          "swimming_pool", "track", "dog_park", "picnic_table", "common",
                          "nature_reserve", "golf_course", "recreation_ground", "outdoor_seating"}),
    "tourism": frozenset({"information", "artwork", "viewpoint", "attraction", "picnic_site"}),
}

#: OSM street furniture (``key=value``) → label of the outdoor vocabulary
#: (:data:`~navbench.scene.procgen.outdoor_groups.CATALOG`).
FURNITURE: dict[tuple[str, str], str] = {
    ("amenity", "bench"): "bench", ("leisure", "picnic_table"): "picnic table",
    ("amenity", "waste_basket"): "trash can", ("amenity", "recycling"): "recycling bin",
    ("amenity", "bicycle_parking"): "bike rack", ("amenity", "post_box"): "mailbox",
    ("amenity", "telephone"): "phone booth", ("amenity", "vending_machine"): "vending machine",
    ("amenity", "atm"): "atm", ("amenity", "drinking_water"): "drinking fountain",
    ("amenity", "fountain"): "fountain", ("amenity", "charging_station"): "ev charger",
    ("amenity", "clock"): "street clock", ("emergency", "fire_hydrant"): "fire hydrant",
    ("highway", "street_lamp"): "street light", ("highway", "traffic_signals"): "traffic light",
    ("highway", "stop"): "stop sign", ("natural", "tree"): "tree", ("man_made", "flagpole"): "flag pole",
    ("barrier", "bollard"): "bollard", ("tourism", "artwork"): "statue",
    ("man_made", "street_cabinet"): "electrical box", ("tourism", "information"): "information kiosk",
}


def parse_length(v: str | None) -> float | None:
    """Metres from an OSM length tag (``"7"``, ``"7.5 m"``, ``"24'"``, ``"3,5"``); ``None`` if
    unparsable or not positive."""
    if not v:
        return None
    m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(m|ft|')?\s*$", v.replace(",", "."))
    if not m:
        return None
    x = float(m.group(1)) * (0.3048 if m.group(2) in ("ft", "'") else 1.0)
    return x if x > 0 else None


def _count(v: str | None) -> float | None:
    m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*$", v or "")
    return float(m.group(1)) if m else None


def road_width(tags: dict[str, str]) -> tuple[float, int | None]:
    """Carriageway width (m) and lane count of a vehicle way: ``width`` (or ``est_width``), else
    ``lanes`` x 3.25 m, else the default lane count of its ``highway`` type x 3.25 m."""
    lanes_f = _count(tags.get("lanes"))
    lanes = int(lanes_f) if lanes_f and lanes_f >= 1 else None
    w = parse_length(tags.get("width")) or parse_length(tags.get("est_width"))
    if w is None or not 2.0 <= w <= 60.0:
        w = (lanes or DEFAULT_LANES.get(tags.get("highway", ""), 2)) * LANE_WIDTH
    return float(w), lanes


def sidewalk_widths(tags: dict[str, str], default: float) -> tuple[float, float]:
    """Sidewalk widths (m) on the (left, right) of a vehicle way (0 = none), from ``sidewalk``
    (``both``/``left``/``right``/``no``/``none``/``separate``), ``sidewalk:both|left|right``
    (``yes``/``no``/``separate``) and ``sidewalk[:side]:width``; untagged roads of
    :data:`SIDEWALK_BY_DEFAULT` types get ``default`` on both sides. A ``separate`` sidewalk is
    a foot way of its own (mapped there), so none is derived."""
    hw = tags.get("highway", "")
    side = tags.get("sidewalk")
    on = {"left": hw in SIDEWALK_BY_DEFAULT, "right": hw in SIDEWALK_BY_DEFAULT}
    if side is not None:
        on = {"left": side in ("both", "left", "yes"), "right": side in ("both", "right", "yes")}
    for s in ("left", "right"):
        v = tags.get(f"sidewalk:{s}", tags.get("sidewalk:both"))
        if v is not None:
            on[s] = v not in ("no", "none", "separate")
    out = []
    for s in ("left", "right"):
        w = (parse_length(tags.get(f"sidewalk:{s}:width")) or parse_length(tags.get("sidewalk:both:width"))
             or parse_length(tags.get("sidewalk:width")) or default)
        out.append(min(max(w, 1.0), 10.0) if on[s] else 0.0)
    return out[0], out[1]


_PARKING_KEYS = tuple(f"parking:{lane}{s}" for lane in ("", "lane:") for s in ("both", "left", "right"))


def parking_allowed(tags: dict[str, str]) -> bool:
    """Whether cars park along a vehicle way: ``parking:both|left|right`` /
    ``parking:lane:*`` say so (``no``/``no_parking``/``no_stopping``/``separate`` = no), else
    the :data:`PARKING_BY_DEFAULT` road types (``service=driveway``/``parking_aisle`` never)."""
    if tags.get("service") in ("driveway", "parking_aisle", "drive-through", "emergency_access"):
        return False
    vals = [tags[k] for k in _PARKING_KEYS if k in tags]
    if vals:
        return any(v not in ("no", "no_parking", "no_stopping", "separate", "none", "fire_lane") for v in vals)
    return tags.get("highway", "") in PARKING_BY_DEFAULT


#: Building heights (m) without ``height`` / ``building:levels``, by ``building`` value.
DEFAULT_HEIGHT: dict[str, float] = {
    "house": 7.0, "detached": 7.0, "semidetached_house": 7.0, "terrace": 9.0, "bungalow": 4.0,
    "garage": 3.0, "garages": 3.0, "shed": 3.0, "carport": 3.0, "hut": 3.0, "roof": 4.0, "kiosk": 3.0,
    "apartments": 15.0, "residential": 12.0, "commercial": 12.0, "retail": 8.0, "office": 18.0,
    "industrial": 10.0, "warehouse": 10.0, "school": 12.0, "church": 18.0, "hotel": 18.0,
}
STOREY = 3.0


def building_height(tags: dict[str, str], default: float) -> float:
    """Height (m): ``height`` (or ``building:height``), else (``building:levels`` +
    ``roof:levels``) x 3 m, else the type's default (:data:`DEFAULT_HEIGHT`), else ``default``;
    clamped to [2.5, 400] m."""
    h = parse_length(tags.get("height")) or parse_length(tags.get("building:height"))
    if h is None:
        lv = _count(tags.get("building:levels"))
        if lv is not None and lv > 0:
            h = (lv + (_count(tags.get("roof:levels")) or 0.0)) * STOREY
    if h is None:
        h = DEFAULT_HEIGHT.get(tags.get("building", ""), default)
    return float(min(max(h, 2.5), 400.0))


#: The colour words of the procedural city's facades (their RGB for nearest matching).
COLOUR_RGB: dict[str, tuple[int, int, int]] = {
    "white": (240, 240, 235), "grey": (128, 128, 128), "beige": (222, 196, 148), "red": (175, 50, 40),
    "brown": (120, 75, 45), "yellow": (240, 205, 64), "blue": (84, 128, 210), "green": (97, 168, 92),
    "orange": (240, 128, 36), "pink": (240, 153, 178),
}
#: A few CSS colour names OSM uses (``building:colour``) that are not colour words already.
_CSS: dict[str, tuple[int, int, int]] = {
    "black": (30, 30, 30), "silver": (192, 192, 192), "gray": (128, 128, 128), "maroon": (128, 0, 0),
    "tan": (210, 180, 140), "ivory": (255, 255, 240), "cream": (255, 253, 208), "wheat": (245, 222, 179),
    "lightgrey": (211, 211, 211), "lightgray": (211, 211, 211), "darkgrey": (169, 169, 169),
    "darkgray": (169, 169, 169), "khaki": (240, 230, 140), "navy": (0, 0, 128), "olive": (128, 128, 0),
    "salmon": (250, 128, 114), "sienna": (160, 82, 45), "gold": (255, 215, 0), "peru": (205, 133, 63),
}
#: ``building:material`` → colour word (what such a facade looks like).
MATERIAL_COLOUR: dict[str, str] = {
    "brick": "red", "concrete": "grey", "plaster": "beige", "stone": "beige", "wood": "brown",
    "timber_framing": "white", "glass": "blue", "metal": "grey", "steel": "grey", "sandstone": "beige",
    "limestone": "white", "cement_block": "grey", "panel": "grey",
}


def building_colour(tags: dict[str, str]) -> str | None:
    """Colour word of a building (one of :data:`COLOUR_RGB`): ``building:colour`` (a colour word,
    a CSS name or ``#rrggbb``, nearest by RGB distance), else ``building:material``; else None."""
    v = (tags.get("building:colour") or tags.get("building:color") or "").strip().lower()
    rgb = None
    if re.fullmatch(r"#?[0-9a-f]{6}", v):
        h = v.lstrip("#")
        rgb = (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    elif re.fullmatch(r"#?[0-9a-f]{3}", v):
        h = v.lstrip("#")
        rgb = (int(h[0] * 2, 16), int(h[1] * 2, 16), int(h[2] * 2, 16))
    elif v:
        name = v.replace(" ", "").replace("_", "")
        if name in COLOUR_RGB:
            return name
        rgb = _CSS.get(name)
    if rgb is not None:
        return min(COLOUR_RGB, key=lambda c: sum((a - b) ** 2 for a, b in zip(COLOUR_RGB[c], rgb, strict=True)))
    return MATERIAL_COLOUR.get((tags.get("building:material") or "").strip().lower())


def place_kind(tags: dict[str, str]) -> str | None:
    """``"key=value"`` of the element's storefront-like tag, or None (no such tag, or street
    furniture / an area such as a park or a school)."""
    for k in PLACE_KEYS:
        v = tags.get(k)
        if v is None or v in ("yes", "no", "vacant", "disused") or v in NOT_A_STOREFRONT.get(k, ()):
            continue
        if k == "leisure" and (k, v) not in PLACE_TABLE:
            continue
        return f"{k}={v}"
    return None


def place_category(tags: dict[str, str]) -> str | None:
    """PlaceNav category of an element (:data:`PLACE_TABLE`), or None."""
    kind = place_kind(tags)
    if kind is None:
        return None
    k, v = kind.split("=", 1)
    return PLACE_TABLE.get((k, v))


def furniture_label(tags: dict[str, str]) -> str | None:
    """Outdoor-vocabulary label of a street-furniture node (:data:`FURNITURE`), or None."""
    for (k, v), label in FURNITURE.items():
        if tags.get(k) == v:
            return label
    if tags.get("vending") == "parking_tickets":
        return "parking meter"
    return None


#: Terrain class of an area: ``(key, value)`` (value ``*`` = any) → class; first match wins.
AREA_CLASS: list[tuple[str, str, str]] = [
    ("natural", "water", "water"), ("waterway", "riverbank", "water"), ("landuse", "reservoir", "water"),
    ("landuse", "basin", "water"), ("leisure", "swimming_pool", "water"),
    ("amenity", "parking", "parking"), ("highway", "pedestrian", "plaza"), ("place", "square", "plaza"),
    ("amenity", "marketplace", "plaza"), ("area:highway", "footway", "plaza"), ("highway", "footway", "plaza"),
    ("leisure", "park", "green"), ("leisure", "garden", "green"), ("leisure", "playground", "green"),
    ("leisure", "pitch", "green"), ("leisure", "dog_park", "green"), ("leisure", "golf_course", "green"),
    ("leisure", "common", "green"), ("landuse", "grass", "green"), ("landuse", "meadow", "green"),
    ("landuse", "forest", "green"), ("landuse", "recreation_ground", "green"),
    ("landuse", "village_green", "green"), ("landuse", "cemetery", "green"), ("landuse", "orchard", "green"),
    ("landuse", "allotments", "green"), ("landuse", "flowerbed", "green"), ("natural", "wood", "green"),
    ("natural", "scrub", "green"), ("natural", "grassland", "green"), ("natural", "heath", "green"),
]
#: Region type (procedural city's vocabulary) of an area, first match wins.
AREA_REGION: list[tuple[str, str, str]] = [
    ("landuse", "construction", "construction"), ("building", "construction", "construction"),
    ("highway", "construction", "construction"),
    ("highway", "pedestrian", "plaza"), ("place", "square", "plaza"), ("amenity", "marketplace", "plaza"),
    ("leisure", "park", "park"), ("leisure", "garden", "park"), ("leisure", "playground", "park"),
    ("leisure", "dog_park", "park"), ("leisure", "common", "park"), ("landuse", "recreation_ground", "park"),
    ("landuse", "village_green", "park"),
    ("landuse", "commercial", "commercial"), ("landuse", "retail", "commercial"),
    ("landuse", "residential", "residential"),
]


def _match(table: list[tuple[str, str, str]], tags: dict[str, str]) -> str | None:
    for k, v, out in table:
        got = tags.get(k)
        if got is not None and (v == "*" or got == v):
            return out
    return None


def area_class(tags: dict[str, str]) -> str | None:
    """``water`` / ``parking`` / ``plaza`` / ``green`` of an area's tags (:data:`AREA_CLASS`),
    or None. Multi-storey and underground parkings are not ground areas."""
    if tags.get("amenity") == "parking" and tags.get("parking") in ("multi-storey", "underground", "rooftop"):
        return None
    if tags.get("highway") in ("pedestrian", "footway") and tags.get("area") != "yes":
        return None  # a pedestrian *way* (line), not an area
    return _match(AREA_CLASS, tags)


def area_region(tags: dict[str, str]) -> str | None:
    """Region type of an area's tags (:data:`AREA_REGION`), or None."""
    if tags.get("highway") == "pedestrian" and tags.get("area") != "yes":
        return None
    return _match(AREA_REGION, tags)


__all__ = [
    "AREA_CLASS", "AREA_REGION", "COLOUR_RGB", "DEFAULT_HEIGHT", "DEFAULT_LANES", "FOOT_WAYS", "FURNITURE",
    "MATERIAL_COLOUR", "PLACE_TABLE", "area_class", "area_region", "building_colour", "building_height",
    "furniture_label", "parking_allowed", "parse_length", "place_category", "place_kind", "road_width",
    "sidewalk_widths",
]
