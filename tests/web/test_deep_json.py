"""JSON nested too deep, wherever the server reads JSON (an API body, ``?pick=``, ``item=``,
a move's form field), is refused with a 400 that says so, never a 500, and changes nothing."""

from __future__ import annotations

import pytest

from tests.conftest import ApiTable, bearer
from tests.web.hostile_kit import Seated, snapshot

DEEP = "[" * 990 + "]" * 990
DEEP_OBJECT = '{"a":' * 1500 + "1" + "}" * 1500


def assert_too_deep(response, api: bool = False):
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    if api:
        error = response.get_json()["error"]
        assert error["rule"] == "table.bad-request"
        assert "nested more than" in error["message"]
    else:
        assert "nested more than" in response.get_data(as_text=True)


def table_posts(app) -> list[str]:
    """Every API call that POSTs to a table, read from the app's own routes: one added
    later is checked without this test naming it (the undo, once left out of a list written
    by hand here, read its body with Flask's unbounded reader and answered 500)."""
    prefix = "/api/tables/<code>/"
    return sorted(rule.rule.removeprefix(prefix) for rule in app.url_map.iter_rules()
                  if rule.rule.startswith(prefix) and "POST" in (rule.methods or ()))


def test_an_api_body_nested_too_deep_is_a_400(app, client):
    response = client.post("/api/tables", data='{"game": "seventh-heaven", "players": 2, '
                           f'"options": {DEEP_OBJECT}}}', content_type="application/json")
    assert_too_deep(response, api=True)
    seated = Seated(app, "seventh-heaven")
    mover = seated.movers()[0]
    assert seated.api.post_move(mover, seated.table.match.moves_for(mover)[0]).status_code == 200
    before = seated.snapshot()
    body = ('{"move": ' + DEEP + ', "seq": 1, "client_move_id": "x", "name": "Z", '
            '"undo": 1, "to": 1, "last": 1}')
    paths = table_posts(app)
    assert {"moves", "rewind", "seats", "start", "undo"} <= set(paths)
    read = set()
    for path in paths:
        # whoever the call is for: the host, the seat that moved (who may take it back)
        for token in (seated.api.host, seated.tokens[mover]):
            response = client.post(f"/api/tables/{seated.code}/{path}", data=body,
                                   content_type="application/json", headers=bearer(token))
            if response.status_code == 403:  # not this caller's call: refused before reading
                continue
            assert_too_deep(response, api=True)
            read.add(path)
    assert read == set(paths)
    assert seated.snapshot() == before


def test_a_shallow_body_still_reads(client):
    table = ApiTable(client, game="seventh-heaven", players=2, options={}).join_all()
    assert table.start() == 0


@pytest.mark.parametrize("path", ["pick", "explain", "play"])
def test_a_pick_nested_too_deep_is_a_400(app, path):
    seated = Seated(app, "seventh-heaven")
    before = seated.snapshot()
    response = seated.phones[0].get(f"/t/{seated.code}/{path}", query_string={"pick": DEEP})
    assert_too_deep(response)
    assert seated.snapshot() == before


def test_an_item_and_a_move_nested_too_deep_are_a_400(app):
    seated = Seated(app, "seventh-heaven")
    before = snapshot(seated.table)
    phone = seated.phones[0]
    response = phone.get(f"/t/{seated.code}/pick",
                         query_string={"pick": "{}", "key": "cards", "item": DEEP})
    assert_too_deep(response)
    response = phone.post(f"/t/{seated.code}/move", data={"move": DEEP, "seq": "0",
                                                          "client_move_id": "deep"})
    assert_too_deep(response)
    assert snapshot(seated.table) == before
