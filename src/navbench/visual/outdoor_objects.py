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

from navbench.scene.procgen.outdoor_groups import CATALOG
from navbench.visual.mesh import Part
from navbench.visual.outdoor_furniture import FURNITURE_BUILDERS
from navbench.visual.outdoor_plants import PLANT_BUILDERS
from navbench.visual.outdoor_playground import PLAYGROUND_BUILDERS
from navbench.visual.outdoor_roadworks import ROADWORKS_BUILDERS
from navbench.visual.outdoor_street import STREET_BUILDERS
from navbench.visual.outdoor_vehicles import VEHICLE_BUILDERS
from navbench.visual.shapes import fit_to_box

Builder = Callable[[tuple[float, float, float], np.random.Generator], list[Part]]

#: Typical box sizes (x, y, z) in metres per category: the shared outdoor vocabulary, declared
#: once by the city generator (``scene.procgen.outdoor_groups.CATALOG``).
OUTDOOR_SIZES = CATALOG

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
