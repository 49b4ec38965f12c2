"""One guest on the wifi against the other tables (issue 50): a connection that pipelines
requests, one address holding its cap of websockets, a body that never comes. The timed
ones run the real server (the Procfile's gunicorn and ``companion/worker.py``); the long
version, with figures, is ``bench/floods.py``."""

from __future__ import annotations

import html
import http.client
import json
import time

import pytest

from companion.config import OVER_CONNECTION_CAP, connections_per_address
from companion.web.clauses import clause_text
from companion.worker import BODY_SECONDS
from support.floods import (
    GUEST,
    PHONE,
    Held,
    Pipeline,
    hanging_body,
    join_and_play,
    open_socket,
    open_sockets,
    started_table,
    timed_while,
    until_closed,
)
from support.server_process import (
    ServerProcess,
    call_from,
    connect_from,
    request_from,
    seq_of,
)

#: The game at the tables: one of up to six, whose second seat can move as it starts.
GAME = "seventh-heaven"


def test_a_request_over_its_address_cap_is_refused_in_the_readers_language(client):
    page = client.get("/", environ_base={OVER_CONNECTION_CAP: True},
                      headers={"Accept-Language": "fr"})
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "10"
    assert clause_text(None, "table.too-many-connections", "fr") in html.unescape(
        page.get_data(as_text=True))
    call = client.get("/api/tables/ABCD/view", environ_base={OVER_CONNECTION_CAP: True})
    assert call.status_code == 503
    assert call.get_json()["error"]["rule"] == "table.too-many-connections"


@pytest.mark.slow
def test_a_table_is_answered_within_1_s_while_another_connection_pipelines_for_5_s(tmp_path):
    # gunicorn's master kills a worker it has not heard from for 3 s: a flood of 5 s must
    # not silence it.
    server = ServerProcess(tmp_path / "floods.sqlite",
                           env={"GUNICORN_CMD_ARGS": "--timeout 3"}).start()
    try:
        code, _, tokens = started_table(server.port, PHONE, GAME)

        def view() -> int:
            return request_from(server.port, "GET", f"/api/tables/{code}/view", None,
                                {"Authorization": f"Bearer {tokens[1]}"}, PHONE, 20)[0]

        # A page of the rules, then a code that finds no table (404s, soon 429s).
        for path in ("/rules/climbers", "/t/ZZZZ/screen"):
            flood = Pipeline(server.port, path, seconds=5)
            flood.start()
            time.sleep(0.5)
            times = timed_while(flood.is_alive, view)
            flood.join()
            assert flood.cut is None, f"{path}: the flood's connection was cut: {flood.cut}"
            assert sum(flood.statuses.values()) >= 100, (path, flood.statuses)
            answered = sorted(seconds for status, seconds in times if status == 200)
            assert len(answered) == len(times) >= 5, (path, times)
            assert answered[-2] < 1.0, (path, times)  # the slowest one aside
        log = (tmp_path / f"server-{server.port}.log").read_text()
        assert "WORKER TIMEOUT" not in log
    finally:
        server.stop()


def get_from(port: int, source: str, path: str, lang: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(source, 0))
    conn.request("GET", path, headers={"Accept-Language": lang})
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


@pytest.mark.slow
def test_a_second_address_joins_and_plays_while_one_address_holds_its_cap_of_sockets(
        tmp_path):
    cap = connections_per_address({})
    server = ServerProcess(tmp_path / "floods.sqlite").start()
    try:
        code, _, tokens = started_table(server.port, GUEST, GAME, players=6)
        seats = list(tokens.values())
        with Held() as held:
            outcomes, refusal = open_sockets(server.port, code, GUEST, seats, cap + 1, held)
            assert outcomes == {"held": cap, 503: 1}
            assert clause_text(None, "table.too-many-connections", "en") in html.unescape(
                refusal)
            page = get_from(server.port, GUEST, "/", "fr")
            assert (page.status, page.getheader("Retry-After")) == (503, "10")
            assert clause_text(None, "table.too-many-connections", "fr") in html.unescape(
                page.body.decode())

            steps = join_and_play(server.port, GAME)
            assert all(isinstance(seconds, float) for _, seconds in steps), steps
            assert len(steps) == 7, steps

            # A socket closed leaves room for another.
            held.close(held.sockets[0])
            deadline = time.monotonic() + 5
            while len(held.sockets) < cap and time.monotonic() < deadline:
                open_sockets(server.port, code, GUEST, seats, 1, held)
            assert len(held.sockets) == cap
            assert held.dropped == 0

            # Connections that say nothing wait for their request, then their refusal;
            # past twice the cap, one is closed at once.
            silent = [connect_from(server.port, GUEST) for _ in range(cap)]
            try:
                time.sleep(0.3)
                answer, closed_after = until_closed(connect_from(server.port, GUEST), 2)
                assert (answer, closed_after is not None) == (b"", True)
                silent[0].sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
                                  .encode())
                answer, closed_after = until_closed(silent[0], 4)
                assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
                assert closed_after is not None
            finally:
                for sock in silent:
                    sock.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_a_body_that_never_arrives_is_cut_off_and_the_websockets_stay(tmp_path):
    server = ServerProcess(tmp_path / "floods.sqlite").start()
    try:
        code, _, tokens = started_table(server.port, PHONE, GAME)
        phone = open_socket(server.port, code, PHONE, f"seat_{code}={tokens[1]}")
        assert seq_of(phone.recv()) == 0

        answer, closed_after = until_closed(hanging_body(server, code, tokens[0]),
                                            BODY_SECONDS + 10)
        assert closed_after is not None, "the request is still open"
        assert BODY_SECONDS - 1 < closed_after < BODY_SECONDS + 5
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer
        assert json.loads(body)["error"]["rule"] == "table.too-slow"

        # The phone's websocket, idle all along, still hears its table.
        status, listed = call_from(server.port, "GET", f"/api/tables/{code}/moves",
                                   token=tokens[0], source=PHONE)
        assert status == 200
        status, _ = call_from(server.port, "POST", f"/api/tables/{code}/moves", {
            "move": listed["moves"][0], "seq": 0, "client_move_id": "m1"}, tokens[0], PHONE)
        assert status == 200
        phone.settimeout(10)
        while seq_of(phone.recv()) != 1:
            pass
        phone.close()
    finally:
        server.stop()
