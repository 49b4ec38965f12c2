"""Load: many tables of phones on the real server, and how long a move takes to reach them.

Run: .venv/bin/python bench/load.py [--tables T | --ramp 8,16,32] [--phones P]
                                    [--duration S] [--worker gthread] [--threads N]
                                    [--workers N [--redis URL]] [--database URL] [--split]
                                    [--screens] [--floor] [--gc]

For each step (a number of tables T) it starts the Procfile's gunicorn command (``-k
WORKER`` if given) on 127.0.0.1 and a fresh database; creates T tables (every registered game
in turn) through the JSON API, seats P players at each (clamped to the game's counts) and
connects one real websocket per phone (``--screens`` adds the table screen's). Each table
then plays random legal moves at a human pace: the mover (a seat whose phone says it may
act) thinks 1-3 s, asks `GET /moves`, posts one. A move's latency is the time from sending its POST
until the last socket of its table has received the push carrying the new ``data-seq``.
A finished game is played again. The bytes every other socket receives for a move (the
pushes bearing its ``data-seq``) are summed, and their median reported per game for phones
and screens.

``--gc`` serves the same app with a timer on the garbage collector (bench/gcwatch.py) and
reports, per step, its pauses by generation and what it tracks at the end.

Each phone's HTTP calls and websocket come from their table's own loopback address
(127.10.x.y), as phones on a LAN each have their own: the rate limit keys calls without a
token by address, and the server holds a few dozen connections per address at most.

``--workers N`` serves with N gunicorn workers that tell each other of every move through
Redis (``--redis URL``; by default a redis-server of the run's own, Debian's, on a free
port), as ``companion serve --workers N --redis URL`` does (docs/scaling.md).
``--database postgresql://…`` puts the store on that PostgreSQL instead of a fresh SQLite
file per step (the steps' tables then stay in it); ``--database postgresql`` starts a
cluster of the run's own (Debian's binaries). ``--split`` serves from two processes of their
own on two loopback addresses (127.0.0.1 and 127.0.0.2, the same port), sharing Redis and the
store, as two machines would: every move is posted to the first, each table's sockets
connect to the two in turn, and each step also reports how soon the sockets on each
process had the move.

It samples the gunicorn workers' CPU time and memory from /proc (summed over the
workers), reports p50/p95/p99 per step, and, with ``--ramp``, stops at the first step
whose p99 reaches ``--target`` ms (the largest step under it is the answer). Every step,
and the whole run, is bounded in time; every process started is stopped. Loopback only.
``--floor`` serves bench/floor.py, whose pushes draw nothing but the status line: what is
left is the latency drawing cannot remove.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websocket

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.web.games import BY_ID  # noqa: E402
from support.postgres_server import binaries, postgres_server  # noqa: E402
from support.server_process import (  # noqa: E402
    call_from,
    connect_from,
    free_port,
    procfile_command,
    request_from,
)

GAME_IDS = tuple(BY_ID)
SECTION = re.compile(r'<section id="(?:status|screen-head)"[^>]*>')
ATTR = re.compile(r'data-(my-turn|status|seq)="([^"]*)"')
TICKS = os.sysconf("SC_CLK_TCK")
PUSH_TIMEOUT = 10.0  # a push later than this counts as missing
HTTP_TIMEOUT = 10.0


# --------------------------------------------------------------------------------- server


def proc_stat(pid: int) -> tuple[int, float]:
    """(ppid, user + system CPU seconds) of a process."""
    text = Path(f"/proc/{pid}/stat").read_text()
    rest = text[text.rfind(")") + 2:].split()
    return int(rest[1]), (int(rest[11]) + int(rest[12])) / TICKS


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS (KiB) and Threads of a process."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "Threads"):
            values[key] = int(value.split()[0])
    return values


class Server:
    """The Procfile's gunicorn on ``host`` (a loopback address), in its own process group."""

    def __init__(self, worker: str | None, threads: int, workdir: Path, port: int,
                 app: str | None = None, workers: int = 1, redis: str | None = None,
                 database: str | None = None, host: str = "127.0.0.1") -> None:
        self.worker, self.threads, self.workdir, self.port = worker, threads, workdir, port
        self.app, self.workers, self.redis, self.database = app, workers, redis, database
        self.host = host
        self.process: subprocess.Popen[bytes] | None = None
        self.worker_pids: list[int] = []

    def start(self) -> None:
        database = self.database or str(self.workdir / f"load-{self.port}.sqlite")
        env = dict(os.environ, COMPANION_DATABASE=database,
                   COMPANION_BIND=f"{self.host}:{self.port}", COMPANION_HOST=self.host,
                   COMPANION_PORT=str(self.port), COMPANION_THREADS=str(self.threads),
                   COMPANION_SEEDED_DEALS="1", COMPANION_WORKERS=str(self.workers),
                   **({"COMPANION_REDIS": self.redis} if self.redis else {}))
        command = procfile_command()
        if self.app:
            command[-1] = self.app  # the Procfile's last word is the app to serve
        if self.worker:
            command += ["-k", self.worker]
        command[0] = str(Path(sys.executable).with_name(command[0]))
        self.log_path = self.workdir / f"server-{self.host}-{self.port}.log"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{self.host}:{self.port}/", timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError("the server did not start")
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited: see {self.log_path}")
        self.worker_pids = self._find_workers()

    def _find_workers(self) -> list[int]:
        assert self.process is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = []
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    with contextlib.suppress(OSError, ValueError, IndexError):
                        if proc_stat(int(entry.name))[0] == self.process.pid:
                            found.append(int(entry.name))
            if len(found) >= self.workers:
                return found
            time.sleep(0.1)
        raise RuntimeError(f"not {self.workers} gunicorn workers")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


