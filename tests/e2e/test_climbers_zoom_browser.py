"""Crowded ghost places on a 360 × 740 phone, in Chromium: a tap where several places'
handles lie under a finger zooms the tower in round it, each of those places a handle a
finger's width across; the place tapped there is where the block goes. A tap clearly on
one handle picks it at once; Back, the zoom's own button or a tap off the zoomed handles
step out of the zoom with the block still chosen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import ApiTable
from tests.e2e.phones import no_horizontal_scroll, seated_page, seq_of, tap_through
from tests.e2e.test_climbers_browser import built_table, table_of
from tests.e2e.test_climbers_tower_browser import HANDLES
from tests.e2e.tower_taps import choose_lit_block

pytestmark = pytest.mark.e2e

FINGER = 22  # half a finger's width (44 CSS px, about 9 mm)

#: The zoomed handles: place, middle, size, its number and name, and whether a tap at its
#: middle hits it.
ZOOMED = """() => [...document.querySelectorAll("#cl-v-me .cl-zoom-pick")].map((g) => {
  const r = g.querySelector(".cl-zoom-dot").getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {key: g.dataset.ghost, x, y, size: Math.min(r.width, r.height),
          number: g.querySelector("text").textContent, label: g.getAttribute("aria-label"),
          hit: Boolean(hit && g.contains(hit))};
})"""


def distance(a: dict[str, float], x: float, y: float) -> float:
    return float(((a["x"] - x) ** 2 + (a["y"] - y) ** 2) ** 0.5)


def crowded_spot(page: Page) -> tuple[float, float, list[str]]:
    """The point between two handles, clearly on neither, with the most handles under a
    finger there, and those handles' places, nearest first."""
    handles = [h for h in page.evaluate(HANDLES) if 0 < h["y"] < 740]  # in sight
    best: tuple[float, float, list[str]] | None = None
    for i, a in enumerate(handles):
        for b in handles[i + 1:]:
            x, y = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
            under = sorted((h for h in handles if distance(h, x, y) <= FINGER - 3),
                           key=lambda h: distance(h, x, y))
            # clear of the finger's rim, so that which handles lie under it is not in doubt
            rim = [h for h in handles if FINGER - 3 < distance(h, x, y) <= FINGER + 3]
            # as near one handle as another: on none clearly
            between = len(under) >= 2 and \
                distance(under[1], x, y) - distance(under[0], x, y) < 3
            if between and not rim and (best is None or len(under) > len(best[2])):
                best = (x, y, [h["key"] for h in under])
    assert best is not None, "no handles crowd here: not a test"
    return best


def with_a_block_chosen(browser: Browser, live_server: dict[str, Any]) -> tuple[ApiTable, Page]:
    table = built_table(live_server)
    seat, _ = table.seat_to_move()
    page = seated_page(browser, live_server["base"], table, seat)
    page.locator("#cl-v-me").scroll_into_view_if_needed()
    choose_lit_block(page)
    expect(page.locator("#cl-v-me .cl-ghost-dot").first).to_be_attached()
    return table, page


def zoom_in(page: Page) -> list[str]:
    """Taps among crowded handles and checks the zoom: returns the places under the tap."""
    page.locator("#cl-v-me").scroll_into_view_if_needed()
    x, y, under = crowded_spot(page)
    page.mouse.click(x, y)
    expect(page.locator("#cl-v-me.cl-zooming")).to_have_count(1)
    expect(page.locator(".cl-zoom-bar")).to_be_visible()
    expect(page.locator("#cl-ask")).not_to_have_attribute("data-ghost", under[0])
    return under


def test_a_tap_among_crowded_places_zooms_in_and_the_place_tapped_there_is_taken(
        browser: Browser, live_server):
    table, page = with_a_block_chosen(browser, live_server)
    block = page.get_attribute("#cl-ask", "data-chosen")
    under = zoom_in(page)
    zoomed = page.evaluate(ZOOMED)
    # each place under the finger, once, a handle a finger's width across, in sight and
    # hit where it is drawn, and no two that read the same
    assert sorted(z["key"] for z in zoomed) == sorted(under)
    assert len({z["number"] for z in zoomed}) == len({z["label"] for z in zoomed}) == len(under)
    for z in zoomed:
        assert z["size"] >= 44 and z["hit"], z
        assert 22 <= z["x"] <= 360 - 22 and 22 <= z["y"] <= 740 - 22, z
    for i, a in enumerate(zoomed):
        for b in zoomed[i + 1:]:
            assert distance(a, b["x"], b["y"]) >= 48, (a, b)
    assert no_horizontal_scroll(page)
    # the place the player means: not the one nearest the tap
    meant = next(z for z in zoomed if z["key"] == under[-1])
    page.mouse.click(meant["x"], meant["y"])
    expect(page.locator("#cl-ask")).to_have_attribute("data-ghost", meant["key"])
    expect(page.locator("#cl-v-me.cl-zooming")).to_have_count(0)
    expect(page.locator(".cl-zoom-bar")).to_be_hidden()
    seq = seq_of(page)
    tap_through(page, None)  # the colour on top (the first) and Confirm
    expect(page.locator(f"#status[data-seq='{seq + 1}']")).to_have_count(1)
    server = table_of(live_server, table)
    with server.lock:
        placed = dict(server.match.state["blocks"][block])
    x, y, long = meant["key"].split("_")
    assert (placed["x"], placed["y"], placed["long"] or "-") == (int(x), int(y), long)


