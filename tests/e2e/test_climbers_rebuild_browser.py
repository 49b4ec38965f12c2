"""Rebuilding The Climbers' tower as it stands, in Chromium, after ten block moves (issue
44, point 3): a phone leads the rebuild from each of the four sides, and at every step the
words name only blocks already standing and the 3-D picture draws the new block where its
words put it (the start tower's build test's checks, ``agrees``); the table screen's page
walks every step, naming no block code, then where each figure stands, and goes back to
the game. The rebuild is the whole table's: begun on a phone, the table screen and every
other phone are in it live, and its end brings them all back to the game."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from companion.games.climbers import Climbers, rules
from companion.games.climbers.web import ClimbersHelpers
from companion.games.climbers.web.build import BuildWords, rebuild_order
from companion.i18n import drawing_in
from companion.web.services import services
from tests.conftest import ApiTable
from tests.e2e.phones import no_horizontal_scroll, seated_page
from tests.e2e.test_climbers_build_browser import CODES, DRAWN, agrees, walk

pytestmark = pytest.mark.e2e
GAME = Climbers()
#: Five players, so that ten block moves are made before a round without a new top ends the
#: game; with this seed the rebuild's order differs from the order the blocks were placed in.
PLAYERS, SEED, BLOCK_MOVES = 5, 3, 10


def mid_game(app, table: ApiTable) -> None:
    """Ten turns, each a block moved at random, the figure walking up first where a walk
    tops every figure (so the game goes on), then the turn's end."""
    rng = random.Random(SEED)
    moved = 0
    while moved < BLOCK_MOVES:
        state = services(app).tables.get(table.code).match.state
        seat = state["turn"]
        legal = GAME.legal_moves(state, seat)
        topping = [move for move in legal if move["type"] == "walk" and not state["walked"]
                   and state["step"] == "before" and rules.height_of(
                       GAME.apply(state, seat, move), seat) > state["top_before"]]
        if topping:
            move = min(topping, key=lambda m: (len(m["ladders"]), m["to"]))
        elif state["step"] == "before":
            move = rng.choice([m for m in legal if m["type"] == "block"])
            moved += 1
        else:
            move = {"type": "end"}
        answer = table.post_move(seat, move)
        assert answer.status_code == 200, answer.get_json()


