"""Drive a headless Chromium through the DevTools protocol over a pipe (no extra dependency).

``Browser`` starts ``chromium --headless --remote-debugging-pipe`` (messages are JSON objects
separated by NUL bytes on file descriptors 3 and 4 of the child), opens one page, and offers
what the layout tests need: set the viewport width and the CSS media type, load a file,
evaluate JavaScript and capture a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

#: Flags for a quiet, offline headless browser (no sandbox: tests run as root in containers).
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe")


def chromium_path() -> str | None:
    """The Chromium executable (Debian's ``chromium`` first), or ``None``."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class Browser:
    """One headless Chromium with one page (use as a context manager)."""

    def __init__(self, exe: str, timeout_s: float = 60.0) -> None:
        self.timeout_s = timeout_s
        self._profile = tempfile.mkdtemp(prefix="navbench-chromium-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends become descriptors 3 and 4
            a, b = os.dup(to_child_r), os.dup(from_child_w)  # a < b, both above 2
            os.dup2(a, 3)  # dup2 makes 3 and 4 inheritable; every other descriptor of this
            os.dup2(b, 4)  # process is non-inheritable (PEP 446) and closes at exec

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=wire, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.page("Page.enable")

    # ------------------------------------------------------------------ protocol
    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        out: dict[str, Any] = json.loads(msg)
        return out

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events seen meanwhile go to ``events``)."""
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout_s
        while True:
            m = self._read(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                result: dict[str, Any] = m.get("result", {})
                return result
            self.events.append(m)

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page's session."""
        return self.call(method, self.session, **params)

    def wait_event(self, method: str) -> dict[str, Any]:
        """The next event ``method`` of the page (already seen ones first)."""
        deadline = time.monotonic() + self.timeout_s
        while True:
            for k, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[: k + 1]
                    return e
            self.events.append(self._read(deadline))

    # ------------------------------------------------------------------ page helpers
    def open(self, path: Path, width: int, height: int = 900, media: str = "screen") -> None:
        """Load ``path`` in a ``width`` × ``height`` CSS-pixel viewport with ``media`` CSS."""
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.page("Emulation.setEmulatedMedia", media=media)
        self.events.clear()
        self.page("Page.navigate", url=path.resolve().as_uri())
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        r = self.page("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"javascript error: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, out: Path) -> tuple[int, int]:
        """A full-page PNG into ``out``; returns its CSS size (width, height)."""
        size = self.page("Page.getLayoutMetrics")["cssContentSize"]
        w, h = int(size["width"]), int(size["height"])
        shot = self.page("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": w, "height": h, "scale": 1})
        out.write_bytes(base64.b64decode(shot["data"]))
        return w, h

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._r)
        os.close(self._w)
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: JavaScript that measures every table container and every element sticking out of the body.
MEASURE = r"""(() => {
  const body = document.body.getBoundingClientRect();
  const tables = [...document.querySelectorAll('table')].map((t, k) => {
    const c = t.parentElement, r = t.getBoundingClientRect();
    const h = t.closest('section, div.table')?.querySelector('h3')?.textContent || '';
    return {k, title: h, table_w: r.width, container: c.tagName + '.' + c.className,
            client_w: c.clientWidth, scroll_w: c.scrollWidth};
  });
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > body.right + 0.5 || r.left < body.left - 0.5))
      out.push({tag: el.tagName, cls: el.className, left: r.left, right: r.right});
  }
  const d = document.documentElement;
  return {tables, overflow: out, body_w: body.width, doc_scroll_w: d.scrollWidth,
          doc_client_w: d.clientWidth};
})()"""