class Sampler(threading.Thread):
    """The workers' CPU seconds, RSS and threads, summed, every half second."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.samples: list[tuple[float, float, int, int]] = []  # time, cpu s, rss KiB, threads
        self.halt = threading.Event()

    def sample(self) -> None:
        with contextlib.suppress(OSError):
            statuses = [proc_status(pid) for pid in self.pids]
            self.samples.append((time.perf_counter(),
                                 sum(proc_stat(pid)[1] for pid in self.pids),
                                 sum(status.get("VmRSS", 0) for status in statuses),
                                 sum(status.get("Threads", 0) for status in statuses)))

    def run(self) -> None:
        while not self.halt.wait(0.5):
            self.sample()

    def window(self, start: float, end: float) -> dict[str, float]:
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return {"cpu": math.nan, "rss": math.nan, "threads": math.nan}
        cpu = (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])
        return {"cpu": 100 * cpu, "rss": max(s[2] for s in inside) / 1024,
                "threads": max(s[3] for s in inside)}


# --------------------------------------------------------------------------------- client


class ApiError(Exception):
    pass


def tap(port: int, code: str, token: str, move: Any, seq: int, client_move_id: str,
        source: str) -> tuple[int, int | None]:
    """A move made as a phone makes it: the form its picker posts, answered with the
    phone's regions. Returns the status and the seq the answer shows."""
    body = urllib.parse.urlencode({"move": json.dumps(move), "seq": seq,
                                   "client_move_id": client_move_id})
    status, data = request_from(port, "POST", f"/t/{code}/move", body, {
        "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
        "Origin": f"http://127.0.0.1:{port}", "Cookie": f"seat_{code}={token}"}, source,
        HTTP_TIMEOUT)
    html = data.decode()
    found = SECTION.search(html)
    shown = dict(ATTR.findall(found.group(0))).get("seq") if found else None
    return status, None if shown is None else int(shown)


@dataclass(eq=False)
class Socket:
    seat: int | None  # None: the table screen
    token: str | None
    host: str = "127.0.0.1"  # the server it is connected to
    ws: Any = None
    seen: dict[int, float] = field(default_factory=dict)  # seq -> first arrival
    sizes: dict[int, int] = field(default_factory=dict)  # seq -> bytes of the pushes bearing it
    my_turn: bool = False
    status: str = ""
    closed: bool = False


@dataclass(eq=False)
class Table:
    index: int
    game: str
    players: int
    code: str = ""
    host: str = ""
    source: str = ""
    sockets: list[Socket] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def phones(self) -> list[Socket]:
        return [s for s in self.sockets if s.seat is not None]

    def heard(self, sock: Socket, text: str, at: float) -> None:
        found = SECTION.search(text)
        if not found:
            return  # a presence push: the seats only
        attrs = dict(ATTR.findall(found.group(0)))
        with self.cond:
            seq = int(attrs["seq"])
            sock.seen.setdefault(seq, at)
            sock.sizes[seq] = sock.sizes.get(seq, 0) + len(text.encode())
            sock.my_turn = attrs.get("my-turn") == "yes"
            sock.status = attrs.get("status", sock.status)
            self.cond.notify_all()

    def wait_all(self, seq: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: all(seq in s.seen for s in self.sockets), timeout)


