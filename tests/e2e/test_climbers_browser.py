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
from companion.games.climbers.geometry import Tower, hidden
from companion.games.climbers.web.ask import LADDER_COST
from companion.web.services import services
from support.browser import PHONE
from support.strategies.climbers import climbing_block_move
from tests.conftest import ApiTable
from tests.e2e.phones import (
    no_horizontal_scroll,
    seated_page,
    seq_of,
    start_table,
    tap_through,
)
from tests.e2e.playing import play
from tests.e2e.tower_taps import choose_lit_block, tap_seen
from tests.web.climbers_building import finish_building
from tests.web.test_climbers_api import LOWER_OR_LADDER, LOWER_OR_LADDER_SEED
from tests.web.test_palette import climbers_colours

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben")
SEED = 21
G = Climbers()


def height_of(view: dict[str, Any], place: str) -> int:
    if place == "table":
        return 0
    x, y = (int(part) for part in place.split(","))
    return next(cell["height"] for cell in view["cells"] if (cell["x"], cell["y"]) == (x, y))


def choose(state: dict[str, Any], seat: int, seen: set[str]) -> dict[str, Any]:
    """In the first two rounds each player climbs as high as a walk takes them and moves a
    block that helps them climb (the first player some block in any case), and the second
    keeps their long ladder in the first round and lays their blocking stone; after that
    everyone passes, so a round goes by without a new top and the first player's last
    chance fails. Like a player, it moves a block it sees
    (``seen``) where it can."""
    moves = G.legal_moves(state, seat)
    view = G.view(state, seat)
    kinds = {move["type"] for move in moves}
    if "built" in kinds:
        return {"type": "built"}
    first_round = state["round"] == 1
    early = state["round"] <= 2
    stones = [m for m in moves if m["type"] == "stone"]
    if first_round and seat == 1 and stones:
        return stones[0]  # laid before the last walk, which ends the turn
    here = view["figures"][str(seat)]["height"]
    walks = [m for m in moves if m["type"] == "walk"
             and height_of(view, m["to"]) > here and early
             and not (first_round and seat == 1 and "long" in m["ladders"])]
    if walks:  # the highest; then a way that never goes lower, then the fewest ladders
        lower = view.get("reach_lower") or {}
        return max(walks, key=lambda m: (height_of(view, m["to"]),
                                         m["ladders"] not in lower.get(m["to"], []),
                                         -LADDER_COST.index(m["ladders"]), m["to"]))
    if state["step"] == "before":
        blocks = [m for m in moves if m["type"] == "block" and m["block"] in seen] or \
            [m for m in moves if m["type"] == "block"]
        helps = climbing_block_move(view, seat, blocks) if early else None
        if helps is not None:
            return helps
        if early and blocks:
            return blocks[len(blocks) // 2]
        return {"type": "pass"}
    return {"type": "end"}


#: The blocks lit on the phone's tower that show from where it is turned now, as a player
#: sees them with the tower scrolled into sight, read once it is drawn and has stayed the
#: same for a frame (it is drawn a frame or two after the push that brought it).
SEEN_LIT = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const seen = () => [...document.querySelectorAll("#cl-v-me g.cl-b.lit")].filter((g) => {
    const r = g.getBoundingClientRect();
    for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
      const el = document.elementFromPoint(r.left + r.width * i / 16, r.top + r.height * j / 16);
      if (el && g.contains(el)) return true;
    }
    return false;
  }).map((g) => g.dataset.block);
  let last = null;
  for (let k = 0; k < 60; k++) {
    await frame();
    const tower = document.querySelector("#cl-v-me");
    if (!tower || !tower.querySelector("g.cl-b")) continue;
    tower.scrollIntoView({block: "nearest"});
    const now = [tower.innerHTML.length, scrollY, ...seen()].join();
    if (now === last) break;
    last = now;
  }
  return seen();
}"""


def tower_target(move: dict[str, Any], key: str) -> str | None:
    """What a player taps on the tower to answer ``key`` for ``move``, if anything: a walk
    is its top, or the ladder standing on it for a way of its own."""
    if move["type"] == "walk" and key in ("type", "to") and move["to"] != "table":
        if key == "to":
            return f"svg.cl-3d .cl-reach[data-square='{move['to']}']"
        return ", ".join(f"svg.cl-3d {kind}[data-square='{move['to']}']"
                         f"[data-ladders='{move['ladders']}']" for kind in (".cl-reach", ".cl-way"))
    if move["type"] == "stone" and key == "type":
        return f"svg.cl-3d g.cl-b.stone-spot[data-block='{move['block']}']"
    if (move["type"] == "block" and key in ("type", "block")) or \
            (move["type"] == "stone" and key == "block"):
        return f"svg.cl-3d g.cl-b.lit[data-block='{move['block']}']"
    if key in ("x", "y", "long"):
        return f"svg.cl-3d [data-ghost='{move['x']}_{move['y']}_{move['long'] or '-'}']"
    return None


def tap_move(page: Page, move: dict[str, Any], turned: list[int] | None = None) -> int:
    """Tap through the question as a player does: the blocks, tops and ghost blocks on the
    tower where they are seen, the rest among the picker's buttons; returns the taps (the
    quarter turns of the tower to see a target included, and added to ``turned``)."""
    def on_tower(key: str) -> int | None:
        target = tower_target(move, key)
        return None if target is None else tap_seen(page, target, turned)

    def to_table(key: str) -> Locator | None:
        if move["type"] == "walk" and move["to"] == "table" and key in ("type", "to"):
            return page.locator("#private [data-square='table']")
        return None

    return tap_through(page, move, to_table, on_tower)


def test_two_phones_and_the_screen_play_to_the_last_chance(browser: Browser, live_server):
    table, screen, phones = start_table(browser, live_server, "climbers", NAMES, SEED)

    # The build instructions: one large step at a time, paged with Back and Next, on the
    # screen and on the phones; the page carries the tower from four sides and one step.
    expect(phones[0].locator("#status")).to_contain_text("Build the tower")
    step = screen.locator("#cl-build-step")
    expect(step).to_contain_text(re.compile(r"Step 1 of 3\d"))
    expect(screen.locator("#cl-build")).to_contain_text("as seen from the table screen")
    assert screen.locator("#board svg.cl-3d").count() == 5
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
    turns: list[list[tuple[str, int]]] = []  # each whole turn: its moves and their taps
    this_turn: list[tuple[str, int]] = []
    turned: list[int] = []  # the quarter turns this turn took to see what it tapped
    block_moves: list[int] = []  # the taps each block move took
    for _ in range(60):
        with table.lock:
            state = table.match.state
        if G.outcome(state) is not None:
            break
        seat = state["turn"]
        move = choose(state, seat, set(phones[seat].evaluate(SEEN_LIT)))
        seq = seq_of(phones[seat])
        ways = (G.view(state, seat).get("reach") or {}).get(move.get("to"), [])
        turned_before = sum(turned)
        taps = tap_move(phones[seat], move, turned)
        looked = sum(turned) - turned_before  # quarter turns to bring the target into sight
        this_turn.append((move["type"], taps))
        if move["type"] == "walk" and len(ways) > 1:
            played.append("ladder-way")  # a top reached several ways, walked in one tap
            assert taps - looked == 1, (move, ways, taps)
        if move["type"] == "block":
            block_moves.append(taps)
        if move["type"] == "stone":
            assert taps - looked == 1, taps  # the block tapped lays the stone
        for phone in phones:
            expect(phone.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
        expect(screen.locator(f"#screen-head[data-seq='{seq + 1}']")).to_have_count(1)
        with table.lock:
            after = table.match.state
        if state["phase"] == "play" and (after["turns"] != state["turns"]
                                         or after["phase"] == "over"):
            turns.append([*this_turn, ("quarter turns", sum(turned))])
        if move["type"] in ("built", "restart") or after["turns"] != state["turns"]:
            this_turn = []
            turned = []
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

    assert {"built", "walk", "ladder", "ladder-way", "block", "pass", "stone",
            "end"} <= set(played), played
    # A block move: the block, its ghost where it goes, the colour on top (or Confirm).
    assert len(block_moves) >= 3 and statistics.median(block_moves) <= 3, block_moves
    # A turn in at most 5 taps, besides the quarter turns of the tower a player makes to
    # see the block they move (the strategy moves a block it sees where it can): the walk
    # after the block move ends the turn, the stone in hand or not. Laying the stone is one
    # choice more, once a game.
    taps = [sum(t for kind, t in turn if kind != "quarter turns") for turn in turns]
    for turn, total in zip(turns, taps, strict=True):
        kinds = [kind for kind, _ in turn]
        assert total - dict(turn)["quarter turns"] <= (6 if "stone" in kinds else 5), (turn, taps)
    print("taps per turn:", taps, "block moves:", block_moves)
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


def table_of(live_server: dict[str, Any], table: ApiTable) -> Any:
    return services(live_server["app"]).tables.get(table.code)


def figures_up(table: ApiTable, moves: int) -> None:
    """Up to ``moves`` moves that bring the figures up on the tower: each mover walks onto
    the first block offered, or else passes or ends the turn."""
    for _ in range(moves):
        seat = table.view()["view"]["turn"]
        offered = table.moves(seat)
        walk = [m for m in offered if m["type"] == "walk" and m["to"] != "table"]
        table.post_move(seat, walk[0] if walk else next(
            m for m in offered if m["type"] in ("pass", "end")))


def built_table(live_server: dict[str, Any], players: int = 3, seed: int = 2) -> ApiTable:
    table = ApiTable(live_server["app"].test_client(), game="climbers", players=players,
                     seed=seed).join_all()
    table.start(first_seat=0)
    finish_building(table)
    return table


#: Which block the browser hits at the point where ``sel`` shows, for each block drawn.
HITS = """() => {
  const out = {};
  for (const g of document.querySelectorAll("svg.cl-3d[data-view=me] g.cl-b, #cl-v-main g.cl-b")) {
    const r = g.getBoundingClientRect();
    let hit = null;
    for (let i = 1; i < 16 && !hit; i++) for (let j = 1; j < 16 && !hit; j++) {
      const x = r.left + r.width * i / 16, y = r.top + r.height * j / 16;
      const el = document.elementFromPoint(x, y);
      const found = el && el.closest("[data-block]");
      if (found && g.contains(el)) hit = found.dataset.block;
    }
    out[g.dataset.block] = hit;
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [PHONE["viewport"], {"width": 1280, "height": 800},
                                      {"width": 1920, "height": 1080}])
def test_a_tap_where_a_block_is_drawn_hits_that_block_from_every_side(browser, live_server,
                                                                    viewport):
    """Every block of the built tower, from each of the four sides: where the tower shows
    it, the browser's hit testing finds that block (and on a phone the tap selects it)."""
    table = built_table(live_server)
    blocks = {b["id"] for b in table.view(None)["view"]["blocks"]}
    seat, _ = table.seat_to_move()
    context = browser.new_context(**dict(PHONE, viewport=viewport))
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[seat],
                          "url": live_server["base"]}])
    page = context.new_page()
    page.goto(f"{live_server['base']}/t/{table.code}/play")
    tower = page.locator("#cl-v-me")
    expect(tower.locator("g.cl-b")).to_have_count(len(blocks))
    seen: set[str] = set()
    for _ in range(4):
        tower.scroll_into_view_if_needed()
        hits = page.evaluate(HITS)
        assert set(hits) == blocks
        for block, hit in hits.items():
            assert hit in (None, block), (block, hit)
            if hit:
                seen.add(block)
        page.locator("[data-turn-tower='90']").click()
    # seen from no side: only the blocks the tower hides whole (the grey foundations, …)
    with table_of(live_server, table).lock:
        built = Tower(table_of(live_server, table).match.state["blocks"])
    assert blocks - seen == {block for block in blocks if hidden(built, block)}
    choose_lit_block(page)
    assert no_horizontal_scroll(page)
    context.close()


