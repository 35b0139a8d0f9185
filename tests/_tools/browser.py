"""Headless Chromium driven over the DevTools protocol on a pipe (no download, no websocket).

Used by the browser test and by ``docs/make_screenshot.py``: open ``report.html`` from a
``file://`` URL, wait until every Plotly chart has rendered, count the marks (SVG bars) of each
chart, collect JavaScript errors and any request leaving the file system, and optionally save a
full-page PNG. Chromium is Debian's ``chromium`` (``make browser`` installs it); it is started
with ``--remote-debugging-pipe``: commands go to its fd 3 and replies come from its fd 4, as
NUL-terminated JSON messages.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-pipe",
)

_PROBE = """(() => {
  const charts = Array.from(document.querySelectorAll('.kpart-chart .js-plotly-plot'));
  const tables = {};
  document.querySelectorAll('table[id]').forEach(t => {
    tables[t.id] = t.querySelectorAll('tbody tr').length; });
  return JSON.stringify({
    ready: document.readyState,
    sections: Array.from(document.querySelectorAll('section[id]')).map(s => s.id),
    tables: tables,
    charts: charts.map(d => ({
      id: d.id,
      section: d.closest('section') ? d.closest('section').id : null,
      rendered: d.getAttribute('data-rendered') === '1',
      bars: d.querySelectorAll('g.trace.bars g.point').length,
      traces: d.querySelectorAll('g.trace').length,
    })),
  });
})()"""


def find_chromium() -> str | None:
    """Path of a Chromium binary (``$KPART_CHROMIUM``, ``chromium``, ``chromium-browser``)."""
    env = os.environ.get("KPART_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass(slots=True)
class PageReport:
    """What the browser saw: per chart id its section, rendered flag and bar count."""

    sections: list[str]
    charts: list[dict[str, Any]]
    tables: dict[str, int]
    errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)

    def bars(self) -> dict[str, int]:
        """``{chart id: number of rendered bars}``."""
        return {c["id"]: c["bars"] for c in self.charts}


def _above_4(fd: int) -> int:
    """``fd`` moved to a number >= 10 (the child's 3 and 4 must not collide with it)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class _Pipe:
    """A DevTools session over Chromium's ``--remote-debugging-pipe`` file descriptors."""

    def __init__(self, binary: str, profile: str, width: int, height: int) -> None:
        self._log = open(os.path.join(profile, "chromium.log"), "wb")  # noqa: SIM115
        to_child_r, self._out = os.pipe()
        self._in, from_child_w = os.pipe()
        to_child_r, from_child_w = _above_4(to_child_r), _above_4(from_child_w)

        # Chromium reads commands on fd 3 and writes replies on fd 4. bash moves our pipe ends
        # there (no preexec_fn: forking a threaded process must not run Python in the child).
        shell = shutil.which("bash") or "/bin/bash"
        redirect = f'exec "$@" 3<&{to_child_r} 4>&{from_child_w} {to_child_r}<&- {from_child_w}>&-'
        self.proc = subprocess.Popen(
            [shell, "-c", redirect, "chromium", binary, *FLAGS, f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log,
            pass_fds=(to_child_r, from_child_w),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._next = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._in, "rb", buffering=0) as f:
            while chunk := f.read(1 << 16):
                buf += chunk
                *messages, buf = buf.split(b"\0")
                with self._cond:
                    for raw in messages:
                        msg = json.loads(raw)
                        if "id" in msg:
                            self._replies[msg["id"]] = msg
                        else:
                            self.events.append(msg)
                    self._cond.notify_all()

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 60.0) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        try:
            os.write(self._out, json.dumps(msg).encode() + b"\0")
        except BrokenPipeError as e:
            raise RuntimeError(f"chromium exited: {self._tail()}") from e
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._next not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise RuntimeError(f"chromium: no reply to {method}: {self._tail()}")
                self._cond.wait(min(left, 0.5))
            reply = self._replies.pop(self._next)
        if "error" in reply:
            raise RuntimeError(f"chromium: {method} failed: {reply['error']}")
        return reply.get("result", {})

    def _tail(self) -> str:
        self._log.flush()
        text = Path(self._log.name).read_text(errors="replace").strip().splitlines()
        return " | ".join(text[-3:]) or f"exit code {self.proc.poll()}"

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.send("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        self._log.close()


def _errors(events: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    errors, external = [], []
    for ev in events:
        method, p = ev.get("method"), ev.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            errors.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            errors.append(p["entry"].get("text", "log error"))
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if not url.startswith(("file:", "data:", "about:", "blob:")):
                external.append(url)
    return errors, external


class Page:
    """A page open in headless Chromium, its charts rendered (:func:`open_page`)."""

    def __init__(self, pipe: _Pipe, sid: str) -> None:
        self.pipe, self.sid = pipe, sid
        self.state: dict[str, Any] = {}

    def evaluate(self, expression: str) -> Any:
        """The JSON text ``expression`` returns, parsed."""
        res = self.pipe.send("Runtime.evaluate",
                             {"expression": expression, "returnByValue": True}, session=self.sid)
        return json.loads(res["result"]["value"])

    def report(self) -> PageReport:
        """What rendered (as of the wait) and every error and external request so far."""
        with self.pipe._cond:
            events = list(self.pipe.events)
        errors, external = _errors(events)
        return PageReport(self.state["sections"], self.state["charts"], self.state["tables"],
                          errors, external)


@contextlib.contextmanager
def open_page(html_path: str | os.PathLike[str], *, binary: str | None = None,
              width: int = 1280, timeout: float = 60.0) -> Iterator[Page]:
    """Open ``html_path`` in headless Chromium and wait until every Plotly chart rendered.

    Raises ``RuntimeError`` when Chromium is missing or the charts do not render in ``timeout``.
    """
    binary = binary or find_chromium()
    if binary is None:
        raise RuntimeError("chromium not found: run `make browser` (apt-get install chromium)")
    url = Path(html_path).resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="kpart-chromium-") as profile:
        pipe = _Pipe(binary, profile, width, 900)
        try:
            targets = pipe.send("Target.getTargets")["targetInfos"]
            target = next(t["targetId"] for t in targets if t["type"] == "page")
            sid = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                pipe.send(f"{domain}.enable", session=sid)
            pipe.send("Page.navigate", {"url": url}, session=sid)
            page = Page(pipe, sid)
            deadline = time.monotonic() + timeout
            while True:
                page.state = page.evaluate(_PROBE)
                if page.state["ready"] == "complete" and all(
                        c["rendered"] for c in page.state["charts"]):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"charts did not render within {timeout} s: "
                                       f"{page.state}")
                time.sleep(0.2)
            yield page
        finally:
            pipe.close()


def inspect_report(html_path: str | os.PathLike[str], png_path: str | os.PathLike[str] | None = None,
                   *, width: int = 1280, timeout: float = 60.0,
                   binary: str | None = None) -> PageReport:
    """Open ``html_path`` in headless Chromium, wait for the charts, return what rendered.

    When ``png_path`` is given, a full-page PNG screenshot is written there.
    Raises ``RuntimeError`` when Chromium is missing or the charts do not render in ``timeout``.
    """
    with open_page(html_path, binary=binary, width=width, timeout=timeout) as page:
        if png_path is not None:
            size = page.pipe.send("Page.getLayoutMetrics", session=page.sid)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": width, "height": size["height"], "scale": 1}
            shot = page.pipe.send("Page.captureScreenshot",
                                  {"format": "png", "clip": clip, "captureBeyondViewport": True},
                                  session=page.sid)
            Path(png_path).write_bytes(base64.b64decode(shot["data"]))
        return page.report()


def screenshot_report(html_path: str | os.PathLike[str], png_path: str | os.PathLike[str],
                      **kwargs: Any) -> PageReport:
    """Render ``html_path`` in headless Chromium and save a full-page PNG at ``png_path``."""
    return inspect_report(html_path, png_path, **kwargs)
