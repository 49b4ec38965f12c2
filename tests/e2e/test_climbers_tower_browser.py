"""The Climbers' 3-D tower in Chromium, checked from what the page draws: a block's ghost
places on a 360 × 740 phone are each a target of their own, large enough and clear of the
others, and every one shows from one of the four quarter turns; the table screen's mark
is in sight on every phone's side and on the screen, and covers no block and no figure."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from support.browser import PHONE
from tests.conftest import ApiTable
from tests.e2e.phones import seated_page
from tests.e2e.test_climbers_browser import figures_up
from tests.e2e.tower_taps import choose_lit_block
from tests.web.climbers_building import finish_building

pytestmark = pytest.mark.e2e

#: The ghosts' handles drawn in the phone's view: key, middle, radius, and whether a tap
#: at its middle hits it (nothing drawn over it there).
HANDLES = """() => [...document.querySelectorAll("#cl-v-me .cl-ghost-dot:not(.hid)")].map((h) => {
  const r = h.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  return {key: h.dataset.ghost, x, y, size: Math.min(r.width, r.height),
          hit: document.elementFromPoint(x, y) === h,
          large: !h.classList.contains("small")};
})"""

#: The boxes (in the page) of the table screen's mark, of every block and of every figure
#: drawn in the view ``sel``, and of the view itself.
BOXES = """(sel) => {
  const view = document.querySelector(sel);
  const box = (el) => { const r = el.getBoundingClientRect();
                        return [r.left, r.top, r.right, r.bottom]; };
  const mark = view.querySelector(".cl-side");
  return {view: box(view), mark: mark ? box(mark) : null,
          blocks: [...view.querySelectorAll("g.cl-b")].map(box),
          figures: [...view.querySelectorAll("g.cl-pawn")].map(box)};
}"""


def built_table(live_server: dict[str, Any]) -> ApiTable:
    table = ApiTable(live_server["app"].test_client(), game="climbers", players=3,
                     seed=2).join_all()
    table.start(first_seat=0)
    finish_building(table)
    return table


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_each_ghost_place_is_a_target_of_its_own_and_shows_from_a_quarter_turn(
        browser: Browser, live_server):
    table = built_table(live_server)
    seat, _ = table.seat_to_move()
    page = seated_page(browser, live_server["base"], table, seat)
    tower = page.locator("#cl-v-me")
    tower.scroll_into_view_if_needed()
    choose_lit_block(page)
    expect(tower.locator(".cl-ghost-dot").first).to_be_attached()
    keys = tower.locator(".cl-ghost-dot").evaluate_all("(els) => els.map((e) => e.dataset.ghost)")
    assert len(keys) == len(set(keys)) > 20  # each place and way of lying a ghost of its own
    shown: set[str] = set()
    for turn in range(4):
        tower.scroll_into_view_if_needed()
        handles = page.evaluate(HANDLES)
        # from one side, all but those without room (a turn shows them)
        assert 0 < len(handles) <= len(keys)
        for h in handles:
            assert h["hit"], (turn, h)
            assert h["size"] >= (13 if h["large"] else 7), (turn, h)
        large = [h for h in handles if h["large"]]
        for i, a in enumerate(handles):
            for b in handles[i + 1:]:
                apart = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5
                # large handles: a finger's width apart; any two: their middles clear
                assert apart >= (20 if a["large"] and b["large"] else 5), (turn, a, b)
        assert len(large) >= 10
        shown |= {h["key"] for h in handles}
        page.locator("[data-turn-tower='90']").click()
    assert shown == set(keys)
    # a tap on the large handle of a place picks that place
    page.locator("[data-turn-tower='0']").click()
    target = next(h for h in page.evaluate(HANDLES) if h["large"])
    page.mouse.click(target["x"], target["y"])
    expect(page.locator("#cl-ask")).to_have_attribute("data-ghost", target["key"])


@pytest.mark.parametrize("side", ["ahead", "left", "behind", "right"])
def test_the_screens_mark_is_in_sight_and_covers_nothing_on_a_phone(browser, live_server,
                                                                   side):
    table = built_table(live_server)
    figures_up(table, 4)
    page = seated_page(browser, live_server["base"], table, 1)
    if side != "ahead":
        page.locator(f".cl-sitting button[value={side}]").click()
    expect(page.locator(f"[data-sitting={side}]")).to_have_count(1)
    for turn in range(2):  # the player's side, then a quarter turn
        expect(page.locator("#cl-v-me .cl-side")).to_have_count(1)
        page.locator("#cl-v-me").scroll_into_view_if_needed()
        boxes = page.evaluate(BOXES, "#cl-v-me")
        assert boxes["figures"], side
        assert_mark_clear(boxes, f"{side} {turn}")
        page.locator("[data-turn-tower='90']").click()


def assert_mark_clear(boxes: dict[str, Any], label: str) -> None:
    mark, view = boxes["mark"], boxes["view"]
    assert mark is not None, label
    assert view[0] <= mark[0] and mark[2] <= view[2] and view[1] <= mark[1] \
        and mark[3] <= view[3], (label, mark, view)
    assert boxes["blocks"], label
    for box in boxes["blocks"] + boxes["figures"]:
        assert not overlaps(mark, box), (label, mark, box)


def test_the_screens_mark_is_in_sight_and_covers_nothing_in_the_build_steps(browser,
                                                                           live_server):
    """On the table screen the mark is in the build steps' picture (whose words name it),
    not on the large view during the game: that view is drawn from the screen's side."""
    table = ApiTable(live_server["app"].test_client(), game="climbers", players=3,
                     seed=2).join_all()
    table.start(first_seat=0)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    screen.goto(f"{live_server['base']}/t/{table.code}/screen")
    step = "#cl-build-step svg.cl-3d"
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 800}):
        screen.set_viewport_size(size)
        for _ in range(3):  # three steps: the tower grows, the mark keeps clear of it
            expect(screen.locator(f"{step} .cl-side")).to_have_count(1)
            assert_mark_clear(screen.evaluate(BOXES, step), str(size))
            n = int(screen.locator("#cl-build-step").get_attribute("data-step"))
            screen.locator("#cl-build-step [data-go=next]").click()
            expect(screen.locator("#cl-build-step")).to_have_attribute("data-step", str(n + 1))
    finish_building(table)
    expect(screen.locator("#cl-v-main g.cl-b").first).to_be_attached()
    assert screen.locator("#cl-v-main .cl-side").count() == 0
    context.close()


