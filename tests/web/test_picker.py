"""The phone's move picker: one question at a time, legal moves only."""

from __future__ import annotations

import pytest

from companion.web.picker import narrow, parse_chosen

MOVES = [
    {"type": "move", "card": 1, "piece": "red"},
    {"type": "swap", "card": 1, "give": "blue"},
    {"type": "move", "card": 2, "piece": "red"},
    {"type": "move", "card": 2, "piece": "grey"},
    {"type": "move", "card": 3, "piece": "red"},
]
KEYS = ("card", "type", "piece", "give")


def test_opens_on_the_first_key():
    pick = narrow(MOVES, KEYS, {})
    assert pick.key == "card" and pick.values == [1, 2, 3]


def test_asks_only_where_the_moves_left_differ():
    assert narrow(MOVES, KEYS, {"card": 1}).key == "type"
    assert narrow(MOVES, KEYS, {"card": 2}).key == "piece"
    assert narrow(MOVES, KEYS, {"card": 2}).values == ["red", "grey"]


def test_settles_on_one_move():
    pick = narrow(MOVES, KEYS, {"card": 3})
    assert pick.key is None and pick.move == MOVES[4]


def test_a_value_no_legal_move_has_settles_nothing():
    pick = narrow(MOVES, KEYS, {"card": 9})
    assert pick.move is None and pick.remaining == 0
    pick = narrow(MOVES, KEYS, {"card": True})  # True == 1 in Python, not here
    assert pick.move is None


def test_list_values_are_one_multiple_choice():
    moves = [{"type": "discard", "cards": [a, b]} for a, b in ((1, 2), (1, 3), (2, 3))]
    pick = narrow(moves, ("card", "type", "cards"), {})
    assert pick.key == "type"
    pick = narrow(moves, ("card", "type", "cards"), {"type": "discard"})
    assert pick.multi and pick.values == [1, 2, 3] and pick.sizes == [2]
    assert narrow(moves, ("cards",), {"cards": [3, 1]}).move == moves[1]


@pytest.mark.parametrize("raw", ["[1]", '"x"', "{1: 2}", "{" * 3000, '{"a": '])
def test_bad_pick_parameters_are_refused(raw):
    with pytest.raises(ValueError):
        parse_chosen(raw)
