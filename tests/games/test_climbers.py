"""The Climbers: a refused and an allowed case for every rule clause, the rulebook's own
pictures, and the catalogue.

States are built by hand from a fresh set-up with the option "own tower" (they are plain
JSON): every block is taken off the table, then a few are put back where the test says,
each resting where it falls (on the table or on the blocks under it), so each test shows
exactly the position it is about. Squares are "x,y" (x east, y north); one unit of height
is a lying half-cube, a cube is 2 high, a standing double cube 4, a foundation 6.
Seat s plays ``COLOURS[s]``: 0 red, 1 dark blue, 2 yellow, 3 light blue, 4 violet. Blocks
H9-H12 and D7-D9 lie flat with grey on top; a cube can show any colour on top.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses, clone
from companion.games.climbers import Climbers, rules
from companion.games.climbers.data import ALL_COLOURS, BLOCKS, COLOURS, FOUNDATIONS
from companion.games.climbers.game import TURN_START
from companion.games.climbers.geometry import Tower, hidden, shape, shapes
from companion.games.climbers.tower import generate
from companion.store import Pause, Store
from companion.tables import Table, TableError, Tables
from tests.rule_checks import (
    TABLE_PARAMS,
    RuleChecks,
    refusals_without_a_test,
)

G = Climbers()
GAME = "climbers"

State = dict[str, Any]
Move = dict[str, Any]
PASS: Move = {"type": "pass"}
END: Move = {"type": "end"}
RESTART: Move = {"type": "restart"}
BUILT: Move = {"type": "built"}


# --- states -------------------------------------------------------------------------------


def table(players: int = 2, blocks: tuple[tuple[Any, ...], ...] = (),
          figures: dict[int, str] | None = None, turn: int = 0, **options: Any) -> State:
    """A turn of ``turn`` about to begin, on a tower of ``blocks`` only: each (id, x, y,
    top[, long]) is put down in that order and rests where it falls. Seat s's figure stands
    on ``figures[s]``, the others on the table."""
    state = G.setup(players, {"tower": "own", **options}, 1)
    state["blocks"] = {block_id: None for block_id in state["blocks"]}
    state["order"] = []
    for block_id, x, y, top, *long in blocks:
        put(state, block_id, x, y, top, long[0] if long else None)
    for seat, place in (figures or {}).items():
        state["figures"][str(seat)] = place
    state.update(phase="play", round=1)
    begin(state, turn)
    return state


def put(state: State, block_id: str, x: int, y: int, top: str, long: str | None = None) -> None:
    dims = shape(BLOCKS[block_id], top, long)
    assert dims is not None, (block_id, top, long)
    w, d, h = dims
    z = Tower(state["blocks"]).rest_height(x, y, w, d)
    assert z is not None, f"{block_id} would not rest flat"
    state["blocks"][block_id] = {"x": x, "y": y, "z": z, "w": w, "d": d, "h": h, "top": top,
                                 "long": long}
    state["order"].append(block_id)


def begin(state: State, seat: int) -> None:
    """``seat``'s turn begins now (what the engine does between turns)."""
    built = Tower(state["blocks"])
    state.update(turn=seat, step="before", walked=False, moved=None)
    state["turns"] += 1
    state["start"] = {"height": rules.height_of(state, seat, built), "dipped": False}
    state["top_before"] = max(rules.height_of(state, s, built) for s in range(state["players"]))
    state["turn_start"] = {key: clone(state[key]) for key in TURN_START}


CHECKS = RuleChecks(G)
offered, allowed, refused = CHECKS.offered, CHECKS.allowed, CHECKS.refused


def play(state: State, seat: int, *moves: Move) -> State:
    for move in moves:
        state = allowed(state, seat, move)
    return state


def walk(to: str, ladders: str = "") -> Move:
    return {"type": "walk", "to": to, "ladders": ladders}


def block(block_id: str, x: Any, y: Any, top: str, long: str | None = None) -> Move:
    return {"type": "block", "block": block_id, "top": top, "long": long, "x": x, "y": y}


def build(block_id: str, x: int, y: int, top: str, long: str | None = None) -> Move:
    return {**block(block_id, x, y, top, long), "type": "build"}


def stone(block_id: str) -> Move:
    return {"type": "stone", "block": block_id}


def height(state: State, seat: int) -> int:
    return rules.height_of(state, seat)


def spot(state: State, block_id: str) -> tuple[int, int, int, int, int, int]:
    place = state["blocks"][block_id]
    return tuple(place[key] for key in ("x", "y", "z", "w", "d", "h"))  # type: ignore[return-value]


#: A small tower: a lying grey half-cube (height 1) at 0,0 and a grey cube (height 2) at 2,0:
#: a figure on the table climbs the half-cube, then the cube, one unit at a time.
STAIRS = (("H9", 0, 0, "grey"), ("C1", 2, 0, "grey"))


# --- set-up -------------------------------------------------------------------------------


def test_setup_pieces():
    """cl.setup.pieces: each seat has its colour, figure (on the table), stone and both
    ladders; the tower is 2 foundations, 9 double cubes, 12 cubes, 12 half-cubes, every
    coloured block with a face of each colour."""
    state = G.setup(5, {}, 3)
    assert G.view(state, None)["colours"] == list(COLOURS) == [
        "red", "dark-blue", "yellow", "light-blue", "violet"]
    assert state["figures"] == {str(s): None for s in range(5)}
    assert state["ladders"] == {str(s): ["short", "long"] for s in range(5)}
    assert state["stones"] == {str(s): "unused" for s in range(5)}
    kinds = [BLOCKS[b].kind.name for b in state["blocks"]]
    assert {k: kinds.count(k) for k in set(kinds)} == {"foundation": 2, "double": 9,
                                                        "cube": 12, "half": 12}
    for block_id, piece in BLOCKS.items():
        tops = {top for top, *_ in shapes(piece)}
        assert tops == ({"grey"} if block_id in FOUNDATIONS else set(ALL_COLOURS)), block_id
    assert G.view(table(3), 1)["colours"] == ["red", "dark-blue", "yellow"]


def test_setup_tower_is_drawn_and_shown_block_by_block():
    """cl.setup.tower: the companion draws the tower: the foundations stand side by side,
    then the double cubes, the cubes, the half-cubes, every block placed."""
    state = G.setup(3, {}, 11)
    assert state["phase"] == "build" and all(state["blocks"].values())
    assert state["order"][:2] == ["F1", "F2"] and sorted(state["order"]) == sorted(BLOCKS)
    kinds = [BLOCKS[b].kind.name for b in state["order"][2:]]
    assert kinds == ["double"] * 9 + ["cube"] * 12 + ["half"] * 12
    for index, block_id in enumerate(FOUNDATIONS):
        assert state["blocks"][block_id] == {"x": 2 * index, "y": 0, "z": 0, "w": 2, "d": 2,
                                             "h": 6, "top": "grey", "long": None}
    view = G.view(state, None)
    assert [b["id"] for b in view["blocks"]] == state["order"] and view["unplaced"] == []
    assert G.setup(3, {}, 11)["blocks"] == state["blocks"]  # the same seed, the same tower


def test_setup_own_tower_starts_with_the_foundations():
    """cl.setup.tower: with the option 'own tower', only the foundations stand, and the
    first player enters the other blocks one by one."""
    state = G.setup(2, {"tower": "own"}, 1)
    assert [b for b, place in state["blocks"].items() if place] == ["F1", "F2"]
    after = allowed(state, 0, build("C1", 0, 2, "red"))
    assert spot(after, "C1") == (0, 2, 0, 2, 2, 2) and after["order"] == ["F1", "F2", "C1"]
    after = allowed(after, 0, build("H1", 0, 2, "yellow"))
    assert spot(after, "H1") == (0, 2, 2, 2, 2, 1) and after["phase"] == "build"
    refused(after, 0, build("C1", 4, 0, "red"), "cl.move.malformed")  # already placed
    refused(after, 0, build("C2", 0, 5, "red"), "cl.build.contact")


def test_setup_hidden():
    """cl.setup.hidden: the tower drawn hides both foundations; the first player says the
    tower stands, and the game begins."""
    state = G.setup(4, {"first_seat": 2}, 5)
    built = Tower(state["blocks"])
    assert all(hidden(built, block_id) for block_id in FOUNDATIONS)
    assert G.legal_moves(state, 2) == [BUILT] and G.legal_moves(state, 0) == []
    refused(state, 2, build("C1", 9, 9, "red"), "cl.turn.phase")
    after = allowed(state, 2, BUILT)
    assert after["phase"] == "play" and after["turn"] == 2 and after["round"] == 1


def test_setup_start():
    """cl.setup.start: every figure starts on the table, the first player begins, and a
    figure on the table may step onto any square next to bare table."""
    state = allowed(G.setup(3, {"first_seat": 1}, 2), 1, BUILT)
    assert state["figures"] == {"0": None, "1": None, "2": None}
    assert state["turn"] == 1 and state["step"] == "before" and state["start"]["height"] == 0
    refused(state, 0, PASS, "cl.turn.wait")
    assert G.legal_moves(state, 0) == [] and G.legal_moves(state, 2) == []
    small = table(blocks=STAIRS)
    assert {m["to"] for m in G.legal_moves(small, 0) if m["type"] == "walk"} == {
        "0,0", "0,1", "1,0", "1,1", "2,0", "2,1", "3,0", "3,1"}
    after = allowed(small, 0, walk("1,1"))
    assert after["figures"]["0"] == "1,1" and height(after, 0) == 1


