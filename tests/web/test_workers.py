"""Several server processes serving the same tables (``companion serve --workers N --redis``,
docs/scaling.md): two real servers (the Procfile's gunicorn) on two loopback ports share one
store and one Redis, started here from Debian's ``redis-server``. The store is the arbiter,
a SQLite file (one machine) or PostgreSQL (several machines, started here from Debian's
``postgresql``); Redis carries a table's code and revision, and each process pushes to its
own sockets what it reads back from the store."""

from __future__ import annotations

import http.client
import random
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from companion.peers import CHANNEL
from companion.store import Store, TableRow
from support.postgres_server import PostgresServer, binaries, postgres_server
from support.server_process import (
    FAULT_GAMES,
    Phone,
    ServerProcess,
    free_port,
    read_stored,
    replayed_views,
)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server")
NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eli")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own, on a free port, keeping nothing on disk."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (scripts/test installs Debian's)")
    port = free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path), "--logfile", str(tmp_path / "redis.log")])
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    yield url
    client.close()
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL of this test's own, on a free port."""
    folder = binaries()
    if folder is None:
        pytest.skip("PostgreSQL is not installed (scripts/test installs Debian's postgresql)")
    with postgres_server(folder, free_port()) as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The store the processes share: a SQLite file, or a PostgreSQL of this test's own."""
    if request.param == "sqlite":
        return tmp_path / "hall.sqlite"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.url


@pytest.fixture
def servers(tmp_path: Path, redis_url: str, database: Path | str,
            ) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes, one worker each, on one database and one Redis."""
    env = {"COMPANION_REDIS": redis_url, "COMPANION_WORKERS": "1",
           "COMPANION_CONNECTIONS_PER_ADDRESS": "200"}
    started: list[ServerProcess] = []
    try:
        for _ in range(2):
            started.append(ServerProcess(database, env=env, logs=tmp_path).start())
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()


class Channel:
    """Every message published on the peers' channel while it listens."""

    def __init__(self, url: str) -> None:
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(CHANNEL)
        self.messages: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message is not None:
                self.messages.append(message["data"])

    def close(self) -> list[bytes]:
        self._stop.set()
        self._thread.join(timeout=5)
        self.pubsub.close()
        return self.messages


def open_table(server: ServerProcess, game: str, players: int, seed: int,
               ) -> tuple[str, str, dict[int, str]]:
    """A table started on ``server``: its code, the host's token, each seat's token."""
    status, created = server.call("POST", "/api/tables",
                                  {"game": game, "players": players, "seed": seed})
    assert status == 201, created
    code, host = created["code"], created["host_token"]
    tokens = {}
    for seat in range(players):
        status, joined = server.call("POST", f"/api/tables/{code}/seats",
                                     {"name": NAMES[seat], "seat": seat})
        assert status == 201, joined
        tokens[seat] = joined["token"]
    status, started = server.call("POST", f"/api/tables/{code}/start", {"first_seat": 0}, host)
    assert status == 200, started
    return code, host, tokens


def phones_on(server: ServerProcess, code: str, tokens: dict[int, str]) -> dict[Any, Phone]:
    """The table screen and every seat's phone, their sockets held on ``server``."""
    phones: dict[Any, Phone] = {None: Phone(server.base, code).start()}
    for seat, token in tokens.items():
        phones[seat] = Phone(server.base, code, f"seat_{code}={token}").start()
    return phones


def a_move(server: ServerProcess, code: str, tokens: dict[int, str], rng: random.Random,
           ) -> tuple[int, dict[str, Any], int] | None:
    """A legal move of the first seat that has one, as ``server`` lists it: (seat, move,
    the seat's seq); None when nobody may move."""
    for seat, token in tokens.items():
        status, listed = server.call("GET", f"/api/tables/{code}/moves", token=token)
        assert status == 200, listed
        moves = [move for move in listed["moves"] if move.get("type") != "lift"]
        if moves:
            return seat, rng.choice(moves), listed["seq"]
    return None


def seqs(server: ServerProcess, code: str, tokens: dict[int, str]) -> dict[Any, int]:
    """Each viewer's seq (the screen's under None), as ``server``'s API says it."""
    viewers: dict[Any, str | None] = {None: None, **tokens}
    found = {}
    for viewer, token in viewers.items():
        status, view = server.call("GET", f"/api/tables/{code}/view", token=token)
        assert status == 200, view
        found[viewer] = view["seq"]
    return found


