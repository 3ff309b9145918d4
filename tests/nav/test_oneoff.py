"""One-off queries on a prepared layer (nav/oneoff.py: lazy landmark heuristic, one numba call
for snapping + search + assembly) and the precomputation saved in the navmesh .npz.

References: brute-force Dijkstra over every corner pair (tests/nav/test_search.py's Brute),
hand-placed points, and the unprepared navmesh; the fast path is checked to be the one taken."""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import numpy as np
import pytest

from navbench.cli import main
from navbench.errors import FormatError
from navbench.nav import NavMesh, oneoff, query
from navbench.scene import save as save_scene
from tests.nav import worlds
from tests.nav.test_prep import _blocks
from tests.nav.test_search import Brute


@pytest.fixture(autouse=True)
def _always_precompute(monkeypatch: pytest.MonkeyPatch) -> None:
    """These worlds are small: let prepare_queries prepare them anyway."""
    monkeypatch.setattr(query, "PREP_MIN_CORNERS", 0)


@pytest.fixture(scope="module")
def prepared() -> tuple[NavMesh, Brute]:
    nm = _blocks()
    query.PREP_MIN_CORNERS, old = 0, query.PREP_MIN_CORNERS
    try:
        nm.prepare_queries()
    finally:
        query.PREP_MIN_CORNERS = old
    return nm, Brute(nm)