def test_a_seed_always_draws_the_same_start_tower():
    """A table replays its set-up from its seed each time the server loads it, and its
    logged moves name the blocks' places: the generator may grow faster, never different.
    (The digest is of the towers of seeds 0-19 as first drawn.)"""
    towers = json.dumps([generate(seed) for seed in range(20)], sort_keys=True)
    assert hashlib.sha256(towers.encode()).hexdigest() == \
        "f41cc0413ff08493cd12bd6e731aa28df38eb351d4a91150749685629fee533d"


def test_setup_unplaced():
    """cl.setup.unplaced: the own tower stands only when every block is placed and both
    foundations are hidden."""
    state = G.setup(2, {"tower": "own"}, 1)
    refused(state, 0, BUILT, "cl.setup.unplaced")
    blocks, order = generate(4)
    full = clone(state)
    full["blocks"], full["order"] = clone(blocks), list(order)
    assert allowed(full, 0, BUILT)["phase"] == "play"
    last = order[-1]
    missing = clone(full)
    missing["blocks"][last] = None
    missing["order"].remove(last)
    refused(missing, 0, BUILT, "cl.setup.unplaced")
    place = blocks[last]
    back = allowed(missing, 0, build(last, place["x"], place["y"], place["top"], place["long"]))
    assert allowed(back, 0, BUILT)["phase"] == "play"
    # every block placed, but in a row beside the foundations: they show
    row = clone(state)
    for index, block_id in enumerate(b for b in BLOCKS if b not in FOUNDATIONS):
        square = BLOCKS[block_id].square_pair
        put(row, block_id, 4 + 2 * index, 0, square[0] if square else "red")
    assert all(row["blocks"].values())
    refused(row, 0, BUILT, "cl.setup.unplaced")
    # a block entered in the wrong place may be put where it really stands, any block with
    # nothing on it (not a foundation)
    corrections = G.legal_moves(row, 0)
    assert corrections and {m["type"] for m in corrections} == {"build"}
    assert {m["block"] for m in corrections} == set(BLOCKS) - set(FOUNDATIONS)
    fix = next(m for m in corrections if m["block"] == "C1" and (m["x"], m["y"]) == (0, 2))
    fixed = allowed(row, 0, fix)
    assert spot(fixed, "C1")[:2] == (0, 2) and fixed["phase"] == "build"
    assert fixed["order"][-1] == "C1"
    refused(allowed(missing, 0, build(last, place["x"], place["y"], place["top"],
                                      place["long"])), 0,
            build(order[-2], 40, 40, "red"), "cl.move.malformed")  # a standing tower stays


# --- the turn -----------------------------------------------------------------------------


def test_turn_order():
    """cl.turn.order: walk, move one block, walk again, which ends the turn; then the next
    seat clockwise; a round ends with the seat before the first."""
    state = table(3, (*STAIRS, ("C2", 0, 2, "grey")))
    state = allowed(state, 0, walk("0,0"))
    assert state["step"] == "before" and state["walked"] and height(state, 0) == 1
    state = allowed(state, 0, block("C2", 4, 0, "yellow"))
    assert state["step"] == "after" and not state["walked"] and state["moved"] == "C2"
    assert spot(state, "C2") == (4, 0, 0, 2, 2, 2)
    state = allowed(state, 0, walk("2,0"))
    assert height(state, 0) == 2
    assert (state["turn"], state["step"], state["walked"], state["round"]) == (1, "before",
                                                                              False, 1)
    assert state["last_moved"] == "C2" and state["moved"] is None
    state = play(state, 1, PASS, END)
    assert state["turn"] == 2 and state["round"] == 1
    state = play(state, 2, PASS, END)
    assert state["turn"] == 0 and state["round"] == 2


def test_turn_order_the_last_walk_ends_the_turn_the_stone_in_hand_or_not():
    """cl.turn.order: after the block move, the walk ends the turn at once, whether the
    player still holds the stone or not; the stone, laid before it, leaves that walk to
    come."""
    state = table(2, (*STAIRS, ("C2", 0, 2, "grey")))
    moved = allowed(state, 0, block("C2", 4, 0, "yellow"))
    assert {m["type"] for m in G.legal_moves(moved, 0)} == {"walk", "stone", "end"}
    ended = allowed(moved, 0, walk("0,0"))
    assert (ended["turn"], ended["step"], ended["turns"]) == (1, "before", moved["turns"] + 1)
    assert ended["last_moved"] == "C2" and ended["figures"]["0"] == "0,0"
    assert ended["reached"]["0"] == moved["turns"]
    assert ended["stones"]["0"] == "unused"
    assert G.legal_moves(ended, 0) == []
    laid = allowed(moved, 0, stone("C2"))
    assert (laid["turn"], laid["stones"]["0"], laid["blocked"]) == (0, "used", {"0": "C2"})
    assert {m["type"] for m in G.legal_moves(laid, 0)} == {"walk", "end"}
    ended = allowed(laid, 0, walk("0,0"))
    assert (ended["turn"], ended["blocked"]) == (1, {"0": "C2"})


def test_the_stone_with_no_walk_left_ends_the_turn():
    """cl.turn.order: once the stone is laid, a turn with no walk left to make ends at once,
    as "end" would be all that is left to choose."""
    state = table(2, (("C1", 0, 0, "grey"),))  # red on the table, the cube 2 high
    state["ladders"]["0"] = []
    after = allowed(state, 0, PASS)
    assert [m["type"] for m in G.legal_moves(after, 0)] == ["stone", "end"]
    ended = allowed(after, 0, stone("C1"))
    assert (ended["turn"], ended["blocked"]) == (1, {"0": "C1"})


def test_the_moves_left_after_the_stone_are_worked_out_once(monkeypatch):
    """The moves left after the stone, worked out to know whether the turn goes on, are
    the ones the phone is then offered: they are not worked out again."""
    state = table(2, (*STAIRS, ("C2", 0, 2, "grey")))
    moved = allowed(state, 0, block("C2", 4, 0, "yellow"))
    worked = []
    offered = rules.offered
    monkeypatch.setattr(rules, "offered",
                        lambda *args: worked.append(args) or offered(*args))
    game = Climbers()
    laid = game.apply(moved, 0, stone("C2"))
    assert game.legal_moves(laid, 0) == [m for m, _ in rules.walk_ways(laid, 0)] + [END]
    assert len(worked) == 1


def test_turn_wait():
    """cl.turn.wait: only the seat on turn moves; seats outside the table do nothing."""
    state = table(3, STAIRS)
    refused(state, 1, walk("0,0"), "cl.turn.wait")
    refused(state, 2, PASS, "cl.turn.wait")
    for seat in (-1, 3, 9, True):
        assert G.legal_moves(state, seat) == []
        with pytest.raises(IllegalMove) as err:
            G.apply(state, seat, PASS)
        assert err.value.rule == "cl.turn.wait"
    allowed(state, 0, walk("0,0"))


def test_turn_phase():
    """cl.turn.phase: one walk before and one after the block move, one block move or a
    pass, the stone before that last walk, which ends the turn; nothing out of turn
    order."""
    state = table(2, (*STAIRS, ("C2", 0, 2, "grey")))
    refused(state, 0, END, "cl.turn.phase")
    refused(state, 0, stone("C2"), "cl.turn.phase")
    refused(state, 0, BUILT, "cl.turn.phase")
    refused(state, 0, build("C3", 4, 0, "red"), "cl.turn.phase")
    walked = allowed(state, 0, walk("0,0"))
    refused(walked, 0, walk("1,1"), "cl.turn.phase")
    after = allowed(walked, 0, PASS)
    refused(after, 0, PASS, "cl.turn.phase")
    refused(after, 0, block("C2", 4, 0, "red"), "cl.turn.phase")
    laid = allowed(after, 0, stone("C2"))
    refused(laid, 0, stone("C1"), "cl.stone.used")
    refused(laid, 0, PASS, "cl.turn.phase")
    assert allowed(laid, 0, walk("2,0"))["turn"] == 1
    own = G.setup(2, {"tower": "own"}, 1)
    refused(own, 0, walk("table"), "cl.turn.phase")
    refused(own, 0, block("C1", 4, 0, "red"), "cl.turn.phase")


def test_turn_pass():
    """cl.turn.pass: a pass skips the block move only: the figure still walks after it; the
    next player may then move any block."""
    state = table(2, (*STAIRS, ("C2", 0, 2, "grey")))
    state["last_moved"] = "C2"
    after = allowed(state, 0, walk("0,0"))
    after = allowed(after, 0, PASS)
    assert after["step"] == "after" and after["moved"] is None
    after = allowed(after, 0, walk("2,1"))
    assert after["turn"] == 1 and after["last_moved"] is None and height(after, 0) == 2
    allowed(after, 1, block("C2", 4, 0, "red"))


