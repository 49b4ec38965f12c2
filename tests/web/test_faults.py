"""Faults: a server killed at random moments, and the phone's everyday accidents.

The first test runs the real server (the Procfile's gunicorn) and SIGKILLs it while seats
play random legal moves and phones hold their websockets; the others are a phone's
accidents, one scenario each, on an in-process server. Each ends with one clear state,
asserted exactly. The long version is ``bench/faults.py``.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time

import pytest
import websocket
from werkzeug.serving import make_server

from companion.live import Connection
from companion.web.pushes import LATER, PHONE_LATER
from companion.web.services import services
from support.pushing import render_for
from support.server_process import FAULT_GAMES, FaultRun, read_stored, replayed_views, seq_of
from tests.conftest import ApiTable, bearer, make_app

pytestmark = pytest.mark.slow


# --- a server killed at random moments ------------------------------------------------


def test_a_server_killed_at_random_moments_loses_nothing_and_every_phone_comes_back(tmp_path):
    lines: list[str] = []
    with FaultRun(tmp_path, tables=len(FAULT_GAMES), seed=11, say=lines.append) as run:
        run.open_tables()
        run.play(0.8)  # a kill at a random moment
        run.play(0.5, in_flight=True)  # the moment a POST is on its way
        run.host_undo()  # an undo in the log, replayed after the next start
        run.kill_half_post()  # a POST whose body is half sent
        run.play(0.8)
        run.playing.set()
        time.sleep(0.5)
        run.finish()
        stored = {code: read_stored(run.server.database, code) for code in run.tables}
    assert run.problems == [], "\n".join(lines + run.problems)
    assert run.kills == 4
    phones = len(run.phones)
    assert phones == sum(players + 1 for _, players in FAULT_GAMES)  # seats and a screen
    assert run.checked["restarts"] == 4
    # A full, current view first on every connection: at the opening and after each kill.
    assert run.checked["reconnects"] == 5 * phones
    assert run.checked["half_posts"] == 1
    assert run.checked["undos"] == 4
    assert run.checked["cut"] >= 1  # some POSTs were under way when the server died
    assert sum(table.seq for table in stored.values()) >= 20
    assert all(table.seq >= 3 for table in stored.values()), "every game's table played"
    # Every acknowledged move is in the log once; the log holds nothing else but the
    # moves whose answer the kill cut off, the half-sent one and the host's undos.
    logged = {(code, seat, cmid) for code, table in stored.items()
              for _, seat, kind, _, cmid in table.entries if kind == "move"}
    acknowledged = {(s.code, s.seat, sent.client_move_id) for s in run.seats for sent in s.sent
                    if sent.acknowledged}
    cut_off = {(s.code, s.seat, sent.client_move_id) for s in run.seats for sent in s.sent
               if not sent.acknowledged and sent.answers[-1:] == ["cut"]}
    half = {(code, seat, cmid) for code, seat, cmid in logged if cmid.startswith("half-")}
    assert len(half) == 1
    assert acknowledged <= logged
    assert logged - acknowledged - half <= cut_off
    assert run.checked["acknowledged"] == len(acknowledged)
    # One host undo a table: one run of undo entries, the move the screen showed last and
    # any choice it could not see made after it (SkyRunner), taken back together.
    undos = {code: [seq for seq, _, kind, _, _ in table.entries if kind == "undo"]
             for code, table in stored.items()}
    assert all(seqs and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
               for seqs in undos.values()), undos


# --- a phone's accidents, on an in-process server -------------------------------------


@pytest.fixture
def live(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "faults.sqlite"),
                      "PUBLIC_HOST": "127.0.0.1", "RATE_BURST": 1e9})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(timeout=5)


def open_socket(address: str, code: str, token: str):
    return websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=5,
                                       origin=f"http://{address}",
                                       cookie=f"seat_{code}={token}")


def drain(ws, expect: bool = True, quiet: float = 0.15) -> list[str]:
    """Every message until the socket has been quiet for ``quiet`` seconds; when one is
    ``expect``-ed, the first may take up to 5 s (a first rendering compiles templates)."""
    messages: list[str] = []
    ws.settimeout(5 if expect else quiet)
    for _ in range(200):
        try:
            messages.append(ws.recv())
        except websocket.WebSocketTimeoutException:
            return messages
        ws.settimeout(quiet)
    raise AssertionError("the socket never went quiet")


def full_seqs(messages: list[str]) -> list[int]:
    return [seq for seq in map(seq_of, messages) if seq is not None]


UUID = re.compile(r'name="client_move_id" value="[0-9a-f]{32}"')


def normal(message: str) -> str:
    """A rendering without the fresh client_move_id that every confirm button gets."""
    return UUID.sub('name="client_move_id" value=""', message)


def rendering(app, code: str, seat: int) -> str:
    """What a phone of ``seat`` connecting now should receive first: its regions, those
    further down its page after the marker."""
    table = services(app).tables.get(code)
    with app.app_context():
        parts = render_for(table, Connection(None, code, seat, "en"))
        now = "".join(part.html for part in parts if part.id not in PHONE_LATER)
        later = "".join(part.html for part in parts if part.id in PHONE_LATER)
        return normal(now + LATER + later)


def phone_client(app, code: str, token: str):
    client = app.test_client()
    client.set_cookie(f"seat_{code}", token)
    return client


def phone_move(client, code: str, move, seq: int, client_move_id: str):
    """A tap on Confirm: the phone's form post."""
    return client.post(f"/t/{code}/move", data={
        "move": json.dumps(move), "seq": str(seq), "client_move_id": client_move_id})


