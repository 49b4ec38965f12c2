"""Checking a move against the rules of Heuchel & Meuchel, and listing the legal moves.

``check`` raises :class:`IllegalMove` naming a clause of ``seeds/heuchel-meuchel.toml``
and never mutates the state. ``legal`` builds the candidates from the same questions in
``board``; the engine tests check that the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    IllegalMove,
    Move,
    State,
    first_refusal,
    has_values,
    is_int,
    is_seat,
)
from companion.games.declared import check_declared
from companion.games.heuchel_meuchel import board, types
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    CARDS_PER_PLAYER,
    COLUMNS,
    DIE_SIDES,
    card_goal,
    goal_row,
    rank_of,
)

SETUP_TYPES = frozenset({"column", "place", "lift"})
PHASE_TYPES: dict[str, frozenset[str]] = {
    "setup": SETUP_TYPES,
    "move": frozenset({"move"}),
    "favour": frozenset({"take", "again", "done"}),
    "roll": frozenset({"roll"}),
    "lose": frozenset({"lose"}),
}


def _malformed(problem: str) -> IllegalMove:
    return IllegalMove("hm.move.malformed", problem=problem)


def check_values(move: Move) -> None:
    """The numbers of a well-formed move name a column and a card that exist."""
    for key in ("column", "from"):
        if key in move and not 1 <= move[key] <= COLUMNS:
            raise _malformed(f"{key} must be 1 to {COLUMNS}")
    if "card" in move and not 0 <= move["card"] < CARD_COUNT:
        raise _malformed(f"card must be 0 to {CARD_COUNT - 1}")


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove unless ``seat`` may make ``move`` in ``state``."""
    if state["phase"] == "over":
        raise IllegalMove("hm.game.over")
    if not is_seat(state, seat):
        raise IllegalMove("hm.turn.wait", seat=seat)
    check_declared(move, types.Move, "hm.move.malformed")
    check_values(move)
    kind = move["type"]
    if state["phase"] == "setup":
        if kind not in SETUP_TYPES:
            raise IllegalMove("hm.turn.phase")
        _check_setup(state, seat, move)
        return
    if kind in SETUP_TYPES:  # whoever asks, and whatever the turn: set-up is over
        raise IllegalMove("hm.setup.over")
    if seat != state["turn"]:
        raise IllegalMove("hm.turn.wait", seat=seat)
    if kind not in PHASE_TYPES[state["phase"]]:
        raise _wrong_phase(state, kind)
    CHECKS[kind](state, seat, move)


def _wrong_phase(state: State, kind: str) -> IllegalMove:
    """The clause that explains why this kind of move does not fit the turn's moment."""
    phase = state["phase"]
    if kind in SETUP_TYPES:
        return IllegalMove("hm.setup.over")
    if phase == "favour":
        return IllegalMove("hm.favour.first", row=state["moved"]["row"])
    if kind in ("pass", "done"):
        return IllegalMove("hm.turn.must-move")
    if kind == "move" and phase == "roll":
        return IllegalMove("hm.die.roll-first")
    if kind == "take":
        return IllegalMove("hm.favour.only-moved")
    if kind == "again":
        return IllegalMove("hm.favour.again-needs-take")
    if kind == "lose" and phase == "move" and state["roll"] is not None:
        return IllegalMove("hm.die.lose-only-stuck")
    return IllegalMove("hm.turn.phase")


# --- set-up ---------------------------------------------------------------------------


def _check_setup(state: State, seat: int, move: Move) -> None:
    column = board.column_of(state, seat)
    if move["type"] == "column":
        if column is not None and board.placed_count(state, seat):
            raise IllegalMove("hm.setup.column-fixed")
        if board.owner_of(state, move["column"]) is not None:
            raise IllegalMove("hm.setup.column-taken", column=move["column"])
        return
    card = move["card"]
    if move["type"] == "lift":
        if column is None or card not in _start_tops(state, column):
            raise IllegalMove("hm.setup.not-yours")
        return
    if column is None:
        raise IllegalMove("hm.setup.column-first")
    if board.placed_count(state, seat) >= CARDS_PER_PLAYER:
        raise IllegalMove("hm.setup.six")
    if state["options"]["deal"] == "app":
        if card not in state["hands"][str(seat)]:
            raise IllegalMove("hm.setup.not-dealt")
        return
    if card in {placed for _, placed in board.column_cards(state, seat)}:
        raise IllegalMove("hm.setup.already-placed")
    if card in board.placed_cards(state):
        raise IllegalMove("hm.setup.claimed")