def test_turn_restart():
    """cl.turn.restart: the figure went down to the table before the block move and no way
    up opened (the only block is the cube it left, a climb back to where it began): the turn
    cannot end, so the player puts everything back and starts again (red may not stand on
    the yellow cube beside it)."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "yellow")), figures={0: "0,0"})
    refused(state, 0, RESTART, "cl.turn.restart")
    down = allowed(state, 0, walk("table"))
    assert down["start"] == {"height": 2, "dipped": True}
    refused(down, 0, RESTART, "cl.turn.restart")
    stuck = allowed(down, 0, PASS)
    assert G.legal_moves(stuck, 0) == [RESTART] and G.view(stuck, 0)["stuck"]
    refused(stuck, 0, END, "cl.figure.higher")
    refused(stuck, 0, walk("0,0", "short"), "cl.figure.higher")
    again = allowed(stuck, 0, RESTART)
    for key in TURN_START:
        assert again[key] == state[key], key
    assert again["effects"] == [{"rule": "cl.turn.restart", "kind": "restart"}]
    assert not G.view(again, 0)["stuck"]
    # a block move that opens no way up: the same, and the block goes back too
    moved = allowed(down, 0, block("C1", 0, 0, "red"))
    assert G.legal_moves(moved, 0) == [RESTART]
    back = allowed(moved, 0, RESTART)
    assert back["blocks"] == state["blocks"] and back["figures"] == state["figures"]
    assert back["step"] == "before" and back["moved"] is None


def test_move_malformed():
    """cl.move.malformed: moves that are not well formed."""
    state = table(2, STAIRS)
    bad = [None, [], "walk", {}, {"type": "fly"}, {"type": "walk", "to": "0,0"},
           {"type": "walk", "to": "0,0", "ladders": "", "x": 1},
           walk("0;0"), walk("a,b"), walk("0,0", "rope"), walk("0,0", "short+short"),
           walk("0,0", None), walk("7,7"),
           block("Z1", 0, 2, "red"), block("C1", 0, 2, "pink"), block("C1", 0, 2, "red", "z"),
           block("C1", "0", 2, "red"), block("C1", 0, True, "red"), block("C1", 0, 99, "red"),
           block("C1", float("nan"), 2, "red"), stone(3)]
    for move in bad:
        err = refused(state, 0, move, "cl.move.malformed")
        assert err.params["problem"], move


def test_game_over():
    """cl.game.over: nothing moves once the game is over."""
    state = table(2, STAIRS)
    state["phase"] = "over"
    refused(state, 0, PASS, "cl.game.over")
    refused(state, 1, walk("0,0"), "cl.game.over")
    assert G.legal_moves(state, 0) == [] and G.legal_moves(state, 1) == []


# --- which block may move -----------------------------------------------------------------


def test_block_occupied():
    """cl.block.occupied: a block with a figure on it (anyone's) stays."""
    state = table(2, STAIRS, figures={1: "3,1"})
    refused(state, 0, block("C1", 0, 2, "red"), "cl.block.occupied")
    refused(state, 1, block("C1", 0, 2, "red"), "cl.turn.wait")
    after = allowed(state, 0, block("H9", 4, 0, "grey"))
    assert spot(after, "H9") == (4, 0, 0, 2, 2, 1)


def test_block_stone():
    """cl.block.stone: a block holding a blocking stone stays."""
    state = table(2, STAIRS)
    state["blocked"] = {"1": "C1"}
    refused(state, 0, block("C1", 0, 2, "red"), "cl.block.stone")
    assert "C1" not in rules.movable(state)
    allowed(state, 0, block("H9", 4, 0, "grey"))


def test_block_covered():
    """cl.block.covered: a half-cube on edge lies across the two cubes C1 and C2: neither
    can move (their tops are partly covered); the half-cube can."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("H5", 1, 0, "red", "x")))
    assert spot(state, "H5") == (1, 0, 2, 2, 1, 2)  # on edge: 2 squares by 1, height 2
    refused(state, 0, block("C1", 0, 2, "red"), "cl.block.covered")
    refused(state, 0, block("C2", 4, 0, "red"), "cl.block.covered")
    assert rules.movable(state) == ["H5"]
    after = allowed(state, 0, block("H5", 0, 1, "red", "x"))
    assert spot(after, "H5") == (0, 1, 2, 2, 1, 2)


def test_block_last_moved():
    """cl.block.last-moved: the block the previous player moved is barred to the next; the
    player after may move it again."""
    state = table(3, (*STAIRS, ("C2", 0, 2, "grey")))
    state = play(state, 0, block("C2", 4, 0, "grey"), END)
    refused(state, 1, block("C2", 0, 2, "grey"), "cl.block.last-moved")
    assert "C2" not in rules.movable(state)
    state = play(state, 1, block("H9", 2, 2, "grey"), END)
    refused(state, 2, block("H9", 0, 0, "grey"), "cl.block.last-moved")
    allowed(state, 2, block("C2", 0, 2, "grey"))


#: A top each block may show lying flat or standing (no ``long``).
FLAT = {"C2": "grey", "H1": "red", "D1": "red", "F1": "grey"}


@pytest.mark.parametrize(("block_id", "top", "long"), [
    ("C2", "red", "x"), ("H1", "red", "x"), ("H1", "violet", None), ("D1", "yellow", "y"),
    ("D1", "grey", None), ("F1", "red", None), ("F1", "grey", "z")])
def test_block_shape_refused(block_id, top, long):
    """cl.block.shape: the colour on top decides how a block stands; a cube is square, a
    half-cube with a square face on top lies flat, a foundation shows grey."""
    state = table(2, (("C1", 0, 0, "grey"), (block_id, 0, 2, FLAT[block_id])))
    if long == "z":
        refused(state, 0, block(block_id, 2, 0, top, long), "cl.move.malformed")
    else:
        refused(state, 0, block(block_id, 2, 0, top, long), "cl.block.shape")


@pytest.mark.parametrize(("block_id", "top", "long", "dims"), [
    ("C2", "violet", None, (2, 2, 2)),
    ("H1", "yellow", None, (2, 2, 1)), ("H1", "violet", "x", (2, 1, 2)),
    ("H1", "grey", "y", (1, 2, 2)),
    ("D1", "red", None, (2, 2, 4)), ("D1", "grey", "x", (4, 2, 2)),
    ("D1", "light-blue", "y", (2, 4, 2)),
    ("F1", "grey", None, (2, 2, 6)), ("F1", "grey", "y", (2, 6, 2))])
def test_block_shape_allowed(block_id, top, long, dims):
    state = table(2, (("C1", 0, 0, "grey"), (block_id, 0, 2, FLAT[block_id])))
    after = allowed(state, 0, block(block_id, 2, 0, top, long))
    assert spot(after, block_id) == (2, 0, 0, *dims)
    assert after["blocks"][block_id]["top"] == top


def test_block_elsewhere():
    """cl.block.elsewhere: a block must end at another place, or turned where it stands."""
    state = table(2, STAIRS)
    refused(state, 0, block("C1", 2, 0, "grey"), "cl.block.elsewhere")
    after = allowed(state, 0, block("C1", 2, 0, "red"))
    assert spot(after, "C1") == (2, 0, 0, 2, 2, 2) and after["blocks"]["C1"]["top"] == "red"
    allowed(state, 0, block("C1", 2, 1, "grey"))


# --- building -----------------------------------------------------------------------------


def test_build_grid():
    """cl.build.grid: whole squares only."""
    state = table(2, STAIRS)
    refused(state, 0, block("C1", 1.5, 2, "grey"), "cl.build.grid")
    refused(state, 0, block("C1", 0, -0.5, "grey"), "cl.build.grid")
    allowed(state, 0, block("C1", 1, 2, "grey"))


def test_build_support_hole():
    """cl.build.support, the rulebook's picture of a hole: cubes at 0,0 and 3,0 with a gap
    between them; a lying double cube across both would bridge the gap: refused. Across
    two cubes side by side (a block may span several) it is fine."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 3, 0, "grey"), ("C3", 0, 2, "grey"),
                      ("D1", 0, 4, "grey", "x")))
    refused(state, 0, block("D1", 0, 0, "grey", "x"), "cl.build.support")
    # half over the cube, half over the table: an overhang
    refused(state, 0, block("D1", -2, 0, "grey", "x"), "cl.build.support")
    refused(state, 0, block("C3", 1, 1, "grey"), "cl.build.support")
    after = allowed(state, 0, block("D1", 0, 0, "grey", "y"))
    assert spot(after, "D1") == (0, 0, 2, 2, 4, 2)  # on C1 and C3, like bricks in a wall


def test_build_support_allowed_on_several_blocks():
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 0, 2, "grey")))
    after = allowed(state, 0, block("C3", 1, 0, "grey"))  # offset, on both cubes
    assert spot(after, "C3") == (1, 0, 2, 2, 2, 2)


def test_build_contact():
    """cl.build.contact: a block set on the table touches a block's side, by one square at
    least; a corner is not contact."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 0, 2, "grey")))
    refused(state, 0, block("C2", 5, 0, "grey"), "cl.build.contact")
    refused(state, 0, block("C2", 2, 2, "grey"), "cl.build.contact")  # corner to corner
    after = allowed(state, 0, block("C2", 2, 1, "grey"))  # one square of C1's east side
    assert spot(after, "C2") == (2, 1, 0, 2, 2, 2)
    allowed(state, 0, block("C2", 0, 0, "grey"))  # resting on a block touches it
    allowed(state, 0, block("C2", 0, -2, "grey"))


def test_build_contact_whole_face():
    """cl.build.contact with the option 'whole face': one square of contact is no longer
    enough; a whole side against the cube is."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 0, 2, "grey"), ("H9", -2, 0, "grey")),
                  contact="face")
    refused(state, 0, block("C2", 2, 1, "grey"), "cl.build.contact")
    assert spot(allowed(state, 0, block("C2", 2, 0, "grey")), "C2") == (2, 0, 0, 2, 2, 2)
    # beside the lying half-cube (height 1), a cube (height 2) has no whole face in contact
    refused(state, 0, block("C2", -2, 2, "grey"), "cl.build.contact")
    allowed(state, 0, block("C2", 0, 0, "grey"))  # resting on a block
    default = table(2, (("C1", 0, 0, "grey"), ("C2", 0, 2, "grey"), ("H9", -2, 0, "grey")))
    allowed(default, 0, block("C2", -2, 2, "grey"))


