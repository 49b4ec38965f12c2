"""Building the drawn start tower in Chromium, on the table screen at 1280 × 800 and
1920 × 1080 and on a 360 × 740 phone that leads the build: every step, with Next and then
Back, says a new block and place, names no block code, and keeps Back and Next inside the
viewport; every step's new block lies inside the board (on the phone: the picture, the
words, Back and Next inside the first screen) with no face drawn over it, and the "▲ Table
screen" mark is in view; and from each of the four sides, the 3-D picture of every step
draws the new block where its words put it."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from companion.games.climbers.web import ClimbersHelpers
from companion.games.climbers.web.build import BuildWords
from companion.i18n import drawing_in
from tests.e2e.phones import no_horizontal_scroll, start_table

pytestmark = pytest.mark.e2e
NAMES = ("Ana", "Ben")
SEED = 21
CODES = re.compile(r"\b[FDCH]\d{1,2}\b")
SHOTS = os.environ.get("CL_BUILD_SHOTS")  # a folder: save a picture of some steps there


def in_view(page: Page, button: Locator) -> bool:
    box = button.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
            and box["y"] + box["height"] <= size["height"])


def said(page: Page) -> str:
    return page.locator("#cl-build-step .cl-step-said").inner_text()


#: The step's picture as drawn: each block's faces in the painter's order (what comes later
#: is drawn over what comes before), whether it is the new block (marked) or drawn
#: see-through; and, in the page's pixels, the new block, the "▲ Table screen" mark, the
#: words, the picture and the board (on a phone, the viewport).
PICTURE = """() => {
  const svg = document.querySelector("#cl-build-step svg.cl-3d");
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const board = document.querySelector("#board");
  return {
    blocks: [...svg.querySelectorAll("g[data-block]")].map((g) => ({
      id: g.dataset.block, marked: g.classList.contains("marked"),
      clear: g.classList.contains("see-through"),
      faces: [...g.querySelectorAll(":scope > polygon")].map((p) => p.getAttribute("points"))})),
    new: box(svg.querySelector("g.marked")), mark: box(svg.querySelector(".cl-side")),
    words: box(document.querySelector("#cl-build-step .cl-step-said")), picture: box(svg),
    board: board ? box(board) : [0, 0, innerWidth, innerHeight],
  };
}"""


def corners(points: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in points.split())]


def overlap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Whether two convex faces share some area, not only an edge (the separating axis
    test, with the drawing's rounding to a tenth)."""
    for poly in (a, b):
        for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
            nx, ny = y1 - y0, x0 - x1
            pa, pb = [nx * x + ny * y for x, y in a], [nx * x + ny * y for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= 0.05 * (abs(nx) + abs(ny)):
                return False
    return True


def inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - 0.5 and inner[1] >= outer[1] - 0.5
            and inner[2] <= outer[2] + 0.5 and inner[3] <= outer[3] + 0.5)


def step_in_view(page: Page, n: int) -> list[str]:
    """What keeps step ``n`` from being seen (nothing: it is): the new block outside the
    board or under a face drawn after it and not see-through, the table screen's mark out
    of view; on a phone, the words or the picture outside the first screen."""
    svg = page.locator("#cl-build-step svg.cl-3d")
    expect(svg.locator("g.marked")).to_have_count(1)
    expect(svg.locator(".cl-side")).to_have_count(1)
    drawn = page.evaluate(PICTURE)
    wrong = []
    if not inside(drawn["new"], drawn["board"]):
        wrong.append(f"new block {drawn['new']} outside the board {drawn['board']}")
    if not inside(drawn["mark"], drawn["board"]):
        wrong.append(f"the table screen's mark {drawn['mark']} out of view")
    at = next(i for i, block in enumerate(drawn["blocks"]) if block["marked"])
    new = [corners(face) for face in drawn["blocks"][at]["faces"]]
    for block in drawn["blocks"][at + 1:]:
        if not block["clear"] and any(overlap(corners(face), mine)
                                      for face in block["faces"] for mine in new):
            wrong.append(f"new block under {block['id']}")
    if not page.locator("#board").count():  # a phone: the step on its first screen
        wrong += [f"{what} {drawn[what]} off the first screen" for what in ("words", "picture")
                  if not inside(drawn[what], drawn["board"])]
        if page.evaluate("scrollY"):
            wrong.append("scrolled")
    return [f"step {n}: {w}" for w in wrong]


