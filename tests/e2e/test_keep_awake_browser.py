"""A phone on the local network stays awake: served over plain http under a name that is not
localhost, the page is no secure context and has no Wake Lock API, so NoSleep's looping
video keeps the screen on from the player's first tap until the game ends."""

from __future__ import annotations

import threading
import time

import pytest
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from support.browser import PHONE
from tests.conftest import ApiTable, make_app
from tests.e2e.phones import RECORD_DEVICE_CALLS

#: A name for this laptop as a phone on the wifi would reach it: Chromium treats localhost
#: and 127.0.0.0/8 as secure, any other name over http as not.
LAN_NAME = "companion.test"

#: Every video the page plays, to ask later whether it still plays (NoSleep's video is
#: never put in the document).
RECORD_VIDEOS = """
window.__videos = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  if (!window.__videos.includes(this)) window.__videos.push(this);
  return play.call(this);
};
"""
PLAYING = "window.__videos.some((v) => !v.paused && v.currentTime > 0)"


def wait_until(page: Page, script: str, seconds: float = 5) -> None:
    """Until ``script`` is true in ``page`` (asked by evaluate: the page's CSP forbids the
    string evaluation of ``wait_for_function``)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script}"
        page.wait_for_timeout(50)


@pytest.fixture
def lan_server(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "awake.sqlite"), "PUBLIC_HOST": LAN_NAME,
                    "RATE_BURST": 1e9})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["PUBLIC_PORT"] = httpd.server_port
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://{LAN_NAME}:{httpd.server_port}"
    httpd.shutdown()


@pytest.fixture
def lan_browser(browser_type, browser_type_launch_args):
    args = [*browser_type_launch_args["args"], f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


def test_a_phone_over_plain_http_plays_the_looping_video_from_its_first_tap_to_game_over(
        lan_server, lan_browser):
    app, base = lan_server
    api = app.test_client()
    table = ApiTable(api, game="high-card", players=2, options={"hand": 3}).join_all()
    context = lan_browser.new_context(**PHONE)
    context.add_init_script(RECORD_VIDEOS)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[0],
                          "url": base}])
    phone = context.new_page()
    phone.goto(f"{base}/t/{table.code}/play")
    expect(phone.locator("#status")).to_contain_text("Waiting for the host")
    assert phone.evaluate("window.isSecureContext") is False
    assert phone.evaluate("'wakeLock' in navigator") is False
    # In the lobby nothing is fetched: the script comes once a game is on.
    assert phone.evaluate("typeof window.NoSleep") == "undefined"

    table.start()
    expect(phone.locator("#status[data-my-turn=yes]")).to_have_count(1)
    wait_until(phone, "typeof window.NoSleep === 'function'")
    assert phone.evaluate(PLAYING) is False  # a video plays only in answer to a tap

    phone.locator("#picker button").first.click()
    expect(phone.locator("#status[data-my-turn=no]")).to_have_count(1)  # the card is played
    wait_until(phone, PLAYING)

    # The game ends (the moves left, by the API): the video stops.
    while found := table.seat_to_move():
        assert table.post_move(found[0], found[1][0]).status_code == 200
    expect(phone.locator("#status[data-status=over]")).to_have_count(1)
    wait_until(phone, f"!({PLAYING})")
    context.close()


def test_where_the_wake_lock_api_exists_it_keeps_the_screen_on_until_game_over(
        live_server, browser):
    api = live_server["app"].test_client()
    table = ApiTable(api, game="high-card", players=2, options={"hand": 3}).join_all()
    context = browser.new_context(**PHONE)
    context.add_init_script(RECORD_DEVICE_CALLS + RECORD_VIDEOS)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[0],
                          "url": live_server["base"]}])
    phone = context.new_page()
    phone.goto(f"{live_server['base']}/t/{table.code}/play")
    assert phone.evaluate("window.isSecureContext") is True
    table.start()
    expect(phone.locator("#status[data-my-turn=yes]")).to_have_count(1)
    wait_until(phone, "window.__wakeLocks >= 1")
    phone.locator("#picker button").first.click()
    expect(phone.locator("#status[data-my-turn=no]")).to_have_count(1)  # the card is played
    while found := table.seat_to_move():
        assert table.post_move(found[0], found[1][0]).status_code == 200
    expect(phone.locator("#status[data-status=over]")).to_have_count(1)
    wait_until(phone, "window.__wakeReleases >= 1")
    # No video, no script of NoSleep's where the browser keeps the screen on itself.
    assert phone.evaluate("window.__videos.length === 0 && typeof window.NoSleep") == "undefined"
    context.close()
