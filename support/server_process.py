"""Start the real server (the Procfile's gunicorn command) as a process, for tests that kill it.

Also the pieces of a fault run (tests/web/test_faults.py, bench/faults.py): phones that hold
a websocket and come back after every restart, seats that play random legal moves through
the API, and the checks made against the SQLite file itself after each SIGKILL.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import shlex
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websocket

from companion.config import CONNECTIONS_PER_ADDRESS
from companion.games.base import IllegalMove
from companion.store import POSTGRES_URLS
from companion.web.games import BY_ID

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: The log file of every server process started: the tests' teardown reads each one
#: (tests/conftest.py), so an error on the server fails the test that started it.
LOGS: list[Path] = []


def procfile_command(checkout: Path = ROOT) -> list[str]:
    """The command of the ``Procfile``'s web process, as words."""
    line = (checkout / "Procfile").read_text().strip()
    return shlex.split(line.partition(":")[2])


def wait_until_served(url: str, process: subprocess.Popen[bytes], seconds: float,
                      log: Path | None = None) -> str:
    """The page at ``url`` once the server ``process`` answers it; fails the test with the
    end of the server's ``log`` if it stops or takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return urllib.request.urlopen(url, timeout=2).read().decode()
        except OSError:
            said = "" if log is None else ":\n" + log.read_text(errors="replace")[-4000:]
            assert process.poll() is None, f"the server stopped (exit {process.returncode}){said}"
            assert time.monotonic() < deadline, f"{url} did not answer within {seconds} s{said}"
            time.sleep(0.1)


def stop_group(process: subprocess.Popen[bytes], seconds: float = 10) -> None:
    """SIGTERM a server started in a session of its own (gunicorn's master and worker),
    SIGKILL it if it is still there after ``seconds``."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def call_json(base: str, method: str, path: str, body: Any = None,
              token: str | None = None, timeout: float = 10) -> tuple[int, Any]:
    """A JSON API call: the status and the decoded answer, refusals included."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def connect_from(port: int, source: str, timeout: float = 10,
                 host: str = "127.0.0.1") -> socket.socket:
    """A connection to the server on ``host:port`` from the loopback address ``source``:
    Linux routes all of 127.0.0.0/8 to this machine, so each is a client address of its
    own."""
    return socket.create_connection((host, port), timeout=timeout,
                                    source_address=(source, 0))


def request_from(port: int, method: str, path: str, body: str | bytes | None,
                 headers: dict[str, str], source: str = "127.0.0.1",
                 timeout: float = 10) -> tuple[int, bytes]:
    """One HTTP call to the server on ``port``, on a connection of its own from the loopback
    address ``source`` (a phone of its own: the limits count by address): its status and
    body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def call_from(port: int, method: str, path: str, body: Any = None, token: str | None = None,
              source: str = "127.0.0.1", timeout: float = 10) -> tuple[int, Any]:
    """A JSON API call from the loopback address ``source`` (``request_from``): the status
    and the decoded answer, refusals included."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, data = request_from(port, method, path,
                                None if body is None else json.dumps(body), headers, source,
                                timeout)
    return status, json.loads(data) if data else None


class ServerProcess:
    def __init__(self, database: Path | str, port: int | None = None,
                 env: dict[str, str] | None = None, logs: Path | None = None,
                 checkout: Path = ROOT) -> None:
        #: The SQLite file, or a PostgreSQL URL (then its log goes in ``logs``).
        self.database = database
        self.logs = logs or Path(database).parent
        self.port = port or free_port()
        #: More of the server's environment (settings, ``GUNICORN_CMD_ARGS``).
        self.env = env or {}
        #: The checkout whose Procfile and code the server runs (a copy, for some tests).
        self.checkout = checkout
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Any = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = dict(os.environ, COMPANION_DATABASE=str(self.database),
                   COMPANION_BIND=f"127.0.0.1:{self.port}", COMPANION_HOST="127.0.0.1",
                   COMPANION_PORT=str(self.port), COMPANION_SEEDED_DEALS="1",
                   PYTHONPATH=str(self.checkout), **self.env)
        command = procfile_command(self.checkout)
        command[0] = str(Path(sys.executable).with_name(command[0]))
        self._close_log()
        log_path = self.logs / f"server-{self.port}.log"
        if log_path not in LOGS:
            LOGS.append(log_path)
        self.log = log_path.open("ab")
        self.process = subprocess.Popen(command, cwd=self.checkout, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the whole server, gunicorn's master and its worker, at once."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self._close_log()

    def stop(self) -> None:
        if self.process:
            stop_group(self.process)
        self._close_log()

    def _close_log(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None, timeout: float = 10) -> tuple[int, Any]:
        return call_json(self.base, method, path, body, token, timeout)


# --- a fault run: phones, seats playing, SIGKILLs, and the checks -------------------------

#: The section of a phone's (or the table screen's) rendering that carries the table's seq.
SEQ_MARK = re.compile(r'<section id="(?:status|screen-head)"[^>]*\bdata-seq="(\d+)"')

#: Each registered game with the player count of its tables in a fault run: three seats,
#: within what the game takes.
FAULT_GAMES = tuple((spec.id, min(max(3, spec.min_players), spec.max_players))
                    for spec in BY_ID.values())


def seq_of(message: str) -> int | None:
    """The seq of a full rendering (None for a partial one, such as the seats)."""
    found = SEQ_MARK.search(message)
    return int(found.group(1)) if found else None


def post_half(server: ServerProcess, path: str, body: Any, token: str) -> socket.socket:
    """Send the headers and half the body of a POST, and leave it hanging: a request in
    flight, for as long as the caller keeps the socket."""
    data = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            f"Authorization: Bearer {token}\r\n\r\n").encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.sendall(head + data[: len(data) // 2])
    return sock


@dataclass
class Stored:
    """A table as the SQLite file holds it: its current match and that match's log."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    first_seat: int
    over: bool
    #: (seq, seat, kind, move, client_move_id), in order.
    entries: list[tuple[int, int | None, str, dict[str, Any], str | None]]

    @property
    def seq(self) -> int:
        return len(self.entries)


