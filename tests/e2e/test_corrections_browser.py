"""The host's corrections ("The table differs…") through the host's pages, in Chromium, for
each game: the correction's line in every viewer's log (the table screen, a phone in
English and one in French), the correction replayed after the server restarts on the same
database, undone through the host's screen with the position before back; and an
impossible correction refused with its reason in words, the table unchanged."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import ApiTable
from tests.e2e.phones import seated_page
from tests.web.test_corrections import CASES, heuchel_meuchel_table, playing

pytestmark = pytest.mark.e2e


#: Per game with a piece to set: an impossible correction of it, made through the page.
IMPOSSIBLE = {
    "seventh-heaven": lambda c: {**c, "space": 0},  # where it is already
    "skyrunner": lambda c: {**c, "level": 0, "lane": 3},  # off the building
    "climbers": lambda c: {**c, "to": "table"},  # where it is already
}


def piece_case(game: str) -> Callable[[Any], tuple[ApiTable, dict, dict]]:
    """A started table of ``game`` and its correction from the web tests' cases, with the
    impossible one (``IMPOSSIBLE``)."""
    def make(client):
        table = playing(client, game)
        correction = CASES[game][2]
        impossible = IMPOSSIBLE[game](correction)
        return table, correction, impossible
    return make


def stack_case(client) -> tuple[ApiTable, dict, dict]:
    """A Heuchel & Meuchel table past its set-up, a stack's correction, and the same stack
    set on row 13, a goal row no stack's top card stands on."""
    table, correction = heuchel_meuchel_table(client)
    return table, correction, {**correction, "to": 13}


def stack_words(c: dict) -> tuple[str, str]:
    return (f"on row {c['to']}, as on the table (the companion had it on row {c['row']}).",
            f"sur la rangée {c['to']}, comme sur la table (le compagnon l’avait sur la "
            f"rangée {c['row']}).")


#: Per game: the table and its corrections, the form a correction is made in, where the
#: view has the corrected thing, its log line's words (English, French) and the refusal of
#: the impossible one.
GAMES = {
    "climbers": (piece_case("climbers"),
                 lambda c: f"form[data-correct-figure='{c['seat']}']",
                 CASES["climbers"][3], lambda c: CASES["climbers"][4:],
                 "This figure already stands there here: nothing to correct."),
    "seventh-heaven": (piece_case("seventh-heaven"),
                       lambda c: f"form[data-correct-piece='{c['piece']}']",
                       CASES["seventh-heaven"][3], lambda c: CASES["seventh-heaven"][4:],
                       "red is already on space 0 here: nothing to correct."),
    "skyrunner": (piece_case("skyrunner"),
                  lambda c: f"form[data-correct-climber='{c['seat']}']",
                  CASES["skyrunner"][3], lambda c: CASES["skyrunner"][4:],
                  "Level 0, lane 3 is no place to hang"),
    "heuchel-meuchel": (stack_case,
                        lambda c: f"form[data-correct-stack='{c['column']}-{c['row']}']",
                        lambda view: view["board"], stack_words,
                        "This stack’s top card stands from its start to the row under its"
                        " goal"),
}


def correct_through_the_page(screen: Page, form: str, correction: dict) -> None:
    """From the table screen, the host's link to "The table differs…", and the piece's form
    filled in as the host would: its select or number fields set, then "Set it there"."""
    screen.locator("#host a[data-correct]").click()
    expect(screen.locator("h1")).to_have_text("The table differs from the companion?")
    found = screen.locator(form)
    for key, value in correction.items():
        field = found.locator(f"[name=c_{key}]")
        if field.get_attribute("type") == "hidden":
            expect(field).to_have_value(str(value))
        elif field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    found.locator("button[type=submit]").click()


def view_of(live_server, table: ApiTable) -> dict:
    client = live_server["app"].test_client()
    return client.get(f"/api/tables/{table.code}/view").get_json()["view"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_correction_through_the_hosts_page_is_logged_replayed_and_undone(
        browser, live_server, game):
    make, form, where, words, refusal = GAMES[game]
    base = live_server["base"]
    table, correction, impossible = make(live_server["app"].test_client())
    english, french = words(correction)
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    screen = laptop.new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    phones = {"en": seated_page(browser, base, table, 1),
              "fr": seated_page(browser, base, table, 2, lang="fr")}
    before = where(view_of(live_server, table))

    correct_through_the_page(screen, form(correction), correction)
    expect(screen).to_have_url(re.compile(rf"/t/{table.code}/screen$"))
    expect(screen.locator("#log")).to_contain_text(english)
    expect(phones["en"].locator("#log")).to_contain_text(english)
    expect(phones["fr"].locator("#log")).to_contain_text(french)
    after = where(view_of(live_server, table))
    assert after != before

    # The server starts again on the same database: the correction is replayed.
    live_server["restart"]()
    assert where(view_of(live_server, table)) == after
    for page in (screen, *phones.values()):
        page.reload()
    expect(screen.locator("#log")).to_contain_text(english)
    expect(phones["en"].locator("#log")).to_contain_text(english)
    expect(phones["fr"].locator("#log")).to_contain_text(french)

    # The host undoes it from the table screen, naming it: the position before comes back.
    undo = screen.locator("#host-undo")
    undo.locator("summary").click()
    expect(undo.locator(".named")).to_contain_text(english)
    undo.locator("button[type=submit]").click()
    expect(screen.locator("#log")).to_contain_text("The host took back: ")
    expect(phones["fr"].locator("#log")).to_contain_text("L’hôte a repris :")
    assert where(view_of(live_server, table)) == before

    # An impossible correction: refused in words, nothing changed.
    unchanged = view_of(live_server, table)
    screen.goto(f"{base}/t/{table.code}/screen")
    correct_through_the_page(screen, form(impossible), impossible)
    expect(screen.locator(".refusal")).to_contain_text(refusal)
    assert view_of(live_server, table) == unchanged


def test_a_block_is_set_right_on_a_phone_by_its_look_and_the_screens_side(
        browser, live_server):
    """The Climbers' page on a host's phone (360 × 740): no sideways scroll, a block found
    by its look, set one square away from the screen by its form's selects."""
    base = live_server["base"]
    table = playing(live_server["app"].test_client(), "climbers")
    phone = browser.new_context(viewport={"width": 360, "height": 740})
    phone.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    page = phone.new_page()
    page.goto(f"{base}/t/{table.code}/correct")
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    page.wait_for_function(fits)  # once the tower is drawn and fitted
    found = page.locator("details[data-correct-block='C7']")
    expect(found.locator("summary")).to_have_text(
        "the violet-topped cube on level 2, next to the dark blue-topped double cube")
    found.locator("summary").click()
    chosen = found.locator("select[name=c_y]")
    chosen.select_option(label="1 square away from the screen")
    assert chosen.input_value() == "-3"
    assert page.evaluate(fits)
    found.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/t/{table.code}/screen$"))
    expect(page.locator("#log")).to_contain_text("The host set the violet-topped cube on level 2")
    moved = next(b for b in view_of(live_server, table)["blocks"] if b["id"] == "C7")
    assert (moved["x"], moved["y"]) == (4, -3)
