"""MuJoCo's C functions and ``mjData`` fields, callable and readable from numba kernels.

The bindings cost ~1 µs per call and expose ``mjData.ncon`` and the contact array only as
Python objects, so a compiled control loop cannot step or read contacts without returning to
Python. This module gives it both, for the MuJoCo the bindings ship (pinned to 4.0):

- ``step``, ``geom_distance``, ``ray`` (and the per-type ``ray_geom``, ``ray_mesh``,
  ``ray_hfield``) are numba ``ExternalFunction`` s bound, through
  ``llvmlite.binding.add_symbol``, to ``mj_step``, ``mj_geomDistance``, ``mj_ray`` (and
  ``mju_rayGeom``, ``mj_rayMesh``, ``mj_rayHfield``) in the
  ``libmujoco`` next to the bindings (the library the bindings themselves run). They are bound
  by symbol name, so kernels that call them can be cached (``cache=True``).
- :func:`layout` finds the byte offsets of ``mjData.ncon``, of the ``mjData.contact`` pointer
  and of the fields of one ``mjContact``, from addresses and values the bindings expose, and
  verifies each on a private two-geom model.
- :func:`ptr` turns an address into a ``void*`` inside a kernel; :func:`ncon` and
  :func:`contacts` read the contacts through a :class:`Layout`.

Nothing here guesses: the library's version must equal the bindings', every signature must match
``mujoco.introspect``'s, and every offset must reproduce the bindings' values, or
:func:`available` is ``False`` (the reason in :func:`unavailable_reason`) and callers keep their
Python path. ``NAVBENCH_MJC=0`` forces that path (A/B tests, a suspected MuJoCo mismatch).

>>> import mujoco
>>> m = mujoco.MjModel.from_xml_string(
...     '<mujoco><worldbody><geom type="plane" size="5 5 .1"/><body pos="0 0 .099">'
...     '<freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>')
>>> d = mujoco.MjData(m)
>>> mujoco.mj_forward(m, d)
>>> if available():  # else: unavailable_reason() says why
...     assert read_ncon(d._address, layout().array) == d.ncon == 4
...     assert (contacts(d._address, layout().array)[0] == d.contact.geom).all()
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
from dataclasses import dataclass

import llvmlite.binding as llvm
import mujoco
import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: Signatures this module binds, as ``mujoco.introspect`` spells them (return, parameter types).
SIGNATURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "mj_step": ("void", ("const mjModel *", "mjData *")),
    "mj_geomDistance": ("mjtNum", ("const mjModel *", "mjData *", "int", "int", "mjtNum",
                                   "mjtNum [6]")),
    "mj_ray": ("mjtNum", ("const mjModel *", "const mjData *", "const mjtNum [3]",
                          "const mjtNum [3]", "const mjtByte *", "mjtBool", "int", "int [1]",
                          "mjtNum [3]")),
    "mju_rayGeom": ("mjtNum", ("const mjtNum [3]", "const mjtNum [9]", "const mjtNum [3]",
                               "const mjtNum [3]", "const mjtNum [3]", "int", "mjtNum [3]")),
    "mj_rayMesh": ("mjtNum", ("const mjModel *", "const mjData *", "int", "const mjtNum [3]",
                              "const mjtNum [3]", "mjtNum [3]")),
    "mj_rayHfield": ("mjtNum", ("const mjModel *", "const mjData *", "int", "const mjtNum [3]",
                                "const mjtNum [3]", "mjtNum [3]")),
}

_vp = types.voidptr
#: ``mj_step(m, d)``: one physics step (pointers from ``model._address``, ``data._address``).
step = types.ExternalFunction("mj_step", types.void(_vp, _vp))
#: ``mj_geomDistance(m, d, g1, g2, distmax, fromto)``: signed surface distance (m), capped.
geom_distance = types.ExternalFunction(
    "mj_geomDistance", types.float64(_vp, _vp, types.int32, types.int32, types.float64, _vp))
#: ``mj_ray(m, d, pnt, vec, geomgroup, flg_static, bodyexclude, geomid, normal)``: distance
#: along ``vec`` (in units of ``|vec|``) to the first geom hit, −1 if none.
ray = types.ExternalFunction(
    "mj_ray", types.float64(_vp, _vp, _vp, _vp, _vp, types.uint8, types.int32, _vp, _vp))
#: ``mju_rayGeom(pos, mat, size, pnt, vec, geomtype, normal)``: distance to a primitive, −1.
ray_geom = types.ExternalFunction("mju_rayGeom",
                                  types.float64(_vp, _vp, _vp, _vp, _vp, types.int32, _vp))
#: ``mj_rayMesh(m, d, geomid, pnt, vec, normal)`` / ``mj_rayHfield(...)``: the same for a mesh /
#: height field geom.
ray_mesh = types.ExternalFunction("mj_rayMesh", types.float64(_vp, _vp, types.int32, _vp, _vp,
                                                               _vp))
ray_hfield = types.ExternalFunction("mj_rayHfield", types.float64(_vp, _vp, types.int32, _vp,
                                                                   _vp, _vp))


@intrinsic
def ptr(typingctx, addr):
    """``(void*) addr`` for an integer address, inside a numba kernel."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(addr), codegen