def test_a_move_posted_to_one_process_is_pushed_to_the_sockets_of_the_other(servers):
    a, b = servers
    rng = random.Random(5)
    for number, (game, players) in enumerate(FAULT_GAMES):
        code, _, tokens = open_table(a, game, players, seed=40 + number)
        on_b, on_a = phones_on(b, code, tokens), phones_on(a, code, {})
        try:
            for turn in range(4):
                mover = a if turn % 2 == 0 else b  # and back: B's move reaches A's screen
                found = a_move(mover, code, tokens, rng)
                assert found is not None, f"{game}: nobody may move"
                seat, move, seq = found
                status, answer = mover.call("POST", f"/api/tables/{code}/moves", {
                    "move": move, "seq": seq, "client_move_id": f"{code}-{turn}"},
                    tokens[seat])
                assert status == 200, answer
                # Asked of the mover only: a request to the other process would catch its
                # table up by itself, and push it, without any word through Redis.
                wanted = seqs(mover, code, tokens)
                for viewer, phone in on_b.items():
                    assert phone.wait(1, wanted[viewer]), \
                        f"{game}: {viewer}'s phone on B is at {phone.last_seq()}, not " \
                        f"{wanted[viewer]}"
                assert on_a[None].wait(1, wanted[None]), f"{game}: the screen on A"
                assert seqs(a if mover is b else b, code, tokens) == wanted
        finally:
            for phone in [*on_b.values(), *on_a.values()]:
                phone.stop()


def form(server: ServerProcess, path: str, fields: dict[str, str] | None = None,
         cookies: dict[str, str] | None = None, source: str = "127.0.0.1",
         ) -> tuple[int, str, dict[str, str]]:
    """A page asked of ``server`` as a browser asks it (a form posted when ``fields`` are
    given), from the address ``source``: its status, body and headers."""
    headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())}
    body = None
    if fields is not None:
        body = urllib.parse.urlencode(fields)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10,
                                      source_address=(source, 0))
    try:
        conn.request("GET" if fields is None else "POST", path, body=body, headers=headers)
        response = conn.getresponse()
        headers = dict(response.getheaders())
        headers["Set-Cookie"] = "\n".join(response.msg.get_all("Set-Cookie") or [])
        return response.status, response.read().decode(), headers
    finally:
        conn.close()


def test_a_newcomer_asking_on_one_process_is_let_in_by_the_host_on_the_other(servers):
    a, b = servers
    code, host, _ = open_table(a, "seventh-heaven", 3, seed=12)
    hosting = {f"host_{code}": host}
    assert form(a, f"/t/{code}/free", {"seat": "1"}, hosting)[0] == 303
    status, _, headers = form(b, f"/j/{code}", {"name": "Mallory", "seat": "1"},
                              source="127.0.0.9")
    assert status == 303 and headers["Location"].endswith(f"/t/{code}/wait")
    waiting = dict(re.findall(rf"(wait_{code})=([^;\n]+)", headers["Set-Cookie"]))
    _, screen, _ = form(a, f"/t/{code}/screen", cookies=hosting)
    assert "Mallory asks for Ben’s seat" in screen
    (request_id,) = set(re.findall(r'name="request" value="([0-9a-f]+)"', screen))
    assert form(a, f"/t/{code}/admit", {"request": request_id}, hosting)[0] == 303
    status, _, headers = form(b, f"/t/{code}/wait", cookies=waiting, source="127.0.0.9")
    assert status == 303 and headers["Location"].endswith(f"/t/{code}/play")
    seated = dict(re.findall(rf"(seat_{code})=([^;\n]+)", headers["Set-Cookie"]))
    status, page, _ = form(b, f"/t/{code}/play", cookies=seated, source="127.0.0.9")
    assert status == 200 and "Mallory" in page
    (token,) = seated.values()
    status, view = a.call("GET", f"/api/tables/{code}/view", token=token)
    assert status == 200, view  # the seat's token, known to the other process too


