"""Carrying out a checked move on a state that ``apply`` already copied.

Each function changes the state in place and records, in ``state["last"]``, the public
account of a turn (what moved where, what was taken, what was discarded), in
``state["effects"]`` what the rules did beyond the move itself, each with its clause
(``apply`` empties it first), and sets ``state["revealed"]`` (``apply`` clears it first)
when the move uncovered a card that someone had not seen: its mover may not take it back
then.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Move, State
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


def _set(state: State, column: int, row: int, cards: list[int], down: bool = False) -> None:
    state["board"][column - 1][row - 1] = {"cards": cards, "down": down} if cards else None


def _uses_die(state: State) -> bool:
    return state["options"]["die"] != "off"


def _effect(state: State, rule: str, **params: Any) -> None:
    state["effects"].append({"rule": rule, **params})


# --- set-up ---------------------------------------------------------------------------


def choose_column(state: State, seat: int, move: Move) -> None:
    state["columns"][str(seat)] = move["column"]


def place(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    column = board.own_column(state, seat)
    row = start_row(rank_of(card))
    stack = board.square(state, column, row)
    _set(state, column, row, [*(stack["cards"] if stack else []), card])
    if state["options"]["deal"] == "app":
        state["hands"][str(seat)].remove(card)
    if all(board.setup_done(state, other) for other in range(state["players"])):
        _begin(state)


def lift(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    column = board.own_column(state, seat)
    row = start_row(rank_of(card))
    stack = board.stack_at(state, column, row)
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
    _effect(state, "hm.setup.begin", seat=state["first"])


# --- a turn ---------------------------------------------------------------------------


def move_stack(state: State, seat: int, move: Move) -> None:
    column = board.own_column(state, seat)
    row, count, to = move["row"], move["count"], move["to"]
    stack = board.stack_at(state, column, row)
    part, rest = stack["cards"][-count:], stack["cards"][:-count]
    jumped = [over for over in range(row + 1, to) if board.square(state, column, over)]
    if jumped:
        _effect(state, "hm.move.upward", column=column, rows=jumped)
    uncovered_home = board.split_leaves(stack, count, row) == "home"
    _set(state, column, row, rest, down=uncovered_home)
    if uncovered_home:
        _effect(state, "hm.goal.reached", column=column, row=row, count=len(rest))
    target = board.square(state, column, to)
    cards = [*(target["cards"] if target else []), *part]
    home = to == card_goal(part[-1])
    _set(state, column, to, cards, down=home)
    if home:
        _effect(state, "hm.goal.reached", column=column, row=to, count=len(cards))
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
        _effect(state, "hm.favour.same-row", row=to,
                columns=[victim["column"] for victim in board.victims(state)])


def take(state: State, seat: int, move: Move) -> None:
    moved = state["moved"]
    row, column, count = moved["row"], move["from"], move["count"]
    victim = board.stack_at(state, column, row)
    part, rest = victim["cards"][-count:], victim["cards"][:-count]
    taker = board.stack_at(state, moved["column"], row)
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
    if discarded:
        _effect(state, "hm.die.arrogance" if _uses_die(state) else "hm.arrogance",
                column=column, row=row, seat=owner, count=len(discarded))
    if home:
        _effect(state, "hm.arrogance.at-goal", column=column, row=row, count=len(cards))
    return len(discarded), home


def again(state: State, seat: int, move: Move) -> None:
    state["moved"], state["taken_from"], state["took"] = None, [], False
    state["phase"] = "roll" if _uses_die(state) else "move"


def done(state: State, seat: int, move: Move) -> None:
    end_turn(state)


def roll(state: State, seat: int, move: Move) -> None:
    value = move.get("value") or roll_die(state, DIE_SIDES)
    state["roll"] = value
    if "value" not in move:
        _effect(state, "hm.die.roll", seat=seat, roll=value)
    state["phase"] = "move" if board.unit_moves(state, seat) else "lose"
    if state["phase"] == "lose":
        _effect(state, "hm.die.lose", seat=seat, roll=value)


def lose(state: State, seat: int, move: Move) -> None:
    """Die variant: the roll allowed no move; a card of the player's choice still on its
    way is discarded. Taking out a covered card leaves the stack's order as it was; the
    others learn only that a covered card went (the player's discards are their own)."""
    column = board.own_column(state, seat)
    stack = board.stack_at(state, column, move["row"])
    lost = move["lost"]
    was_top = lost == stack["cards"][-1]
    _set(state, column, move["row"], [card for card in stack["cards"] if card != lost])
    state["discards"][str(seat)] = [*state["discards"][str(seat)], lost]
    state["revealed"] = was_top and len(stack["cards"]) > 1
    discarded, home = settle_uncovered(state, column, move["row"]) if was_top else (0, False)
    state["last"] = {"seat": seat, "column": column, "from": move["row"], "to": None,
                     "count": 1, "top": card_json(lost) if was_top else None, "home": home,
                     "uncovered_home": False, "takes": [],
                     "lost": {"row": move["row"], "discarded": discarded},
                     "roll": state["roll"]}
    end_turn(state)


def end_turn(state: State) -> None:
    """Play passes clockwise to the next player with a card still on the way."""
    state["moved"], state["taken_from"], state["took"], state["roll"] = None, [], False, None
    live = _live_seats(state)
    if end_if_settled(state):
        return
    after = (state["turn"] + 1) % state["players"]
    state["turn"] = next(seat for seat in board.clockwise_from(state, after) if seat in live)
    state["phase"] = "roll" if _uses_die(state) else "move"


def _live_seats(state: State) -> list[int]:
    return [seat for seat in range(state["players"]) if board.has_live(state, seat)]


def end_if_settled(state: State) -> bool:
    """The game ends the moment only one player still has a card on its way (with the
    die, none), whatever brought it there: a move, a favour, arrogance or a lost card."""
    if state["phase"] in ("setup", "over"):
        return state["phase"] == "over"
    live = _live_seats(state)
    if len(live) > (0 if _uses_die(state) else 1):
        return False
    state["phase"], state["turn"] = "over", None
    state["moved"], state["taken_from"], state["took"], state["roll"] = None, [], False, None
    _effect(state, "hm.die.end" if _uses_die(state) else "hm.end.last-player",
            seats=live)
    return True


CARRY_OUT = {"column": choose_column, "place": place, "lift": lift, "move": move_stack,
             "take": take, "again": again, "done": done, "roll": roll, "lose": lose}
