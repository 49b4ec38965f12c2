"""Tapping The Climbers' tower on a phone the way a finger does: where it shows, turning
the tower a quarter at a time until it does."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.phones import WATCH_REQUESTS, quiet, tap, touch_at

#: Where a finger taps the element ``sel`` where the browser hits it (nothing drawn over
#: it) in the viewport: ``{x, y, means}`` (``means`` names it as the zoom's handles do,
#: "top:1,4", "block:D3"), or null where it does not show. It waits until the page has
#: stopped moving, as a finger taps what it sees: the tower is drawn again a frame or two
#: after a push (the element may not be there yet), and a swap may scroll the control it
#: focuses into sight: where that leaves the element off the screen or under the panel
#: stuck to the bottom, it is scrolled back into sight (a thumb's swipe, not a tap); only
#: an element hidden behind others in sight does not show. A finger taps a target where it
#: is clear of the others: of the points where the element shows (a block: on a side,
#: where it has one in sight), the one nearest its own middle against the other small
#: targets' middles (the lit tops, ladder ways, figures and ghost handles).
SEEN_AT = """async (sel) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const settled = async () => {
    let last = null, el = null, r = null;
    for (let k = 0; k < 60; k++) {
      await frame();
      el = document.querySelector(sel);
      if (!el) continue;
      r = el.getBoundingClientRect();
      const now = [r.left, r.top, r.width, r.height, scrollX, scrollY].join();
      if (now === last) break;
      last = now;
    }
    return [el, r];
  };
  const clear = () => {  // the bottom of what the panel stuck to the bottom leaves
    const panel = document.getElementById("picker");
    return panel && getComputedStyle(panel).position === "sticky"
      ? panel.getBoundingClientRect().top : innerHeight;
  };
  let [el, r] = await settled();
  for (let k = 0; k < 3 && el && (r.top < 0 || r.bottom > clear()); k++) {
    el.scrollIntoView({block: "center"});
    [el, r] = await settled();
  }
  if (!el) return null;
  const centre = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left + b.width / 2, b.top + b.height / 2];
  };
  const small = ".cl-reach, .cl-way-hit, .cl-pawn circle, .cl-ghost-dot:not(.hid)";
  const others = [...document.querySelectorAll(`svg.cl-3d ${small}`)]
    .filter((o) => o !== el && !el.contains(o) && !o.closest(".cl-way, .cl-pawn")?.contains(el))
    .map(centre);
  const found = [];
  for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) {
    const x = r.left + r.width * (i || 8) / 16, y = r.top + r.height * (j || 8) / 16;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) found.push([hit, x, y]);
  }
  if (!found.length) return null;
  const sides = found.filter(([hit]) => hit.dataset.face && hit.dataset.face !== "top");
  const pool = el.matches("g.cl-b") && sides.length ? sides : found;
  const score = ([hit, x, y]) => {
    const own = el.matches("g.cl-b") ? centre(hit) : centre(el);
    const near = Math.min(...others.map(([ox, oy]) => Math.hypot(ox - x, oy - y)));
    return near - Math.hypot(own[0] - x, own[1] - y);
  };
  const [, x, y] = pool.reduce((best, p) => (score(p) > score(best) ? p : best));
  const d = el.dataset;
  const means = d.ghost ? `ghost:${d.ghost}`
    : el.matches(".cl-way") ? `way:${d.square}:${d.ladders}`
    : el.matches(".cl-reach") ? `top:${d.square}`
    : el.matches(".cl-pawn") ? `pawn:${d.seat}` : `block:${d.block}`;
  return {x, y, means};
}"""

#: Counts the clicks that reach the page from now on, the one a touch makes among them.
COUNT_CLICKS = """() => {
  if (window.__clicks === undefined) {
    window.addEventListener("click", () => { window.__clicks += 1; }, true);
  }
  window.__clicks = 0;
}"""

#: Once the click of the touch just made has been handled and the drawing has had a frame:
#: whether the tower zoomed in round it (the tap fell among crowded targets).
ZOOMED = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  for (let k = 0; k < 120 && !window.__clicks; k++) await frame();
  await frame();
  return Boolean(document.querySelector("svg.cl-3d.cl-zooming"));
}"""


def touch_seen(page: Page, selector: str) -> int:
    """A finger's touch on ``selector`` where the tower shows it (``SEEN_AT``); among
    crowded targets the tower zooms in, and the zoomed handle that stands for it is
    touched, a second tap. Returns the taps it took (0: it does not show)."""
    seen: dict[str, Any] | None = None

    def find() -> tuple[float, float] | None:
        nonlocal seen
        seen = page.evaluate(SEEN_AT, selector)
        return None if seen is None else (seen["x"], seen["y"])

    page.evaluate(COUNT_CLICKS)
    page.evaluate(WATCH_REQUESTS)
    quiet(page)  # the focus moves, and may scroll the page, 120 ms after the last swap
    if not touch_at(page, find):
        return 0
    if not page.evaluate(ZOOMED):
        return 1
    assert seen is not None
    handle = f"svg.cl-3d.cl-zooming .cl-zoom-pick[data-means='{seen['means']}'] .cl-zoom-dot"
    assert touch_at(page, lambda: _middle(page, handle)), f"no zoomed handle for {seen}"
    return 2


def _middle(page: Page, selector: str) -> tuple[float, float] | None:
    """The middle of ``selector`` on the screen, where it shows."""
    box = page.locator(selector).bounding_box() if page.locator(selector).count() else None
    return None if box is None else (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_seen(page: Page, selector: str, turned: list[int] | None = None) -> int:
    """Tap ``selector`` where the tower shows it, turning the tower a quarter at a time
    until it is in sight; returns the taps it took (the turns and a tap in the zoom over
    crowded ghost handles included), and adds the quarter turns to ``turned``."""
    for turns in range(4):
        taps = touch_seen(page, selector)
        if taps:
            if turned is not None:
                turned.append(turns)
            return turns + taps
        tap(page.locator("[data-turn-tower='90']"))
    raise AssertionError(f"{selector} is hidden from every side")


def choose_lit_block(page: Page) -> None:
    """Tap the first block lit on the phone's tower where it shows, and wait until the
    question has chosen it and the page has settled: the focus moves on 120 ms after the
    answer, and may scroll the page."""
    lit = page.locator("#cl-v-me g.cl-b.lit").first.get_attribute("data-block")
    assert lit is not None, "no block is lit"
    page.evaluate(WATCH_REQUESTS)
    tap_seen(page, f"#cl-v-me g.cl-b[data-block='{lit}']")
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", lit)
    quiet(page)