def test_the_screen_draws_the_state_large_with_the_phones_figure_letters(browser,
                                                                       live_server):
    """The table screen's tower from its side fills at least 60% of a 1920 × 1080 screen's
    height; every block is drawn where the state puts it with its top's colour; the figures
    wear the same letters on the screen and on the phones."""
    table = built_table(live_server)
    figures_up(table, 6)
    view = table.view(None)["view"]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host,
                          "url": live_server["base"]}])
    screen = context.new_page()
    screen.goto(f"{live_server['base']}/t/{table.code}/screen")
    main = screen.locator("#cl-v-main")
    expect(main.locator("g.cl-b")).to_have_count(len(view["blocks"]))
    drawn = screen.evaluate("""() => {
      const s = [...document.querySelectorAll('#cl-v-main .cl-b polygon, #cl-v-main .cl-pawn')]
        .map(e => e.getBoundingClientRect());
      return Math.max(...s.map(r => r.bottom)) - Math.min(...s.map(r => r.top));
    }""")
    assert drawn >= 0.6 * 1080, drawn
    fills = climbers_colours()
    tops = screen.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#cl-v-main g.cl-b')].map(g => [g.dataset.block,
      g.querySelector('[data-face=top]').getAttribute('fill')]))""")
    assert tops == {b["id"]: rgb(fills[b["top"]], plain=True) for b in view["blocks"]}
    screen_letters = screen.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#cl-v-main .cl-pawn')].map(p => [p.dataset.seat, p.querySelector('text').textContent]))""")
    phone = seated_page(browser, live_server["base"], table, 1)
    expect(phone.locator("#cl-v-me .cl-pawn")).to_have_count(table.players)
    phone_letters = phone.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#cl-v-me .cl-pawn')].map(p => [p.dataset.seat, p.querySelector('text').textContent]))""")
    assert screen_letters == phone_letters == {"0": "A", "1": "B", "2": "C"}
    on_tower = [s for s, f in view["figures"].items() if f["place"] is not None]
    assert on_tower, "no figure climbed: not a test"


