"""Parked vehicles along the curbs of procedural city streets.

Vehicles park in the curb lane of each street segment (right-hand traffic: the curb on the
driver's right), 0.3 m off the curb, with bumper gaps of ``U(gap)`` metres, empty stretches
(probability ``empty_prob`` per slot, ``U(empty)`` metres long), and nothing within
``crosswalk_clear`` metres of the crosswalks at the segment ends or inside a no-parking zone
(driveways, hydrant gaps, bus stops, road works: see :mod:`navbench.scene.procgen.props`).
Vehicle boxes use the catalog sizes with x = length along the heading (local +X = forward).
Frame: Habitat, metres; yaw 0 faces -Z.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from navbench.scene.procgen.outdoor_groups import CATALOG
from navbench.scene.procgen.urban import ROAD_Y, Rect

#: Parked vehicle mix (label -> relative frequency).
PARKED_MIX: dict[str, float] = {"car": 0.86, "van": 0.07, "truck": 0.02, "motorcycle": 0.05}


@dataclass(frozen=True)
class NoParking:
    """A curb interval where no vehicle may park: centre (x, z) on the curb, half length (m)."""

    x: float
    z: float
    half: float
    reason: str


@dataclass(frozen=True)
class ParkingSettings:
    """Curb parking parameters (metres)."""

    gap: tuple[float, float] = (0.8, 3.5)
    empty_prob: float = 0.22
    empty: tuple[float, float] = (6.0, 30.0)
    crosswalk_clear: float = 4.0
    curb_offset: float = 0.3


def vehicle_yaw(hx: float, hz: float) -> float:
    """Yaw (rad) that points a vehicle box's local +X along the XZ heading ``(hx, hz)``."""
    return math.atan2(-hz, hx)


def curbs_of_roads(roads: list[tuple[Rect, int, str]]) -> list[tuple[tuple[float, float], tuple[float, float],
                                                                       float, float]]:
    """Both curbs of each street segment: ``(curb point at lo, along unit, lo, hi)`` plus the
    normal into the road, as ``((ox, oz), (nx, nz), lo, hi)`` with the along axis implied."""
    out = []
    for r, _lanes, axis in roads:
        if not axis:
            continue
        x0, z0, x1, z1 = r
        if axis == "z":
            out += [((x0, z0), (1.0, 0.0), z0, z1), ((x1, z0), (-1.0, 0.0), z0, z1)]
        else:
            out += [((x0, z0), (0.0, 1.0), x0, x1), ((x0, z1), (0.0, -1.0), x0, x1)]
    return out


def _blocked(x: float, z: float, ux: float, uz: float, half_len: float, zones: list[NoParking]) -> bool:
    for zn in zones:
        dx, dz = zn.x - x, zn.z - z
        along = abs(dx * ux + dz * uz)
        across = abs(-dx * uz + dz * ux)
        if across < 4.0 and along < zn.half + half_len:
            return True
    return False


def parked_vehicles(roads: list[tuple[Rect, int, str]], zones: list[NoParking], rng: np.random.Generator,
                    cfg: ParkingSettings | None = None) -> list[tuple[str, tuple[float, float, float], float]]:
    """All parked vehicles ``(label, box centre, yaw)`` along every curb, before any budget."""
    s = cfg or ParkingSettings()
    out: list[tuple[str, tuple[float, float, float], float]] = []
    for (ox, oz), (nx, nz), lo, hi in curbs_of_roads(roads):
        ux, uz = (0.0, 1.0) if nx != 0 else (1.0, 0.0)  # along the curb

        def at(c: float, off: float, ox: float = ox, oz: float = oz, nx: float = nx, nz: float = nz
               ) -> tuple[float, float]:
            return (ox if nx != 0 else c) + nx * off, (oz if nz != 0 else c) + nz * off

        park_curb(at, (ux, uz), (-nz, nx), lo, hi, zones, rng, s, out)
    return out


#: A curb point: ``at(t, off)`` = the XZ point ``t`` m along the curb, ``off`` m into the road.
CurbPoint = Callable[[float, float], tuple[float, float]]
#: An extra test of a vehicle's box: ``ok(x, z, yaw, length, width)``.
SpotCheck = Callable[[float, float, float, float, float], bool]


def park_curb(at: CurbPoint, along: tuple[float, float], heading: tuple[float, float], lo: float, hi: float,
              zones: list[NoParking], rng: np.random.Generator, s: ParkingSettings,
              out: list[tuple[str, tuple[float, float, float], float]], ok: SpotCheck | None = None) -> None:
    """Park vehicles along one straight curb from ``lo`` to ``hi`` (m along it): ``at`` places
    a point, ``along`` is the unit along the curb, ``heading`` the driving direction (the curb
    on the driver's right); ``ok`` may veto a spot (the vehicle then moves on 1 m)."""
    labels = list(PARKED_MIX)
    w = np.array([PARKED_MIX[k] for k in labels])
    w = w / w.sum()
    ux, uz = along
    hx, hz = heading
    t = lo + s.crosswalk_clear + float(rng.uniform(0.0, 3.0))
    while True:
        if rng.random() < s.empty_prob:
            t += float(rng.uniform(*s.empty))
            continue
        label = labels[int(rng.choice(len(labels), p=w))]
        length, height, width = CATALOG[label]
        if t + length > hi - s.crosswalk_clear:
            break
        off = s.curb_offset + width / 2
        c = t + length / 2
        x, z = at(c, off)
        yaw = vehicle_yaw(hx, hz)
        if _blocked(x, z, ux, uz, length / 2, zones) or (ok is not None and not ok(x, z, yaw, length, width)):
            t += 1.0
            continue
        out.append((label, (x, ROAD_Y + height / 2, z), yaw))
        t += length + float(rng.uniform(*s.gap))