def test_build_push_aside():
    """cl.build.push: dark blue stands on 0,0 of a lying grey double cube; red sets a cube
    on that end of it: dark blue is pushed to the nearest free square of the same top and
    stays as high."""
    state = table(2, (("D1", 0, 0, "grey", "x"), ("C1", 0, 2, "grey")), figures={1: "0,0"})
    after = allowed(state, 0, block("C1", 0, 0, "grey"))
    assert after["figures"]["1"] == "2,0" and height(after, 1) == 2
    assert after["effects"] == [{"rule": "cl.build.push", "kind": "pushed",
                                 "figures": {"1": "2,0"}}]


def test_build_push_ties_in_reading_order():
    """cl.build.push: a half-cube on edge covers 0,0 and 1,0, where dark blue stands on 1,0:
    1,1 and 2,0 are both one square away; the northern row comes first."""
    state = table(3, (("D1", 0, 0, "grey", "x"), ("H5", 0, 2, "red", "x")),
                  figures={1: "1,0", 2: "0,0"})
    after = allowed(state, 0, block("H5", 0, 0, "red", "x"))
    assert after["figures"] == {"0": None, "1": "1,1", "2": "0,1"}
    assert height(after, 1) == height(after, 2) == 2


def test_build_push_needs_room_on_the_same_top():
    """cl.build.push: dark blue stands on a grey cube C2; covering all of C2's top with
    another cube leaves no square: refused, even though the grey cube C1 beside it has room
    (a figure is never pushed onto another block, and a block never rests on a figure)."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 0, 2, "grey"),
                      ("D1", 4, 0, "grey", "y")), figures={1: "2,0"})
    refused(state, 0, block("C3", 2, 0, "grey"), "cl.build.push")
    refused(state, 0, block("D1", 0, 0, "grey", "x"), "cl.build.push")
    after = allowed(state, 0, block("C3", 0, 0, "grey"))
    assert after["figures"]["1"] == "2,0"
    # a half-cube on edge over the south row of a lying half-cube: both figures there need
    # a free square of the north row
    crowd = table(5, (("H9", 0, 0, "grey"), ("H5", 0, 2, "red", "x")),
                  figures={1: "0,0", 2: "1,0", 3: "0,1"})
    refused(crowd, 0, block("H5", 0, 0, "red", "x"), "cl.build.push")
    crowd["figures"]["3"] = None
    after = allowed(crowd, 0, block("H5", 0, 0, "red", "x"))
    assert after["figures"] == {"0": None, "1": "0,1", "2": "1,1", "3": None, "4": None}


def test_build_stone():
    """cl.build.stone: nothing is built on a block holding a stone, not even partly."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 0, 2, "grey")))
    state["blocked"] = {"1": "C1"}
    refused(state, 0, block("C3", 0, 0, "grey"), "cl.build.stone")
    refused(state, 0, block("C3", 1, 0, "grey"), "cl.build.stone")
    allowed(state, 0, block("C3", 2, 0, "grey"))
    allowed(state, 0, block("C3", 0, -2, "grey"))  # beside it on the table


def test_build_split():
    """cl.build.split: taking the middle cube of three away splits the construction in two:
    allowed."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 4, 0, "grey")))
    after = allowed(state, 0, block("C2", 4, 0, "grey"))
    assert spot(after, "C2") == (4, 0, 2, 2, 2, 2)
    assert Tower(after["blocks"]).height((2, 0)) == 0


# --- figures ------------------------------------------------------------------------------

#: Red stands on a grey cube at 0,0; a grey cube at 2,2 touches it only by a corner, and
#: yellow cubes close it in on every side (red may not cross yellow).
CORNER = (("C1", 0, 0, "grey"), ("C2", 2, 2, "grey"), ("C3", 0, 2, "yellow"),
          ("C4", 2, 0, "yellow"), ("C5", 4, 2, "yellow"), ("C6", 2, 4, "yellow"))


def test_figure_diagonal():
    """cl.figure.diagonal, the rulebook's picture: the figure cannot step diagonally onto
    the next block."""
    state = table(2, CORNER, figures={0: "1,1"})
    refused(state, 0, walk("2,2"), "cl.figure.diagonal")
    refused(state, 0, walk("2,2", "short"), "cl.figure.diagonal")


def test_figure_diagonal_allowed_when_the_sides_touch():
    """The rulebook's next picture: when the faces connect (here the cube south of the
    target turns grey), the figure goes round and up."""
    blocks = tuple(("C4", 2, 0, "grey") if b[0] == "C4" else b for b in CORNER)
    state = table(2, blocks, figures={0: "1,1"})
    after = allowed(state, 0, walk("2,2"))
    assert after["figures"]["0"] == "2,2" and height(after, 0) == 2


def test_figure_diagonal_at_the_edge_of_the_tower():
    """cl.figure.diagonal: « de déplacer la figurine en diagonale sur un autre bloc » is
    forbidden. The figure on a grey cube (height 2) taps the grey top at height 3 that it
    touches only by a corner, at the tower's edge: the rule it breaks is the diagonal
    step, not the height of the way round by the table."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 2, "grey"), ("H9", 2, 2, "grey")),
                  figures={0: "1,1"})
    refused(state, 0, walk("2,2"), "cl.figure.diagonal")
    refused(state, 0, walk("2,2", "short"), "cl.figure.diagonal")
    allowed(state, 0, walk("2,2", "long"))  # down to the table, and up the long ladder


def test_figure_colour():
    """cl.figure.colour, the rulebook's picture: a figure stands only on its own colour or
    grey. Yellow, red and grey half-cubes lie in a row."""
    state = table(2, (("H1", 0, 0, "yellow"), ("H2", 2, 0, "red"), ("H9", 4, 0, "grey")))
    refused(state, 0, walk("0,0"), "cl.figure.colour")
    allowed(state, 0, walk("2,0"))
    allowed(state, 0, walk("4,1"))
    begin(state, 1)
    refused(state, 1, walk("2,0"), "cl.figure.colour")
    refused(state, 1, walk("0,1"), "cl.figure.colour")
    allowed(state, 1, walk("5,1"))


