"""SkyRunner's corrections: the host sets a climber on the place it hangs at the table; a
place that cannot be is refused by its rule, the state unchanged, and a correction naming a
card (a secret choice before its reveal above all) is refused."""

from __future__ import annotations

import copy
import re
from functools import partial
from pathlib import Path

from companion.games.skyrunner import building
from companion.games.skyrunner.game import SkyRunner
from tests.rule_checks import correction_clauses, refused_correction

GAME = SkyRunner()


def started(players: int = 3):
    return GAME.setup(players, {"first_seat": 0}, 5)


refused = partial(refused_correction, GAME)


def test_a_climber_is_set_on_its_place_and_the_choices_follow_from_there():
    state = started()
    chosen = GAME.apply(state, 1, GAME.legal_moves(state, 1)[0])  # a choice in secret
    after = GAME.correct(chosen, {"type": "climber", "seat": 0, "level": 3, "lane": 1})
    assert building.position(after, 0) == (3, 1)
    assert after["choices"] == chosen["choices"] and after["hands"] == chosen["hands"]
    assert after["effects"] == []
    assert GAME.legal_moves(after, 0)
    back = GAME.correct(after, {"type": "climber", "seat": 0, "level": 0, "lane": 0})
    assert building.position(back, 0) == (0, 0)


def test_impossible_corrections_are_refused_with_their_rule():
    state = GAME.correct(started(), {"type": "climber", "seat": 1, "level": 3, "lane": 1})
    climber = {"type": "climber", "seat": 0}
    err = refused(state, {**climber, "level": 4, "lane": 1}, "sr.correct.overlap")
    assert err.params == {"level": 4, "lane": 1}
    GAME.correct(state, {**climber, "level": 5, "lane": 1})  # two levels apart: no overlap
    top = building.roof(state) - 1
    refused(state, {**climber, "level": top + 1, "lane": 1}, "sr.correct.off-building")
    refused(state, {**climber, "level": 0, "lane": 1}, "sr.correct.off-building")
    refused(state, {**climber, "level": 2, "lane": 9}, "sr.correct.off-building")
    refused(state, {**climber, "level": 0, "lane": 0}, "sr.correct.same")
    refused(state, {**climber, "seat": 7, "level": 2, "lane": 1}, "table.bad-correction")
    refused(state, {"type": "choose", "seat": 0, "card": 3}, "sr.correct.secret")
    refused(state, {**climber, "level": 2, "lane": 1, "card": 3}, "sr.correct.secret")
    acting = dict(copy.deepcopy(state), phase="resolve")
    refused(acting, {**climber, "level": 2, "lane": 1}, "sr.correct.round-acting")
    over = dict(copy.deepcopy(state), phase="over")
    refused(over, {**climber, "level": 2, "lane": 1}, "sr.game.over")


def test_every_refusal_of_a_correction_is_shown_here():
    named = set(re.findall(r"\"([a-z0-9]+\.correct\.[a-z\-]+)\"", Path(__file__).read_text()))
    assert correction_clauses("skyrunner") <= named
