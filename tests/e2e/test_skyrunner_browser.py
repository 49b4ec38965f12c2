"""Three phones and the table screen play a seeded game of SkyRunner to the roof in
Chromium, the phones at 360 × 740 with touch, every move made by taps: secret choices,
reveals, a tied auction, a Surprise, a sabotage and a fall that drags another climber down,
with no card on any screen that its viewer may not see."""

from __future__ import annotations

import statistics
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.games.skyrunner import SkyRunner
from support.json_walk import objects_in
from support.strategies.skyrunner import choose
from tests.e2e.phones import no_horizontal_scroll, seq_of, start_table, tap_through
from tests.web.test_skyrunner_api import SEED

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben", "Chloé")
G = SkyRunner()


def card_ids(value: Any) -> set[int]:
    """Every card id a view holds (a card is a dict with an id and a kind)."""
    return {card["id"] for card in objects_in(value) if "id" in card and "kind" in card}


def shown_cards(page: Page) -> set[int]:
    return {int(card) for card in page.locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")}


def own_cards(view: dict[str, Any]) -> set[int]:
    mine = card_ids(view["hand"]) | card_ids(view["used"])
    return mine | ({view["choice"]["id"]} if view["choice"] else set())


def tap_move(page: Page, move: dict[str, Any]) -> int:
    """Tap through the picker as a player does: cards in the hand, places on the wall, the
    rest among the picker's buttons."""
    def target(key: str) -> Locator | None:
        if key == "card":
            return page.locator(f"#private [data-choose='{move['card']}'], "
                                f"#private [data-enter='{move['card']}']")
        if key == "level":
            return page.locator(f"#private .reach[data-level='{move['level']}']"
                                f"[data-lane='{move['lane']}']")
        return None
    return tap_through(page, move, target)


def seat_to_act(state: dict[str, Any]) -> int:
    for seat in range(state["players"]):
        if G.legal_moves(state, seat) and not (
                state["phase"] == "choose" and state["choices"][str(seat)] is not None):
            return seat
    raise AssertionError("nobody has anything to do")


def test_three_phones_and_the_screen_climb_to_the_roof(browser: Browser, live_server):
    table, screen, phones = start_table(browser, live_server, "skyrunner", NAMES, SEED)
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Choose your card")
    expect(screen.locator("#screen-head")).to_contain_text("0 of 3 have chosen")

    seen: set[str] = set()
    taps: dict[str, list[int]] = {}  # per kind of move, the taps each took
    for _ in range(400):
        with table.lock:
            state = table.match.state
        if G.outcome(state) is not None:
            break
        seat = seat_to_act(state)
        move = choose(G.view(state, seat), G.legal_moves(state, seat))
        seq = seq_of(phones[seat])
        taps.setdefault(move["type"], []).append(tap_move(phones[seat], move))
        for phone in phones:
            expect(phone.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
        expect(screen.locator(f"#screen-head[data-seq='{seq + 1}']")).to_have_count(1)
        with table.lock:
            after = table.match.state
        public = card_ids(G.view(after, None))
        for other, page in enumerate(phones):
            assert shown_cards(page) <= own_cards(G.view(after, other)) | public
        assert shown_cards(screen) <= public
        if after["phase"] == "choose":  # nobody sees a choice before the reveal
            for chooser, card in after["choices"].items():
                if card is not None and card not in public:
                    others = [p for s, p in enumerate(phones) if str(s) != chooser]
                    assert all(card not in shown_cards(p) for p in [*others, screen])
        if after["round"] > state["round"]:
            done = after["previous"]
            seen |= {"tie"} if done["auction"]["cancelled"] else set()
            for event in done["events"]:
                if event["kind"] == "surprise":
                    seen.add("surprise")
                if event["kind"] == "sabotage" and event["falls"]:
                    seen.add("sabotage")
                if event["kind"] == "fall" and len(event["falls"]) > 1:
                    seen.add("knock-on")
                    expect(screen.locator("#board")).to_contain_text("drops from")
    else:
        raise AssertionError("nobody reached the roof")
    assert seen == {"tie", "surprise", "sabotage", "knock-on"}
    # choosing a card: the card, then Confirm; a climb: the place, then Confirm
    assert statistics.median(taps["choose"]) <= 2 and statistics.median(taps["climb"]) <= 2
    expect(screen.locator("#outcome")).to_contain_text("Game over")
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Game over")
        assert no_horizontal_scroll(phone)
        assert phone.evaluate("window.__vibrations") >= 1
        assert phone.evaluate("window.__wakeLocks") >= 1
