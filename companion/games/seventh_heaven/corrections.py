"""The host's correction of In 7th Heaven: a piece set on the space it stands on at the
table. Hands, partner cards and the deck are private or follow from the cards played, and
are never corrected; a piece in 7th Heaven stays there (its arrival ranked the players)."""

from __future__ import annotations

from companion.games.base import IllegalMove, Move, State, copy_state
from companion.games.declared import BAD_CORRECTION, check_declared
from companion.games.seventh_heaven import board, types
from companion.games.seventh_heaven.data import COLOURS, START


def check(state: State, correction: Move) -> None:
    """Raise the clause a correction breaks, in this order: its shape, the game over, a
    decision under way, a piece in 7th Heaven, a space off the track, the space it has."""
    check_declared(correction, types.Correction, BAD_CORRECTION)
    colour, space = correction["piece"], correction["space"]
    if colour not in COLOURS:
        raise IllegalMove(BAD_CORRECTION, problem="piece")
    if state["phase"] == "over":
        raise IllegalMove("7h.game.over")
    if state["phase"] != "play":
        raise IllegalMove("7h.correct.decision-first")
    if board.in_heaven(state, colour):
        raise IllegalMove("7h.correct.in-heaven", colour=colour)
    if not START <= space < state["heaven"]:
        raise IllegalMove("7h.correct.track", space=space, last=state["heaven"] - 1)
    if state["pieces"][colour] == space:
        raise IllegalMove("7h.correct.same", colour=colour, space=space)


def correct(state: State, correction: Move) -> State:
    """The state with the piece on its space. Pieces share spaces freely in this game, and
    the turn and the phase do not depend on where they stand: the moves offered next are
    worked out from the new spaces."""
    check(state, correction)
    new = copy_state(state)
    new["pieces"][correction["piece"]] = correction["space"]
    new["effects"] = []
    return new
