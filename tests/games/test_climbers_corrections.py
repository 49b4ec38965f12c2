"""The Climbers' corrections: the host sets a figure on its square, or a block where it lies
and the way it lies, between turns; a position the rules of what can stand do not allow is
refused by its rule, the state unchanged; the turn starts again from the corrected
position. Positions are built as in test_climbers.py (seat 0 red, seat 1 dark blue)."""

from __future__ import annotations

import copy
import re
from functools import partial
from pathlib import Path

from companion.games.climbers import Climbers, rules
from tests.games.test_climbers import PASS, STAIRS, table, walk
from tests.rule_checks import correction_clauses, refused_correction

GAME = Climbers()
refused = partial(refused_correction, GAME)

#: The stairs (a grey half-cube at 0,0, a grey cube at 2,0), a red cube on the cube (its
#: top at 4) and a grey half-cube at 0,2 beside the first; seat 0 on the first half-cube.
TOWER = (*STAIRS, ("C2", 2, 0, "red"), ("H10", 0, 2, "grey"))


def position():
    return table(2, TOWER, figures={0: "0,0"})


def figure(seat: int, to: str) -> dict:
    return {"type": "figure", "seat": seat, "to": to}


def block(block_id: str, x: int, y: int, top: str, long: str | None = None) -> dict:
    return {"type": "block", "block": block_id, "x": x, "y": y, "top": top, "long": long}


def test_a_figure_is_set_on_its_square_and_the_turn_starts_from_there():
    state = position()
    before = copy.deepcopy(state)
    after = GAME.correct(state, figure(0, "2,0"))
    assert state == before  # the state corrected is a new one
    assert after["figures"]["0"] == "2,0" and after["effects"] == []
    assert after["start"] == {"height": 4, "dipped": False} and after["top_before"] == 4
    assert after["turn_start"]["figures"]["0"] == "2,0"  # a restart comes back here
    assert after["turn"] == 0 and after["step"] == "before"
    walks = {move["to"] for move in GAME.legal_moves(after, 0) if move["type"] == "walk"}
    assert "2,0" not in walks and "0,0" in walks  # worked out from the top of the cube
    assert GAME.correct(state, figure(0, "2,0")) == after  # replayed, the same state
    assert GAME.correct(after, figure(0, "table"))["figures"]["0"] is None


def test_a_block_is_set_where_it_lies_resting_on_what_is_under_it():
    state = position()
    after = GAME.correct(state, block("C2", 4, 0, "yellow"))
    assert after["blocks"]["C2"] == {"x": 4, "y": 0, "z": 0, "w": 2, "d": 2, "h": 2,
                                     "top": "yellow", "long": None}
    # Last in the order, as a block moved: each block rests on blocks before it.
    assert after["order"] == [*(b for b in state["order"] if b != "C2"), "C2"]
    assert rules.movable(after) == ["C1", "C2", "H10"]  # the cube's top shows again
    on_edge = GAME.correct(state, block("H10", 0, 2, "red", "x"))["blocks"]["H10"]
    assert (on_edge["z"], on_edge["w"], on_edge["d"], on_edge["h"]) == (0, 2, 1, 2)
    # A blocking stone lies on the block: it goes with it; one under the place is no matter.
    stoned = dict(copy.deepcopy(state), blocked={"1": "C2"})
    assert GAME.correct(stoned, block("C2", 4, 0, "red"))["blocked"] == {"1": "C2"}
    stoned["blocked"] = {"1": "H10"}
    onto = GAME.correct(stoned, block("C2", 0, 2, "red"))
    assert onto["blocks"]["C2"]["z"] == 1 and onto["order"][-1] == "C2"


def test_a_figure_on_the_floor_of_a_pit_the_block_opened_stands_on_the_table():
    walls = (("H5", 0, 0, "red", "y"), ("H6", 1, 0, "red", "x"), ("H7", 2, 1, "red", "y"),
             ("H8", 0, 2, "red", "x"))
    state = table(2, walls, figures={1: "1,1"})
    assert rules.tower(state).pits() == {(1, 1)}
    after = GAME.correct(state, block("H7", 3, 0, "red", "y"))
    assert after["figures"]["1"] is None and after["effects"] == []


def test_impossible_figures_are_refused_with_their_rule():
    state = position()
    refused(state, figure(1, "2,0"), "cl.figure.colour")  # dark blue on a red top
    refused(state, figure(1, "0,0"), "cl.figure.one-per-square")
    refused(state, figure(1, "9,9"), "cl.correct.no-top")
    refused(state, figure(1, "table"), "cl.correct.same-figure")
    refused(state, figure(0, "0,0"), "cl.correct.same-figure")
    stoned = dict(copy.deepcopy(state), blocked={"1": "H10"})
    refused(stoned, figure(1, "0,2"), "cl.figure.stone")
    refused(state, figure(7, "table"), "table.bad-correction")
    refused(state, {"type": "figure", "seat": 1, "to": "up"}, "table.bad-correction")
    refused(state, {"type": "ladder", "seat": 1}, "table.bad-correction")


def test_impossible_blocks_are_refused_with_their_rule():
    state = position()
    refused(state, block("C2", 2, 0, "red"), "cl.correct.same-block")
    refused(state, block("C2", 4, 0, "red", "x"), "cl.block.shape")  # a cube has no long side
    refused(state, block("H9", 4, 0, "grey"), "cl.block.occupied")  # seat 0 stands on it
    refused(state, block("C1", 4, 0, "grey"), "cl.block.covered")  # the red cube is on it
    refused(state, block("C2", 1, 0, "red"), "cl.build.support")  # half on 1, half on 2
    refused(state, block("C2", 9, 9, "red"), "cl.build.contact")
    refused(state, block("C2", 0, 0, "red"), "cl.correct.covers-figure")
    refused(state, block("Z9", 4, 0, "red"), "table.bad-correction")
    refused(state, block("C2", 4, 0, "pink"), "table.bad-correction")


def test_a_correction_waits_for_the_turn_to_begin_and_for_the_tower_to_stand():
    state = position()
    refused(GAME.apply(state, 0, PASS), figure(1, "0,2"), "cl.correct.mid-turn")
    refused(GAME.apply(state, 0, walk("0,2")), figure(1, "2,0"), "cl.correct.mid-turn")
    building = GAME.setup(2, {"tower": "own"}, 1)
    refused(building, figure(1, "table"), "cl.correct.playing")
    over = dict(copy.deepcopy(state), phase="over")
    refused(over, figure(1, "0,2"), "cl.game.over")


def test_every_refusal_of_a_correction_is_shown_here():
    named = set(re.findall(r"\"([a-z0-9]+\.correct\.[a-z\-]+)\"", Path(__file__).read_text()))
    assert correction_clauses("climbers") <= named
