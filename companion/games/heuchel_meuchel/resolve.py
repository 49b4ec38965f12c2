"""Carrying out a checked move on a state that ``apply`` already copied.

Each function changes the state in place and records, in ``state["last"]``, the public
account of a turn (what moved where, what was taken, what was discarded), and sets
``state["revealed"]`` (``apply`` clears it first) when the move uncovered a card that
someone had not seen: its mover may not take it back then.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import roll as roll_die
from companion.games.heuchel_meuchel import board
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    DIE_SIDES,
    card_goal,
    card_json,
    rank_of,
    start_row,
)

State = dict[str, Any]
Move = dict[str, Any]


def _set(state: State, column: int, row: int, cards: list[int], down: bool = False) -> None:
    state["board"][column - 1][row - 1] = {"cards": cards, "down": down} if cards else None


def _uses_die(state: State) -> bool:
    return state["options"]["die"] != "off"


# --- set-up ---------------------------------------------------------------------------


def choose_column(state: State, seat: int, move: Move) -> None:
    state["columns"][str(seat)] = move["column"]


def place(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    column = board.column_of(state, seat)
    row = start_row(rank_of(card))
    stack = board.square(state, column, row)
    _set(state, column, row, [*(stack["cards"] if stack else []), card])
    if state["options"]["deal"] == "app":
        state["hands"][str(seat)].remove(card)
    if all(board.setup_done(state, other) for other in range(state["players"])):
        _begin(state)


def lift(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    column = board.column_of(state, seat)
    row = start_row(rank_of(card))
    stack = board.square(state, column, row)
    _set(state, column, row, stack["cards"][:-1])
    if state["options"]["deal"] == "app":
        state["hands"][str(seat)] = sorted([*state["hands"][str(seat)], card])


def _begin(state: State) -> None:
    """Every stack is placed: the first player moves (or rolls)."""
    if state["options"]["deal"] == "table":
        placed = board.placed_cards(state)
        state["unused"] = [card for card in range(CARD_COUNT) if card not in placed]
    state["turn"] = state["first"]
    state["phase"] = "roll" if _uses_die(state) else "move"
    state["revealed"] = True  # every top card turns face up


# --- a turn ---------------------------------------------------------------------------


def move_stack(state: State, seat: int, move: Move) -> None:
    column = board.column_of(state, seat)
    row, count, to = move["row"], move["count"], move["to"]
    stack = board.square(state, column, row)
    part, rest = stack["cards"][-count:], stack["cards"][:-count]
    uncovered_home = board.split_leaves(stack, count, row) == "home"
    _set(state, column, row, rest, down=uncovered_home)
    target = board.square(state, column, to)
    cards = [*(target["cards"] if target else []), *part]
    home = to == card_goal(part[-1])
    _set(state, column, to, cards, down=home)
    rolled = state["roll"]
    state["moved"] = {"column": column, "row": to}
    state["taken_from"], state["took"], state["roll"] = [], False, None
    state["revealed"] = bool(rest)
    state["last"] = {"seat": seat, "column": column, "from": row, "to": to, "count": count,
                     "top": card_json(part[-1]), "home": home,
                     "uncovered_home": uncovered_home, "takes": [], "lost": None,
                     "roll": rolled}
    if not board.victims(state):
        end_turn(state)
    else:
        state["phase"] = "favour"


def take(state: State, seat: int, move: Move) -> None:
    moved = state["moved"]
    row, column, count = moved["row"], move["from"], move["count"]
    victim = board.square(state, column, row)
    part, rest = victim["cards"][-count:], victim["cards"][:-count]
    taker = board.square(state, moved["column"], row)
    taker["cards"] = [*part, *taker["cards"]]
    _set(state, column, row, rest)
    state["taken_from"] = [*state["taken_from"], column]
    state["took"] = True
    state["revealed"] = len(victim["cards"]) > 1
    discarded, home = settle_uncovered(state, column, row)
    state["last"]["takes"].append({"column": column, "count": count, "discarded": discarded,
                                   "home": home})


def settle_uncovered(state: State, column: int, row: int) -> tuple[int, bool]:
    """Arrogance: after cards were taken off a stack, the card now on top must be allowed
    there. Above its goal, the rest of the stack is discarded in front of its owner (with
    the die, one card at a time until an allowed card shows); exactly on its goal, the
    rest has reached it and turns face down. Returns (cards discarded, turned home)."""
    stack = board.square(state, column, row)
    if stack is None:
        return 0, False
    cards = list(stack["cards"])
    discarded: list[int] = []
    while cards and row > card_goal(cards[-1]):
        if _uses_die(state):
            discarded.append(cards.pop())
        else:
            discarded, cards = discarded + cards, []
    home = bool(cards) and row == card_goal(cards[-1])
    _set(state, column, row, cards, down=home)
    owner = board.owner_of(state, column)
    state["discards"][str(owner)] = [*state["discards"][str(owner)], *discarded]
    return len(discarded), home


def again(state: State, seat: int, move: Move) -> None:
    state["moved"], state["taken_from"], state["took"] = None, [], False
    state["phase"] = "roll" if _uses_die(state) else "move"


def done(state: State, seat: int, move: Move) -> None:
    end_turn(state)


def roll(state: State, seat: int, move: Move) -> None:
    value = move.get("value") or roll_die(state, DIE_SIDES)
    state["roll"] = value
    state["phase"] = "move" if board.unit_moves(state, seat) else "lose"


def lose(state: State, seat: int, move: Move) -> None:
    """Die variant: the roll allowed no move; the top card of a chosen stack is discarded."""
    column = board.column_of(state, seat)
    stack = board.square(state, column, move["row"])
    lost = stack["cards"][-1]
    _set(state, column, move["row"], stack["cards"][:-1])
    state["discards"][str(seat)] = [*state["discards"][str(seat)], lost]
    state["revealed"] = len(stack["cards"]) > 1
    discarded, home = settle_uncovered(state, column, move["row"])
    state["last"] = {"seat": seat, "column": column, "from": move["row"], "to": None,
                     "count": 1, "top": card_json(lost), "home": home,
                     "uncovered_home": False, "takes": [],
                     "lost": {"row": move["row"], "discarded": discarded},
                     "roll": state["roll"]}
    end_turn(state)


def end_turn(state: State) -> None:
    """Play passes clockwise to the next player with a card still on the way; the game ends
    when only one such player is left (with the die, when none is)."""
    state["moved"], state["taken_from"], state["took"], state["roll"] = None, [], False, None
    live = [seat for seat in range(state["players"]) if board.has_live(state, seat)]
    if len(live) <= (0 if _uses_die(state) else 1):
        state["phase"], state["turn"] = "over", None
        return
    after = (state["turn"] + 1) % state["players"]
    state["turn"] = next(seat for seat in board.clockwise_from(state, after) if seat in live)
    state["phase"] = "roll" if _uses_die(state) else "move"


CARRY_OUT = {"column": choose_column, "place": place, "lift": lift, "move": move_stack,
             "take": take, "again": again, "done": done, "roll": roll, "lose": lose}
