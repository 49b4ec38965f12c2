"""A finger's double tap on a move's button makes one move, at 360 × 740 with touch, in every
game: the second tap at once, while the move is on its way, and the second tap of a double
tap once the move's answer is in, whatever it put under the finger (the next question's
button). SkyRunner's card chosen stays chosen until the player asks to change it, and the
lone card the phone chose for the player looks chosen, never dimmed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.conftest import ApiTable, bearer
from tests.e2e.phones import APART_MS, WATCH_REQUESTS, quiet, seated_page, seq_of
from tests.e2e.playing import play
from tests.web.climbers_building import finish_building
from tests.web.test_climbers_api import LOWER_OR_LADDER_SEED

pytestmark = pytest.mark.e2e

#: The click a phone's browser sends for the second tap of a double tap (its detail counts
#: the taps) at a point, to whatever is under the finger there now; what it hit.
SECOND_TAP = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return "";
  el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window,
                                            clientX: x, clientY: y, detail: 2}));
  return el.outerHTML.slice(0, 120);
}"""


#: Where a finger taps a lit top of the phone's tower that a tap walks to at once (one way
#: there): the middle of a top whose middle shows.
ONE_TAP_WALK = """() => {
  const d = document.getElementById("cl-ask").dataset;
  const made = (d.reachMoves || "").split("|");
  for (const [i, entry] of (d.reach || "").split(" ").entries()) {
    const square = entry.split(",").slice(0, 2).join(",");
    const top = made[i] && document.querySelector(`#cl-v-me .cl-reach[data-square='${square}']`);
    if (!top) continue;
    const r = top.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const hit = document.elementFromPoint(x, y);
    if (hit && top.contains(hit)) return [x, y];
  }
  return null;
}"""


def phone(browser: Browser, base: str, table: ApiTable, seat: int) -> Page:
    """The seat's phone (a touch screen, 360 × 740), its requests watched."""
    page = seated_page(browser, base, table, seat)
    expect(page.locator("#status")).to_be_visible()
    page.evaluate(WATCH_REQUESTS)
    return page


def middle(control: Locator) -> tuple[float, float]:
    """Where a finger taps ``control``: its middle, once it is in sight."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box is not None, control
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap_alone(page: Page, control: Locator) -> None:
    """A tap of its own on ``control``, not the later tap of a double tap with the last."""
    page.wait_for_timeout(APART_MS)
    control.tap()


def double_tap(page: Page, control: Locator) -> None:
    """A finger's double tap on ``control``: the second tap at the same place at once, while
    the first one's move may still be on its way."""
    at = middle(control)
    tap_alone(page, control)
    page.touchscreen.tap(*at)


def double_tap_answered(page: Page, control: Locator) -> None:
    """A finger's double tap on ``control`` whose second tap comes once the first one's
    move is drawn, on whatever that put under the finger."""
    seq = seq_of(page)
    at = middle(control)
    tap_alone(page, control)
    made(page, seq)
    second_tap(page, at)


def made(page: Page, seq: int) -> None:
    """Wait until the phone shows the move made against ``seq``."""
    expect(page.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)


def second_tap(page: Page, at: tuple[float, float]) -> str:
    """The second tap of a double tap at ``at``, on whatever is there now (the click the
    browser sends for it, its detail counting the taps); what it hit."""
    return page.evaluate(SECOND_TAP, list(at))


def entries(table: ApiTable, seat: int) -> int:
    """The entries of the table's log, as the API gives them to ``seat`` (who sees every
    move of their own: a SkyRunner choice changed is in no one else's log)."""
    log = table.client.get(f"/api/tables/{table.code}/log", headers=bearer(table.tokens[seat]))
    return len(log.get_json()["entries"])


def move_button(page: Page) -> Locator:
    return page.locator("#picker [data-confirm-move]").first


def test_a_double_tap_on_confirm_plays_one_card_in_seventh_heaven(browser, live_server):
    table = ApiTable(live_server["app"].test_client(), game="seventh-heaven", players=4,
                     seed=8).join_all()
    table.start(first_seat=0)
    page = phone(browser, live_server["base"], table, 0)
    page.locator("#private .cardbtn.playable").first.tap()
    confirm = move_button(page)
    expect(confirm).to_be_visible()
    before, seq = entries(table, 0), seq_of(page)
    double_tap(page, confirm)
    made(page, seq)
    quiet(page)
    assert entries(table, 0) == before + 1


