"""Pushes in Chromium: a phone's first push after its page loads does not redraw what the
page already shows (a tap right after loading is not lost), a push keeps a half-made choice,
and so does a reload, since the page's address holds it."""

from __future__ import annotations

import random
import re

import pytest
import websocket
from playwright.sync_api import expect

from support.browser import PHONE
from tests.conftest import GAME_IDS, ApiTable
from tests.web.climbers_building import finish_building


def test_a_half_made_choice_survives_the_first_push_another_push_and_a_reload(browser,
                                                                              live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3, seed=7)
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


#: The DOM of an element as a canonical string: tags, attributes sorted (without the swap
#: instructions a push carries; an empty class is no class), texts with their spaces
#: collapsed; SVG included.
CANONICAL = """el => {
  const walk = node => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.replace(/\\s+/g, ' ').trim();
      return text ? JSON.stringify(text) : '';
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const attrs = [...node.attributes].map(a => a.name)
      .filter(name => name !== 'hx-swap-oob' && !(name === 'class' && !node.getAttribute(name)))
      .sort()
      .map(name => `${name}=${JSON.stringify(node.getAttribute(name))}`);
    const kids = [...node.childNodes].map(walk).filter(Boolean);
    return `<${node.namespaceURI.endsWith('svg') ? 'svg:' : ''}${node.localName}`
      + `${attrs.length ? ' ' + attrs.join(' ') : ''}>${kids.join('')}</>`;
  };
  return walk(el);
}"""


@pytest.mark.parametrize("game", GAME_IDS)
def test_after_pushes_the_page_is_what_a_fresh_page_shows(browser, live_server, game):
    """Pushes edit the board, the seats, the log and a phone's own things item by item
    (squares, blocks, lines, The Climbers' map cells; SVG ones too), the screen's head
    by its attributes alone while its turn line stays, and a seat at a change of turn by
    its attributes alone: after a dozen moves the phone and the table screen show exactly
    what they would show when loaded afresh."""
    app, base = live_server["app"], live_server["base"]
    players = 3
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=11)
    finish_building(table)
    rng = random.Random(5)
    phone_context = browser.new_context(**PHONE)
    phone_context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[1],
                                "url": base}])
    screen_context = browser.new_context(viewport={"width": 1280, "height": 800})
    phone, screen = phone_context.new_page(), screen_context.new_page()
    frames: list[str] = []
    for page in (phone, screen):
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(
                payload if isinstance(payload, str) else payload.decode())))
    phone.goto(f"{base}/t/{table.code}/play")
    screen.goto(f"{base}/t/{table.code}/screen")
    for page in (phone, screen):
        expect(page.locator('#seats li[data-seat="1"] .dot')).to_have_class(re.compile("here"))
    turns = set()
    for _ in range(12):
        found = table.seat_to_move()
        if found is None:
            break
        seat, moves = found
        turns.add(seat)
        assert table.post_move(seat, rng.choice(moves)).status_code == 200
        # (what each viewer may know of: a changed secret choice is not among it)
        expect(phone.locator("#status")).to_have_attribute("data-seq",
                                                           str(table.view(1)["seq"]))
        expect(screen.locator("#screen-head")).to_have_attribute("data-seq",
                                                                 str(table.view()["seq"]))
    if len(turns) > 1:  # the turn passed: the seats' opening tags alone said so
        assert any('<li hx-swap-oob="outerAttributes" id="seat-' in frame for frame in frames)
    for page in (phone, screen):
        fresh = page.context.new_page()
        fresh.goto(page.url)
        regions = ("#private", "#board", "#seats", "#log") if page is phone else \
            ("#screen-head", "#board", "#seats", "#log")
        for region in regions:
            pushed, loaded = (p.locator(region).evaluate(CANONICAL) for p in (page, fresh))
            at = next((i for i, (a, b) in enumerate(zip(pushed, loaded, strict=False))
                       if a != b), min(len(pushed), len(loaded)))
            assert pushed == loaded, (f"{region} differs on {page.url} after a push: "
                                      f"{pushed[max(0, at - 200):at + 300]!r} "
                                      f"instead of {loaded[max(0, at - 200):at + 300]!r}")
        fresh.close()
    phone_context.close()
    screen_context.close()
