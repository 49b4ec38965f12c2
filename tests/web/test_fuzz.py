"""Hostile bodies on every API call: a clear 4xx, never a 500, never a changed table."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ApiTable, bearer
from tests.web.hostile_kit import LONE_SURROGATES

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20) | LONE_SURROGATES,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "card", "piece", "give", "take", "steps",
                                       "count", "cards", "move", "seq", "client_move_id",
                                       "name", "seat", "game", "players", "options"])
                      | st.text(max_size=8), children, max_size=5),
    max_leaves=12,
)
CALLS = ["moves", "seats", "start", "undo"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(call=st.sampled_from(CALLS), body=JSON, as_seat=st.booleans())
def test_any_json_body_is_refused_cleanly(client, call, body, as_seat):
    table = getattr(test_any_json_body_is_refused_cleanly, "table", None)
    if table is None or table.client is not client:
        table = ApiTable.started(client, game="seventh-heaven", players=2)
        test_any_json_body_is_refused_cleanly.table = table
    before = table.view(0)
    token = table.tokens[0] if as_seat else table.host
    response = client.post(f"/api/tables/{table.code}/{call}", data=json.dumps(body),
                           content_type="application/json", headers=bearer(token))
    assert response.status_code < 500
    if response.status_code >= 400:
        assert response.get_json()["error"]["rule"]
        assert table.view(0) == before
    elif call == "moves":
        # a random body that happened to be a legal move: take it back (no other call's
        # body can take one back: none stands)
        assert table.host_undo().status_code == 200


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON)
def test_creating_a_table_from_any_body(client, body):
    response = client.post("/api/tables", data=json.dumps(body),
                           content_type="application/json")
    assert response.status_code in (201, 400, 404, 422)
