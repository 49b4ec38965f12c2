"""A table's match: its state, its log and the steps it made, and what each viewer is shown
of them.

The state of a match is its game's ``setup`` followed by its log, replayed (``replay``).
A table holds its current match (``companion.tables.Table.match``), an empty one while it
is in its lobby, and starts each match as a new one: nothing of the last is kept. The
match keeps what every viewer asks of its current state (each seat's view and legal
moves) and of its log (each viewer's numbering and redacted items); the table stores
every change before it is made here, under its lock.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Game, Move, MoveList, Moves, State
from companion.store import LogRow, MatchRow, Pause


@dataclass
class Step:
    """One effective move of the match and the states around it."""

    entry: LogRow
    before: State
    after: State


@dataclass(frozen=True)
class Recorded:
    """One move of the match's log on its own, as one viewer may know it
    (``Match.recorded``): what a "This move" page shows."""

    #: The log's item, as the viewer's log shows it (``Match.log_for``).
    item: dict[str, Any]
    #: The table's views just before and just after the move (public: no secret).
    before: Mapping[str, Any]
    after: Mapping[str, Any]
    #: The rules the engine held the move to (``Game.checked``), in the order it checks them.
    checked: list[str]
    #: The viewer's numbers of the moves logged just before and just after it, if any.
    earlier: int | None
    later: int | None


#: The kinds of log entry that change the state, each a ``Step`` undone and rewound alike:
#: a seat's move, and the host's correction of the public position (``Tables.correct``).
STEPS = ("move", "correction")

#: Who holds each seat, by seat number: a name, or None for a free seat.
Holders = tuple[str | None, ...]


def holders_at_start(now: Holders, log: list[LogRow]) -> Holders:
    """Who held each seat when a match began, from who holds it ``now`` and the match's
    ``log``: its seat entries, taken back newest first (a seat is never changed during a
    match but through one, written with the change)."""
    names = list(now)
    for entry in reversed(log):
        if entry.kind == "seat" and "freed" in entry.move:
            names[entry.move["freed"]] = entry.move["name"]
        elif entry.kind == "seat":
            names[entry.move["admitted"]] = None
    return tuple(names)


@dataclass
class Numbering:
    """The match's log as one viewer may know it. A seq that reaches a viewer is its own:
    how many entries it may know of, up to and including that one (``Match.seq_for``), so
    another seat's hidden change neither shows in a number nor leaves a gap in them."""

    #: How many entries of the log have been looked at.
    scanned: int = 0
    #: The log's own seq of each entry the viewer may know of, oldest first: the viewer's
    #: number for ``seen[i]`` is ``i + 1``.
    seen: list[int] = field(default_factory=list)
    #: The viewer's number of each entry in ``seen``, by the log's own seq.
    number: dict[int, int] = field(default_factory=dict)