def test_a_rebuild_begun_on_one_process_holds_the_moves_of_the_other(servers):
    a, b = servers
    code, host, tokens = open_table(a, "climbers", 3, seed=21)
    rng = random.Random(2)

    def move_on(server: ServerProcess) -> tuple[int, dict[str, Any]]:
        found = a_move(server, code, tokens, rng)
        assert found is not None
        seat, move, seq = found
        return server.call("POST", f"/api/tables/{code}/moves", {
            "move": move, "seq": seq, "client_move_id": f"m{rng.getrandbits(32)}"}, tokens[seat])

    status, answer = move_on(a)
    assert status == 200, answer  # the start tower stands
    hosting = {f"host_{code}": host}
    assert form(a, f"/t/{code}/extra/rebuild/begin", {"on": "screen"}, hosting)[0] == 303
    status, refused = move_on(b)
    assert status == 422 and refused["error"]["rule"] == "cl.rebuild.under-way", refused
    assert form(b, f"/t/{code}/extra/rebuild/end", {"on": "screen"}, hosting)[0] == 303
    status, answer = move_on(a)
    assert status == 200, answer


def test_one_move_posted_to_both_processes_at_once_applies_once(servers):
    a, b = servers
    code, _, tokens = open_table(a, "seventh-heaven", 3, seed=8)
    rng = random.Random(2)
    answers: list[int] = []
    for attempt in range(12):
        found = a_move(a, code, tokens, rng)
        assert found is not None
        seat, move, seq = found
        ready = threading.Barrier(2)
        statuses: list[int] = []

        def post(server: ServerProcess, body: dict[str, Any], token: str,
                 ready: threading.Barrier = ready, statuses: list[int] = statuses) -> None:
            ready.wait()
            statuses.append(server.call("POST", f"/api/tables/{code}/moves", body, token)[0])

        both = [threading.Thread(target=post, args=(server, {
            "move": move, "seq": seq, "client_move_id": f"{tag}{attempt}"}, tokens[seat]))
            for server, tag in ((a, "a"), (b, "b"))]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join(timeout=20)
        assert sorted(statuses) == [200, 409], statuses
        answers += statuses
    stored = read_stored(a.database, code)
    assert len([e for e in stored.entries if e[2] == "move"]) == answers.count(200) == 12
    assert seqs(a, code, tokens) == seqs(b, code, tokens)


@pytest.mark.parametrize("killed", ["A", "B"])
def test_a_process_killed_mid_game_loses_no_move_and_the_other_keeps_serving(servers, killed):
    a, b = servers
    victim, survivor = (a, b) if killed == "A" else (b, a)
    rng = random.Random(9)
    game, players = FAULT_GAMES[2]  # SkyRunner: secret choices, moves at once
    code, _, tokens = open_table(a, game, players, seed=77)
    on_survivor = phones_on(survivor, code, tokens)
    acknowledged: set[str] = set()
    stop = threading.Event()
    problems: list[str] = []

    def play() -> None:
        count = 0
        while not stop.wait(0.05):  # a player's pace, well within the rate limit
            count += 1
            server = a if count % 2 else b
            try:
                found = a_move(server, code, tokens, rng)
                if found is None:
                    return
                seat, move, seq = found
                status, answer = server.call("POST", f"/api/tables/{code}/moves", {
                    "move": move, "seq": seq, "client_move_id": f"m{count}"}, tokens[seat],
                    timeout=5)
            except (OSError, AssertionError, ValueError):
                continue  # the victim is gone: its answer never came
            if status == 200:
                acknowledged.add(f"m{count}")
            elif status != 409:
                problems.append(f"{status} {answer}")

    try:
        player = threading.Thread(target=play, daemon=True)
        player.start()
        time.sleep(rng.uniform(1.0, 2.0))
        victim.kill()  # SIGKILL, whatever it was doing
        time.sleep(1.0)  # the survivor alone
        stop.set()
        player.join(timeout=20)
        stored = read_stored(survivor.database, code)
        logged = {cmid for _, _, kind, _, cmid in stored.entries if kind == "move"}
        assert problems == []
        assert acknowledged <= logged, "a move its player was told of is missing"
        assert len(acknowledged) >= 4
        served = 1 if survivor is a else 0  # A takes the odd moves, B the even ones
        assert any(int(cmid[1:]) % 2 == served for cmid in acknowledged), "the survivor served"
        found = a_move(survivor, code, tokens, rng)
        assert found is not None
        seat, move, seq = found
        status, answer = survivor.call("POST", f"/api/tables/{code}/moves", {
            "move": move, "seq": seq, "client_move_id": "after"}, tokens[seat])
        assert status == 200, answer
        stored = read_stored(survivor.database, code)
        replayed = replayed_views(stored)
        for viewer, token in {None: None, **tokens}.items():
            status, view = survivor.call("GET", f"/api/tables/{code}/view", token=token)
            assert view["view"] == replayed[viewer]
            assert on_survivor[viewer].wait(1, view["seq"]), f"{viewer}'s phone"
    finally:
        stop.set()
        for phone in on_survivor.values():
            phone.stop()