#: For each tower drawn on the page: each figure's letter, and whether a tap on its head
#: hits that figure (no other pawn drawn over it); and the foot marks of the pawns moved
#: aside. Read once the drawings have stood still for a few frames.
LETTERS_SHOWN = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  let last = null;
  for (let k = 0; k < 60; k++) {
    await frame();
    const now = [...document.querySelectorAll("svg.cl-3d .cl-pawn circle")]
      .map((c) => [c.getAttribute("cx"), c.getAttribute("cy")]).join();
    if (now === last && k > 3) break;
    last = now;
  }
  const views = [];
  for (const svg of document.querySelectorAll("svg.cl-3d")) {
    svg.scrollIntoView({block: "center"});
    await frame();
    views.push({view: svg.dataset.view, feet: svg.querySelectorAll(".cl-pawn-foot").length,
                pawns: [...svg.querySelectorAll(".cl-pawn")].map((pawn) => {
                  const r = pawn.querySelector("circle").getBoundingClientRect();
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return {seat: pawn.dataset.seat, shows: Boolean(hit && pawn.contains(hit))};
                })});
  }
  return views;
}"""


def test_figures_in_line_stand_side_by_side_so_every_letter_shows(browser, live_server):
    """Two figures in line from one side of the tower (one behind the other, higher up) are
    drawn side by side, each with a mark on the spot it stands on: on the table screen's
    four views, through a whole game, a tap on each figure's head hits that figure."""
    table = built_table(live_server, players=2, seed=5)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host,
                          "url": live_server["base"]}])
    screen = context.new_page()
    screen.goto(f"{live_server['base']}/t/{table.code}/screen")
    moved_aside = 0
    for _ in range(40):
        if table.view()["outcome"] is not None:
            break
        play(table, "climbers", 1)
        expect(screen.locator(f"#screen-head[data-seq='{table.seq()}']")).to_have_count(1)
        views = screen.evaluate(LETTERS_SHOWN)
        assert len(views) == 4 and all(len(v["pawns"]) == 2 for v in views), views
        for view in views:
            assert all(pawn["shows"] for pawn in view["pawns"]), (table.seq(), view)
        moved_aside += sum(view["feet"] for view in views)
    assert moved_aside, "no two figures ever stood in line: not a test"
    context.close()


