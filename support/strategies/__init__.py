"""Each game's deterministic way to play, shared by the API tests, the browser tests and the
screenshots so all play the same seeded game: ``support/strategies/<package>.py`` for the
game of ``companion/games/<package>/``, found from the game's id.

A game's module has a ``quick_move(table)``, the seat that acts next and its move, for the
tests that only need a game played on (to its end, or some way in); a game without a module
is played by random legal moves (``quick_player``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from companion.games.registry import package

Move = dict[str, Any]


class Table(Protocol):
    """A table driven through the JSON API, as the tests' ``ApiTable`` drives it."""

    players: int

    def view(self, seat: int | None = None) -> dict[str, Any]: ...

    def moves(self, seat: int) -> list[Move]: ...

    def seat_to_move(self) -> tuple[int, list[Move]] | None: ...


QuickMove = Callable[[Table], tuple[int, Move]]


def quick_player(game_id: str, rng: random.Random) -> QuickMove:
    """The game's own ``quick_move``, else the first seat that may move, a random move."""
    name = f"{__name__}.{package(game_id).rsplit('.', 1)[-1]}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return lambda table: at_random(table, rng)
    quick_move: QuickMove = module.quick_move
    return quick_move


def at_random(table: Table, rng: random.Random) -> tuple[int, Move]:
    found = table.seat_to_move()
    assert found is not None, "nobody may move and the game is not over"
    seat, moves = found
    return seat, rng.choice(moves)
