"""A freed seat taken back, in Chromium: the newcomer waits on a page that updates by
itself and shows a code; the host sees who asks on the table screen, with that code,
without reloading, and lets them in; the newcomer's phone goes to the seat and its cards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.web.services import services
from support.browser import PHONE
from tests.conftest import ApiTable

pytestmark = pytest.mark.e2e


def test_a_newcomer_waits_until_the_host_lets_them_into_a_freed_seat(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    client = app.test_client()
    table = ApiTable.started(client, game="seventh-heaven", players=3, seed=7)
    client.set_cookie(f"host_{table.code}", table.host)
    assert client.post(f"/t/{table.code}/free", data={"seat": "1"}).status_code == 303
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = laptop.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")

    newcomer_context = browser.new_context(**PHONE)
    newcomer = newcomer_context.new_page()
    newcomer.goto(f"{base}/j/{table.code}")
    expect(newcomer.locator("label.seat-option", has_text="Seat 2")).to_contain_text(
        "the host lets you in")
    newcomer.fill("input[name=name]", "Ben")
    newcomer.check('input[name=seat][value="1"]')
    newcomer.get_by_role("button", name="Join the table").click()
    expect(newcomer).to_have_url(re.compile(rf"/t/{table.code}/wait$"))
    expect(newcomer.locator("#waiting")).to_contain_text("Ben, you asked for seat 2")
    said = newcomer.locator("#waiting .spoken-code").inner_text()
    assert re.fullmatch(r"\d \d \d", said)

    # The table screen shows the request by itself (a push), and only there is it answered.
    request = screen.locator("#requests")
    expect(request).to_contain_text("Ben asks for Ben’s seat in the game under way.",
                                    timeout=10_000)
    assert 1 not in services(app).tables.get(table.code).seats
    expect(request.locator(".spoken-code")).to_have_text(said)
    request.get_by_role("button", name=f"Let Ben in ({said})").click()

    # The waiting page goes to the seat by itself: the hand is Ben's.
    expect(newcomer).to_have_url(re.compile(rf"/t/{table.code}/play$"), timeout=10_000)
    expect(newcomer.locator(".whoami")).to_contain_text("Ben")
    assert services(app).tables.get(table.code).name(1) == "Ben"
    expect(newcomer.locator("#private")).to_be_visible()
    expect(screen.locator("#requests")).not_to_contain_text("Ben asks")
    # Both host actions are in the log, in words, on the screen and on the phone.
    for page in (screen, newcomer):
        expect(page.locator("#log")).to_contain_text("The host let Ben into Ben’s seat.")
        expect(page.locator("#log")).to_contain_text("The host freed Ben’s seat.")
    laptop.close()
    newcomer_context.close()