def test_figure_colour_cannot_cross():
    """cl.figure.colour-way: red on a grey cube cannot cross the yellow cube between it and the
    red cube beyond (the way round by the table needs a ladder it does not name)."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "yellow"), ("C3", 4, 0, "red")),
                  figures={0: "1,0"})
    err = refused(state, 0, walk("4,0"), "cl.figure.colour-way")  # the yellow top in the way
    assert err.params == {"colour": "yellow"}
    state["blocks"]["C2"]["top"] = "grey"
    allowed(state, 0, walk("4,0"))


def test_figure_one_per_square():
    """cl.figure.one-per-square, the rulebook's picture: the grey top is full; the figure
    waits until one leaves."""
    state = table(5, (("H9", 0, 0, "grey"),), figures={1: "0,0", 2: "1,0", 3: "0,1",
                                                        4: "1,1"})
    for square in ("0,0", "1,0", "0,1", "1,1"):
        refused(state, 0, walk(square), "cl.figure.one-per-square")
    state["figures"]["4"] = None
    allowed(state, 0, walk("1,1"))


def test_figure_one_per_square_cannot_cross():
    """cl.figure.one-per-square: three grey half-cubes lie on three cubes (height 3); four
    figures fill the middle one: red cannot cross it (and the way by the table needs the
    long ladder)."""
    state = table(5, (("C1", 0, 0, "yellow"), ("C2", 2, 0, "yellow"), ("C3", 4, 0, "yellow"),
                      ("H9", 0, 0, "grey"), ("H10", 2, 0, "grey"), ("H11", 4, 0, "grey")),
                  figures={0: "0,0", 1: "2,0", 2: "3,0", 3: "2,1", 4: "3,1"})
    refused(state, 0, walk("4,0"), "cl.figure.one-per-square")  # on the bridge
    assert allowed(state, 0, walk("4,0", "long"))["ladders"]["0"] == ["short"]
    state["figures"]["3"] = state["figures"]["4"] = None  # the north row is free
    allowed(state, 0, walk("4,0"))


def test_five_figures_on_a_lying_double_cube():
    """The rulebook's picture: on the large grey top of a lying double cube all five figures
    find room. Each climbs there in turn, by a grey half-cube step."""
    state = table(5, (("D1", 0, 0, "grey", "x"), ("H9", 4, 0, "grey")))
    for seat, square in enumerate(["0,0", "0,1", "1,0", "1,1", "2,0"]):
        state = play(state, seat, walk(square), PASS, END)
    assert state["phase"] == "play" and state["turn"] == 0
    assert state["figures"] == {"0": "0,0", "1": "0,1", "2": "1,0", "3": "1,1", "4": "2,0"}
    built = Tower(state["blocks"])
    assert {built.block_at((int(p[0]), int(p[2]))) for p in state["figures"].values()} == {"D1"}
    assert all(height(state, seat) == 2 for seat in range(5))


def test_figure_step():
    """cl.figure.step, the rulebook's picture: the red figure climbs two blocks in one walk,
    one unit at a time; without a ladder no step climbs 2 (and with none left, C2 is out of
    reach); stepping down has no limit."""
    state = table(2, (*STAIRS, ("C2", 0, 3, "grey")))  # C2 stands alone, 2 high
    refused(state, 0, walk("0,3"), "cl.figure.step")
    state["ladders"]["0"] = []
    refused(state, 0, walk("0,3"), "cl.figure.reach")
    after = allowed(state, 0, walk("3,1"))
    assert height(after, 0) == 2 and after["ladders"]["0"] == []
    tall = table(2, (("D1", 0, 0, "red"),), figures={0: "0,0"})
    assert height(tall, 0) == 4
    down = allowed(tall, 0, walk("table"))
    assert down["figures"]["0"] is None and down["start"]["dipped"]


def test_figure_higher_end():
    """cl.figure.higher: red went down from the half-cube to the table before passing; it
    must end higher than it began (1): ending now is refused, and so is the stone on the
    cube, the only place higher; climbing to the cube (2) ends the turn, the stone laid
    on the half-cube before or not."""
    state = table(2, STAIRS, figures={0: "0,0"})
    state = play(state, 0, walk("table"), PASS)
    refused(state, 0, END, "cl.figure.higher")
    refused(state, 0, stone("C1"), "cl.figure.higher")
    refused(state, 0, walk("1,1"), "cl.figure.higher")  # back to 1: not higher
    assert not G.view(state, 0)["stuck"]
    assert allowed(state, 0, walk("2,0"))["turn"] == 1
    laid = allowed(state, 0, stone("H9"))
    refused(laid, 0, END, "cl.figure.higher")
    assert allowed(laid, 0, walk("2,0"))["turn"] == 1


@pytest.mark.parametrize("ladders", [["short", "long"], ["long"], []])
def test_figure_higher_walk_after_the_block_move(ladders):
    """cl.figure.higher: after the block move a walk must end where the turn may end: red
    (on a cube, height 2) cannot go down to the table now, whatever ladders it has left."""
    state = table(2, STAIRS, figures={0: "2,0"})
    state["ladders"]["0"] = ladders
    after = allowed(state, 0, PASS)
    refused(after, 0, walk("table"), "cl.figure.higher")
    refused(after, 0, walk("0,0"), "cl.figure.higher")
    allowed(after, 0, walk("3,1"))  # sideways: never went lower, may end level


def test_figure_higher_may_end_level():
    """cl.figure.higher: a figure that never went lower may end level, or not move."""
    state = table(2, STAIRS, figures={0: "2,0"})
    allowed(play(state, 0, walk("3,1"), PASS), 0, END)
    allowed(allowed(state, 0, PASS), 0, END)


def test_figure_higher_a_ladder_may_spare_the_dip():
    """cl.figure.higher: red on a cube (2) reaches the cube at 4,0 either down over a
    half-cube (height 1) or over the standing cubes (height 4) behind, with a ladder: after
    the block move only the way that stays up may be taken."""
    state = table(2, (("C1", 0, 0, "grey"), ("H9", 2, 0, "grey"), ("C2", 4, 0, "grey"),
                      ("C3", 0, 2, "red"), ("C4", 2, 2, "red"), ("C5", 4, 2, "red"),
                      ("C6", 0, 2, "grey"), ("C7", 2, 2, "grey"), ("C8", 4, 2, "grey")),
                  figures={0: "0,0"})
    ways = {m["ladders"] for m in G.legal_moves(state, 0) if m.get("to") == "4,0"}
    assert ways == {"", "short", "long"}
    dipped = allowed(state, 0, walk("4,0"))
    assert dipped["start"]["dipped"]
    assert not allowed(state, 0, walk("4,0", "short"))["start"]["dipped"]
    after = allowed(state, 0, PASS)
    refused(after, 0, walk("4,0"), "cl.figure.higher")  # that way dips: only a ladder spares it
    after = allowed(after, 0, walk("4,0", "short"))
    assert after["ladders"]["0"] == ["long"] and after["turn"] == 1


def test_the_seat_view_reads_its_reach_from_the_kept_moves(monkeypatch):
    """The seat's view names the tops its figure can reach, and the ways that go lower,
    from the legal moves kept for the position: no second search of the walks."""
    state = table(2, (("C1", 0, 0, "grey"), ("H9", 2, 0, "grey"), ("C2", 4, 0, "grey"),
                      ("C3", 0, 2, "red"), ("C4", 2, 2, "red"), ("C5", 4, 2, "red"),
                      ("C6", 0, 2, "grey"), ("C7", 2, 2, "grey"), ("C8", 4, 2, "grey")),
                  figures={0: "0,0"})
    ways = rules.walk_ways(state, 0)
    G.legal_moves(state, 0)

    def searched(*args: Any) -> None:
        raise AssertionError("the walks were searched again")

    monkeypatch.setattr(rules, "walk_ways", searched)
    view = G.view(state, 0)
    assert set(view["reach"]) == {move["to"] for move, _ in ways}
    assert view["reach"]["4,0"] == ["", "long", "short"]  # down a half-cube, or a ladder up
    assert view["reach_lower"] == {to: [""] for to in (
        "table", "2,0", "2,1", "3,0", "3,1", "4,0", "4,1", "5,0", "5,1")}


def test_figure_never_down():
    """cl.figure.never-down: with the option, no step goes down; by default it may."""
    blocks = (*STAIRS, ("C2", 2, 2, "grey"))
    state = table(2, blocks, figures={0: "2,0"}, descent="never")
    refused(state, 0, walk("table"), "cl.figure.never-down")
    refused(state, 0, walk("1,0"), "cl.figure.never-down")
    allowed(state, 0, walk("3,3"))  # level
    assert {m["to"] for m in G.legal_moves(state, 0) if m["type"] == "walk"} == {
        "2,1", "3,0", "3,1", "2,2", "2,3", "3,2", "3,3"}
    default = table(2, blocks, figures={0: "2,0"})
    allowed(default, 0, walk("table"))
    allowed(default, 0, walk("1,0"))


def test_figure_reach():
    """cl.figure.reach: a walk reaches its square by allowed steps with the ladders named;
    not the square it stands on; from the table onto any square beside bare table."""
    state = table(2, STAIRS, figures={1: "1,1"})
    refused(state, 0, walk("table"), "cl.figure.reach")
    refused(state, 0, walk("3,0", "long+short"), "cl.figure.reach")  # more than it needs
    allowed(state, 0, walk("3,0"))
    on = table(2, (("C1", 0, 0, "grey"),), figures={0: "0,0"})
    refused(on, 0, walk("0,0"), "cl.figure.reach")
    off = table(2, (("C1", 0, 0, "grey"),))
    refused(off, 0, walk("1,1"), "cl.figure.step")  # a step of 2 without a ladder
    allowed(off, 0, walk("1,1", "short"))


def test_figure_stone():
    """cl.figure.stone: nobody stands on or crosses a block holding a blocking stone."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 4, 0, "grey")),
                  figures={0: "1,0"})
    state["blocked"] = {"1": "C2"}
    refused(state, 0, walk("2,0"), "cl.figure.stone")
    refused(state, 0, walk("4,0"), "cl.figure.stone")  # across C2 (or down and a ladder)
    allowed(state, 0, walk("4,0", "short"))
    state["blocked"] = {}
    allowed(state, 0, walk("4,0"))


# --- ladders ------------------------------------------------------------------------------


def test_ladder_short():
    """cl.ladder.short: the short ladder climbs a step of 2, not 3; a step of 1 needs none."""
    state = table(2, (("C1", 0, 0, "grey"), ("H9", 0, 3, "grey"), ("C2", 4, 0, "grey"),
                      ("H10", 4, 0, "grey")))  # apart: a cube (2), a half-cube (1), 3 high
    after = allowed(state, 0, walk("0,0", "short"))
    assert after["ladders"]["0"] == ["long"] and height(after, 0) == 2
    assert after["effects"] == [{"rule": "cl.ladder.once", "kind": "ladder", "ladder": "short",
                                 "from": "table", "to": "0,0"}]
    refused(state, 0, walk("5,0", "short"), "cl.ladder.short")  # a step of 3
    refused(state, 0, walk("0,3", "short"), "cl.ladder.short")  # a step of 1
    allowed(state, 0, walk("0,3"))


def test_ladder_long():
    """cl.ladder.long: the long ladder climbs a step of 2, 3 or 4; a step of 1 needs no
    ladder. (A top higher than any way of such steps is out of reach: cl.figure.reach.)"""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("H9", 2, 0, "grey"),
                      ("D7", 4, 0, "grey"), ("H10", 0, 4, "grey")))
    for to, rise in (("0,0", 2), ("2,0", 3), ("4,0", 4)):
        after = allowed(state, 0, walk(to, "long"))
        assert height(after, 0) == rise and after["ladders"]["0"] == ["short"]
    refused(state, 0, walk("0,4", "long"), "cl.ladder.long")  # a step of 1


def test_ladder_once():
    """cl.ladder.once: a ladder used leaves the game; a step of 3 needs the long one."""
    state = table(2, (("C1", 0, 0, "grey"), ("H9", 0, 0, "grey")))
    state["ladders"]["0"] = ["short"]
    refused(state, 0, walk("0,0", "long"), "cl.ladder.once")
    refused(state, 0, walk("0,0", "short"), "cl.figure.reach")  # the short one climbs 2
    state["ladders"]["0"] = ["short", "long"]
    after = allowed(state, 0, walk("0,0", "long"))
    assert after["ladders"]["0"] == ["short"]
    assert [m for m in G.legal_moves(after, 0) if m["type"] == "walk" and m["ladders"]] == []


def test_ladder_chain():
    """cl.ladder.chain: a standing foundation (6) with a half-cube (1) beside it: no single
    step climbs 5, not even with both ladders set one after the other, where the way round
    by the yellow cube would take red up. With a grey cube beside it to stand on between
    them (2, then 4) both ladders take the figure up."""
    state = table(2, (("F1", 0, 0, "grey"), ("C1", 0, 2, "yellow"), ("H9", 2, 0, "grey")))
    refused(state, 0, walk("0,0", "short+long"), "cl.ladder.chain")
    refused(state, 0, walk("0,0", "long"), "cl.ladder.chain")
    steps = table(2, (("F1", 0, 0, "grey"), ("C1", 2, 0, "grey")))
    after = allowed(steps, 0, walk("0,0", "short+long"))
    assert height(after, 0) == 6 and after["ladders"]["0"] == []
    refused(steps, 0, walk("0,0", "long"), "cl.ladder.once")  # the long one twice: 2 then 4