def test_a_double_tap_places_one_card_at_heuchel_meuchels_set_up(browser, live_server):
    """Each card of the set-up is placed by one tap on it, and the next card takes its
    place in the hand: a double tap places one."""
    table = ApiTable(live_server["app"].test_client(), game="heuchel-meuchel", players=4,
                     seed=5).join_all()
    table.start(first_seat=0)
    assert table.post_move(0, {"type": "column", "column": 1}).status_code == 200
    page = phone(browser, live_server["base"], table, 0)
    for placed, double in enumerate((double_tap, double_tap_answered), start=1):
        before, seq = entries(table, 0), seq_of(page)
        double(page, page.locator("#private [data-place][data-confirm-move]").first)
        made(page, seq)
        quiet(page)
        assert entries(table, 0) == before + 1, double.__name__
        assert table.view(0)["view"]["placed"]["0"] == placed


def test_a_double_tap_makes_one_step_of_a_climbers_turn(browser, live_server):
    """"Move no block" makes a step of the turn at once, and the next question's buttons
    come where it was. A double tap makes the first step only and answers nothing of the
    next question, on the picker or on a lit top of the tower."""
    table = ApiTable(live_server["app"].test_client(), game="climbers", players=2,
                     seed=LOWER_OR_LADDER_SEED).join_all()
    table.start(first_seat=0)
    finish_building(table)
    page = phone(browser, live_server["base"], table, 0)
    for double in (double_tap, double_tap_answered):
        before, seq = entries(table, 0), seq_of(page)
        double(page, page.locator("#picker [data-confirm-move]", has_text="Move no block"))
        made(page, seq)
        quiet(page)
        assert entries(table, 0) == before + 1, double.__name__
        view = table.view(0)["view"]
        assert (view["turn"], view["step"]) == (0, "after"), double.__name__
        expect(page.locator("#picker")).to_have_attribute("data-step", "0")
        # the pass taken back, for the next double tap
        undo = table.client.post(f"/api/tables/{table.code}/undo",
                                 headers=bearer(table.tokens[0]))
        assert undo.status_code == 200, undo.get_json()
        made(page, seq + 1)
    # a lit top of the tower that one tap walks to, double tapped: the walk, and no more
    page.locator("#cl-v-me").scroll_into_view_if_needed()
    at = page.evaluate(ONE_TAP_WALK)
    assert at, "no top to walk to in one tap shows"
    before, seq = entries(table, 0), seq_of(page)
    page.wait_for_timeout(APART_MS)
    page.touchscreen.tap(*at)
    page.touchscreen.tap(*at)
    made(page, seq)
    quiet(page)
    assert entries(table, 0) == before + 1
    expect(page.locator("#picker")).to_have_attribute("data-step", "0")


def sr_two_cards(live_server: dict[str, Any]) -> tuple[ApiTable, int, list[int]]:
    """A SkyRunner table where a seat may choose between exactly two cards: the table, the
    seat and those cards."""
    table = ApiTable(live_server["app"].test_client(), game="skyrunner", players=2,
                     seed=1).join_all()
    table.start(first_seat=0)
    play(table, "skyrunner", 12)
    moves = table.moves(1)
    assert table.view(1)["view"]["choice"] is None and len(moves) == 2, moves
    return table, 1, [move["card"] for move in moves]


def choice_of(table: ApiTable, seat: int) -> int | None:
    choice = table.view(seat)["view"]["choice"]
    return None if choice is None else choice["id"]


