"""Where a storefront's sign hangs: one declaration for every scene source and the visual layer.

Heights are metres above the place's entrance level (the sidewalk top, ``SIDEWALK_Y``); depths
are metres out of the facade towards the street, inside the 0.3 m shop-front footprint. The band
is chosen so that both robots' cameras see the whole sign with their base 3-15 m from the facade
(the derivation from the camera poses is in :mod:`navbench.visual.storefront`). The procedural
city (:mod:`navbench.scene.procgen.buildings`) and the OSM importer
(:mod:`navbench.scene.sources.osm`) put their sign collision boxes here; the visual layer draws
the sign over that box.
"""

from __future__ import annotations

#: Bottom and top of the sign above the entrance level (m).
SIGN_BAND: tuple[float, float] = (1.12, 1.72)
#: Back and front of the sign box out of the facade (m).
SIGN_Z: tuple[float, float] = (0.12, 0.18)


def sign_box_geometry(entrance_y: float) -> tuple[float, float, float, float]:
    """``(centre y, centre offset from the facade, height, depth)`` of a sign box (m) for a
    place whose entrance is at height ``entrance_y`` (m, world Y)."""
    lo, hi = SIGN_BAND
    z0, z1 = SIGN_Z
    # rounded to the nm: 1.72 - 1.12 is 0.5999999999999999 in floating point, and scene files and
    # the visual cache keys must keep their bytes
    return entrance_y + round((lo + hi) / 2, 9), round((z0 + z1) / 2, 9), round(hi - lo, 9), round(z1 - z0, 9)


__all__ = ["SIGN_BAND", "SIGN_Z", "sign_box_geometry"]