class Receiver(threading.Thread):
    """One thread reads every socket (a selector), so the client stays light."""

    def __init__(self, tables: list[Table]) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        for table in tables:
            for sock in table.sockets:
                self.selector.register(sock.ws.sock, selectors.EVENT_READ, (table, sock))
        self.halt = threading.Event()
        self.dropped: list[str] = []

    def run(self) -> None:
        while not self.halt.is_set():
            for key, _ in self.selector.select(0.2):
                table, sock = key.data
                try:
                    opcode, frame = sock.ws.recv_data_frame(True)
                except Exception as error:  # a socket the server closed
                    opcode, frame = websocket.ABNF.OPCODE_CLOSE, None
                    self.dropped.append(f"{table.code} seat {sock.seat}: {error!r}")
                if opcode == websocket.ABNF.OPCODE_TEXT:
                    table.heard(sock, frame.data.decode(), time.perf_counter())
                elif opcode == websocket.ABNF.OPCODE_CLOSE:
                    if frame is not None:
                        self.dropped.append(f"{table.code} seat {sock.seat}: closed")
                    sock.closed = True
                    self.selector.unregister(key.fileobj)


def set_up(table: Table, port: int, screens: bool, hosts: tuple[str, ...] = ("127.0.0.1",),
           ) -> None:
    """Creates the table and seats its players on the first server; its sockets connect to
    ``hosts`` in turn (with ``--split``, every other one to the second server)."""
    table.source = f"127.10.{table.index // 200}.{table.index % 200 + 1}"
    status, body = call_from(port, "POST", "/api/tables",
                             {"game": table.game, "players": table.players,
                              "seed": 1000 + table.index}, source=table.source)
    if status != 201:
        raise ApiError(f"create {table.game}: {status} {body}")
    table.code, table.host = body["code"], body["host_token"]
    for seat in range(table.players):
        status, body = call_from(port, "POST", f"/api/tables/{table.code}/seats",
                                 {"name": f"P{seat}", "seat": seat}, source=table.source)
        if status != 201:
            raise ApiError(f"join {table.code}: {status} {body}")
        table.sockets.append(Socket(seat, body["token"]))
    if screens:
        table.sockets.append(Socket(None, None))
    for index, sock in enumerate(table.sockets):
        sock.host = hosts[index % len(hosts)]
        cookie = f"seat_{table.code}={sock.token}" if sock.token else ""
        sock.ws = websocket.create_connection(
            f"ws://{sock.host}:{port}/t/{table.code}/ws", timeout=HTTP_TIMEOUT,
            origin=f"http://{sock.host}:{port}", cookie=cookie,
            socket=connect_from(port, table.source, HTTP_TIMEOUT, sock.host))


def start_match(table: Table, port: int) -> None:
    with table.cond:  # a match counts its seqs from 0 again
        for sock in table.sockets:
            sock.seen.clear()
            sock.sizes.clear()
    status, body = call_from(port, "POST", f"/api/tables/{table.code}/start", {"first_seat": 0},
                             token=table.host, source=table.source)
    if status != 200:
        raise ApiError(f"start {table.code}: {status} {body}")
    with table.cond:  # the lobby's seq is the start's too: wait for the game to show
        started = table.cond.wait_for(lambda: all(
            body["seq"] in s.seen and (s.seat is None or s.status == "playing")
            for s in table.sockets), PUSH_TIMEOUT)
    if not started:
        raise ApiError(f"start {table.code}: the start's push never came")


@dataclass
class Results:
    lock: threading.Lock = field(default_factory=threading.Lock)
    moves: list[tuple[float, float, str]] = field(default_factory=list)  # push, POST, game
    #: With ``--split``: per move, when the last socket on each server had its push.
    by_host: dict[str, list[float]] = field(default_factory=dict)
    #: Bytes a phone (False) or a table screen (True) received for a move, by game.
    sizes: dict[tuple[str, bool], list[int]] = field(default_factory=dict)
    all_moves: int = 0
    games_ended: int = 0
    errors: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def chose_already(port: int, table: Table, sock: Socket) -> bool:
    """Whether this seat's secret choice is made: players choose once and wait, and a
    changed choice is pushed to nobody, so it would leave the others' sockets waiting."""
    status, body = call_from(port, "GET", f"/api/tables/{table.code}/view", token=sock.token,
                             source=table.source)
    return status == 200 and body["view"].get("choice") is not None


