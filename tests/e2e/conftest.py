"""Playwright with Debian's Chromium (the bundled browser download does not work offline)
against a real server running in a thread."""

from __future__ import annotations

import shutil
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from support.browser import CHROMIUM_FLAGS
from tests.conftest import make_app

#: How long an expectation waits for the page before it fails. The tests run two at a time
#: on two cores, each with its own server and Chromium: Playwright's 5 s is short for a
#: push while the other test plays a whole game. A page that is right passes at once.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("Debian's chromium is missing: scripts/test installs it with apt")
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


@pytest.fixture(autouse=True)
def close_contexts(request):
    """Closes every browser context (and so every page) a browser test opened and left
    open: a page left behind would keep its scripts and its socket's reconnections running
    in the shared browser through all the tests after it."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def live_server(tmp_path):
    """A server in a thread: ``app``, ``base``, and ``restart()``, which stops it and serves
    a new app on the same database and port, as a laptop's companion started again (the
    tables are read back from the database; the pages reload)."""
    holder: dict[str, object] = {}
    # The tests' own API calls set up and play tables faster than any player: the rate
    # limit has its own tests (tests/web/test_ratelimit.py).
    config = {"DATABASE": str(tmp_path / "e2e.sqlite"), "PUBLIC_HOST": "127.0.0.1",
              "RATE_BURST": 1e9}
    servers = []

    def serve(port: int) -> None:
        app = make_app(config)
        httpd = make_server("127.0.0.1", port, app, threaded=True)
        app.config["PUBLIC_PORT"] = httpd.server_port
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        holder.update(app=app, base=f"http://127.0.0.1:{httpd.server_port}")

    def restart() -> None:
        servers[-1].shutdown()
        servers[-1].server_close()
        serve(servers[-1].server_port)

    serve(0)
    holder["restart"] = restart
    yield holder
    servers[-1].shutdown()
