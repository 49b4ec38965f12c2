"""Building the drawn start tower in Chromium, on the table screen at 1280 × 800 and
1920 × 1080 and on a 360 × 740 phone that leads the build: every step, with Next and then
Back, says a new block and place, names no block code, and keeps Back and Next inside the
viewport."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Locator, Page, expect

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


def walk(page: Page, label: str) -> list[str]:
    """Every step with Next, then back to the first with Back: the words of each step, the
    buttons in view at each."""
    step = page.locator("#cl-build-step")
    total = int(re.search(r"of (\d+)", step.locator(".cl-step-count").inner_text()).group(1))
    seen = []
    for n in range(1, total + 1):
        expect(step.locator(".cl-step-count")).to_have_text(f"Step {n} of {total}")
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
    for width, height in ((1280, 800), (1920, 1080)):
        screen.set_viewport_size({"width": width, "height": height})
        words[width] = walk(screen, f"screen-{width}")
        # The step's picture takes the height the board leaves (it was 187 × 145 px).
        picture = screen.locator("#cl-build-step svg.cl-tower").bounding_box()
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
    from_left = walk(phone, "phone")
    assert no_horizontal_scroll(phone)
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the picture
    step = phone.locator("#cl-build-step")
    assert in_view(phone, step.locator("[data-go=next]"))  # pinned to the top
    step.locator("[data-go=next]").click()
    expect(step.locator(".cl-step-count")).to_have_text(re.compile(r"Step 2 of"))
    assert in_view(phone, step.locator("[data-go=prev]"))
    step.locator("[data-go=prev]").click()
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
