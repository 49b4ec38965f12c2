"""Read-only questions about a Heuchel & Meuchel state: squares, landings, favours, scores.

The board is ``state["board"][column - 1][row - 1]``, columns 1-6 and rows 1-13 counted
from the bottom, as the rulebook counts them. A square is ``None`` or a stack
``{"cards": [bottom … top], "down": bool}``; ``down`` marks a face-down goal pile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.games.base import State
from companion.games.heuchel_meuchel.data import (
    CARDS_PER_PLAYER,
    COLUMNS,
    ROWS,
    card_goal,
    goal_row,
    rank_of,
    value_of,
)

Square = dict[str, Any] | None


def square(state: State, column: int, row: int) -> Square:
    return state["board"][column - 1][row - 1]


def stack_at(state: State, column: int, row: int) -> dict[str, Any]:
    """The stack on a square the rules already found occupied."""
    stack = square(state, column, row)
    assert stack is not None, f"no stack on column {column}, row {row}"
    return stack


def top(stack: dict[str, Any]) -> int:
    return stack["cards"][-1]


def column_of(state: State, seat: int) -> int | None:
    return state["columns"][str(seat)]


def own_column(state: State, seat: int) -> int:
    """The column of a seat the rules already found has one (every seat, after set-up)."""
    column = column_of(state, seat)
    assert column is not None, f"seat {seat} has no column"
    return column


def owner_of(state: State, column: int) -> int | None:
    for seat, chosen in state["columns"].items():
        if chosen == column:
            return int(seat)
    return None


def stacks(state: State, column: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row, stack) for every occupied square of a column, bottom first."""
    for index, stack in enumerate(state["board"][column - 1]):
        if stack is not None:
            yield index + 1, stack


def live_stacks(state: State, seat: int) -> list[tuple[int, dict[str, Any]]]:
    """The seat's stacks still on the way (not face down), bottom first."""
    column = column_of(state, seat)
    if column is None:
        return []
    return [(row, stack) for row, stack in stacks(state, column) if not stack["down"]]


def has_live(state: State, seat: int) -> bool:
    return bool(live_stacks(state, seat))


def free_for(state: State, column: int, row: int, rank: int) -> bool:
    """Empty, or a face-down goal pile of the mover's own rank (rulebook, FIN D'UNE COLONNE:
    free for the same rank, occupied for higher ranks)."""
    stack = square(state, column, row)
    return stack is None or (stack["down"] and row == goal_row(rank))


def landings(state: State, column: int, row: int, rank: int, step_ends: bool) -> list[int]:
    """Every row a stack topped by ``rank`` may land on from ``row``, without the die.

    The first hop goes to the next square if it is free, or jumps the run of occupied
    squares to the first free one; from any landing, the mover may jump on while the square
    above is occupied (with ``step_ends``, a plain step ends the move). Never above the
    goal of the top card.
    """
    goal = goal_row(rank)
    found: list[int] = []
    at = row
    while at < goal:
        if free_for(state, column, at + 1, rank):
            if found:
                break
            found.append(at + 1)
            at += 1
            if step_ends:
                break
            continue
        jump = at + 1
        while jump <= goal and not free_for(state, column, jump, rank):
            jump += 1
        if jump > goal:
            break
        found.append(jump)
        at = jump
    return found


def exact_landing(state: State, column: int, row: int, rank: int, roll: int) -> list[int]:
    """Die variant: exactly ``roll`` squares up, onto a free square, not beyond the goal."""
    target = row + roll
    if target <= min(goal_row(rank), ROWS) and free_for(state, column, target, rank):
        return [target]
    return []


def reachable(state: State, column: int, row: int, rank: int) -> list[int]:
    """Landing rows for the current turn: by the die when one was rolled, else by jumping."""
    if state["roll"] is not None:
        return exact_landing(state, column, row, rank, state["roll"])
    return landings(state, column, row, rank, state["options"]["step_ends_move"])


