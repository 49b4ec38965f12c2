"""Live updates over real websockets: a push carries only the regions a change touched, the
mover's request never waits for the pushes, a slow phone holds up nobody and gets the newest
state rather than a backlog, and the socket is compressed."""

from __future__ import annotations

import base64
import re
import socket
import threading

import pytest
import websocket
from werkzeug.serving import make_server

from companion.live import Connection, Part, changes
from tests.conftest import ApiTable, make_app

SEQ = re.compile(r'id="status"[^>]*data-seq="(\d+)"')


@pytest.fixture
def server(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "pushes.sqlite"), "PUBLIC_HOST": "127.0.0.1",
                    "RATE_BURST": 1e9})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


def connect(address: str, code: str, token: str | None = None):
    cookie = f"seat_{code}={token}" if token else ""
    return websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=5,
                                       origin=f"http://{address}", cookie=cookie)


def receive_until(ws, needle: str) -> str:
    for _ in range(20):
        message = ws.recv()
        if needle in message:
            return message
    raise AssertionError(f"{needle!r} never came")


def seated(app, players: int = 4) -> ApiTable:
    table = ApiTable(app.test_client(), players=players, seed=7).join_all()
    table.start(first_seat=0)
    return table


def test_a_push_carries_only_the_regions_the_move_changed(server):
    app, address = server
    table = seated(app)
    watcher = connect(address, table.code, table.tokens[2])
    screen = connect(address, table.code)
    first = receive_until(watcher, 'id="log"')
    for region in ("status", "notice", "private", "picker", "undo", "outcome", "board",
                   "seats", "log"):
        assert f'id="{region}"' in first  # a new connection gets everything
    receive_until(screen, 'id="night"')
    table.post_move(0, table.moves(0)[0])
    pushed = receive_until(watcher, 'data-seq="1"')
    assert 'id="board"' in pushed and 'id="log-1"' in pushed  # the pieces moved; a new line
    assert 'afterbegin:#log' in pushed  # the line goes on top of the log already there
    for unchanged in ('id="private"', 'id="picker"', 'id="outcome"', 'id="log"'):
        assert unchanged not in pushed  # seat 2's hand, its picker, the list itself
    on_screen = receive_until(screen, 'id="screen-head"')
    assert 'id="night"' not in on_screen and 'id="host"' not in on_screen
    watcher.close()
    screen.close()


def test_an_item_changed_or_gone_is_swapped_or_removed_alone():
    conn = Connection(None, "ABCD", 0, "en")
    before = Part("log", "<ol id=log>2 1</ol>", (("log-2", "<li id=log-2>b</li>"),
                                                ("log-1", "<li id=log-1>a</li>")))
    assert changes(conn, [before]) == before.html
    after = Part("log", "<ol id=log>3 2</ol>", (("log-3", "<li id=log-3>c</li>"),
                                               ("log-2", "<li id=log-2>b, taken back</li>")))
    sent = changes(conn, [after])
    assert sent == ('<template hx-swap-oob="afterbegin:#log"><li id=log-3>c</li></template>'
                    '<li hx-swap-oob="outerMorph" id=log-2>b, taken back</li>'
                    '<template id="log-1" hx-swap-oob="delete"></template>')
    assert changes(conn, [after]) == ""


def test_a_slow_phone_delays_nobody_and_then_gets_the_newest_state_not_a_backlog(server):
    app, address = server
    table = seated(app)
    phones = {seat: connect(address, table.code, table.tokens[seat]) for seat in (1, 2)}
    screen = connect(address, table.code)
    for ws in (*phones.values(), screen):
        receive_until(ws, 'id="log"')
    hub = app.extensions["hub"]
    slow = next(conn for conn in hub.connections(table.code) if conn.seat == 2)
    stuck, release = threading.Event(), threading.Event()
    send = slow.ws.send

    def stuck_send(text: str) -> None:  # a phone whose wifi has stalled
        stuck.set()
        release.wait(10)
        send(text)

    slow.ws.send = stuck_send
    for seq in range(3):
        seat, moves = table.seat_to_move()
        assert table.post_move(seat, moves[0], seq=seq).status_code == 200  # never waits
        assert stuck.wait(5)
        # Everyone else has the move while seat 2's phone is still stuck on the first one.
        receive_until(phones[1], f'data-seq="{seq + 1}"')
        receive_until(screen, f'data-seq="{seq + 1}"')
    release.set()
    heard = [int(SEQ.search(m).group(1)) for m in (phones[2].recv(), phones[2].recv())]
    assert heard == [1, 3]  # the push it was stuck on, then the newest: no 2
    for ws in (*phones.values(), screen):
        ws.close()


def test_the_socket_is_compressed(server):
    app, address = server
    table = seated(app)
    host, port = address.split(":")
    key = base64.b64encode(b"0123456789abcdef").decode()
    request = (f"GET /t/{table.code}/ws HTTP/1.1\r\nHost: {address}\r\n"
               f"Origin: http://{address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += raw.recv(4096)
    status, *headers = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
    assert " 101 " in status
    extensions = [h for h in headers if h.lower().startswith("sec-websocket-extensions:")]
    assert extensions and "permessage-deflate" in extensions[0]
