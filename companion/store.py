"""Persistence: tables, seats, matches and the append-only move log.

Every write is one transaction, committed before the caller tells anyone about it, so a
server killed at any instant loses nothing a phone was told had happened. The embedded
default is a SQLite file (WAL mode lets the readers of other threads go on while a move is
being written); a ``postgresql://`` URL puts the store on PostgreSQL (``companion.postgres``).
The SQL here is written for both: what differs is in each engine's class.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.aside import waiting_only_the_caller

if TYPE_CHECKING:
    from companion.postgres import Postgres

#: One schema for both engines: SQLite reads BIGINT and DOUBLE PRECISION as its INTEGER and
#: REAL, and its foreign keys stay checked at once (``Store.retire`` defers them).
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players BIGINT NOT NULL,
    options TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    seed BIGINT,
    lang TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code) DEFERRABLE,
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (code, seat)
);
-- Where each seat sits around the table, as where the table screen is from there:
-- "ahead", "left", "behind" or "right" (a phone draws a map of the table from it).
CREATE TABLE IF NOT EXISTS sitting (
    code TEXT NOT NULL REFERENCES tables(code) DEFERRABLE,
    seat BIGINT NOT NULL,
    screen TEXT NOT NULL,
    PRIMARY KEY (code, seat)
);
-- The host's links for other devices (a TV, the host's phone): a device that opens one
-- holds its key in the host cookie and has the host's buttons until the link is revoked.
CREATE TABLE IF NOT EXISTS host_links (
    code TEXT NOT NULL REFERENCES tables(code) DEFERRABLE,
    id BIGINT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    made_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, id)
);
CREATE TABLE IF NOT EXISTS matches (
    code TEXT NOT NULL REFERENCES tables(code) DEFERRABLE,
    no BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    first_seat BIGINT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    ended_at DOUBLE PRECISION,
    outcome TEXT,
    PRIMARY KEY (code, no)
);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    no BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    seat BIGINT,
    kind TEXT NOT NULL,
    move TEXT NOT NULL,
    client_move_id TEXT,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, no, seq),
    UNIQUE (code, no, seat, client_move_id)
);
-- Newcomers waiting for the host to let them into a seat freed during a game, and the
-- moment a whole table is in (The Climbers' rebuild of a fallen tower): kept here so that
-- every server process serving the table knows them (companion serve --workers).
CREATE TABLE IF NOT EXISTS seat_requests (
    code TEXT NOT NULL REFERENCES tables(code) DEFERRABLE,
    id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    asked_at DOUBLE PRECISION NOT NULL,
    spoken_code TEXT NOT NULL,
    asker TEXT NOT NULL,
    PRIMARY KEY (code, id)
);
CREATE TABLE IF NOT EXISTS pauses (
    code TEXT PRIMARY KEY REFERENCES tables(code) DEFERRABLE,
    extra TEXT NOT NULL,
    rule TEXT NOT NULL
);
-- How many changes each table has had. A change is stored only while its table's count is
-- the one its server process last read: the arbiter between several processes serving one
-- database (companion serve --workers). A database from before has every table at 0.
CREATE TABLE IF NOT EXISTS revisions (
    code TEXT PRIMARY KEY,
    revision BIGINT NOT NULL
);
INSERT INTO revisions SELECT code, 0 FROM tables WHERE true ON CONFLICT DO NOTHING;
"""


@dataclass
class TableRow:
    code: str
    game: str
    players: int
    options: dict[str, Any]
    host_hash: str
    created_at: float
    seed: int | None
    lang: str


@dataclass
class MatchRow:
    no: int
    seed: int
    first_seat: int
    started_at: float
    ended_at: float | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class SeatRequest:
    """Someone asking for a seat freed during a game: the seat holds a hand, so only the
    host lets them in. Their token becomes the seat's when the host does.

    Anyone can type the freed player's name, so the request carries a code drawn by the
    companion (``spoken_code``, unique among the table's requests): the waiting phone shows
    it, the host's screen shows it beside the name, and the host asks the person at the
    table to say it. ``asker`` is who asked, as the web layer knows them (an address)."""

    id: str
    seat: int
    name: str
    token_hash: str
    at: float
    spoken_code: str
    asker: str


