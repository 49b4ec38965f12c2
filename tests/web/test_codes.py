"""Codes that cannot run out: creating tables until none is free is refused at once and
every other table goes on answering; idle tables give their codes back after the times
``companion.tables.Retirement`` documents, their games kept for the night's scoreboard."""

from __future__ import annotations

import random
import threading
import time

import pytest

import companion.tables
from companion.web.services import services
from tests.conftest import ApiTable, bearer, make_app
from tests.web.test_api import play_to_end

BODY = {"game": "high-card", "players": 2}


@pytest.fixture
def small(tmp_path):
    """Four codes in all: AA, AC, CA, CC."""
    return make_app({"DATABASE": str(tmp_path / "codes.sqlite"), "RATE_BURST": 1e9,
                     "CODE_ALPHABET": "AC", "CODE_LENGTH": 2})


def create(client):
    return client.post("/api/tables", json=BODY)


def in_time(call, seconds: float = 5.0):
    """``call()``'s answer, or a failure if it takes longer than ``seconds`` (a server that
    froze holding the tables' lock)."""
    answer = []
    thread = threading.Thread(target=lambda: answer.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert answer, f"no answer within {seconds} s"
    return answer[0]


@pytest.mark.timed
def test_using_up_the_codes_refuses_the_next_table_and_every_table_answers(small):
    client = small.test_client()
    codes = {create(client).get_json()["code"] for _ in range(4)}
    assert codes == {"AA", "AC", "CA", "CC"}
    started = time.monotonic()
    response = in_time(lambda: create(client))
    assert response.status_code == 503
    assert response.get_json()["error"]["rule"] == "table.no-free-code"
    assert time.monotonic() - started < 2
    for code in codes:
        assert in_time(lambda c=code: client.get(f"/api/tables/{c}/view")).status_code == 200
        assert in_time(lambda c=code: client.get(f"/j/{c}")).status_code == 200
    page = client.post("/tables", data={"game": "high-card", "players": "2"})
    assert page.status_code == 503 and "code" in page.get_data(as_text=True)


def test_idle_tables_give_their_codes_back_and_keep_their_games(small, monkeypatch):
    client = small.test_client()
    clock = [time.time()]
    monkeypatch.setattr(companion.tables, "now", lambda: clock[0])
    finished = ApiTable.started(client, game="high-card", players=2, seed=3)
    play_to_end(finished, random.Random(2))
    lobby = ApiTable(client, game="high-card", players=2)
    playing = ApiTable.started(client, game="high-card", players=2)
    busy = ApiTable(client, game="high-card", players=2)
    tables = services(small).tables
    assert create(client).status_code == 503
    night = tables.plays_tonight(12)
    assert [play.code for play in night] == [finished.code]
    # an hour later the finished table gives its code back; nothing else does
    clock[0] += 3600 + 1
    assert client.post(f"/api/tables/{busy.code}/seats", json={"name": "Ana"}).status_code \
        == 201
    assert tables.retire_idle(force=True) == [finished.code]
    assert client.get(f"/api/tables/{finished.code}/view").status_code == 404
    kept = tables.plays_tonight(12)  # still on the night's scoreboard, under its old code
    assert [(play.code, play.no, play.seats) for play in kept] == \
        [(play.code, play.no, play.seats) for play in night]
    renewed = create(client).get_json()
    assert renewed["code"] == finished.code
    start = client.post(f"/api/tables/{renewed['code']}/start",
                        headers=bearer(finished.host))
    assert start.get_json()["error"]["rule"] == "table.host-only"  # the old host is no one
    # two hours: the lobby nobody joined; six: the game left half-way
    clock[0] += 3600
    assert tables.retire_idle(force=True) == [lobby.code]
    clock[0] += 4 * 3600
    retired = tables.retire_idle(force=True)
    assert playing.code in retired and busy.code in retired
    for table in (lobby, playing):
        assert client.get(f"/api/tables/{table.code}/view").status_code == 404


def test_a_request_holding_a_retired_table_changes_nothing(small, monkeypatch):
    client = small.test_client()
    clock = [time.time()]
    monkeypatch.setattr(companion.tables, "now", lambda: clock[0])
    lobby = ApiTable(client, game="high-card", players=2)
    tables = services(small).tables
    held = tables.get(lobby.code)
    clock[0] += 2 * 3600 + 1
    assert tables.retire_idle(force=True) == [lobby.code]
    with pytest.raises(companion.tables.TableError) as refused:
        tables.join(held, "Ana", 0)
    assert refused.value.rule == "table.unknown-table"
    assert tables.store.seats(lobby.code) == {}