def test_a_climb_from_the_table_names_the_square_in_its_way():
    """From the table, the short ladder onto a cube and the long one onto the foundation
    beside it: a stone on the cube, or its top in another colour, is named, as from a
    half-cube beside it, before the single step of 6 the table's side of the foundation
    would need (docs/games/climbers.md, "Which rule a refused walk names")."""
    steps = table(2, (("F1", 0, 0, "grey"), ("C1", 2, 0, "grey")))
    stoned = {**steps, "blocked": {"1": "C1"}}
    refused(stoned, 0, walk("0,0", "short+long"), "cl.figure.stone")
    half = table(2, (("F1", 0, 0, "grey"), ("C1", 2, 0, "grey"), ("H9", 4, 0, "grey")),
                 figures={0: "4,0"})
    refused({**half, "blocked": {"1": "C1"}}, 0, walk("0,0", "short+long"), "cl.figure.stone")
    yellow = table(2, (("F1", 0, 0, "grey"), ("C1", 2, 0, "yellow")))
    err = refused(yellow, 0, walk("0,0", "short+long"), "cl.figure.colour-way")
    assert err.params == {"colour": "yellow"}
    alone = table(2, (("F1", 0, 0, "grey"), ("C1", 4, 0, "yellow")))  # not beside it
    refused(alone, 0, walk("0,0", "short+long"), "cl.figure.reach")


def test_a_top_out_of_reach_names_the_reach_not_the_ladders():
    """cl.figure.reach: a grey top 8 high (a cube on a standing foundation) beside the table,
    or a foundation (6) alone, is out of every figure's reach: no step climbs more than 4. A
    walk there, with any ladders named or none (a top tapped on the phone), names that
    reach, not the two ladders set one after the other nor the long ladder's step."""
    eight = table(2, (("F1", 0, 0, "grey"), ("C1", 0, 0, "grey")))
    six = table(2, (("F1", 0, 0, "grey"),))
    five = table(2, (("F1", 0, 0, "grey"), ("H9", 2, 0, "grey"), ("D1", 2, 0, "red")))
    assert [Tower(s["blocks"]).height(sq) for s, sq in
            ((eight, (0, 0)), (six, (0, 0)), (five, (2, 0)))] == [8, 6, 5]
    for state, to in ((eight, "0,0"), (six, "1,1"), (five, "2,0")):
        for ladders in ("", "short", "long", "short+long"):
            refused(state, 0, walk(to, ladders), "cl.figure.reach")
        assert G.why_not(state, 0, {"type": "walk", "to": to}).rule == "cl.figure.reach"


def test_out_of_reach_comes_after_the_target_and_the_ladders_named_before_the_way():
    """The order of docs/games/climbers.md: the target itself (``stand``) and a ladder named
    that is spent (``spent``) come first; then, in ``way``, out of reach before anything in
    the way: a yellow cube or a stone beside the grey top 8 high is no matter there, as no
    way of steps climbs to it."""
    eight = table(2, (("F1", 0, 0, "grey"), ("C1", 0, 0, "yellow"), ("C2", 2, 0, "yellow")))
    refused(eight, 0, walk("0,0"), "cl.figure.colour")  # the target's own colour
    grey = table(2, (("F1", 0, 0, "grey"), ("C1", 0, 0, "grey"), ("C2", 2, 0, "yellow")))
    refused(grey, 0, walk("0,0", "short+long"), "cl.figure.reach")  # not the yellow cube
    refused({**grey, "blocked": {"1": "C2"}}, 0, walk("0,0", "long"), "cl.figure.reach")
    grey["ladders"]["0"] = ["long"]
    refused(grey, 0, walk("0,0", "short"), "cl.ladder.once")  # the short one is spent
    refused(grey, 0, walk("0,0", "long"), "cl.figure.reach")


# --- the blocking stone -------------------------------------------------------------------


def test_stone_place():
    """cl.stone.place: the stone goes down as the turn ends. Laid after the block move,
    before the last walk, it bars no step of that walk, but the walk may not end on it,
    nor the turn with the figure on it."""
    state = allowed(table(2, STAIRS), 0, PASS)
    after = allowed(state, 0, stone("C1"))
    assert after["turn"] == 0 and after["stones"]["0"] == "used"
    assert after["blocked"] == {"0": "C1"}
    assert after["effects"] == [{"rule": "cl.stone.blocks", "kind": "stone", "block": "C1"}]
    assert G.view(after, None)["blocked"] == {"0": "C1"}
    refused(after, 0, walk("2,0"), "cl.stone.free")
    assert {m["to"] for m in G.legal_moves(after, 0) if m["type"] == "walk"} == {
        "0,0", "0,1", "1,0", "1,1"}
    assert allowed(after, 0, END)["blocked"] == {"0": "C1"}
    row = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 4, 0, "grey")),
                figures={0: "0,0"})
    row = allowed(row, 0, PASS)
    across = allowed(allowed(row, 0, stone("C2")), 0, walk("4,0"))  # over the stone's block
    assert (across["turn"], across["figures"]["0"]) == (1, "4,0")
    under = allowed(row, 0, stone("C1"))  # where red stands: it walks off it, then
    refused(under, 0, END, "cl.stone.free")
    refused(under, 0, walk("1,1"), "cl.stone.free")  # still on the cube
    assert allowed(under, 0, walk("2,0"))["turn"] == 1
    alone = allowed(table(2, (("C1", 0, 0, "grey"),), figures={0: "0,0"}), 0, PASS)
    refused(alone, 0, stone("C1"), "cl.stone.free")  # no way off it that ends the turn


def test_stone_used():
    """cl.stone.used: one stone each, once."""
    state = allowed(table(2, STAIRS), 0, PASS)
    state["stones"]["0"] = "used"
    refused(state, 0, stone("C1"), "cl.stone.used")
    assert [m for m in G.legal_moves(state, 0) if m["type"] == "stone"] == []
    allowed(state, 0, END)


def test_stone_free():
    """cl.stone.free: on a block with some of its top showing and no figure on it, any
    colour; not on a covered block, a block with a figure, or a block already stoned."""
    state = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "yellow"), ("C3", 4, 0, "red"),
                      ("C4", 4, 0, "grey"), ("H5", 1, 0, "red", "x"), ("H9", 0, 2, "grey")),
                  figures={1: "5,1"})
    state["blocked"] = {"1": "H9"}
    state = allowed(state, 0, PASS)
    refused(state, 0, stone("C3"), "cl.stone.free")  # under C4
    refused(state, 0, stone("C4"), "cl.stone.free")  # dark blue stands on it
    refused(state, 0, stone("H9"), "cl.stone.free")  # already stoned
    assert {m["block"] for m in G.legal_moves(state, 0) if m["type"] == "stone"} == {
        "C1", "C2", "H5"}
    allowed(state, 0, stone("C2"))  # yellow: any colour
    allowed(state, 0, stone("C1"))  # partly under H5, the rest showing


def test_the_stone_tapped_onto_a_block_with_a_figure_names_the_stone_rule():
    """cl.stone.free: on the phone, the blocking stone tapped onto the block a figure stands
    on says why it cannot go there, not that it is the wrong moment of the turn."""
    state = allowed(table(2, STAIRS, figures={1: "0,0"}), 0, PASS)
    refusal = G.why_not(state, 0, {"type": "stone", "block": "H9"})
    assert (refusal.rule, refusal.params) == ("cl.stone.free", {"block": "H9"})


def test_stone_blocks_until_the_owners_next_turn():
    """cl.stone.blocks: red stones the middle cube; until red's next turn nobody stands on
    it, crosses it, moves it or builds on it; then it is gone."""
    state = table(3, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 4, 0, "grey"),
                      ("C4", 0, 2, "grey")), figures={1: "1,0"})
    state = play(state, 0, PASS, stone("C2"), END)
    assert state["turn"] == 1
    refused(state, 1, walk("2,0"), "cl.figure.stone")
    refused(state, 1, walk("4,0"), "cl.figure.stone")
    refused(state, 1, block("C2", 0, 0, "grey"), "cl.block.stone")
    refused(state, 1, block("C4", 2, 0, "grey"), "cl.build.stone")
    state = play(state, 1, PASS, END)
    refused(state, 2, walk("2,0", "short"), "cl.figure.stone")
    state = play(state, 2, PASS, END)
    assert state["turn"] == 0 and state["blocked"] == {} and state["stones"]["0"] == "used"
    allowed(state, 0, walk("2,0", "short"))
    allowed(state, 0, block("C4", 2, 0, "grey"))
    allowed(state, 0, block("C2", 0, 2, "grey"))


# --- the end ------------------------------------------------------------------------------


def test_end_last_chance_goes_on_when_topped():
    """cl.end.last-chance: a round with no new top (nobody ends above every figure) gives
    the first player a last chance; topping it, play goes on."""
    state = table(2, STAIRS)
    state = play(state, 0, PASS, END)
    assert not state["last_chance"]
    state = play(state, 1, PASS, END)
    assert state["last_chance"] and state["turn"] == 0 and state["round"] == 2
    assert state["effects"] == [{"rule": "cl.end.last-chance", "kind": "last-chance"}]
    assert G.view(state, None)["last_chance"]
    state = play(state, 0, walk("0,0"), PASS, END)
    assert state["phase"] == "play" and not state["last_chance"] and state["turn"] == 1
    # seat 1 climbs as high (1): no new top, but red topped in this round
    state = play(state, 1, walk("1,1"), PASS, END)
    assert state["phase"] == "play" and not state["last_chance"]
    # now a round where nobody tops: the last chance again
    state = play(play(state, 0, PASS, END), 1, PASS, END)
    assert state["last_chance"]


