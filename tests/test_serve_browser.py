"""The live page in a real browser (headless Chromium, when installed): what it says when the
server stops, comes back on the same port with the same token, comes back with another token,
or refuses its stream (503).

Chromium is driven over its DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON
messages ending in a NUL byte on descriptors 3 and 4), so no websocket library is needed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.render.share import document
from referee.server import SCRIPT, Background, Limits, LiveServer, Page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
GUARD = 30.0  # seconds: a hang; the page's backoff is capped at 30 s, restarts come sooner
TOKEN = "LIVEPAGEBROWSERTESTTOKEN23"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium here")


class Card:
    """A source whose card says its count, as a real page with the page's script."""

    def __init__(self, count: int = 0) -> None:
        self.count = count

    def stamp(self) -> object:
        return self.count

    def render(self, version: int) -> Page:
        fragment = f'<header data-title="card {self.count}"></header><p>card {self.count}</p>'
        return Page(document(fragment, "card", script=SCRIPT, version=version), fragment)


class Browser:
    """One headless Chromium and one tab, over the DevTools pipe."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        to_chrome, self.sink = os.pipe()
        self.source, from_chrome = os.pipe()
        os.set_inheritable(to_chrome, True)
        os.set_inheritable(from_chrome, True)

        def wire() -> None:  # the pipe's ends at the descriptors Chromium expects
            reading, writing = os.dup(to_chrome), os.dup(from_chrome)  # clear of 3 and 4
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--remote-debugging-pipe",
             f"--user-data-dir={profile}",
             "about:blank"],
            env={**os.environ, "TMPDIR": str(profile)},  # its scratch files go with the test's
            pass_fds=(3, 4), preexec_fn=wire,  # kept open after `wire` put the pipe there
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(to_chrome)
        os.close(from_chrome)
        self.buffer = b""
        self.serial = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        attached = self.call("Target.attachToTarget", targetId=target, flatten=True)
        self.session = attached["sessionId"]

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.serial += 1
        message: dict[str, Any] = {"id": self.serial, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.sink, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.source, 65536)
                assert chunk, "Chromium went away"
                self.buffer += chunk
            raw, _, self.buffer = self.buffer.partition(b"\0")
            answer = json.loads(raw)
            if answer.get("id") == self.serial:
                assert "error" not in answer, answer
                result: dict[str, Any] = answer["result"]
                return result

    def go(self, url: str) -> None:
        self.call("Page.navigate", self.session, url=url)

    def text(self, element: str) -> str:
        found = self.call("Runtime.evaluate", self.session, returnByValue=True,
                          expression=f'(document.getElementById("{element}")||{{}}).textContent'
                          )  # fmt: skip
        return str(found["result"].get("value"))

    def until(self, element: str, *words: str) -> str:
        """The element's text once it holds every one of `words`."""
        deadline = time.monotonic() + GUARD
        while True:
            seen = self.text(element)
            if all(word in seen for word in words):
                return seen
            assert time.monotonic() < deadline, f"{element}: {seen!r}, not {words}"
            time.sleep(0.1)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(GUARD)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(GUARD)
        os.close(self.sink)
        os.close(self.source)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("chromium"))
    yield opened
    opened.close()


def serve(card: Card, port: int = 0, token: str = TOKEN, **limits: int) -> Background:
    runner = Background(LiveServer(card, token, poll=0.02, limits=Limits(**limits)),
                        "127.0.0.1", port)  # fmt: skip
    runner.start()
    return runner


def test_the_page_says_when_it_is_cut_off_and_comes_back_after_a_restart(
    browser: Browser,
) -> None:
    card = Card()
    runner = serve(card)
    assert runner.bound is not None
    port = runner.bound[1]
    browser.go(f"http://127.0.0.1:{port}/{TOKEN}/")
    browser.until("state", "Live: updates by itself.")
    card.count = 1
    browser.until("live", "card 1")

    runner.stop()  # the scorekeeper's server goes away (Ctrl-C, a crash, a flat battery)
    stale = browser.until("state", "reconnecting in", "may be stale", "last updated at")
    assert "Live" not in stale
    assert "card 1" in browser.text("live")  # the last card stays, marked stale

    again = serve(Card(2), port)  # `serve` again: the same port, the same token
    try:
        browser.until("state", "Live: updates by itself.")
        browser.until("live", "card 2")
    finally:
        again.stop()

    other = serve(Card(3), port, token="ANOTHERTOKENFORTHISSERVER2")
    try:
        browser.until("state", "This link no longer works", "Scan the new code")
        assert "card 2" in browser.text("live")
    finally:
        other.stop()


def test_a_refused_stream_waits_for_retry_after_and_says_busy(browser: Browser) -> None:
    runner = serve(Card(5), max_streams=0)
    assert runner.bound is not None
    try:
        browser.go(f"http://127.0.0.1:{runner.bound[1]}/{TOKEN}/")
        busy = browser.until("state", "busy", "Trying again in")
        assert "Live" not in busy
        assert "card 5" in browser.text("live")
    finally:
        runner.stop()