def _no_general(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the general branches (snapping in Python, separate search) fail loudly."""
    def fail(*_: object) -> None:
        raise AssertionError("general branch used")

    monkeypatch.setattr(query, "_prepare", fail)


def test_fast_path_equals_brute_force(prepared: tuple[NavMesh, Brute],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Navigable start and goals: answered in one call, lengths = brute force, the polyline
    runs from the start to the goal (x, z kept, y on the floor) and has that length; asking
    the same pairs again in reverse order (scratch rows reused) gives the same answers."""
    nm, brute = prepared
    rng = np.random.default_rng(21)
    pairs = [(nm.sample_point(rng), nm.sample_point(rng)) for _ in range(24)]
    ref = [brute.distance(a, b[None]) for a, b in pairs]
    _no_general(monkeypatch)
    detours = 0
    for (a, b), r in zip(pairs, ref, strict=True):
        sp = nm.find_path(a, b)
        assert sp.geodesic_distance == pytest.approx(r, rel=1e-6)
        P = np.array(sp.points)
        assert np.array_equal(P[0], a) and np.array_equal(P[-1], b) and sp.goal_index == 0
        assert float(np.linalg.norm(np.diff(P, axis=0), axis=1).sum()) == pytest.approx(r, rel=1e-9)
        detours += r > math.dist(a, b) + 1e-6
    assert detours >= 8  # the landmark heuristic and its lazy evaluation are exercised
    for (a, b), r in reversed(list(zip(pairs, ref, strict=True))):
        assert nm.find_path(a, b).geodesic_distance == pytest.approx(r, rel=1e-6)
    goals = np.array([p for _, p in pairs[:4]])
    sp = nm.find_path(pairs[5][0], goals)
    want = [brute.distance(pairs[5][0], g[None]) for g in goals]
    assert sp.geodesic_distance == pytest.approx(min(want), rel=1e-6)
    assert sp.goal_index == int(np.argmin(want))


def test_other_cases_leave_the_fast_path(prepared: tuple[NavMesh, Brute]) -> None:
    """An off-mesh start is snapped (general branch), a goal off the mesh is dropped from a
    goal list, and an unreachable goal gives the documented empty answer."""
    nm, brute = prepared
    a = np.array([0.05, 0.0, 7.0])  # 0.05 m from the floor's west edge: not navigable (r 0.2)
    assert not nm.is_navigable(a)
    b = np.array([18.0, 0.0, 7.0])
    sp = nm.find_path(a, b)
    sa = np.array(sp.points[0])
    assert nm.is_navigable(sa) and abs(sa[0] - a[0]) <= nm.settings.snap_radius
    assert sp.geodesic_distance == pytest.approx(brute.distance(sa, b[None]), rel=1e-6)
    far = np.array([50.0, 0.0, 7.0])
    sp = nm.find_path((1.0, 0.0, 7.5), [far, b])
    assert sp.goal_index == 1
    assert sp.geodesic_distance == pytest.approx(brute.distance(np.array([1.0, 0.0, 7.5]), b[None]),
                                                 rel=1e-6)
    assert nm.find_path((1.0, 0.0, 7.5), far) == query.NONE


def test_saved_precomputation_round_trip(prepared: tuple[NavMesh, Brute], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """save(queries=True) stores the tables; the loaded navmesh answers on the fast path with
    the brute-force lengths; the bytes do not depend on whether the navmesh was prepared
    before saving; a plain save stays as it was (no precomputation members)."""
    nm, brute = prepared
    fresh = _blocks()
    p1, p2, p3, p4 = (tmp_path / f"{k}.npz" for k in "abcd")
    nm.save(p1, queries=True)
    fresh.save(p3)
    fresh.save(p2, queries=True)  # built inside save
    nm.save(p4)
    assert p1.read_bytes() == p2.read_bytes()
    assert p3.read_bytes() == p4.read_bytes()
    with zipfile.ZipFile(p3) as z:
        assert not [f for f in z.namelist() if "prep" in f]
    with zipfile.ZipFile(p1) as z:
        assert {"layer0/prep_ptr.npy", "layer0/prep_corners.npy", "layer0/prep_lmd.npy"} <= set(z.namelist())
    back = NavMesh.load(p1)
    for f in ("ptr", "corners", "lmd"):
        assert getattr(back._prep_cache[0], f).tobytes() == getattr(nm._prep_cache[0], f).tobytes()
    assert NavMesh.load(p3)._prep_cache == {}
    rng = np.random.default_rng(22)
    pairs = [(back.sample_point(rng), back.sample_point(rng)) for _ in range(6)]
    _no_general(monkeypatch)
    for a, b in pairs:
        assert back.find_path(a, b).geodesic_distance == pytest.approx(brute.distance(a, b[None]),
                                                                       rel=1e-6)


def _rewrite(src: Path, dst: Path, name: str, value: np.ndarray | bytes) -> None:
    """Copy archive ``src`` to ``dst`` with member ``name`` replaced."""
    import io

    if isinstance(value, np.ndarray):
        b = io.BytesIO()
        np.lib.format.write_array(b, value, allow_pickle=False)
        value = b.getvalue()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            zout.writestr(item.filename, value if item.filename == name else zin.read(item.filename))


def test_corrupt_precomputation_is_a_format_error(prepared: tuple[NavMesh, Brute],
                                                  tmp_path: Path) -> None:
    nm, _ = prepared
    good = tmp_path / "good.npz"
    nm.save(good, queries=True)
    P, n = nm._prep_cache[0], len(nm.graphs[0].nodes.pos)
    corners = P.corners.astype(np.int64)
    corners[3] = n  # no such corner
    ptr = P.ptr.copy()
    ptr[5], ptr[6] = ptr[6], ptr[5] - 1  # decreasing
    meta = np.load(good)["meta"].tobytes().decode()
    cases = {
        "layer0/prep_corners": ("layer0/prep_corners.npy", corners),
        "layer0/prep_ptr": ("layer0/prep_ptr.npy", ptr),
        "layer0/prep_lmd": ("layer0/prep_lmd.npy", P.lmd[:-1]),
        "meta.prep.0": ("meta.npy", np.frombuffer(meta.replace(f'"0": [{P.m}, {P.cols}]',
                                                               f'"0": [{P.m}, {P.cols + 1}]').encode(),
                                                  np.uint8)),
    }
    for field, (member, value) in cases.items():
        bad = tmp_path / "bad.npz"
        _rewrite(good, bad, member, value)
        with pytest.raises(FormatError, match=field.replace(".", r"\.")) as e:
            NavMesh.load(bad)
        assert "bad.npz" in str(e.value)
    neg = P.lmd.copy()
    neg[0, 0] = -1.0
    _rewrite(good, tmp_path / "neg.npz", "layer0/prep_lmd.npy", neg)
    with pytest.raises(FormatError, match="prep_lmd"):
        NavMesh.load(tmp_path / "neg.npz")
    cut = tmp_path / "cut.npz"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(cut, "w") as zout:
        for item in zin.infolist():
            if item.filename != "layer0/prep_lmd.npy":
                zout.writestr(item, zin.read(item.filename))
    with pytest.raises(FormatError, match="layer0/prep_lmd"):
        NavMesh.load(cut)


def test_cli_build_prepare_queries(tmp_path: Path) -> None:
    scene = tmp_path / "u.json"
    save_scene(worlds.u_corridor(), scene)
    out = tmp_path / "u.npz"
    with pytest.raises(SystemExit) as e:
        main(["nav", "build", str(scene), "-o", str(out), "--prepare-queries"])
    assert e.value.code == 0
    nm = NavMesh.load(out)
    assert 0 in nm._prep_cache
    # around the wall's free end (x = 3): longer than the straight 2 m
    assert nm.geodesic_distance((0.5, 0.0, 1.0), (0.5, 0.0, 3.0)) > 5.0


def test_rounded_down_bounds_the_landmark_table() -> None:
    """float32 0.1 rounds up (0.100000001490116), so it is stepped down to 0.099999994; exact
    values stay; inf stays inf; 1e6 + 0.1 m (float32 spacing 0.0625 there) goes to 1e6 + 0.0625."""
    a = np.array([[0.1, 1.0 / 3.0, 0.0], [2.5, np.inf, 1e6 + 0.1]])
    b = oneoff.rounded_down(a)
    assert b.dtype == np.float32
    assert b[0, 0] == np.nextafter(np.float32(0.1), np.float32(0)) and float(b[0, 0]) < 0.1
    assert b[1, 0] == 2.5 and b[0, 2] == 0.0 and np.isinf(b[1, 1])
    assert float(b[1, 2]) == 1e6 + 0.0625
    fin = np.isfinite(a)
    lo = b[fin].astype(np.float64)
    assert (lo <= a[fin]).all() and (a[fin] <= lo * oneoff._UP).all()
