"""Whole games through the JSON API, each game's own quick way to its end, for the browser
tests that look at the pages of a game under way or over."""

from __future__ import annotations

import random

from support.strategies import quick_player
from tests.conftest import ApiTable


def play(table: ApiTable, game: str, moves: int = 800) -> None:
    """Up to ``moves`` moves, each game's own way to a quick end, as its API test plays it
    (``support/strategies/``; random legal moves for a game without one); to the end when
    ``moves`` is enough."""
    quick_move = quick_player(game, random.Random(4))
    for _ in range(moves):
        if table.view()["outcome"] is not None:
            return
        seat, move = quick_move(table)
        assert table.post_move(seat, move).status_code == 200
