"""The host rewinds the table from a line of the log, in Chromium: the line's link opens a
confirmation naming every move it takes back; confirming brings the screen back with the
table as it was, and every phone's log says, in words, what was taken back."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import ApiTable
from tests.e2e.phones import seated_page

pytestmark = pytest.mark.e2e


def test_the_host_rewinds_to_before_a_move_from_the_log(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3, seed=7)
    table.play_at_random(5, random.Random(7))
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = laptop.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    phone = seated_page(browser, base, table, 1, lang="fr")
    expect(phone.locator("#log #log-5")).to_be_visible()
    expect(phone.locator("#log a.rewind")).to_have_count(0)  # the host's alone

    # Every line of the host's log offers it; the first tap only asks, naming the moves.
    expect(screen.locator("#log a.rewind")).to_have_count(5)
    screen.locator("#log-3 a.rewind").click()
    expect(screen.locator("h1")).to_have_text("Take back these 3 moves for everyone?")
    for seq in (3, 4, 5):
        expect(screen.locator(f"#log-{seq}")).to_be_visible()
    expect(screen.locator("#log-2")).to_have_count(0)
    screen.locator("button[data-rewind]").click()

    # Back on the table screen, as it was after move 2; the phone is told at once.
    expect(screen).to_have_url(re.compile(rf"/t/{table.code}/screen$"))
    expect(screen.locator("#log .undo")).to_have_count(3)
    expect(screen.locator("#log")).to_contain_text("The host took back:")
    expect(phone.locator("#log .undo")).to_have_count(3, timeout=10_000)
    expect(phone.locator("#log")).to_contain_text("L’hôte a repris :")
    entries = app.test_client().get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert [e["seq"] for e in entries if e["kind"] == "move" and not e["undone"]] == [1, 2]

    # A rewind confirmed after the table moved on takes nothing back.
    screen.locator("#log-2 a.rewind").click()
    table.play_at_random(1, random.Random(1))
    screen.locator("button[data-rewind]").click()
    expect(screen.locator("body")).to_contain_text("The table moved on")
    laptop.close()
    phone.context.close()