def log_of(table: ApiTable) -> list[tuple[int, int, str]]:
    entries = table.client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    return [(entry["seq"], entry["seat"], entry["kind"]) for entry in entries]


def started(app, players: int = 2, seed: int = 3) -> ApiTable:
    return ApiTable.started(app.test_client(), game="seventh-heaven", players=players, seed=seed)


def wait_for(condition, limit: float = 5.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


def test_a_socket_dropped_mid_move_the_move_applies_once_and_a_reconnect_is_fresh(live):
    app, address = live
    table = started(app)
    code = table.code
    ws = open_socket(address, code, table.tokens[0])
    assert full_seqs(drain(ws)) == [0]
    hub = services(app).hub
    pipeline = services(app).pushes
    push = pipeline.push

    def drop_then_push(tbl, conn, version):  # the wifi goes while the move is being stored
        if conn.seat == 0 and tbl.match.seq == 1:
            ws.sock.shutdown(2)
        return push(tbl, conn, version)

    pipeline.push = drop_then_push  # type: ignore[method-assign]
    phone = phone_client(app, code, table.tokens[0])
    move = table.moves(0)[0]
    answer = phone_move(phone, code, move, 0, "tap-1")
    pipeline.push = push  # type: ignore[method-assign]
    assert answer.status_code == 200
    assert seq_of(answer.get_data(as_text=True)) == 1
    ws.close()
    wait_for(lambda: hub.connected_seats(code) == set())
    # The phone never heard back over its socket, so it sends the tap again: applied once.
    again = phone_move(phone, code, move, 0, "tap-1")
    assert again.status_code == 200
    assert seq_of(again.get_data(as_text=True)) == 1
    assert log_of(table) == [(1, 0, "move")]
    back = open_socket(address, code, table.tokens[0])
    messages = drain(back)
    assert seq_of(messages[0]) == 1
    assert normal(messages[0]) == rendering(app, code, 0)
    assert full_seqs(messages) == [1]
    assert hub.connected_seats(code) == {0}
    assert table.view(0)["seq"] == 1
    back.close()


def test_the_same_move_sent_twice_applies_once_and_the_second_answer_says_repeated(live):
    app, address = live
    table = started(app)
    code = table.code
    watcher = open_socket(address, code, table.tokens[1])
    assert full_seqs(drain(watcher)) == [0]
    move = table.moves(0)[0]
    body = {"move": move, "seq": 0, "client_move_id": "once"}
    first = table.client.post(f"/api/tables/{code}/moves", json=body,
                              headers=bearer(table.tokens[0])).get_json()
    second = table.client.post(f"/api/tables/{code}/moves", json=body,
                               headers=bearer(table.tokens[0])).get_json()
    assert (first["seq"], first["repeated"]) == (1, False)
    assert (second["seq"], second["repeated"]) == (1, True)
    assert second["view"] == first["view"] == table.view(0)["view"]
    # Both at once, from two threads: still once.
    move = table.moves(1)[0]
    barrier = threading.Barrier(2)
    answers = []

    def send():
        client = app.test_client()
        barrier.wait()
        answers.append(client.post(f"/api/tables/{code}/moves", headers=bearer(
            table.tokens[1]), json={"move": move, "seq": 1, "client_move_id": "race"}
        ).get_json())

    senders = [threading.Thread(target=send) for _ in range(2)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=5)
    assert sorted((a["seq"], a["repeated"]) for a in answers) == [(2, False), (2, True)]
    assert log_of(table) == [(1, 0, "move"), (2, 1, "move")]
    # The watching phone was told of the moves in order, none twice, ending on the newest.
    heard = full_seqs(drain(watcher))
    assert heard == sorted(set(heard)) and heard[-1] == 2
    watcher.close()


def test_a_move_from_a_screen_two_moves_old_is_refused_with_the_fresh_view(live):
    app, address = live
    table = started(app)
    code = table.code
    old_move = table.moves(0)[0]  # what seat 0's phone showed at seq 0
    assert table.post_move(0, table.moves(0)[-1], seq=0).status_code == 200
    seat, moves = table.seat_to_move()
    assert table.post_move(seat, moves[0], seq=1).status_code == 200
    views = {seat: table.view(seat) for seat in (0, 1, None)}
    watcher = open_socket(address, code, table.tokens[1])
    assert full_seqs(drain(watcher)) == [2]
    answer = table.client.post(f"/api/tables/{code}/moves", headers=bearer(table.tokens[0]),
                               json={"move": old_move, "seq": 0, "client_move_id": "old"})
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["error"]["rule"] == "table.stale"
    assert body["seq"] == 2
    assert body["view"] == views[0]["view"]
    # The phone's own form: 409 with its fresh partials and a notice.
    phone = phone_client(app, code, table.tokens[0])
    page = phone_move(phone, code, old_move, 0, "old-tap")
    assert page.status_code == 409
    text = page.get_data(as_text=True)
    assert seq_of(text) == 2
    assert 'id="notice"' in text
    # Nothing changed, and nobody was told of anything.
    assert {seat: table.view(seat) for seat in (0, 1, None)} == views
    assert log_of(table) == [(1, 0, "move"), (2, seat, "move")]
    assert drain(watcher, expect=False) == []
    watcher.close()


def test_a_phone_asleep_during_many_moves_wakes_to_one_full_current_view(live):
    app, address = live
    table = started(app, players=3, seed=5)
    code = table.code
    awake = open_socket(address, code, table.tokens[0])
    asleep = open_socket(address, code, table.tokens[1])
    assert full_seqs(drain(asleep)) == [0]
    asleep.close()  # the screen turns off: the socket is gone for ten minutes
    hub = services(app).hub
    wait_for(lambda: 1 not in hub.connected_seats(code))
    rng = random.Random(5)
    for seq in range(30):
        found = table.seat_to_move()
        assert found is not None
        seat, moves = found
        answer = table.post_move(seat, rng.choice(moves), seq=seq)
        assert answer.status_code == 200, answer.get_json()
    assert table.view(1)["seq"] == 30
    woken = open_socket(address, code, table.tokens[1])
    messages = drain(woken)
    assert normal(messages[0]) == rendering(app, code, 1)
    assert full_seqs(messages) == [30]  # one full view, the current one; no replay of 1…29
    assert all('id="seats"' in message for message in messages[1:])
    # The phone that stayed awake heard the moves in order, never an older one after a newer
    # one, and ends on the newest (moves quicker than its pushes come as one).
    heard = full_seqs(drain(awake))
    assert heard == sorted(set(heard)) and heard[0] == 0 and heard[-1] == 30
    assert hub.connected_seats(code) == {0, 1}
    awake.close()
    woken.close()


def test_one_seat_in_two_tabs_both_get_every_update(live):
    app, address = live
    table = started(app)
    code = table.code
    hub = services(app).hub
    tab_a = open_socket(address, code, table.tokens[0])
    tab_b = open_socket(address, code, table.tokens[0])
    other = open_socket(address, code, table.tokens[1])
    for ws in (tab_a, tab_b, other):
        assert full_seqs(drain(ws)) == [0]
    assert len([c for c in hub.connections(code) if c.seat == 0]) == 2
    # A move from tab A shows on both tabs, and on the other seat's phone.
    phone_a = phone_client(app, code, table.tokens[0])
    assert phone_move(phone_a, code, table.moves(0)[0], 0, "from-a").status_code == 200
    a_messages, b_messages = drain(tab_a), drain(tab_b)
    assert full_seqs(a_messages) == full_seqs(b_messages) == [1]
    # (the move's push; on a busy machine one tab may hear the other seat arrive late)
    moved_a, moved_b = ([m for m in messages if seq_of(m) is not None]
                        for messages in (a_messages, b_messages))
    assert normal(moved_a[0]) == normal(moved_b[0])
    assert full_seqs(drain(other)) == [1]
    # The other seat moves: both tabs hear it.
    assert table.post_move(1, table.moves(1)[0], seq=1).status_code == 200
    a_messages, b_messages = drain(tab_a), drain(tab_b)
    assert full_seqs(a_messages) == full_seqs(b_messages) == [2]
    assert normal(a_messages[-1]) == normal(b_messages[-1])
    # Closing one tab leaves the seat here, on the other.
    tab_b.close()
    wait_for(lambda: len([c for c in hub.connections(code) if c.seat == 0]) == 1)
    assert hub.connected_seats(code) == {0, 1}
    # No push says seat 0 went away (a push sends only the seats that changed).
    assert not any(re.search(r'id="seat-0".*?class="dot away"', m, re.S) for m in drain(other))
    seat, moves = table.seat_to_move()
    assert table.post_move(seat, moves[0], seq=2).status_code == 200
    assert full_seqs(drain(tab_a)) == [3]
    assert table.view(0)["seq"] == 3
    assert [seq for seq, _, _ in log_of(table)] == [1, 2, 3]
    tab_a.close()
    other.close()


def test_the_replay_check_can_fail(tmp_path):
    """The fault run's replay (the database file read directly, the game engine's setup and
    apply) gives the API's views, and other views for a log one move short."""
    app = make_app({"DATABASE": str(tmp_path / "replay.sqlite"),
                      "PUBLIC_HOST": "127.0.0.1", "RATE_BURST": 1e9})
    table = started(app, players=3, seed=9)
    rng = random.Random(9)
    for seq in range(6):
        seat, moves = table.seat_to_move()
        assert table.post_move(seat, rng.choice(moves), seq=seq).status_code == 200
    stored = read_stored(tmp_path / "replay.sqlite", table.code)
    assert stored.seq == 6
    views = replayed_views(stored)
    assert {seat: table.view(seat)["view"] for seat in (0, 1, 2, None)} == views
    stored.entries.pop()  # a log that lost its last move replays to another state
    assert replayed_views(stored)[seat] != views[seat]
