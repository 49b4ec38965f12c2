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


def test_an_api_body_nested_too_deep_is_a_400(client):
    response = client.post("/api/tables", data='{"game": "seventh-heaven", "players": 2, '
                           f'"options": {DEEP_OBJECT}}}', content_type="application/json")
    assert_too_deep(response, api=True)
    table = ApiTable(client, players=2).join_all()
    for path, token in (("moves", table.tokens[0]), ("start", table.host),
                        ("seats", None)):
        body = '{"move": ' + DEEP + ', "seq": 0, "client_move_id": "x", "name": "Z"}'
        response = client.post(f"/api/tables/{table.code}/{path}", data=body,
                               content_type="application/json",
                               headers=bearer(token) if token else {})
        assert_too_deep(response, api=True)
    assert table.view()["status"] == "lobby"


def test_a_shallow_body_still_reads(client):
    table = ApiTable(client, players=2, options={}).join_all()
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
