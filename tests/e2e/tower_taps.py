"""Tapping The Climbers' tower on a phone the way a finger does: where it shows, turning
the tower a quarter at a time until it does."""

from __future__ import annotations

from playwright.sync_api import Page, expect

#: Taps the element ``sel`` where the browser hits it (nothing drawn over it) in the
#: viewport, its middle where it shows there, and returns the taps it took (0: it could
#: not). It waits until the page has stopped moving, as a finger taps what it sees: the
#: tower is drawn again a frame or two after a push (the element may not be there yet),
#: and a swap may scroll the control it focuses into sight. The tap is dispatched where
#: the hit was found, in the same task, so no drawing comes in between. A tap among
#: crowded ghost handles zooms the tower in: then the zoomed handle of the same place is
#: tapped, a second tap.
TAP_SEEN = """async (sel) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
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
  if (!el) return 0;
  const tap = (target, r) => {
    const points = [[r.left + r.width / 2, r.top + r.height / 2]];
    for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
      points.push([r.left + r.width * i / 16, r.top + r.height * j / 16]);
    }
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === target || target.contains(hit))) {
        hit.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window,
                                                   clientX: x, clientY: y, detail: 1}));
        return true;
      }
    }
    return false;
  };
  if (!tap(el, r)) return 0;
  const zoomed = el.dataset.ghost && document.querySelector(
    `svg.cl-3d.cl-zooming .cl-zoom-pick[data-ghost="${el.dataset.ghost}"] .cl-zoom-dot`);
  if (!zoomed) return 1;
  await frame();
  return tap(zoomed, zoomed.getBoundingClientRect()) ? 2 : 0;
}"""


def tap_seen(page: Page, selector: str, turned: list[int] | None = None) -> int:
    """Tap ``selector`` where the tower shows it, turning the tower a quarter at a time
    until it is in sight; returns the taps it took (the turns and a tap in the zoom over
    crowded ghost handles included), and adds the quarter turns to ``turned``."""
    for turns in range(4):
        page.locator(selector).first.scroll_into_view_if_needed()
        taps = page.evaluate(TAP_SEEN, selector)
        if taps:
            if turned is not None:
                turned.append(turns)
            return turns + taps
        page.locator("[data-turn-tower='90']").click()
    raise AssertionError(f"{selector} is hidden from every side")


def choose_lit_block(page: Page) -> None:
    """Tap the first block lit on the phone's tower where it shows, and wait until the
    question has chosen it."""
    lit = page.locator("#cl-v-me g.cl-b.lit").first.get_attribute("data-block")
    assert lit is not None, "no block is lit"
    tap_seen(page, f"#cl-v-me g.cl-b[data-block='{lit}']")
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", lit)