def test_a_figure_on_its_own_colour_shows_and_seats_wear_the_figures_colours(browser,
                                                                             live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="climbers", players=3, seed=2)
    join = browser.new_context(**PHONE).new_page()
    join.goto(f"{base}/j/{table.code}")
    swatch = join.locator(".swatch[data-colour='1']").first
    dark_blue = rgb(climbers_colours()["dark-blue"])
    assert swatch.evaluate("e => getComputedStyle(e).backgroundColor") == dark_blue


def rgb(hex_colour: str, plain: bool = False) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r},{g},{b})" if plain else f"rgb({r}, {g}, {b})"


def test_a_player_says_where_they_sit_and_their_tower_turns(browser, live_server):
    table = built_table(live_server)
    page = seated_page(browser, live_server["base"], table, 1)
    tower = page.locator("#cl-v-me")
    expect(tower.locator("g.cl-b").first).to_be_attached()
    ahead, frame = tower.inner_html(), tower.get_attribute("viewBox")
    page.locator(".cl-sitting button[value=left]").click()
    expect(page.locator("[data-sitting=left]")).to_have_count(1)
    expect(tower).not_to_have_attribute("viewBox", frame)
    left = tower.inner_html()
    assert left != ahead
    page.locator("[data-turn-tower='90']").click()  # a quarter turn, then back: "My side"
    assert tower.inner_html() != left
    page.locator("[data-turn-tower='0']").click()
    assert tower.inner_html() == left
    page.reload()  # said once: kept
    expect(page.locator(".cl-sitting button[value=left]")).to_have_attribute(
        "aria-pressed", "true")
    assert no_horizontal_scroll(page)