def play(table: Table, port: int, rng: random.Random, measure_from: float, deadline: float,
         halt: threading.Event, results: Results, taps: bool = False) -> None:
    """The table's movers, one move at a time, until the deadline."""
    seq = 0
    think = rng.uniform(0, 3)  # tables start out of step
    while not halt.is_set():
        if time.perf_counter() + think > deadline or halt.wait(think):
            return
        think = rng.uniform(1, 3)
        with table.cond:
            turn = [s for s in table.phones() if s.my_turn]
            over = any(s.status == "over" for s in table.phones())
        if over:
            with results.lock:
                results.games_ended += 1
            start_match(table, port)
            seq = 0
            continue
        rng.shuffle(turn)
        choice = None
        for sock in turn:
            status, body = call_from(port, "GET", f"/api/tables/{table.code}/moves",
                                     token=sock.token, source=table.source)
            # Players set up without taking a card back (Heuchel & Meuchel's "lift").
            moves = [m for m in body.get("moves", []) if m["type"] != "lift"] \
                if status == 200 else []
            if moves and all(m["type"] == "choose" for m in moves) and chose_already(
                    port, table, sock):
                continue  # a SkyRunner player who has chosen waits for the reveal
            if moves:
                choice = sock, rng.choice(moves)
                break
        if choice is None:
            with results.lock:
                results.errors.append(f"{table.code} ({table.game}) seq {seq}: nobody can move")
            return
        sock, move = choice
        started = time.perf_counter()
        client_move_id = f"m{seq}-{rng.getrandbits(48):x}"
        if taps:
            assert sock.token is not None
            status, shown = tap(port, table.code, sock.token, move, seq, client_move_id,
                                table.source)
            body = {"seq": shown, "error": "the phone's answer"}
        else:
            status, body = call_from(port, "POST", f"/api/tables/{table.code}/moves",
                                     {"move": move, "seq": seq, "client_move_id": client_move_id},
                                     token=sock.token, source=table.source)
        answered = time.perf_counter()
        if status != 200:
            with results.lock:
                results.errors.append(f"{table.code} ({table.game}) seq {seq}: {status} "
                                      f"{(body or {}).get('error')}")
            if status == 409 and isinstance(body, dict) and "seq" in body:
                seq = body["seq"]
                continue
            return
        seq = body["seq"]
        if not table.wait_all(seq, PUSH_TIMEOUT):
            with table.cond:
                late = [s.seat for s in table.sockets if seq not in s.seen]
            with results.lock:
                results.missing.append(f"{table.code} ({table.game}) seq {seq}: "
                                       f"no push after {PUSH_TIMEOUT:.0f} s to seats {late}")
            return
        with table.cond:
            last = max(s.seen[seq] for s in table.sockets)
            last_by_host = {host: max(s.seen[seq] for s in table.sockets if s.host == host)
                            for host in {s.host for s in table.sockets}}
            sizes = [(s.seat is None, s.sizes.get(seq, 0)) for s in table.sockets
                     if s is not sock]  # the mover has its answer; the others, a push
        with results.lock:
            results.all_moves += 1
            if started >= measure_from:
                results.moves.append((last - started, answered - started, table.game))
                for host, at in last_by_host.items():
                    results.by_host.setdefault(host, []).append(at - started)
                for screen, size in sizes:
                    results.sizes.setdefault((table.game, screen), []).append(size)


