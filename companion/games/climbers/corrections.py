"""The host's correction of The Climbers: a figure set on the square it stands on at the
table, or a block set where it lies and the way it lies, as a move would put it. The
corrected position is held to the rules of what can stand, the engine's own checks: a
block rests whole on what is under it and touches the tower, a figure stands on a top of
its colour or grey, alone on its square, never on a blocking stone. Ladders, stones and
the turn follow from the play and are never corrected; nothing in this game is hidden.

Corrections are made between turns (before the turn's first move): the turn then starts
again from the corrected position (``Climbers.correct``)."""

from __future__ import annotations

from companion.games.base import IllegalMove, Move, State, copy_state, is_seat
from companion.games.climbers import rules, types
from companion.games.climbers.data import BLOCKS
from companion.games.climbers.geometry import (
    TABLE,
    Placed,
    building_problem,
    covers_any,
    figure_node,
    node_name,
    parse_node,
    shape,
    standing_squares,
)
from companion.games.declared import BAD_CORRECTION, check_declared


def check(state: State, correction: Move) -> Placed | None:
    """Raise the clause a correction breaks, in this order: its shape and values, the game
    over, the tower being built, a turn under way; then the figure's or the block's own.
    Returns where a corrected block comes to rest."""
    check_declared(correction, types.Correction, BAD_CORRECTION)
    try:
        rules.check_values(correction)
    except IllegalMove as refusal:
        raise IllegalMove(BAD_CORRECTION, **refusal.params) from None
    if correction["type"] == "figure" and not is_seat(state, correction["seat"]):
        raise IllegalMove(BAD_CORRECTION, problem="seat")
    if state["phase"] == "over":
        raise IllegalMove("cl.game.over")
    if state["phase"] != "play":
        raise IllegalMove("cl.correct.playing")
    if state["step"] != "before" or state["walked"]:
        raise IllegalMove("cl.correct.mid-turn")
    if correction["type"] == "figure":
        _check_figure(state, correction)
        return None
    return _check_block(state, correction)


def _check_figure(state: State, correction: Move) -> None:
    """A place a figure can be named at (a top, a pit, the table), not the one it has, and
    one it may stand on (``Walker.stand_refusal``: another figure, a stone, a colour)."""
    seat, target = correction["seat"], parse_node(correction["to"])
    walking = rules.walker(state, seat)
    if target not in walking.places():
        raise IllegalMove("cl.correct.no-top")
    if figure_node(state["figures"][str(seat)]) == target:
        raise IllegalMove("cl.correct.same-figure")
    assert target is not None
    refusal = walking.stand_refusal(target)
    if refusal is not None:
        raise IllegalMove(refusal)


def _check_block(state: State, correction: Move) -> Placed:
    """A way the block can lie, not the place and way it has, nothing on it (a figure or a
    block: those are set right first, as one lifts them off a real tower), then the
    building rules of a block put there (``building_problem``: resting whole, touching
    the tower) and no figure under it. A blocking stone on the block goes with it, and one
    under the place does not matter: the stone bars moves, not what stands."""
    block_id = correction["block"]
    dims = shape(BLOCKS[block_id], correction["top"], correction["long"])
    if dims is None:
        raise IllegalMove("cl.block.shape", block=block_id)
    spot = state["blocks"][block_id]
    x, y, top, long = correction["x"], correction["y"], correction["top"], correction["long"]
    if (x, y, top, long) == (spot["x"], spot["y"], spot["top"], spot["long"]):
        raise IllegalMove("cl.correct.same-block", block=block_id)
    built = rules.tower(state)
    standing = standing_squares(state["figures"])
    if not standing.isdisjoint(built.visible(block_id)):
        raise IllegalMove("cl.block.occupied", block=block_id)
    if rules.covered(built, block_id):
        raise IllegalMove("cl.block.covered", block=block_id)
    w, d, h = dims
    problem, z, _ = building_problem(rules.tower(state, without=block_id), x, y, w, d, h,
                                     {}, (), rules.whole_face(state))
    if problem is not None:
        raise IllegalMove(rules.BUILDING_CLAUSES[problem], block=block_id)
    if covers_any(x, y, w, d, standing):
        raise IllegalMove("cl.correct.covers-figure", block=block_id)
    return {"x": x, "y": y, "z": z, "w": w, "d": d, "h": h, "top": top, "long": long}


def correct(state: State, correction: Move) -> State:
    """The state with the figure or the block where the table has it. A figure left on
    the floor of a pit the block no longer walls in stands on the table round the tower
    (``cl.figure.pit-opened``), as after a move. The caller starts the turn again from
    here (``Climbers.correct``)."""
    spot = check(state, correction)
    new = copy_state(state)
    new["effects"] = []
    if spot is None:
        to = parse_node(correction["to"])
        assert to is not None
        new["figures"][str(correction["seat"])] = None if to == TABLE else node_name(to)
        return new
    rules.set_block(new, correction["block"], spot)
    return new
