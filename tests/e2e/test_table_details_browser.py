"""Smaller things a table meets, in Chromium at 360 × 740: no phone page is wider than the
phone in either language, and SkyRunner's climb grid numbers its lanes."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable
from tests.e2e.phones import seated_page

pytestmark = pytest.mark.e2e

MOST = {spec.id: spec.engine.max_players for spec in GAMES_UNDER_TEST}



@pytest.mark.parametrize("game", GAME_IDS)
def test_no_phone_page_is_wider_than_the_phone(browser, live_server, game):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game=game, players=min(4, MOST[game]),
                     seed=3).join_all()
    table.start(first_seat=0)
    table.play_at_random(10, random.Random(1))
    for lang in ("en", "fr"):
        page = seated_page(browser, base, table, 1, lang)
        expect(page.locator("#status")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, lang
        page.context.close()


def test_each_place_the_climber_can_reach_names_its_lane(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="skyrunner", players=3, seed=2)
    rng = random.Random(2)
    for _ in range(200):  # until a seat is to say where it climbs
        movers = [(seat, moves) for seat in range(3) if (moves := table.moves(seat))]
        climbing = [seat for seat, moves in movers if moves[0]["type"] == "climb"]
        if climbing:
            break
        seat, moves = rng.choice(movers)
        table.post_move(seat, rng.choice(moves))
    else:
        raise AssertionError("nobody came to climb")
    page = seated_page(browser, base, table, climbing[0])
    grid = page.locator(".reach-grid")
    expect(grid).to_be_visible()
    places = grid.locator("button.reach[data-lane]:not([data-lane='0'])")
    assert places.count() >= 1
    for index in range(places.count()):
        place = places.nth(index)
        lane = place.get_attribute("data-lane")
        assert place.locator(".reach-lane").inner_text() == f"Lane {lane}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.context.close()


@pytest.mark.parametrize("game", ["high-card", "seventh-heaven"])
def test_the_end_of_a_game_says_why_and_what_the_numbers_are(browser, live_server, game):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game=game, players=2, seed=5)
    table.play_at_random(3000, random.Random(1))
    outcome = table.view()["outcome"]
    assert outcome is not None
    spec = next(spec for spec in GAMES_UNDER_TEST if spec.id == game)
    texts = spec.seed["outcome"]
    for lang in ("en", "fr"):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        page = context.new_page()
        page.goto(f"{base}/t/{table.code}/screen")
        shown = page.locator("#outcome")
        expect(shown.locator(".end-reason")).to_have_text(texts["reasons"][outcome["reason"]][lang])
        winner = outcome["ranking"][0][0]
        score = texts["score"][lang].replace("{score}", str(outcome["scores"][str(winner)]))
        expect(shown.locator(".ranking li").first).to_contain_text(score)
        context.close()