#: Indices into :attr:`Layout.array`.
L_NCON, L_CONTACT, L_STRIDE, L_DIST, L_POS, L_FRAME, L_GEOM = range(7)


@dataclass(frozen=True)
class Layout:
    """Byte offsets of the ``mjData`` and ``mjContact`` fields a compiled loop reads.

    ``ncon`` (int32) and ``contact`` (``mjContact*``) are offsets from the ``mjData`` address;
    ``dist``, ``pos`` (3 doubles), ``frame`` (9 doubles, rows: normal, two tangents) and
    ``geom`` (2 int32) from the start of one ``mjContact``, ``stride`` bytes long."""

    ncon: int
    contact: int
    stride: int
    dist: int
    pos: int
    frame: int
    geom: int

    @property
    def array(self) -> np.ndarray:
        """The offsets as int64 ``[ncon, contact, stride, dist, pos, frame, geom]`` (``L_*``)."""
        return np.array([self.ncon, self.contact, self.stride, self.dist, self.pos, self.frame,
                         self.geom], dtype=np.int64)


@nb.njit(cache=True)
def read_ncon(da, lay):
    """``mjData.ncon`` for the ``mjData`` at address ``da`` (``lay``: :attr:`Layout.array`)."""
    return nb.carray(ptr(da + lay[L_NCON]), 1, np.int32)[0]


