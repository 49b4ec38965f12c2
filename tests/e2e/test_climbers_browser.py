"""Two phones and the table screen play a seeded game of The Climbers in Chromium, from the
drawn start tower to the first player's failed last chance: walks with and without a
ladder, a block moved (tapped on the height map, turned, put down), a pass, a blocking
stone, and the ranking at the end."""

from __future__ import annotations

import re
import statistics
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.games.climbers import Climbers
from companion.web.games.climbers_picture import PALETTE
from companion.web.services import services
from support.browser import PHONE
from tests.conftest import ApiTable
from tests.e2e.phones import (
    no_horizontal_scroll,
    seated_page,
    seq_of,
    start_table,
    tap_through,
)
from tests.web.test_climbers_api import choose as choose_to_climb

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben")
SEED = 21
G = Climbers()


def height_of(view: dict[str, Any], place: str) -> int:
    if place == "table":
        return 0
    x, y = (int(part) for part in place.split(","))
    return next(cell["height"] for cell in view["cells"] if (cell["x"], cell["y"]) == (x, y))


def choose(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """In the first round each player climbs as high as a walk takes them, the first player
    moves a block and the second lays their blocking stone; after that everyone passes, so
    a round goes by without a new top and the first player's last chance fails."""
    moves = G.legal_moves(state, seat)
    view = G.view(state, seat)
    kinds = {move["type"] for move in moves}
    if "built" in kinds:
        return {"type": "built"}
    first_round = state["round"] == 1
    here = view["figures"][str(seat)]["height"]
    walks = [m for m in moves if m["type"] == "walk"
             and height_of(view, m["to"]) > here and first_round]
    if walks:
        return max(walks, key=lambda m: (height_of(view, m["to"]), m["ladders"] == "", m["to"]))
    if state["step"] == "before":
        blocks = [m for m in moves if m["type"] == "block"]
        if first_round and seat == 0 and blocks:
            return blocks[len(blocks) // 2]
        return {"type": "pass"}
    stones = [m for m in moves if m["type"] == "stone"]
    if first_round and seat == 1 and stones:
        return stones[0]
    return {"type": "end"}


def tap_move(page: Page, move: dict[str, Any]) -> int:
    """Tap through the picker as a player does: squares and blocks on the height map, the
    rest among the picker's buttons."""
    private = page.locator("#private")

    def target(key: str) -> Locator | None:
        if key == "type" and move["type"] == "walk" and move["to"] != "table":
            lit = private.locator(f"td.lit-reach [data-square='{move['to']}']")
            return lit if lit.count() else None
        if key == "type" and move["type"] == "block":
            lit = private.locator(f"td.lit-block button[data-block='{move['block']}']").first
            return lit if lit.count() else None
        if key == "to":
            return private.locator(f"[data-square='{move['to']}']")
        if key == "block":
            return private.locator(f"button[data-block='{move['block']}']").first
        if key == "x":
            return private.locator(f"button[data-square='{move['x']},{move['y']}']")
        if key == "long" and move["long"] is None:
            return private.locator("[data-long='none']")
        return None
    return tap_through(page, move, target)


def test_two_phones_and_the_screen_play_to_the_last_chance(browser: Browser, live_server):
    table, screen, phones = start_table(browser, live_server, "climbers", NAMES, SEED)

    # The build instructions: one large step at a time, paged with Back and Next, on the
    # screen and on the phones; the page carries the tower from four sides and one step.
    expect(phones[0].locator("#status")).to_contain_text("Build the tower")
    step = screen.locator("#cl-build-step")
    expect(step).to_contain_text(re.compile(r"Step 1 of 3\d"))
    expect(screen.locator("#cl-build")).to_contain_text("as seen from the table screen")
    assert screen.locator("#board svg.cl-tower").count() == 5
    expect(step.locator("[data-go=prev]")).to_be_disabled()
    step.locator("[data-go=next]").click()
    expect(step).to_contain_text("Step 2 of")
    expect(screen).to_have_url(re.compile(r"/screen\?step=2$"))
    pushed: list[str] = []
    screen.on("websocket", lambda ws: ws.on("framereceived", lambda f: pushed.append(str(f))))
    screen.reload()  # the reload comes back to step 2, and the push after it keeps it
    expect(screen.locator("#cl-build-step")).to_contain_text("Step 2 of")
    for _ in range(50):
        if any('id="board"' in str(frame) for frame in pushed):
            break
        screen.wait_for_timeout(100)
    assert any('id="board"' in str(frame) for frame in pushed)
    expect(screen.locator("#cl-build-step")).to_contain_text("Step 2 of")
    phones[1].locator("[data-go=lead]").click()  # any phone leads the build, on a page
    phone_step = phones[1].locator("#cl-build-step")
    expect(phone_step).to_contain_text("Step 1 of")
    phone_step.locator("[data-go=next]").click()
    expect(phone_step).to_contain_text("Step 2 of")
    assert no_horizontal_scroll(phones[1])
    phones[1].locator(".phone-extra .whoami a").click()  # back to the game
    expect(phones[1].locator("#status")).to_contain_text("Build the tower")

    played: list[str] = []
    turns: list[int] = []  # the taps each whole turn took
    block_moves: list[int] = []  # the taps each block move took
    taps_this_turn = 0
    for _ in range(60):
        with table.lock:
            state = table.state
        if G.outcome(state) is not None:
            break
        seat = state["turn"]
        move = choose(state, seat)
        seq = seq_of(phones[seat])
        taps = tap_move(phones[seat], move)
        taps_this_turn += taps
        if move["type"] == "block":
            block_moves.append(taps)
        if move["type"] in ("end", "stone"):
            turns.append(taps_this_turn)
        if move["type"] in ("end", "stone", "built", "restart"):
            taps_this_turn = 0
        for phone in phones:
            expect(phone.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
        expect(screen.locator(f"#screen-head[data-seq='{seq + 1}']")).to_have_count(1)
        with table.lock:
            after = table.state
        assert after["blocks"] != state["blocks"] or move["type"] != "block"
        if move["type"] == "walk":
            assert after["figures"][str(seat)] == (None if move["to"] == "table" else move["to"])
        played.append(move["type"])
        if move["type"] == "walk" and move["ladders"]:
            played.append("ladder")
        for phone in phones:
            assert no_horizontal_scroll(phone)
    else:
        raise AssertionError("the game did not end")

    assert {"built", "walk", "ladder", "block", "pass", "stone", "end"} <= set(played)
    # A block move: the block, where it goes, and a way of lying only where several fit.
    assert statistics.median(block_moves) <= 4 and max(block_moves) <= 5, block_moves
    assert statistics.median(turns) <= 6, turns
    outcome = G.outcome(state)
    assert outcome is not None
    assert sorted(seat for group in outcome.ranking for seat in group) == [0, 1]
    expect(screen.locator("#outcome")).to_contain_text("Game over")
    winner = NAMES[outcome.winners[0]]
    expect(screen.locator("#outcome")).to_contain_text(winner)
    for phone in phones:
        expect(phone.locator("#status")).to_contain_text("Game over")
        assert no_horizontal_scroll(phone)
        assert phone.evaluate("window.__vibrations") >= 1
        assert phone.evaluate("window.__wakeLocks") >= 1


#: Squares a 360 px phone shows across at 30 px each.
PHONE_COLUMNS = 11
#: A tower that the first moves spread to 16 squares across.
WIDE_SEED = 11


def test_a_map_wider_than_the_phone_pans_to_the_lit_blocks(browser: Browser, live_server):
    app, base = live_server["app"], live_server["base"]
    client = app.test_client()
    body = client.post("/api/tables", json={"game": "climbers", "players": 3,
                                            "seed": WIDE_SEED}).get_json()
    code = body["code"]
    tokens = [client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
              .get_json()["token"] for seat, name in enumerate(("Ana", "Ben", "Chloé"))]
    host = {"Authorization": f"Bearer {body['host_token']}"}
    client.post(f"/api/tables/{code}/start", headers=host)
    tables = services(app).tables
    table = tables.get(code)
    for _ in range(200):  # the blocks moved to climb on spread the tower out
        state = table.state
        assert state["phase"] != "over", "the tower never grew wider than a phone"
        bounds = G.view(state, None)["bounds"]
        if (state["phase"] == "play" and state["step"] == "before" and not state["walked"]
                and bounds[2] - bounds[0] + 1 > PHONE_COLUMNS + 3):
            break
        seat = state["turn"]
        move = choose_to_climb(G.view(state, seat), seat, G.legal_moves(state, seat))
        tables.submit(table, seat, move, table.seq, f"spread-{table.seq}")
    else:
        raise AssertionError("the tower never grew wider than a phone")
    centring = """(selector) => {
      const frame = document.querySelector(".cl-map-frame");
      const focus = [...frame.querySelectorAll(selector)];
      const left = Math.min(...focus.map((td) => td.offsetLeft));
      const right = Math.max(...focus.map((td) => td.offsetLeft + td.offsetWidth));
      const most = frame.scrollWidth - frame.clientWidth;
      const centred = Math.max(0, Math.min(most, (left + right) / 2 - frame.clientWidth / 2));
      return [frame.scrollLeft, centred];
    }"""
    panned = []
    for seat, token in enumerate(tokens):
        context = browser.new_context(**PHONE)
        context.add_cookies([{"name": f"seat_{code}", "value": token, "url": base}])
        phone = context.new_page()
        with phone.expect_websocket() as socket:  # tap once the full view has arrived
            phone.goto(f"{base}/t/{code}/play")
        socket.value.wait_for_event("framereceived")
        expect(phone.locator(".cl-legend")).to_contain_text("Swipe the map sideways")
        assert no_horizontal_scroll(phone)
        assert phone.evaluate("""() => {
          const map = document.querySelector(".cl-map");
          return map.getBoundingClientRect().width / Number(map.dataset.columns);
        }""") >= 30
        if seat == state["turn"]:  # the blocks it may move light up: the map pans to them
            phone.locator("#picker button.option[data-value='block']").click()
            expect(phone.locator("#picker")).to_have_attribute("data-key", "block")
            panned.append(phone.evaluate(centring, "td.lit"))
        else:  # nothing to answer: the map opens on the phone's own figure
            panned.append(phone.evaluate(centring, f"td:has(.cl-fig[data-seat='{seat}'])"))
        context.close()
    assert any(centred > 30 for _, centred in panned), "nothing to pan to: not a test"
    assert all(abs(left - centred) <= 2 for left, centred in panned), panned


def test_a_figure_on_its_own_colour_shows_and_seats_wear_the_figures_colours(browser,
                                                                             live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="climbers", players=3, seed=2)
    join = browser.new_context(**PHONE).new_page()
    join.goto(f"{base}/j/{table.code}")
    swatch = join.locator(".swatch[data-colour='1']").first
    assert swatch.evaluate("e => getComputedStyle(e).backgroundColor") == rgb(PALETTE["dark-blue"])
    table.join_all()
    table.start(first_seat=0)
    table.finish_building()
    seat, moves = table.seat_to_move()
    walk = next(m for m in moves if m["type"] == "walk" and m["to"] != "table")
    table.post_move(seat, walk)
    join.context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[seat],
                               "url": base}])
    join.goto(f"{base}/t/{table.code}/play")
    square = join.locator(f"#map-{walk['to'].replace(',', '_').replace('-', 'm')}")
    figure = square.locator(".cl-fig")
    # the player's initial on it; a screen reader hears the name and the colour
    expect(figure.locator("[aria-hidden=true]")).to_have_text("ABC"[seat])
    expect(figure.locator(".sr")).to_have_text(re.compile(r"^\w+ \(\w[\w ]*\)$"))
    # Figures stand on their own colour: the marker's rings, white then black, set it apart.
    assert square.evaluate("e => getComputedStyle(e).backgroundColor") == figure.evaluate(
        "e => getComputedStyle(e).backgroundColor")
    assert figure.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(255, 255, 255)"
    assert "rgb(17, 17, 17)" in figure.evaluate("e => getComputedStyle(e).boxShadow")
    box = figure.bounding_box()
    assert box["width"] >= 18 and box["height"] >= 18


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_the_picker_never_hides_the_block_being_moved(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="climbers", players=3, seed=2).join_all()
    table.start(first_seat=0)
    table.finish_building()
    seat, _ = table.seat_to_move()
    page = seated_page(browser, base, table, seat)
    lit = page.locator(".cl-map td.lit-block button")
    assert lit.count() >= 1
    # the movable block lowest on the map, where the picker would cover it
    lowest = max(range(lit.count()), key=lambda i: lit.nth(i).bounding_box()["y"])
    block = lit.nth(lowest).get_attribute("data-block")
    lit.nth(lowest).click()
    expect(page.locator("#picker")).to_have_attribute("data-key", "x")
    page.wait_for_timeout(200)
    picker_top = page.locator("#picker").bounding_box()["y"]
    for cell in page.locator(".cl-map td.chosen").all():
        box = cell.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= picker_top + 1, (block, box)


def test_a_player_says_where_they_sit_and_their_map_turns(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="climbers", players=3, seed=2).join_all()
    table.start(first_seat=0)
    page = seated_page(browser, base, table, 1)
    first_row = page.locator(".cl-map tr").first.locator("td")
    north = max(cell["y"] for cell in table.view(None)["view"]["cells"])
    assert all(cell.endswith(f"_{north}".replace("-", "m"))
               for cell in first_row.evaluate_all("tds => tds.map(td => td.id)"))
    page.locator(".cl-sitting button[value=left]").click()
    expect(page.locator(".cl-legend")).to_contain_text("off the left of the map")
    left_column = page.locator(".cl-map tr td:first-child")
    assert all(cell.endswith(f"_{north}".replace("-", "m"))
               for cell in left_column.evaluate_all("tds => tds.map(td => td.id)"))
    page.reload()  # said once: kept
    expect(page.locator(".cl-sitting button[value=left]")).to_have_attribute(
        "aria-pressed", "true")
    assert no_horizontal_scroll(page)
