"""In 7th Heaven through the API and the pages: what the rules did shows in the log with its
rule, on every phone and on the table screen."""

from __future__ import annotations

import random
import re

from tests.conftest import ApiTable


def test_an_effect_shows_in_the_log_with_a_why_line(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4, seed=11)
    rng = random.Random(3)
    effects: list[dict] = []
    for _ in range(200):
        seat, moves = table.seat_to_move()
        assert table.post_move(seat, rng.choice(moves)).status_code == 200
        entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
        effects = [effect for entry in entries for effect in entry.get("effects", [])]
        if any("space" in effect for effect in effects):
            break
    event = next(effect for effect in effects if "space" in effect)
    link = f'href="/rules/seventh-heaven/{event["rule"]}"'
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    phone = client.get(f"/t/{table.code}/play").get_data(as_text=True)
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    for page in (phone, screen):
        log = page[page.index('id="log"'):]
        assert link in log and "Why: " in log
        assert re.search(r"\(space \d+\)", log)  # the space by its name and number
