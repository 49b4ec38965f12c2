"""The phone's move picker: one question at a time, legal moves only."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import has_values
from companion.web.picker import Pick, anew, back, narrow, parse_chosen

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


# The picker as first written, one move and one value at a time: ``narrow`` must ask the
# same questions, offer the same values and settle on the same moves, however it finds them.
def _reference_key(value):
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    return type(value), value


def _reference_distinct(values):
    seen, out = set(), []
    for value in values:
        if _reference_key(value) not in seen:
            seen.add(_reference_key(value))
            out.append(value)
    return out


def _reference_narrow(moves, keys, chosen):
    left = [m for m in moves if has_values(m, chosen)]
    if len(left) == 1:
        return Pick(chosen, None, [], False, [], left[0], 1)
    order = list(keys) + sorted({k for m in left for k in m if k not in keys})
    for key in order:
        if key in chosen:
            continue
        present = [m.get(key) for m in left]
        values = _reference_distinct([v for v in present if v is not None])
        if not values or (len(_reference_distinct(present)) < 2 and chosen):
            continue
        if any(isinstance(v, list) for v in values):
            items = _reference_distinct([item for v in values for item in v])
            return Pick(chosen, key, sorted(items, key=json.dumps), True,
                        sorted({len(v) for v in values}), None, len(left))
        having = {}
        for move in left:
            if key in move:
                having.setdefault(_reference_key(move[key]), []).append(move)
        found = [having.get(_reference_key(value), []) for value in values]
        return Pick(chosen, key, values, False, [], None, len(left),
                    [ms[0] if len(ms) == 1 else None for ms in found])
    return Pick(chosen, None, [], False, [], left[0] if len(left) == 1 else None, len(left))


# 1, 1.0 and True are equal in Python and different values here. A parameter is a list
# (a multiple choice: "cards") in every move that has it, or in none.
VALUES = st.sampled_from([0, 1, 2, True, False, 1.0, 0.0, "a", "b", None])
LISTS = st.sampled_from([[1, 2], [2, 1], [1], [True]])
MOVE = st.dictionaries(st.sampled_from(["card", "type", "piece", "x", "extra"]), VALUES,
                       min_size=1).flatmap(
    lambda move: st.one_of(st.just(move), LISTS.map(lambda cards: {**move, "cards": cards})))


@settings(max_examples=400, deadline=None)
@given(moves=st.lists(MOVE, max_size=12),
       chosen=st.dictionaries(st.sampled_from(["card", "type", "x"]), VALUES, max_size=2)
       | st.dictionaries(st.just("cards"), LISTS))
def test_narrowing_in_bulk_asks_what_one_move_at_a_time_would(moves, chosen):
    keys = ("card", "type", "piece")
    # repr tells 1, 1.0 and True apart, as == does not.
    assert repr(narrow(moves, keys, chosen)) == repr(_reference_narrow(moves, keys, chosen))


def test_one_choice_back_drops_the_last_choice_and_what_was_answered_with_it():
    chosen = {"type": "block", "block": "C4", "x": 1, "y": 2, "long": None}
    assert back(chosen, ("y", "long")) == {"type": "block", "block": "C4"}
    assert back({"type": "block", "block": "C4"}, ("y", "long")) == {"type": "block"}
    assert back({"type": "walk", "to": "1,2"}) == {"type": "walk"}
    assert back({"card": 3}) == {} and back({}) == {}


def test_a_choice_made_anew_drops_the_answers_given_after_it():
    chosen = {"row": 5, "count": 1, "to": 7}
    assert anew(chosen, {"row": 6}) == {"row": 6}
    assert anew({"type": "move", "row": 5, "count": 1}, {"count": 2}) == {
        "type": "move", "row": 5, "count": 2}
    assert anew({"row": 5}, {"count": 1}) == {"row": 5, "count": 1}
    assert anew({"block": "C4", "x": 1, "y": 2}, {"y": 3, "x": 0}) == {
        "block": "C4", "x": 0, "y": 3}
