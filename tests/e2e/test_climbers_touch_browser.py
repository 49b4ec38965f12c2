"""The Climbers' tower under a finger, on a 360 × 740 phone with touch: a touch lands on
what it touches. Chromium moves a touch's click onto the nearest element it counts as
clickable (a lit block beside the top touched); the tower reads the point the finger
touched and what is drawn there, front-most first. Every target drawn in a game under way
answers a touch at its middle, from each of the four sides; every one not offered says
which rule stops it; a top out of reach on a block that may move says why the figure
cannot go there and offers the block's move instead; a touch beside a small target takes
it, or zooms in where others lie as near."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.conftest import ApiTable
from tests.e2e.phones import WATCH_REQUESTS, seated_page
from tests.e2e.test_climbers_browser import built_table, figures_up
from tests.e2e.tower_taps import choose_lit_block
from tests.e2e.tower_targets import drawn, where

pytestmark = pytest.mark.e2e

#: What a tap on the tower asks of the companion (answered here with nothing, so that the
#: position and the question stay as they are).
ASKED = re.compile(r"/t/\w+/(pick|explain|move)\b")


def under_way(browser: Browser, live_server: dict[str, Any]) -> tuple[ApiTable, int, Page]:
    """A game under way (figures up on the tower), and the phone of the seat to move at
    the start of its turn: walks and block moves lit."""
    table = built_table(live_server)
    for _ in range(12):  # two figures up, the next turn about to begin
        view = table.view()["view"]
        up = [f for f in view["figures"].values() if f["place"] is not None]
        if len(up) >= 2 and view["step"] == "before" and not view["walked"]:
            break
        figures_up(table, 1)
    seat, _ = table.seat_to_move()
    page = seated_page(browser, live_server["base"], table, seat)
    expect(page.locator("#cl-ask[data-reach-pick][data-block-pick]")).to_have_count(1)
    page.locator("#cl-v-me").scroll_into_view_if_needed()
    return table, seat, page


def what_asked(request: Request) -> tuple[str, dict[str, Any]]:
    """A tap's request: ("pick" | "explain", the pick) or ("move", the move)."""
    found = ASKED.search(request.url)
    assert found is not None, request.url
    kind = found.group(1)
    if kind == "move":
        return kind, json.loads(parse_qs(request.post_data or "")["move"][0])
    return kind, json.loads(parse_qs(urlsplit(request.url).query)["pick"][0])


#: Longer than a double tap takes: a tap after a move within it is that move's second tap,
#: which the phone lets go by (static/js/companion.js).
DOUBLE_TAP_MS = 400


#: Whether the page has settled after a tap: its answer in, and the focus moved after it
#: (``WATCH_REQUESTS``; the phone moves the focus 120 ms after the last answer, and may
#: scroll the tower into sight with it).
SETTLED = "() => window.__quiet.asking === 0 && performance.now() - window.__quiet.at > 250"


