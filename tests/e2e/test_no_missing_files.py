"""No page asks for a file the companion does not have: Chromium's console stays free of
404s (and of any other failed request) on every kind of page, phone and table screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import GAME_IDS, GAMES_UNDER_TEST
from tests.e2e.phones import start_table

pytestmark = pytest.mark.e2e


def record_failures(page: Page, failures: list[str]) -> None:
    page.on("response", lambda r: r.status >= 400 and failures.append(f"{r.status} {r.url}"))
    page.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
            and failures.append(f"failed {r.url} {r.failure}"))
    page.on("console", lambda m: m.type == "error" and failures.append(f"console {m.text}"))


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_page_asks_for_a_missing_file(browser: Browser, live_server: dict[str, Any], game):
    failures: list[str] = []
    base = live_server["base"]
    home = browser.new_page()
    record_failures(home, failures)
    home.goto(base + "/")
    home.goto(f"{base}/rules/{game}")
    fewest = next(spec.min_players for spec in GAMES_UNDER_TEST if spec.id == game)
    names = ("Ana", "Ben", "Chloé")[:max(2, fewest)]
    table, screen, phones = start_table(browser, live_server, game, names, seed=3)
    expect(screen.locator("text=Start the game")).to_have_count(0)  # the start has loaded
    for page in (screen, *phones):
        record_failures(page, failures)
        page.reload()
        page.wait_for_load_state("networkidle")
    join = browser.new_page()
    record_failures(join, failures)
    join.goto(f"{base}/j/{table.code}")
    join.wait_for_load_state("networkidle")
    assert failures == []
