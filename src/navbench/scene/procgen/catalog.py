"""The object catalogue of procedural houses: categories with real sizes and room plans.

Sizes are ranges of ``(width, height, depth)`` in metres in the object's own frame: width
along its local X (left–right when you face its front), height along +Y, depth along its
local Z (front to back). Typical values follow common furniture dimensions (a double bed is
~1.4–1.8 m wide and ~2.0 m long; a kitchen counter is 0.9 m high and 0.6 m deep).

``mode`` says how a category is placed: ``"wall"`` (back against a wall, facing the room),
``"free"`` (free-standing, kept clear of walls) or ``"top"`` (a small object standing on a
piece of furniture that lists it in ``supports``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from navbench.geometry import vec3

SizeRange = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Category:
    """One object category.

    Attributes:
        label: lower-case singular label.
        size: ``((wmin, wmax), (hmin, hmax), (dmin, dmax))`` in metres.
        mode: ``"wall"``, ``"free"`` or ``"top"``.
        supports: labels of small objects that may stand on it.
        round: roughly rotation-symmetric (placed with a random yaw).
    """

    label: str
    size: SizeRange
    mode: str = "wall"
    supports: tuple[str, ...] = ()
    round: bool = False

    def sample_size(self, rng: np.random.Generator) -> tuple[float, float, float]:
        """A size ``(w, h, d)`` drawn uniformly from the ranges, rounded to 1 cm."""
        return vec3(round(float(rng.uniform(lo, hi)), 2) for lo, hi in self.size)


def _c(label: str, w: tuple[float, float], h: tuple[float, float], d: tuple[float, float],
       mode: str = "wall", supports: tuple[str, ...] = (), round_: bool = False) -> Category:
    return Category(label, (w, h, d), mode, supports, round_)


_CATEGORIES: tuple[Category, ...] = (
    # bedroom
    _c("bed", (0.9, 1.8), (0.5, 0.6), (2.0, 2.15), supports=("pillow",)),
    _c("nightstand", (0.4, 0.5), (0.5, 0.6), (0.35, 0.45),
       supports=("lamp", "alarm clock", "book", "tissue box")),
    _c("wardrobe", (1.0, 1.8), (1.9, 2.2), (0.55, 0.65)),
    _c("dresser", (0.8, 1.2), (0.75, 0.9), (0.45, 0.55),
       supports=("lamp", "picture frame", "vase", "jewelry box")),
    _c("laundry basket", (0.4, 0.5), (0.5, 0.6), (0.35, 0.4), round_=True),
    # living room
    _c("sofa", (1.8, 2.4), (0.8, 0.9), (0.85, 1.0), supports=()),
    _c("armchair", (0.75, 0.9), (0.8, 1.0), (0.75, 0.9)),
    _c("coffee table", (0.9, 1.2), (0.4, 0.45), (0.5, 0.7), "free",
       ("remote control", "book", "vase", "mug", "tissue box", "candle")),
    _c("side table", (0.4, 0.55), (0.5, 0.6), (0.4, 0.55), supports=("lamp", "book", "mug")),
    _c("tv stand", (1.2, 1.8), (0.45, 0.6), (0.4, 0.5),
       supports=("tv", "speaker", "game console")),
    _c("bookshelf", (0.8, 1.0), (1.8, 2.0), (0.3, 0.4),
       supports=("picture frame", "potted plant", "vase")),
    _c("floor lamp", (0.3, 0.4), (1.5, 1.7), (0.3, 0.4), round_=True),
    _c("plant", (0.35, 0.5), (0.6, 1.2), (0.35, 0.5), round_=True),
    _c("piano", (1.4, 1.55), (1.0, 1.3), (0.55, 0.65), supports=("picture frame", "vase")),
    _c("cabinet", (0.8, 1.0), (0.8, 0.9), (0.4, 0.5), supports=("vase", "picture frame", "lamp")),
    _c("ottoman", (0.5, 0.7), (0.4, 0.45), (0.5, 0.7), "free"),
    # dining room
    _c("dining table", (1.2, 1.8), (0.74, 0.76), (0.8, 0.95), "free",
       ("fruit bowl", "vase", "candle", "plate")),
    _c("chair", (0.42, 0.5), (0.85, 0.95), (0.45, 0.52), "free"),
    _c("sideboard", (1.4, 1.8), (0.8, 0.9), (0.45, 0.5),
       supports=("vase", "candle", "picture frame", "lamp")),
    # kitchen
    _c("counter", (1.2, 2.4), (0.9, 0.92), (0.6, 0.65),
       supports=("microwave", "toaster", "coffee machine", "kettle", "kitchen sink",
                 "cutting board", "fruit bowl", "pot")),
    _c("fridge", (0.6, 0.8), (1.7, 1.9), (0.65, 0.75)),
    _c("oven", (0.58, 0.62), (0.85, 0.9), (0.58, 0.62), supports=("pot",)),
    _c("dishwasher", (0.58, 0.62), (0.82, 0.87), (0.58, 0.62)),
    _c("kitchen island", (1.2, 1.8), (0.9, 0.92), (0.7, 0.9), "free", ("fruit bowl", "cutting board")),
    _c("stool", (0.35, 0.4), (0.65, 0.75), (0.35, 0.4), "free", round_=True),
    _c("trash can", (0.28, 0.35), (0.5, 0.65), (0.28, 0.35), round_=True),
    _c("washing machine", (0.58, 0.62), (0.84, 0.87), (0.58, 0.62), supports=("laundry detergent",)),
    # bathroom
    _c("toilet", (0.37, 0.42), (0.75, 0.8), (0.65, 0.72)),
    _c("sink", (0.5, 0.65), (0.82, 0.88), (0.42, 0.5), supports=("soap dispenser", "cup")),
    _c("bathtub", (1.5, 1.7), (0.55, 0.6), (0.7, 0.8)),
    _c("shower", (0.8, 0.9), (1.95, 2.05), (0.8, 0.9)),
    _c("towel rack", (0.5, 0.7), (0.8, 1.0), (0.2, 0.3)),
    # office
    _c("desk", (1.0, 1.4), (0.72, 0.76), (0.6, 0.7),
       supports=("monitor", "keyboard", "laptop", "lamp", "mug", "book")),
    _c("office chair", (0.55, 0.65), (0.9, 1.1), (0.55, 0.65), "free"),
    _c("filing cabinet", (0.4, 0.5), (0.7, 1.3), (0.55, 0.62), supports=("printer",)),
    # hallway
    _c("shoe rack", (0.6, 0.9), (0.4, 0.6), (0.3, 0.35)),
    _c("coat rack", (0.4, 0.45), (1.7, 1.8), (0.4, 0.45), round_=True),
    _c("console table", (0.8, 1.2), (0.75, 0.8), (0.3, 0.38), supports=("vase", "lamp", "picture frame")),
    _c("bench", (1.0, 1.4), (0.43, 0.47), (0.35, 0.42)),
    # small objects (on furniture)
    _c("pillow", (0.5, 0.6), (0.12, 0.15), (0.35, 0.4), "top"),
    _c("lamp", (0.25, 0.35), (0.4, 0.6), (0.25, 0.35), "top"),
    _c("alarm clock", (0.1, 0.15), (0.08, 0.12), (0.06, 0.08), "top"),
    _c("book", (0.15, 0.25), (0.03, 0.05), (0.2, 0.3), "top"),
    _c("tissue box", (0.22, 0.25), (0.08, 0.1), (0.11, 0.12), "top"),
    _c("picture frame", (0.2, 0.3), (0.2, 0.3), (0.05, 0.1), "top"),
    _c("vase", (0.12, 0.2), (0.25, 0.35), (0.12, 0.2), "top"),
    _c("jewelry box", (0.15, 0.25), (0.08, 0.12), (0.1, 0.15), "top"),
    _c("remote control", (0.05, 0.06), (0.02, 0.03), (0.17, 0.2), "top"),
    _c("mug", (0.08, 0.1), (0.09, 0.1), (0.08, 0.1), "top"),
    _c("candle", (0.07, 0.1), (0.1, 0.2), (0.07, 0.1), "top"),
    _c("potted plant", (0.15, 0.25), (0.2, 0.35), (0.15, 0.25), "top"),
    _c("tv", (0.9, 1.2), (0.55, 0.75), (0.08, 0.12), "top"),
    _c("speaker", (0.15, 0.25), (0.25, 0.4), (0.15, 0.25), "top"),
    _c("game console", (0.3, 0.4), (0.06, 0.1), (0.25, 0.3), "top"),
    _c("fruit bowl", (0.25, 0.3), (0.1, 0.15), (0.25, 0.3), "top"),
    _c("plate", (0.25, 0.27), (0.02, 0.03), (0.25, 0.27), "top"),
    _c("microwave", (0.45, 0.55), (0.28, 0.32), (0.35, 0.4), "top"),
    _c("toaster", (0.25, 0.3), (0.18, 0.2), (0.15, 0.18), "top"),
    _c("coffee machine", (0.2, 0.3), (0.3, 0.4), (0.3, 0.38), "top"),
    _c("kettle", (0.18, 0.22), (0.22, 0.25), (0.15, 0.18), "top"),
    _c("kitchen sink", (0.5, 0.8), (0.2, 0.25), (0.4, 0.45), "top"),
    _c("cutting board", (0.35, 0.45), (0.02, 0.03), (0.25, 0.3), "top"),
    _c("pot", (0.22, 0.3), (0.15, 0.2), (0.22, 0.3), "top"),
    _c("laundry detergent", (0.15, 0.2), (0.25, 0.3), (0.1, 0.12), "top"),
    _c("soap dispenser", (0.07, 0.08), (0.18, 0.2), (0.07, 0.08), "top"),
    _c("cup", (0.07, 0.08), (0.1, 0.12), (0.07, 0.08), "top"),
    _c("monitor", (0.5, 0.65), (0.35, 0.5), (0.15, 0.2), "top"),
    _c("keyboard", (0.4, 0.45), (0.02, 0.03), (0.13, 0.15), "top"),
    _c("laptop", (0.3, 0.36), (0.02, 0.03), (0.22, 0.25), "top"),
    _c("printer", (0.38, 0.45), (0.2, 0.25), (0.3, 0.38), "top"),
)

#: All categories by label.
CATALOG: dict[str, Category] = {c.label: c for c in _CATEGORIES}


@dataclass(frozen=True)
class PlanItem:
    """One line of a room plan: place ``label`` (or a named group) with probability ``p``.

    ``count`` is the inclusive range of how many to try when drawn. Group recipes (``bed``,
    ``sofa``, ``dining table``, ``desk``, ``kitchen island``) place companions too: nightstands,
    a coffee table, chairs, an office chair, stools.
    """

    label: str
    p: float = 1.0
    count: tuple[int, int] = (1, 1)


#: What each room type contains, in placement order (large and essential items first).
ROOM_PLANS: dict[str, tuple[PlanItem, ...]] = {
    "bedroom": (
        PlanItem("bed"), PlanItem("wardrobe", 0.7), PlanItem("dresser", 0.5),
        PlanItem("desk", 0.25), PlanItem("bookshelf", 0.3), PlanItem("tv stand", 0.2),
        PlanItem("armchair", 0.2), PlanItem("laundry basket", 0.3), PlanItem("plant", 0.3),
        PlanItem("floor lamp", 0.2),
    ),
    "living room": (
        PlanItem("sofa"), PlanItem("tv stand", 0.85), PlanItem("armchair", 0.6, (1, 2)),
        PlanItem("bookshelf", 0.5, (1, 2)), PlanItem("piano", 0.1), PlanItem("cabinet", 0.3),
        PlanItem("side table", 0.4), PlanItem("plant", 0.6, (1, 2)), PlanItem("floor lamp", 0.5),
        PlanItem("ottoman", 0.2),
    ),
    "kitchen": (
        PlanItem("fridge"), PlanItem("counter", 1.0, (1, 2)), PlanItem("oven", 0.9),
        PlanItem("dishwasher", 0.7), PlanItem("kitchen island", 0.35),
        PlanItem("dining table", 0.3), PlanItem("cabinet", 0.3), PlanItem("washing machine", 0.15),
        PlanItem("trash can", 0.6),
    ),
    "dining room": (
        PlanItem("dining table"), PlanItem("sideboard", 0.7), PlanItem("cabinet", 0.3),
        PlanItem("bookshelf", 0.2), PlanItem("plant", 0.5, (1, 2)),
    ),
    "bathroom": (
        PlanItem("toilet"), PlanItem("sink"), PlanItem("bathtub", 0.5), PlanItem("shower", 0.4),
        PlanItem("towel rack", 0.5), PlanItem("washing machine", 0.15),
        PlanItem("laundry basket", 0.3), PlanItem("trash can", 0.3),
    ),
    "office": (
        PlanItem("desk"), PlanItem("bookshelf", 0.8, (1, 2)), PlanItem("filing cabinet", 0.6),
        PlanItem("armchair", 0.3), PlanItem("plant", 0.4), PlanItem("trash can", 0.4),
        PlanItem("floor lamp", 0.3),
    ),
    "laundry room": (
        PlanItem("washing machine", 1.0, (1, 2)), PlanItem("cabinet", 0.6),
        PlanItem("laundry basket", 0.7), PlanItem("towel rack", 0.3), PlanItem("trash can", 0.3),
    ),
    "hallway": (
        PlanItem("shoe rack", 0.6), PlanItem("coat rack", 0.5), PlanItem("console table", 0.5),
        PlanItem("bench", 0.3), PlanItem("plant", 0.3),
    ),
}

#: How many small objects a supporting furniture piece gets (inclusive range).
CHILDREN: dict[str, tuple[int, int]] = {
    "tv stand": (1, 3), "counter": (1, 3), "desk": (1, 3), "nightstand": (1, 2),
    "bed": (0, 2),
}
DEFAULT_CHILDREN = (0, 2)
#: Plan items that may get an extra copy (``IndoorSettings.repeat_rate``); big or unique
#: pieces (bed, sofa, fridge, tv stand, ...) never repeat by chance.
REPEATABLE: frozenset[str] = frozenset({
    "plant", "armchair", "bookshelf", "floor lamp", "cabinet", "laundry basket", "trash can",
    "ottoman", "counter", "washing machine", "towel rack", "filing cabinet", "shoe rack",
})
#: Small objects that are never duplicated on one parent.
UNIQUE_CHILDREN: frozenset[str] = frozenset({"tv", "kitchen sink", "monitor", "keyboard", "laptop"})
#: Children that always come first on their parent (a TV on its stand, monitor on a desk).
FIRST_CHILD: dict[str, str] = {"tv stand": "tv", "bed": "pillow"}
