"""A forked stage gives the result a plain call gives, whatever happens to the child: it runs in
another process when this one may fork, its exception is raised here, and a child that dies,
exits early or returns what cannot be pickled leaves the work to this process.

Each case runs in a fresh interpreter: a test worker may run other threads (left by earlier
tests), and then :func:`~navbench.forking.may_fork` rightly refuses to fork."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

PRELUDE = """
import os, threading
import numpy as np
from navbench.forking import Forked, may_fork
parent = os.getpid()
assert may_fork()
"""


def fresh(body: str) -> str:
    """What ``body`` prints, run after :data:`PRELUDE` in a new interpreter."""
    r = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_the_child_computes_the_result() -> None:
    assert fresh("""
        job = Forked(lambda: (os.getpid(), np.arange(5) ** 2))
        pid, sq = job.result()
        print(job.forked, pid != parent, sq.tolist())
    """) == "False True [0, 1, 4, 9, 16]"  # forked until the result was taken


def test_an_exception_is_raised_here_as_a_plain_call_raises_it() -> None:
    assert fresh("""
        def fail():
            raise KeyError("no such thing")
        job = Forked(fail)
        try:
            job.result()
        except KeyError as e:
            print(job.forked, repr(e), os.getpid() == parent)
    """) == "False KeyError('no such thing') True"


@pytest.mark.parametrize("death", ["os._exit(0)", "os.kill(os.getpid(), 9)", "return lambda: None"])
def test_a_failed_child_leaves_the_work_to_this_process(death: str) -> None:
    assert fresh(f"""
        def work():
            if os.getpid() != parent:  # only the child misbehaves (dies, or returns no picklable value)
                {death}
            return ("here", os.getpid() == parent)
        job = Forked(work)
        print(job.forked, job.result())
    """) == "True ('here', True)"


def test_no_fork_when_asked_or_when_another_thread_runs() -> None:
    assert fresh("""
        a = Forked(os.getpid, fork=False)
        stop = threading.Event()
        t = threading.Thread(target=stop.wait)
        t.start()
        b = Forked(os.getpid)
        print(a.forked, a.result() == parent, may_fork(), b.forked, b.result() == parent)
        stop.set()
        t.join()
        import time
        for _ in range(200):  # the OS drops a joined thread's task a moment after join returns
            if may_fork():
                break
            time.sleep(0.01)
        print(may_fork())
    """) == "False True False False True\nTrue"


def test_a_result_never_asked_for_leaves_no_child() -> None:
    assert fresh("""
        job = Forked(lambda: threading.Event().wait(60))
        pid = job._pid
        del job
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            print("reaped")
    """) == "reaped"
