"""What a player sees of their own things at 360 × 740, measured in Chromium: Heuchel &
Meuchel's phone opens on its stacks, above the picker stuck to the bottom, and names each
stack's top card; 7th Heaven's seats wear no piece colour while the phone rings its own
pieces; SkyRunner's places name their lane, the card on offer is in view while choosing, and
a refusal points where the answer is."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.web.services import services
from support.strategies.heuchel_meuchel import choose as choose_hm
from support.strategies.skyrunner import choose as choose_sr
from tests.conftest import ApiTable
from tests.e2e.phones import no_horizontal_scroll, seated_page, tap
from tests.web.hostile_kit import random_move

pytestmark = pytest.mark.e2e


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def sticky_top(page: Page) -> float:
    """Where the picker stuck to the bottom begins (the viewport's foot without one)."""
    return page.evaluate("""() => {
        const p = document.getElementById("picker");
        return p && p.offsetHeight && getComputedStyle(p).position === "sticky"
            ? p.getBoundingClientRect().top : innerHeight; }""")


def in_sight(page: Page, locator: Locator, seconds: float = 5) -> None:
    """``locator`` comes to lie wholly in the viewport, above the sticky picker, once the
    page has scrolled it there (a smooth scroll takes a few frames)."""
    deadline = time.monotonic() + seconds
    while True:
        found, limit = box(locator), sticky_top(page)
        if found["y"] >= 0 and found["y"] + found["height"] <= limit:
            return
        assert time.monotonic() < deadline, (found, limit)
        page.evaluate(NEXT_FRAME)


#: Resolves at the next frame the browser draws.
NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => done()))"


def play_until(table: ApiTable, choose, done, moves: int = 400) -> int:
    """Play ``choose``'s moves until ``done(seat, view, moves)`` holds for the seat to move;
    returns that seat."""
    for _ in range(moves):
        for seat in range(table.players):
            legal = table.moves(seat)
            view = table.view(seat)["view"]
            # Not a seat waiting for the others: its set-up placed (it may only take a card
            # back), or its SkyRunner card chosen (it may only change it).
            waiting = all(move["type"] == "lift" for move in legal) or (
                view.get("phase") == "choose" and view.get("choice") is not None)
            if legal and not waiting:
                break
        else:
            raise AssertionError("nobody has anything to do")
        if done(seat, view, legal):
            return seat
        assert table.post_move(seat, choose(view, legal)).status_code == 200
    raise AssertionError("the state looked for never came")