def spread(values: list[float]) -> dict[str, float]:
    return {"p50": percentile(values, 0.50), "p99": percentile(values, 0.99)}


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def run_step(args: argparse.Namespace, tables_count: int, workdir: Path,
             port: int) -> dict[str, Any]:
    servers = [Server(args.worker, args.threads, workdir, port, served_app(args), args.workers,
                      args.redis, args.database, host) for host in hosts_of(args)]
    tables = []
    for index in range(tables_count):
        game = GAME_IDS[index % len(GAME_IDS)]
        engine = BY_ID[game].engine
        players = max(engine.min_players, min(args.phones, engine.max_players))
        tables.append(Table(index, game, players))
    receiver: Receiver | None = None
    sampler: Sampler | None = None
    halt = threading.Event()
    results = Results()
    row: dict[str, Any] = {"tables": tables_count,
                           "sockets": sum(t.players for t in tables)
                           + (tables_count if args.screens else 0)}
    try:
        for server in servers:
            server.start()
        sampler = Sampler([pid for server in servers for pid in server.worker_pids])
        sampler.sample()
        rss_idle = sampler.samples[-1][2] / 1024
        sampler.start()
        setup_started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda t: set_up(t, port, args.screens, hosts_of(args)), tables))
        receiver = Receiver(tables)
        receiver.start()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda t: start_match(t, port), tables))
        row["setup_s"] = time.perf_counter() - setup_started
        client_before = os.times()
        begin = time.perf_counter()
        measure_from, deadline = begin + args.warmup, begin + args.warmup + args.duration
        players = [threading.Thread(target=play, daemon=True,
                                    args=(t, port, random.Random(args.seed * 7919 + t.index),
                                          measure_from, deadline, halt, results,
                                          args.taps))
                   for t in tables]
        for thread in players:
            thread.start()
        if args.gc:  # the warm-up's collections are not counted
            time.sleep(max(0.0, measure_from - time.perf_counter()))
            collector_report(port)
        for thread in players:
            thread.join(timeout=max(0.0, deadline - time.perf_counter()) + PUSH_TIMEOUT
                        + 2 * HTTP_TIMEOUT)
        end = time.perf_counter()
        client_after = os.times()
        usage = sampler.window(measure_from, end)
        if args.gc:
            row["gc"] = collector_report(port, objects=True)
        pushes = [m[0] * 1000 for m in results.moves]
        posts = [m[1] * 1000 for m in results.moves]
        row.update({
            "moves": len(pushes), "rate": len(pushes) / max(1e-9, end - measure_from),
            "p50": percentile(pushes, 0.50), "p95": percentile(pushes, 0.95),
            "p99": percentile(pushes, 0.99), "max": max(pushes, default=math.nan),
            "post_p50": percentile(posts, 0.50), "post_p99": percentile(posts, 0.99),
            "cpu": usage["cpu"], "rss": usage["rss"], "rss_idle": rss_idle,
            "threads": usage["threads"],
            "client_cpu": 100 * ((client_after.user + client_after.system)
                                 - (client_before.user + client_before.system))
            / max(1e-9, end - begin),
            "games_ended": results.games_ended, "errors": results.errors,
            "missing": list(results.missing), "dropped": list(receiver.dropped),
            "by_host": {host: spread([at * 1000 for at in times])
                        for host, times in sorted(results.by_host.items())},
            "by_game": {game: spread([m[0] * 1000 for m in results.moves if m[2] == game])
                        for game in GAME_IDS},
            "bytes": {game: {"phone": percentile(results.sizes.get((game, False), []), 0.5),
                             "screen": percentile(results.sizes.get((game, True), []), 0.5)}
                      for game in GAME_IDS},
        })
    except (ApiError, OSError, RuntimeError, websocket.WebSocketException) as error:
        row["failed"] = f"{type(error).__name__}: {error}"
    finally:
        halt.set()
        if receiver is not None:
            receiver.halt.set()
            receiver.join(timeout=5)
        for table in tables:
            for sock in table.sockets:
                if sock.ws is not None:
                    with contextlib.suppress(Exception):
                        sock.ws.close(timeout=0.5)
        if sampler is not None:
            sampler.halt.set()
        for server in servers:
            server.stop()
    return row


def hosts_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The servers' addresses: one, or with ``--split`` two processes on two loopback
    addresses, the moves posted to the first."""
    return ("127.0.0.1", "127.0.0.2") if args.split else ("127.0.0.1",)


def served_app(args: argparse.Namespace) -> str | None:
    """The app the server runs, when not the Procfile's (``bench/floor.py``, and
    ``bench/gcwatch.py`` around it or the companion with ``--gc``)."""
    if args.gc:
        return f"bench.gcwatch:create_app(floor={args.floor})"
    return "bench.floor:create_app()" if args.floor else None


def collector_report(port: int, objects: bool = False) -> dict[str, Any]:
    """The server's garbage collector since the last report (``bench/gcwatch.py``)."""
    status, report = call_from(port, "GET", "/bench/gc?objects=1" if objects else "/bench/gc")
    if status != 200:
        raise ApiError(f"GET /bench/gc: {status}")
    found: dict[str, Any] = report
    return found


