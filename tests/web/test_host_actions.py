"""Host actions and what follows them: a finished game is reopened by the host alone; the
host's undo and freeing a seat each open a confirmation first; the rules page leads back to
where its reader came from."""

from __future__ import annotations

import random

from tests.conftest import ApiTable, bearer
from tests.web.test_api import play_to_end

GAME = "high-card"


def finished(client) -> ApiTable:
    table = ApiTable.started(client, game=GAME, players=2, seed=3)
    play_to_end(table, random.Random(2))
    return table


def undo(client, table: ApiTable, token: str):
    return client.post(f"/api/tables/{table.code}/undo", headers=bearer(token))


def test_only_the_host_reopens_a_finished_game(client):
    table = finished(client)
    last = client.get(f"/api/tables/{table.code}/log").get_json()["entries"][-1]
    refused = undo(client, table, table.tokens[last["seat"]])
    assert refused.status_code == 403
    assert refused.get_json()["error"]["rule"] == "table.undo-finished"
    assert table.view()["status"] == "over"
    phone = client.get(f"/t/{table.code}/play",
                       headers={"Cookie": f"seat_{table.code}={table.tokens[last['seat']]}"})
    assert 'action="/t/' + table.code + '/undo"' not in phone.get_data(as_text=True)
    assert table.host_undo().status_code == 200
    assert table.view()["status"] == "playing"


def test_host_actions_open_a_confirmation_first(client):
    table = ApiTable.started(client, game="seventh-heaven", players=3, seed=7)
    table.post_move(0, table.moves(0)[0])
    client.set_cookie(f"host_{table.code}", table.host)
    page = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    seats = page.split('id="seats"')[1].split("</ul>")[0]
    assert "/free" not in seats  # no button on the seat tiles
    for action, opener in (("/host-undo", 'id="host-undo"'), ("/free", 'id="host-free"')):
        details = page.split(opener)[1].split("</details>")[0]
        assert action in details and "<summary>" in details
    assert "Free Ben’s seat" in page


def test_the_rules_lead_back_to_the_screen_or_the_phone(client):
    table = ApiTable(client, game="seventh-heaven", players=3)
    base = f"/rules/seventh-heaven?table={table.code}"
    screen = client.get(f"{base}&back=screen").get_data(as_text=True)
    assert f'href="/t/{table.code}/screen"' in screen
    assert f'href="/t/{table.code}/play"' in client.get(base).get_data(as_text=True)
    assert 'href="/t/' not in client.get("/rules/seventh-heaven?table=ZZZZ&back=screen") \
        .get_data(as_text=True)
