"""Which material an indoor object is made of: finishes chosen per category and varied per
instance by the object's seeded generator.

Casework (wardrobes, dressers, cabinets, kitchen units ...) draws a finish family from
:data:`CASE_FINISHES` by weight: a wood species (``oak``, ``walnut``, ``cherry``, ``maple``,
``pine``; each instance ±6 % in tone), printed ``laminate_wood``, solid-colour ``laminate``,
``painted`` wood or gloss ``lacquer`` in the family's colours. Upholstery draws linen, velvet,
tweed or leather with colours typical of each (:func:`upholstery`). The tables follow what the
furniture is commonly sold in: kitchens mostly painted or lacquered, sideboards walnut or oak,
TV stands black or white laminate, wardrobes white or oak.
"""

from __future__ import annotations

import numpy as np

from navbench.visual.materials import tinted

RGB = tuple[float, float, float]

SPECIES = ("oak", "walnut", "cherry", "maple", "pine")
#: Paint colours of painted furniture (white, cream, greys, sage, navy, black ...).
PAINT: tuple[RGB, ...] = ((0.95, 0.95, 0.93), (0.93, 0.9, 0.82), (0.78, 0.79, 0.78), (0.55, 0.62, 0.55),
                          (0.2, 0.26, 0.38), (0.3, 0.31, 0.33), (0.12, 0.12, 0.13), (0.6, 0.7, 0.78))
#: Melamine / laminate colours (mostly white, grey and black).
LAMINATE: tuple[RGB, ...] = ((0.96, 0.96, 0.95), (0.97, 0.97, 0.96), (0.7, 0.71, 0.72), (0.14, 0.14, 0.15),
                             (0.35, 0.36, 0.38))
#: Gloss lacquer colours (kitchens, sideboards).
LACQUER: tuple[RGB, ...] = ((0.96, 0.96, 0.95), (0.15, 0.16, 0.18), (0.45, 0.52, 0.5), (0.85, 0.8, 0.7),
                            (0.55, 0.1, 0.12))
#: Finish families and weights per casework category ("*": any other).
CASE_FINISHES: dict[str, tuple[tuple[str, float], ...]] = {
    "wardrobe": (("painted", 3), ("oak", 2), ("laminate", 2), ("walnut", 1), ("laminate_wood", 1)),
    "dresser": (("painted", 2), ("oak", 2), ("walnut", 1), ("cherry", 1), ("maple", 1)),
    "nightstand": (("painted", 2), ("oak", 2), ("walnut", 1), ("pine", 1), ("maple", 1)),
    "cabinet": (("painted", 2), ("oak", 1), ("walnut", 1), ("laminate", 1)),
    "sideboard": (("walnut", 3), ("oak", 2), ("lacquer", 1), ("painted", 1)),
    "tv stand": (("laminate", 3), ("walnut", 1), ("oak", 1), ("lacquer", 1)),
    "counter": (("painted", 3), ("lacquer", 2), ("laminate_wood", 1), ("oak", 1)),
    "kitchen island": (("painted", 3), ("lacquer", 2), ("oak", 1), ("walnut", 1)),
    "bookshelf": (("laminate", 2), ("oak", 2), ("walnut", 1), ("pine", 1)),
    "desk": (("oak", 2), ("laminate", 2), ("walnut", 1), ("maple", 1)),
    "table": (("oak", 2), ("walnut", 2), ("cherry", 1), ("pine", 1), ("maple", 1)),
    "chair": (("oak", 2), ("walnut", 1), ("painted", 1), ("maple", 1)),
    "bed": (("oak", 2), ("walnut", 1), ("painted", 1), ("pine", 1)),
    "shoe rack": (("pine", 1), ("oak", 1), ("laminate", 1)),
    "bench": (("oak", 2), ("pine", 1), ("walnut", 1)),
    "frame": (("oak", 2), ("walnut", 2), ("painted", 1), ("maple", 1)),
    "*": (("oak", 2), ("walnut", 1), ("painted", 1), ("laminate", 1)),
}
#: Upholstery families and the colours each is commonly sold in.
UPHOLSTERY: dict[str, tuple[RGB, ...]] = {
    "linen": ((0.78, 0.74, 0.66), (0.6, 0.6, 0.58), (0.85, 0.82, 0.74), (0.25, 0.3, 0.42), (0.45, 0.48, 0.36),
              (0.92, 0.9, 0.86)),
    "velvet": ((0.1, 0.38, 0.3), (0.16, 0.2, 0.4), (0.75, 0.55, 0.15), (0.6, 0.28, 0.16), (0.82, 0.6, 0.58),
               (0.45, 0.46, 0.48)),
    "tweed": ((0.5, 0.5, 0.5), (0.3, 0.3, 0.32), (0.42, 0.48, 0.56), (0.55, 0.5, 0.52)),
    "leather": ((0.55, 0.33, 0.18), (0.4, 0.2, 0.1), (0.22, 0.13, 0.08), (0.1, 0.1, 0.1), (0.72, 0.55, 0.38)),
}
_UPH_WEIGHTS = {"linen": 3.0, "velvet": 2.0, "tweed": 2.0, "leather": 1.0}


