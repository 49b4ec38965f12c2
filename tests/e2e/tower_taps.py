"""Tapping The Climbers' tower on a phone the way a finger does: where it shows, turning
the tower a quarter at a time until it does."""

from __future__ import annotations

from playwright.sync_api import Page, expect

#: Taps the element ``sel`` where the browser hits it (nothing drawn over it) in the
#: viewport, and says whether it could. It waits until the page has stopped moving, as a
#: finger taps what it sees: the tower is drawn again a frame or two after a push (the
#: element may not be there yet), and a swap may scroll the control it focuses into sight.
#: The tap is dispatched where the hit was found, in the same task, so no drawing comes
#: in between.
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
  if (!el) return false;
  for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
    const x = r.left + r.width * i / 16, y = r.top + r.height * j / 16;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) {
      hit.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window,
                                                 clientX: x, clientY: y, detail: 1}));
      return true;
    }
  }
  return false;
}"""


def tap_seen(page: Page, selector: str, turned: list[int] | None = None) -> int:
    """Tap ``selector`` where the tower shows it, turning the tower a quarter at a time
    until it is in sight; returns the taps it took (the turns included), and adds the
    quarter turns to ``turned``."""
    for turns in range(4):
        page.locator(selector).first.scroll_into_view_if_needed()
        if page.evaluate(TAP_SEEN, selector):
            if turned is not None:
                turned.append(turns)
            return turns + 1
        page.locator("[data-turn-tower='90']").click()
    raise AssertionError(f"{selector} is hidden from every side")


def choose_lit_block(page: Page) -> None:
    """Tap the first block lit on the phone's tower where it shows, and wait until the
    question has chosen it."""
    lit = page.locator("#cl-v-me g.cl-b.lit").first.get_attribute("data-block")
    assert lit is not None, "no block is lit"
    tap_seen(page, f"#cl-v-me g.cl-b[data-block='{lit}']")
    expect(page.locator("#cl-ask")).to_have_attribute("data-chosen", lit)
