"""One guest on the wifi against everyone else (tests/web/test_floods.py, bench/floods.py):
a keep-alive connection that pipelines requests, websockets held open from one address, a
body that never comes; and the phones of other tables, timed meanwhile.

Each side comes from a loopback address of its own (Linux routes all of 127.0.0.0/8 to
this machine), as each device on the wifi has its own: the server's limits count by
address.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, BinaryIO

import websocket

from support.server_process import (
    ServerProcess,
    call_from,
    connect_from,
    post_half,
    request_from,
    seq_of,
)

#: The hostile guest's device.
GUEST = "127.0.0.2"
#: A phone at another table.
PHONE = "127.0.0.3"
#: A newcomer who joins a table and plays while the guest floods.
NEWCOMER = "127.0.0.4"


def read_answer(stream: BinaryIO) -> int:
    """Read one HTTP/1.1 answer whole (its length given, or chunked) off ``stream``, where
    more may follow; its status."""
    line = stream.readline()
    if not line:
        raise EOFError("the server closed the connection")
    status = int(line.split()[1])
    length, chunked = 0, False
    while (header := stream.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "transfer-encoding":
            chunked = "chunked" in value.lower()
    if not chunked:
        stream.read(length)
        return status
    while size := int(stream.readline().split(b";")[0], 16):
        stream.read(size + 2)
    while stream.readline() not in (b"\r\n", b"\n", b""):
        pass  # the trailer
    return status


class Pipeline(threading.Thread):
    """One keep-alive connection from ``source`` that keeps ``depth`` requests for ``path``
    sent ahead of their answers (HTTP pipelining) for ``seconds``."""

    def __init__(self, port: int, path: str, seconds: float, source: str = GUEST,
                 depth: int = 8) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.seconds = port, path, seconds
        self.source, self.depth = source, depth
        #: How many answers of each status came.
        self.statuses: Counter[int] = Counter()
        #: Why the connection ended before its time, if it did.
        self.cut: str | None = None

    def run(self) -> None:
        request = f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode()
        end = time.monotonic() + self.seconds
        with connect_from(self.port, self.source, timeout=30) as sock, \
                sock.makefile("rb") as stream:
            try:
                sock.sendall(request * self.depth)
                while time.monotonic() < end:
                    self.statuses[read_answer(stream)] += 1
                    sock.sendall(request)
            except (OSError, EOFError, ValueError) as error:
                self.cut = repr(error)


def timed_while(going: Callable[[], bool], ask: Callable[[], Any],
                gap: float = 0.2) -> list[tuple[Any, float]]:
    """``ask()`` again and again while ``going()``, ``gap`` seconds apart: each answer (or
    the error it raised) with the seconds it took."""
    times = []
    while going():
        started = time.monotonic()
        try:
            answer = ask()
        except (OSError, websocket.WebSocketException) as error:
            answer = error
        times.append((answer, time.monotonic() - started))
        time.sleep(gap)
    return times


def open_socket(port: int, code: str, source: str, cookie: str = "",
                timeout: float = 10) -> websocket.WebSocket:
    """A websocket to table ``code``'s page from ``source`` (a seat's, with its cookie, or
    the table screen's)."""
    return websocket.create_connection(
        f"ws://127.0.0.1:{port}/t/{code}/ws", timeout=timeout,
        origin=f"http://127.0.0.1:{port}", cookie=cookie,
        socket=connect_from(port, source, timeout))


