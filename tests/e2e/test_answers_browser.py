"""Every "no" is answered where the finger is: in Chromium at 360 × 740, a dimmed card tapped
at the bottom of the hand, or a greyed square of The Climbers' map, opens a sheet inside the
visible screen with the rule in the players' words and a link to it in the rules page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from support.browser import PHONE
from tests.conftest import ApiTable
from tests.e2e.phones import seated_page
from tests.web.climbers_building import finish_building

pytestmark = pytest.mark.e2e



def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[
        "viewport"]["height"] and box["height"] > 20


def answered(page: Page, text: str, rule: str, game: str) -> None:
    notice = page.locator("#notice")
    expect(notice).to_contain_text(text)
    expect(notice).to_have_attribute("data-rule", rule)
    assert in_view(page, "#notice"), "the answer is out of sight"
    link = notice.locator("a")
    assert link.get_attribute("href").endswith(f"/rules/{game}/{rule}?table="
                                               f"{page.url.split('/t/')[1][:4]}")
    assert rule not in notice.inner_text()  # the rule by its title, never its id
    notice.locator("[data-dismiss]").click()
    expect(notice).to_be_empty()


def test_a_dimmed_card_at_the_bottom_of_the_hand_is_answered_in_view(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=4, seed=8)
    page = seated_page(browser, base, table, 0)
    dimmed = page.locator("#private .cardbtn.dimmed")
    assert dimmed.count() >= 1
    dimmed.last.scroll_into_view_if_needed()
    dimmed.last.click(force=True)  # aria-disabled, and still answers a tap
    answered(page, "The very first card of the game must be a number",
             "7h.first.forward-number", "seventh-heaven")
    waiting = seated_page(browser, base, table, 2)
    waiting.locator("#private .cardbtn").last.click(force=True)  # aria-disabled
    answered(waiting, "not your turn", "7h.turn.wait", "seventh-heaven")


def test_a_skyrunner_card_that_cannot_be_chosen_says_why(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="skyrunner", players=3, seed=4)
    page = seated_page(browser, base, table, 1)
    dimmed = page.locator("#private .cardbtn.dimmed")
    assert dimmed.count() >= 1
    dimmed.last.click(force=True)  # aria-disabled, and still answers a tap
    expect(page.locator("#notice")).to_have_attribute("data-rule", re.compile(r"^sr\."))
    assert in_view(page, "#notice")


def test_a_greyed_block_of_the_climbers_tower_says_why(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=2)
    finish_building(table)
    seat, moves = table.seat_to_move()
    assert any(move["type"] == "block" for move in moves)
    page = seated_page(browser, base, table, seat)
    page.locator("#picker button.option[data-value='block']").click()
    expect(page.locator("#picker")).to_have_attribute("data-key", "block")
    greyed = page.locator("#cl-v-me g.cl-b:not(.lit)")
    assert greyed.count() >= 1
    page.locator("#cl-v-me").scroll_into_view_if_needed()
    point = page.evaluate("""() => {
      for (const g of document.querySelectorAll("#cl-v-me g.cl-b:not(.lit)")) {
        const r = g.getBoundingClientRect();
        for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
          const x = r.left + r.width * i / 8, y = r.top + r.height * j / 8;
          const el = document.elementFromPoint(x, y);
          if (el && g.contains(el)) return [x, y];
        }
      }
      return null;
    }""")
    assert point is not None
    page.mouse.click(*point)
    expect(page.locator("#notice")).to_have_attribute("data-rule", re.compile(r"^cl\."))
    assert in_view(page, "#notice")


@pytest.mark.parametrize(("game", "players"), [("seventh-heaven", 4), ("skyrunner", 3)])
def test_a_full_hand_and_the_move_it_asks_for_fit_the_screen(browser, live_server, game,
                                                              players):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=5)
    page = seated_page(browser, base, table, 0)
    hand = page.locator("#private .cardbtn")
    assert hand.count() >= 10
    cards = page.locator("#private .cardbtn")
    index = max(i for i in range(cards.count())
                if "playable" in (cards.nth(i).get_attribute("class") or ""))
    cards.nth(index).click()
    confirm = page.locator("#picker [data-confirm-move]").first
    expect(confirm).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    box = confirm.bounding_box()
    assert box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    # the card chosen is in sight too, not under the picker
    chosen = cards.nth(index).bounding_box()
    assert chosen["y"] + chosen["height"] <= page.locator("#picker").bounding_box()["y"] + 1