@dataclass(frozen=True)
class Pause:
    """A moment of the game's that the whole table is in and that no move may interrupt
    (The Climbers' rebuild of a fallen tower): the game's extra that shows it, and the
    clause a move made meanwhile is refused with."""

    extra: str
    rule: str


@dataclass(frozen=True)
class Finished:
    """A finished match and the table it was played at (``Store.finished_since``)."""

    code: str
    game: str
    players: int
    options: dict[str, Any]
    match: MatchRow
    #: The host's seat entries made before the match's last move, in order.
    seat_entries: list[LogRow]


@dataclass
class LogRow:
    seq: int
    seat: int | None
    #: "move"; "undo" (its move is {"undo": seq}); or "seat", the host freeing a seat
    #: ({"freed": seat, "name": …}) or letting a newcomer into it ({"admitted": seat,
    #: "name": …, "was": the name of whoever the host freed from it, or None}); or
    #: "correction", the host setting the public position right (the game's correction).
    kind: str
    move: dict[str, Any]
    client_move_id: str | None
    at: float

    @property
    def mover(self) -> int:
        """The seat that made a move (only an undo by the host has no seat)."""
        if self.seat is None:
            raise ValueError(f"log entry {self.seq} has no seat")
        return self.seat


class Behind(Exception):
    """A change made against a revision of its table that is not the stored one any more:
    another server process changed the table first. Nothing was stored."""


#: The database holds every hand and the tokens' hashes: only its owner reads it.
PRIVATE = 0o600


def private_file(path: str) -> None:
    """Make the database file ``path`` readable by its owner alone, creating it so where
    it is missing (SQLite then gives its -wal and -shm files the same mode)."""
    if path == ":memory:" or path.startswith("file:"):
        return
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, PRIVATE))
    os.chmod(path, PRIVATE)


#: What an archived table's name has after its old code (see ``Store.retire``).
RETIRED_MARK = "~"


class Connection(Protocol):
    """What the store asks of an engine's connection (sqlite3's, ``postgres.Connection``)."""

    def execute(self, sql: str, params: tuple[Any, ...] = ..., /) -> Any: ...

    def close(self) -> None: ...


class Sqlite:
    """The embedded engine: one file on this machine, private to its owner."""

    #: Takes the file's write lock at once: two processes' changes are made one after the
    #: other, each against the revision the other stored.
    BEGIN = "BEGIN IMMEDIATE"
    #: Lets ``Store.retire`` rename a table before the rows that refer to it.
    DEFER_KEYS = "PRAGMA defer_foreign_keys = ON"
    IntegrityError = sqlite3.IntegrityError

    @staticmethod
    def connect(path: str, schema: str) -> sqlite3.Connection:
        private_file(path)
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        connection.executescript(schema)
        for side_file in (f"{path}-wal", f"{path}-shm"):
            if os.path.exists(side_file):
                os.chmod(side_file, PRIVATE)
        return connection

    #: A commit waits for the disk's flush: only its caller waits with it.
    run = staticmethod(waiting_only_the_caller)


#: How a ``COMPANION_DATABASE`` on PostgreSQL begins; anything else is a SQLite file's path.
POSTGRES_URLS = ("postgresql://", "postgres://")


def engine_for(database: str) -> type[Sqlite] | type[Postgres]:
    """The engine of ``database``: PostgreSQL for a URL (psycopg imported only then), else
    SQLite."""
    if database.startswith(POSTGRES_URLS):
        from companion.postgres import Postgres

        return Postgres
    return Sqlite


