"""The night's page in Chromium, on a phone (360 × 740, touch) and on a laptop's full HD
screen: every game of the night readable without a sideways scroll, each file downloaded
and read as its program would (BG Stats' JSON, a CSV, BGG's XML), the text for BGG shown;
printed, the night fits one A4 page; and a phone at game over downloads its own play."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import PHONE
from tests.e2e.phones import no_horizontal_scroll, seated_page
from tests.e2e.test_accessibility_browser import serious
from tests.web.test_exports import NIGHT, play_the_night

pytestmark = pytest.mark.e2e
#: The night: In 7th Heaven and SkyRunner (seats with colours) played to their ends, then
#: six quick games of the tests' High Card: eight games to print.
GAMES = (NIGHT[0], NIGHT[2], *(("high-card", ("Ana, María", "Bérénice"), seed)
                                for seed in range(6)))
SIZES = {"phone": PHONE, "laptop": {"viewport": {"width": 1920, "height": 1080}}}


def night_page(browser: Browser, base: str, night, size: str) -> Page:
    context = browser.new_context(accept_downloads=True, **SIZES[size])
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}
                         for table in night.tables.values()])
    page = context.new_page()
    page.goto(f"{base}/night")
    return page


def downloaded(page: Page, link, ending: str) -> str:
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename.endswith(f".{ending}")
    return Path(download.path()).read_text(encoding="utf-8")


@pytest.fixture
def night(live_server):
    return play_the_night(live_server["app"], GAMES)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_night_s_page_reads_and_downloads_each_file(browser, live_server, night, size):
    base = live_server["base"]
    page = night_page(browser, base, night, size)
    plays = page.locator("article.play")
    expect(plays).to_have_count(len(GAMES))
    assert no_horizontal_scroll(page)
    for article in (plays.first, plays.nth(1)):
        expect(article.locator("h2")).to_be_visible()
        expect(article.locator("tr.won").first).to_be_visible()
    expect(plays.nth(1).locator("th", has_text="Colour")).to_be_visible()
    assert not serious(page)

    exports = page.locator(".take-home .exports a")
    bgstats = json.loads(downloaded(page, exports.nth(0), "bgsplay"))
    assert len(bgstats["plays"]) == len(GAMES)
    rows = list(csv.DictReader(io.StringIO(downloaded(page, exports.nth(1), "csv")
                                           .lstrip("\ufeff"))))
    assert len(rows) == sum(len(names) for _, names, _ in GAMES)
    assert "Ana, María" in {row["player"] for row in rows}
    xml = ElementTree.fromstring(downloaded(page, exports.nth(2), "xml").encode())
    assert len(xml.findall("play")) == len(GAMES)
    # one game's own file, from its card
    first = plays.first.locator(".play-links a", has_text="BG Stats file")
    assert len(json.loads(downloaded(page, first, "bgsplay"))["plays"]) == 1

    exports.nth(3).click()
    expect(page).to_have_url(f"{base}/night/bgg")
    text = page.locator("textarea#bgg-text")
    expect(text).to_be_visible()
    assert text.input_value().startswith("In 7th Heaven, BoardGameGeek id 1914")
    assert no_horizontal_scroll(page)

    page.goto(f"{base}/night")
    plays.first.locator(".play-links a", has_text="The whole log").click()
    expect(page.locator("h1")).to_have_text("The whole log")
    page.locator("ol.log li.opens").first.click()  # a tap anywhere on the line
    expect(page.locator("h1")).to_have_text("This move")
    assert no_horizontal_scroll(page)


def test_the_night_prints_on_one_a4_page(browser, live_server, night):
    page = night_page(browser, live_server["base"], night, "laptop")
    page.emulate_media(media="print")
    expect(page.locator(".take-home")).to_be_hidden()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1


def test_a_phone_at_game_over_adds_its_own_play(browser, live_server, night):
    base = live_server["base"]
    table = night.tables["skyrunner"]
    phone = seated_page(browser, base, table, 0)
    take_home = phone.locator("#outcome details.take-home")
    expect(take_home).to_be_visible()
    take_home.locator("summary").tap()
    link = take_home.locator("a", has_text="Open in BG Stats")
    expect(link).to_have_attribute("href", re.compile(
        r"^https://app\.bgstatsapp\.com/createPlay\.html\?data=%7B"))
    with phone.expect_download() as info:
        take_home.locator("a", has_text="BG Stats file").tap()
    exported = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    (play,) = exported["plays"]
    assert [s["role"] for s in play["playerScores"]] == ["Red", "Blue", "Yellow"]
    assert no_horizontal_scroll(phone)
