"""Heuchel & Meuchel's corrections: the host sets a stack, known by its top card and its
height, on the row of its column where it stands at the table; a position that cannot be
is refused by its rule, the state unchanged, and no card ever changes stack."""

from __future__ import annotations

import copy
import random
import re
from functools import partial
from pathlib import Path

from companion.games.heuchel_meuchel import board
from companion.games.heuchel_meuchel.data import goal_row, rank_of, start_row
from companion.games.heuchel_meuchel.game import HeuchelMeuchel
from tests.rule_checks import correction_clauses, refused_correction

GAME = HeuchelMeuchel()


def begun(options=None, seed: int = 3):
    """A game just past its set-up: every card placed, the first player to move."""
    state = GAME.setup(3, {"first_seat": 0, **(options or {})}, seed)
    rng = random.Random(seed)
    while state["phase"] == "setup":
        seat, moves = next((seat, moves) for seat in range(3)
                           if (moves := [m for m in GAME.legal_moves(state, seat)
                                         if m["type"] != "lift"]))
        state = GAME.apply(state, seat, rng.choice(moves))
    return state


def a_stack(state):
    """A face-up stack, a free row it may stand on, and a row it may not (its top's goal)."""
    for column in range(1, 7):
        for row, stack in board.stacks(state, column):
            rank = rank_of(board.top(stack))
            free = [to for to in range(start_row(rank), goal_row(rank))
                    if to != row and board.square(state, column, to) is None]
            if not stack["down"] and free:
                return column, row, free[0], goal_row(rank)
    raise AssertionError("no stack to correct")


refused = partial(refused_correction, GAME)


def test_a_stack_is_set_on_its_row_whole_and_the_moves_follow_from_there():
    state = begun()
    column, row, to, _ = a_stack(state)
    cards = board.square(state, column, row)["cards"]
    after = GAME.correct(state, {"type": "stack", "column": column, "row": row, "to": to})
    assert board.square(after, column, row) is None
    assert board.square(after, column, to)["cards"] == cards
    assert after["hands"] == state["hands"] and after["turn"] == state["turn"]
    assert after["effects"] == []
    for move in GAME.legal_moves(after, after["turn"])[:5]:
        GAME.apply(after, after["turn"], move)


def test_impossible_corrections_are_refused_with_their_rule():
    state = begun()
    column, row, to, goal = a_stack(state)
    stack = {"type": "stack", "column": column, "row": row}
    refused(state, {**stack, "to": row}, "hm.correct.same")
    refused(state, {**stack, "to": goal}, "hm.correct.rows")
    refused(state, {**stack, "to": 14}, "table.bad-correction")
    refused(state, {**stack, "to": "8"}, "table.bad-correction")
    refused(state, {**stack, "to": to, "cards": [1]}, "table.bad-correction")
    empty = next(r for r in range(1, 14) if board.square(state, column, r) is None)
    refused(state, {**stack, "row": empty, "to": to}, "hm.correct.no-stack")
    other = next(r for r, _ in board.stacks(state, column) if r != row)
    err = refused(state, {**stack, "to": other}, "hm.correct.occupied")
    assert err.params == {"column": column, "row": other}
    home = copy.deepcopy(state)
    board.square(home, column, row)["down"] = True
    refused(home, {**stack, "to": to}, "hm.correct.home")
    favour = dict(copy.deepcopy(state), phase="favour")
    refused(favour, {**stack, "to": to}, "hm.correct.between-moves")
    setting_up = GAME.setup(3, {"first_seat": 0}, 3)
    refused(setting_up, {"type": "stack", "column": 1, "row": 1, "to": 2},
            "hm.correct.between-moves")
    over = dict(copy.deepcopy(state), phase="over")
    refused(over, {**stack, "to": to}, "hm.game.over")


def test_with_the_die_a_roll_made_is_kept_and_judged_again():
    state = begun({"die": "app"})
    state = GAME.apply(state, state["turn"], {"type": "roll"})
    column, row, to, _ = a_stack(state)
    after = GAME.correct(state, {"type": "stack", "column": column, "row": row, "to": to})
    assert after["roll"] == state["roll"]
    assert after["phase"] == ("move" if board.unit_moves(after, after["turn"]) else "lose")


def test_every_refusal_of_a_correction_is_shown_here():
    named = set(re.findall(r"\"([a-z0-9]+\.correct\.[a-z\-]+)\"", Path(__file__).read_text()))
    assert correction_clauses("heuchel-meuchel") <= named