def _start_tops(state: State, column: int) -> list[int]:
    return [board.top(stack) for _, stack in board.stacks(state, column)]


def _setup_moves(state: State, seat: int) -> list[Move]:
    column = board.column_of(state, seat)
    moves: list[Move] = []
    if column is None or not board.placed_count(state, seat):
        moves += [{"type": "column", "column": free} for free in range(1, COLUMNS + 1)
                  if board.owner_of(state, free) is None]
    if column is None:
        return moves
    if board.placed_count(state, seat) < CARDS_PER_PLAYER:
        if state["options"]["deal"] == "app":
            cards = sorted(state["hands"][str(seat)])
        else:
            # Every card this seat has not placed: which ones the others entered is theirs
            # to know (docs/games/heuchel-meuchel.md, "Table deals").
            mine = {card for _, card in board.column_cards(state, seat)}
            cards = [card for card in range(CARD_COUNT) if card not in mine]
        moves += [{"type": "place", "card": card} for card in cards]
    moves += [{"type": "lift", "card": card} for card in _start_tops(state, column)]
    return moves


# --- a turn ---------------------------------------------------------------------------


def _own_live(state: State, seat: int, row: int) -> dict[str, Any]:
    """The seat's face-up stack on ``row`` of its column, or the clause that refuses."""
    column = board.own_column(state, seat)
    stack = board.square(state, column, row) if 1 <= row <= len(state["board"][0]) else None
    if stack is None:
        raise IllegalMove("hm.move.own-column", row=row)
    if stack["down"]:
        raise IllegalMove("hm.goal.reached")
    return stack


def _check_move(state: State, seat: int, move: Move) -> None:
    row, count, to = move["row"], move["count"], move["to"]
    stack = _own_live(state, seat, row)
    height = len(stack["cards"])
    if not 1 <= count <= height:
        raise IllegalMove("hm.move.top-part", height=height)
    column = board.own_column(state, seat)
    rank = rank_of(board.top(stack))
    targets = board.reachable(state, column, row, rank)
    if to not in targets:
        raise _landing_refusal(state, column, row, rank, to, targets)
    if board.split_leaves(stack, count, row) == "exposed":
        raise IllegalMove("hm.move.exposes", goal=card_goal(stack["cards"][-count - 1]))


def _landing_refusal(state: State, column: int, row: int, rank: int, to: int,
                     targets: list[int]) -> IllegalMove:
    goal = goal_row(rank)
    if to > goal:
        return IllegalMove("hm.move.goal-limit", goal=goal)
    if state["roll"] is not None:
        return IllegalMove("hm.die.exact", roll=state["roll"])
    if not targets:
        return IllegalMove("hm.move.no-landing", goal=goal)
    listed = ", ".join(str(target) for target in targets)
    landing = board.square(state, column, to) if row < to <= len(state["board"][0]) else None
    if landing is not None and landing["down"] and not board.free_for(state, column, to, rank):
        return IllegalMove("hm.goal.shared", row=to)
    if to <= row or not board.free_for(state, column, to, rank):
        return IllegalMove("hm.move.upward", row=row, landings=listed)
    if not state["options"]["step_ends_move"]:
        return IllegalMove("hm.move.keep-jumping")
    # The rule this table plays: a step ends the move, and a jump goes on only over
    # occupied squares.
    return IllegalMove("hm.move.step-ends" if targets == [row + 1] else "hm.move.jump-ends")


def _check_take(state: State, seat: int, move: Move) -> None:
    moved = state["moved"]
    column, count = move["from"], move["count"]
    if column == moved["column"]:
        raise IllegalMove("hm.favour.other-column")
    if column in state["taken_from"]:
        raise IllegalMove("hm.favour.once")
    victim = board.square(state, column, moved["row"])
    if victim is None:
        raise IllegalMove("hm.favour.nothing-there", row=moved["row"], column=column)
    if victim["down"]:
        raise IllegalMove("hm.favour.goal-untouchable")
    taker = board.stack_at(state, moved["column"], moved["row"])
    if board.top(victim) > board.top(taker):
        raise IllegalMove("hm.favour.lower")
    height = len(victim["cards"])
    if not 1 <= count <= height:
        raise IllegalMove("hm.favour.top-part", height=height)


