"""In 7th Heaven's corrections: the host sets a piece on the space it stands on at the
table; a position that cannot be is refused by its rule, the state unchanged."""

from __future__ import annotations

import copy
import re
from functools import partial
from pathlib import Path

from companion.games.seventh_heaven.game import SeventhHeaven
from tests.rule_checks import correction_clauses, refused_correction

GAME = SeventhHeaven()


def started(players: int = 3):
    return GAME.setup(players, {"first_seat": 0}, 7)


refused = partial(refused_correction, GAME)


def test_a_piece_is_set_on_its_space_and_the_moves_follow_from_there():
    state = started()
    after = GAME.correct(state, {"type": "piece", "piece": "red", "space": 10})
    assert after["pieces"]["red"] == 10 and state["pieces"]["red"] == 0
    assert after["turn"] == state["turn"] and after["hands"] == state["hands"]
    assert after["effects"] == []
    # Two pieces may share a space in this game.
    shared = GAME.correct(after, {"type": "piece", "piece": "blue", "space": 10})
    assert shared["pieces"]["blue"] == shared["pieces"]["red"] == 10
    moves = GAME.legal_moves(shared, shared["turn"])
    assert moves and all(GAME.apply(shared, shared["turn"], move) for move in moves[:5])


def test_impossible_corrections_are_refused_with_their_rule():
    state = started()
    refused(state, {"type": "piece", "piece": "red", "space": state["heaven"]},
            "7h.correct.track")
    refused(state, {"type": "piece", "piece": "red", "space": -1}, "7h.correct.track")
    refused(state, {"type": "piece", "piece": "red", "space": 0}, "7h.correct.same")
    refused(state, {"type": "piece", "piece": "mauve", "space": 3}, "table.bad-correction")
    refused(state, {"type": "piece", "piece": "red"}, "table.bad-correction")
    refused(state, {"type": "hand", "seat": 0, "cards": [1]}, "table.bad-correction")
    arrived = dict(copy.deepcopy(state), pieces={**state["pieces"], "red": state["heaven"]})
    err = refused(arrived, {"type": "piece", "piece": "red", "space": 3},
                  "7h.correct.in-heaven")
    assert err.params == {"colour": "red"}
    deciding = dict(copy.deepcopy(state), phase="event-swap")
    refused(deciding, {"type": "piece", "piece": "red", "space": 3},
            "7h.correct.decision-first")
    over = dict(copy.deepcopy(state), phase="over")
    refused(over, {"type": "piece", "piece": "red", "space": 3}, "7h.game.over")


def test_every_refusal_of_a_correction_is_shown_here():
    named = set(re.findall(r"\"([a-z0-9]+\.correct\.[a-z\-]+)\"", Path(__file__).read_text()))
    assert correction_clauses("seventh-heaven") <= named
