"""A phone in WebKit or in Firefox, driven over WebDriver the way a finger and the eyes do:
open a page, tap what shows, type, wait until the page shows something, and say what the
page's console reported as errors.

Playwright's WebKit and Firefox are builds of its own that it downloads; these are Debian's:
WebKitGTK's MiniBrowser through ``WebKitWebDriver`` (W3C WebDriver, under Xvfb), and
Firefox ESR over WebDriver BiDi, which its remote agent speaks with no driver in between
(Selenium's BiDi client, no geckodriver)."""

from __future__ import annotations

import glob
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from selenium import webdriver
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.bidi.browser import Browser
from selenium.webdriver.common.bidi.browsing_context import BrowsingContext
from selenium.webdriver.common.bidi.input import Input
from selenium.webdriver.common.bidi.script import Script
from selenium.webdriver.common.bidi.session import Session
from selenium.webdriver.remote.websocket_connection import WebSocketConnection
from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
from selenium.webdriver.webkitgtk.service import Service as WebKitService

from tests.e2e.phones import QUIET, WATCH_REQUESTS

#: A phone's screen, in CSS px.
WIDTH, HEIGHT = 360, 740
#: How long a wait for the page lasts before the test fails (two tests share two cores,
#: each with its own server and browser, as in the Chromium tests).
PATIENCE = 15.0

#: Where a finger lands on the element ``arguments[0]`` names: its middle, once scrolled into
#: the middle of the screen; null when something else covers that point.
FINGER = """const el = document.querySelector(arguments[0]);
if (!el) return null;
el.scrollIntoView({block: "center", inline: "center"});
const r = el.getBoundingClientRect();
const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
const hit = document.elementFromPoint(x, y);
return hit && (el === hit || el.contains(hit)) ? [Math.round(x), Math.round(y)] : null;"""