@dataclass
class Match:
    """One match of a table: its row as stored, the state it started from, its log and its
    effective moves, with what is kept of them for the viewers. A table in its lobby holds
    one with no row, no state and an empty log."""

    game: Game
    #: The table's number of seats.
    players: int
    #: The table's lock (``Table.lock``): what reads or changes the match holds it.
    lock: threading.RLock
    #: The match as stored (None: the table's lobby); its outcome is set as a move ends it.
    row: MatchRow | None = None
    initial: State | None = None
    #: Who holds each seat as of the log's last entry.
    holding: Holders = ()
    log: list[LogRow] = field(default_factory=list)  # every entry of the match
    steps: list[Step] = field(default_factory=list)  # the effective moves, oldest first
    #: The state before and after each logged move, taken back ones included (kept when it
    #: is taken back): a log line says a move as it was, from the table around it. An
    #: effective move's after is the next one's before, the same object.
    befores: dict[int, State] = field(default_factory=dict)
    afters: dict[int, State] = field(default_factory=dict)
    #: Who held each seat when each entry of the log was made (None: free), by the log's
    #: seq: a line names the players of its moment, never today's. Entries between two
    #: seat changes share one tuple.
    holders: dict[int, Holders] = field(default_factory=dict)
    #: What each logged move did beyond itself, each effect naming its clause (public).
    effects: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: The moment the whole table is in, pausing its moves (``Tables.pause``): kept in
    #: memory only, it stores nothing, and a restart ends it.
    paused: Pause | None = None
    #: What was asked of the current state, and of the one before it (the log's newest line
    #: draws that one), by (what, seat): each viewer's view ("view"; the table screen's is
    #: seat None's) and each seat's legal moves ("moves"). A push asks for every viewer's.
    _kept: list[tuple[State, dict[tuple[str, int | None], Any]]] = \
        field(default_factory=list, repr=False)
    #: The log's items as each viewer sees them, by (seq, viewer, whether it was taken
    #: back): every push asks every viewer's last lines, and an entry of the match never
    #: changes but for being taken back.
    _log_items: dict[tuple[int, int | None, bool], dict[str, Any] | None] = \
        field(default_factory=dict, repr=False)
    #: Each viewer's numbering of the log (``Numbering``), brought up to date when asked:
    #: an entry's visibility never changes, so each entry is looked at once per viewer.
    _numberings: dict[int | None, Numbering] = field(default_factory=dict, repr=False)

    @property
    def seq(self) -> int:
        """The log's own count of entries: the server's, never shown to a viewer (see
        ``seq_for``)."""
        return len(self.log)

    @property
    def state(self) -> State | None:
        return self.steps[-1].after if self.steps else self.initial

    @property
    def status(self) -> str:
        """"lobby" (no match yet), "playing" or "over"."""
        if self.row is None:
            return "lobby"
        return "over" if self.row.outcome is not None else "playing"

    def outcome(self) -> dict[str, Any] | None:
        return self.row.outcome if self.row else None

    def made(self, seat: int, client_move_id: str) -> bool:
        """Whether ``seat`` made a move with ``client_move_id`` in this match already."""
        return any(entry.client_move_id == client_move_id and entry.seat == seat
                   for entry in self.log)

    def moves(self, seat: int | None) -> Moves:
        """``seat``'s legal moves now (``Game.moves``), asked of the game once per state:
        the move's POST, the pushes and the pages all ask, and a block of The Climbers may
        go to thousands of places. None for the table screen, nor unless the match is on."""
        state = self.state
        if seat is None or self.status != "playing" or state is None:
            return MoveList([])
        moves: Moves = self._asked(state, "moves", seat, lambda: self.game.moves(state, seat))
        return moves

    def moves_for(self, seat: int | None) -> list[Move]:
        """Every legal move of ``seat`` now, listed (the JSON API's, and the tests')."""
        return list(self.moves(seat))

    def pick_moves(self, seat: int | None, chosen: Mapping[str, Any]) -> list[Move]:
        """The legal moves a phone's picker needs for the values ``chosen``
        (``Moves.narrow``: The Climbers' a block's places only once it is tapped). Empty
        exactly when ``moves_for`` is. Shared: read it, never change it. Only the game's
        moves are kept here, asked at every push and move: a phone may send any values,
        so keeping an answer for each would let one phone grow the table's memory."""
        return self.moves(seat).narrow(chosen)

    def awaited(self) -> list[int]:
        """The seats the game waits for now: those with a move to make."""
        return [seat for seat in range(self.players) if self.moves(seat)]

    def view_for(self, seat: int | None) -> Mapping[str, Any] | None:
        state = self.state
        return None if state is None else self._view(state, seat, keep=True)

    def _view(self, state: State, seat: int | None, keep: bool = False) -> Mapping[str, Any]:
        """``game.view``, kept for the current state (``keep``) and the one before it. A
        seat's is drawn from the table's (``Game.seat_view``), worked out once per state
        for every seat."""
        def answer() -> Mapping[str, Any]:
            if seat is None:
                return self.game.view(state, None)
            return self.game.seat_view(state, seat, self._view(state, None, keep))

        view: Mapping[str, Any] = self._asked(state, "view", seat, answer, keep)
        return view

    def _asked(self, state: State, what: str, seat: int | None, answer: Callable[[], Any],
               keep: bool = True) -> Any:
        """``answer()`` for ``state``, kept under (``what``, ``seat``). ``keep`` keeps a state
        not kept yet (the current one); a kept state stays until the next but one is."""
        kept = next((found for kept_state, found in self._kept if kept_state is state), None)
        if kept is None:
            if not keep:
                return answer()
            kept = {}
            self._kept = [*self._kept[-1:], (state, kept)]
        if (what, seat) not in kept:
            kept[(what, seat)] = answer()
        return kept[(what, seat)]

    def unseen(self, entry: LogRow, viewer: int | None) -> bool:
        """Whether ``viewer`` may not learn that this entry was made (see
        ``Game.redact_move``); an undo is unseen when the move it takes back is."""
        if entry.kind in ("seat", "correction"):  # the host's, seen by everyone
            return False
        if entry.kind == "undo":
            target = next((e for e in self.log if e.seq == entry.move["undo"]), None)
            return target is not None and self.unseen(target, viewer)
        return self.game.redact_move(self.befores[entry.seq], entry.mover, entry.move,
                                     viewer) is None

    def freed_from(self, seat: int) -> str | None:
        """The name of whoever the host last freed from ``seat`` during this match."""
        return next((entry.move["name"] for entry in reversed(self.log)
                     if entry.kind == "seat" and entry.move.get("freed") == seat), None)

    def logged(self, entry: LogRow, before: State | None = None,
               after: State | None = None) -> None:
        """``entry``, just stored, as the log's newest, with who held the seats then and,
        for a move or a correction, the states around it."""
        self.log.append(entry)
        self.holders[entry.seq] = self.holding
        if entry.kind == "seat":
            names = list(self.holding)
            if "freed" in entry.move:
                names[entry.move["freed"]] = None
            else:
                names[entry.move["admitted"]] = entry.move["name"]
            self.holding = tuple(names)
        elif entry.kind in STEPS:
            assert before is not None and after is not None
            self.befores[entry.seq], self.afters[entry.seq] = before, after
            self.effects[entry.seq] = after.get("effects", [])
            self.steps.append(Step(entry, before, after))
        else:
            self.steps.pop()

    def replay(self, entry: LogRow) -> None:
        """``entry``, read from the store, made again as the log's newest: a move applied,
        a correction made, as when they were first stored."""
        if entry.kind not in STEPS:
            self.logged(entry)
            return
        before = self.state
        assert before is not None
        after = self.game.apply(before, entry.mover, entry.move) if entry.kind == "move" \
            else self.game.correct(before, copy.deepcopy(entry.move))
        self.logged(entry, before, after)

    def last_shown(self) -> int | None:
        """The index in ``steps`` of the last effective move the table screen shows (what
        the host's undo names), or None."""
        for index in range(len(self.steps) - 1, -1, -1):
            if not self.unseen(self.steps[index].entry, None):
                return index
        return None

    def seq_for(self, viewer: int | None) -> int:
        """``viewer``'s seq: how many entries of the match's log it may know of. What its
        pages and answers show, and what its moves are checked against: another seat's
        hidden change neither shows in it nor makes a move stale."""
        return len(self._numbered(viewer).seen)

    def number_of(self, seq: int, viewer: int | None) -> int | None:
        """``viewer``'s own number for the log's entry ``seq`` (None: it may not know of it)."""
        return self._numbered(viewer).number.get(seq)

    def entry_seq(self, number: int, viewer: int | None) -> int | None:
        """The log's own seq of the entry ``viewer`` numbers ``number`` (None: no such)."""
        seen = self._numbered(viewer).seen
        return seen[number - 1] if 0 < number <= len(seen) else None

    def _numbered(self, viewer: int | None) -> Numbering:
        """``viewer``'s numbering, the entries logged since it was last asked added."""
        with self.lock:
            numbering = self._numberings.setdefault(viewer, Numbering())
            for entry in self.log[numbering.scanned:]:
                if not self.unseen(entry, viewer):
                    numbering.seen.append(entry.seq)
                    numbering.number[entry.seq] = len(numbering.seen)
            numbering.scanned = len(self.log)
            return numbering

    def moment(self, number: int, viewer: int | None) -> dict[str, Any]:
        """The table as everyone saw it just before and just after the move ``viewer``
        numbers ``number``, as public views, a move taken back too: what a log line
        describing the move as it was (a block's place then) is drawn from."""
        with self.lock:
            seq = self.entry_seq(number, viewer)
            before = None if seq is None else self.befores.get(seq)
            after = None if seq is None else self.afters.get(seq)
            return {"before": None if before is None else self._view(before, None),
                    "after": None if after is None else self._view(after, None)}

    def recorded(self, number: int, viewer: int | None) -> Recorded | None:
        """The move ``viewer`` numbers ``number``, on its own (None: no move of its log has
        that number): the move as its log shows it, the table around it, and the rules the
        engine held it to, listed from the table's view and the move as this viewer sees it,
        so that nothing tells it more than its log (a move taken back since too: its state
        after is kept, ``Match.afters``)."""
        with self.lock:
            moves = [item for item in self.log_for(viewer) if item["kind"] == "move"]
            index = next((at for at, item in enumerate(moves) if item["seq"] == number), None)
            seq = self.entry_seq(number, viewer)
            entry = next((entry for entry in self.log if entry.seq == seq), None)
            if index is None or entry is None:
                return None
            item, around = moves[index], self.moment(number, viewer)
            before = around["before"]
            return Recorded(item, before, around["after"],
                            self.game.checked(before, entry.mover, item["move"]),
                            moves[index - 1]["seq"] if index else None,
                            moves[index + 1]["seq"] if index + 1 < len(moves) else None)

    def log_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The match's log as ``viewer`` may see it: moves redacted, undos shown, what the
        viewer may not learn left out."""
        undone = self._undone()
        return [item for entry in self.log
                if (item := self._log_item(entry, viewer, undone)) is not None]

    def log_tail(self, viewer: int | None, count: int) -> list[dict[str, Any]]:
        """The last ``count`` entries of ``log_for(viewer)``, newest first, without going
        through the whole match (a page shows only these). Each entry is kept and shared,
        never changed: a push digests it once for every viewer."""
        undone = self._undone()
        items: list[dict[str, Any]] = []
        for entry in reversed(self.log):
            if len(items) == count:
                break
            item = self._log_item(entry, viewer, undone)
            if item is not None:
                items.append(item)
        return items

    def _undone(self) -> set[int]:
        return {entry.move["undo"] for entry in self.log if entry.kind == "undo"}

    def _log_item(self, entry: LogRow, viewer: int | None,
                  undone: set[int]) -> dict[str, Any] | None:
        key = (entry.seq, viewer, entry.seq in undone)
        if key not in self._log_items:
            self._log_items[key] = self._redacted_item(entry, viewer, undone)
        return self._log_items[key]

    def _redacted_item(self, entry: LogRow, viewer: int | None,
                       undone: set[int]) -> dict[str, Any] | None:
        number = self.number_of(entry.seq, viewer)
        if number is None:  # the viewer may not learn that it was made
            return None
        item: dict[str, Any] = {"seq": number, "seat": entry.seat, "kind": entry.kind,
                                "at": entry.at, "names": self.holders[entry.seq]}
        if entry.kind == "move":
            item["move"] = self.game.redact_move(self.befores[entry.seq], entry.mover,
                                                 entry.move, viewer)
            item["undone"] = entry.seq in undone
            item["effects"] = self.effects.get(entry.seq, [])
        elif entry.kind == "correction":
            item["correction"] = entry.move
            item["undone"] = entry.seq in undone
        elif entry.kind == "seat":
            item.update(entry.move)
        else:
            item["undo"] = self.number_of(entry.move["undo"], viewer)
            item["by_host"] = entry.seat is None
            target = next((e for e in self.log if e.seq == entry.move["undo"]), None)
            if target is not None and target.kind == "correction":
                item["taken_back"] = {"seat": None, "correction": target.move,
                                      "names": self.holders[target.seq]}
            elif target is not None:  # what it took back, as this viewer saw it
                item["taken_back"] = {"seat": target.seat, "move": self.game.redact_move(
                    self.befores[target.seq], target.mover, target.move, viewer),
                    "names": self.holders[target.seq]}
        return item