def walk(page: Page, label: str, problems: list[str] | None = None) -> list[str]:
    """Every step with Next, then back to the first with Back: the words of each step, the
    buttons in view at each; what keeps each step from being seen goes to ``problems``."""
    step = page.locator("#cl-build-step")
    total = int(re.search(r"of (\d+)", step.locator(".cl-step-count").inner_text()).group(1))
    seen = []
    for n in range(1, total + 1):
        expect(step.locator(".cl-step-count")).to_have_text(f"Step {n} of {total}")
        if problems is not None:
            problems += [f"{label} {w}" for w in step_in_view(page, n)]
        text = said(page)
        assert not CODES.search(page.locator("#cl-build").inner_text()), text
        assert not seen or text != seen[-1], (n, text)
        seen.append(text)
        if SHOTS and n in (1, 4, 14, total):
            page.screenshot(path=f"{SHOTS}/{label}-{n}.png")
        for rel in ("prev", "next"):
            assert in_view(page, step.locator(f"[data-go={rel}]")), (label, n, rel)
        if n < total:
            step.locator("[data-go=next]").click()
    expect(step.locator("[data-go=next]")).to_be_disabled()
    for n in range(total - 1, 0, -1):
        step.locator("[data-go=prev]").click()
        expect(step.locator(".cl-step-count")).to_have_text(f"Step {n} of {total}")
        assert said(page) == seen[n - 1]
        assert in_view(page, step.locator("[data-go=next]")), (label, n)
    expect(step.locator("[data-go=prev]")).to_be_disabled()
    return seen


def test_the_screen_and_a_phone_walk_every_build_step(browser, live_server):
    _table, screen, phones = start_table(browser, live_server, "climbers", NAMES, SEED)
    expect(screen.locator("#cl-build-step")).to_contain_text("Step 1 of")
    words = {}
    hidden: list[str] = []
    for width, height in ((1280, 800), (1920, 1080)):
        screen.set_viewport_size({"width": width, "height": height})
        words[width] = walk(screen, f"screen-{width}", hidden)
        # The step's picture takes the height the board leaves (it was 187 × 145 px).
        picture = screen.locator("#cl-build-step svg.cl-3d").bounding_box()
        print(f"{width} x {height}: the step's picture is "
              f"{picture['width']:.0f} x {picture['height']:.0f} px")
        assert picture["height"] >= 0.5 * height
    assert words[1280] == words[1920]

    # Any phone leads the build, from its player's side: here the second player's, with
    # the table screen on their left.
    phone = phones[1]
    phone.locator("[data-go=lead]").click()
    expect(phone.locator("#cl-build-step")).to_contain_text("Step 1 of")
    phone.locator(".cl-sitting button[value=left]").click()
    expect(phone.locator("#cl-build")).to_contain_text("with the table screen on your left")
    from_left = walk(phone, "phone", hidden)
    assert not hidden, hidden
    assert no_horizontal_scroll(phone)
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the picture
    step = phone.locator("#cl-build-step")
    assert in_view(phone, step.locator("[data-go=next]"))  # pinned to the top
    step.locator("[data-go=next]").click()
    expect(step.locator(".cl-step-count")).to_have_text(re.compile(r"Step 2 of"))
    assert in_view(phone, step.locator("[data-go=prev]"))
    step.locator("[data-go=prev]").click()
    # each step's buttons name the step they go to: the next tap waits for this one's page
    expect(step.locator(".cl-step-count")).to_have_text(re.compile(r"Step 1 of"))
    assert from_left[1] != words[1280][1]  # the second foundation, from another side
    assert "far side" in from_left[1] and "left side" in words[1280][1]
    for n in (2, 3):
        phone.locator("[data-go=next]").click()
        expect(phone.locator(".cl-step-count")).to_have_text(re.compile(f"Step {n} of"))
    phone.reload()  # the page's address keeps the step
    expect(phone.locator(".cl-step-count")).to_have_text(re.compile(r"Step 3 of"))
    phone.locator(".cl-sitting button[value=ahead]").click()  # a side changed keeps the step
    expect(phone.locator(".cl-step-count")).to_have_text(re.compile(r"Step 3 of"))
    expect(phone.locator("#cl-build")).to_contain_text("with the table screen ahead of you")


#: Where each block of the step's picture is drawn, in the page's pixels, and in which order
#: (the painter's: a block in front is drawn after the blocks behind it).
DRAWN = """() => {
  const svg = document.querySelector("#cl-build-step svg.cl-3d");
  const blocks = {};
  svg.querySelectorAll("g[data-block]").forEach((g, i) => {
    const r = g.getBoundingClientRect();
    blocks[g.dataset.block] = {i, l: r.left, r: r.right, b: r.bottom,
                               marked: g.classList.contains("marked")};
  });
  return blocks;
}"""
EDGE = 2.0  # px: two drawn edges that meet