def split_leaves(stack: dict[str, Any], count: int, row: int) -> str:
    """What moving the top ``count`` cards leaves behind on ``row``: "nothing", "fine",
    "home" (the uncovered card stands on its own goal) or "exposed" (above it)."""
    rest = stack["cards"][:-count]
    if not rest:
        return "nothing"
    goal = card_goal(rest[-1])
    if row > goal:
        return "exposed"
    return "home" if row == goal else "fine"


def unit_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Every move of a card, stack or top part the seat may make now."""
    column = column_of(state, seat)
    moves: list[dict[str, Any]] = []
    if column is None:
        return moves
    for row, stack in live_stacks(state, seat):
        targets = reachable(state, column, row, rank_of(top(stack)))
        if not targets:
            continue
        height = len(stack["cards"])
        for count in range(height, 0, -1):
            if split_leaves(stack, count, row) == "exposed":
                continue
            moves.extend({"type": "move", "row": row, "count": count, "to": to}
                         for to in targets)
    return moves


def taking_card(state: State, taker: dict[str, Any]) -> int:
    """The card a favour judges the stack just moved by: its top card, the one everyone
    sees (hm.favour.same-row), or its highest card with the table option
    ``favour_rank`` "highest" (hm.favour.lower-any)."""
    return max(taker["cards"]) if state["options"]["favour_rank"] == "highest" else top(taker)


def victims(state: State) -> list[dict[str, Any]]:
    """The stacks the piece just moved may take now: same row, other columns, face up,
    top card lower than the taker's (``taking_card``), not taken from already in this
    favour."""
    moved = state["moved"]
    if moved is None:
        return []
    taker = square(state, moved["column"], moved["row"])
    if taker is None:
        return []
    found = []
    for column in range(1, COLUMNS + 1):
        if column == moved["column"] or column in state["taken_from"]:
            continue
        stack = square(state, column, moved["row"])
        if stack is not None and not stack["down"] and top(stack) < taking_card(state, taker):
            found.append({"column": column, "row": moved["row"], "top": top(stack),
                          "height": len(stack["cards"])})
    return found


def clockwise_from(state: State, seat: int) -> list[int]:
    players = state["players"]
    return [(seat + offset) % players for offset in range(players)]


def placing_seat(state: State) -> int | None:
    """With the table option ``placing`` "in-turn", the seat whose turn it is to place its
    cards: the first, clockwise from the first player, whose set-up is not done (none
    once every set-up is). None when everyone places at once, or the game has begun."""
    if state["phase"] != "setup" or state["options"]["placing"] != "in-turn":
        return None
    return next((seat for seat in clockwise_from(state, state["first"])
                 if not setup_done(state, seat)), None)


def setup_done(state: State, seat: int) -> bool:
    return column_of(state, seat) is not None and placed_count(state, seat) == CARDS_PER_PLAYER


def placed_count(state: State, seat: int) -> int:
    column = column_of(state, seat)
    if column is None:
        return 0
    return sum(len(stack["cards"]) for _, stack in stacks(state, column))


def placed_cards(state: State) -> set[int]:
    return {card for column in state["board"] for stack in column if stack is not None
            for card in stack["cards"]}


def column_cards(state: State, seat: int) -> list[tuple[int, int]]:
    """(row, card) for every card in the seat's column."""
    column = column_of(state, seat)
    if column is None:
        return []
    return [(row, card) for row, stack in stacks(state, column) for card in stack["cards"]]


def score_parts(state: State, seat: int) -> dict[str, int]:
    """Home (on or beyond its goal), short of its goal, and discarded: values summed."""
    home = short = 0
    for row, card in column_cards(state, seat):
        value = value_of(card)
        if row >= card_goal(card):
            home += value
        else:
            short += value
    lost = sum(value_of(card) for card in state["discards"][str(seat)])
    return {"home": home, "short": short, "discarded": lost, "total": home - short - lost}


def counts(state: State, seat: int) -> dict[str, int]:
    """Public progress: cards in face-down goal piles, still climbing, and discarded."""
    column = column_of(state, seat)
    home = climbing = 0
    if column is not None:
        for _, stack in stacks(state, column):
            if stack["down"]:
                home += len(stack["cards"])
            else:
                climbing += len(stack["cards"])
    return {"home": home, "climbing": climbing, "discarded": len(state["discards"][str(seat)])}
