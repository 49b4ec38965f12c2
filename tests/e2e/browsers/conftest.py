"""A phone in WebKit and in Firefox (``phone``, one test for each), against the live server
of the browser tests (tests/e2e/conftest.py): each pytest-xdist worker starts its own Xvfb
and Firefox, once, and a phone for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.browsers.drivers import (
    Firefox,
    FirefoxPhone,
    Phone,
    RecordPageErrors,
    WebKitPhone,
    assert_no_page_errors,
    start_xvfb,
)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display for WebKitGTK's windows."""
    process, name = start_xvfb()
    yield name
    process.terminate()
    process.wait()


@pytest.fixture(scope="session")
def firefox() -> Iterator[Firefox]:
    browser = Firefox()
    yield browser
    browser.close()


@pytest.fixture(params=["webkit", "firefox"])
def phone(request, live_server) -> Iterator[Phone]:
    """A phone in each browser; an error its pages report fails the test (a test that
    provokes one on purpose is marked ``page_errors``)."""
    opened: Phone
    if request.param == "webkit":
        app = live_server["app"]
        app.wsgi_app = RecordPageErrors(app.wsgi_app)
        opened = WebKitPhone(request.getfixturevalue("display"))
    else:
        opened = FirefoxPhone(request.getfixturevalue("firefox"))
    try:
        yield opened
        if not request.node.get_closest_marker("page_errors"):
            assert_no_page_errors(opened)
    finally:
        opened.close()
