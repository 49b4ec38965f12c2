"""Pushes in Chromium: a phone's first push after its page loads does not redraw what the
page already shows (a tap right after loading is not lost), a push keeps a half-made choice,
and so does a reload, since the page's address holds it."""

from __future__ import annotations

import re

import websocket
from playwright.sync_api import expect

from support.browser import PHONE
from tests.conftest import ApiTable


def test_a_half_made_choice_survives_the_first_push_another_push_and_a_reload(browser,
                                                                              live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), players=3, seed=7).join_all()
    table.start(first_seat=0)
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[0],
                          "url": base}])
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(payload if isinstance(payload, str)
                                                       else payload.decode())))
    page.goto(f"{base}/t/{table.code}/play")
    picker = page.locator("#picker")
    expect(page.locator('#seats li[data-seat="0"] .dot')).to_have_class(re.compile("here"))
    # The first push only says this phone is here: the picker it may be tapping stays.
    assert frames and all('id="picker"' not in frame for frame in frames)

    page.locator("#private .cardbtn.playable").first.click()
    expect(picker).to_have_attribute("data-step", "1")
    chip = picker.locator(".chip").first.inner_text()
    assert "pick=" in page.url

    # Another phone comes to the table: a push, and the choice is still there.
    other = websocket.create_connection(
        f"ws://{base.removeprefix('http://')}/t/{table.code}/ws", timeout=5, origin=base,
        cookie=f"seat_{table.code}={table.tokens[1]}")
    expect(page.locator('#seats li[data-seat="1"] .dot')).to_have_class(re.compile("here"))
    expect(picker).to_have_attribute("data-step", "1")
    assert picker.locator(".chip").first.inner_text() == chip

    page.reload()
    expect(picker).to_have_attribute("data-step", "1")
    assert picker.locator(".chip").first.inner_text() == chip
    for _ in range(6):  # finish the move from where the choice was left
        confirm = picker.locator("button[data-confirm-move]")
        if confirm.count():
            confirm.click()
            break
        step = int(picker.get_attribute("data-step"))
        picker.locator("button.option").first.click()
        expect(picker).to_have_attribute("data-step", str(step + 1))
    expect(page.locator("#status")).to_have_attribute("data-seq", "1")
    expect(page).to_have_url(re.compile(r"/play$"))  # the choice is made: a reload starts anew
    other.close()
    context.close()