def test_a_mid_game_tower_is_rebuilt_step_by_step_from_every_side(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="climbers", players=PLAYERS, seed=SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    mid_game(app, table)
    view = table.view()["view"]
    assert view["phase"] == "play"
    blocks = rebuild_order(view["blocks"])
    assert [b["id"] for b in blocks] != [b["id"] for b in view["blocks"]]  # reordered

    phone = seated_page(browser, base, table, 1)
    phone.locator("[data-go=rebuild]").click()
    step = phone.locator("#cl-build-step")
    expect(step).to_contain_text("Step 1 of")
    svg = step.locator("svg.cl-3d")
    for side in ("ahead", "left", "behind", "right"):
        phone.locator(f".cl-sitting button[value={side}]").click()
        expect(phone).to_have_url(re.compile(r"/play/extra/rebuild\?"))
        phone.goto(re.sub(r"\?.*", "", phone.url) + "?step=1")
        expect(svg).to_have_attribute("data-view", side)
        with app.test_request_context(), drawing_in("en"):
            words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
            steps = [words.step(blocks, n, side) for n in range(1, len(blocks) + 1)]
        for n, said in enumerate(steps, start=1):
            new = blocks[n - 1]["id"]
            standing = {block["id"] for block in blocks[:n - 1]}
            assert set(said.named) <= standing, (side, n, said.named)
            assert n == 1 or said.named, (side, n, said.place)  # said against a block
            expect(step.locator(".cl-step-count")).to_contain_text(f"Step {n} of")
            expect(svg.locator(f'g.marked[data-block="{new}"]')).to_have_count(1)
            expect(step.locator(".cl-step-place")).to_have_text(f"{said.place}.")
            drawn = phone.evaluate(DRAWN)
            assert set(drawn) == standing | {new}, (side, n)
            wrong = agrees(said.place, drawn[new], [drawn[b] for b in said.named])
            assert not wrong, (side, n, said.place, wrong)
            if n < len(blocks):
                step.locator("[data-go=next]").click()
    assert no_horizontal_scroll(phone)

    # The table screen, in the rebuild the phone began: every step with Next and Back,
    # then the figures; the tower stands again and the board is back.
    screen = host_screen(browser, base, table)
    seen = walk(screen, "rebuild")
    assert len(seen) == len(blocks)
    end = screen.locator(".cl-rebuild-end")
    assert not CODES.search(end.inner_text())
    for seat in range(PLAYERS):
        expect(end.locator(f"[data-figure='{seat}']")).to_contain_text("’s figure: on the")
    end.locator("[data-go=done]").click()
    expect(screen).to_have_url(re.compile(rf"/t/{table.code}/screen$"))
    expect(screen.locator("#cl-build")).to_have_count(0)


def host_screen(browser, base: str, table: ApiTable) -> Page:
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = laptop.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    return screen


def test_a_rebuild_led_from_a_phone_is_the_whole_tables_until_the_tower_stands(
        browser, live_server):
    """Begun by a tap on a phone (360 × 740, touch): the table screen shows the steps and
    follows the leader's, the other phone says the tower is being rebuilt and no move is
    taken; the leader's "The tower stands again" brings everyone back to the same turn."""
    app, base = live_server["app"], live_server["base"]
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    before = table.view()["view"]
    screen = host_screen(browser, base, table)
    other = seated_page(browser, base, table, 0)
    leader = seated_page(browser, base, table, 2)
    expect(screen.locator("#cl-build")).to_have_count(0)

    leader.locator("[data-go=rebuild]").tap()
    expect(leader).to_have_url(re.compile(rf"/t/{table.code}/play/extra/rebuild$"))
    expect(leader.locator(".cl-step-count")).to_contain_text("Step 1 of")
    screen_step = screen.locator("#cl-build-step")
    expect(screen_step.locator(".cl-step-count")).to_contain_text("Step 1 of")
    expect(screen_step.locator("svg.cl-3d g.marked")).to_have_count(1)  # drawn
    expect(screen_step).to_be_visible()
    expect(screen.locator("#cl-build [data-go=done]")).to_be_visible()
    expect(other.locator("#status h1")).to_have_text(
        "The tower is being rebuilt: no move until it stands again.")
    expect(other.locator(".cl-rebuilding [data-go=follow]")).to_be_visible()
    expect(other.locator("#picker form, #picker button")).to_have_count(0)  # none offered
    expect(other.locator("[data-go=rebuild]")).to_have_count(0)
    refused = table.post_move(0, table.moves(0)[0])
    assert refused.get_json()["error"]["rule"] == "cl.rebuild.under-way"

    for n in (2, 3):
        leader.locator("#cl-build-step [data-go=next]").tap()
        expect(leader.locator(".cl-step-count")).to_contain_text(f"Step {n} of")
        expect(screen_step.locator(".cl-step-count")).to_contain_text(f"Step {n} of")
    assert no_horizontal_scroll(leader)

    leader.locator("[data-go=done]").tap()
    expect(leader).to_have_url(re.compile(rf"/t/{table.code}/play$"))
    expect(screen.locator("#cl-build")).to_have_count(0)
    expect(screen.locator("#cl-v-main g[data-block]").first).to_be_attached()
    expect(other.locator(".cl-rebuilding")).to_have_count(0)
    expect(other.locator("#status")).to_have_attribute("data-my-turn", "yes")
    expect(other.locator("[data-go=rebuild]")).to_have_count(1)
    assert table.view()["view"] == before  # the same position, the same turn
    assert table.post_move(0, table.moves(0)[0]).status_code == 200
