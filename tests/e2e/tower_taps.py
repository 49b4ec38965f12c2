"""Tapping The Climbers' tower on a phone the way a finger does: where it shows, turning
the tower a quarter at a time until it does."""

from __future__ import annotations

from playwright.sync_api import Page, expect

#: Taps the element ``sel`` where the browser hits it (nothing drawn over it) in the
#: viewport, and returns the taps it took (0: it could not). It waits until the page has
#: stopped moving, as a finger taps what it sees: the tower is drawn again a frame or two
#: after a push (the element may not be there yet), and a swap may scroll the control it
#: focuses into sight. A finger taps a target where it is clear of the others: of the points
#: where the element shows (a block: on a side, where it has one in sight), the one nearest
#: its own middle against the other small targets' middles (the lit tops, ladder ways,
#: figures and ghost handles). The tap is dispatched where the hit was found, in the same
#: task, so no drawing comes in between. A tap among crowded targets zooms the tower in:
#: then the zoomed handle that stands for the element is tapped, a second tap.
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
  const centre = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left + b.width / 2, b.top + b.height / 2];
  };
  const small = ".cl-reach, .cl-way-hit, .cl-pawn circle, .cl-ghost-dot:not(.hid)";
  const others = [...document.querySelectorAll(`svg.cl-3d ${small}`)]
    .filter((o) => o !== el && !el.contains(o) && !o.closest(".cl-way, .cl-pawn")?.contains(el))
    .map(centre);
  const click = (hit, x, y) => hit.dispatchEvent(new MouseEvent("click", {
    bubbles: true, cancelable: true, view: window, clientX: x, clientY: y, detail: 1}));
  const tap = (target, r) => {
    const found = [];
    for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) {
      const x = r.left + r.width * (i || 8) / 16, y = r.top + r.height * (j || 8) / 16;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === target || target.contains(hit))) found.push([hit, x, y]);
    }
    if (!found.length) return false;
    const sides = found.filter(([hit]) => hit.dataset.face && hit.dataset.face !== "top");
    const pool = target.matches("g.cl-b") && sides.length ? sides : found;
    const score = ([hit, x, y]) => {
      const own = target.matches("g.cl-b") ? centre(hit) : centre(target);
      const near = Math.min(...others.map(([ox, oy]) => Math.hypot(ox - x, oy - y)));
      return near - Math.hypot(own[0] - x, own[1] - y);
    };
    const [hit, x, y] = pool.reduce((best, p) => (score(p) > score(best) ? p : best));
    click(hit, x, y);
    return true;
  };
  if (!tap(el, r)) return 0;
  await frame();
  if (!document.querySelector("svg.cl-3d.cl-zooming")) return 1;
  const d = el.dataset;
  const means = d.ghost ? `ghost:${d.ghost}`
    : el.matches(".cl-way") ? `way:${d.square}:${d.ladders}`
    : el.matches(".cl-reach") ? `top:${d.square}`
    : el.matches(".cl-pawn") ? `pawn:${d.seat}` : `block:${d.block}`;
  const zoomed = document.querySelector(
    `svg.cl-3d.cl-zooming .cl-zoom-pick[data-means="${CSS.escape(means)}"] .cl-zoom-dot`);
  if (!zoomed) return 0;
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