def test_each_way_to_a_top_is_a_target_and_a_greyed_tap_says_why(browser, live_server):
    """Where the short ladder gets there only by going lower than the turn began and the
    long one stays up, the lit top walks with the short ladder and a ladder standing on it
    with the long one, each in one tap and named in its words. A block that may not move,
    tapped, says why in one line from the rule it breaks."""
    table = built_table(live_server, players=2, seed=LOWER_OR_LADDER_SEED)
    for seat, move in LOWER_OR_LADDER:
        assert table.post_move(seat, move).status_code == 200, move
    view = table.view(1)["view"]
    assert view["reach"]["-2,-1"] == ["long", "short"]
    assert view["reach_lower"]["-2,-1"] == ["short"]
    page = seated_page(browser, live_server["base"], table, 1)
    top = page.locator("#cl-v-me .cl-reach[data-square='-2,-1']")
    way = page.locator("#cl-v-me .cl-way[data-square='-2,-1']")
    expect(top).to_have_attribute("data-ladders", "short")
    expect(way).to_have_attribute("data-ladders", "long")
    expect(top).to_have_attribute("aria-label", re.compile(
        r"with the short ladder, going lower than you began$"))
    expect(way).to_have_attribute("aria-label", re.compile(
        r"with the long ladder, never lower than you began$"))
    expect(page.locator("#cl-ladder-key")).to_contain_text("A ladder standing on a top")
    box = way.locator(".cl-way-hit").bounding_box()
    assert box is not None and max(box["width"], box["height"]) >= 24, box
    # a top the figure cannot walk to, on a block that may not move: the walk's rule
    cells = {(c["x"], c["y"]): c for c in view["cells"]}
    far = max((c for c in cells.values() if f"{c['x']},{c['y']}" not in view["reach"]
               and c["block"] not in view["movable"]), key=lambda c: c["height"])
    tap_seen(page, f"#cl-v-me g.cl-b[data-block='{far['block']}'] polygon[data-face=top]")
    notice = page.locator("#notice.refusal")
    expect(notice).to_have_attribute("data-rule", re.compile(r"^cl\.(figure|ladder)\."))
    notice.locator("[data-dismiss]").click()
    # the block the previous player moved, tapped on a side: why it may not move
    moved = view["last_moved"]
    assert moved == "H3"
    tap_seen(page, f"#cl-v-me g.cl-b[data-block='{moved}'] polygon:not([data-face=top])")
    expect(notice).to_have_attribute("data-rule", "cl.block.last-moved")
    seq = seq_of(page)
    notice.locator("[data-dismiss]").click()
    assert tap_seen(page, "#cl-v-me .cl-way[data-square='-2,-1'][data-ladders='long']") == 1
    expect(page.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
    with table_of(live_server, table).lock:
        state = table_of(live_server, table).match.state
    assert state["figures"]["1"] == "-2,-1" and state["ladders"]["1"] == ["short"]
    assert no_horizontal_scroll(page)
    # off turn, a tap on the tower says whose turn it is
    other = seated_page(browser, live_server["base"], table, 0)
    tap_seen(other, f"#cl-v-me g.cl-b[data-block='{moved}']")
    expect(other.locator("#notice.refusal")).to_have_attribute("data-rule", "cl.turn.wait")


def test_the_walk_after_the_block_move_ends_the_turn(browser, live_server):
    """The lit top tapped after the block move walks there and ends the turn in that one
    tap, with the blocking stone still in hand (the phone said to lay it before that walk):
    the next player's phone says it is their turn."""
    table = built_table(live_server, players=2, seed=LOWER_OR_LADDER_SEED)
    *before, (seat, last) = [(mover, move) for mover, move in LOWER_OR_LADDER
                             if (mover, move["type"]) != (0, "stone")]
    for mover, move in before:
        assert table.post_move(mover, move).status_code == 200, move
    assert (seat, last["type"]) == (0, "walk")
    page = seated_page(browser, live_server["base"], table, seat)
    # the figure went lower before the block move: the turn ends only by a walk higher
    expect(page.locator("#status")).to_contain_text("Move your figure again: that ends your turn")
    expect(page.locator("#status")).to_contain_text(
        "Your blocking stone, if you lay it, goes before that walk.")
    top = f"#cl-v-me .cl-reach[data-square='{last['to']}']"
    expect(page.locator(top)).to_have_attribute("data-ladders", last["ladders"])
    seq = seq_of(page)
    turned: list[int] = []
    assert tap_seen(page, top, turned) - sum(turned) == 1
    expect(page.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
    with table_of(live_server, table).lock:
        state = table_of(live_server, table).match.state
    assert state["figures"][str(seat)] == last["to"] and state["turn"] == 1 - seat
    assert state["stones"][str(seat)] == "unused"
    other = seated_page(browser, live_server["base"], table, 1 - seat)
    expect(other.locator("#status")).to_contain_text("Your turn")
    assert no_horizontal_scroll(page)
