"""A phone that opens the companion's bare address: a big field for the table's 4 letters
first, the host's "start a table" below it; a right code (in any case) leads to the seats,
a wrong one is answered in the field's place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from support.browser import PHONE
from tests.conftest import ApiTable

pytestmark = pytest.mark.e2e


def test_a_phone_joins_by_typing_the_code(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="seventh-heaven", players=3)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/")
    field = page.locator("#join-code")
    expect(field).to_be_in_viewport(ratio=1)
    box = field.bounding_box()
    assert box["height"] >= 48 and float(field.evaluate(
        "el => getComputedStyle(el).fontSize").removesuffix("px")) >= 32
    start = page.get_by_role("link", name="Hosting? Start a table on this laptop")
    expect(start).to_be_visible()
    assert start.bounding_box()["y"] > box["y"]  # below the field

    field.fill("zzzz")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#join-problem")).to_contain_text("no table with that code")
    expect(page.locator("#join-problem")).to_be_in_viewport()
    expect(page.locator("#join-code")).to_have_value("zzzz")

    page.locator("#join-code").fill(table.code.lower())
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/j/{table.code}$"))
    expect(page.locator("body")).to_contain_text("Seat 3")  # the free seat, to take
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_name_over_the_limit_typed_on_a_phone_is_refused_and_kept(browser, live_server):
    """The field takes the whole name as typed; the refusal says the limit in view, and the
    name is there to shorten, never cut without a word."""
    app, base = live_server["app"], live_server["base"]
    table = ApiTable(app.test_client(), game="seventh-heaven", players=3)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/j/{table.code}")
    expect(page.locator("#name-limit")).to_have_text("Up to 24 characters.")
    typed = "Maximilian-Alexander Wolff"  # 26 characters
    field = page.get_by_label("Your name")
    field.tap()
    field.press_sequentially(typed)
    expect(field).to_have_value(typed)
    page.get_by_role("button", name="Join the table").tap()
    expect(page.locator("#notice")).to_have_text("Give a name of 1 to 24 characters.")
    expect(page.locator("#notice")).to_be_in_viewport()
    field = page.get_by_label("Your name")
    expect(field).to_have_value(typed)
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill(typed[:20])
    page.get_by_role("button", name="Join the table").tap()
    expect(page).to_have_url(re.compile(rf"/t/{table.code}/play$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
