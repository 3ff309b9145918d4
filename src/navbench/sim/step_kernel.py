"""The whole agent step's physics in one compiled call (numba): ticks, ``mj_step``, contact scans.

:func:`advance` does what the simulator's Python loop does for one agent step (0.1 s), without
returning to Python: the first tick's command (:func:`navbench.sim.tick_kernels.control`),
then per control tick ``nsub`` × ``mj_step`` (:data:`navbench.sim.mjc.step`, the C function
the bindings call), the contacts read through the verified ``mjData`` layout
(:func:`navbench.sim.mjc.contacts`), the contact scan (:func:`navbench.sim.tick_kernels.scan`)
and, except after the last tick or a fall, the next tick's command. It stops at the first fall.

The C calls and the float operations are those of the Python loop, in the same order, so the
records are byte-identical to it (MuJoCo is deterministic; tested). One call costs one numba
dispatch (~3 µs) instead of 6 tick calls, 5 binding calls and 5 contact reads (~35 µs).

Usable only when :func:`navbench.sim.mjc.available` (it binds the C symbols; call it first);
otherwise, or with ``NAVBENCH_MJC=0``, the simulator keeps its Python loop. :func:`compile_step`
compiles (or loads from numba's on-disk cache) the one version the simulator uses.

A MuJoCo fatal error inside :func:`advance` (``mju_error``: an arena overflow) ends the process
through MuJoCo's default handler instead of raising ``mujoco.FatalError`` as the bindings do;
a robot episode uses ~0.2 % of the arena (22 KB of 13.6 MB in the bench house, 8 contacts).

numba's cache of :func:`advance` is keyed on this file and on the modules it inlines
(:func:`navbench.sim.tick_kernels.key_cache_on`), so an edit in any of them recompiles it.
"""

from __future__ import annotations

import numba as nb

from navbench.sim import follow_kernels, mjc, traction
from navbench.sim import tick_kernels as tk


@nb.njit(cache=True, nogil=True)
def advance(path, align, ma, da, lay, nsub, nticks, lut, sc, fr, xmat, fs, fi, ts, qpos, qvel,
            ctrl):
    """One agent step of ``nticks`` control ticks of ``nsub`` physics steps each, for the
    ``mjModel`` / ``mjData`` at addresses ``ma`` / ``da`` (``lay``: :attr:`mjc.Layout.array`;
    every array as :func:`navbench.sim.tick_kernels.tick` takes it, ``qpos`` / ``qvel`` /
    ``ctrl`` / ``xmat`` views of that ``mjData``; the follower's ``path`` and ``align`` first,
    the only arguments that change between calls). The fall code (0, ``tk.DROP``,
    ``tk.TILT``) of the tick that ended the step."""
    m, d = mjc.ptr(ma), mjc.ptr(da)
    tk.control(path, align, fs, fi, ts, sc, qpos, qvel, ctrl)
    for k in range(nticks):
        for _ in range(nsub):
            mjc.step(m, d)
        geom, pos, frame = mjc.contacts(da, lay)
        fall = tk.scan(geom, pos, frame, lut, sc, fr, qpos, qvel, ctrl, xmat, fs, ts[tk.T_EX],
                       ts[tk.T_EZ])
        if fall != 0:
            return fall
        if k < nticks - 1:
            tk.control(path, align, fs, fi, ts, sc, qpos, qvel, ctrl)
    return 0


tk.key_cache_on((advance,), (tk, follow_kernels, traction, mjc))


def _signature() -> tuple[nb.types.Type, ...]:
    """``advance``'s argument types: addresses and counts int64, arrays contiguous as their
    owners make them (``tk.tick``'s types, without the contact fields)."""
    i8, f1, f2 = nb.int64, nb.float64[::1], nb.float64[:, ::1]
    return (f2, nb.uint8[::1], i8, i8, nb.int64[::1], i8, i8, f2, f1, f2, f1, f1, nb.int64[::1],
            f1, f1, f1, f1)


def compile_step() -> bool:
    """Bind MuJoCo's C symbols and compile (or load from numba's cache) the one version of
    :func:`advance`; ``False`` (nothing compiled) when :func:`mjc.available` is ``False``.
    Idempotent; the simulator calls it at construction."""
    if not mjc.available():
        return False
    if not advance.signatures:
        advance.compile(_signature())
        advance.disable_compile()
    return True


__all__ = ["advance", "compile_step"]