class Held(threading.Thread):
    """Websockets held open as phones hold them: what the server sends is read and its
    pings answered (it closes a socket that leaves a ping unanswered until the next)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.sockets: list[websocket.WebSocket] = []
        #: Sockets the server closed while they were held.
        self.dropped = 0
        self._selector = selectors.DefaultSelector()
        self._halt = threading.Event()

    def __enter__(self) -> Held:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._halt.set()
        self.join(timeout=5)
        while self.sockets:
            self.close(self.sockets[-1])

    def add(self, ws: websocket.WebSocket) -> None:
        self.sockets.append(ws)
        self._selector.register(ws.sock, selectors.EVENT_READ, ws)

    def close(self, ws: websocket.WebSocket) -> None:
        self.sockets.remove(ws)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(ws.sock)
        with contextlib.suppress(Exception):
            ws.close(timeout=0.1)

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                ready = self._selector.select(0.1)
            except (OSError, ValueError):
                continue
            for key, _ in ready:
                try:
                    key.data.recv_data_frame(True)  # answers a ping with its pong
                except (OSError, websocket.WebSocketException):
                    self.dropped += 1
                    with contextlib.suppress(KeyError, ValueError):
                        self._selector.unregister(key.fileobj)


def open_sockets(port: int, code: str, source: str, tokens: list[str], count: int,
                 held: Held, seconds: float = 120) -> tuple[Counter[Any], str]:
    """Up to ``count`` websockets to table ``code`` from ``source``, one after another, for
    at most ``seconds``, each as a seat of ``tokens`` in turn (each seat has its own
    allowance of requests), kept in ``held``: how many of each outcome ("held", the status
    of a refused handshake, "closed" for a connection closed unanswered), and the body of
    the first refusal."""
    outcomes: Counter[Any] = Counter()
    refusal = ""
    end = time.monotonic() + seconds
    while (tried := sum(outcomes.values())) < count and time.monotonic() < end:
        try:
            cookie = f"seat_{code}={tokens[tried % len(tokens)]}"
            held.add(open_socket(port, code, source, cookie))
            outcomes["held"] += 1
        except websocket.WebSocketBadStatusException as error:
            outcomes[error.status_code] += 1
            refusal = refusal or (error.resp_body or b"").decode(errors="replace")
        except (OSError, websocket.WebSocketException):
            outcomes["closed"] += 1
    return outcomes, refusal


def started_table(port: int, source: str, game: str, players: int = 2,
                  seed: int = 7) -> tuple[str, str, dict[int, str]]:
    """A started table of ``game`` created by the laptop (127.0.0.1), every seat taken
    from ``source``: its code, host token and seat tokens."""
    status, created = call_from(port, "POST", "/api/tables",
                                {"game": game, "players": players, "seed": seed})
    assert status == 201, created
    code, host = created["code"], created["host_token"]
    tokens = {}
    for seat in range(players):
        status, joined = call_from(port, "POST", f"/api/tables/{code}/seats",
                                   {"name": f"P{seat}", "seat": seat}, source=source)
        assert status == 201, joined
        tokens[seat] = joined["token"]
    status, answer = call_from(port, "POST", f"/api/tables/{code}/start", {"first_seat": 0},
                               host)
    assert status == 200, answer
    return code, host, tokens


def join_and_play(port: int, game: str, source: str = NEWCOMER,
                  timeout: float = 5) -> list[tuple[str, float | str]]:
    """A newcomer's evening, from ``source``: the home page; a table of two of ``game``
    (one whose second seat has a move once it starts) the laptop creates and sits at; a
    seat taken there, the phone's websocket, the game started by the host, a move made and
    its push on the phone. Each step with its seconds, or what went wrong; it stops at the
    first that fails."""
    steps: list[tuple[str, float | str]] = []
    table: dict[str, str] = {}
    ws: websocket.WebSocket | None = None

    def home() -> str | None:
        status, _ = request_from(port, "GET", "/", None, {}, source, timeout)
        return None if status == 200 else f"answered {status}"

    def laptop() -> str | None:
        status, created = call_from(port, "POST", "/api/tables", {
            "game": game, "players": 2, "seed": 3}, timeout=timeout)
        if status != 201:
            return f"answered {status} {created}"
        table.update(code=created["code"], host=created["host_token"])
        status, joined = call_from(port, "POST", f"/api/tables/{table['code']}/seats",
                                   {"name": "Ana", "seat": 0}, timeout=timeout)
        return None if status == 201 else f"answered {status} {joined}"

    def sit() -> str | None:
        status, joined = call_from(port, "POST", f"/api/tables/{table['code']}/seats",
                                   {"name": "Ben", "seat": 1}, source=source, timeout=timeout)
        if status != 201:
            return f"answered {status} {joined}"
        table["token"] = joined["token"]
        return None

    def connect() -> str | None:
        nonlocal ws
        code = table["code"]
        ws = open_socket(port, code, source, f"seat_{code}={table['token']}", timeout)
        return None if seq_of(ws.recv()) == 0 else "the first message has no seq 0"

    def start() -> str | None:
        status, answer = call_from(port, "POST", f"/api/tables/{table['code']}/start",
                                   {"first_seat": 1}, table["host"], timeout=timeout)
        return None if status == 200 else f"answered {status} {answer}"

    def move() -> str | None:
        path = f"/api/tables/{table['code']}/moves"
        status, listed = call_from(port, "GET", path, token=table["token"], source=source,
                                   timeout=timeout)
        if status != 200 or not listed["moves"]:
            return f"no move to make: {status} {listed}"
        status, answer = call_from(port, "POST", path, {
            "move": listed["moves"][0], "seq": listed["seq"], "client_move_id": "m1"},
            table["token"], source, timeout)
        return None if status == 200 else f"answered {status} {answer}"

    def pushed() -> str | None:
        assert ws is not None
        while seq_of(ws.recv()) != 1:
            pass
        return None

    try:
        for name, act in (("the home page", home), ("a table the laptop sits at", laptop),
                          ("a seat taken", sit), ("the phone's websocket", connect),
                          ("the game started", start), ("a move made", move),
                          ("the move's push", pushed)):
            started = time.monotonic()
            try:
                wrong = act()
            except (OSError, websocket.WebSocketException, ValueError) as error:
                wrong = repr(error)
            steps.append((name, wrong if wrong is not None else time.monotonic() - started))
            if wrong is not None:
                break
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close(timeout=0.1)
    return steps


def hanging_body(server: ServerProcess, code: str, token: str) -> socket.socket:
    """A move's POST whose headers and half its body are sent, then nothing."""
    body = {"move": {"type": "pass"}, "seq": 0, "client_move_id": "never"}
    return post_half(server, f"/api/tables/{code}/moves", body, token)


def until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float | None]:
    """What the server answers on ``sock`` until it closes it, and after how many seconds
    (None: still open after ``limit`` seconds)."""
    started = time.monotonic()
    received = b""
    while (left := limit - (time.monotonic() - started)) > 0:
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except TimeoutError:
            break
        except OSError:
            data = b""
        if not data:
            return received, time.monotonic() - started
        received += data
    return received, None
