"""The host's actions on the table screen, in Chromium: each opens a confirmation first; a
freed phone is told so in words, with one tap back to the join page, and the log says whose
seat was freed; the rules page leads back to the table screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from support.browser import PHONE
from tests.conftest import ApiTable

pytestmark = pytest.mark.e2e


def test_the_host_frees_a_seat_and_undoes_after_confirming(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3, seed=7)
    table.post_move(0, table.moves(0)[0])
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = laptop.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    phone_context = browser.new_context(**PHONE)
    phone_context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[1],
                                "url": base}])
    phone = phone_context.new_page()
    phone.goto(f"{base}/t/{table.code}/play")
    expect(screen.locator('#seats li[data-seat="1"] .dot')).to_have_class(re.compile("here"))

    # Undo: the first tap only asks.
    undo = screen.locator("#host-undo")
    expect(undo.locator("button[type=submit]")).to_be_hidden()
    undo.locator("summary").click()
    expect(undo).to_contain_text("Take back this move for everyone")
    expect(undo.locator(".named")).to_contain_text("Ana")  # the move it takes back, named
    undo.locator("button[type=submit]").click()
    expect(screen.locator("#screen-head")).to_have_attribute("data-seq", "2")
    assert table.view()["view"]["turn"] == 0  # the move is taken back

    # Free a seat: the first tap only asks; the phone is told at once, in words, and shows
    # nothing else but the way back in: one tap to the join page, where the seat is free.
    free = screen.locator("#host-free")
    expect(free.locator("button[data-seat='1']")).to_be_hidden()
    free.locator("summary").click()
    free.locator("button[data-seat='1']").click()
    expect(phone.locator("#status")).to_contain_text("The host freed your seat")
    expect(phone.locator("#private")).to_be_hidden()
    expect(screen.locator("#log")).to_contain_text("The host freed Ben’s seat.")
    phone.wait_for_timeout(300)
    expect(phone).to_have_url(re.compile(rf"/t/{table.code}/play$"))  # it stays to say so
    phone.get_by_role("link", name="Join the table again").click()
    expect(phone).to_have_url(re.compile(rf"/j/{table.code}$"))
    expect(phone.locator("#freed")).to_contain_text("The host freed your seat")
    expect(phone.locator("body")).to_contain_text("Seat 2")
    expect(screen.locator('#seats li[data-seat="1"]')).to_contain_text("free seat")

    # The rules, and back to the table screen.
    screen.locator("#screen-head .rules-link a").click()
    screen.get_by_role("link", name=re.compile(f"Back to table {table.code}")).click()
    expect(screen).to_have_url(re.compile(rf"/t/{table.code}/screen$"))
    laptop.close()
    phone_context.close()
