"""A part that cannot be drawn never takes the table down (``companion.web.unshown``): with
High Card's ``glitch`` option its board, its picker's question and each move's line raise
while drawing, and the table still answers every page, takes moves, pushes, takes back and
lets the host undo."""

from __future__ import annotations

import json
import logging

import pytest

from companion.live import Connection
from companion.web.services import services
from support.pushing import render_for
from tests.conftest import ApiTable

pytestmark = pytest.mark.server_errors  # the failures are provoked on purpose

LINE_EN, LINE_FR = "This line could not be shown.", "Cette ligne n’a pas pu être affichée."
PART_EN, PART_FR = ("This part of the table could not be shown.",
                    "Cette partie de la table n’a pas pu être affichée.")


def glitched(client) -> ApiTable:
    table = ApiTable(client, game="high-card", players=2, seed=5,
                     options={"glitch": True, "take_back": True}).join_all()
    table.start(first_seat=0)
    return table


def tap(client, table: ApiTable, seat: int, move_id: str):
    """The seat's phone makes its first legal move, as the picker's Confirm posts it."""
    client.set_cookie(f"seat_{table.code}", table.tokens[seat])
    return client.post(f"/t/{table.code}/move", data={
        "move": json.dumps(table.moves(seat)[0]), "seq": table.view(seat)["seq"],
        "client_move_id": move_id})


def test_a_line_and_a_region_that_raise_leave_a_playable_table(app, caplog):
    client = app.test_client()
    table = glitched(client)
    live = services(app).tables.get(table.code)
    caplog.set_level(logging.ERROR, logger="companion.web.unshown")

    answer = tap(client, table, 0, "first")
    assert answer.status_code == 200 and live.match.seq == 1
    page = answer.get_data(as_text=True)
    assert LINE_EN in page and PART_EN in page
    assert 'id="log-1"' in page and 'id="board"' in page and 'id="picker"' in page

    # Every page answers, in its viewer's language; the other parts are drawn as ever.
    screen = client.get(f"/t/{table.code}/screen", headers={"Accept-Language": "fr"})
    assert screen.status_code == 200
    html = screen.get_data(as_text=True)
    assert LINE_FR in html and PART_FR in html and LINE_EN not in html
    assert "Ana" in html and 'id="seats"' in html

    # The pushes go on for every viewer.
    for conn in (Connection(None, table.code, 1, "en"), Connection(None, table.code, None, "fr")):
        with app.app_context():
            parts = {part.id: part.html for part in render_for(live, conn)}
        assert "log-1" in parts["log"] and parts["seats"]

    # The next player moves, takes the move back, and the host undoes the first one.
    assert tap(client, table, 1, "second").status_code == 200 and live.match.seq == 2
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    assert client.post(f"/t/{table.code}/undo").status_code == 200
    assert live.match.seq == 3 and len(live.match.steps) == 1
    client.set_cookie(f"host_{table.code}", table.host)
    undone = client.post(f"/t/{table.code}/host-undo",
                         data={"undo": live.match.steps[-1].entry.seq})
    assert undone.status_code == 303 and not live.match.steps
    assert client.get(f"/t/{table.code}/play").status_code == 200

    # The server's log says what failed, at which table and seq, for whom.
    messages = [record.getMessage() for record in caplog.records]
    assert any(f"log line 1 of table {table.code} at seq 1 for seat 0" in m for m in messages)
    assert any(f"region board of table {table.code} at seq" in m for m in messages)
    assert all(record.exc_info for record in caplog.records)


def test_a_failure_is_logged_once_however_often_it_is_drawn(app, caplog):
    client = app.test_client()
    table = glitched(client)
    caplog.set_level(logging.ERROR, logger="companion.web.unshown")
    tap(client, table, 0, "first")
    caplog.clear()
    for _ in range(3):
        assert client.get(f"/t/{table.code}/screen").status_code == 200
    board = [r for r in caplog.records if "region board" in r.getMessage()]
    assert len(board) <= 1


def test_a_picker_that_cannot_be_drawn_says_so_in_its_place(app, caplog):
    client = app.test_client()
    table = glitched(client)
    caplog.set_level(logging.ERROR, logger="companion.web.unshown")
    client.set_cookie(f"seat_{table.code}", table.tokens[0])
    answer = client.get(f"/t/{table.code}/pick", query_string={"pick": "{}"},
                        headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert PART_EN in answer.get_data(as_text=True)
    assert any(f"region picker of table {table.code}" in record.getMessage()
               for record in caplog.records)