def test_a_process_started_again_replays_its_tables_from_the_store(servers):
    a, b = servers
    rng = random.Random(11)
    played = []
    for number, (game, players) in enumerate(FAULT_GAMES):
        code, _, tokens = open_table(a, game, players, seed=90 + number)
        for turn in range(3):
            server = (a, b)[turn % 2]
            found = a_move(server, code, tokens, rng)
            assert found is not None, f"{game}: nobody may move"
            seat, move, seq = found
            status, answer = server.call("POST", f"/api/tables/{code}/moves", {
                "move": move, "seq": seq, "client_move_id": f"r{turn}"}, tokens[seat])
            assert status == 200, answer
        played.append((code, tokens))
    a.kill()
    a.start()
    for code, tokens in played:
        replayed = replayed_views(read_stored(a.database, code))
        for viewer, token in {None: None, **tokens}.items():
            status, view = a.call("GET", f"/api/tables/{code}/view", token=token)
            assert status == 200, view
            assert view["view"] == replayed[viewer], f"{code}: {viewer}'s view"


def test_what_crosses_the_channel_is_a_table_code_and_a_revision(servers, redis_url):
    a, b = servers
    channel = Channel(redis_url)
    rng = random.Random(3)
    tables = [open_table(a, game, players, seed=60 + n)
              for n, (game, players) in enumerate(FAULT_GAMES)]
    secrets_told = {token for _, host, tokens in tables for token in (host, *tokens.values())}
    for code, _, tokens in tables:
        for turn in range(3):
            server = (a, b)[turn % 2]
            found = a_move(server, code, tokens, rng)
            assert found is not None
            seat, move, seq = found
            status, answer = server.call("POST", f"/api/tables/{code}/moves", {
                "move": move, "seq": seq, "client_move_id": f"c{turn}"}, tokens[seat])
            assert status == 200, answer
    time.sleep(0.3)
    messages = channel.close()
    codes = {code for code, _, _ in tables}
    assert len(messages) >= len(tables) * 3
    for message in messages:
        found = re.fullmatch(rb"([A-Z]{4}) (\d+)", message)
        assert found, message
        assert found.group(1).decode() in codes
        assert not any(secret.encode() in message for secret in secrets_told)


def test_several_workers_without_redis_are_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--workers", "2",
         "--bind", "127.0.0.1:1"], capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "COMPANION_DATABASE": str(tmp_path / "db.sqlite")})
    assert done.returncode == 2
    assert "2 workers need Redis" in done.stderr


def test_one_process_on_sqlite_imports_no_redis_nor_psycopg(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; from companion import create_app; create_app();"
         " print('redis' in sys.modules or 'psycopg' in sys.modules)"],
        capture_output=True, text=True, timeout=60,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "COMPANION_DATABASE": str(tmp_path / "db.sqlite")})
    assert done.stdout.strip() == "False", done.stderr


SLOW_QUERY = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import sys
    import gevent
    from companion.store import Store

    store = Store(sys.argv[1])
    query = gevent.spawn(store._read, "SELECT pg_sleep(0.3)")
    gevent.sleep(0.05)  # another table's turn, while the query waits for PostgreSQL
    print("waiting" if not query.ready() else "done")
    query.join()
    assert query.successful()
""")


def test_a_query_waiting_for_postgresql_holds_only_its_own_request(postgres):
    done = subprocess.run([sys.executable, "-c", SLOW_QUERY, postgres.url], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "waiting", "the other table waited for the query"


def test_a_store_whose_postgresql_restarted_reads_and_writes_again(postgres):
    store = Store(postgres.url)
    row = TableRow("ABCD", "seventh-heaven", 3, {}, "host", time.time(), 1, "en")
    assert store.create_table(row)
    postgres.restart()  # every session ended: the store's connection is gone
    assert store.load_table("ABCD") == row
    postgres.restart()
    store.take_seat("ABCD", 0, "Ana", "token", revision=0)  # a write's BEGIN finds it gone
    assert store.seats("ABCD") == {0: ("Ana", "token")}
    store.close()
