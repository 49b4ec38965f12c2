"""Every engine refuses a seat that is not a plain whole number of its table with a clause:
JSON's true, a float, a string or null is no seat, and never raises anything else."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalMove
from companion.web.games import BY_ID

NOT_SEATS = [True, False, 1.0, 0.0, "0", "1", None, -1, 99]


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
@pytest.mark.parametrize("game_id", sorted(BY_ID))
def test_a_seat_that_is_no_plain_int_may_do_nothing(game_id, seat):
    game = BY_ID[game_id].engine
    state = game.setup(game.min_players, {}, 5)
    mover = next(s for s in range(game.min_players) if game.legal_moves(state, s))
    move = game.legal_moves(state, mover)[0]
    assert game.legal_moves(state, seat) == []
    with pytest.raises(IllegalMove):
        game.apply(state, seat, move)
