"""Compiled 50 Hz control tick (numba): the PI velocity loop and the contact scan.

One control tick of :class:`navbench.sim.simulator.Simulator` is :func:`control` (follower or
velocity command → body → world → PI velocity loop → ``data.ctrl``), ``mj_step`` × substeps,
then :func:`scan` (the contact scan of :class:`navbench.sim.contacts.ContactScan`). Both run
through the single entry point :func:`tick` (one compiled version, :func:`compile_tick`): per
agent step one ``tick`` call before the first ``mj_step`` and one after each (scan, then the
next tick's command). A call costs ~3 µs, reading ``data.contact``'s three fields ~2 µs.
The float operations are those of the former pure-Python loop, in the same order (libm's
``hypot``/``atan2``, so the last bit may differ from CPython's).

Arrays (all float64 unless noted; ``SC_*`` / ``T_*`` index them):

- contacts (``data.contact``): ``geom`` ``(n, 2)`` int32, ``pos`` ``(n, 3)``, ``frame``
  ``(n, 9)`` (row 0 = the normal);
- ``lut`` ``(ngeom + 1, 3)``: per geom (plus "no geom") ground flag, friction μ (scaled),
  level-box-top flag;
- ``sc``: the scan's constants and state (caps in N, drop limits in m, support history of the
  last 10 ticks as a ring);
- ``ts``: the tick's state: servo integrals (m/s), last servo error (world XZ, m/s), the
  velocity command (body frame), servo constants, ``dt`` (s), follow flag;
- ``fr`` = ``model.actuator_forcerange`` (written in place), ``qpos``/``qvel``/``ctrl`` of
  ``data``, ``xmat`` = the robot body's 3x3 orientation (9,).
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from types import ModuleType

import numba as nb

from navbench.sim import follow_kernels as fk
from navbench.sim import traction
from navbench.sim.traction import wheel_limits

SUPPORT_COS = math.cos(math.radians(35.0))  # support normals are within 35° of vertical
EDGE_RISE = 0.004  # a step edge touches the sole at least this far above its lowest contact (m)
LEVEL_COS = math.cos(math.radians(5.0))  # a contact normal this close to vertical is a box's top
_HALF = math.sqrt(0.5)

# sc: scan constants and state
SC_CAPX, SC_CAPZ, SC_CAP, SC_CLIMB, SC_WEIGHT, SC_MASS = 0, 1, 2, 3, 4, 5
SC_MAX_DROP, SC_HOLE_DROP, SC_TILT_UP, SC_MAX_TILT, SC_SUPPORT_Y = 6, 7, 8, 9, 10
SC_KV, SC_HALF_TRACK, SC_COLLIDED, SC_WHEELED, SC_AX, SC_AZ, SC_AYAW = 11, 12, 13, 14, 15, 16, 17
SC_NREC, SC_HEAD, SC_REC = 18, 19, 20  # support history: count, next slot, 10 heights
NSC = SC_REC + 10
# ts: tick state
T_IX, T_IZ, T_EX, T_EZ, T_VX, T_VY, T_W, T_KI, T_LIM, T_KV, T_DT, T_FOLLOW = range(12)
NT = 12
DROP, TILT = 1, 2  # fall codes (0: none)


@nb.njit(cache=True)
def scan(geom, pos, frame, lut, sc, fr, qpos, qvel, ctrl, xmat, fs, ex, ez):
    """Contact scan after a tick with planar servo error ``(ex, ez)``: collision flag, support
    and edge, force caps (written to ``fr``), the follower's braking (``fs``), falls; the
    fall code (0, ``DROP`` or ``TILT``). The robot is the only moving body, so every contact
    pairs it with a static geom, whose id is the smaller one."""
    supported = edge = False
    mu = 0.0
    cos_s = 1.0  # |n_y| of the steepest support normal
    ground_y = math.inf
    n = geom.shape[0]
    if n:
        nground = 0
        for k in range(n):
            g = min(geom[k, 0], geom[k, 1])
            if lut[g, 0] != 0.0:
                nground += 1
                if pos[k, 1] < ground_y:
                    ground_y = pos[k, 1]  # the lowest ground contact
        if nground < n:
            sc[SC_COLLIDED] = 1.0
        if nground:
            low = ground_y + EDGE_RISE
            support_y = math.inf
            for k in range(n):
                g = min(geom[k, 0], geom[k, 1])
                if lut[g, 0] == 0.0:
                    continue
                high = pos[k, 1] >= low  # not at the lowest level: support if near-vertical
                level = lut[g, 2] != 0.0
                if high or level:
                    n_y = frame[k, 1]
                    if (high and not (n_y > SUPPORT_COS or -n_y > SUPPORT_COS)) or \
                            (level and abs(n_y) < LEVEL_COS):  # a level top's corner
                        edge = True
                        continue
                supported = True
                if lut[g, 1] > mu:
                    mu = lut[g, 1]
                a_y = abs(frame[k, 1])
                if a_y < cos_s:
                    cos_s = a_y
                if pos[k, 1] < support_y:
                    support_y = pos[k, 1]
            ground_y = support_y
    # On a support tilted by θ (normal more than 5° from vertical) the planar force reaches
    # min(force_cap, μ) m g along the ground when it is that divided by cos θ: a slope holds
    # the robot while sin θ ≤ min(force_cap, μ) (module docs of sim.embodiments); θ is
    # clamped at 45° (a steeper support tips the body over).
    slope = 1.0 if cos_s > LEVEL_COS else 1.0 / max(cos_s, _HALF)
    weight = sc[SC_WEIGHT] * slope
    if edge:
        cap = sc[SC_CLIMB]
    elif supported:
        cap = min(sc[SC_CAP] * slope, mu * weight)
        fs[fk.S_BRAKE] = 0.8 * cap / sc[SC_MASS]  # the traction it can brake with
    else:
        cap = 0.0
    if sc[SC_WHEELED] != 0.0:  # one friction budget for drive, side force and yaw
        ax, az, ayaw = int(sc[SC_AX]), int(sc[SC_AZ]), int(sc[SC_AYAW])
        mu_n = sc[SC_CLIMB] if edge else (mu * weight if supported else 0.0)
        cx, cz, ct = wheel_limits(
            ctrl[ax] - qvel[0], ctrl[az] - qvel[2], qpos[3], ctrl[ayaw] - qvel[3], sc[SC_KV],
            mu_n, sc[SC_CLIMB] if edge else sc[SC_CAP] * slope, sc[SC_HALF_TRACK])
        fr[ayaw, 0], fr[ayaw, 1] = -ct, ct
    else:  # legged: the cap bounds the planar force's norm, along the servo error
        nrm = math.hypot(ex, ez)
        if nrm > 1e-9:
            cx, cz = cap * (abs(ex) / nrm), cap * (abs(ez) / nrm)
        else:
            cx = cz = cap * _HALF
    if cx != sc[SC_CAPX] or cz != sc[SC_CAPZ]:  # the model holds the last caps written
        sc[SC_CAPX], sc[SC_CAPZ] = cx, cz
        ax, az = int(sc[SC_AX]), int(sc[SC_AZ])
        fr[ax, 0], fr[ax, 1], fr[az, 0], fr[az, 1] = -cx, cx, -cz, cz
    fall = 0
    if supported:  # a step down: the ground under the sole is lower by more than max_drop
        nrec = int(sc[SC_NREC])  # than anywhere it stood on in the last 10 ticks
        lowest = sc[SC_REC]
        for j in range(1, nrec):
            lowest = min(lowest, sc[SC_REC + j])
        if lowest - ground_y > sc[SC_MAX_DROP]:
            fall = DROP
        head = int(sc[SC_HEAD])
        sc[SC_REC + head] = ground_y
        sc[SC_HEAD], sc[SC_NREC] = (head + 1) % 10, min(nrec + 1, 10)
        sc[SC_SUPPORT_Y] = ground_y
    elif sc[SC_SUPPORT_Y] - qpos[1] > sc[SC_HOLE_DROP]:  # into a hole
        fall = DROP
    # tilt > max_tilt ⇔ up_y < cos(max_tilt); the exact test runs only near the threshold
    if fall == 0 and xmat[4] < sc[SC_TILT_UP] and \
            math.acos(max(-1.0, min(1.0, xmat[4]))) > sc[SC_MAX_TILT]:
        fall = TILT
    return fall


@nb.njit(cache=True)
def control(path, align, fs, fi, ts, sc, qpos, qvel, ctrl):
    """One tick's command: the follower's (follow flag) or the held velocity command, body →
    world, then the PI velocity loop into ``ctrl``. The integral shifts the servo reference;
    it grows only while the servo's demand is below the force cap (anti-windup: no overshoot
    after slip) and is clamped to ``±ts[T_LIM]``."""
    yaw = qpos[3]
    if ts[T_FOLLOW] != 0.0:
        vx, vy, w = fk.command(path, align, fs, fi, qpos[0], qpos[2], yaw, ts[T_DT])
    else:
        vx, vy, w = ts[T_VX], ts[T_VY], ts[T_W]
    s, c = math.sin(yaw), math.cos(yaw)  # body → world (controller.body_to_world)
    wx, wz = -s * vx - c * vy, -c * vx + s * vy
    ex, ez = wx - qvel[0], wz - qvel[2]
    ix, iz, ki, lim, kv = ts[T_IX], ts[T_IZ], ts[T_KI], ts[T_LIM], ts[T_KV]
    if abs(kv * (ex + ix)) < sc[SC_CAPX] or ex * ix < 0.0:
        v = ix + ki * ex
        v = v if v < lim else lim
        ix = v if v > -lim else -lim
    if abs(kv * (ez + iz)) < sc[SC_CAPZ] or ez * iz < 0.0:
        v = iz + ki * ez
        v = v if v < lim else lim
        iz = v if v > -lim else -lim
    ctrl[int(sc[SC_AX])] = wx + ix
    ctrl[int(sc[SC_AZ])] = wz + iz
    ctrl[int(sc[SC_AYAW])] = w
    ts[T_IX], ts[T_IZ], ts[T_EX], ts[T_EZ] = ix, iz, ex, ez


SCAN, CONTROL = 1, 2  # what ``tick`` does (bits)


@nb.njit(cache=True)
def tick(geom, pos, frame, lut, sc, fr, xmat, path, align, fs, fi, ts, qpos, qvel, ctrl, what):
    """The one entry point: with ``what & SCAN`` the contact scan after a tick's ``mj_step``
    (with that tick's servo error ``ts[T_EX], ts[T_EZ]``), then with ``what & CONTROL``, if the
    base did not fall, the next tick's :func:`control`; the fall code."""
    fall = 0
    if what & SCAN:
        fall = scan(geom, pos, frame, lut, sc, fr, qpos, qvel, ctrl, xmat, fs, ts[T_EX], ts[T_EZ])
    if fall == 0 and what & CONTROL:
        control(path, align, fs, fi, ts, sc, qpos, qvel, ctrl)
    return fall


def key_cache_on(kernels: tuple[object, ...], modules: tuple[ModuleType, ...]) -> None:
    """Key the on-disk numba cache of ``kernels`` (``cache=True`` dispatchers) on the
    sources of ``modules`` too.

    numba keys a cached kernel on its own source file only, so a kernel that inlines kernels
    of other modules would load a stale version after an edit there (silently: records would
    differ from a fresh build). Call at import, before any of them compiles; a numba without
    the index attributes used here keeps its own key."""
    h = hashlib.sha256()
    for mod in modules:
        h.update(Path(str(mod.__file__)).read_bytes())
    for k in kernels:
        index = getattr(getattr(k, "_cache", None), "_cache_file", None)
        if index is not None and hasattr(index, "_source_stamp"):
            index._source_stamp = (index._source_stamp, h.hexdigest())


key_cache_on((scan, control, tick), (fk, traction))


def _signature() -> tuple[nb.types.Type, ...]:
    """``tick``'s argument types: the contact fields in layout ``A`` (any strides), so that
    one compiled version serves ``data.contact``'s strided fields (which numpy flags
    contiguous at 0 or 1 contacts); every other array contiguous, as the owners make them
    (the follower's arrays as in a direct ``follow_kernels.command`` call)."""
    a2, f1, f2 = nb.types.Array(nb.float64, 2, "A"), nb.float64[::1], nb.float64[:, ::1]
    return (nb.types.Array(nb.int32, 2, "A"), a2, a2, f2, f1, f2, f1, f2, nb.uint8[::1], f1,
            nb.int64[::1], f1, f1, f1, f1, nb.int64)


def compile_tick() -> None:
    """Compile (or load from numba's cache) the one version of :func:`tick`, then stop
    further specialisation: calls with contiguous arrays convert to it. Idempotent; the
    simulator calls it at construction."""
    if not tick.signatures:
        tick.compile(_signature())
        tick.disable_compile()