def describe_collector(report: dict[str, Any]) -> str:
    """The collector's pauses per generation, and what it tracked at the end."""
    pauses = "\n".join(
        f"    collector gen {generation}: {p['count']} pauses, median {p['median']:.1f} max "
        f"{p['max']:.1f} total {p['total']:.0f} ms (CPU median {p['cpu_median']:.1f} max "
        f"{p['cpu_max']:.1f} total {p['cpu_total']:.0f} ms), {p['collected']} objects freed"
        for generation, p in report["pauses"].items())
    objects = report["objects"]
    walked = ", ".join(f"{name} {count}" for name, count in objects["walked"])
    return (f"{pauses}\n    tracked at the end: "
            f"{'/'.join(str(n) for n in objects['generations'])} by generation, "
            f"{objects['frozen']} frozen, threshold {objects['threshold']}; references "
            f"walked by type: {walked}")


def describe(row: dict[str, Any]) -> str:
    if "failed" in row:
        return f"T={row['tables']:4} sockets={row['sockets']:5}  FAILED: {row['failed']}"
    return (f"T={row['tables']:4} sockets={row['sockets']:5} moves={row['moves']:5} "
            f"({row['rate']:5.1f}/s)  push p50 {row['p50']:6.1f} p95 {row['p95']:6.1f} "
            f"p99 {row['p99']:6.1f} max {row['max']:6.1f} ms  POST p50 {row['post_p50']:5.1f} "
            f"p99 {row['post_p99']:6.1f} ms  server CPU {row['cpu']:5.1f}% "
            f"RSS {row['rss_idle']:.0f}->{row['rss']:.0f} MiB threads {row['threads']}  "
            f"client CPU {row['client_cpu']:4.1f}%  setup {row['setup_s']:.1f} s  "
            f"games ended {row['games_ended']}  errors {len(row['errors'])} "
            f"missing {len(row['missing'])} dropped {len(row['dropped'])}\n    "
            + "  ".join(f"{game}: p50 {row['by_game'][game]['p50']:.1f} p99 "
                        f"{row['by_game'][game]['p99']:.1f} ms, median push "
                        f"{sizes['phone'] / 1024:.1f} KB phone / {sizes['screen'] / 1024:.1f} KB"
                        " screen" for game, sizes in row["bytes"].items())
            + (f"\n{describe_collector(row['gc'])}" if "gc" in row else "")
            + describe_hosts(row["by_host"]))


def describe_hosts(by_host: dict[str, dict[str, float]]) -> str:
    """With ``--split``: how soon the sockets on each server had a move posted to the first."""
    if len(by_host) < 2:
        return ""
    (posted, same), *others = by_host.items()
    return (f"\n    sockets on {posted} (the move's process): p50 {same['p50']:.1f} p99 "
            f"{same['p99']:.1f} ms  " + "  ".join(
                f"on {host} (another process): p50 {other['p50']:.1f} p99 {other['p99']:.1f} "
                f"ms, p50 {other['p50'] - same['p50']:+.1f} ms" for host, other in others))


def passes(row: dict[str, Any], target: float) -> bool:
    return ("failed" not in row and row["moves"] > 0 and row["p99"] < target
            and not row["errors"] and not row["missing"] and not row["dropped"])