def tap_asks(page: Page, target: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Touch the screen at the middle of ``target`` (``where``) and return what the tower
    asked for, once the page has settled after it (where the tap touched an answer the
    question lights, the phone moves the focus on)."""
    page.evaluate(WATCH_REQUESTS)
    with page.expect_request(lambda r: bool(ASKED.search(r.url)), timeout=5000) as asked:
        page.touchscreen.tap(target["x"], target["y"])
    found = what_asked(asked.value)
    if target["lit"]:
        page.wait_for_function(SETTLED)
    if found[0] == "move":
        page.wait_for_timeout(DOUBLE_TAP_MS)
    return found


def lit_on(page: Page, table: ApiTable, seat: int) -> tuple[set[str], set[str], dict[str, str]]:
    """The tops the question lights, the blocks it lights, and the block under each
    square's top."""
    ask = page.evaluate("Object.assign({}, document.getElementById('cl-ask').dataset)")
    reach = {",".join(s.split(",")[:2]) for s in ask.get("reach", "").split()}
    cells = table.view(seat)["view"]["cells"]
    return reach, set(ask.get("lit", "").split()), {f"{c['x']},{c['y']}": c["block"] for c in cells}


def squares_of(figures: dict[str, Any]) -> dict[str, str]:
    return {seat: f["place"] or "table" for seat, f in figures.items()}


def expected(means: str, reach: set[str], lit: set[str],
             places: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """What a touch on ``means`` asks at the start of a turn (walks and blocks lit): a lit
    top, the walk; a lit block, its move; any other top, a block or a figure, why not."""
    kind, _, key = means.partition(":")
    if kind == "top" and key in reach:
        return "move", {"type": "walk", "to": key}
    if kind == "top":
        return "explain", {"type": "walk", "to": key}
    if kind == "block":
        return ("pick" if key in lit else "explain"), {"type": "block", "block": key}
    assert kind == "pawn", means
    return "explain", {"type": "walk", "to": places[key]}


def turn(page: Page) -> None:
    page.locator("[data-turn-tower='90']").tap()


def test_a_touch_at_the_middle_of_each_target_drawn_selects_it_from_every_side(browser,
                                                                              live_server):
    table, seat, page = under_way(browser, live_server)
    reach, lit, _ = lit_on(page, table, seat)
    places = squares_of(table.view(seat)["view"]["figures"])
    page.route(ASKED, lambda route: route.fulfill(status=204))
    seen: dict[str, int] = {}
    for side in range(4):
        page.locator("#cl-v-me").scroll_into_view_if_needed()
        targets = drawn(page)
        assert sum(t["means"].startswith("pawn:") for t in targets) >= 2, (side, targets)
        for target in targets:
            now = where(page, target["means"])
            assert now is not None, (side, target)
            got = tap_asks(page, now)
            kind, want = expected(target["means"], reach, lit, places)
            assert got[0] == kind and all(got[1].get(k) == v for k, v in want.items()), (
                side, target, got)
            seen[target["means"]] = seen.get(target["means"], 0) + 1
        turn(page)
    kinds = {means.split(":")[0] for means in seen}
    assert kinds == {"top", "block", "pawn"}, kinds
    assert len([m for m in seen if m.startswith("top:")]) >= 40, seen


def test_a_touch_at_the_middle_of_each_place_or_block_answers_from_every_side(browser,
                                                                            live_server):
    """A block chosen to move, its ghost places drawn: a touch at the middle of each place's
    handle takes that place; one on a block clear of every handle (a finger there touches
    no place) chooses that block anew, or says why it may not move."""
    _, _, page = under_way(browser, live_server)
    choose_lit_block(page)
    expect(page.locator("#cl-v-me .cl-ghost-dot").first).to_be_attached()
    chosen = page.get_attribute("#cl-ask", "data-chosen")
    page.route(ASKED, lambda route: route.fulfill(status=204))
    taken, anew = set(), set()
    for side in range(4):
        targets = drawn(page)
        ghosts = [t for t in targets if t["means"].startswith("ghost:")]
        blocks = [t for t in clear_of_ghosts(targets) if t["means"].startswith("block:")]
        assert len(ghosts) >= 10 and blocks, side
        for target in ghosts + blocks:
            now = where(page, target["means"])
            assert now is not None, (side, target)
            kind, pick = tap_asks(page, now)
            means = target["means"]
            if means.startswith("ghost:"):
                x, y, long = means.removeprefix("ghost:").split("_")
                assert kind == "pick" and (pick["x"], pick["y"], pick["long"] or "-") == (
                    int(x), int(y), long), (side, target, pick)
                taken.add(means)
            else:
                assert (kind, pick) == ("explain", {"type": "block", "block": means[6:]}), (
                    side, target, kind, pick)
                anew.add(means)
        turn(page)
    assert len(taken) > 20 and len(anew) >= 5 and f"block:{chosen}" not in anew


def clear_of_ghosts(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The targets no ghost handle lies within a finger's reach of (22 px, and a margin):
    a finger there touches no place."""
    ghosts = [t for t in targets if t["means"].startswith("ghost:")]
    return [t for t in targets if not t["means"].startswith("ghost:") and all(
        ((t["x"] - g["x"]) ** 2 + (t["y"] - g["y"]) ** 2) ** 0.5 > 30 for g in ghosts)]


def refusal_after(page: Page, target: dict[str, Any]) -> tuple[str, bool]:
    """Touch ``target`` and return the rule the refusal names, and whether it offers a
    choice beside it; the refusal is closed again."""
    page.touchscreen.tap(target["x"], target["y"])
    notice = page.locator("#notice.refusal")
    expect(notice).to_have_attribute("data-rule", re.compile(r"^cl\."), timeout=5000)
    rule = notice.get_attribute("data-rule") or ""
    page.wait_for_function(SETTLED)
    instead = notice.locator("[data-instead]").count() == 1
    notice.locator("[data-dismiss]").tap()
    expect(page.locator("#notice.refusal")).to_have_count(0)
    return rule, instead


def test_every_target_not_offered_says_which_rule_stops_it(browser, live_server):
    """Every top not lit, every block not lit and every figure, from whichever side shows
    it, answers with a refusal naming its rule: a top on a block that may move too (the
    walk's rule), with that block's move as a choice beside it."""
    table, seat, page = under_way(browser, live_server)
    page.evaluate(WATCH_REQUESTS)
    reach, lit, on_block = lit_on(page, table, seat)
    answered: dict[str, str] = {}
    offered_instead = []
    for side in range(4):
        page.locator("#cl-v-me").scroll_into_view_if_needed()
        for target in drawn(page):
            means = target["means"]
            kind, _, key = means.partition(":")
            if means in answered or means.startswith("ghost:") or key in reach or key in lit:
                continue
            now = where(page, means)
            assert now is not None, (side, means)
            rule, instead = refusal_after(page, now)
            answered[means] = rule
            if kind == "block":
                assert rule.startswith("cl.block."), (means, rule)
            elif kind == "pawn":
                assert rule in ("cl.figure.one-per-square", "cl.figure.reach"), (means, rule)
            else:
                assert rule.startswith(("cl.figure.", "cl.ladder.")), (means, rule)
            # a top on a block that may move: the block's move offered beside the refusal
            assert instead == (kind == "top" and on_block[key] in lit), (means, rule)
            if instead:
                offered_instead.append(means)
        turn(page)
    assert {m.split(":")[0] for m in answered} == {"top", "block", "pawn"}, answered
    assert len(answered) >= 40 and offered_instead, answered
    print(len(answered), "targets answered:", sorted(set(answered.values())))


def test_a_top_out_of_reach_on_a_block_that_may_move_offers_the_move_instead(browser,
                                                                             live_server):
    """A top the figure cannot reach, on a block that may move: the walk's refusal, and
    "Move this block instead" beside it, which chooses that block. A tap on anything
    else first takes that choice away with the refusal it answered. Once a block is
    chosen, a tap on another block that may move chooses it anew, with none of the last
    block's answers kept; one that may not says why."""
    table, seat, page = under_way(browser, live_server)
    page.evaluate(WATCH_REQUESTS)
    reach, lit, on_block = lit_on(page, table, seat)
    targets = drawn(page)
    top = next(t for t in targets if t["means"].startswith("top:")
               and t["means"][4:] not in reach and on_block[t["means"][4:]] in lit)
    block = on_block[top["means"][4:]]
    fixed = next(t for t in targets if t["means"].startswith("block:")
                 and t["means"][6:] not in lit)
    notice = page.locator("#notice.refusal")
    instead = notice.locator("[data-instead]")

    page.touchscreen.tap(top["x"], top["y"])
    expect(instead).to_have_text("Move this block instead")
    rule = notice.get_attribute("data-rule") or ""
    assert rule.startswith(("cl.figure.", "cl.ladder.")), rule
    page.wait_for_function(SETTLED)
    now = where(page, fixed["means"])  # choosing anew: the last refusal's choice goes
    assert now is not None
    page.touchscreen.tap(now["x"], now["y"])
    expect(notice).to_have_attribute("data-rule", re.compile(r"^cl\.block\."))
    expect(instead).to_have_count(0)
    page.wait_for_function(SETTLED)
    now = where(page, top["means"])
    assert now is not None
    page.touchscreen.tap(now["x"], now["y"])
    expect(instead).to_have_count(1)
    instead.tap()
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", block)
    expect(page.locator("#cl-ask[data-ghost-pick]")).to_have_count(1)
    expect(notice).to_have_count(0)

    # a place of the block taken, then another block: chosen anew, nothing of the first kept
    page.wait_for_function(SETTLED)
    ghost = next(t for t in drawn(page) if t["means"].startswith("ghost:"))
    page.touchscreen.tap(ghost["x"], ghost["y"])
    expect(page.locator("#cl-ask")).to_have_attribute("data-ghost", ghost["means"][6:])
    page.wait_for_function(SETTLED)
    other = next(t for t in clear_of_ghosts(drawn(page)) if t["means"].startswith("block:")
                 and t["means"][6:] in lit - {block})
    page.touchscreen.tap(other["x"], other["y"])
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", other["means"][6:])
    expect(page.locator("#cl-ask[data-ghost-pick]")).to_have_count(1)
    expect(page.locator("#cl-ask[data-ghost]")).to_have_count(0)
    page.wait_for_function(SETTLED)
    fixed_now = next(t for t in clear_of_ghosts(drawn(page)) if t["means"].startswith("block:")
                     and t["means"][6:] not in lit)
    page.touchscreen.tap(fixed_now["x"], fixed_now["y"])
    expect(notice).to_have_attribute("data-rule", re.compile(r"^cl\.block\."))
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", other["means"][6:])


#: The points round a target's middle a finger may touch meaning it: a 44 × 44 px target.
AROUND = ((15, 0), (-15, 0), (0, 15), (0, -15), (11, 11), (-11, -11))
#: What the finger touched at a point: the target drawn front-most there.
TOUCHED = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const svg = el && el.closest("svg.cl-3d");
  if (!svg) return null;
  const g = el.closest(".cl-reach, .cl-way, .cl-pawn, .cl-ghost-dot, g.cl-b");
  if (!g) return null;
  if (g.matches(".cl-reach")) return `top:${g.dataset.square}`;
  if (g.matches(".cl-way")) return `top:${g.dataset.square}`;
  if (g.matches(".cl-pawn")) return `pawn:${g.dataset.seat}`;
  if (g.matches(".cl-ghost-dot")) return `ghost:${g.dataset.ghost}`;
  return `block:${g.dataset.block}`;
}"""


def meaning_of(kind: str, asked: dict[str, Any], places: dict[str, str],
               on_block: dict[str, str]) -> set[str]:
    """The targets a request may stand for: a walk, its top (or the figure there, or the
    block under it); a block's move or why not, that block; a place, its ghost."""
    if "x" in asked:
        return {f"ghost:{asked['x']}_{asked['y']}_{asked['long'] or '-'}"}
    if asked.get("type") == "walk":
        to = asked["to"]
        return {f"top:{to}", f"block:{on_block.get(to)}",
                *(f"pawn:{seat}" for seat, place in places.items() if place == to)}
    return {f"block:{asked.get('block')}"}


def test_a_touch_beside_a_lit_top_or_a_figure_takes_it_or_zooms_in(browser, live_server):
    """A finger up to 15 px off the middle of a lit top or a figure (a target 44 px across)
    takes it, or, where another target lies as near, opens the zoom with it among the
    handles; or it touched another target drawn there, which answers."""
    table, seat, page = under_way(browser, live_server)
    places = squares_of(table.view(seat)["view"]["figures"])
    reach, _, on_block = lit_on(page, table, seat)
    asked: list[Request] = []
    page.on("request", lambda r: asked.append(r) if ASKED.search(r.url) else None)
    page.route(ASKED, lambda route: route.fulfill(status=204))
    targets = [t for t in drawn(page) if t["means"].startswith("pawn:")
               or (t["means"].startswith("top:") and t["means"][4:] in reach)]
    assert len(targets) >= 8, targets
    outcomes: dict[str, int] = {}
    for target in targets:
        for dx, dy in AROUND:
            now = where(page, target["means"])
            assert now is not None, target
            point = [now["x"] + dx, now["y"] + dy]
            touched = page.evaluate(TOUCHED, point)
            page.evaluate(WATCH_REQUESTS)
            before = len(asked)
            page.touchscreen.tap(*point)
            page.wait_for_function(SETTLED)
            zoomed = page.locator("#cl-v-me.cl-zooming .cl-zoom-pick")
            if zoomed.count():
                means = zoomed.evaluate_all("(els) => els.map((e) => e.dataset.means)")
                assert target["means"] in means, (target, dx, dy, means)
                page.locator("[data-zoom-out]").tap()
                expect(page.locator("#cl-v-me.cl-zooming")).to_have_count(0)
                outcomes["zoom"] = outcomes.get("zoom", 0) + 1
                continue
            assert len(asked) == before + 1, (target, dx, dy, touched)
            kind, pick = what_asked(asked[-1])
            means = meaning_of(kind, pick, places, on_block)
            took = target["means"] in means
            assert took or touched in means, (target, dx, dy, touched, kind, pick)
            outcomes["it" if took else "other"] = outcomes.get("it" if took else "other", 0) + 1
            if kind == "move":
                page.wait_for_timeout(DOUBLE_TAP_MS)
    print("touches beside a lit top or a figure:", outcomes)
    assert outcomes.get("it") and outcomes.get("zoom"), outcomes