def test_a_phone_held_sideways_zooms_in_with_every_handle_on_the_tower(
        browser: Browser, live_server):
    """At 740 × 360 the tower has little height: the zoom is less, so that the handles
    round the tap stay within the tower's view, each whole and on the screen."""
    _, page = with_a_block_chosen(browser, live_server)
    page.set_viewport_size({"width": 740, "height": 360})
    expect(page.locator("#cl-v-me .cl-ghost-dot").first).to_be_attached()
    under = zoom_in(page)
    zoomed = page.evaluate(ZOOMED)
    view = page.locator("#cl-v-me").bounding_box()
    assert view is not None
    assert sorted(z["key"] for z in zoomed) == sorted(under)
    for z in zoomed:
        radius = z["size"] / 2
        assert z["size"] >= 44 and z["hit"], z
        assert view["x"] <= z["x"] - radius and z["x"] + radius <= view["x"] + view["width"], z
        assert view["y"] <= z["y"] - radius and z["y"] + radius <= view["y"] + view["height"], z
        assert z["y"] + radius <= 360, z
    for i, a in enumerate(zoomed):
        for b in zoomed[i + 1:]:
            assert distance(a, b["x"], b["y"]) >= 48, (a, b)


def test_the_zoom_takes_a_keyboard_too(browser: Browser, live_server):
    """The zoom puts the focus on its first place: Tab goes on to the next, Enter takes it."""
    _, page = with_a_block_chosen(browser, live_server)
    zoom_in(page)
    zoomed = page.locator("#cl-v-me .cl-zoom-pick")
    expect(zoomed.first).to_be_focused()
    page.keyboard.press("Tab")
    second = zoomed.nth(1).get_attribute("data-ghost")
    expect(zoomed.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#cl-ask")).to_have_attribute("data-ghost", second or "")


@pytest.mark.parametrize("crowded", [True, False])
def test_a_tap_clearly_on_one_handle_picks_it_at_once(browser: Browser, live_server, crowded):
    """On a large handle, even with a small one under the finger beside it; or on a handle
    alone under the finger."""
    _, page = with_a_block_chosen(browser, live_server)
    handles = page.evaluate(HANDLES)

    def others(h: dict[str, Any]) -> list[dict[str, Any]]:
        return [o for o in handles if o is not h and distance(o, h["x"], h["y"]) <= FINGER + 3]

    target = next(h for h in handles if h["large"] and h["hit"] and bool(others(h)) == crowded)
    page.mouse.click(target["x"], target["y"])
    expect(page.locator("#cl-ask")).to_have_attribute("data-ghost", target["key"])
    assert page.locator("#cl-v-me.cl-zooming").count() == 0


#: Keeps each CloseWatcher the page makes, for a test to send it the close request that
#: the phone's Back button sends.
KEEP_CLOSE_WATCHERS = """window.__closeWatchers = [];
window.CloseWatcher = class extends window.CloseWatcher {
  constructor(...args) { super(...args); window.__closeWatchers.push(this); }
};"""


def test_back_or_a_tap_off_the_zoomed_handles_steps_out_with_the_block_chosen(
        browser: Browser, live_server):
    _, page = with_a_block_chosen(browser, live_server)
    page.add_init_script(KEEP_CLOSE_WATCHERS)
    page.reload()  # the block chosen stays: the picker's choices are in the address
    expect(page.locator("#cl-v-me .cl-ghost-dot").first).to_be_attached()
    block = page.get_attribute("#cl-ask", "data-chosen")
    step = page.get_attribute("#picker", "data-step")
    unzoomed = page.locator("#cl-v-me").get_attribute("viewBox")

    def out_with_the_block_chosen() -> None:
        expect(page.locator("#cl-v-me.cl-zooming")).to_have_count(0)
        expect(page.locator(".cl-zoom-bar")).to_be_hidden()
        expect(page.locator("#cl-v-me")).to_have_attribute("viewBox", unzoomed or "")
        expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", block or "")
        expect(page.locator("#picker")).to_have_attribute("data-step", step or "")

    zoom_in(page)  # the phone's own Back: a close request, as Android's Back button sends
    page.evaluate("window.__closeWatchers.at(-1).requestClose()")
    out_with_the_block_chosen()
    assert page.evaluate("window.__closeWatchers.length") == 1
    zoom_in(page)  # the picker's Back: out of the zoom, not one choice back
    page.locator("#picker [data-back]").click()
    out_with_the_block_chosen()
    zoom_in(page)  # the zoom's own button under the tower
    page.locator("[data-zoom-out]").click()
    out_with_the_block_chosen()
    zoom_in(page)  # a tap on the tower, off the zoomed handles
    box = page.locator("#cl-v-me").bounding_box()
    assert box is not None
    zoomed = page.evaluate(ZOOMED)
    corner = (box["x"] + 8, box["y"] + box["height"] - 8)
    assert all(distance(z, *corner) > 3 * FINGER for z in zoomed)
    page.mouse.click(*corner)
    out_with_the_block_chosen()
    zoom_in(page)  # Escape, on a keyboard
    page.keyboard.press("Escape")
    out_with_the_block_chosen()
    # and the picker's Back, out of the zoom, is one choice back again
    page.locator("#picker [data-back]").click()
    expect(page.locator("#cl-ask")).not_to_have_attribute("data-chosen", block or "")
