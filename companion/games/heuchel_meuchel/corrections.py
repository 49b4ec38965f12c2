"""The host's correction of Heuchel & Meuchel: a stack, known by its public top card and
its height, set as a whole on the row of its column where it stands at the table. The
cards under a top are their owner's secret, and hands and discards are private: none is
ever corrected, so a correction never moves a card from one stack to another."""

from __future__ import annotations

from companion.games.base import IllegalMove, Move, State, copy_state
from companion.games.declared import BAD_CORRECTION, check_declared
from companion.games.heuchel_meuchel import board, types
from companion.games.heuchel_meuchel.data import COLUMNS, ROWS, goal_row, rank_of, start_row

#: The moments of a turn a stack may be corrected at: before the move (with the die, before
#: or after the roll, and when the roll allows no move). Not during the set-up, whose
#: stacks are hidden, nor while a favour waits on the stack that moved.
BETWEEN_MOVES = ("roll", "move", "lose")


def check(state: State, correction: Move) -> None:
    """Raise the clause a correction breaks, in this order: its shape, the game over, the
    moment, no stack there, a face-down goal pile, the row it has, an occupied row, a row
    its top card could not stand on."""
    check_declared(correction, types.Correction, BAD_CORRECTION)
    column, row, to = correction["column"], correction["row"], correction["to"]
    if not 1 <= column <= COLUMNS:
        raise IllegalMove(BAD_CORRECTION, problem="column")
    if not (1 <= row <= ROWS and 1 <= to <= ROWS):
        raise IllegalMove(BAD_CORRECTION, problem="row")
    if state["phase"] == "over":
        raise IllegalMove("hm.game.over")
    if state["phase"] not in BETWEEN_MOVES:
        raise IllegalMove("hm.correct.between-moves")
    stack = board.square(state, column, row)
    if stack is None:
        raise IllegalMove("hm.correct.no-stack", column=column, row=row)
    if stack["down"]:
        raise IllegalMove("hm.correct.home", column=column, row=row)
    if to == row:
        raise IllegalMove("hm.correct.same", column=column, row=row)
    if board.square(state, column, to) is not None:
        raise IllegalMove("hm.correct.occupied", column=column, row=to)
    rank = rank_of(board.top(stack))
    low, high = start_row(rank), goal_row(rank) - 1
    if not low <= to <= high:
        raise IllegalMove("hm.correct.rows", low=low, high=high)


def correct(state: State, correction: Move) -> State:
    """The state with the stack on its row. With the die, a roll already made is kept and
    whether it still allows a move is worked out again from the new rows (else a card must
    go), as after the roll itself."""
    check(state, correction)
    new = copy_state(state)
    column, row, to = correction["column"], correction["row"], correction["to"]
    squares = new["board"][column - 1]
    squares[to - 1], squares[row - 1] = squares[row - 1], None
    new["effects"], new["revealed"] = [], False
    if new["phase"] in ("move", "lose") and new["roll"] is not None:
        new["phase"] = "move" if board.unit_moves(new, new["turn"]) else "lose"
    return new
