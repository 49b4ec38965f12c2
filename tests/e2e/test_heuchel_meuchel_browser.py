"""Three phones and the table screen play a seeded game of Heuchel & Meuchel in Chromium,
the phones at 360 × 740 with touch, every move made by taps: set-up on the phones, moves on
the ladder, favours with a second turn, an arrogance discard, and no card on any screen that
its viewer may not see."""

from __future__ import annotations

import re
import statistics
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.games.heuchel_meuchel import HeuchelMeuchel, board
from support.strategies.heuchel_meuchel import choose
from tests.conftest import ApiTable
from tests.e2e.phones import (
    no_horizontal_scroll,
    seated_page,
    seq_of,
    start_table,
    tap,
    tap_through,
)
from tests.e2e.test_phone_layout_browser import play_until
from tests.web.test_heuchel_meuchel_api import SEED, card_ids, own_cards, public_cards

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben", "Chloé")
G = HeuchelMeuchel()


def shown_cards(page: Page) -> set[int]:
    """Every card the page's DOM names (each card is drawn with its data-card)."""
    return {int(card) for card in page.locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")}


def tap_move(page: Page, move: dict[str, Any]) -> int:
    """Tap through the picker the way a player does: cards, stacks and landing squares on
    the phone's own partial, every other question among the picker's buttons."""
    def target(key: str) -> Locator | None:
        if key == "card":
            return page.locator(f"#private [data-place='{move['card']}'].playable, "
                                f"#private [data-lift='{move['card']}']")
        if key == "row":
            return page.locator(f"#private .stackbtn.playable[data-row='{move['row']}']")
        if key == "to":
            return page.locator(f"#private .landing[data-row='{move['to']}']")
        return None
    return tap_through(page, move, target)


def seat_with_work(state: dict[str, Any]) -> int | None:
    for seat in range(state["players"]):
        moves = G.legal_moves(state, seat)
        if moves and not all(move["type"] == "lift" for move in moves):
            return seat
    return None


def test_three_phones_and_the_screen_play_a_whole_game(browser: Browser, live_server):
    table, screen, phones = start_table(browser, live_server, "heuchel-meuchel", NAMES, SEED)
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Set up your column")
    expect(screen.locator("#screen-head")).to_contain_text("places their cards")

    seconds = arrogance = 0
    taps: dict[str, list[int]] = {}  # per kind of move, the taps each took
    reloaded = refused = False
    for _ in range(200):
        with table.lock:
            state = table.match.state
        if G.outcome(state) is not None:
            break
        seat = seat_with_work(state)
        assert seat is not None, "nobody has anything to do and the game is not over"
        move = choose(G.view(state, seat), G.legal_moves(state, seat))
        phone = phones[seat]
        if not refused and state["phase"] == "move":
            # a stack that can't move explains the rule that stops it
            movable = {m["row"] for m in G.legal_moves(state, seat) if m["type"] == "move"}
            stuck = [f"[data-row='{row}']" for row, _ in board.live_stacks(state, seat)
                     if row not in movable]
            dimmed = phone.locator(f"#private .stackbtn.dimmed:is({', '.join(stuck)})") \
                if stuck else None
            if dimmed is not None and dimmed.count():
                tap(dimmed.first, force=True)  # aria-disabled: still answers a tap
                expect(phone.locator("#notice .rule-id a")).to_have_attribute(
                    "href", re.compile(r"^/rules/heuchel-meuchel/hm\.[a-z.-]+\?table="))
                tap(phone.locator("#notice [data-dismiss]"))
                refused = True
        seq = seq_of(phone)
        taps.setdefault(move["type"], []).append(tap_move(phone, move))
        for other in phones:
            expect(other.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
        expect(screen.locator(f"#screen-head[data-seq='{seq + 1}']")).to_have_count(1)
        with table.lock:
            after = table.match.state
        public = G.view(after, None)
        # hidden information: each phone shows its own cards and the public ones only
        for other, page in enumerate(phones):
            allowed = own_cards(G.view(after, other)) | public_cards(public)
            assert shown_cards(page) <= allowed, f"phone {other} shows a card not its own"
        assert shown_cards(screen) <= public_cards(public)
        assert card_ids(public) <= public_cards(public)
        if move["type"] == "again":
            seconds += 1
        if move["type"] == "take" and after["last"]["takes"][-1]["discarded"]:
            arrogance += 1
            expect(screen.locator("#board .arrogance")).to_contain_text("Arrogance")
        if after["phase"] == "move" and not reloaded and state["phase"] != "setup":
            mover = phones[after["turn"]]
            before = shown_cards(mover)
            mover.reload()
            expect(mover.locator("#status")).to_contain_text("Your turn")
            assert shown_cards(mover) == before
            reloaded = True
        if state["phase"] == "setup" and after["phase"] != "setup":
            assert all(no_horizontal_scroll(page) for page in phones)
    else:
        raise AssertionError("the game did not end")

    assert seconds >= 1 and arrogance >= 1 and reloaded and refused
    # moving a stack: the stack, then the square it lands on (and how many cards, for part
    # of a stack)
    assert statistics.median(taps["move"]) <= 2, taps["move"]
    assert statistics.median(taps["place"]) == 1  # set-up: one tap a card
    expect(screen.locator("#outcome")).to_contain_text("Game over")
    expect(screen.locator(".panel-hm")).to_contain_text("Score")
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Game over")
        assert no_horizontal_scroll(phone)
        assert phone.evaluate("window.__vibrations") >= 1
        assert phone.evaluate("window.__wakeLocks") >= 1


def test_a_square_the_chosen_stack_may_not_reach_says_why_at_a_touch(
        browser: Browser, live_server):
    table = ApiTable(live_server["app"].test_client(), game="heuchel-meuchel", players=3,
                     seed=5).join_all()
    table.start(first_seat=0)

    def landings(legal: list[dict[str, Any]]) -> dict[int, set[int]]:
        """For each stack of several cards that may move: where its top card may land."""
        tall = {move["row"] for move in legal if move["type"] == "move" and move["count"] > 1}
        found: dict[int, set[int]] = {}
        for move in legal:
            if move["type"] == "move" and move["row"] in tall and move["count"] == 1:
                found.setdefault(move["row"], set()).add(move["to"])
        return found

    def tall_stack(seat: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return view["phase"] == "move" and any(len(to) > 1 for to in landings(legal).values())

    seat = play_until(table, choose, tall_stack)
    row = next(row for row, to in landings(table.moves(seat)).items() if len(to) > 1)
    phone = seated_page(browser, live_server["base"], table, seat)
    phone.locator(f"#private .stackbtn.playable[data-row='{row}']").tap()
    picker = phone.locator("#picker")
    expect(picker).to_have_attribute("data-key", "count")
    picker.locator("button.option[data-value='1']").tap()
    expect(picker).to_have_attribute("data-key", "to")
    unreached = phone.locator("#private .rung:has(button.unreached)").last
    unreached.scroll_into_view_if_needed()
    unreached.tap()
    expect(phone.locator("#notice .rule-id a")).to_have_attribute(
        "href", re.compile(r"^/rules/heuchel-meuchel/hm\.move\.[a-z.-]+\?table="))
    phone.context.close()
