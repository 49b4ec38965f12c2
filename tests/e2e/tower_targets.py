"""Where The Climbers' phone tower draws each thing a finger may tap, read from the page:
each square of a block's top, each block (at the middle of a side it shows), each figure
(its head) and each ghost place (its handle), with the middle of each where it is drawn,
and whether a finger there touches that very thing (nothing drawn over it)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: ``[{means, x, y, lit}]`` for the view ``sel``: ``means`` names the target as the tower's
#: zoomed handles do ("top:x,y", "block:D3", "pawn:1", "ghost:x_y_long"); x and y, the
#: middle on the screen; ``lit``, whether what shows there is a control the question
#: lights. Only the targets whose middle shows are listed: a square of a top under another
#: block or a figure, a side hidden whole, a ghost handle not drawn are not.
DRAWN = """(sel, only = null) => {
  const svg = document.querySelector(sel);
  const ctm = svg.getScreenCTM();
  const screen = ([x, y]) => {
    const p = new DOMPoint(x, y).matrixTransform(ctm);
    return [p.x, p.y];
  };
  const corners = (polygon) => polygon.getAttribute("points").split(" ")
    .map((p) => p.split(",").map(Number));
  const records = {};
  for (const i of document.querySelectorAll("#cl-td [data-b]")) {
    const p = i.dataset.b.split(" ");
    records[p[0]] = {x: +p[2], y: +p[3], w: +p[5], d: +p[6]};
  }
  const shows = (x, y, ok) => {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return Boolean(hit && ok(hit));
  };
  const found = [];
  for (const g of svg.querySelectorAll("g.cl-b")) {
    const b = records[g.dataset.block];
    const top = g.querySelector("polygon[data-face=top]");
    const [c00, c10, c11, c01] = corners(top);
    for (let i = 0; i < b.w; i++) for (let j = 0; j < b.d; j++) {
      const u = (i + 0.5) / b.w, v = (j + 0.5) / b.d;
      const at = [0, 1].map((k) => (1 - u) * (1 - v) * c00[k] + u * (1 - v) * c10[k]
                                   + u * v * c11[k] + (1 - u) * v * c01[k]);
      const [x, y] = screen(at);
      const square = `${b.x + i},${b.y + j}`;
      const mine = (hit) => (g.contains(hit) && (hit === top || hit.closest(".cl-stone"))) ||
        (hit.matches(".cl-reach") && hit.dataset.square === square);
      if (shows(x, y, mine)) found.push({means: `top:${square}`, x, y});
    }
    for (const side of g.querySelectorAll("polygon[data-face]:not([data-face=top])")) {
      const c = corners(side);
      const [x, y] = screen([0, 1].map((k) => c.reduce((s, p) => s + p[k], 0) / c.length));
      if (shows(x, y, (hit) => hit === side)) {
        found.push({means: `block:${g.dataset.block}`, x, y});
        break;
      }
    }
  }
  for (const pawn of svg.querySelectorAll(".cl-pawn")) {
    const r = pawn.querySelector("circle").getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (shows(x, y, (hit) => pawn.contains(hit))) {
      found.push({means: `pawn:${pawn.dataset.seat}`, x, y});
    }
  }
  for (const dot of svg.querySelectorAll(".cl-ghost-dot:not(.hid)")) {
    const r = dot.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (shows(x, y, (hit) => hit === dot)) found.push({means: `ghost:${dot.dataset.ghost}`, x, y});
  }
  // a target that the question lights answers as a control of the page (the focus moves on)
  for (const t of found) {
    t.lit = Boolean(document.elementFromPoint(t.x, t.y).closest("[role=button]"));
  }
  return only ? found.filter((t) => t.means === only) : found;
}"""


def drawn(page: Page, sel: str = "#cl-v-me") -> list[dict[str, Any]]:
    """The targets drawn in the view ``sel`` whose middle shows (``DRAWN``), the view
    brought into sight, once the drawing has stood still: the same targets read twice,
    a few frames apart (it is drawn a frame or two after a turn or an answer, later on a
    busy machine), within two seconds."""
    into_sight(page, sel)
    return list(page.evaluate(f"""async (sel) => {{
      const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
      const read = () => ({DRAWN})(sel);
      const until = performance.now() + 2000;
      let last = null;
      while (true) {{
        for (let k = 0; k < 4; k++) await frame();
        const now = read();
        const same = last !== null && JSON.stringify(now) === JSON.stringify(last);
        if ((same && now.length) || performance.now() > until) return now;
        last = now;
      }}
    }}""", sel))


def where(page: Page, means: str, sel: str = "#cl-v-me") -> dict[str, Any] | None:
    """Where the target ``means`` shows now (the page may have scrolled since it was
    read: a tap's answer moves the focus), the view brought into sight if it does not."""
    for _ in range(2):
        found = next(iter(page.evaluate(f"(only) => ({DRAWN})({sel!r}, only)", means)), None)
        if found is not None:
            return found
        into_sight(page, sel)
    return None


def into_sight(page: Page, sel: str) -> None:
    """The whole view ``sel`` in the window: Playwright's scroll "if needed" leaves a view
    that shows by a sliver where it is (after an answer moved the focus down the page)."""
    page.locator(sel).evaluate("(view) => view.scrollIntoView({block: 'center'})")