def test_heuchel_meuchel_opens_on_the_players_stacks_and_names_each_top_card(
        browser: Browser, live_server):
    table = ApiTable(live_server["app"].test_client(), game="heuchel-meuchel", players=4,
                     seed=5).join_all()
    table.start(first_seat=0)

    def moving_with_stacks(seat: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return (view["phase"] != "setup" and len(view["mine"]) >= 3
                and any(move["type"] == "move" and move["count"] > 1 for move in legal))

    seat = play_until(table, choose_hm, moving_with_stacks)
    mine = table.view(seat)["view"]["mine"]
    phone = seated_page(browser, live_server["base"], table, seat)
    stacks = phone.locator("#private .ladder .rung[data-open-here]")
    expect(stacks).to_have_count(len(mine))
    # Opened on the stacks: every one in sight, none under the picker.
    for index in range(stacks.count()):
        in_sight(phone, stacks.nth(index))
    # Each stack names its top card, first.
    for stack in mine:
        rung = phone.locator(f"#private .rung[data-row='{stack['row']}']")
        top = rung.locator(".on-top [data-card]")
        expect(top).to_have_count(1)
        assert int(top.get_attribute("data-card")) == stack["cards"][-1]["id"]
        assert rung.locator(".on-top").inner_text().lower().startswith("top")
    # A stack of several cards chosen: it stays in sight above the longer question.
    row = next(stack["row"] for stack in mine if len(stack["cards"]) > 1
               and phone.locator(f"#private .stackbtn.playable[data-row='{stack['row']}']").count())
    tap(phone.locator(f"#private .stackbtn.playable[data-row='{row}']"))
    expect(phone.locator("#private .rung.chosen")).to_have_count(1)
    in_sight(phone, phone.locator("#private .rung.chosen"))
    assert no_horizontal_scroll(phone)
    phone.context.close()


def test_seventh_heavens_seats_wear_no_piece_colour_and_the_phone_rings_its_own_pieces(
        browser: Browser, live_server):
    table = ApiTable(live_server["app"].test_client(), game="seventh-heaven", players=4,
                     seed=8).join_all()
    table.start(first_seat=0)
    phone = seated_page(browser, live_server["base"], table, 1)
    expect(phone.locator("#status")).to_be_visible()
    assert phone.locator(".whoami .swatch, #seats .swatch").evaluate_all(
        "els => els.filter(e => e.getClientRects().length).length") == 0
    partners = table.view(1)["view"]["partners"]["1"]
    assert partners
    widths = phone.locator("#board .pawn-g").evaluate_all("""els => Object.fromEntries(els.map(
        g => [g.className.baseVal.match(/c-(\\w+)/)[1],
              getComputedStyle(g.querySelector('.pawn-dot')).strokeWidth]))""")
    for colour, width in widths.items():
        assert (width == "3.5px") == (colour in partners), (colour, width, partners)
    # Another seat's phone rings its own partner, not this one's.
    other = seated_page(browser, live_server["base"], table, 2)
    theirs = table.view(2)["view"]["partners"]["2"]
    ringed = other.locator("#board .pawn-g").evaluate_all("""els => els.filter(
        g => getComputedStyle(g.querySelector('.pawn-dot')).strokeWidth === '3.5px').map(
        g => g.className.baseVal.match(/c-(\\w+)/)[1])""")
    assert set(ringed) == set(theirs) - {None}
    phone.context.close()
    other.context.close()


def test_skyrunner_shows_the_offer_while_choosing_and_each_place_its_lane(
        browser: Browser, live_server):
    base = live_server["base"]
    table = ApiTable(live_server["app"].test_client(), game="skyrunner", players=3,
                     seed=23).join_all()
    table.start(first_seat=0)
    rng = random.Random(3)

    def choosing(seat: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return view["phase"] == "choose" and view["offer"] is not None

    seat = play_until(table, lambda view, legal: choose_sr(view, legal), choosing)
    phone = seated_page(browser, base, table, seat)
    expect(phone.locator("#private .cardbtn.playable").first).to_be_visible()
    # The offer is named in the question stuck to the foot of the screen: in view wherever
    # the player scrolls to among their cards.
    offer = phone.locator("#picker .sr-offer-q [data-card]")
    expect(offer).to_have_count(1)
    assert int(offer.get_attribute("data-card")) == table.view(seat)["view"]["offer"]["id"]
    cards = phone.locator("#private .sr-hand .cardbtn")
    for index in (0, cards.count() - 1):
        cards.nth(index).evaluate("el => el.scrollIntoView({block: 'start'})")
        found = box(offer)
        assert found["y"] >= 0 and found["y"] + found["height"] <= 740, (index, found)
    phone.context.close()

    def climbing(seat: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
        return legal[0]["type"] == "climb" and len(legal) > 2

    seat = play_until(table, lambda view, legal: rng.choice(legal) if view["phase"] == "choose"
                      else choose_sr(view, legal), climbing)
    phone = seated_page(browser, base, table, seat)
    places = phone.locator(".reach-grid button.reach:not([data-lane='0'])")
    expect(places.first).to_be_visible()
    for index in range(places.count()):
        place = places.nth(index)
        lane = place.get_attribute("data-lane")
        expect(place.locator(".reach-lane")).to_have_text(f"Lane {lane}")
    # A card of the hand tapped now: the refusal points at the places, above the hand.
    reach, hand = box(phone.locator(".sr-reach")), box(phone.locator(".sr-hand"))
    assert reach["y"] + reach["height"] <= hand["y"]
    tap(phone.locator("#private .sr-hand .cardbtn").first, force=True)  # aria-disabled
    expect(phone.locator("#notice")).to_contain_text("just above your hand")
    assert no_horizontal_scroll(phone)
    phone.context.close()


#: Each game's busiest question at 360 × 740 (the most lines and buttons in the panel), found
#: by measuring every mover's panel over seeded random play (seed 5, four players): the
#: moves played before it, the seat asked, the question, and the answers given before it.
#: The busiest first questions, which the panel stuck to the bottom holds (Heuchel &
#: Meuchel's choice of a column covered half the screen); then each card game's busiest of
#: all, measured at every question of every mover's moves over 150 moves, which take their
#: place in the page: 7th Heaven's partner card to take at a swap space (563 px), Heuchel &
#: Meuchel's count of a tall stack's cards (531 px), SkyRunner's sabotage victim (345 px).
#: The Climbers' panel always lies in the page.
BUSIEST = [("heuchel-meuchel", 54, 1, "type", {}), ("heuchel-meuchel", 0, 0, "column", {}),
           ("seventh-heaven", 23, 0, "type", {}), ("skyrunner", 9, 0, "type", {}),
           ("climbers", 11, 0, "type", {}),
           ("seventh-heaven", 4, 3, "take", {"type": "event-swap"}),
           ("heuchel-meuchel", 67, 2, "count", {"row": 7}),
           ("skyrunner", 9, 0, "target", {"type": "sabotage"})]
#: How much of the screen's height the panel stuck to the bottom may cover.
PANEL_SHARE = 0.4
PANEL = """() => {
  const p = document.getElementById("picker");
  const stuck = getComputedStyle(p).position === "sticky";
  const scrolling = [p, ...p.querySelectorAll("*")].filter(e => {
    const y = getComputedStyle(e).overflowY;
    return (y === "auto" || y === "scroll") && e.scrollHeight > e.clientHeight;
  }).length;
  const last = document.querySelector(".phone-main").lastElementChild;
  return {covers: stuck ? p.getBoundingClientRect().height : 0, scrolling,
          lastBelow: last.getBoundingClientRect().top >= p.getBoundingClientRect().bottom};
}"""


@pytest.mark.parametrize(("game", "played", "seat", "key", "pick"), BUSIEST)
def test_the_panel_leaves_the_hand_in_view_in_the_busiest_question(
        browser: Browser, live_server, game: str, played: int, seat: int, key: str,
        pick: dict[str, Any]):
    table = ApiTable.started(live_server["app"].test_client(), game=game, players=4, seed=5)
    rng = random.Random(5)
    live = services(live_server["app"]).tables.get(table.code)
    for _ in range(played):
        with live.lock:
            found = random_move(live, rng)
        assert found is not None
        assert table.post_move(*found).status_code == 200
    phone = seated_page(browser, live_server["base"], table, seat)
    if pick:
        phone.goto(f"{live_server['base']}/t/{table.code}/play?pick={json.dumps(pick)}")
    expect(phone.locator("#picker")).to_have_attribute("data-key", key)
    measured = phone.evaluate(PANEL)
    assert measured["covers"] <= PANEL_SHARE * 740, measured
    assert measured["scrolling"] == 0, measured  # no scroll of its own
    # At the end of the page the panel is in its place: nothing after it lies under it.
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert phone.evaluate(PANEL)["lastBelow"]
    phone.context.close()