@nb.njit(cache=True)
def contacts(da, lay):
    """Views of the current contacts: ``geom`` (n, 2) int32, ``pos`` (n, 3) and ``frame``
    (n, 9) float64, world frame, as the bindings' ``data.contact`` fields (A-layout)."""
    n = nb.carray(ptr(da + lay[L_NCON]), 1, np.int32)[0]
    base = nb.carray(ptr(da + lay[L_CONTACT]), 1, np.int64)[0]
    s = lay[L_STRIDE]
    f = nb.carray(ptr(base), (max(n, 1), s // 8), np.float64)[:n]
    i = nb.carray(ptr(base), (max(n, 1), s // 4), np.int32)[:n]
    p, r, g = lay[L_POS] // 8, lay[L_FRAME] // 8, lay[L_GEOM] // 4
    return i[:, g:g + 2], f[:, p:p + 3], f[:, r:r + 9]


_REASON: list[str] = []


def _library() -> ctypes.CDLL:
    """The ``libmujoco`` shipped next to the bindings, of the bindings' version."""
    here = os.path.dirname(mujoco.__file__)
    names = sorted(glob.glob(os.path.join(here, "libmujoco.so*"))
                   + glob.glob(os.path.join(here, "libmujoco*.dylib"))
                   + glob.glob(os.path.join(here, "mujoco.dll")))
    for name in names:
        lib = ctypes.CDLL(name)
        if lib.mj_version() == mujoco.mj_version():
            return lib
    raise RuntimeError(f"no libmujoco of version {mujoco.mj_version()} in {here}")


def _check_signatures() -> None:
    from mujoco.introspect import functions

    for name, (ret, params) in SIGNATURES.items():
        f = functions.FUNCTIONS[name]
        got = (str(f.return_type), tuple(str(p.type) for p in f.parameters))
        if got != (ret, params):
            raise RuntimeError(f"{name} has signature {got}, expected {(ret, params)}")


def _probe() -> tuple[mujoco.MjModel, mujoco.MjData]:
    """A box resting on a plane (4 contacts after ``mj_forward``)."""
    m = mujoco.MjModel.from_xml_string(
        '<mujoco><worldbody><geom type="plane" size="5 5 .1"/><body pos="0 0 .099">'
        '<freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>')
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    return m, d


def _i32(addr: int) -> int:
    return ctypes.c_int32.from_address(addr).value


def _u64(addr: int) -> int:
    return ctypes.c_uint64.from_address(addr).value


def _find_layout() -> Layout:
    from mujoco.introspect import structs

    names = [f.name for f in structs.STRUCTS["mjData"].fields]
    kinds = [type(f.type).__name__ for f in structs.STRUCTS["mjData"].fields]
    if structs.STRUCTS["mjContact"].fields[0].name != "dist":
        raise RuntimeError("mjContact does not start with dist")
    m, d = _probe()
    if d.ncon != 4:
        raise RuntimeError(f"the probe model has {d.ncon} contacts, expected 4")
    a = d._address
    # the pointer block: `qpos` holds d.qpos's address and `qvel` (next) d.qvel's; every field
    # from there to `contact` is a pointer
    e = d.energy.ctypes.data - a
    iq, ic = names.index("qpos"), names.index("contact")
    q = next((o for o in range(e + 16, e + 16 + 8 * 8, 8) if _u64(a + o) == d.qpos.ctypes.data
              and _u64(a + o + 8) == d.qvel.ctypes.data), None)
    if q is None or names[iq + 1] != "qvel" or set(kinds[iq:ic + 1]) != {"PointerType"}:
        raise RuntimeError("the mjData pointer block is not where the bindings say")
    c = q + 8 * (ic - iq)
    ix = names.index("xpos")
    if _u64(a + q + 8 * (ix - iq)) != d.xpos.ctypes.data or \
            _u64(a + c) != d.contact.dist.ctypes.data:
        raise RuntimeError("mjData.xpos / mjData.contact pointers do not match the bindings")
    # ncon: the int32 before `time` that reads 4 here and 0 in the air, with nefc 16 bytes on
    n_ef = 4 * (names.index("nefc") - names.index("ncon"))
    cands = [o for o in range(e - 512, e, 4) if _i32(a + o) == d.ncon and
             _i32(a + o + n_ef) == d.nefc]
    d.qpos[2] = 1.0
    mujoco.mj_forward(m, d)
    cands = [o for o in cands if _i32(a + o) == d.ncon == 0 and _i32(a + o + n_ef) == d.nefc]
    if len(cands) != 1:
        raise RuntimeError(f"mjData.ncon not found ({len(cands)} candidates)")
    d.qpos[2] = 0.099
    mujoco.mj_forward(m, d)
    con = d.contact
    base = con.dist.ctypes.data
    lay = Layout(ncon=cands[0], contact=c, stride=int(con.geom.strides[0]), dist=0,
                 pos=con.pos.ctypes.data - base, frame=con.frame.ctypes.data - base,
                 geom=con.geom.ctypes.data - base)
    if lay.stride % 8 or lay.pos % 8 or lay.frame % 8 or lay.geom % 4:
        raise RuntimeError(f"unaligned mjContact layout {lay}")
    return lay


@functools.cache
def _setup() -> Layout | None:
    """Bind the symbols and find the layout once per process; ``None`` if unavailable."""
    if os.environ.get("NAVBENCH_MJC", "1") == "0":
        _REASON.append("disabled by NAVBENCH_MJC=0")
        return None
    try:
        _check_signatures()
        lib = _library()
        for name in SIGNATURES:
            llvm.add_symbol(name, ctypes.cast(getattr(lib, name), ctypes.c_void_p).value)
        lay = _find_layout()
        _verify(lay)
    except (RuntimeError, OSError, KeyError, AttributeError) as exc:
        _REASON.append(str(exc))
        return None
    return lay


@nb.njit(cache=True)
def _probe_kernel(ma, da, lay, n):
    for _ in range(n):
        step(ptr(ma), ptr(da))
    return contacts(da, lay)


def _verify(lay: Layout) -> None:
    """Step the probe from a drop through the bindings and through the kernel: same state and
    the same contacts, read both ways."""
    m1, d1 = _probe()
    m2, d2 = _probe()
    for d in (d1, d2):
        d.qpos[2] = 0.15
    mujoco.mj_step(m1, d1, nstep=200)
    g, p, f = _probe_kernel(m2._address, d2._address, lay.array, 200)
    c = d1.contact
    if not (np.array_equal(d1.qpos, d2.qpos) and d1.ncon == d2.ncon == len(g) > 0 and
            np.array_equal(g, c.geom) and np.array_equal(p, c.pos) and
            np.array_equal(f, c.frame)):
        raise RuntimeError("stepping through libmujoco differs from the bindings")


def available() -> bool:
    """Whether the compiled calls and the layout are usable in this process."""
    return _setup() is not None


def layout() -> Layout:
    """The verified :class:`Layout` (call only when :func:`available`)."""
    lay = _setup()
    if lay is None:
        raise RuntimeError(f"MuJoCo's C calls are unavailable: {unavailable_reason()}")
    return lay


def unavailable_reason() -> str:
    """Why :func:`available` is ``False`` (empty when it is ``True``)."""
    _setup()
    return "; ".join(_REASON)


__all__ = ["L_CONTACT", "L_DIST", "L_FRAME", "L_GEOM", "L_NCON", "L_POS", "L_STRIDE",
           "SIGNATURES", "Layout", "available", "contacts", "geom_distance", "layout", "ptr",
           "ray", "ray_geom", "ray_hfield", "ray_mesh", "read_ncon", "step",
           "unavailable_reason"]