def _check_again(state: State, seat: int, move: Move) -> None:
    if not state["took"]:
        raise IllegalMove("hm.favour.again-needs-take")


def _check_done(state: State, seat: int, move: Move) -> None:
    """Declining a favour, or ending the turn after one, is always allowed."""


def _check_roll(state: State, seat: int, move: Move) -> None:
    real = state["options"]["die"] == "real"
    if real != ("value" in move):
        raise _malformed("enter the die's value" if real else "the companion rolls the die")
    if real and not 1 <= move["value"] <= DIE_SIDES:
        raise IllegalMove("hm.die.value")


def _check_lose(state: State, seat: int, move: Move) -> None:
    stack = _own_live(state, seat, move["row"])
    if move["lost"] not in stack["cards"]:
        raise IllegalMove("hm.die.lose", row=move["row"])
    if state["options"]["die_loss"] == "top" and move["lost"] != board.top(stack):
        raise IllegalMove("hm.die.lose-top")


CHECKS = {"move": _check_move, "take": _check_take, "again": _check_again,
          "done": _check_done, "roll": _check_roll, "lose": _check_lose}


def _attempts(state: State, seat: int, chosen: Mapping[str, Any]) -> list[Move]:
    """The moves a player tapping what ``chosen`` names most likely means, likeliest first:
    a whole stack one square up, then higher; a card placed, or taken back."""
    if is_int(chosen.get("row")) and is_int(board.column_of(state, seat)):
        row = chosen["row"]
        rows = len(state["board"][0])
        stack = board.square(state, board.own_column(state, seat), row) \
            if 1 <= row <= rows else None
        count = len(stack["cards"]) if stack else 1
        return [{"type": "move", "row": row, "count": count, "to": to}
                for to in range(row + 1, rows + 1)] or [
            {"type": "move", "row": row, "count": count, "to": rows}]
    if is_int(chosen.get("card")):
        return [{"type": "place", "card": chosen["card"]}, {"type": "lift", "card": chosen["card"]}]
    if is_int(chosen.get("column")):
        return [{"type": "column", "column": chosen["column"]}]
    if is_int(chosen.get("from")):
        return [{"type": "take", "from": chosen["from"], "count": count}
                for count in range(1, len(state["board"][0]) + 1)]
    return []


def why_not(state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
    """The rule that stops every move with the values ``chosen`` (see ``Game.why_not``)."""
    named = {key: value for key, value in chosen.items() if key != "type"}
    wanted = [move for move in _attempts(state, seat, chosen) if has_values(move, named)]
    waiting = state["phase"] not in ("setup", "over") and seat != state["turn"]
    return first_refusal(lambda move: check(state, seat, move), wanted,
                         IllegalMove("hm.turn.wait", seat=seat) if waiting
                         else IllegalMove("hm.turn.phase"))


def legal(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (empty when nothing is asked of it)."""
    phase = state["phase"]
    if phase == "over" or not is_seat(state, seat):
        return []
    if phase == "setup":
        return _setup_moves(state, seat)
    if seat != state["turn"]:
        return []
    if phase == "move":
        return board.unit_moves(state, seat)
    if phase == "favour":
        moves: list[Move] = [
            {"type": "take", "from": victim["column"], "count": count}
            for victim in board.victims(state) for count in range(1, victim["height"] + 1)
        ]
        if state["took"]:
            moves.append({"type": "again"})
        return [*moves, {"type": "done"}]
    if phase == "roll":
        if state["options"]["die"] == "real":
            return [{"type": "roll", "value": value} for value in range(1, DIE_SIDES + 1)]
        return [{"type": "roll"}]
    return [{"type": "lose", "row": row, "lost": card}
            for row, stack in board.live_stacks(state, seat)
            for card in reversed(stack["cards"])
            if state["options"]["die_loss"] == "any" or card == board.top(stack)]

