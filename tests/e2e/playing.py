"""Whole games through the JSON API, each game's own quick way to its end, for the browser
tests that look at the pages of a game under way or over."""

from __future__ import annotations

import random

from support import cl_strategy, hm_strategy, sr_strategy
from tests.conftest import ApiTable
from tests.web import test_heuchel_meuchel_api as hm
from tests.web import test_skyrunner_api as sr


def play(table: ApiTable, game: str, moves: int = 800) -> None:
    """Up to ``moves`` moves, each game's own way to a quick end, as its API test plays it;
    to the end when ``moves`` is enough."""
    rng = random.Random(4)
    for _ in range(moves):
        if table.view()["outcome"] is not None:
            return
        if game == "heuchel-meuchel":
            seat, moves = hm.seat_with_work(table)
            move = hm_strategy.choose(table.view(seat)["view"], moves)
        elif game == "skyrunner":
            seat, view, moves = sr.seat_to_act(table)
            move = sr_strategy.choose(view, moves)
        elif game == "climbers":
            seat = table.view()["view"]["turn"]
            move = cl_strategy.choose(table.view(seat)["view"], seat, table.moves(seat))
        else:
            seat, moves = table.seat_to_move()
            move = rng.choice(moves)
        assert table.post_move(seat, move).status_code == 200
