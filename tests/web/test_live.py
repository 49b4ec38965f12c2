"""Live updates over real websockets: full view on connect, a push per move, presence."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import pytest
import websocket
from werkzeug.serving import make_server

from companion.web.services import services
from tests.conftest import ApiTable, make_app


@pytest.fixture
def server(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "live.sqlite"),
                      "PUBLIC_HOST": "127.0.0.1"})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


def connect(address: str, code: str, cookie: str = "", origin: str | None = None):
    return websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=5,
                                       origin=origin or f"http://{address}", cookie=cookie)


def receive_until(ws, needle: str, limit: float = 5.0) -> str:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        message = ws.recv()
        if needle in message:
            return message
    raise AssertionError(f"{needle!r} never came")


def test_each_socket_gets_its_own_view_on_connect_and_after_a_move(server):
    app, address = server
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3)
    phones = [connect(address, table.code, f"seat_{table.code}={table.tokens[s]}")
              for s in range(3)]
    screen = connect(address, table.code)
    hands = {}
    for seat, ws in enumerate(phones):
        first = receive_until(ws, 'id="private"')
        hands[seat] = {c["id"] for c in table.view(seat)["view"]["hand"]}
        for other in range(3):
            if other != seat:
                foreign = hands.get(other, set())
                assert not any(f'data-card="{card}"' in first for card in foreign)
    assert 'id="private"' not in receive_until(screen, 'id="board"')

    move = table.moves(0)[0]
    assert table.post_move(0, move).status_code == 200
    for ws in phones:
        pushed = receive_until(ws, 'data-seq="1"')
        assert 'hx-swap-oob="outerMorph"' in pushed
    receive_until(screen, 'data-seq="1"')
    for ws in (*phones, screen):
        ws.close()


def test_a_closed_phone_shows_as_away(server):
    app, address = server
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    screen = connect(address, table.code)
    receive_until(screen, 'id="seats"')
    phone = connect(address, table.code, f"seat_{table.code}={table.tokens[1]}")
    receive_until(screen, "dot here")
    phone.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        message = screen.recv()
        if 'id="seat-1"' in message and "dot away" in message:
            break
    else:
        raise AssertionError("the seat never showed as away")
    screen.close()


def test_a_socket_from_another_origin_is_refused(server):
    app, address = server
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2)
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        connect(address, table.code, origin="http://evil.example")
    assert refused.value.status_code == 403


def test_a_message_up_the_socket_gets_a_clear_notice(server):
    app, address = server
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    ws = connect(address, table.code, f"seat_{table.code}={table.tokens[0]}")
    receive_until(ws, 'id="private"')
    ws.send('{"move": "hack"}')
    assert "only listens" in receive_until(ws, 'id="notice"')
    ws.close()


def seat_presence(message: str, seat: int) -> str | None:
    """"here" or "away" for ``seat`` in a push of the seats, None if not in this push."""
    found = re.search(rf'data-seat="{seat}".*?class="dot (here|away)"', message, re.S)
    return found.group(1) if found else None


def test_a_seat_open_in_two_tabs_is_here_until_both_are_closed(server):
    app, address = server
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=3)
    hub = services(app).hub
    cookie = f"seat_{table.code}={table.tokens[1]}"
    tabs = [connect(address, table.code, cookie) for _ in range(2)]
    for tab in tabs:
        receive_until(tab, 'id="private"')
    screen = connect(address, table.code)
    assert seat_presence(receive_until(screen, 'id="seats"'), 1) == "here"

    def seat_connections() -> int:
        return sum(conn.seat == 1 for conn in hub.connections(table.code))

    def settles(reached: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 5
        while not reached():
            assert time.monotonic() < deadline, what
            time.sleep(0.05)

    tabs[0].close()
    settles(lambda: seat_connections() == 1, "the closed tab is never let go")
    assert 1 in hub.connected_seats(table.code)  # the other tab is open: still at the table
    tabs[1].close()
    settles(lambda: 1 not in hub.connected_seats(table.code), "seat 1 never away")
    assert seat_presence(receive_until(screen, 'class="dot away"'), 1) == "away"
    screen.close()
