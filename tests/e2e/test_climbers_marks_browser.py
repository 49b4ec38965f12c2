"""The Climbers' marks on the tower, in Chromium: the block moved last turn (which the
player on turn may not move) is dashed on the table screen's four views and on the phones,
with its key and its words in English and French, until the player on turn moves a block
of their own; a lit top keeps its own colour under its highlight."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.games.climbers.web import ClimbersHelpers
from companion.i18n import drawing_in
from tests.conftest import ApiTable
from tests.e2e.phones import seated_page
from tests.e2e.test_climbers_browser import built_table

pytestmark = pytest.mark.e2e


def move_a_block(table: ApiTable) -> str:
    """The player on turn moves the first block offered: the block's id."""
    seat = table.view()["view"]["turn"]
    move = next(m for m in table.moves(seat) if m["type"] == "block")
    assert table.post_move(seat, move).status_code == 200
    return str(move["block"])


def end_turn(table: ApiTable) -> None:
    seat = table.view()["view"]["turn"]
    move = next(m for m in table.moves(seat) if m["type"] in ("end", "pass"))
    assert table.post_move(seat, move).status_code == 200


def said(live_server: dict[str, Any], view: dict[str, Any], block: str, lang: str) -> str:
    """The block in the reader's words, as the pages say it."""
    with live_server["app"].test_request_context(), drawing_in(lang):
        return ClimbersHelpers().words.block(view, block)


def dashed(page: Page, views: str) -> list[str]:
    """The block each of ``views`` marks as staying put, and its dashed outline drawn over
    the tower (after every block, in the layer above them)."""
    expect(page.locator(f"{views} .cl-over .cl-stays")).to_have_count(page.locator(views).count())
    return page.locator(f"{views} g.cl-b.stays").evaluate_all("gs => gs.map(g => g.dataset.block)")


def test_the_block_moved_last_turn_is_dashed_on_the_screen_and_the_phones(browser,
                                                                         live_server):
    table = built_table(live_server, players=2, seed=5)
    base = live_server["base"]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = context.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    phone = seated_page(browser, base, table, 1)
    french = seated_page(browser, base, table, 0, lang="fr")
    expect(screen.locator("#cl-v-main g.cl-b")).not_to_have_count(0)
    assert screen.locator("svg.cl-3d .cl-stays, g.cl-b.stays").count() == 0

    block = move_a_block(table)
    # while its mover's turn goes on, the block is the one moved this turn, not dashed
    expect(screen.locator(f"#cl-v-main g.cl-b.marked[data-block='{block}']")).to_have_count(1)
    assert screen.locator("g.cl-b.stays").count() == 0
    end_turn(table)
    view = table.view()["view"]
    assert view["turn"] == 1 and view["last_moved"] == block
    expect(screen.locator("svg.cl-3d[data-view] g.cl-b.stays")).to_have_count(4)
    assert dashed(screen, "svg.cl-3d") == [block] * 4
    panel = screen.locator("#cl-last-moved")
    expect(panel.locator(".cl-key.stays")).to_have_count(1)
    expect(panel).to_contain_text(re.compile(re.escape(said(live_server, view, block, "en")), re.I))
    expect(panel).to_contain_text("was moved last turn: it stays put this turn")

    for page, lang, words in ((phone, "en", "was moved last turn: it stays put this turn"),
                              (french, "fr", "a été déplacé au tour précédent")):
        page.reload()
        expect(page.locator("#cl-v-me g.cl-b.stays")).to_have_count(1)
        assert dashed(page, "#cl-v-me") == [block]
        caption = page.locator("#cl-phone-said")
        expect(caption.locator(".cl-key.stays")).to_have_count(1)
        expect(caption).to_contain_text(words)
        expect(caption).to_contain_text(
            re.compile(re.escape(said(live_server, view, block, lang)), re.I))

    # the next player moves a block: theirs is outlined, the dashed one no longer said
    second = move_a_block(table)
    expect(phone.locator(f"#cl-v-me g.cl-b.marked[data-block='{second}']")).to_have_count(1)
    expect(phone.locator("#cl-v-me .cl-stays")).to_have_count(0)
    expect(screen.locator("g.cl-b.stays")).to_have_count(0)
    expect(screen.locator("#cl-last-moved")).to_have_count(0)
    expect(phone.locator("#cl-phone-said .cl-key.stays")).to_have_count(0)
    end_turn(table)
    expect(screen.locator(f"#cl-v-main g.cl-b.stays[data-block='{second}']")).to_have_count(1)
    expect(phone.locator(f"#cl-v-me g.cl-b.stays[data-block='{second}']")).to_have_count(1)


#: Each lit top on the phone's tower: the colour its highlight is drawn in over the top
#: (fill, fill-opacity and opacity, as the browser computes them), the square it lies on
#: and the colour of the top drawn under it.
LIT_TOPS = """() => [...document.querySelectorAll("#cl-v-me .cl-reach")].map((sq) => {
  const style = getComputedStyle(sq);
  return {square: sq.dataset.square, fill: style.fill,
          alpha: Number(style.fillOpacity) * Number(style.opacity)};
})"""


def rgba(css: str) -> tuple[float, float, float, float]:
    found = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)", css)
    if found is None:  # "none"
        return (0.0, 0.0, 0.0, 0.0)
    r, g, b, a = found.groups()
    return (float(r), float(g), float(b), 1.0 if a is None else float(a))


def test_a_lit_top_keeps_its_colour_under_its_highlight(browser, live_server):
    """The player on turn sees the tops they can walk to lit: the highlight drawn over each
    top leaves the top's own colour, within a few steps of each channel."""
    table = built_table(live_server, players=2, seed=5)
    view = table.view()["view"]
    page = seated_page(browser, live_server["base"], table, view["turn"])
    expect(page.locator("#cl-v-me .cl-reach")).not_to_have_count(0)
    heights = {(c["x"], c["y"]): c["height"] for c in view["cells"]}
    tops = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '#cl-v-me g.cl-b')].map(g => [g.dataset.block,
      g.querySelector('[data-face=top]').getAttribute('fill')]))""")
    lit = page.evaluate(LIT_TOPS)
    assert lit
    for square in lit:
        x, y = (int(v) for v in square["square"].split(","))
        under = next(b for b in view["blocks"] if b["x"] <= x < b["x"] + b["w"]
                     and b["y"] <= y < b["y"] + b["d"] and b["z"] + b["h"] == heights[(x, y)])
        top = rgba(tops[under["id"]])
        r, g, b, a = rgba(square["fill"])
        alpha = a * square["alpha"]
        drawn = [alpha * over + (1 - alpha) * own for over, own in zip((r, g, b), top[:3],
                                                                       strict=True)]
        assert max(abs(d - own) for d, own in zip(drawn, top[:3], strict=True)) <= 8, (
            square, tops[under["id"]], drawn)