@contextlib.contextmanager
def own_redis(workdir: Path) -> Any:
    """A redis-server (Debian's) on a free port for the run, keeping nothing on disk."""
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(workdir)],
                               stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def own_postgres() -> Any:
    """A PostgreSQL cluster of the run's own (Debian's binaries, support/postgres_server.py)."""
    folder = binaries()
    if folder is None:
        raise SystemExit("PostgreSQL is not installed (Debian's postgresql package)")
    return postgres_server(folder, free_port())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables (one step)")
    parser.add_argument("--ramp", default="", help="steps of tables, e.g. 8,16,32 (overrides"
                        " --tables); stops at the first step over --target")
    parser.add_argument("--phones", type=int, default=4, help="phones per table")
    parser.add_argument("--screens", action="store_true", help="a table screen per table too")
    parser.add_argument("--duration", type=float, default=45, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first")
    parser.add_argument("--worker", help="gunicorn worker class (-k); default the "
                        "Procfile's, companion/worker.py")
    parser.add_argument("--threads", type=int, default=512,
                        help="COMPANION_THREADS, for --worker gthread (default 512)")
    parser.add_argument("--taps", action="store_true",
                        help="make the moves as the phones do (the picker's form, answered "
                             "with the phone's regions), not through the JSON API")
    parser.add_argument("--floor", action="store_true",
                        help="serve bench/floor.py: pushes that draw only the status line")
    parser.add_argument("--gc", action="store_true",
                        help="time the server's garbage collector (bench/gcwatch.py): its "
                             "pauses per generation, and what it tracks at the end")
    parser.add_argument("--workers", type=int, default=1,
                        help="gunicorn workers, telling each other of every move through Redis")
    parser.add_argument("--redis", metavar="URL", help="Redis for --workers (default: a "
                        "redis-server of the run's own)")
    parser.add_argument("--database", metavar="URL", help="the store on this PostgreSQL "
                        "(postgresql://…, or 'postgresql' for a cluster of the run's own; "
                        "default: a fresh SQLite file per step)")
    parser.add_argument("--split", action="store_true",
                        help="two server processes on 127.0.0.1 and 127.0.0.2 sharing Redis "
                             "and the store: the moves are posted to the first, each table's "
                             "sockets connect to both in turn")
    parser.add_argument("--target", type=float, default=100, help="p99 target in ms")
    parser.add_argument("--keep-going", action="store_true",
                        help="run every step of the ramp, not only up to the first miss")
    parser.add_argument("--budget", type=float, default=290, help="seconds for the whole run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the rows here too")
    args = parser.parse_args()
    args.duration = min(args.duration, 240)
    steps = [int(s) for s in args.ramp.split(",") if s.strip()] or [args.tables]
    if any(s < 1 or s > 1000 for s in steps) or not 1 <= args.phones <= 6:
        parser.error("1-1000 tables and 1-6 phones per table")
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
          f" worker {args.worker or 'companion.worker'} x {args.workers}"
          f"{' with Redis' if args.workers > 1 or args.split else ''}"
          f"{', two processes on two addresses' if args.split else ''}"
          f"{', the store on PostgreSQL' if args.database else ''}, threads {args.threads},"
          f" {args.phones} phones per table"
          f"{' + a screen' if args.screens else ''}, {args.duration:.0f} s per step"
          f" after {args.warmup:.0f} s warm-up, think 1-3 s"
          f"{', pushes drawing nothing (bench/floor.py)' if args.floor else ''}"
          f"{', moves made as the phones make them' if args.taps else ''}"
          f"{', the collector timed (bench/gcwatch.py)' if args.gc else ''}", flush=True)
    run_started = time.monotonic()
    rows = []
    best = None
    missed = False  # the answer is the last step before the first miss
    with tempfile.TemporaryDirectory(prefix="companion-load-") as tmp, \
            contextlib.ExitStack() as stack:
        if (args.workers > 1 or args.split) and not args.redis:
            args.redis = stack.enter_context(own_redis(Path(tmp)))
        if args.database == "postgresql":
            args.database = stack.enter_context(own_postgres()).url
        for tables_count in steps:
            estimate = args.duration + args.warmup + 15 + tables_count * 0.1
            if time.monotonic() - run_started + estimate > args.budget:
                print(f"# budget: T={tables_count} not run", flush=True)
                break
            port = free_port()
            row = run_step(args, tables_count, Path(tmp), port)
            rows.append(row)
            print(describe(row), flush=True)
            for line in (row.get("missing", []) + row.get("errors", [])
                         + row.get("dropped", []))[:5]:
                print(f"    {line}", flush=True)
            if passes(row, args.target):
                if not missed:
                    best = tables_count
                continue
            missed = True
            if "failed" in row:
                log = Path(tmp) / f"server-127.0.0.1-{port}.log"
                if log.exists():
                    print("    server log tail: "
                          + " | ".join(log.read_text().splitlines()[-5:]), flush=True)
            if not args.keep_going:
                break
    if len(steps) > 1:
        print(f"# largest step with p99 < {args.target:.0f} ms: "
              f"{best if best is not None else 'none'} tables", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)},
                                         "rows": rows, "best": best}, indent=1, default=str))


if __name__ == "__main__":
    main()