def _choose(rng: np.random.Generator, options: tuple[tuple[str, float], ...]) -> str:
    w = np.array([o[1] for o in options], float)
    return options[int(rng.choice(len(options), p=w / w.sum()))][0]


def colour(rng: np.random.Generator, palette: tuple[RGB, ...], jitter: float = 0.04) -> RGB:
    """One colour of ``palette``, its brightness varied by ±``jitter``."""
    c = np.asarray(palette[int(rng.integers(len(palette)))], float)
    c = np.clip(c * rng.uniform(1 - jitter, 1 + jitter), 0, 1)
    return (float(c[0]), float(c[1]), float(c[2]))


def species(rng: np.random.Generator, name: str | None = None) -> str:
    """A wood species material key (seeded pick unless ``name``), tone varied by ±6 %."""
    sp = name or SPECIES[int(rng.integers(len(SPECIES)))]
    return tinted(sp, (float(rng.uniform(0.88, 1.0)),) * 3)


def family(rng: np.random.Generator, fam: str) -> str:
    """A material key of finish family ``fam`` with a seeded colour or tone."""
    if fam in SPECIES:
        return species(rng, fam)
    if fam == "painted":
        return tinted("painted", colour(rng, PAINT))
    if fam == "laminate":
        return tinted("laminate", colour(rng, LAMINATE, 0.02))
    if fam == "lacquer":
        return tinted("lacquer", colour(rng, LACQUER, 0.02))
    if fam == "laminate_wood":
        return "laminate_wood"
    raise KeyError(fam)


def case(rng: np.random.Generator, category: str) -> str:
    """The carcass / top finish of a piece of furniture of ``category``."""
    return family(rng, _choose(rng, CASE_FINISHES.get(category, CASE_FINISHES["*"])))


def upholstery(rng: np.random.Generator, leather: bool = True) -> str:
    """A cover material: linen, velvet, tweed or (``leather``) leather, in a colour sold in it."""
    opts = tuple((k, w) for k, w in _UPH_WEIGHTS.items() if leather or k != "leather")
    fam = _choose(rng, opts)
    return tinted(fam, colour(rng, UPHOLSTERY[fam]))


def hardware(rng: np.random.Generator) -> str:
    """Handle / knob metal: chrome, brushed steel, matt black or brass."""
    return ("chrome", "stainless", "black_metal", "brass")[int(rng.choice(4, p=[0.3, 0.3, 0.25, 0.15]))]


def bedding(rng: np.random.Generator) -> str:
    """A duvet / throw: linen or knit in soft colours."""
    fam = "knit" if rng.random() < 0.3 else "linen"
    return tinted(fam, colour(rng, ((0.95, 0.95, 0.93), (0.75, 0.8, 0.86), (0.85, 0.78, 0.7), (0.6, 0.65, 0.55),
                                     (0.8, 0.6, 0.6), (0.4, 0.45, 0.55))))