def agrees(place: str, new: dict, named: list[dict]) -> list[str]:
    """What is wrong with the drawing of a step said as ``place`` (nothing: it agrees): the
    new block's drawn box against the boxes of the blocks the words name."""
    wrong = []
    if "against the left side" in place and not new["r"] <= named[0]["l"] + EDGE:
        wrong.append("not drawn left of the block named")
    if "against the right side" in place and not new["l"] >= named[0]["r"] - EDGE:
        wrong.append("not drawn right of the block named")
    if "against the near side" in place and not (new["i"] > named[0]["i"]
                                                 and new["b"] > named[0]["b"] + EDGE):
        wrong.append("not drawn in front of the block named")
    if "against the far side" in place and not new["i"] < named[0]["i"]:
        wrong.append("not drawn behind the block named")
    if place.startswith("On top of") and not all(
            new["i"] > block["i"] and min(new["r"], block["r"]) - max(new["l"], block["l"]) > EDGE
            for block in named):
        wrong.append("not drawn over the blocks named")
    flush = re.search(r"flush with ([^,]*)", place)
    edges = flush.group(1) if flush else ""
    left, right = min(b["l"] for b in named or [new]), max(b["r"] for b in named or [new])
    if "left" in edges and abs(new["l"] - left) > EDGE:
        wrong.append("left edges not drawn flush")
    if "right" in edges and abs(new["r"] - right) > EDGE:
        wrong.append("right edges not drawn flush")
    return wrong


def test_the_picture_draws_each_step_where_its_words_put_it_from_every_side(
        browser, live_server):
    """The step's picture looks straight from the builder's side: seen from each of the
    four sides, at every step, the new block is drawn left of the block its words put it
    against the left side of, in front of one it goes against the near side of, over the
    blocks it goes on top of, its edges flush where the words say so. A mirrored picture,
    or one from another side, draws the new block on the wrong side of these."""
    table, _screen, phones = start_table(browser, live_server, "climbers", NAMES, SEED)
    blocks = table.match.view_for(None)["blocks"]
    phone = phones[0]
    phone.locator("[data-go=lead]").click()
    step = phone.locator("#cl-build-step")
    svg = step.locator("svg.cl-3d")
    checked = 0
    for side in ("ahead", "left", "behind", "right"):
        phone.locator(f".cl-sitting button[value={side}]").click()
        phone.goto(re.sub(r"\?.*", "", phone.url) + "?step=1")
        expect(svg).to_have_attribute("data-view", side)
        with live_server["app"].test_request_context(), drawing_in("en"):
            words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
            steps = [words.step(blocks, n, side) for n in range(1, len(blocks) + 1)]
        for n, said in enumerate(steps, start=1):
            new = blocks[n - 1]["id"]
            expect(step.locator(".cl-step-count")).to_contain_text(f"Step {n} of")
            expect(svg.locator(f'g.marked[data-block="{new}"]')).to_have_count(1)
            expect(step.locator(".cl-step-place")).to_have_text(f"{said.place}.")
            drawn = phone.evaluate(DRAWN)
            assert set(drawn) == {block["id"] for block in blocks[:n]}, (side, n)
            wrong = agrees(said.place, drawn[new], [drawn[b] for b in said.named])
            assert not wrong, (side, n, said.place, wrong)
            checked += bool(said.named)
            if n < len(blocks):
                step.locator("[data-go=next]").click()
    assert checked == 4 * (len(blocks) - 1)


def test_the_screen_follows_the_step_a_phone_leads_to(browser, live_server):
    """A phone that leads the build pages with Back and Next: the table screen shows the
    same step, said and drawn from the screen's own side, and still pages by itself."""
    _table, screen, phones = start_table(browser, live_server, "climbers", NAMES, SEED)
    count = screen.locator("#cl-build-step .cl-step-count")
    expect(count).to_have_text(re.compile(r"Step 1 of"))
    phone = phones[1]
    phone.locator("[data-go=lead]").click()
    expect(phone.locator("#cl-build-step")).to_contain_text("Step 1 of")
    phone.locator(".cl-sitting button[value=left]").click()
    expect(phone.locator("#cl-build")).to_contain_text("with the table screen on your left")
    for n in (2, 3):
        phone.locator("#cl-build-step [data-go=next]").click()
        expect(phone.locator(".cl-step-count")).to_have_text(re.compile(f"Step {n} of"))
        expect(count).to_have_text(re.compile(f"Step {n} of"))
        expect(screen.locator("#cl-build-step svg.cl-3d g.cl-b")).to_have_count(n)
    phone.locator("#cl-build-step [data-go=prev]").click()
    expect(phone.locator(".cl-step-count")).to_have_text(re.compile(r"Step 2 of"))
    expect(count).to_have_text(re.compile(r"Step 2 of"))
    # the second foundation: "far side" from the phone's chair, "left side" from the screen's
    assert "far side" in said(phone)
    assert "left side" in said(screen) and said(screen) != said(phone)
    expect(screen.locator("#cl-build-step svg.cl-3d g.cl-b")).to_have_count(2)
    screen.locator("#cl-build-step [data-go=next]").click()  # the screen pages by itself
    expect(count).to_have_text(re.compile(r"Step 3 of"))
    expect(phone.locator(".cl-step-count")).to_have_text(re.compile(r"Step 2 of"))
