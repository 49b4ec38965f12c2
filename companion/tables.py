"""Tables: seats, tokens, requests and host links, and each table's current match
(``companion.match``), its moves applied through the table's game under the table's lock.

The live match is kept in memory and rebuilt from SQLite when a table is first asked for
after a start. Every change is written to SQLite before the hub tells anyone about it.
"""

from __future__ import annotations

import copy
import hashlib
import secrets
import threading
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.games.base import Game, IllegalMove, Outcome, State, has_values
from companion.lru import LRU
from companion.match import Holders, Match, holders_at_start
from companion.names import shows, tidied
from companion.plays import Play, before_the_end, play_of
from companion.store import (
    Behind,
    LogRow,
    MatchRow,
    Pause,
    SeatRequest,
    Store,
    TableRow,
    now,
)

#: Letters that can't be misread for one another when read off a screen across a room.
CODE_ALPHABET = "ACDEFHJKMNPRTWXY"
CODE_LENGTH = 4
#: How much of a code typed on the home page is read (and shown back with its refusal).
CODE_TYPED_MAX = 12
NAME_MAX = 24
#: The most of a refused name the join form gives back as typed (and lets be typed), so
#: the player shortens it themselves: a field that stopped at ``NAME_MAX`` would cut a long
#: name without a word.
NAME_TYPED_MAX = 4 * NAME_MAX
CLIENT_MOVE_ID_MAX = 64
#: Random codes tried for a new table before it is refused (``table.no-free-code``): with
#: nine codes in ten taken, 48 tries all miss once in 160.
CODE_TRIES = 48
#: Finished matches kept replayed (``Tables.replayed``): a night's page opens a few logs.
REPLAYED_KEPT = 8


@dataclass(frozen=True)
class Retirement:
    """How long a table with nothing happening at it keeps its code, in seconds: then its
    code is free again and its history is kept for the night's scoreboard."""

    #: No game started yet.
    lobby: float = 2 * 3600
    #: Its last game is over.
    over: float = 1 * 3600
    #: A game left unfinished.
    playing: float = 6 * 3600
    #: Idle tables are looked for at most this often (when a table is created).
    every: float = 60

    def due(self, matches: int, over: bool) -> float:
        if not matches:
            return self.lobby
        return self.over if over else self.playing


class TableError(Exception):
    """A refused request on a table: ``rule`` names a platform or game clause. What it
    means in HTTP is the web layer's business (``companion.web.responses.status_of``)."""

    def __init__(self, rule: str, **params: Any) -> None:
        super().__init__(rule)
        self.rule = rule
        self.params = params


class TableListener(Protocol):
    """Told after a change is stored: the live layer, which pushes it to the sockets."""

    def table_changed(self, table: Table) -> None: ...

    def seat_freed(self, code: str, seat: int) -> None: ...

    def table_retired(self, code: str) -> None: ...

    def host_link_revoked(self, code: str) -> None: ...


class Peers(Protocol):
    """The other server processes serving the same store (``companion.peers``): told the
    code and revision of each table changed here, they catch it up from the store."""

    def changed(self, code: str, revision: int) -> None: ...


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


#: Newcomers a table keeps waiting for a freed seat at most: the host turns some away first.
#: Each asker (an address) holds one place in the line: asking again replaces its request.
REQUESTS_MAX = 8
#: Digits of the code a waiting phone shows, for its owner to say to the host.
SPOKEN_CODE_DIGITS = 3
#: Host links a table keeps at most (a TV, the host's phone, a spare): revoke one first.
HOST_LINKS_MAX = 6
#: A host link's key: 16 letters and digits that cannot be mistaken for one another when
#: typed on a TV (Crockford's base 32), 80 random bits.
HOST_KEY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
HOST_KEY_LENGTH = 16


def new_host_key() -> str:
    return "".join(secrets.choice(HOST_KEY_ALPHABET) for _ in range(HOST_KEY_LENGTH))


def new_spoken_code(taken: set[str]) -> str:
    """A few random digits, none of the ``taken`` codes: easy to say aloud and to hear."""
    while True:
        code = "".join(secrets.choice("0123456789") for _ in range(SPOKEN_CODE_DIGITS))
        if code not in taken:
            return code


def typed_code(typed: str) -> str:
    """A table code as typed on the home page: its first ``CODE_TYPED_MAX`` characters,
    any case, spaces anywhere."""
    return "".join(typed[:CODE_TYPED_MAX].split()).upper()


def typed_host_key(typed: str) -> str:
    """A host key as typed: any case, spaces and dashes, O for 0 and I or L for 1."""
    key = "".join(ch for ch in typed.upper() if ch not in " -\t")
    return key.translate(str.maketrans("OIL", "011"))