def read_stored(database: Path | str, code: str) -> Stored:
    """Read the database directly (not through the server): unredacted moves."""
    db: Any
    if str(database).startswith(POSTGRES_URLS):
        from companion.postgres import Connection

        db = Connection(str(database))
    else:
        db = sqlite3.connect(database, timeout=10)
    try:
        game, players, options = db.execute(
            "SELECT game, players, options FROM tables WHERE code = ?", (code,)).fetchone()
        no, seed, first_seat, outcome = db.execute(
            "SELECT no, seed, first_seat, outcome FROM matches WHERE code = ?"
            " ORDER BY no DESC LIMIT 1", (code,)).fetchone()
        rows = db.execute("SELECT seq, seat, kind, move, client_move_id FROM log"
                          " WHERE code = ? AND no = ? ORDER BY seq", (code, no)).fetchall()
    finally:
        db.close()
    return Stored(game, players, json.loads(options), seed, first_seat, outcome is not None,
                  [(seq, seat, kind, json.loads(move), cmid)
                   for seq, seat, kind, move, cmid in rows])


def replayed_views(stored: Stored) -> dict[int | None, Any]:
    """Every seat's view (and the table's, under None) of ``setup`` followed by the log,
    replayed with the game engine, as JSON would carry them."""
    game = BY_ID[stored.game].engine
    states = [game.setup(stored.players, dict(stored.options, first_seat=stored.first_seat),
                         stored.seed)]
    for _, seat, kind, move, _ in stored.entries:
        if kind == "move":
            states.append(game.apply(states[-1], seat, move))
        else:
            states.pop()
    viewers: list[int | None] = [*range(stored.players), None]
    return {viewer: json.loads(json.dumps(game.view(states[-1], viewer)))
            for viewer in viewers}


def replayed_unseen(stored: Stored) -> dict[int, set[int | None]]:
    """For each entry of the log, the viewers who may not learn it was made (a secret choice
    changed: ``Game.redact_move`` answers None), replayed with the game engine."""
    game = BY_ID[stored.game].engine
    states = [game.setup(stored.players, dict(stored.options, first_seat=stored.first_seat),
                         stored.seed)]
    viewers: list[int | None] = [*range(stored.players), None]
    unseen: dict[int, set[int | None]] = {}
    for seq, seat, kind, move, _ in stored.entries:
        if kind == "move":
            unseen[seq] = {viewer for viewer in viewers if viewer != seat
                           and game.redact_move(states[-1], seat, move, viewer) is None}
            states.append(game.apply(states[-1], seat, move))
        else:
            unseen[seq] = unseen.get(move["undo"], set())
            states.pop()
    return unseen


