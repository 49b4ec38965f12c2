"""The Climbers' rebuild of a fallen tower is the whole table's moment (issue 44, point 3):
begun on a phone or the host's table screen, it refuses every move, with its reason in the
reader's language, until "The tower stands again" ends it for everyone, and play goes on
from the same position."""

from __future__ import annotations

import html

from tests.conftest import ApiTable, make_app

GAME, SEED = "climbers", 3


def playing(app) -> ApiTable:
    table = ApiTable.started(app.test_client(), game=GAME, players=2, seed=SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    return table


def device(app, cookie: str, token: str):
    client = app.test_client()
    client.set_cookie(cookie, token)
    return client


def test_a_move_is_refused_while_the_tower_is_rebuilt_and_accepted_after(app):
    table = playing(app)
    phone = device(app, f"seat_{table.code}", table.tokens[1])
    screen = device(app, f"host_{table.code}", table.host)
    view = table.view()["view"]
    move = table.moves(0)[0]

    begun = phone.post(f"/t/{table.code}/extra/rebuild/begin")
    assert begun.status_code == 303
    assert begun.headers["Location"].endswith(f"/t/{table.code}/play/extra/rebuild")

    refused = table.post_move(0, move)
    assert refused.status_code == 422, refused.get_json()
    error = refused.get_json()["error"]
    assert error["rule"] == "cl.rebuild.under-way"
    assert error["message"].startswith("The tower is being rebuilt: no move until")
    french = table.client.post(
        f"/api/tables/{table.code}/moves", headers={
            "Authorization": f"Bearer {table.tokens[0]}", "Accept-Language": "fr"},
        json={"move": move, "seq": table.view(0)["seq"], "client_move_id": "fr-1"})
    assert french.get_json()["error"]["message"].startswith("La tour est en reconstruction")
    other = device(app, f"seat_{table.code}", table.tokens[0])
    assert "The tower is being rebuilt" in html.unescape(
        other.get(f"/t/{table.code}/play").get_data(as_text=True))
    shown = screen.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert 'id="cl-build-step"' in shown and "/extra/rebuild/end" in shown

    ended = screen.post(f"/t/{table.code}/extra/rebuild/end", data={"on": "screen"})
    assert ended.status_code == 303
    assert ended.headers["Location"].endswith(f"/t/{table.code}/screen")
    assert table.view()["view"] == view  # the same position, the same turn
    assert table.post_move(0, move).status_code == 200


def test_only_a_seated_phone_or_the_host_begins_a_rebuild(app):
    table = playing(app)
    stranger = app.test_client().post(f"/t/{table.code}/extra/rebuild/begin")
    assert stranger.status_code == 403
    assert table.post_move(0, table.moves(0)[0]).status_code == 200


def test_a_restart_keeps_the_table_in_its_rebuild(app):
    table = playing(app)
    phone = device(app, f"seat_{table.code}", table.tokens[1])
    assert phone.post(f"/t/{table.code}/extra/rebuild/begin").status_code == 303
    move = table.moves(0)[0]
    # The tower still lies on the table: the server started again says so too.
    again = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    table.client.application = again
    refused = table.post_move(0, move)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["rule"] == "cl.rebuild.under-way"
    screen = device(again, f"host_{table.code}", table.host)
    assert screen.post(f"/t/{table.code}/extra/rebuild/end",
                       data={"on": "screen"}).status_code == 303
    assert table.post_move(0, move).status_code == 200
