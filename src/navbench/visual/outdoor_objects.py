"""Parametric, seeded meshes for the 65 outdoor object categories.

``OUTDOOR_BUILDERS[category](size, rng) -> list[Part]`` builds one instance in the local frame
of :mod:`navbench.visual.mesh` (metres; footprint centred on the origin, bottom at y = 0,
front towards local +Z; vehicles are long along local +X, see ``outdoor_vehicles``). ``size``
is the object's box (x, y, z); shape details and colours vary with ``rng``. Every result lies
inside the box, except horizontally by the documented factor :data:`OUTDOOR_ALLOWANCE`
(tree canopies, palm fronds, umbrella canopies, lamp and utility arms, flags); parts are not
merged, so callers (and tests) can still see each wheel, leg or lamp head. The builders live
in ``outdoor_vehicles``, ``outdoor_plants``, ``outdoor_street``, ``outdoor_roadworks``,
``outdoor_furniture`` and ``outdoor_playground``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from navbench.visual.mesh import Part
from navbench.visual.outdoor_furniture import FURNITURE_BUILDERS
from navbench.visual.outdoor_plants import PLANT_BUILDERS
from navbench.visual.outdoor_playground import PLAYGROUND_BUILDERS
from navbench.visual.outdoor_roadworks import ROADWORKS_BUILDERS
from navbench.visual.outdoor_street import STREET_BUILDERS
from navbench.visual.outdoor_vehicles import VEHICLE_BUILDERS
from navbench.visual.shapes import fit_to_box

Builder = Callable[[tuple[float, float, float], np.random.Generator], list[Part]]

#: Typical box sizes (x, y, z) in metres per category (the shared outdoor vocabulary).
OUTDOOR_SIZES: dict[str, tuple[float, float, float]] = {
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

#: Horizontal allowance: the mesh may reach ``factor × size/2`` from the centre in x and z
#: (1.0 for every category not listed). Heights never exceed the box.
OUTDOOR_ALLOWANCE: dict[str, float] = {
    "tree": 2.0, "palm tree": 4.0, "umbrella": 8.0, "street light": 6.0, "utility pole": 5.0,
    "flag pole": 7.0, "traffic light": 4.0,
}

_RAW: dict[str, Builder] = {**VEHICLE_BUILDERS, **PLANT_BUILDERS, **STREET_BUILDERS, **ROADWORKS_BUILDERS,
                             **FURNITURE_BUILDERS, **PLAYGROUND_BUILDERS}
assert set(_RAW) == set(OUTDOOR_SIZES), sorted(set(_RAW) ^ set(OUTDOOR_SIZES))


def _fitted(cat: str, fn: Builder) -> Builder:
    a = OUTDOOR_ALLOWANCE.get(cat, 1.0)

    def build(size: tuple[float, float, float], rng: np.random.Generator) -> list[Part]:
        return fit_to_box(fn(size, rng), size, (a, 1.0, a))

    build.__doc__ = fn.__doc__
    build.__name__ = fn.__name__
    return build


#: Category -> builder ``(size, rng) -> parts`` (local frame, see the module docstring).
OUTDOOR_BUILDERS: dict[str, Builder] = {cat: _fitted(cat, fn) for cat, fn in _RAW.items()}


def outdoor_parts(category: str, size: tuple[float, float, float], rng: np.random.Generator) -> list[Part]:
    """Parts of one ``category`` instance of box ``size`` (m).

    Raises:
        KeyError: ``category`` is not one of the 65 outdoor categories.
    """
    return OUTDOOR_BUILDERS[category](size, rng)
