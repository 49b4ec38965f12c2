"""A finished game as a play: what a games night keeps of it and a player logs elsewhere
(BG Stats, BoardGameGeek, a spreadsheet): who held each seat, who started, the scores and
places, when it began and how long it took. Read from the stored match (its outcome) and
the seat entries of its log, which are public: a play holds no hand and no secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.store import RETIRED_MARK, LogRow, MatchRow


@dataclass(frozen=True)
class PlaySeat:
    """One seat of a finished game."""

    seat: int
    #: Who held the seat during the game, in order: one name, or, where the host freed it
    #: and let a newcomer in, each of them as the log names them.
    players: tuple[str, ...]
    score: int | None
    #: 1 for the winners; tied seats share the better place ("1, 1, 3").
    place: int

    @property
    def winner(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class Play:
    """A finished match of a table, as its players would log it."""

    #: The table as stored: its code, with an archive mark once the code was given up.
    key: str
    game: str
    no: int
    first_seat: int
    started_at: float
    ended_at: float
    reason: str
    seats: tuple[PlaySeat, ...]
    #: What the game was set up from (the table's options and the match's seed), for what
    #: the table showed of it from the start: the seats' colours.
    options: Mapping[str, Any]
    seed: int

    @property
    def id(self) -> str:
        """The play's address: its table as stored and its match number."""
        return f"{self.key}-{self.no}"

    @property
    def code(self) -> str:
        """The table's code as its players knew it."""
        return self.key.partition(RETIRED_MARK)[0]

    @property
    def minutes(self) -> int:
        """How long it took, in whole minutes (at least one)."""
        return max(1, round((self.ended_at - self.started_at) / 60))

    @property
    def starter(self) -> str:
        """Who made the first move: the first player of the first seat."""
        return self.seats[self.first_seat].players[0]


def places(ranking: Iterable[Iterable[int]]) -> dict[int, int]:
    """Each seat's place in a ranking (best first, tied seats in one group): tied seats
    share the better place, and the next place counts them all."""
    found, place = {}, 1
    for group in ranking:
        seats = list(group)
        found.update(dict.fromkeys(seats, place))
        place += len(seats)
    return found


def holders(players: int, names: Mapping[str, str], seat_entries: Iterable[LogRow],
            ) -> list[tuple[str, ...]]:
    """Who held each seat during a game, in order: the host's seat entries made before its
    last move (``seat_entries``) name whoever was freed and let in; a seat the host never
    touched, whoever the outcome names (``names``, by seat)."""
    held: list[list[str]] = [[] for _ in range(players)]
    for entry in seat_entries:
        seat = entry.move.get("freed", entry.move.get("admitted"))
        if isinstance(seat, int) and 0 <= seat < players and (
                not held[seat] or held[seat][-1] != entry.move["name"]):
            held[seat].append(entry.move["name"])
    return [tuple(chain) if chain else (names.get(str(seat), ""),)
            for seat, chain in enumerate(held)]


def before_the_end(log: Iterable[LogRow]) -> list[LogRow]:
    """A finished match's seat entries made before its last move: what the host does at
    the table once the game is over belongs to no play."""
    entries = list(log)
    last = max((entry.seq for entry in entries if entry.kind == "move"), default=0)
    return [entry for entry in entries if entry.kind == "seat" and entry.seq < last]


def play_of(key: str, game: str, players: int, options: Mapping[str, Any], match: MatchRow,
            seat_entries: Iterable[LogRow]) -> Play | None:
    """The play a finished ``match`` was (None while it is not over); ``seat_entries`` are
    its log's seat entries before its last move (``before_the_end``)."""
    outcome = match.outcome
    if outcome is None or match.ended_at is None:
        return None
    placed = places(outcome["ranking"])
    scores = outcome.get("scores", {})
    seats = tuple(
        PlaySeat(seat, names, scores.get(str(seat)), placed.get(seat, players))
        for seat, names in enumerate(holders(players, outcome.get("names", {}),
                                             seat_entries)))
    return Play(key, game, match.no, match.first_seat, match.started_at, match.ended_at,
                outcome.get("reason", ""), seats, options, match.seed)
