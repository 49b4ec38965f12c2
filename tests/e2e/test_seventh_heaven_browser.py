"""Four phones and the table screen play a seeded game of In 7th Heaven in Chromium, the
phones at 360 × 740 with touch, every one of their moves made by taps."""

from __future__ import annotations

import re
import statistics

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.phones import no_horizontal_scroll, open_phone, seq_of, take_turn, tap

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben", "Chloé", "Dev")


def own_cards(page: Page) -> set[str]:
    return set(page.locator("#private [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def all_card_mentions(page: Page) -> set[str]:
    return set(re.findall(r'data-card="(\d+)"', page.content()))


def test_four_phones_and_the_screen_play_a_whole_game(browser: Browser, live_server):
    app, base = live_server["app"], live_server["base"]
    client = app.test_client()
    created = client.post("/api/tables", json={"game": "seventh-heaven", "players": 4,
                                               "seed": 2024, "options": {"heaven": 15}})
    body = created.get_json()
    code, host_token = body["code"], body["host_token"]

    screen_context = browser.new_context(viewport={"width": 1280, "height": 800})
    screen_context.add_cookies([{"name": f"host_{code}", "value": host_token,
                                 "url": base}])
    screen = screen_context.new_page()
    screen.goto(f"{base}/t/{code}/screen")
    expect(screen.locator(".code-big")).to_have_text(code)
    join_url = screen.locator(".join-url").inner_text()
    assert join_url == f"{base}/j/{code}"

    phones = [open_phone(browser, join_url, name, seat) for seat, name in enumerate(NAMES)]
    expect(screen.locator("#seats .dot.here")).to_have_count(4)
    screen.select_option("select[name=first_seat]", "0")
    screen.click("text=Start the game")
    for phone in phones:
        expect(phone.locator("#status")).not_to_contain_text("Waiting for the host")
    expect(phones[0].locator("#status")).to_contain_text("Your turn")
    assert all(no_horizontal_scroll(phone) for phone in phones)

    # a dimmed card explains the rule that stops it
    tap(phones[1].locator("#private .cardbtn").first, force=True)  # aria-disabled
    expect(phones[1].locator("#notice")).to_contain_text("not your turn")

    hands = {seat: own_cards(phone) for seat, phone in enumerate(phones)}
    reloaded = refused_by_rule = False
    card_moves: list[int] = []  # the taps each card played took
    for _ in range(400):
        if screen.locator("#outcome h2").count():
            break
        seq = seq_of(phones[0])
        mover = next((p for p in phones if p.locator("#status[data-my-turn=yes]").count()),
                     None)
        assert mover is not None, "nobody's turn, and the game is not over"
        dimmed = mover.locator("#private .cardbtn.dimmed")
        if not refused_by_rule and dimmed.count():
            tap(dimmed.first, force=True)  # aria-disabled: the phone says which rule forbids it
            expect(mover.locator("#notice .rule-id a")).to_have_attribute(
                "href", re.compile(r"^/rules/seventh-heaven/7h\.[a-z.-]+\?table="))
            tap(mover.locator("#notice [data-dismiss]"))
            refused_by_rule = True
        if mover.locator("#private .cardbtn.playable").count():
            card_moves.append(take_turn(mover))
        else:
            take_turn(mover)
        for phone in phones:
            expect(phone.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
        # hidden information: no phone ever holds another phone's cards
        for phone in phones:
            mine = own_cards(phone)
            others = set().union(*(own_cards(p) for p in phones if p is not phone))
            assert not (all_card_mentions(phone) - mine) & others
        assert not re.search(r'data-card="\d+"', screen.content())
        if not reloaded and seq >= 6:
            before = own_cards(phones[2])
            phones[2].reload()
            expect(phones[2].locator("#status")).to_be_visible()
            assert own_cards(phones[2]) == before
            assert NAMES[2] in phones[2].locator(".whoami").inner_text()
            reloaded = True
    else:
        raise AssertionError("the game did not end")
    assert reloaded and refused_by_rule and hands
    # a card with one use: the card, then Confirm; with two, the card, then the use
    assert statistics.median(card_moves) <= 2, card_moves
    expect(screen.locator("#outcome")).to_contain_text("Game over")
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Game over")
        # each phone vibrated when its turn came, and kept the screen awake while playing
        assert phone.evaluate("window.__vibrations") >= 1
        assert phone.evaluate("window.__wakeLocks") >= 1