class Phone:
    """What a test does with a phone, the same in every browser."""

    browser: str

    def open(self, url: str) -> None:
        raise NotImplementedError

    def run(self, body: str, *args: Any) -> Any:
        """The value of a function ``body`` (``arguments[i]`` are ``args``) in the page."""
        raise NotImplementedError

    def tap_at(self, x: int, y: int) -> None:
        """A finger's tap at a point of the screen (CSS px from its top left corner)."""
        raise NotImplementedError

    def tap(self, selector: str) -> None:
        """A finger's tap in the middle of the element ``selector`` names."""
        self.tap_at(*finger(self, selector))

    def type(self, selector: str, text: str) -> None:
        raise NotImplementedError

    def errors(self) -> list[str]:
        """The errors the page's console reported since the phone opened its first page."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


def wait(phone: Phone, body: str, *args: Any, what: str) -> Any:
    """Wait until ``body`` run in the page gives something true, and give it."""
    deadline = time.monotonic() + PATIENCE
    while True:
        found = phone.run(body, *args)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{phone.browser}: never saw {what}")
        time.sleep(0.05)


def assert_no_page_errors(phone: Phone) -> None:
    errors = phone.errors()
    assert not errors, f"{phone.browser}: the page reported errors:\n" + "\n".join(errors)


def when_quiet(phone: Phone, body: str, *args: Any, what: str) -> Any:
    """What ``body`` gives once the page is quiet: every answer and push drawn, and the
    focus moved after them (which may scroll the page)."""
    wait(phone, f"({WATCH_REQUESTS})(); return ({QUIET})();", what="the page quiet")
    return wait(phone, body, *args, what=what)


def finger(phone: Phone, selector: str) -> tuple[int, int]:
    """Where a finger taps ``selector``: its middle, in sight and not covered."""
    at = when_quiet(phone, FINGER, selector, what=f"{selector} in sight to tap")
    return at[0], at[1]


# --- WebKit -------------------------------------------------------------------------------

#: WebKitGTK's browser for automation, beside its library (its path names the machine's
#: architecture).
MINIBROWSER = "/usr/lib/*/webkit2gtk-4.1/MiniBrowser"

#: WebKitGTK's WebDriver has no console log and no script run before a page's own, so each
#: page the server sends loads this first (``RecordPageErrors``): it notes every error in
#: the tab's session storage, which lasts from page to page.
RECORDER_PATH = "/__page-errors.js"
ERRORS_KEY = "page-errors"
RECORDER = f"const ERRORS_KEY = {json.dumps(ERRORS_KEY)};" + """(() => {
  const note = (what) => {
    const all = JSON.parse(sessionStorage.getItem(ERRORS_KEY) || "[]");
    all.push(String(what));
    sessionStorage.setItem(ERRORS_KEY, JSON.stringify(all));
  };
  addEventListener("error", (e) => note(e.error ? `${e.error}\n${e.error.stack}` :
    `could not load ${(e.target && (e.target.src || e.target.href)) || e.message}`), true);
  addEventListener("unhandledrejection", (e) => note(`unhandled rejection: ${e.reason}`));
  addEventListener("securitypolicyviolation",
                   (e) => note(`blocked: ${e.violatedDirective} ${e.blockedURI}`));
  const error = console.error;
  console.error = (...parts) => { note(parts.join(" ")); error.apply(console, parts); };
})();"""


class RecordPageErrors:
    """WSGI middleware: every HTML page loads ``RECORDER`` before its own scripts."""

    TAG = f'<script src="{RECORDER_PATH}"></script>'.encode()

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") == RECORDER_PATH:
            start_response("200 OK", [("Content-Type", "text/javascript")])
            return [RECORDER.encode()]
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_UPGRADE"):
            return self.app(environ, start_response)
        environ.pop("HTTP_ACCEPT_ENCODING", None)  # a page to read, not compressed
        answer: dict[str, Any] = {}

        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer.update(status=status, headers=headers, exc_info=exc_info)
            return lambda data: None

        body = b"".join(self.app(environ, keep))
        if b"<head>" in body:
            body = body.replace(b"<head>", b"<head>" + self.TAG, 1)
        headers = [(k, v) for k, v in answer["headers"] if k.lower() != "content-length"]
        start_response(answer["status"], [*headers, ("Content-Length", str(len(body)))],
                       answer["exc_info"])
        return [body]


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An X server of its own for WebKitGTK's windows: the process and its display."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("Xvfb is missing: scripts/test installs it with apt (xvfb)")
    read, write = os.pipe()
    process = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                "-nolisten", "tcp"], pass_fds=[write])
    os.close(write)
    with os.fdopen(read) as told:  # Xvfb writes its display's number once it listens
        number = told.readline().strip()
    if not number:
        raise RuntimeError("Xvfb did not start")
    return process, f":{number}"


class WebKitPhone(Phone):
    """WebKitGTK's MiniBrowser in a session of its own (its own cookies): a window as small
    as MiniBrowser's toolbar lets it be (447 px wide), and taps sent as touch pointer actions,
    which WebKitGTK with no touch screen delivers as mouse events."""

    browser = "webkit"

    def __init__(self, display: str) -> None:
        driver = shutil.which("WebKitWebDriver")
        found = glob.glob(MINIBROWSER)
        if driver is None or not found:
            raise RuntimeError("WebKitGTK is missing: scripts/test installs it with apt "
                               "(webkit2gtk-driver)")
        options = WebKitOptions()
        options.binary_location = found[0]
        options.add_argument("--automation")
        service = WebKitService(executable_path=driver, env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_window_rect(width=WIDTH, height=HEIGHT)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def run(self, body: str, *args: Any) -> Any:
        return self.driver.execute_script(body, *args)

    def tap_at(self, x: int, y: int) -> None:
        actions = ActionBuilder(self.driver, mouse=PointerInput(interaction.POINTER_TOUCH,
                                                                 "finger"))
        actions.pointer_action.move_to_location(x, y).pointer_down().pointer_up()
        actions.perform()

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)
        self.driver.find_element("css selector", selector).send_keys(text)

    def errors(self) -> list[str]:
        return json.loads(self.run(f"return sessionStorage.getItem('{ERRORS_KEY}') || '[]'"))

    def close(self) -> None:
        self.driver.quit()


# --- Firefox ------------------------------------------------------------------------------

class Firefox:
    """Debian's Firefox ESR, headless, with its WebDriver BiDi server on a free port, and one
    BiDi session; each phone opens a tab in a user context of its own (its own cookies)."""

    def __init__(self) -> None:
        firefox = shutil.which("firefox-esr") or shutil.which("firefox")
        if firefox is None:
            raise RuntimeError("Firefox is missing: scripts/test installs it with apt "
                               "(firefox-esr)")
        self.profile = tempfile.TemporaryDirectory(prefix="companion-firefox-")
        self.process = subprocess.Popen(
            [firefox, "--headless", "--no-remote", "--profile", self.profile.name,
             "--remote-debugging-port", "0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = self._listening()
        self.conn = WebSocketConnection(f"{url}/session", timeout=PATIENCE, interval=0.01)
        Session(self.conn).new({})
        Session(self.conn).subscribe(["log.entryAdded"])
        self.entries: list[dict[str, Any]] = []
        self.conn.add_callback(_LogEntries, self.entries.append)

    def _listening(self) -> str:
        """The BiDi server's address, as Firefox prints it once listening (a thread reads
        all Firefox says, so that it never waits on a full pipe)."""
        said: queue.Queue[str] = queue.Queue()

        def read(stream: IO[str]) -> None:
            for line in stream:
                found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if found:
                    said.put(found.group(1))

        assert self.process.stderr is not None
        threading.Thread(target=read, args=(self.process.stderr,), daemon=True).start()
        try:
            return said.get(timeout=60)
        except queue.Empty:
            raise RuntimeError("Firefox's WebDriver BiDi server did not start") from None

    def close(self) -> None:
        # The socket closed first: closed by Firefox under it, the client logs an error.
        self.conn.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.profile.cleanup()


class _LogEntries:
    """Selenium's connection hands each ``log.entryAdded`` event's parameters on as they
    come."""

    event_class = "log.entryAdded"

    @staticmethod
    def from_json(params: dict[str, Any]) -> dict[str, Any]:
        return params


class FirefoxPhone(Phone):
    """A tab of ``Firefox`` at 360 × 740 CSS px (2 device px each), taps sent as touch
    (Firefox fires touch and pointer events of type touch for them)."""

    browser = "firefox"

    def __init__(self, firefox: Firefox) -> None:
        self.firefox = firefox
        conn = firefox.conn
        self.user_context = Browser(conn).create_user_context()
        self.context = BrowsingContext(conn).create(type="tab", user_context=self.user_context)
        BrowsingContext(conn).set_viewport(context=self.context,
                                           viewport={"width": WIDTH, "height": HEIGHT},
                                           device_pixel_ratio=2)

    def open(self, url: str) -> None:
        BrowsingContext(self.firefox.conn).navigate(context=self.context, url=url,
                                                    wait="complete")

    def run(self, body: str, *args: Any) -> Any:
        # Through JSON both ways: the page's value as WebKit's WebDriver gives it.
        expression = f"JSON.stringify((function() {{ {body} }}).apply(null, {json.dumps(args)}))"
        result = Script(self.firefox.conn).evaluate(
            expression=expression, target={"context": self.context}, await_promise=False)
        if result.get("type") == "exception":
            details = result["exceptionDetails"]
            raise AssertionError(f"firefox: {details['text']}\n{expression}")
        value = result["result"]
        return json.loads(value["value"]) if value["type"] == "string" else None

    def _pointer(self, *actions: dict[str, Any]) -> None:
        Input(self.firefox.conn).perform_actions(context=self.context, actions=[
            {"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
             "actions": list(actions)}])

    def tap_at(self, x: int, y: int) -> None:
        self._pointer({"type": "pointerMove", "x": x, "y": y},
                      {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0})

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)
        keys = [{"type": kind, "value": char} for char in text for kind in ("keyDown", "keyUp")]
        Input(self.firefox.conn).perform_actions(context=self.context, actions=[
            {"type": "key", "id": "keyboard", "actions": keys}])

    def errors(self) -> list[str]:
        return [f"{entry.get('type')}: {entry.get('text')}" for entry in self.firefox.entries
                if entry.get("level") == "error"
                and entry.get("source", {}).get("context") == self.context]

    def close(self) -> None:
        BrowsingContext(self.firefox.conn).close(context=self.context)
        Browser(self.firefox.conn).remove_user_context(user_context=self.user_context)