def test_end_last_chance_missed_ends_the_game():
    """cl.end.last-chance: the first player's last chance fails: the game ends at once."""
    state = table(3, STAIRS, first_seat=1, turn=1)
    assert state["first"] == 1
    state = play(state, 1, PASS, END)
    state = play(state, 2, PASS, END)
    state = play(state, 0, PASS, END)
    assert state["last_chance"] and state["turn"] == 1
    over = play(state, 1, PASS, END)
    assert over["phase"] == "over"
    assert over["effects"] == [{"rule": "cl.end.last-chance", "kind": "over"}]
    assert G.view(over, None)["turn"] is None
    assert all(G.legal_moves(over, seat) == [] for seat in range(3))


@pytest.mark.parametrize("last_climb, goes_on", [("above-all", False), ("above-start", True)])
def test_end_last_chance_above_every_figure_or_above_its_own(last_climb, goes_on):
    """cl.end.last-chance (decision): « monter plus haut encore » is higher than every
    figure, so red climbing from the table onto the half-cube, below dark blue on the
    cube, ends the game. cl.end.last-chance-own (table option): higher than red stood is
    enough, and play goes on."""
    state = table(2, STAIRS, figures={1: "2,0"}, last_climb=last_climb)
    state = play(play(state, 0, PASS, END), 1, PASS, END)
    assert state["last_chance"] and state["turn"] == 0
    rule = "cl.end.last-chance-own" if goes_on else "cl.end.last-chance"
    assert state["effects"] == [{"rule": rule, "kind": "last-chance"}]
    after = play(state, 0, walk("0,0"), PASS, END)
    assert (after["phase"] == "play") == goes_on
    if goes_on:
        assert not after["last_chance"] and after["turn"] == 1
    else:
        assert after["effects"] == [{"rule": rule, "kind": "over"}]


def test_end_last_chance_equal_height_is_no_top():
    """cl.end.last-chance: a turn tops only when its figure ends strictly above every
    figure: dark blue reaching red's height does not."""
    state = table(2, STAIRS, figures={0: "0,0"})
    state = play(state, 0, PASS, END)
    state = play(state, 1, walk("1,1"), PASS, END)
    assert height(state, 1) == height(state, 0) == 1 and state["last_chance"]


def test_end_winner():
    """cl.end.winner: the highest figure wins; the others rank by height."""
    state = table(3, (*STAIRS, ("C2", 4, 0, "grey"), ("H10", 4, 0, "grey")),
                  figures={1: "0,0", 2: "2,0"})
    state = play(state, 0, PASS, END)
    state = play(state, 1, PASS, END)
    state = play(state, 2, PASS, END)
    assert state["last_chance"]
    over = play(state, 0, walk("0,1"), PASS, END)  # to 1: as high as dark blue, no top
    assert over["phase"] == "over"
    result = G.outcome(over)
    assert result.ranking == [[2], [0], [1]] and result.scores == {0: 1, 1: 1, 2: 2}
    assert result.reason == "last-chance"
    assert G.view(over, None)["outcome"] == result.as_json()
    assert G.outcome(state) is None and G.view(state, None)["outcome"] is None


@pytest.mark.parametrize(("tie", "ranking"), [("last", [[1], [0]]), ("first", [[0], [1]])])
def test_end_tie(tie, ranking):
    """cl.end.tie: red and dark blue both end at 1; dark blue got there later: it wins by
    the French rule, red with the option 'first'."""
    state = table(2, STAIRS, tie=tie)
    state = play(state, 0, walk("0,0"), PASS, END)
    state = play(state, 1, walk("1,1"), PASS, END)
    state = play(state, 0, PASS, END)
    state = play(state, 1, PASS, END)
    assert state["last_chance"]
    over = play(state, 0, PASS, END)
    assert over["phase"] == "over" and over["reached"] == {"0": 1, "1": 2}
    assert G.outcome(over).ranking == ranking
    # The end names the tie rule the table plays (the outcome's reason).
    assert G.outcome(over).reason == f"tie-{tie}"


def test_end_tie_counts_the_height_a_turn_ends_at():
    """cl.end.tie: red climbs to the cube and back to the half-cube in one turn: it ends as
    high as it began, so it did not reach that height again; dark blue, who got there after
    red first did, still wins by the French rule."""
    state = table(2, STAIRS)
    state = play(state, 0, walk("0,0"), PASS, END)
    state = play(state, 1, walk("1,1"), PASS, END)
    state = play(state, 0, walk("2,0"), PASS, walk("1,0"))
    assert height(state, 0) == 1 and state["reached"] == {"0": 1, "1": 2}
    state = play(state, 1, PASS, END)
    over = play(state, 0, PASS, END)
    assert over["phase"] == "over" and G.outcome(over).ranking == [[1], [0]]


