"""Every game's phones and table screen for players who do not see colour, who play by
keyboard or screen reader, or with large text: axe-core finds no critical or serious
violation (mid-game, with a refusal sheet open, at game over, in English and French); the
turn lines are polite live regions; a move is made with the keyboard alone, the focus
going to the next answer, then after Confirm to what comes next; and every card, pawn and
square carries its colour as a letter."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from support.browser import PHONE
from tests.conftest import ApiTable
from tests.e2e.phones import WATCH_REQUESTS, no_horizontal_scroll, seated_page, seq_of
from tests.e2e.playing import play
from tests.web.climbers_building import finish_building

pytestmark = pytest.mark.e2e
AXE = Axe()
AXE_OPTIONS = {"runOnly": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"],
               "resultTypes": ["violations"]}
#: Seats per game, and random moves played through the API before the phones look.
GAMES = {"seventh-heaven": (4, 8), "heuchel-meuchel": (3, 60), "skyrunner": (3, 6),
         "climbers": (2, 3)}
#: What a player presses Enter on: the next answer the move needs (for a SkyRunner card
#: chosen already, "Change my choice" first).
ANSWER = ("[data-confirm-move], #picker .options button, #picker .options input, "
          "#private .playable, [data-answer], [data-answer-parts] [role=button], "
          "#picker [data-change]")


def serious(page: Page) -> list[str]:
    """axe-core's critical and serious findings. A phone is scanned scrolled to the end,
    where the panel stuck to the bottom of the screen rests in its place: scrolled halfway
    it lies over whatever the page holds there (axe then counts that control as too small);
    the keyboard's focus is kept clear of it by the page's scroll padding, which
    ``move_by_keyboard`` checks at every step."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    results = AXE.run(page, options=AXE_OPTIONS)
    return [f"{v['id']}: {[n['target'] for n in v['nodes'][:4]]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def screen_page(browser: Browser, base: str, table: ApiTable, lang: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base},
                         {"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/t/{table.code}/screen")
    return page


def started(live_server: dict[str, Any], game: str) -> ApiTable:
    players, moves = GAMES[game]
    table = ApiTable.started(live_server["app"].test_client(), game, players, seed=5)
    finish_building(table)
    play(table, game, moves)
    return table


def focused(page: Page) -> dict[str, Any]:
    """What has the focus, and whether it is in sight: not under the sticky panel nor
    past the screen's edge."""
    return page.evaluate("""(sel) => {
      const el = document.activeElement;
      const r = el.getBoundingClientRect();
      const picker = document.getElementById('picker');
      const sticky = picker && getComputedStyle(picker).position === 'sticky';
      const top = sticky && !picker.contains(el) ? picker.getBoundingClientRect().top : innerHeight;
      return {id: el.id, tag: el.tagName, html: el.outerHTML.slice(0, 160),
              answer: el.matches(sel),
              covered: r.bottom > top + 1, clipped: r.left < 0 || r.right > innerWidth + 1};
    }""", ANSWER)


def answer_focused(page: Page) -> bool:
    return page.evaluate("(sel) => document.activeElement.matches(sel)", ANSWER)


#: Whether the key pressed has been answered: the move made (the turn line's seq moved
#: on), or, the page quiet, the focus on an answer other than the one pressed (a new
#: element, or the same one asking something else).
ANSWERED = """([sel, seq, html]) => {
  const status = document.getElementById('status');
  if (status && Number(status.dataset.seq) !== seq) return true;
  const q = window.__quiet;
  const el = document.activeElement;
  return q.asking === 0 && performance.now() - q.at > 300 && el.matches(sel)
    && (el !== window.__pressed || el.outerHTML.slice(0, 160) !== html);
}"""


def move_by_keyboard(page: Page) -> dict[str, Any]:
    """Tab to the first answer, then Enter on each answer the focus moves to, until the
    move is made. Returns what has the focus then."""
    seq = seq_of(page)
    page.bring_to_front()
    page.evaluate(WATCH_REQUESTS)
    page.locator("#status").focus()
    for _ in range(80):
        if answer_focused(page):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("no answer reached by Tab")
    for _ in range(12):
        where = focused(page)
        assert not where["covered"], f"focus under the panel: {where['html']}"
        assert not where["clipped"], f"focus past the edge: {where['html']}"
        page.evaluate("() => { window.__pressed = document.activeElement; }")
        page.keyboard.press("Enter")
        page.wait_for_function(ANSWERED, arg=[ANSWER, seq, where["html"]])
        if seq_of(page) != seq:
            break
    else:
        raise AssertionError("the keyboard never made the move")
    page.wait_for_function("() => document.activeElement !== document.body")
    return focused(page)


def mover(table: ApiTable) -> int:
    found = table.seat_to_move()
    assert found is not None
    return found[0]


def open_refusal(page: Page) -> None:
    """Press Enter on a control that can't be chosen now: its sheet says why, with the focus
    on OK. The page is brought to the front first (several phones share the browser, and
    only the page in front has the window's focus), and the control is pressed once htmx
    has taken it in: before that, Enter is a plain button's and asks nothing."""
    page.bring_to_front()
    control = page.locator("[aria-disabled=true]").first
    expect(control).to_have_attribute("data-htmx-powered", "true")
    control.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.activeElement.matches('#notice.refusal [data-dismiss]')")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_for_every_player(browser: Browser, live_server, game: str):
    base = live_server["base"]
    table = started(live_server, game)
    seat = mover(table)
    waiting = (seat + 1) % table.players

    # mid-game: the player to move in English, another player in French with a refusal
    # sheet open, the table screen in both
    phone = seated_page(browser, base, table, seat)
    expect(phone.locator("#status[aria-live=polite]")).to_have_attribute("data-my-turn", "yes")
    assert serious(phone) == []
    other = seated_page(browser, base, table, waiting, "fr")
    expect(other.locator("#status[aria-live=polite]")).to_be_visible()
    if other.locator("[aria-disabled=true]").count():
        open_refusal(other)
        assert serious(other) == []
        other.keyboard.press("Enter")  # OK: the sheet goes, the focus back where it was
        expect(other.locator("#notice.refusal")).to_have_count(0)
        assert other.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true"
    else:
        assert serious(other) == []
    screen = screen_page(browser, base, table, "fr")
    expect(screen.locator(".turn-line[aria-live=polite]")).to_be_visible()
    assert serious(screen) == []

    # a move by keyboard alone; after Confirm the focus goes to what comes next
    after = move_by_keyboard(phone)
    assert after["id"] == "status" or after["answer"], after
    assert not after["covered"]
    expect(screen.locator(".turn-line[aria-live=polite]")).to_be_visible()

    # game over, on a phone in English and the screen in English
    play(table, game)
    assert table.view()["outcome"] is not None
    for page in (phone, screen_page(browser, base, table, "en")):
        page.reload()
        expect(page.locator("#outcome h2, #status h1").first).to_be_visible()
        assert serious(page) == [], page.url


def test_the_colour_is_written_on_every_card_pawn_and_square(browser: Browser, live_server):
    base = live_server["base"]
    sh = started(live_server, "seventh-heaven")
    phone = seated_page(browser, base, sh, 0)
    expect(phone.locator("#status")).to_be_visible()
    letters = {"red": "R", "blue": "B", "grey": "Gy", "yellow": "Y", "green": "Gn", "pink": "P"}
    cards = phone.locator("#private .card7")
    assert cards.count() > 0
    for card in cards.all():
        colour = re.search(r"\bc-([a-z]+)", card.get_attribute("class")).group(1)
        if colour in letters:
            expect(card.locator(".ltr")).to_have_text(letters[colour])
    screen = screen_page(browser, base, sh, "en")
    pawns = screen.locator("#board .pawn-g")
    expect(pawns).to_have_count(6)
    for pawn in pawns.all():
        colour = re.search(r"\bc-([a-z]+)", pawn.get_attribute("class")).group(1)
        expect(pawn.locator("text")).to_have_text(letters[colour])
        assert pawn.get_attribute("role") == "img"
        assert re.match(rf"{colour} pawn \({letters[colour]}\) on ",
                        pawn.get_attribute("aria-label")), pawn.get_attribute("aria-label")

    cl = started(live_server, "climbers")
    climbers = seated_page(browser, base, cl, 0, "fr")
    french = {"red": "R", "dark-blue": "BF", "yellow": "J", "light-blue": "BC",
              "violet": "V", "grey": "G"}
    for tower in (climbers.locator("#cl-v-me"),
                  screen_page(browser, base, cl, "fr").locator("#cl-v-main")):
        # a letter on every block face in sight, in the reader's language
        marks = tower.locator("text.cl-ltr")
        expect(marks.first).to_be_attached()
        assert marks.count() > 20
        pairs = marks.evaluate_all("els => els.map(e => [e.dataset.colour, e.textContent])")
        assert all(letter == french[colour] for colour, letter in pairs), pairs
    expect(climbers.locator("#cl-legend")).to_contain_text("BF bleu foncé")
    said = screen_page(browser, base, cl, "fr").locator("#cl-main-said .sr")
    assert re.search(r"Dessus : \d+ \w", said.text_content() or "")

    # SkyRunner's climbers, on the wall and in the phone's grid of places
    sky = started(live_server, "skyrunner")
    sky_screen = screen_page(browser, base, sky, "en")
    wall = sky_screen.locator("svg.sr-wall")
    sr_letters = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P"}
    climbers_on_wall = wall.locator(".climber-ltr")
    expect(climbers_on_wall).to_have_count(sky.players)
    for mark in climbers_on_wall.all():
        colour = re.search(r"\bcol-([a-z]+)", mark.get_attribute("class")).group(1)
        expect(mark).to_have_text(sr_letters[colour])
    assert re.search(r"’s climber, (red|blue|yellow) \([RBY]\) on level \d+",
                     wall.get_attribute("aria-label") or "")
    dots = sky_screen.locator(".sr-col")  # the colour beside each player's name
    assert dots.count() >= sky.players
    for dot in dots.all():
        colour = re.search(r"\bcol-([a-z]+)", dot.get_attribute("class")).group(1)
        expect(dot).to_have_text(sr_letters[colour])
        assert dot.get_attribute("aria-label") == f"{colour} ({sr_letters[colour]})"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_at_200_percent_text_a_move_is_made_without_a_clipped_control(browser: Browser,
                                                                      live_server, game: str,
                                                                      lang: str):
    """In either language (French words are longer): no control clipped, nothing wider
    than the phone."""
    base = live_server["base"]
    table = started(live_server, game)
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[mover(table)],
                          "url": base}, {"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    # the phone's text size at 200%: the browser's default font size, as its setting does
    context.new_cdp_session(page).send("Page.setFontSizes",
                                       {"fontSizes": {"standard": 32, "fixed": 26}})
    page.goto(f"{base}/t/{table.code}/play")
    expect(page.locator("#status")).to_have_attribute("data-my-turn", "yes")
    assert page.evaluate("getComputedStyle(document.body).fontSize") == "34px"
    picker = page.locator("#picker")
    # the panel grows the page rather than scrolling inside itself
    assert picker.evaluate("p => getComputedStyle(p).position") == "static"
    assert phone_wide(page), "wider than the phone at 200% text"
    move_by_keyboard(page)
    assert no_horizontal_scroll(page) and phone_wide(page)


def phone_wide(page: Page) -> bool:
    """The page is laid out as wide as the phone: nothing (a card's long name that does not
    wrap) widens it. A phone's browser widens its layout to what the page holds, so the
    scroll width alone says nothing: the layout's width says it."""
    return page.evaluate("innerWidth") == PHONE["viewport"]["width"]