def test_a_skyrunner_card_chosen_stays_chosen_through_a_double_tap(browser, live_server):
    table, seat, (first, _) = sr_two_cards(live_server)
    page = phone(browser, live_server["base"], table, seat)
    # the card, then Confirm, double tapped: the card is chosen, once
    page.locator(f"#private [data-choose='{first}']").tap()
    before, seq = entries(table, seat), seq_of(page)
    double_tap(page, move_button(page))
    made(page, seq)
    quiet(page)
    assert entries(table, seat) == before + 1 and choice_of(table, seat) == first
    # the phone says so, offers no other card, and asks before changing it
    expect(page.locator("#picker")).to_contain_text("You chose")
    expect(page.locator("#picker [data-confirm-move]")).to_have_count(0)
    expect(page.locator("#private .cardbtn.playable")).to_have_count(0)
    change = page.locator("#picker [data-change]")
    expect(change).to_have_text("Change my choice")
    assert change.bounding_box()["height"] >= 44


def test_a_second_tap_on_a_skyrunner_confirm_changes_no_choice(browser, live_server):
    """With two cards to choose from, the answer to Confirm used to show the other card
    with a big Confirm: tapped again, it chose that card."""
    table, seat, (first, _) = sr_two_cards(live_server)
    page = phone(browser, live_server["base"], table, seat)
    page.locator(f"#private [data-choose='{first}']").tap()
    before = entries(table, seat)
    double_tap_answered(page, move_button(page))
    quiet(page)
    assert entries(table, seat) == before + 1 and choice_of(table, seat) == first
    # the picker's big button tapped again, a tap of its own: no move
    tap_alone(page, page.locator("#picker button.big"))
    quiet(page)
    assert entries(table, seat) == before + 1 and choice_of(table, seat) == first


def test_a_skyrunner_choice_changes_only_when_asked_and_once(browser, live_server):
    table, seat, (first, other) = sr_two_cards(live_server)
    assert table.post_move(seat, {"type": "choose", "card": first}).status_code == 200
    page = phone(browser, live_server["base"], table, seat)
    expect(page.locator("#private .cardbtn.resting")).to_have_count(1)
    before = entries(table, seat)
    page.locator("#picker [data-change]").tap()
    # the one other card: chosen for the player, it looks chosen, and Confirm makes it; not
    # a double tap on "Change my choice" that lands on that Confirm
    lone = page.locator(f"#private .cardbtn[data-card='{other}']")
    expect(lone).to_have_class("cardbtn chosen")
    confirm = move_button(page)
    expect(confirm).to_have_text("Confirm")
    second_tap(page, middle(confirm))
    quiet(page)
    assert entries(table, seat) == before and choice_of(table, seat) == first
    seq = seq_of(page)
    double_tap(page, confirm)
    made(page, seq)
    quiet(page)
    assert entries(table, seat) == before + 1 and choice_of(table, seat) == other
    expect(page.locator("#picker")).to_contain_text("You chose")


def hatched(control: Locator) -> bool:
    """Whether ``control`` wears the look of a card no move may take (dotted, hatched)."""
    return control.evaluate("""el => { const s = getComputedStyle(el);
        return s.borderTopStyle === 'dotted' || s.backgroundImage.includes('gradient'); }""")


@pytest.mark.parametrize(("game", "players", "seed", "moves", "seat"), [
    ("skyrunner", 2, 1, 14, 1),
    ("seventh-heaven", 4, 5, 51, 1),
    ("heuchel-meuchel", 4, 1, 78, 3),
])
def test_the_lone_card_chosen_for_the_player_looks_chosen(browser, live_server, game, players,
                                                          seed, moves, seat):
    table = ApiTable(live_server["app"].test_client(), game=game, players=players,
                     seed=seed).join_all()
    table.start(first_seat=0)
    play(table, game, moves)
    legal = table.moves(seat)
    assert len(legal) == 1, legal
    move = legal[0]
    page = phone(browser, live_server["base"], table, seat)
    expect(move_button(page)).to_be_visible()
    # a card is chosen itself; a stack, with its rung of the ladder
    piece = page.locator(f"#private .cardbtn[data-card='{move['card']}']" if "card" in move
                         else f"#private .rung[data-row='{move['row']}'] .stackbtn")
    expect(piece).to_have_count(1)
    chosen = piece if "card" in move else page.locator(f"#private .rung[data-row='{move['row']}']")
    assert "chosen" in chosen.get_attribute("class").split()
    assert "dimmed" not in piece.get_attribute("class").split()
    assert piece.get_attribute("aria-disabled") is None
    assert not hatched(piece)
