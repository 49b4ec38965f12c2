"""The game's record in Chromium, on phones (360 × 740, touch): a tap on a line of the log
opens "This move" in each game, with the table just before and just after it as the server
stored it (The Climbers' tower drawn in 3-D from the player's side) and the rules the move
was held to, each with the rulebook's sentence; another seat's secret is nowhere in its
HTML; and the host, from a phone, rewinds a long game to before its first move from the
whole log."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.web.services import services
from support.browser import PHONE
from tests.e2e.phones import no_horizontal_scroll, seated_page
from tests.e2e.test_accessibility_browser import serious
from tests.web.hostile_kit import card_ids, data_cards, move_card_ids
from tests.web.test_record import GAMES, pictured, playing, stored, stored_around
from tests.web.test_rewind import effective

pytestmark = pytest.mark.e2e
#: A finger's tap target, in CSS pixels.
FINGER = 44


@pytest.mark.parametrize("game", GAMES)
def test_this_move_from_a_phone_shows_the_table_around_it_and_why_it_was_allowed(
        browser, live_server, game):
    app, base = live_server["app"], live_server["base"]
    table = playing(app.test_client(), game)
    code = table.code
    phone = seated_page(browser, base, table, 1)
    lines = phone.locator("#log li.opens")
    expect(lines.first).to_be_visible()
    line = lines.nth(1)
    assert line.bounding_box()["height"] >= FINGER
    number = int(line.get_attribute("id").removeprefix("log-"))
    said = " ".join(line.inner_text().replace("This move", "", 1).split())  # its tap's words
    line.tap()
    expect(phone).to_have_url(f"{base}/t/{code}/play/moves/{number}")
    expect(phone.locator("h1")).to_have_text("This move")
    assert " ".join(phone.locator(".record-line li").inner_text().split()) == said
    assert no_horizontal_scroll(phone)

    _, before, after = stored_around(app, code, number, 1)
    for at, view in (("before", before), ("after", after)):
        picture = phone.locator(f".moment-board[data-at={at}]")
        expect(picture).to_be_visible()
        assert pictured(game, picture.inner_html()) == stored(game, view), at
    if game == "climbers":  # drawn by the browser, from this player's side
        for at in ("before", "after"):
            expect(phone.locator(f"[data-at={at}] svg.cl-3d[data-view=me] polygon").first) \
                .to_be_attached()
    # No card beyond those of the table around the move and the move as seat 1 may see it.
    item = services(app).tables.get(code).match.log_for(1)[number - 1]
    assert data_cards(phone.content()) <= \
        card_ids(before) | card_ids(after) | move_card_ids(item["move"])
    assert not serious(phone)

    rules = phone.locator(".checked-rules > li")
    count = rules.count()
    assert count >= 2
    for index in range(count):
        rule = rules.nth(index)
        assert rule.locator("blockquote").inner_text().strip()
        assert rule.locator("a.rule-title").bounding_box()["height"] >= 32
    first = rules.first.locator("a.rule-title")
    title = first.inner_text()
    first.tap()
    expect(phone).to_have_url(re.compile(rf"/rules/{game}/[\w.-]+\?table={code}$"))
    expect(phone.locator("h1")).to_have_text(title)


def test_a_skyrunner_choice_is_nowhere_in_another_phones_this_move(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = playing(app.test_client(), "skyrunner", played=0)
    live = services(app).tables.get(table.code)
    choice = next(move for move in table.moves(0) if move["type"] == "choose")
    assert table.post_move(0, choice).status_code == 200
    assert live.match.state["phase"] == "choose"  # not revealed yet
    hands = {card for seat in (0, 2) for card in live.match.state["hands"][str(seat)]}

    phone = seated_page(browser, base, table, 1)
    phone.locator("#log li.opens", has_text="has chosen a card").tap()
    expect(phone.locator(".record-line")).to_contain_text("has chosen a card")
    page = phone.content()
    assert f'data-card="{choice["card"]}"' not in page
    assert not data_cards(page) & hands  # nor a card of another seat's hand
    own = seated_page(browser, base, table, 0)
    own.locator("#log li.opens").first.tap()
    expect(own.locator(".record-line")).to_contain_text("chose")
    expect(own.locator(".record-line")).not_to_contain_text("has chosen a card")


def test_the_host_rewinds_a_long_game_to_before_its_first_move(browser, live_server):
    app, base = live_server["app"], live_server["base"]
    table = playing(app.test_client(), "seventh-heaven", played=60, players=2)
    assert len(effective(app.test_client(), table)) == 60
    context = browser.new_context(**PHONE)  # the host on a phone of their own (a host link)
    context.add_cookies([{"name": f"host_{table.code}", "value": table.host, "url": base}])
    host = context.new_page()
    host.goto(f"{base}/t/{table.code}/screen")
    host.locator("a[data-whole-log]").tap()
    expect(host.locator("h1")).to_have_text("The whole log")
    expect(host.locator("#log-1")).to_have_count(0)
    host.locator("a[rel=next]").tap()
    expect(host.locator("#log-1")).to_be_visible()
    assert no_horizontal_scroll(host) and not serious(host)
    rewind = host.locator("#log-1 a.rewind")
    assert rewind.bounding_box()["height"] >= FINGER
    rewind.tap()
    expect(host.locator("h1")).to_have_text("Take back these 60 moves for everyone?")
    host.locator("button[data-rewind]").tap()
    expect(host).to_have_url(f"{base}/t/{table.code}/screen")
    expect(host.locator("#log .undo")).to_have_count(12)  # the newest lines: each a take-back
    assert effective(app.test_client(), table) == []