# --- arbitrary input ----------------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(-3, 12) | st.text(max_size=5)
    | st.sampled_from(["walk", "block", "table", "0,0", "2,1", "C1", "grey", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=6,
)
SQUARES = st.builds(lambda x, y: f"{x},{y}", st.integers(-2, 6), st.integers(-2, 6))
MOVES = st.one_of(
    st.builds(walk, SQUARES | st.just("table"),
              st.sampled_from(["", "short", "long", "short+long"])),
    st.builds(block, st.sampled_from(["C1", "C2", "C3", "C4", "H5", "H9", "D1", "F1"]),
              st.integers(-3, 7), st.integers(-3, 7), st.sampled_from(ALL_COLOURS),
              st.sampled_from([None, "x", "y"])),
    st.builds(stone, st.sampled_from(["C1", "C2", "C3", "H5", "H9", "D1"])),
    st.sampled_from([PASS, END, RESTART, BUILT]),
)


def arbitrary_states() -> list[State]:
    """Before the block move, after it, a figure that went down, a stuck turn and stones."""
    blocks = (("C1", 0, 0, "grey"), ("C2", 2, 0, "red"), ("C3", 0, 2, "yellow"),
              ("C4", 2, 2, "grey"), ("H5", 1, 0, "red", "x"), ("H9", 4, 0, "grey"),
              ("D1", -4, 0, "grey", "x"), ("F1", 4, 2, "grey", "y"))
    start = table(3, blocks, figures={1: "3,3", 2: "5,0"})
    start["blocked"] = {"2": "C4"}
    after = allowed(start, 0, block("D1", 0, -2, "grey", "x"))
    high = table(3, blocks, figures={0: "2,0", 1: "3,3"})
    down = allowed(high, 0, walk("table"))
    stuck = allowed(table(3, (("C1", 0, 0, "grey"),), figures={0: "0,0"}), 0, walk("table"))
    stuck = allowed(stuck, 0, PASS)
    return [start, after, down, stuck, allowed(high, 0, PASS)]


STATES = arbitrary_states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(move=MOVES | JSONISH, seat=st.integers(0, 2), which=st.integers(0, len(STATES) - 1))
def test_apply_only_raises_illegal_move_and_agrees_with_legal(move, seat, which):
    CHECKS.agrees(STATES[which], seat, move)


def test_every_legal_move_applies():
    for state in STATES:
        for move in G.legal_moves(state, state["turn"]):
            G.apply(state, state["turn"], move)


# --- the catalogue ------------------------------------------------------------------------


def test_messages_fill_from_params():
    catalogue = clauses(GAME)
    state = table(2, (*STAIRS, ("C2", 0, 2, "grey")), figures={1: "3,1"})
    cases = [
        (state, 0, block("C1", 0, 2, "red"), "cl.block.occupied"),
        (state, 0, block("C2", 9, 9, "red"), "cl.build.contact"),
        (state, 0, block("C2", 0, 2, "grey"), "cl.block.elsewhere"),
        (state, 0, {"type": "walk"}, "cl.move.malformed"),
        (state, 0, None, "cl.move.malformed"),
        (state, 1, PASS, "cl.turn.wait"),
        (state, 0, walk("3,1", "short"), "cl.figure.one-per-square"),
    ]
    for position, seat, move, rule in cases:
        err = refused(position, seat, move, rule)
        for lang in ("en", "fr"):
            text = catalogue[rule][lang].format(**TABLE_PARAMS, **err.params)
            assert "{" not in text and "}" not in text, (rule, text)


# --- the table round the tower, and pits walled in by blocks -------------------------------

#: Eight grey cubes round a bare 2 × 2 pit at 2..3, 2..3.
RING = tuple((f"C{n + 1}", x, y, "grey") for n, (x, y) in enumerate(
    [(0, 0), (2, 0), (4, 0), (0, 2), (4, 2), (0, 4), (2, 4), (4, 4)]))


def test_a_pit_walled_in_by_blocks_is_reached_only_over_them():
    """Figures on the table move « autour de la construction »: bare table squares join only
    side by side, so a pit walled in by cubes is no part of the table round the tower. A
    figure reaches it over the cubes, and leaves it the same way."""
    state = table(2, RING)
    assert Tower(state["blocks"]).pits() == {(2, 2), (3, 2), (2, 3), (3, 3)}
    pit_moves = {m["ladders"] for m in G.legal_moves(state, 0) if m.get("to") == "2,2"}
    assert pit_moves == {"short", "long"}  # up the ring with a ladder, then down
    refused(state, 0, walk("2,2"), "cl.figure.step")  # a free step climbs at most 1
    inside = allowed(state, 0, walk("2,2", "short"))
    assert inside["figures"]["0"] == "2,2" and height(inside, 0) == 0
    state["figures"]["0"] = "2,2"
    state["ladders"]["0"] = []
    assert {m["to"] for m in G.legal_moves(state, 0) if m["type"] == "walk"} == {
        "3,2", "2,3", "3,3"}  # only within the pit
    refused(state, 0, walk("table"), "cl.figure.reach")  # out of reach with no ladder


#: The ring, and a grey half-cube lying on the table east of it (free to be moved).
RING_AND_SLAB = (*RING, ("H9", 6, 0, "grey"))


def test_a_block_set_in_a_pit_pushes_the_figure_along_the_pit_floor():
    """cl.build.push: « si les figurines peuvent être poussées et qu'elles ont suffisamment
    de place après pour rester debout sur la même surface »: a block set on the table in a
    pit, over a figure standing there, pushes it to a free square of the pit's floor."""
    state = table(2, RING_AND_SLAB, figures={1: "2,2"})
    after = allowed(state, 0, block("H9", 2, 2, "red", "x"))  # on edge over 2,2 and 3,2
    assert after["figures"]["1"] == "2,3" and height(after, 1) == 0
    assert {"rule": "cl.build.push", "kind": "pushed", "figures": {"1": "2,3"}} in \
        after["effects"]


def test_a_block_filling_the_pit_where_a_figure_stands_is_refused():
    """cl.build.push: a block that would fill the whole pit where a figure stands has no
    room to push it to: it may not go there (a block never rests on a figure)."""
    state = table(2, RING_AND_SLAB, figures={1: "3,3"})
    refused(state, 0, block("H9", 2, 2, "grey"), "cl.build.push")
    crowded = table(4, RING_AND_SLAB, figures={1: "2,2", 2: "2,3", 3: "3,2"})
    refused(crowded, 0, block("H9", 2, 2, "red", "y"), "cl.build.push")  # room for one
    empty = table(2, RING_AND_SLAB)
    allowed(empty, 0, block("H9", 2, 2, "grey"))  # nobody there: it fills the pit


def test_a_figure_in_an_opened_pit_stands_on_the_table_round_the_tower():
    """cl.figure.pit-opened: a block of the pit's wall taken away, the figure in the pit
    stands on the table round the tower, « Ils peuvent se déplacer autour comme ils
    souhaitent »: it steps onto a 1-high block with no ladder, which it could not do from
    the closed pit, walled in by cubes 2 high."""
    state = table(2, RING_AND_SLAB, figures={0: "2,2"})
    state["ladders"]["0"] = []
    refused(state, 0, walk("6,0"), "cl.figure.reach")  # out of reach with no ladder
    opened = allowed(state, 0, block("C2", 8, 0, "grey"))  # the south wall's cube, away
    assert opened["figures"]["0"] is None
    assert {"rule": "cl.figure.pit-opened", "kind": "pit-opened", "seats": [0]} in \
        opened["effects"]
    after = allowed(opened, 0, walk("6,0"))  # onto the half-cube from the table
    assert after["figures"]["0"] == "6,0" and height(after, 0) == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_block_move_lifts_or_strands_a_figure_whatever_the_pit(data):
    """cl.build.push and cl.figure.pit-opened, for pits of every shape: grey cubes on a
    4 × 4 grid of 2 × 2 cells, and half-cubes on edge in some empty cells, wall in pits of
    many shapes; figures stand in them. No block move changes a figure's height (a figure
    pushed stays on the same surface), and after it every figure stands on a block's top,
    on the floor of a pit still walled in, or on the table round the tower."""
    cells = [(2 * i, 2 * j) for i in range(4) for j in range(4)]
    cubes = data.draw(st.lists(st.sampled_from(cells), min_size=6, max_size=12, unique=True),
                      label="cubes")
    blocks: list[tuple[Any, ...]] = [(f"C{n + 1}", x, y, "grey")
                                     for n, (x, y) in enumerate(cubes)]
    halves = [f"H{n}" for n in range(8, 0, -1)]
    for x, y in cells:
        if halves and (x, y) not in cubes and data.draw(st.booleans(), label=f"half {x},{y}"):
            long = data.draw(st.sampled_from(["x", "y"]), label="long")
            shift = data.draw(st.integers(0, 1), label="side")
            at = (x, y + shift) if long == "x" else (x + shift, y)
            blocks.append((halves.pop(), *at, "violet", long))
    state = table(3, (*blocks, ("H9", 10, 0, "grey")))
    pits = sorted(Tower(state["blocks"]).pits())
    assume(pits)
    places = data.draw(st.lists(st.sampled_from(pits), min_size=1, max_size=2, unique=True),
                       label="figures")
    for seat, square in enumerate(places, start=1):
        state["figures"][str(seat)] = f"{square[0]},{square[1]}"
    begin(state, 0)
    before = {seat: height(state, seat) for seat in range(3)}
    moves = [m for m in G.legal_moves(state, 0) if m["type"] == "block"]
    rng = random.Random(data.draw(st.integers(0, 2**16), label="sample"))

    def covers_a_figure(move: Move) -> bool:
        dims = shape(BLOCKS[move["block"]], move["top"], move["long"])
        assert dims is not None
        return any(move["x"] <= x < move["x"] + dims[0] and move["y"] <= y < move["y"] + dims[1]
                   for x, y in places)

    over = [move for move in moves if covers_a_figure(move)]
    for move in over[:30] + rng.sample(moves, min(len(moves), 30)):
        after = G.apply(state, 0, move)
        built = Tower(after["blocks"])
        open_pits = built.pits()
        squares = [place for place in after["figures"].values() if place is not None]
        assert len(squares) == len(set(squares)), (move, after["figures"])
        for seat, place in after["figures"].items():
            assert height(after, int(seat)) == before[int(seat)], (move, seat, place)
            if place is not None:
                square = tuple(int(part) for part in place.split(","))
                assert square in built.top or square in open_pits, (move, seat, place)


def test_the_short_ladder_used_twice_names_the_once_rule():
    """cl.ladder.once: two climbs of 2 with the short ladder alone: it is used once."""
    steps = table(2, (("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 2, 0, "grey")))
    refused(steps, 0, walk("2,0", "short"), "cl.ladder.once")
    allowed(steps, 0, walk("2,0", "long"))  # one climb of 4 from the table



def test_every_refusal_clause_is_named_by_a_test_of_its_own():
    """Every clause a refusal may name is flagged in the seeds, and some test here sees a
    move refused naming exactly it (``refused(…, "<id>")``)."""
    assert refusals_without_a_test(GAME, [Path(__file__)]) == []


def test_positions_with_the_blocks_where_they_were_share_one_tower():
    """A walk leaves the blocks where they stand: the position after it reads the same
    tower, with what that tower worked out, rather than building it again, and its view the
    same lists of blocks and squares; a block moved makes a tower of its own."""
    game = Climbers()
    state = game.setup(3, {"tower": "generated"}, 4)
    state = game.apply(state, 0, {"type": "built"})
    before = rules.tower(state)
    walk = next(move for move in game.legal_moves(state, state["turn"])
                if move["type"] == "walk")
    walked = game.apply(state, state["turn"], walk)
    assert rules.tower(walked) is before
    # so do the views' lists of the blocks and squares, digested once for every push
    for key in ("blocks", "cells"):
        assert game.view(walked, None)[key] is game.view(state, None)[key]
    block = next(move for move in game.legal_moves(walked, walked["turn"])
                 if move["type"] == "block")
    moved = game.apply(walked, walked["turn"], block)
    assert rules.tower(moved) is not before
    assert game.view(moved, None)["blocks"] is not game.view(walked, None)["blocks"]
    assert game.view(moved, None)["blocks"] == Climbers().view(moved, None)["blocks"]
    assert rules.tower(moved).blocks[block["block"]]["x"] == block["x"]


def rebuild_refused(tables: Tables, table: Table, seat: int, move: Move,
                         rule: str) -> None:
    """``move`` is refused at ``table`` for ``rule`` (a refusal of the table's moment, not
    of the engine), and the table stays as it was."""
    seq = table.match.seq
    with pytest.raises(TableError) as err:
        tables.submit(table, seat, move, table.match.seq_for(seat), f"m{seq}")
    assert err.value.rule == rule
    assert table.match.seq == seq


def test_no_move_is_taken_while_the_table_rebuilds_its_fallen_tower(tmp_path):
    """cl.rebuild.under-way: while the whole table rebuilds a fallen tower
    (``Tables.pause``) every move is refused, an undo too, and nothing changes; once the
    tower stands again play goes on from the same position."""
    tables = Tables(Store(str(tmp_path / "companion.sqlite")), {GAME: G})
    table, _host = tables.create(GAME, 2, {}, seed=3)
    for name in ("Ana", "Ben"):
        tables.join(table, name, None)
    tables.start(table, first_seat=0)
    tables.submit(table, 0, {"type": "built"}, table.match.seq_for(0), "built")
    move = G.legal_moves(table.match.state, 0)[0]
    tables.submit(table, 0, move, table.match.seq_for(0), "first")
    before = table.match.state
    tables.pause(table, Pause("rebuild", "cl.rebuild.under-way"))
    rebuild_refused(tables, table, 0, G.legal_moves(table.match.state, 0)[0],
                         "cl.rebuild.under-way")
    with pytest.raises(TableError) as err:
        tables.undo(table, 0)
    assert err.value.rule == "cl.rebuild.under-way"
    tables.pause(table, None)
    assert table.match.state is before
    tables.submit(table, 0, G.legal_moves(table.match.state, 0)[0], table.match.seq_for(0), "next")
    assert table.match.seq == 3
