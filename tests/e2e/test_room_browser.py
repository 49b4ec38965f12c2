"""The table screen for the room and the end of a game, in every game played to its end:
the screen at 1920 × 1080 (a TV) and 1280 × 800 (a laptop), phones at 360 × 740.

Measured in the browser, not by eye: the board fills the space left to it; names and
scores are at least 28 px at 1080 px high (scaled with the height below it); Heuchel &
Meuchel's cards and SkyRunner's climbers are large; no name is cut and no word is broken
across lines; the game-over headline, ranking and the night's scoreboard are in the first
screen, each place's score on its row beside a name as long as a name may be; each phone
says its place; no developer's word or other language in the visible text of what this page
shows, and the table screen speaks of nobody's "your". Each seat wears its piece's colour.
Screenshots go to ``$ROOM_SHOTS`` when it is set."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.registry import BY_ID as ENGINES
from companion.tables import NAME_MAX
from support.reading import addressed, unreadable
from tests.conftest import ApiTable
from tests.e2e.phones import no_horizontal_scroll, seated_page
from tests.e2e.playing import play
from tests.web.climbers_building import finish_building

pytestmark = pytest.mark.e2e

SIZES = [(1920, 1080), (1280, 800)]
#: The quickest table of each game: the fewest players (SkyRunner's fewest that its test
#: strategy brings to the roof), the lowest building, and a seed.
TABLES: dict[str, tuple[int, dict[str, Any], int]] = {
    "seventh-heaven": (2, {}, 5), "heuchel-meuchel": (3, {}, 5),
    "skyrunner": (3, {"levels": 6}, 23), "climbers": (2, {}, 5),
}
#: Moves played before the screen is measured mid-game.
MID_GAME = {"seventh-heaven": 10, "heuchel-meuchel": 40, "skyrunner": 12, "climbers": 3}
#: A name as long as a name may be, a hyphenated one: the screen shows them whole.
NAMES = ("Jean-Bartholomäus Maxime", "Chloé", "Anne-Sophie")
#: The board's main picture in each game, and what must be told apart from three metres.
PICTURE = {"seventh-heaven": "svg.track", "heuchel-meuchel": "svg.hm-board",
           "skyrunner": "svg.sr-wall", "climbers": "svg.cl-3d.cl-big"}
PIECES = {"seventh-heaven": ".pawn-dot", "heuchel-meuchel": ".sq .top",
          "skyrunner": "rect.climber"}
#: The scoreboard's column of the number each game ranks by (its first is the names).
SCORE_COLUMN = {"seventh-heaven": 4, "heuchel-meuchel": 3, "skyrunner": 2, "climbers": 2}
#: The smallest side of a piece at 1080 px high: a pawn, a card on the house, a climber.
PIECE_MIN = {"seventh-heaven": 40, "heuchel-meuchel": 40, "skyrunner": 36}

#: Each word of the given elements' visible text that the layout breaks across two lines,
#: and each element whose text is cut (wider than its box, or ended with an ellipsis).
LAYOUT = """(selectors) => {
  const broken = [], cut = [];
  for (const el of document.querySelectorAll(selectors)) {
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible'
        || style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      cut.push(el.textContent.trim());
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // A hyphen may end a line ("Anne-" / "Sophie"), as in print; nothing else may.
      for (const match of node.data.matchAll(/[^\\s\\u00a0-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                             .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return {broken, cut};
}"""

#: Sizes on the table screen: font sizes of names and scores, the board and its picture.
SCREEN = """([picture, pieces, score]) => {
  const box = el => el.getBoundingClientRect();
  const font = el => parseFloat(getComputedStyle(el).fontSize);
  const shown = els => [...els].filter(el => el.getClientRects().length);
  const board = document.querySelector('#board');
  const svg = shown(board.querySelectorAll(picture))[0];
  const names = shown(document.querySelectorAll('#seats .name'));
  const holders = document.querySelector('#board .holders');
  // Each row's name, and the number the game ranks by.
  const cells = shown(document.querySelectorAll(
    `#board .holders td:first-child, #board .holders td:nth-child(${score})`));
  const bits = pieces ? shown(board.querySelectorAll(pieces)) : [];
  return {
    scrolls: document.documentElement.scrollHeight > innerHeight,
    board: {w: box(board).width, h: box(board).height},
    picture: svg ? {w: box(svg).width, h: box(svg).height} : null,
    nameFonts: names.map(font), cellFonts: cells.map(font),
    scoreboardOut: box(holders).right > box(board).right + 1,
    pieces: bits.map(el => Math.min(box(el).width, box(el).height)),
  };
}"""

OUTCOME = """() => {
  const box = sel => document.querySelector(sel).getBoundingClientRect();
  const font = el => parseFloat(getComputedStyle(el).fontSize);
  const lines = [...document.querySelectorAll('#outcome .ranking li')];
  return {
    scrollY: scrollY, height: innerHeight,
    headline: box('#outcome .winner-line').bottom, ranking: box('#outcome .ranking').bottom,
    night: document.querySelector('#night')?.getBoundingClientRect().bottom,  // screen only
    // Where each row's score starts, against its last name: the same line, or below it.
    scoreLines: lines.map(li => {
      const names = li.querySelectorAll('.name'), score = li.querySelector('.score');
      return score.getClientRects()[0].top - names[names.length - 1].getClientRects()[0].top;
    }),
    headlineFont: font(document.querySelector('#outcome .winner-line')),
    fonts: lines.flatMap(li => [...li.querySelectorAll('.name, .score')].map(font)),
    lines: lines.map(li => li.innerText.replace(/\\s+/g, ' ').trim()),
  };
}"""

WORDS = "#screen-head, #seats, #board .holders, #outcome, #host"


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("ROOM_SHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"))


#: Two frames: whatever the page's socket brought in first is laid out.
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def screen(browser: Browser, base: str, table: ApiTable, size: tuple[int, int],
           lang: str = "en") -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base},
                         {"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/t/{table.code}/screen")
    return page


def least(height: int, at_1080: float) -> float:
    """``at_1080`` px on a screen 1080 px high, scaled to ``height``."""
    return at_1080 * height / 1080 - 0.5


def text_of(page: Page, selectors: str) -> str:
    return "\n".join(page.locator(selectors).all_inner_texts())


def readable(page: Page, lang: str) -> None:
    """Nothing in what the whole page shows is a developer's word or the other language."""
    found = unreadable(text_of(page, "body"), lang)
    assert not found, (lang, page.url, found)


def check_words(page: Page, selectors: str) -> None:
    seen = page.evaluate(LAYOUT, selectors)
    assert not seen["broken"], seen
    assert not seen["cut"], seen


@pytest.mark.parametrize("game", list(TABLES))
def test_a_whole_game_on_the_rooms_screen_and_the_phones(browser: Browser, live_server,
                                                        game: str):
    assert max(map(len, NAMES)) == NAME_MAX
    base = live_server["base"]
    players, options, seed = TABLES[game]
    table = ApiTable(live_server["app"].test_client(), game, players, seed=seed,
                     options=options).join_all(NAMES)
    table.start()
    finish_building(table)
    play(table, game, MID_GAME[game])
    assert table.view()["outcome"] is None

    for size in SIZES:
        page = screen(browser, base, table, size)
        expect(page.locator("#screen-head")).to_have_attribute("data-status", "playing")
        page.evaluate(SETTLED)
        seen = page.evaluate(SCREEN, [PICTURE[game], PIECES.get(game), SCORE_COLUMN[game]])
        width, height = size
        shoot(page, f"{game}-{width}-playing")
        assert not seen["scrolls"] and not seen["scoreboardOut"], seen
        # The board has the room left by the head and the right-hand column, and its
        # picture fills that room in one direction at least.
        assert seen["board"]["w"] >= 0.6 * width and seen["board"]["h"] >= 0.62 * height, seen
        picture = seen["picture"]
        assert picture is not None, seen
        if game != "climbers":  # its tower is drawn by its own layout
            assert (picture["w"] >= 0.9 * seen["board"]["w"] - 1
                    or picture["h"] >= 0.9 * seen["board"]["h"] - 1), seen
        assert len(seen["nameFonts"]) == players and min(seen["nameFonts"]) >= least(height, 28)
        assert seen["cellFonts"] and min(seen["cellFonts"]) >= least(height, 28), seen
        if game in PIECE_MIN:
            # A piece scales with the board, which the narrower side of the screen bounds.
            scale = min(width / 1920, height / 1080)
            assert seen["pieces"] and min(seen["pieces"]) >= PIECE_MIN[game] * scale - .5, seen
        check_words(page, WORDS)
        # Names on the board itself are whole too (Heuchel & Meuchel's column heads; The
        # Climbers' tower is a picture of its own, drawn apart from these templates).
        drawn = page.evaluate("""() => [...document.querySelectorAll(
            '#board svg:not(.cl-3d) text')].filter(t => t.getClientRects().length)
            .map(t => t.textContent)""")
        assert not [text for text in drawn if "…" in text], drawn
        readable(page, "en")
        page.context.close()
    # Mid-game, a phone in each language and the screen in French read only that language.
    for lang, viewer in (("en", seated_page(browser, base, table, 0, lang="en")),
                         ("fr", seated_page(browser, base, table, 0, lang="fr")),
                         ("fr", screen(browser, base, table, SIZES[0], lang="fr"))):
        readable(viewer, lang)
        viewer.context.close()

    play(table, game, 3000)
    outcome = table.view()["outcome"]
    assert outcome is not None
    count = sum(len(group) for group in outcome["ranking"])
    winners = [NAMES[seat] for seat in outcome["ranking"][0]]
    for size in SIZES:
        page = screen(browser, base, table, size)
        expect(page.locator("#screen-head")).to_have_attribute("data-status", "over")
        headline = page.locator("#outcome .winner-line")
        for name in winners:
            expect(headline).to_contain_text(name)
        page.evaluate(SETTLED)
        seen = page.evaluate(OUTCOME)
        shoot(page, f"{game}-{size[0]}-over")
        # The headline, the whole ranking and the night's scoreboard in the first screen,
        # nothing scrolled; each score on its row.
        assert seen["scrollY"] == 0 and seen["ranking"] <= seen["height"], seen
        assert seen["night"] <= seen["height"], seen
        assert all(abs(gap) < 4 for gap in seen["scoreLines"]), seen
        assert seen["headlineFont"] >= least(size[1], 56), seen
        assert min(seen["fonts"]) >= least(size[1], 28), seen
        place = 1
        for group, line in zip(outcome["ranking"], seen["lines"], strict=True):
            assert line.startswith(str(place)), seen
            for seat in group:
                assert NAMES[seat] in line
                score = str(outcome["scores"][str(seat)])
                assert score in line and len(line) > len(score) + len(NAMES[seat]) + 4, line
            place += len(group)
        check_words(page, "#outcome, #seats, #host, #night")
        readable(page, "en")
        assert not addressed(text_of(page, "body"), "en")
        page.context.close()
    # The same screen and a phone in French: no English left, no developer's word.
    page = screen(browser, base, table, SIZES[0], lang="fr")
    expect(page.locator("#screen-head")).to_have_attribute("data-status", "over")
    readable(page, "fr")
    assert not addressed(text_of(page, "body"), "fr")
    page.context.close()
    phone = seated_page(browser, base, table, 0, lang="fr")
    readable(phone, "fr")
    phone.context.close()

    place = 1
    for group in outcome["ranking"]:
        for seat in group:
            phone = seated_page(browser, base, table, seat)
            status = phone.locator("#status h1")
            if place == 1:
                expect(status).to_contain_text("you share the win" if len(group) > 1
                                               else "you won")
            else:
                ordinal = {2: "2nd", 3: "3rd"}.get(place, f"{place}th")
                expect(status).to_have_text(f"Game over: you are {ordinal} of {count}.")
            expect(phone.locator("#outcome .winner-line")).to_contain_text(winners[0])
            assert no_horizontal_scroll(phone)
            check_words(phone, "#status, #outcome")
            scores = phone.evaluate(OUTCOME)["scoreLines"]
            assert all(abs(gap) < 4 for gap in scores), scores
            readable(phone, "en")
            if seat == 0:
                shoot(phone, f"{game}-phone-over")
            phone.context.close()
        place += len(group)


#: A seat's piece, drawn: SkyRunner's climber on the wall, The Climbers' figure (drawn by
#: static/js/games/climbers/).
PIECE_OF_SEAT = {"skyrunner": "#climber-{seat} rect.climber",
                 "climbers": "g.cl-pawn[data-seat='{seat}'] path"}
#: Each seat's piece colour and the colours of the dots it is shown by (its line in the
#: seats, a phone's own dot beside its name).
SEAT_COLOURS = """([pieceOf, seats]) => seats.map(seat => {
  const piece = document.querySelector(pieceOf.replace('{seat}', seat));
  const dots = [...document.querySelectorAll(
    `#seat-${seat} .swatch, .whoami .swatch[data-colour="${seat}"]`)];
  return {seat, piece: piece && getComputedStyle(piece).fill,
          dots: dots.map(dot => getComputedStyle(dot).backgroundColor)};
})"""


@pytest.mark.parametrize("game", list(PIECE_OF_SEAT))
def test_each_seat_wears_its_pieces_colour(browser: Browser, live_server, game: str):
    """At the largest table, on the table screen and on the first and last seats' phones,
    every seat's dot is the colour its piece is drawn in."""
    base = live_server["base"]
    players = ENGINES[game].max_players
    table = ApiTable.started(live_server["app"].test_client(), game, players, seed=5)
    finish_building(table)
    pieces = PIECE_OF_SEAT[game]
    for page in (screen(browser, base, table, SIZES[0]),
                 seated_page(browser, base, table, 0),
                 seated_page(browser, base, table, players - 1)):
        page.wait_for_selector(pieces.format(seat=players - 1), state="attached")
        seen = page.evaluate(SEAT_COLOURS, [pieces, list(range(players))])
        for seat in seen:
            assert seat["piece"] and seat["dots"], seen
            assert set(seat["dots"]) == {seat["piece"]}, (page.url, seat)
        page.context.close()


def test_heuchel_meuchels_seats_wear_no_colour(browser: Browser, live_server):
    """A seat owns no colour in Heuchel & Meuchel (its cards wear their ranks'): no dot of
    a colour beside a name, on the screen or a phone."""
    base = live_server["base"]
    table = ApiTable.started(live_server["app"].test_client(), "heuchel-meuchel", 3, seed=5)
    for page in (screen(browser, base, table, SIZES[0]), seated_page(browser, base, table, 0)):
        expect(page.locator("#seats .seat")).to_have_count(3)
        assert page.locator(".swatch[data-colour]").evaluate_all(
            "els => els.filter(e => e.getClientRects().length).length") == 0
        page.context.close()


def test_the_host_on_a_second_device_and_a_guest_who_cannot(browser: Browser, live_server):
    """The host makes a host link on its screen; the TV opens it and starts the game; a
    guest's phone can neither make one nor use a wrong key; once the host revokes the
    link, the TV's screen loses the host's buttons without a reload."""
    base = live_server["base"]
    table = ApiTable(live_server["app"].test_client(), "seventh-heaven", 2, seed=5).join_all(NAMES)
    host = screen(browser, base, table, (1280, 800))
    host.get_by_role("link", name="Host on another device…").click()
    host.get_by_role("button", name="Make a new host link").click()
    key = host.locator("#host-key").inner_text()
    address = host.locator(".host-link-url a").get_attribute("href")
    assert not unreadable(text_of(host, "main"), "en")
    check_words(host, "main")

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{base}/t/{table.code}/screen")
    expect(tv.locator("#host button")).to_have_count(0)  # a plain table screen
    assert key not in text_of(tv, "body")
    tv.goto(address)
    tv.get_by_role("button", name="Take the host’s buttons on this device").click()
    expect(tv.get_by_role("button", name="Start the game")).to_be_visible()
    tv.get_by_role("button", name="Start the game").click()
    expect(tv.locator("#screen-head")).to_have_attribute("data-status", "playing")

    guest = seated_page(browser, base, table, 1)
    assert "/host-links" not in guest.content()
    guest.goto(f"{base}/t/{table.code}/host-links")
    expect(guest.locator("body")).to_contain_text("Only the host can do that")
    guest.goto(f"{base}/t/{table.code}/host")
    guest.locator("#host-key-field").fill("0000-0000-0000-0000")
    guest.get_by_role("button", name="Take the host’s buttons on this device").click()
    expect(guest.locator("#notice")).to_contain_text("This host code is wrong")
    expect(guest.locator("#host-key-field")).to_be_in_viewport()
    assert no_horizontal_scroll(guest)
    guest.goto(f"{base}/t/{table.code}/screen")
    expect(guest.locator("#host button")).to_have_count(0)

    host.goto(f"{base}/t/{table.code}/host-links")
    host.get_by_role("button", name="Revoke host link 1").click()
    expect(host.locator("body")).to_contain_text("No host link yet")
    expect(tv.locator("#host button, #host summary")).to_have_count(0)  # pushed, no reload
    tv.reload()
    expect(tv.locator("#host-undo, #host-free")).to_have_count(0)
    host.goto(f"{base}/t/{table.code}/screen")
    expect(host.locator("#host-free")).to_be_visible()  # the host keeps its own
    for page in (host, tv, guest):
        page.context.close()
