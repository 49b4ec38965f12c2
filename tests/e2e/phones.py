"""Driving phones through the pages, the way players do, for every game's browser test."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE

#: Counts the phone's calls to the vibration and wake lock APIs (headless Chromium has
#: neither a motor nor a screen to keep on).
RECORD_DEVICE_CALLS = """
window.__vibrations = 0; window.__wakeLocks = 0;
navigator.vibrate = () => { window.__vibrations += 1; return true; };
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: async () => { window.__wakeLocks += 1; return {released: false}; }}});
"""


def open_phone(browser: Browser, join_url: str, name: str, seat: int) -> Page:
    context = browser.new_context(**PHONE)
    context.add_init_script(RECORD_DEVICE_CALLS)
    page = context.new_page()
    page.goto(join_url)
    page.fill("input[name=name]", name)
    page.check(f"input[name=seat][value='{seat}']")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/play$"))
    expect(page.locator("#status")).to_contain_text("Waiting for the host")
    return page


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def take_turn(page: Page) -> None:
    """Tap through the picker on this phone: a playable card, then the first choice each
    time, ticking as many cards as asked in a multiple choice, then Confirm."""
    picker = page.locator("#picker")
    playable = page.locator("#private .cardbtn.playable")
    if playable.count():
        playable.first.click()
        expect(picker).to_have_attribute("data-step", "1")
    for _ in range(8):
        confirm = picker.locator("button[data-confirm-move]")
        if confirm.count():
            confirm.click()
            return
        step = int(picker.get_attribute("data-step"))
        boxes = picker.locator("input[type=checkbox]")
        if boxes.count():
            wanted = int(re.search(r"(\d+)", picker.locator("h2").inner_text()).group(1))
            for index in range(wanted):
                boxes.nth(index).check()
            picker.locator("button[type=submit]").click()
        else:
            picker.locator("button.option").first.click()
        expect(picker).to_have_attribute("data-step", str(step + 1))
    raise AssertionError("the picker never reached Confirm")


def seq_of(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-seq"))