class Store:
    """One connection shared by the process's threads, serialised by a lock."""

    def __init__(self, database: str) -> None:
        self._lock = threading.Lock()
        self._engine = engine_for(database)
        self._db: Connection = self._engine.connect(database, SCHEMA)

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]],
               revision: tuple[str, int] | None = None) -> None:
        """Run ``statements`` in one transaction; with ``revision`` (a table's code and the
        revision its change was made against), only if that is still the table's, counting
        the change (else ``Behind``)."""
        def transaction() -> bool:
            self._db.execute(self._engine.BEGIN)
            try:
                if revision is not None and self._db.execute(
                        "UPDATE revisions SET revision = revision + 1"
                        " WHERE code = ? AND revision = ?", revision).rowcount != 1:
                    self._db.execute("ROLLBACK")
                    return False  # raised by the caller: gevent's pool reports what it raises
                for sql, params in statements:
                    self._db.execute(sql, params)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return True

        with self._lock:
            if not self._engine.run(transaction):
                raise Behind(revision[0] if revision else "")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    # --- tables and seats -----------------------------------------------------------

    def create_table(self, row: TableRow) -> bool:
        """Store a new table; False, storing nothing, when its code is taken."""
        try:
            self._write([(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row.code, row.game, row.players, json.dumps(row.options), row.host_hash,
                 row.created_at, row.seed, row.lang),
            ), (
                "INSERT INTO revisions VALUES (?, 0)"
                " ON CONFLICT (code) DO UPDATE SET revision = 0", (row.code,))])
        except self._engine.IntegrityError:
            return False
        return True

    def code_taken(self, code: str) -> bool:
        return bool(self._read("SELECT 1 FROM tables WHERE code = ?", (code,)))

    def activity(self) -> list[tuple[str, float, int, bool]]:
        """Every table not retired: (code, when anything last happened at it, how many
        matches it has had, whether its last match is over)."""
        rows = self._read(
            "SELECT t.code, t.created_at,"
            " coalesce((SELECT max(started_at) FROM matches m WHERE m.code = t.code), 0),"
            " coalesce((SELECT max(ended_at) FROM matches m WHERE m.code = t.code), 0),"
            " coalesce((SELECT max(at) FROM log l WHERE l.code = t.code), 0),"
            " (SELECT count(*) FROM matches m WHERE m.code = t.code),"
            " (SELECT count(*) FROM matches m WHERE m.code = t.code AND m.ended_at IS NULL)"
            " FROM tables t WHERE t.code NOT LIKE ?", (f"%{RETIRED_MARK}%",))
        return [(code, max(created, started, ended, moved), count,
                 count > 0 and not open_count)
                for code, created, started, ended, moved, count, open_count in rows]

    def retire(self, code: str) -> str:
        """Free ``code``: the table, its seats, matches and log are kept under an archive
        name no look-up matches (``CODE~<created ms>``), so the night's scoreboard still
        lists its games. Returns the archive name."""
        rows = self._read("SELECT created_at FROM tables WHERE code = ?", (code,))
        if not rows:
            return ""
        archive = f"{code}{RETIRED_MARK}{int(rows[0][0] * 1000)}"
        self._write([(self._engine.DEFER_KEYS, ())] + [
            (f"UPDATE {name} SET code = ? WHERE code = ?", (archive, code))
            for name in ("tables", "seats", "sitting", "host_links", "matches", "log",
                         "seat_requests", "pauses", "revisions")])
        return archive

    def revision(self, code: str) -> tuple[float, int] | None:
        """When the table ``code`` names now was created, and how many changes it has had
        (None: no table has that code)."""
        rows = self._read("SELECT t.created_at, r.revision FROM tables t"
                          " JOIN revisions r ON r.code = t.code WHERE t.code = ?", (code,))
        return (rows[0][0], rows[0][1]) if rows else None

    def load_table(self, code: str) -> TableRow | None:
        rows = self._read("SELECT * FROM tables WHERE code = ?", (code,))
        if not rows:
            return None
        code, game, players, options, host_hash, created_at, seed, lang = rows[0]
        return TableRow(code, game, players, json.loads(options), host_hash, created_at, seed,
                        lang)

    def seats(self, code: str) -> dict[int, tuple[str, str]]:
        """Seat number → (name, token hash)."""
        rows = self._read("SELECT seat, name, token_hash FROM seats WHERE code = ?", (code,))
        return {seat: (name, token_hash) for seat, name, token_hash in rows}

    # Each change of a table below is made against the table's ``revision`` (see ``_write``).

    def take_seat(self, code: str, seat: int, name: str, token_hash: str,
                  said: tuple[int, LogRow] | None = None, *, revision: int) -> None:
        """Seat a player; ``said``: the log entry (match number, entry) that tells the
        table, written in the same transaction. Whoever else asked for the seat is turned
        away."""
        self._write([(
            "INSERT INTO seats VALUES (?, ?, ?, ?)", (code, seat, name, token_hash),
        ), ("DELETE FROM seat_requests WHERE code = ? AND seat = ?", (code, seat)),
            *self._log_statements(code, said)], (code, revision))

    def free_seat(self, code: str, seat: int, said: tuple[int, LogRow] | None = None, *,
                  revision: int) -> None:
        self._write([("DELETE FROM seats WHERE code = ? AND seat = ?", (code, seat)),
                     ("DELETE FROM sitting WHERE code = ? AND seat = ?", (code, seat)),
                     *self._log_statements(code, said)], (code, revision))

    @staticmethod
    def _log_statements(code: str, said: tuple[int, LogRow] | None,
                        ) -> list[tuple[str, tuple[Any, ...]]]:
        if said is None:
            return []
        no, one = said
        return [("INSERT INTO log VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (code, no, one.seq, one.seat, one.kind, json.dumps(one.move),
                  one.client_move_id, one.at))]

    def sitting(self, code: str) -> dict[int, str]:
        """Seat number → where the table screen is from that seat."""
        rows = self._read("SELECT seat, screen FROM sitting WHERE code = ?", (code,))
        return {seat: screen for seat, screen in rows}

    def sit(self, code: str, seat: int, screen: str, *, revision: int) -> None:
        self._write([("INSERT INTO sitting VALUES (?, ?, ?) ON CONFLICT (code, seat)"
                      " DO UPDATE SET screen = excluded.screen", (code, seat, screen))],
                    (code, revision))

    def host_links(self, code: str) -> dict[int, tuple[str, float]]:
        """Host link id → (key hash, when it was made)."""
        rows = self._read("SELECT id, key_hash, made_at FROM host_links WHERE code = ?", (code,))
        return {link: (key_hash, made_at) for link, key_hash, made_at in rows}

    def add_host_link(self, code: str, link: int, key_hash: str, made_at: float, *,
                      revision: int) -> None:
        self._write([("INSERT INTO host_links VALUES (?, ?, ?, ?)",
                      (code, link, key_hash, made_at))], (code, revision))

    def revoke_host_link(self, code: str, link: int, *, revision: int) -> None:
        self._write([("DELETE FROM host_links WHERE code = ? AND id = ?", (code, link))],
                    (code, revision))

    def seat_requests(self, code: str) -> dict[str, SeatRequest]:
        """The newcomers waiting for a freed seat, by request id."""
        rows = self._read("SELECT id, seat, name, token_hash, asked_at, spoken_code, asker"
                          " FROM seat_requests WHERE code = ?", (code,))
        return {row[0]: SeatRequest(*row) for row in rows}

    def ask_seat(self, code: str, request: SeatRequest, *, revision: int) -> None:
        """Add ``request``, in place of its asker's earlier one."""
        self._write([("DELETE FROM seat_requests WHERE code = ? AND asker = ?",
                      (code, request.asker)),
                     ("INSERT INTO seat_requests VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (code, request.id, request.seat, request.name, request.token_hash,
                       request.at, request.spoken_code, request.asker))], (code, revision))

    def turn_away(self, code: str, request_id: str, *, revision: int) -> None:
        self._write([("DELETE FROM seat_requests WHERE code = ? AND id = ?",
                      (code, request_id))], (code, revision))

    def pause(self, code: str) -> Pause | None:
        """The moment the table is in, if any."""
        rows = self._read("SELECT extra, rule FROM pauses WHERE code = ?", (code,))
        return Pause(*rows[0]) if rows else None

    def set_pause(self, code: str, pause: Pause | None, *, revision: int) -> None:
        """Put the table in ``pause``'s moment, or end the one it is in (``None``)."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("DELETE FROM pauses WHERE code = ?", (code,))]
        if pause is not None:
            statements.append(("INSERT INTO pauses VALUES (?, ?, ?)",
                               (code, pause.extra, pause.rule)))
        self._write(statements, (code, revision))

    # --- matches and the log -------------------------------------------------------

    def start_match(self, code: str, match: MatchRow, *, revision: int) -> None:
        """Begin match ``match``; the moment the last one was in ends with it."""
        self._write([(
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?, NULL, NULL)",
            (code, match.no, match.seed, match.first_seat, match.started_at),
        ), ("DELETE FROM pauses WHERE code = ?", (code,))], (code, revision))

    def matches(self, code: str) -> list[MatchRow]:
        rows = self._read(
            "SELECT no, seed, first_seat, started_at, ended_at, outcome FROM matches"
            " WHERE code = ? ORDER BY no", (code,),
        )
        return [
            MatchRow(no, seed, first, started, ended, json.loads(outcome) if outcome else None)
            for no, seed, first, started, ended, outcome in rows
        ]

    def append(self, code: str, no: int, entry: LogRow | list[LogRow],
               outcome: dict[str, Any] | None = None, reopen: bool = False, *,
               revision: int) -> None:
        """Append one log entry (or several: a rewind's undos), and in the same transaction
        record the match's end (``outcome``) or, for an undo that takes the end back, clear
        it (``reopen``)."""
        entries = entry if isinstance(entry, list) else [entry]
        statements = [statement for one in entries
                      for statement in self._log_statements(code, (no, one))]
        if outcome is not None:
            statements.append((
                "UPDATE matches SET ended_at = ?, outcome = ? WHERE code = ? AND no = ?",
                (entries[-1].at, json.dumps(outcome), code, no),
            ))
        elif reopen:
            statements.append((
                "UPDATE matches SET ended_at = NULL, outcome = NULL WHERE code = ? AND no = ?",
                (code, no),
            ))
        self._write(statements, (code, revision))

    def log(self, code: str, no: int, after: int = 0) -> list[LogRow]:
        """Match ``no``'s log, from the entry after seq ``after``."""
        rows = self._read(
            "SELECT seq, seat, kind, move, client_move_id, at FROM log"
            " WHERE code = ? AND no = ? AND seq > ? ORDER BY seq", (code, no, after),
        )
        return [
            LogRow(seq, seat, kind, json.loads(move), cmid, at)
            for seq, seat, kind, move, cmid, at in rows
        ]

    def finished_since(self, since: float, token_hashes: Collection[str] | None = None,
                       ) -> list[Finished]:
        """Matches that ended after ``since``, the latest last, each with its seat entries
        made before its last move (what happens at the table once the game is over is no
        part of it); with ``token_hashes``, only those of tables one of them hosts or has a
        seat at."""
        where = "m.ended_at >= ?"
        params: list[Any] = [since]
        if token_hashes is not None:
            hashes = sorted(token_hashes)
            marks = ", ".join("?" * len(hashes)) or "NULL"  # "IN ()" is no SQL for PostgreSQL
            where += (f" AND (t.host_hash IN ({marks}) OR EXISTS (SELECT 1 FROM seats s"
                      f" WHERE s.code = m.code AND s.token_hash IN ({marks})))")
            params += hashes + hashes
        rows = self._read(
            "SELECT m.code, t.game, t.players, t.options, m.no, m.seed, m.first_seat,"
            " m.started_at, m.ended_at, m.outcome FROM matches m"
            f" JOIN tables t ON t.code = m.code WHERE {where} ORDER BY m.ended_at",
            tuple(params),
        )
        seat_entries: dict[tuple[str, int], list[LogRow]] = {}
        for code, no, seq, seat, kind, move, cmid, at in self._read(
                "SELECT l.code, l.no, l.seq, l.seat, l.kind, l.move, l.client_move_id, l.at"
                " FROM log l JOIN matches m ON m.code = l.code AND m.no = l.no"
                f" JOIN tables t ON t.code = m.code WHERE {where} AND l.kind = 'seat'"
                " AND l.seq < (SELECT max(e.seq) FROM log e WHERE e.code = l.code"
                " AND e.no = l.no AND e.kind = 'move') ORDER BY l.seq", tuple(params)):
            seat_entries.setdefault((code, no), []).append(
                LogRow(seq, seat, kind, json.loads(move), cmid, at))
        return [Finished(code, game, players, json.loads(options),
                         MatchRow(no, seed, first, started, ended, json.loads(outcome)),
                         seat_entries.get((code, no), []))
                for code, game, players, options, no, seed, first, started, ended, outcome
                in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def now() -> float:
    return time.time()
