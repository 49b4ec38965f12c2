"""The table screen during a game, on a laptop (1280 × 800) and a TV (1920 × 1080): the
board, whose turn it is, the last move with its rule line and the scoreboard fit without
scrolling, in every game; the turn is readable across the room, and the QR code has shrunk
to a corner, still there to rejoin."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable

pytestmark = pytest.mark.e2e

MOST = {spec.id: spec.engine.max_players for spec in GAMES_UNDER_TEST}

#: Where each part of the screen is, and what of it lies outside the window.
MEASURE = """() => {
  const box = el => el && el.getBoundingClientRect();
  const out = el => {
    const b = box(el);
    return b && (b.bottom > innerHeight + 1 || b.right > innerWidth + 1);
  };
  const board = document.querySelector('#board');
  const pictures = [...board.querySelectorAll('svg')]
    .filter(svg => svg.getBoundingClientRect().height > 0);
  const clipped = pictures.filter(svg => svg.getBoundingClientRect().bottom > box(board).bottom + 1
                                      || svg.getBoundingClientRect().right > box(board).right + 1);
  const turn = document.querySelector('#screen-head .turn-line > *');
  const newest = document.querySelector('#log li');
  const qr = document.querySelector('#screen-head .qr img');
  return {
    scrolls: document.documentElement.scrollHeight > innerHeight
             || document.documentElement.scrollWidth > innerWidth,
    boardOut: out(board), picturesOut: pictures.filter(out).length, clipped: clipped.length,
    boardHeight: box(board).height,
    scoreboardOut: out(document.querySelector('#board .holders, #board table'))
                   || box(document.querySelector('#board .holders, #board table')).right
                      > box(board).right + 1,
    newestOut: out(newest), newest: newest && newest.innerText,
    turnFont: turn ? parseFloat(getComputedStyle(turn).fontSize) : 0,
    qr: qr ? box(qr).width : 0,
  };
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)], ids=["laptop", "tv"])
@pytest.mark.parametrize("game", GAME_IDS)
def test_the_whole_table_fits_the_screen(browser, live_server, game, size):
    app, base = live_server["app"], live_server["base"]
    players = min(4 if game != "climbers" else 3, MOST[game])
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=3)
    table.play_at_random(14, random.Random(1))
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{base}/t/{table.code}/screen")
    expect(page.locator("#screen-head")).to_have_attribute("data-status", "playing")
    seen = page.evaluate(MEASURE)
    assert not seen["scrolls"], seen
    assert not seen["boardOut"] and not seen["picturesOut"] and not seen["clipped"], seen
    assert seen["boardHeight"] > 0
    assert not seen["scoreboardOut"], seen
    assert seen["newest"] and not seen["newestOut"], seen  # the last move, with its rule
    assert seen["turnFont"] >= (40 if size[1] >= 1080 else 28), seen
    assert 80 <= seen["qr"] <= 150, seen  # in its corner, still big enough to scan
    context.close()


def test_the_last_move_shows_its_rule_line_on_the_screen(browser, live_server):
    """In 7th Heaven's first moves an event space sends a piece on: the screen's newest
    log line says so with its "Why" link, in view."""
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3, seed=7)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/t/{table.code}/screen")
    for seq in range(30):
        seat, moves = table.seat_to_move()
        table.post_move(seat, moves[0], seq=seq)
        expect(page.locator("#screen-head")).to_have_attribute("data-seq", str(seq + 1))
        newest = page.locator("#log li").first
        if newest.locator(".why a").count():
            break
    else:
        raise AssertionError("no move with a rule line in 30 moves")
    why = newest.locator(".why a")
    expect(why).to_be_in_viewport(ratio=1)
    assert "/rules/seventh-heaven/7h." in why.get_attribute("href")
    context.close()