#: Where the table screen can be, seen from a seat: in front across the table, on the
#: left, behind the player, on the right.
SCREEN_SIDES = ("ahead", "left", "behind", "right")


@dataclass
class Table:
    """A table of this server: its seats, the newcomers asking for one, the host's links
    and the lock every change is made under, and its current match (``Match``)."""

    row: TableRow
    game: Game
    seats: dict[int, tuple[str, str]]  # seat → (name, token hash)
    #: Every match begun at this table, oldest first (the night's scoreboard, play again).
    matches: list[MatchRow]
    #: Where the table screen is from each seat that said so ("ahead", "left", "behind",
    #: "right"; see ``SCREEN_SIDES``): a phone draws the table as its player sees it.
    sitting: dict[int, str] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: When anything last happened at this table (``store.now``), and whether its code has
    #: been given up (``Tables.retire_idle``): a request still holding it is refused.
    touched: float = 0.0
    retired: bool = False
    #: The host's links for other devices: link id → (key hash, when it was made).
    host_links: dict[int, tuple[str, float]] = field(default_factory=dict)
    #: Newcomers waiting for the host to let them into a freed seat, by request id.
    requests: dict[str, SeatRequest] = field(default_factory=dict)
    #: How many changes of this table the store holds as this process last read or made
    #: them (``Store.revision``), and how many of them the listener was told of: another
    #: server process may change the table (``Tables.catch_up``).
    revision: int = 0
    told: int = 0
    #: Seats freed, and whether host links were revoked, by changes read back from the
    #: store that the listener was not told of yet.
    untold_freed: set[int] = field(default_factory=set)
    untold_revoked: bool = False
    #: The current match, the last of ``matches`` (``begin``); in the lobby, an empty one.
    match: Match = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.match = Match(self.game, self.row.players, self.lock)

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def status(self) -> str:
        """"lobby" (no match yet), "playing" or "over": the current match's."""
        return self.match.status

    def begin(self, row: MatchRow, holding: Holders) -> None:
        """Start the match of ``row`` from its game's set-up, its seats held by
        ``holding``: a new ``Match``, nothing kept of the last one."""
        options = dict(self.row.options, first_seat=row.first_seat)
        initial = self.game.setup(self.row.players, options, row.seed)
        self.match = Match(self.game, self.row.players, self.lock, row, initial, holding)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        wanted = hash_token(token)
        for seat, (_, token_hash) in self.seats.items():
            if secrets.compare_digest(token_hash, wanted):
                return seat
        return None

    def held(self, seat: int) -> bool:
        """Whether ``seat`` is free but holds a hand (a game has begun at this table): it
        is taken back only with the host's leave."""
        return seat not in self.seats and bool(self.matches)

    def request_of(self, token: str | None) -> SeatRequest | None:
        """The waiting request ``token`` was given for, if it is still waiting."""
        if not token:
            return None
        wanted = hash_token(token)
        return next((request for request in self.requests.values()
                     if secrets.compare_digest(request.token_hash, wanted)), None)

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the host's: the one the table was created with, or the key
        of a host link not revoked (a device the host chose)."""
        if not token:
            return False
        return secrets.compare_digest(self.row.host_hash, hash_token(token)) or \
            self.opens_host_link(token)

    def opens_host_link(self, key: str) -> bool:
        """Whether ``key`` is the key of one of the host's links, not revoked."""
        wanted = hash_token(key)
        return any(secrets.compare_digest(key_hash, wanted)
                   for key_hash, _ in self.host_links.values())

    def name(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return self.seats.get(seat, ("", ""))[0]

    def holders_now(self) -> Holders:
        """Who holds each seat now (None: free)."""
        return tuple(self.seats[seat][0] if seat in self.seats else None
                     for seat in range(self.row.players))

    def play(self) -> Play | None:
        """The current match as its players would log it, once it is over."""
        row = self.match.row
        if row is None:
            return None
        return play_of(self.code, self.row.game, self.row.players, self.row.options, row,
                       before_the_end(self.match.log))

    def said(self, move: dict[str, Any]) -> tuple[int, LogRow] | None:
        """A host's action on a seat as the next entry of the match's log (None before the
        first match: the lobby has no log)."""
        row = self.match.row
        if row is None:
            return None
        return row.no, LogRow(self.match.seq + 1, None, "seat", move, None, now())


class Tables:
    """Every table of this server: created, loaded from SQLite, changed under a lock."""

    def __init__(self, store: Store, engines: Mapping[str, Game],
                 listener: TableListener | None = None, alphabet: str = CODE_ALPHABET,
                 length: int = CODE_LENGTH, retirement: Retirement | None = None,
                 peers: Peers | None = None) -> None:
        self.store = store
        #: The engines of the games this server offers, by game id.
        self.engines = engines
        self.listener = listener
        #: The other processes serving the same store, if any: then a table is caught up
        #: from the store whenever it is looked up, and they are told of each change.
        self.peers = peers
        self.alphabet = alphabet
        self.length = length
        self.retirement = retirement or Retirement()
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._swept = 0.0
        #: Finished matches replayed to be read again, and plays' starting views.
        self._replayed: LRU[tuple[str, int, float], Table] = LRU(REPLAYED_KEPT)
        self._started: LRU[tuple[str, int], Mapping[str, Any]] = LRU(REPLAYED_KEPT * 4)

    # --- finding and loading -------------------------------------------------------

    def get(self, code: str) -> Table | None:
        code = code.upper()
        if len(code) != self.length or any(ch not in self.alphabet for ch in code):
            return None
        with self._lock:
            table = self._tables.get(code)
            if table is None:
                table = self._load(code)
                if table is not None:
                    self._tables[code] = table
        if table is not None and self.peers is not None:
            self.catch_up(table)
            if table.retired:  # given up by another process: the code may name a new table
                return self.get(code)
        return table

    def _load(self, code: str) -> Table | None:
        revision = self.store.revision(code)  # read first: what is read next is as new
        row = self.store.load_table(code)
        if row is None or revision is None:
            return None
        game = self.engines.get(row.game)
        if game is None:
            return None
        table = Table(row, game, self.store.seats(code), self.store.matches(code),
                      sitting=self.store.sitting(code), host_links=self.store.host_links(code),
                      requests=self.store.seat_requests(code), revision=revision[1],
                      told=revision[1])
        table.touched = max([row.created_at, *(m.started_at for m in table.matches),
                             *(m.ended_at or 0 for m in table.matches)])
        for entry in self._read_log(table):
            table.match.replay(entry)
            table.touched = max(table.touched, entry.at)
        table.match.paused = self.store.pause(code)
        return table

    def heard(self, code: str) -> None:
        """Another server process changed the table ``code``: catch it up, if this process
        holds it."""
        with self._lock:
            table = self._tables.get(code)
        if table is not None:
            self.catch_up(table)

    def catch_up_all(self) -> None:
        """Catch up every table this process holds (changes may have gone unheard)."""
        with self._lock:
            held = list(self._tables.values())
        for table in held:
            self.catch_up(table)

    def catch_up(self, table: Table) -> None:
        """Bring ``table`` up to the store, and tell the listener what other server
        processes changed at it: this process's sockets are pushed it as a change made
        here is."""
        with table.lock:
            was_retired = table.retired
            self._read_back(table)
            retired = table.retired and not was_retired
            changed = table.told != table.revision
            freed, revoked = table.untold_freed, table.untold_revoked
            table.told, table.untold_freed, table.untold_revoked = table.revision, set(), False
        if self.listener is None:
            return
        if retired:
            self.listener.table_retired(table.code)
            return
        for seat in sorted(freed):
            self.listener.seat_freed(table.code, seat)
        if revoked:
            self.listener.host_link_revoked(table.code)
        if changed:
            self.listener.table_changed(table)

    def _read_back(self, table: Table) -> None:
        """Bring ``table`` up to the store where another process changed it: its seats,
        sitting, host links and matches read again, and the entries logged since replayed
        (a new match's from its start). A table whose code was given up, or names another
        table now, is retired. Call under the table's lock; ``catch_up`` tells."""
        if table.retired:
            return
        found = self.store.revision(table.code)  # read first: what is read next is as new
        if found is None or found[0] != table.row.created_at:
            table.retired = True
            with self._lock:
                if self._tables.get(table.code) is table:
                    del self._tables[table.code]
            return
        if found[1] == table.revision:
            return
        code = table.code
        seats, links = self.store.seats(code), self.store.host_links(code)
        table.untold_freed |= {seat for seat, (_, token_hash) in table.seats.items()
                               if seats.get(seat, ("", ""))[1] != token_hash}
        table.untold_revoked |= bool(set(table.host_links) - set(links))
        table.seats, table.host_links, table.sitting = seats, links, self.store.sitting(code)
        table.requests = self.store.seat_requests(code)
        table.matches = self.store.matches(code)
        for entry in self._read_log(table):
            table.match.replay(entry)
        table.match.paused = self.store.pause(code)
        table.revision = found[1]
        table.touched = now()

    def _store(self, table: Table, write: Callable[..., None], *args: Any,
               viewer: int | None = None, **kwargs: Any) -> None:
        """Store one change of ``table``: ``write`` (a ``Store`` method) with the table's
        code, ``args`` and ``kwargs``, made against the table's revision. Call under the
        table's lock. If another server process changed the table first, nothing is
        stored: the table is read back and the change refused as stale (with ``viewer``'s
        seq now)."""
        try:
            write(table.code, *args, revision=table.revision, **kwargs)
        except Behind:
            self._read_back(table)
            if table.retired:
                raise TableError("table.unknown-table") from None
            raise TableError("table.stale", seq=table.match.seq_for(viewer)) from None
        table.revision += 1
        if table.told == table.revision - 1:  # the caller tells of its own change
            table.told = table.revision

    def _read_log(self, table: Table) -> list[LogRow]:
        """The entries of ``table``'s last match (``matches`` as just read back) that it
        has not replayed: a match begun elsewhere is begun here, and all of its are."""
        if not table.matches:
            return []
        row = table.matches[-1]
        if table.match.row is None or table.match.row.no != row.no:
            log = self.store.log(table.code, row.no)
            table.begin(row, holders_at_start(table.holders_now(), log))
            return log
        table.match.row = row  # as stored now: another process may have ended or reopened it
        return self.store.log(table.code, row.no, after=table.match.seq)

    # --- creating and joining --------------------------------------------------------

    def create(self, game_id: str, players: int, options: dict[str, Any],
               seed: int | None = None, lang: str = "en") -> tuple[Table, str]:
        """A new table in the lobby; returns it and the host's token."""
        game = self.engines.get(game_id)
        if game is None:
            raise TableError("table.unknown-game", game=game_id)
        if not game.min_players <= players <= game.max_players:
            raise TableError("table.player-count", low=game.min_players, high=game.max_players)
        parsed = parse_options(game, options)
        host_token = new_token()
        self.retire_idle()
        for _ in range(CODE_TRIES):
            # Looked for without the lock (every look-up of a table takes it); only the
            # code found is claimed under it, and a code claimed meanwhile is tried again.
            code = "".join(secrets.choice(self.alphabet) for _ in range(self.length))
            if code in self._tables or self.store.code_taken(code):
                continue
            row = TableRow(code, game_id, players, parsed, hash_token(host_token), now(),
                           seed, lang)
            with self._lock:
                if code in self._tables or not self.store.create_table(row):
                    continue
                table = Table(row, game, {}, [], touched=row.created_at)
                self._tables[code] = table
            return table, host_token
        raise TableError("table.no-free-code")

    def retire_idle(self, force: bool = False) -> list[str]:
        """Give up the codes of tables where nothing has happened for longer than
        ``retirement`` says (at most once a minute unless ``force``); returns them."""
        moment = now()
        with self._lock:
            if not force and moment - self._swept < self.retirement.every:
                return []
            self._swept = moment
        retired = []
        for code, last, matches, over in self.store.activity():
            if moment - last >= self.retirement.due(matches, over) and self._retire(code, moment):
                retired.append(code)
        return retired

    def _retire(self, code: str, moment: float) -> bool:
        with self._lock:  # a table not in memory is loaded under this lock: not meanwhile
            table = self._tables.get(code)
            if table is None:
                self.store.retire(code)
                return True
        with table.lock:
            due = self.retirement.due(len(table.matches), table.status == "over")
            if moment - table.touched < due:
                return False  # something happened at it since the store was read
            table.retired = True
            with self._lock:
                self._tables.pop(code, None)
            self.store.retire(code)
        if self.listener:
            self.listener.table_retired(code)
        self._tell_peers(table)
        return True

    @staticmethod
    def _open(table: Table) -> None:
        """Refuse a change to a table whose code was given up (under ``table.lock``)."""
        if table.retired:
            raise TableError("table.unknown-table")

    def join(self, table: Table, name: str, seat: int | None) -> tuple[int, str]:
        """Seat a player on ``seat`` (None: the first free one); a seat freed during a game
        is refused (``table.seat-held``): it is asked for (``ask_seat``)."""
        name = player_name(name)
        with table.lock:
            free = [s for s in range(table.row.players)
                    if s not in table.seats and not table.held(s)]
            if seat is None:
                if not free:
                    raise TableError("table.full")
                seat = free[0]
            if not 0 <= seat < table.row.players:
                raise TableError("table.no-such-seat", seat=seat)
            self._open(table)
            if seat in table.seats:
                raise TableError("table.seat-taken", seat=seat)
            if table.held(seat):
                raise TableError("table.seat-held", seat=seat + 1)
            token = new_token()
            self._store(table, self.store.take_seat, seat, name, hash_token(token))
            table.seats[seat] = (name, hash_token(token))
        self._changed(table)
        return seat, token

    def ask_seat(self, table: Table, name: str, seat: int, asker: str) -> str:
        """Ask the host for ``seat``, freed during the game; returns the newcomer's token,
        which becomes the seat's when the host lets them in (``admit``). An ``asker``
        asking again replaces its own request (a phone tapping twice, or changing its
        name), so one asker never fills the line; it keeps its spoken code, which its
        owner may already have said to the host."""
        name = player_name(name)
        with table.lock:
            self._open(table)
            if not 0 <= seat < table.row.players:
                raise TableError("table.no-such-seat", seat=seat)
            if seat in table.seats:
                raise TableError("table.seat-taken", seat=seat)
            others = {key: other for key, other in table.requests.items()
                      if other.asker != asker}
            if len(others) >= REQUESTS_MAX:
                raise TableError("table.too-many-requests")
            token = new_token()
            previous = next((other for other in table.requests.values()
                             if other.asker == asker), None)
            spoken = previous.spoken_code if previous else \
                new_spoken_code({other.spoken_code for other in others.values()})
            request = SeatRequest(secrets.token_hex(4), seat, name, hash_token(token), now(),
                                  spoken, asker)
            self._store(table, self.store.ask_seat, request)
            table.requests = {**others, request.id: request}
        self._changed(table)
        return token

    def admit(self, table: Table, request_id: str) -> SeatRequest:
        """The host lets a waiting newcomer into the seat they asked for; whoever else
        asked for it is turned away."""
        with table.lock:
            self._open(table)
            request = table.requests.get(request_id)
            if request is None:
                raise TableError("table.no-such-request")
            if request.seat in table.seats:
                raise TableError("table.seat-taken", seat=request.seat)
            said = table.said({"admitted": request.seat, "name": request.name,
                               "was": table.match.freed_from(request.seat)})
            self._store(table, self.store.take_seat, request.seat, request.name,
                        request.token_hash, said)
            if said:
                table.match.logged(said[1])
            table.seats[request.seat] = (request.name, request.token_hash)
            table.requests = {key: other for key, other in table.requests.items()
                              if other.seat != request.seat}
        self._changed(table)
        return request

    def turn_away(self, table: Table, request_id: str) -> None:
        with table.lock:
            if request_id not in table.requests:
                raise TableError("table.no-such-request")
            self._store(table, self.store.turn_away, request_id)
            del table.requests[request_id]
        self._changed(table)

    def sit(self, table: Table, seat: int, screen: str) -> None:
        """Record where the table screen is from ``seat`` (one of ``SCREEN_SIDES``)."""
        if screen not in SCREEN_SIDES:
            raise TableError("table.bad-request", detail="screen")
        with table.lock:
            self._open(table)
            self._store(table, self.store.sit, seat, screen, viewer=seat)
            table.sitting[seat] = screen
        self._changed(table)

    def pause(self, table: Table, pause: Pause | None) -> None:
        """Put the whole table in ``pause``'s moment, refusing every move until it ends
        (``None``); pushed to every viewer."""
        with table.lock:
            self._open(table)
            if pause is not None and table.status != "playing":
                raise TableError("table.not-playing")
            if pause != table.match.paused:
                self._store(table, self.store.set_pause, pause)
            table.match.paused = pause
        self._changed(table)

    def free_seat(self, table: Table, seat: int) -> None:
        with table.lock:
            self._open(table)
            if seat not in table.seats:
                raise TableError("table.seat-free", seat=seat)
            said = table.said({"freed": seat, "name": table.name(seat)})
            self._store(table, self.store.free_seat, seat, said)
            if said:
                table.match.logged(said[1])
            del table.seats[seat]
            table.sitting.pop(seat, None)
        if self.listener:
            self.listener.seat_freed(table.code, seat)
        self._changed(table)

    # --- the host's other devices ----------------------------------------------------

    def make_host_link(self, table: Table) -> tuple[int, str]:
        """A new host link; returns its id and its key, which is shown once and stored
        only as its hash."""
        with table.lock:
            self._open(table)
            if len(table.host_links) >= HOST_LINKS_MAX:
                raise TableError("table.too-many-host-links", max=HOST_LINKS_MAX)
            link = max(table.host_links, default=0) + 1
            key = new_host_key()
            made = now()
            self._store(table, self.store.add_host_link, link, hash_token(key), made)
            table.host_links[link] = (hash_token(key), made)
        return link, key

    def revoke_host_link(self, table: Table, link: int) -> None:
        """The devices that opened host link ``link`` lose the host's buttons at once."""
        with table.lock:
            self._open(table)
            if link not in table.host_links:
                raise TableError("table.no-such-host-link")
            self._store(table, self.store.revoke_host_link, link)
            del table.host_links[link]
        if self.listener:
            self.listener.host_link_revoked(table.code)
        self._tell_peers(table)

    # --- playing -------------------------------------------------------------------

    def start(self, table: Table, first_seat: int = 0, seed: int | None = None) -> int:
        """Start the first match, or the next one once a match is over (play again)."""
        with table.lock:
            self._open(table)
            if table.status == "playing":
                raise TableError("table.already-playing")
            if len(table.seats) < table.row.players:
                raise TableError("table.seats-missing",
                                 missing=table.row.players - len(table.seats))
            if not 0 <= first_seat < table.row.players:
                raise TableError("table.no-such-seat", seat=first_seat)
            if seed is None and table.row.seed is not None:
                seed = table.row.seed + len(table.matches)
            if seed is None:
                seed = secrets.randbits(53)
            match = MatchRow(len(table.matches) + 1, seed, first_seat, now(), None, None)
            self._store(table, self.store.start_match, match)
            table.matches.append(match)
            table.begin(match, table.holders_now())
            seq = table.match.seq_for(None)
        self._changed(table)
        return seq

    def submit(self, table: Table, seat: int, move: Any, seq: Any,
               client_move_id: Any) -> tuple[int, bool]:
        """Apply ``move`` for ``seat``; returns (the seat's seq after it, whether it was a
        repeat). Seqs are the seat's own (``Match.seq_for``).

        A repeated ``client_move_id`` applies once; a move made against an old ``seq`` is
        refused as stale; ``apply`` is the authority on everything else. The move is
        checked, played, stored, then told.
        """
        check_sent(move, seq, client_move_id)
        with table.lock:
            if table.match.made(seat, client_move_id):
                return table.match.seq_for(seat), True
            state = self._awaiting(table, seat, seq)
            after = played(table.game, state, seat, move)
            self._log(table, LogRow(table.match.seq + 1, seat, "move", move, client_move_id,
                                    now()), state, after, seat)
            seq = table.match.seq_for(seat)
        self._changed(table)
        return seq, False

    def _awaiting(self, table: Table, seat: int, seq: int) -> State:
        """The state a move of ``seat`` sent against its ``seq`` is made on: refused unless
        the table is open and its match on and not paused, ``seq`` is the seat's now, and
        the seat has a move to make. Call under the table's lock."""
        self._open(table)
        match = table.match
        if match.status != "playing":
            raise TableError("table.not-playing")
        unpaused(match)
        if seq != match.seq_for(seat):
            raise TableError("table.stale", seq=match.seq_for(seat))
        if not match.moves(seat):
            raise TableError("table.not-your-turn", turn=match.awaited())
        assert match.state is not None
        return match.state

    def explain(self, table: Table, seat: int, chosen: dict[str, Any]) -> TableError | None:
        """Why no move of ``seat`` has the values ``chosen`` (a dimmed card or a greyed
        square the player tapped), without changing anything; None when one has."""
        with table.lock:
            match = table.match
            if match.status != "playing" or match.state is None:
                return TableError("table.not-playing")
            if any(has_values(move, chosen) for move in match.pick_moves(seat, chosen)):
                return None
            refusal = table.game.why_not(match.state, seat, chosen)
            # A seat with nothing to do is told whom the game waits for.
            waits = {} if match.moves(seat) else {"turn": match.awaited()}
        return TableError(refusal.rule, **{**refusal.params, **waits})

    def undo(self, table: Table, seat: int) -> int:
        """``seat`` takes back its own move, the last effective one, if it revealed nothing
        and the game is on; returns the seat's seq."""
        with table.lock:
            match = table.match
            if match.row is None or not match.steps:
                raise TableError("table.nothing-to-undo")
            step = match.steps[-1]
            if match.row.outcome is not None:
                raise TableError("table.undo-finished")
            if step.entry.seat != seat:
                raise TableError("table.undo-not-yours")
            unpaused(match)
            if not table.game.can_undo(step.before, step.entry.mover, step.entry.move,
                                       step.after):
                raise TableError("table.undo-revealed")
            self._take_back(table, len(match.steps) - 1, seat)
            seq = table.match.seq_for(seat)
        self._changed(table)
        return seq

    def host_undo(self, table: Table, expected: int) -> int:
        """The host takes back the last move the table screen shows, which its confirmation
        named by the screen's seq (``expected``, see ``Match.last_shown``), with any move the
        screen may not see made after it (a SkyRunner choice changed since); if the screen
        has shown another move since, nothing is (``table.moved-on``). Returns the screen's
        seq: the host is the screen's viewer, and learns nothing more."""
        with table.lock:
            match = table.match
            if match.row is None or not match.steps:
                raise TableError("table.nothing-to-undo")
            shown = match.last_shown()
            if shown is None or match.number_of(match.steps[shown].entry.seq,
                                                None) != expected:
                raise TableError("table.moved-on")
            self._take_back(table, shown, None)
            seq = table.match.seq_for(None)
        self._changed(table)
        return seq

    def rewind(self, table: Table, to: int, expected: int) -> int:
        """The host takes back move ``to`` and every effective move after it.
        ``expected`` is the table's seq as the host's confirmation showed it; both are the
        table screen's seqs (``seq_for(None)``): if anything the screen shows has happened
        since, nothing is taken back (``table.moved-on``). A choice the screen may not see,
        made since, is after ``to`` and goes back with the rest. Returns the screen's seq."""
        with table.lock:
            match = table.match
            if match.row is None or not match.steps:
                raise TableError("table.nothing-to-undo")
            if match.seq_for(None) != expected:
                raise TableError("table.moved-on")
            seqs = [step.entry.seq for step in match.steps]
            first = match.entry_seq(to, None)
            if first is None or first not in seqs:
                raise TableError("table.no-such-move", seq=to)
            self._take_back(table, seqs.index(first), None)
            seq = table.match.seq_for(None)
        self._changed(table)
        return seq

    def correct(self, table: Table, correction: Any, expected: int) -> int:
        """The host sets the public position right, as it stands on the real table: the
        game checks ``correction`` against what its rules let exist (``Game.correct``),
        and the correction becomes an entry of the log, replayed, undone and rewound like a
        move. ``expected`` is the table screen's seq as the host saw it: if the screen has
        shown anything since, nothing is changed (``table.moved-on``). Returns the screen's
        seq."""
        with table.lock:
            self._open(table)
            match = table.match
            if match.status != "playing":
                raise TableError("table.not-playing")
            if match.seq_for(None) != expected:
                raise TableError("table.moved-on")
            state = match.state
            assert state is not None
            after = corrected(table.game, state, correction)
            self._log(table, LogRow(match.seq + 1, None, "correction", correction, None, now()),
                      state, after)
            seq = table.match.seq_for(None)
        self._changed(table)
        return seq

    def _log(self, table: Table, entry: LogRow, state: State, after: State,
             viewer: int | None = None) -> None:
        """Store ``entry`` (a move or a correction that turned ``state`` into ``after``) with
        the outcome it reaches, in one transaction, then keep it in the match; an outcome
        ends the match. Call under the table's lock, with a match; refused as stale with
        ``viewer``'s seq if another process changed the table first (``_store``)."""
        match = table.match
        row = match.row
        assert row is not None
        outcome = table.game.outcome(after)
        outcome_json = self._outcome_json(table, outcome) if outcome else None
        self._store(table, self.store.append, row.no, entry, outcome=outcome_json,
                    viewer=viewer)
        match.logged(entry, state, after)
        if outcome_json:
            row.outcome = outcome_json
            row.ended_at = entry.at

    def _take_back(self, table: Table, first: int, seat: int | None) -> None:
        """Take back ``table.match.steps[first:]``, newest first, as one undo entry each (by
        ``seat``, None: the host), written in one transaction: the log replays to the same
        state. Taking back the winning move reopens the match. Call under the table's
        lock, with a match."""
        match = table.match
        row = match.row
        assert row is not None
        at = now()
        entries = [LogRow(match.seq + number, seat, "undo", {"undo": step.entry.seq}, None, at)
                   for number, step in enumerate(reversed(match.steps[first:]), 1)]
        reopen = row.outcome is not None
        self._store(table, self.store.append, row.no, entries, reopen=reopen, viewer=seat)
        for entry in entries:
            match.logged(entry)
        if reopen:
            row.outcome = None
            row.ended_at = None

    def _outcome_json(self, table: Table, outcome: Outcome) -> dict[str, Any]:
        """The outcome as stored, with who played each seat: a seat free at the end, by
        whoever the host freed from it (the night's scoreboard names who played)."""
        result = outcome.as_json()
        result["names"] = {str(seat): table.name(seat) if seat in table.seats
                           else table.match.freed_from(seat) or ""
                           for seat in range(table.row.players)}
        return result

    def plays_tonight(self, hours: float, tokens: Collection[str] | None = None) -> list[Play]:
        """The games finished in the last ``hours``, in the order they ended; with
        ``tokens``, only those of the tables one of them hosts or has a seat at (a retired
        table's too)."""
        hashes = None if tokens is None else {hash_token(token) for token in tokens}
        found = []
        for row in self.store.finished_since(now() - hours * 3600, hashes):
            play = play_of(row.code, row.game, row.players, row.options, row.match,
                           row.seat_entries)
            if play is not None:
                found.append(play)
        return found

    def replayed(self, play: Play) -> Table:
        """The table of ``play`` as it stood when the game ended, replayed from the store,
        to read its log and its moves ("This move") as the table screen did. Nothing can
        be changed at it. The last few asked for are kept."""
        key = (play.key, play.no, play.ended_at)
        with self._lock:
            kept = self._replayed.get(key)
        if kept is not None:
            return kept
        row = self.store.load_table(play.key)
        assert row is not None  # the play was read from it
        match = next(m for m in self.store.matches(play.key) if m.no == play.no)
        # Seated as the game ended (by names alone: no token opens a seat of it).
        seated = {seat.seat: (seat.players[-1], "") for seat in play.seats}
        table = Table(row, self.engines[play.game], seated, [match], retired=True)
        log = self.store.log(play.key, play.no)
        last = max(entry.seq for entry in log if entry.kind == "move")
        table.begin(match, tuple(seat.players[0] for seat in play.seats))
        for entry in log:
            if entry.seq <= last:
                table.match.replay(entry)
        with self._lock:
            self._replayed.put(key, table)
        return table

    def public_start(self, play: Play) -> Mapping[str, Any]:
        """The table screen's view of ``play`` as it was set up: what every player saw from
        the start (the seats' colours). Kept for the last few plays asked for."""
        key = (play.key, play.no)
        with self._lock:
            kept = self._started.get(key)
        if kept is None:
            game = self.engines[play.game]
            options = dict(play.options, first_seat=play.first_seat)
            kept = game.view(game.setup(len(play.seats), options, play.seed), None)
            with self._lock:
                self._started.put(key, kept)
        return kept

    def _changed(self, table: Table) -> None:
        table.touched = now()
        if self.listener:
            self.listener.table_changed(table)
        self._tell_peers(table)

    def _tell_peers(self, table: Table) -> None:
        """Tell the other processes that ``table`` changed: its code and revision only,
        never what changed (they read it from the store)."""
        if self.peers is not None:
            self.peers.changed(table.code, table.revision)


def check_sent(move: Any, seq: Any, client_move_id: Any) -> None:
    """Refuse a move sent in a shape no move is sent in: a move names its ``type``, a seq
    is a whole number, and a client's move id a short text."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise TableError("table.bad-move")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise TableError("table.bad-seq")
    if not isinstance(client_move_id, str) or not 0 < len(client_move_id) <= \
            CLIENT_MOVE_ID_MAX:
        raise TableError("table.bad-client-move-id")


def unpaused(match: Match) -> None:
    """Refuse a change of ``match`` while the whole table is in a moment of the game's
    (``Tables.pause``), with the clause of that moment."""
    if match.paused is not None:
        raise TableError(match.paused.rule)


def played(game: Game, state: State, seat: int, move: Any) -> State:
    """``state`` after ``seat``'s ``move``, or the clause ``game`` refuses it with."""
    try:
        return game.apply(state, seat, copy.deepcopy(move))
    except IllegalMove as refusal:
        raise TableError(refusal.rule, **refusal.params) from None


def corrected(game: Game, state: State, correction: Any) -> State:
    """``state`` with the host's ``correction`` made by ``game`` (``Game.correct``), or the
    clause that refuses it: a game that takes no corrections refuses every one."""
    try:
        return game.correct(state, copy.deepcopy(correction))
    except IllegalMove as refusal:
        raise TableError(refusal.rule, **refusal.params) from None


def player_name(raw: str) -> str:
    """A player's name as the pages show it (``names.tidied``); refused when nothing of it
    shows or it is too long."""
    name = tidied(raw)
    if not shows(name) or len(name) > NAME_MAX:
        raise TableError("table.name", max=NAME_MAX)
    return name


def parse_options(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    """The game's options from a form or JSON, defaults filled in; unknown keys refused."""
    if not isinstance(raw, dict):
        raise TableError("table.bad-options")
    known = {option.key: option for option in game.options()}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise TableError("table.unknown-option", option=unknown[0][:40])
    parsed = {}
    for key, option in known.items():
        if key not in raw:
            parsed[key] = option.default
            continue
        try:
            parsed[key] = option.parse(raw[key])
        except ValueError:
            raise TableError("table.bad-option", option=key) from None
    return parsed