def test_a_push_redraws_only_what_it_changed_on_the_phone(browser, live_server):
    """A block moved (from elsewhere) and the question changed with it: the phone's tower
    keeps its drawing and every block's node but the moved one's; the blocks the question
    lights anew are dressed for it in place."""
    table = built_table(live_server)
    seat, moves = table.seat_to_move()
    page = seated_page(browser, live_server["base"], table, seat)
    expect(page.locator("#cl-v-me g.cl-b.lit").first).to_be_attached()
    # more.js, fetched after the first drawing, has drawn the tower again with its mark
    expect(page.locator("#cl-v-me .cl-side")).to_have_count(1)
    page.evaluate("""() => { window.keptTower = document.getElementById("cl-v-me");
      for (const g of document.querySelectorAll("#cl-v-me g.cl-b")) g.dataset.kept = "1"; }""")
    lit_before = page.get_attribute("#cl-ask", "data-lit")
    move = next(m for m in moves if m["type"] == "block")
    table.post_move(seat, move)
    expect(page.locator(f"#cl-v-me g.cl-b.marked[data-block='{move['block']}']")).to_be_attached()
    expect(page.locator("#cl-ask")).not_to_have_attribute("data-lit", lit_before or "")
    drawn = page.evaluate("""() => {
      const ask = document.getElementById("cl-ask").dataset;
      const lit = new Set((ask.lit || "").split(" ").filter(Boolean));
      const blocks = [...document.querySelectorAll("#cl-v-me g.cl-b")];
      return {same: document.getElementById("cl-v-me") === window.keptTower,
              fresh: blocks.filter((g) => !g.dataset.kept).map((g) => g.dataset.block),
              wrong: blocks.filter((g) => g.classList.contains("lit") !== lit.has(g.dataset.block))
                .map((g) => g.dataset.block)};
    }""")
    assert drawn == {"same": True, "fresh": [move["block"]], "wrong": []}



#: From now on: the number of frames begun, and for each of the phone's turn line, tower
#: and log, the number of frames begun when it first changed.
FRAMES_SEEN = """() => {
  const seen = window.__changed = {};
  let frames = 0;
  const count = () => { frames += 1; requestAnimationFrame(count); };
  requestAnimationFrame(count);
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      for (const sel of ["#status", "#cl-v-me", "#log"]) if (el.closest(sel)) seen[sel] ??= frames;
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             characterData: true});
}"""


def test_a_push_shows_the_turn_then_draws_the_tower_then_writes_the_log(
        browser: Browser, live_server):
    """Another player's block move reaches a phone as one push, whose work is spread over
    frames: the turn line first, the tower drawn again in a later frame, the log last."""
    table = built_table(live_server)
    seat, moves = table.seat_to_move()
    page = seated_page(browser, live_server["base"], table, (seat + 1) % 3)
    expect(page.locator("#cl-v-me g.cl-b").first).to_be_attached()
    page.wait_for_timeout(300)  # the first drawing and the pushes of a page opened are done
    page.evaluate(FRAMES_SEEN)
    table.post_move(seat, next(m for m in moves if m["type"] == "block"))
    expect(page.locator("#log li.move").first).to_contain_text(("Ana", "Ben", "Chloé")[seat])
    page.wait_for_function(
        "() => ['#status', '#cl-v-me', '#log'].every((sel) => sel in window.__changed)")
    changed = page.evaluate("window.__changed")
    # (on a busy machine a frame may come between the tower's timer and its drawing: the
    # log may then come in the tower's frame, never before it nor in the turn line's)
    assert changed["#status"] < changed["#cl-v-me"] <= changed["#log"], changed
    assert changed["#status"] < changed["#log"], changed


def test_a_keyboard_player_keeps_the_focus_when_the_late_script_draws_the_tower_again(
        browser: Browser, live_server):
    """more.js comes after the first drawing and draws the tower again (with the
    screen's mark): a lit top that had the keyboard's focus still has it, on its new node."""
    table = built_table(live_server)
    seat, _ = table.seat_to_move()
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": f"seat_{table.code}", "value": table.tokens[seat],
                          "url": live_server["base"]}])
    held = []
    context.route("**/js/games/climbers/more.js*", lambda route: held.append(route))
    page = context.new_page()
    page.goto(f"{live_server['base']}/t/{table.code}/play", wait_until="domcontentloaded")
    top = page.locator("#cl-v-me .cl-reach[tabindex]").first
    top.focus()
    square = top.get_attribute("data-square")
    page.evaluate("() => { window.keptTop = document.activeElement; }")
    assert held, "more.js was not asked for"
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('#cl-v-me .cl-side')")
    assert page.evaluate("""() => [document.activeElement !== window.keptTop,
                                   document.activeElement.dataset.square]""") == [True, square]
