"""The generator kept in a game's state: JSON, replayed exactly, and one text rather than
625 numbers, so that the states a table keeps (one a move) give the garbage collector
nothing to walk."""

from __future__ import annotations

import gc
import json
import random

import pytest

from companion.games.base import copy_state, new_rng_state, rng_from_state, roll, shuffled
from companion.web.games import BY_ID

SEEDED = [game_id for game_id, spec in BY_ID.items()
          if "rng" in spec.engine.setup(spec.engine.min_players, {}, 1)]


def test_the_generator_is_python_s_own_seeded_the_same_way():
    expected = random.Random(42)
    state = {"rng": new_rng_state(42)}
    cards = list(range(30))
    expected.shuffle(cards)
    assert shuffled(state, list(range(30))) == cards
    assert roll(state, 6) == expected.randint(1, 6)
    assert rng_from_state(state["rng"]).random() == expected.random()


def test_the_generator_survives_json_and_a_copy():
    state = {"rng": new_rng_state(7)}
    roll(state, 6)
    again = json.loads(json.dumps(state))
    assert again == state
    copied = copy_state(state)
    assert roll(copied, 100) == roll(again, 100)
    assert copied["rng"] != state["rng"]  # the copy moved on, the original did not


@pytest.mark.parametrize("game_id", SEEDED)
def test_a_state_s_generator_is_nothing_the_collector_walks(game_id):
    engine = BY_ID[game_id].engine
    state = engine.setup(engine.min_players, {}, 3)
    assert len(state["rng"]) == 3
    assert not gc.is_tracked(state["rng"][1])
    assert rng_from_state(copy_state(state)["rng"]).getstate() == \
        rng_from_state(state["rng"]).getstate()
