"""The game protocol's optional members, as a table uses them: a game with nothing more to
it (the tests' High Card) gets the defaults (every legal move offered to the picker, a
seat's view drawn from the state, no corrections), and a game that overrides ``moves`` (a
variant, a subclass of High Card) is what the table asks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from companion.games.base import Game, IllegalMove, Move, MoveList, Moves, State, has_values
from companion.store import Store
from companion.tables import Table, TableError, Tables
from tests.fake_game.engine import HighCard

GAME = HighCard()


def started(tmp_path: Any, game: Game) -> tuple[Tables, Table]:
    """A table of two at ``game``, its match begun, seat 0 to play."""
    tables = Tables(Store(str(tmp_path / "companion.sqlite")), {"high-card": game})
    table, _host = tables.create("high-card", 2, {}, seed=5)
    for name in ("Ana", "Ben"):
        tables.join(table, name, None)
    tables.start(table, first_seat=0)
    return tables, table


def test_a_game_with_nothing_more_gets_the_protocol_s_defaults():
    state = GAME.setup(2, {"first_seat": 0}, 5)
    legal = GAME.legal_moves(state, 0)
    moves = GAME.moves(state, 0)
    assert isinstance(moves, MoveList) and moves
    assert list(moves) == legal and legal[-1] in moves
    assert {"type": "play", "card": -1} not in moves and "play" not in moves
    # The picker narrows every legal move itself.
    assert moves.narrow({"card": legal[0]["card"]}) == legal
    assert not GAME.moves(state, 1)  # not its turn
    public = GAME.view(state, None)
    assert GAME.seat_view(state, 1, public) == GAME.view(state, 1) != public
    assert not GAME.takes_corrections
    with pytest.raises(IllegalMove) as refused:
        GAME.correct(state, {"type": "card"})
    assert refused.value.rule == "table.no-corrections"


def test_a_table_of_a_game_that_takes_no_corrections_refuses_one(tmp_path):
    tables, table = started(tmp_path, GAME)
    with pytest.raises(TableError) as refused:
        tables.correct(table, {"type": "card"}, table.match.seq_for(None))
    assert refused.value.rule == "table.no-corrections"
    assert table.match.seq == 0


class Asked(Moves):
    """High Card's legal moves, narrowed to those with the values picked (the picker's
    narrowing done by the game, as The Climbers' is), counting what is asked of them."""

    def __init__(self, legal: list[Move]) -> None:
        self.legal = legal
        self.narrowed: list[Mapping[str, Any]] = []

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal)

    def narrow(self, chosen: Mapping[str, Any]) -> list[Move]:
        self.narrowed.append(chosen)
        return [move for move in self.legal if has_values(move, chosen)] or self.legal


class Narrowing(HighCard):
    """High Card whose moves narrow themselves: a variant is a subclass."""

    def __init__(self) -> None:
        self.made: list[tuple[int, Asked]] = []

    def moves(self, state: State, seat: int) -> Asked:
        moves = Asked(self.legal_moves(state, seat))
        self.made.append((seat, moves))
        return moves


def test_a_table_asks_a_game_that_overrides_its_moves_once_for_each_seat_and_state(tmp_path):
    game = Narrowing()
    tables, table = started(tmp_path, game)
    card = table.match.moves_for(0)[1]["card"]
    assert table.match.pick_moves(0, {"card": card}) == [{"type": "play", "card": card}]
    assert table.match.awaited() == [0]
    assert table.match.moves(0) is table.match.moves(0)
    assert [seat for seat, _ in game.made] == [0, 1]  # each seat's asked once for the state
    mover = game.made[0][1]
    assert {"card": card} in mover.narrowed and {} in mover.narrowed
    with pytest.raises(TableError) as refused:  # seat 1's moves are none
        tables.submit(table, 1, {"type": "play", "card": card}, table.match.seq_for(1), "m1")
    assert refused.value.rule == "table.not-your-turn"
    tables.submit(table, 0, {"type": "play", "card": card}, table.match.seq_for(0), "m0")
    assert table.match.awaited() == [1]
    assert [seat for seat, _ in game.made] == [0, 1, 0, 1]  # asked again of the new state