def viewer_numbers(stored: Stored, unseen: dict[int, set[int | None]],
                   viewer: int | None) -> dict[int, int]:
    """``viewer``'s own seq of each entry it may know of, by the log's seq: how many
    entries it may know of, up to that one."""
    numbers: dict[int, int] = {}
    for seq, *_ in stored.entries:
        if viewer not in unseen[seq]:
            numbers[seq] = len(numbers) + 1
    return numbers


def visible_seq(stored: Stored, unseen: dict[int, set[int | None]], viewer: int | None) -> int:
    """How many entries ``viewer`` may know of: the seq its pages and views show."""
    return len(viewer_numbers(stored, unseen, viewer))


class Phone:
    """One websocket (a seat's phone, or the table screen without a cookie) that connects
    again whenever the server goes away, and remembers what each connection received."""

    def __init__(self, base: str, code: str, cookie: str = "") -> None:
        self.url = base.replace("http://", "ws://") + f"/t/{code}/ws"
        self.origin = base
        self.cookie = cookie
        #: Every message of every connection so far, one list per connection.
        self.received: list[list[str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ws: Any = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Phone:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            if self._ws is not None:
                self._ws.close()
        self.thread.join(timeout=5)

    def connections(self) -> list[list[str]]:
        with self._lock:
            return [list(messages) for messages in self.received]

    def last_seq(self) -> int | None:
        """The seq of the last full rendering received on the current connection."""
        with self._lock:
            current = self.received[-1] if self.received else []
            seqs = [seq for seq in map(seq_of, current) if seq is not None]
        return seqs[-1] if seqs else None

    def wait(self, connections: int, seq: int, limit: float = 8.0) -> bool:
        """Until the phone is on its ``connections``-th connection and has seen ``seq``."""
        deadline = time.monotonic() + limit
        while True:
            with self._lock:
                count = len(self.received)
            if count >= connections and self.last_seq() == seq:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ws = websocket.create_connection(self.url, timeout=2, origin=self.origin,
                                                 cookie=self.cookie)
            except (OSError, websocket.WebSocketException):
                self._stop.wait(0.1)
                continue
            self._ws = ws
            with self._lock:
                self.received.append([])
            ws.settimeout(0.25)
            while not self._stop.is_set():
                try:
                    message = ws.recv()
                except websocket.WebSocketTimeoutException:
                    continue
                except (OSError, websocket.WebSocketException):
                    break
                if not message:  # a close frame
                    break
                with self._lock:
                    self.received[-1].append(message)
            with contextlib.suppress(Exception):
                ws.close()


@dataclass
class Sent:
    """A move a seat sent, and what became of it as far as that seat knows."""

    code: str
    seat: int
    move: dict[str, Any]
    seq: int
    client_move_id: str
    answers: list[int | str] = field(default_factory=list)  # statuses, or "cut"
    repeated: bool | None = None
    answered_seq: int | None = None  # the seq a 200 answer gave

    @property
    def acknowledged(self) -> bool:
        return 200 in self.answers


class Seat:
    """A player who plays random legal moves through the API until told to stop, and
    resends a move whose answer was lost (server killed) with the same client_move_id."""

    def __init__(self, run: FaultRun, code: str, seat: int, token: str, seed: int) -> None:
        self.run, self.code, self.seat, self.token = run, code, seat, token
        self.rng = random.Random(seed)
        self.sent: list[Sent] = []
        self.unexpected: list[str] = []
        self.idle = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _call(self, method: str, path: str, body: Any = None) -> tuple[int | None, Any]:
        try:
            return self.run.server.call(method, path, body, self.token, timeout=5)
        except (OSError, http.client.HTTPException, ValueError):
            return None, None

    def _run(self) -> None:
        pending: Sent | None = None
        count = 0
        while not self.run.stopping.is_set():
            if not self.run.playing.is_set():
                self.idle.set()
                self.run.playing.wait(0.05)
                continue
            self.idle.clear()
            if pending is None:
                status, listed = self._call("GET", f"/api/tables/{self.code}/moves")
                if status != 200:
                    if status is not None:
                        self.unexpected.append(f"GET moves {status} {listed}")
                    time.sleep(0.05)
                    continue
                moves = [m for m in listed["moves"] if m.get("type") != "lift"]
                if not moves:
                    time.sleep(0.05)
                    continue
                count += 1
                pending = Sent(self.code, self.seat, self.rng.choice(moves), listed["seq"],
                               f"{self.code}-{self.seat}-{count}")
                self.sent.append(pending)
            self.run.posting.set()
            status, answer = self._call("POST", f"/api/tables/{self.code}/moves", {
                "move": pending.move, "seq": pending.seq,
                "client_move_id": pending.client_move_id})
            self.run.posting.clear()
            pending.answers.append("cut" if status is None else status)
            if status == 200:
                pending.repeated = answer["repeated"]
                pending.answered_seq = answer["seq"]
                pending = None
            elif status == 409 and answer["error"]["rule"] in ("table.stale",
                                                                "table.not-playing"):
                pending = None  # refused, nothing changed: pick again from the fresh moves
            elif status == 429:
                time.sleep(0.2)
            elif status is None:
                time.sleep(0.05)  # the server is gone: send the same move again
            else:
                self.unexpected.append(f"POST move {status} {answer}")
                pending = None
        self.idle.set()


class FaultRun:
    """Tables of every game on a real server, phones connected for every seat (and a table
    screen each), seats playing; SIGKILL at random moments, restart, check everything."""

    def __init__(self, directory: Path, tables: int = 3, seed: int = 1,
                 say: Any = None) -> None:
        # Every phone and seat of the run connects from 127.0.0.1: eight connections a
        # table at most (its websockets, its seats' calls, the checks).
        self.server = ServerProcess(directory / "faults.sqlite", env={
            "COMPANION_CONNECTIONS_PER_ADDRESS": str(max(CONNECTIONS_PER_ADDRESS, 8 * tables))})
        self.rng = random.Random(seed)
        self.seed = seed
        self.table_count = tables
        self.say = say or (lambda text: None)
        self.playing = threading.Event()
        self.stopping = threading.Event()
        self.posting = threading.Event()
        self.tables: dict[str, tuple[str, int, str, dict[int, str]]] = {}  # code → game…
        self.seats: list[Seat] = []
        self.phones: dict[tuple[str, int | None], Phone] = {}
        self.kills = 0
        self.problems: list[str] = []
        self.checked = {"restarts": 0, "acknowledged": 0, "views": 0, "reconnects": 0,
                        "cut": 0, "undos": 0, "half_posts": 0}

    # --- setting up --------------------------------------------------------------------

    def __enter__(self) -> FaultRun:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.playing.set()
        try:
            for seat in self.seats:
                if seat.thread.is_alive():
                    seat.thread.join(timeout=10)
            for phone in self.phones.values():
                phone.stop()
        finally:
            self.server.stop()

    def open_tables(self) -> None:
        names = ("Ana", "Ben", "Chloé", "Dev", "Eli")
        for index in range(self.table_count):
            game, players = FAULT_GAMES[index % len(FAULT_GAMES)]
            status, created = self.server.call("POST", "/api/tables", {
                "game": game, "players": players, "seed": self.seed * 100 + index})
            assert status == 201, created
            code, host = created["code"], created["host_token"]
            tokens = {}
            for seat in range(players):
                status, joined = self.server.call("POST", f"/api/tables/{code}/seats",
                                                  {"name": names[seat], "seat": seat})
                assert status == 201, joined
                tokens[seat] = joined["token"]
            first = self.rng.randrange(players)
            status, started = self.server.call("POST", f"/api/tables/{code}/start",
                                               {"first_seat": first}, host)
            assert status == 200 and started["seq"] == 0, started
            self.tables[code] = (game, players, host, tokens)
            self.phones[code, None] = Phone(self.server.base, code).start()
            for seat, token in tokens.items():
                self.phones[code, seat] = Phone(self.server.base, code,
                                                f"seat_{code}={token}").start()
                self.seats.append(Seat(self, code, seat, token,
                                       self.rng.randrange(2**32)))
        self.check("opened", fresh=True)
        for seat in self.seats:
            seat.thread.start()

    # --- playing and killing ------------------------------------------------------------

    def play(self, seconds: float, in_flight: bool = False) -> None:
        """Let the seats play, then SIGKILL the server: at a random moment within
        ``seconds``, or (``in_flight``) after them, the moment a POST is under way."""
        self.playing.set()
        time.sleep(self.rng.uniform(0.2, 1.0) * seconds)
        if in_flight:
            self.posting.clear()
            self.posting.wait(timeout=5)
        self.server.kill()
        self.kills += 1
        self.pause()
        self.server.start()
        self.check(f"kill {self.kills}" + (" (a POST in flight)" if in_flight else ""),
                   fresh=True)

    def pause(self) -> None:
        self.playing.clear()
        for seat in self.seats:
            if not seat.idle.wait(timeout=10):
                self.problems.append(f"seat {seat.code}/{seat.seat} never paused")

    def kill_half_post(self) -> None:
        """A POST whose body is half sent when the server is killed: after the restart it
        is not in the log; sent again whole with the same id it applies once."""
        self.pause()
        for code, (_, players, _, tokens) in self.tables.items():
            for seat in range(players):
                _, listed = self.server.call("GET", f"/api/tables/{code}/moves",
                                             token=tokens[seat])
                moves = [m for m in listed["moves"] if m.get("type") != "lift"]
                if moves:
                    break
            else:
                continue
            body = {"move": moves[0], "seq": listed["seq"],
                    "client_move_id": f"half-{self.kills}"}
            logged = read_stored(self.server.database, code).seq
            hanging = post_half(self.server, f"/api/tables/{code}/moves", body, tokens[seat])
            try:
                time.sleep(0.1)
                self.server.kill()
            finally:
                hanging.close()
            self.kills += 1
            self.server.start()
            self.check(f"kill {self.kills} (a POST half sent)", fresh=True)
            if read_stored(self.server.database, code).seq != logged:
                self.problems.append(f"{code}: the half-sent POST was applied")
            answers = [self.server.call("POST", f"/api/tables/{code}/moves", body,
                                        tokens[seat]) for _ in range(2)]
            got = [(status, answer.get("seq"), answer.get("repeated"))
                   for status, answer in answers]
            wanted = [(200, listed["seq"] + 1, False), (200, listed["seq"] + 1, True)]
            if got != wanted:
                self.problems.append(f"{code}: the half-sent POST sent again: {got}")
            stored = read_stored(self.server.database, code)
            if stored.entries[-1][1:] != (seat, "move", moves[0], body["client_move_id"]):
                self.problems.append(f"{code}: the resent move is not last in the log")
            self.checked["half_posts"] += 1
            self.check(f"the half-sent POST on {code}, sent again")
            return

    def shown_moves(self, code: str) -> list[int]:
        """The screen's seqs of the moves table ``code``'s screen shows, not taken back."""
        _, log = self.server.call("GET", f"/api/tables/{code}/log")
        return [entry["seq"] for entry in log["entries"]
                if entry["kind"] == "move" and not entry["undone"]]

    def host_undo(self, seconds: float = 15.0) -> None:
        """The host takes back the last move of every table that the table screen shows,
        naming it as the screen's log does (while the seats wait). A table whose screen
        shows no move yet (a slow machine: only moves hidden from it, such as Heuchel &
        Meuchel's set-up) plays on until it shows one, ``seconds`` at most."""
        deadline = time.monotonic() + seconds
        self.playing.set()
        while not all(self.shown_moves(code) for code in self.tables) \
                and time.monotonic() < deadline:
            time.sleep(0.5)  # four tables' logs twice a second: within the address's rate
        self.pause()
        for code, (_, _, host, _) in self.tables.items():
            shown = self.shown_moves(code)
            if not shown:
                self.problems.append(f"{code}: its screen showed no move in {seconds:g} s")
                continue
            _, before = self.server.call("GET", f"/api/tables/{code}/view")
            status, answer = self.server.call("POST", f"/api/tables/{code}/undo",
                                              {"undo": shown[-1]}, host)
            if (status, answer) != (200, {"seq": before["seq"] + 1}):
                self.problems.append(f"{code}: host undo answered {status} {answer}")
            self.checked["undos"] += 1
        self.check("host undos")

    def finish(self) -> None:
        self.pause()
        self.stopping.set()
        for seat in self.seats:
            if seat.thread.is_alive():
                seat.thread.join(timeout=10)
        self.check("the end")
        for seat in self.seats:
            self.problems.extend(f"{seat.code}/{seat.seat}: {text}"
                                 for text in seat.unexpected)
            self.checked["cut"] += sum(sent.answers.count("cut") for sent in seat.sent)

    # --- checking -------------------------------------------------------------------

    def check(self, when: str, fresh: bool = False) -> None:
        """With the seats paused: the log holds every acknowledged move, once, where it was
        made; the API's views equal a replay of the log; every socket is on its connection
        since the last start (one per start) and has the current view, which it got
        first on connecting if that was just now (``fresh``)."""
        acknowledged = 0
        deadline = time.monotonic() + 8  # for every socket to be back
        for code, (_, players, _, tokens) in self.tables.items():
            stored = read_stored(self.server.database, code)
            try:
                unseen = replayed_unseen(stored)
            except IllegalMove:
                unseen = {seq: set() for seq, *_ in stored.entries}
            problems = self._check_log(code, stored, unseen)
            acknowledged += sum(sent.acknowledged for seat in self.seats if seat.code == code
                                for sent in seat.sent)
            try:
                replayed = replayed_views(stored)
            except IllegalMove as refusal:
                problems.append(f"the log does not replay: {refusal.rule}")
                replayed = {}
            for viewer in [*range(players), None]:
                token = tokens[viewer] if viewer is not None else None
                status, answer = self.server.call("GET", f"/api/tables/{code}/view",
                                                  token=token)
                seq = visible_seq(stored, unseen, viewer)
                wanted = (200, seq, "over" if stored.over else "playing",
                          replayed.get(viewer))
                got = (status, answer.get("seq"), answer.get("status"), answer.get("view"))
                if got != wanted:
                    problems.append(f"view of {viewer} (seq {got[1]}) differs from the "
                                    f"replay (seq {seq})")
                self.checked["views"] += 1
                phone = self.phones.get((code, viewer))
                if phone is not None:
                    problems.extend(self._check_phone(phone, viewer, seq, fresh, deadline))
            self.problems.extend(f"{when}: {code}: {text}" for text in problems)
        self.checked["restarts"] = self.kills
        self.checked["acknowledged"] = acknowledged
        self.say(f"{when}: " + ", ".join(
            f"{code} seq {read_stored(self.server.database, code).seq}"
            for code in self.tables) + f"; {len(self.problems)} problems so far")

    def _check_log(self, code: str, stored: Stored,
                   unseen: dict[int, set[int | None]]) -> list[str]:
        problems = []
        if [entry[0] for entry in stored.entries] != list(range(1, stored.seq + 1)):
            problems.append("the log's seqs are not 1…n")
        by_id = {(seat, cmid): (seq, move) for seq, seat, kind, move, cmid in stored.entries
                 if kind == "move"}
        if len(by_id) != sum(kind == "move" for _, _, kind, _, _ in stored.entries):
            problems.append("a client_move_id is in the log twice")
        sent = {(s.seat, s.client_move_id): s for seat in self.seats if seat.code == code
                for s in seat.sent}
        numbers = {seat: viewer_numbers(stored, unseen, seat) for seat, _ in by_id}
        for key, (seq, move) in by_id.items():
            mine = sent.get(key)
            if mine is None:
                if not key[1].startswith("half-"):
                    problems.append(f"{key} is in the log but nobody sent it")
            elif move != mine.move or numbers[key[0]].get(seq) != mine.seq + 1:
                # made against the newest change its seat could know of
                problems.append(f"{key} logged as seq {seq}, sent against {mine.seq}")
            elif not mine.acknowledged and mine.answers[-1:] != ["cut"]:
                problems.append(f"{key} is in the log though it was refused: {mine.answers}")
        for key, mine in sent.items():
            if mine.acknowledged and key not in by_id:
                problems.append(f"acknowledged move {key} is missing from the log")
            if mine.repeated and "cut" not in mine.answers:
                problems.append(f"{key}, sent once, was answered as a repeat")
            if 409 in mine.answers and key in by_id:
                problems.append(f"{key} was refused as stale, yet it is in the log")
            logged = by_id.get(key, (None, None))[0]
            if mine.acknowledged and not mine.repeated and mine.answered_seq is not None \
                    and mine.answered_seq != numbers.get(key[0], {}).get(logged):
                problems.append(f"{key} applied at {logged}, answered seq "
                                f"{mine.answered_seq}")
        return problems

    def _check_phone(self, phone: Phone, viewer: int | None, seq: int, fresh: bool,
                     deadline: float) -> list[str]:
        who = "the screen" if viewer is None else f"seat {viewer}"
        if not phone.wait(self.kills + 1, seq, max(0.0, deadline - time.monotonic())):
            return [f"{who}'s socket did not come back to seq {seq}: "
                    f"{len(phone.connections())} connections, last seq {phone.last_seq()}"]
        connections = phone.connections()
        problems = []
        for messages in connections:
            seqs = [seq for seq in map(seq_of, messages) if seq is not None]
            if seqs != sorted(seqs):
                problems.append(f"{who} received an older view after a newer one: {seqs}")
        if len(connections) != self.kills + 1:
            problems.append(f"{who} connected {len(connections)} times for "
                            f"{self.kills} kills")
        if not fresh:
            return problems
        self.checked["reconnects"] += 1
        first = connections[-1][0]
        if seq_of(first) != seq:
            problems.append(f"{who}'s first message on connecting is not its full view at "
                            f"seq {seq}: {first[:120]!r}")
        return problems
