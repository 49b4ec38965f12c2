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
from companion.games.checks import Check, Order, in_phase, named, never, option, well_formed
from companion.games.heuchel_meuchel import board, types
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    CARDS_PER_PLAYER,
    COLUMNS,
    DIE_SIDES,
    ROWS,
    card_goal,
    goal_row,
    rank_of,
)

SETUP_TYPES = frozenset({"column", "place", "lift"})


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
    """Raise IllegalMove unless ``seat`` may make ``move`` in ``state``: the first of
    ``ORDER``'s checks that the move fails."""
    ORDER.enforce(state, seat, move)


# --- every move -----------------------------------------------------------------------


def _rolled(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A stack's move after a roll of the die, which it matches exactly."""
    return before["roll"] is not None


@named("over", "hm.game.over")
def _over(state: State, seat: int, move: Any) -> IllegalMove | None:
    return IllegalMove("hm.game.over") if state["phase"] == "over" else None


@named("seat", "hm.turn.wait", applies=never)
def _seat(state: State, seat: int, move: Any) -> IllegalMove | None:
    return None if is_seat(state, seat) else IllegalMove("hm.turn.wait", seat=seat)


_shape = well_formed(types.Move, "hm.move.malformed", check_values)


# --- set-up ---------------------------------------------------------------------------


@named("begun", "hm.setup.over")
def _begun(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A set-up move once the game has begun, whoever sends it and whatever the turn."""
    return IllegalMove("hm.setup.over") if state["phase"] != "setup" else None


@named("column-fixed", "hm.setup.column-fixed")
def _column_fixed(state: State, seat: int, move: Move) -> IllegalMove | None:
    fixed = board.column_of(state, seat) is not None and board.placed_count(state, seat)
    return IllegalMove("hm.setup.column-fixed") if fixed else None


@named("column-taken", "hm.setup.column-taken")
def _column_taken(state: State, seat: int, move: Move) -> IllegalMove | None:
    if board.owner_of(state, move["column"]) is not None:
        return IllegalMove("hm.setup.column-taken", column=move["column"])
    return None


@named("column-first", "hm.setup.column-first")
def _column_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.setup.column-first") if board.column_of(state, seat) is None else None


@named("six", "hm.setup.six")
def _six(state: State, seat: int, move: Move) -> IllegalMove | None:
    full = board.placed_count(state, seat) >= CARDS_PER_PLAYER
    return IllegalMove("hm.setup.six") if full else None


@named("in-turn", "hm.setup.in-turn", applies=option("placing", "in-turn"))
def _in_turn(state: State, seat: int, move: Move) -> IllegalMove | None:
    """Table option "in turn": only the seat whose turn it is to place places or lifts."""
    placing = board.placing_seat(state)
    return IllegalMove("hm.setup.in-turn") if placing not in (None, seat) else None


@named("dealt", "hm.setup.not-dealt", applies=option("deal", "app"))
def _dealt(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["options"]["deal"] == "app" and move["card"] not in state["hands"][str(seat)]:
        return IllegalMove("hm.setup.not-dealt")
    return None


@named("already-placed", "hm.setup.already-placed", applies=option("deal", "table"))
def _already_placed(state: State, seat: int, move: Move) -> IllegalMove | None:
    mine = {placed for _, placed in board.column_cards(state, seat)}
    if state["options"]["deal"] == "table" and move["card"] in mine:
        return IllegalMove("hm.setup.already-placed")
    return None


@named("claimed", "hm.setup.claimed", applies=option("deal", "table"))
def _claimed(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["options"]["deal"] == "table" and move["card"] in board.placed_cards(state):
        return IllegalMove("hm.setup.claimed")
    return None


@named("not-yours", "hm.setup.not-yours")
def _not_yours(state: State, seat: int, move: Move) -> IllegalMove | None:
    column = board.column_of(state, seat)
    if column is None or move["card"] not in _start_tops(state, column):
        return IllegalMove("hm.setup.not-yours")
    return None


def _start_tops(state: State, column: int) -> list[int]:
    return [board.top(stack) for _, stack in board.stacks(state, column)]


def _setup_moves(state: State, seat: int) -> list[Move]:
    column = board.column_of(state, seat)
    moves: list[Move] = []
    if column is None or not board.placed_count(state, seat):
        moves += [{"type": "column", "column": free} for free in range(1, COLUMNS + 1)
                  if board.owner_of(state, free) is None]
    if column is None or board.placing_seat(state) not in (None, seat):
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


# --- the moment of a turn ---------------------------------------------------------------


@named("set-up", "hm.turn.phase", applies=in_phase("setup"))
def _setting_up(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.turn.phase") if state["phase"] == "setup" else None


@named("turn", "hm.turn.wait")
def _turn(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.turn.wait", seat=seat) if seat != state["turn"] else None


@named("favour-first", "hm.favour.first", applies=in_phase("favour"))
def _favour_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["phase"] == "favour":
        return IllegalMove("hm.favour.first", row=state["moved"]["row"])
    return None


@named("roll-first", "hm.die.roll-first", applies=in_phase("roll"))
def _roll_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.die.roll-first") if state["phase"] == "roll" else None


def _moment(phase: str) -> Check:
    """The check that the turn waits for a move of this kind (phase ``phase``)."""
    def refuse(state: State, seat: int, move: Move) -> IllegalMove | None:
        return IllegalMove("hm.turn.phase") if state["phase"] != phase else None
    return Check("moment", refuse, ("hm.turn.phase",))


@named("must-move", "hm.turn.must-move")
def _must_move(state: State, seat: int, move: Move) -> IllegalMove | None:
    """Passing, or ending a turn that has moved nothing: never but after a move's favour."""
    if move["type"] == "pass" or state["phase"] != "favour":
        return IllegalMove("hm.turn.must-move")
    return None


# --- moving a stack -------------------------------------------------------------------


def _own_stack(state: State, seat: int, row: int) -> dict[str, Any] | None:
    """The seat's stack on ``row`` of its column, or None."""
    column = board.own_column(state, seat)
    return board.square(state, column, row) if 1 <= row <= ROWS else None


@named("own-column", "hm.move.own-column")
def _own_column(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _own_stack(state, seat, move["row"]) is None:
        return IllegalMove("hm.move.own-column", row=move["row"])
    return None


@named("home", "hm.goal.reached")
def _home(state: State, seat: int, move: Move) -> IllegalMove | None:
    stack = _own_stack(state, seat, move["row"])
    return IllegalMove("hm.goal.reached") if stack is not None and stack["down"] else None


@named("top-part", "hm.move.top-part")
def _top_part(state: State, seat: int, move: Move) -> IllegalMove | None:
    height = len(board.stack_at(state, board.own_column(state, seat), move["row"])["cards"])
    if not 1 <= move["count"] <= height:
        return IllegalMove("hm.move.top-part", height=height)
    return None


class _Landing:
    """What the landing checks read of a move: the column, the stack's top rank and goal,
    and every row it may land on this turn."""

    def __init__(self, state: State, seat: int, move: Move) -> None:
        self.column = board.own_column(state, seat)
        self.row, self.to = move["row"], move["to"]
        self.rank = rank_of(board.top(board.stack_at(state, self.column, self.row)))
        self.goal = goal_row(self.rank)
        self.targets = board.reachable(state, self.column, self.row, self.rank)

    def free(self, state: State) -> bool:
        return board.free_for(state, self.column, self.to, self.rank)

    def upward(self) -> IllegalMove:
        """« toujours vers le haut », with the rows this stack may land on (the rule's own
        words when it may land nowhere)."""
        if not self.targets:
            return IllegalMove("hm.move.upward")
        return IllegalMove("hm.move.upward", row=self.row,
                           landings=", ".join(str(target) for target in self.targets))


@named("down", "hm.move.upward")
def _down(state: State, seat: int, move: Move) -> IllegalMove | None:
    return _Landing(state, seat, move).upward() if move["to"] <= move["row"] else None


@named("goal-limit", "hm.move.goal-limit")
def _goal_limit(state: State, seat: int, move: Move) -> IllegalMove | None:
    goal = goal_row(rank_of(board.top(board.stack_at(state, board.own_column(state, seat),
                                                     move["row"]))))
    return IllegalMove("hm.move.goal-limit", goal=goal) if move["to"] > goal else None


@named("goal-shared", "hm.goal.shared")
def _goal_shared(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A face-down goal pile of a lower rank: occupied for this stack, which jumps it."""
    landing = _Landing(state, seat, move)
    pile = board.square(state, landing.column, landing.to)
    if pile is not None and pile["down"] and not landing.free(state):
        return IllegalMove("hm.goal.shared", row=landing.to)
    return None


@named("die-exact", "hm.die.exact", applies=_rolled)
def _die_exact(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["roll"] is not None and move["to"] not in _Landing(state, seat, move).targets:
        return IllegalMove("hm.die.exact", roll=state["roll"])
    return None


@named("no-landing", "hm.move.no-landing")
def _no_landing(state: State, seat: int, move: Move) -> IllegalMove | None:
    landing = _Landing(state, seat, move)
    return IllegalMove("hm.move.no-landing", goal=landing.goal) if not landing.targets else None


@named("occupied", "hm.move.upward")
def _occupied(state: State, seat: int, move: Move) -> IllegalMove | None:
    landing = _Landing(state, seat, move)
    return landing.upward() if not landing.free(state) else None


@named("keep-jumping", "hm.move.keep-jumping", applies=option("step_ends_move", False))
def _keep_jumping(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The table option: a step may go on jumping too, and only over occupied squares."""
    if not state["options"]["step_ends_move"] and \
            move["to"] not in _Landing(state, seat, move).targets:
        return IllegalMove("hm.move.keep-jumping")
    return None


@named("step-ends", "hm.move.step-ends", applies=option("step_ends_move", True))
def _step_ends(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The rule the table plays by default: a plain step ends the move."""
    landing = _Landing(state, seat, move)
    if move["to"] not in landing.targets and landing.targets == [landing.row + 1]:
        return IllegalMove("hm.move.step-ends")
    return None


@named("jump-ends", "hm.move.jump-ends", applies=option("step_ends_move", True))
def _jump_ends(state: State, seat: int, move: Move) -> IllegalMove | None:
    """By default too: a jump goes on only over occupied squares."""
    if move["to"] not in _Landing(state, seat, move).targets:
        return IllegalMove("hm.move.jump-ends")
    return None


@named("exposes", "hm.move.exposes")
def _exposes(state: State, seat: int, move: Move) -> IllegalMove | None:
    stack = board.stack_at(state, board.own_column(state, seat), move["row"])
    if board.split_leaves(stack, move["count"], move["row"]) == "exposed":
        return IllegalMove("hm.move.exposes", goal=card_goal(stack["cards"][-move["count"] - 1]))
    return None


# --- favours --------------------------------------------------------------------------


@named("only-moved", "hm.favour.only-moved")
def _only_moved(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.favour.only-moved") if state["phase"] != "favour" else None


@named("other-column", "hm.favour.other-column")
def _other_column(state: State, seat: int, move: Move) -> IllegalMove | None:
    same = move["from"] == state["moved"]["column"]
    return IllegalMove("hm.favour.other-column") if same else None


@named("once", "hm.favour.once")
def _once(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.favour.once") if move["from"] in state["taken_from"] else None


@named("nothing-there", "hm.favour.nothing-there")
def _nothing_there(state: State, seat: int, move: Move) -> IllegalMove | None:
    row = state["moved"]["row"]
    if board.square(state, move["from"], row) is None:
        return IllegalMove("hm.favour.nothing-there", row=row, column=move["from"])
    return None


def _victim(state: State, move: Move) -> dict[str, Any]:
    return board.stack_at(state, move["from"], state["moved"]["row"])


@named("goal-untouchable", "hm.favour.goal-untouchable")
def _goal_untouchable(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("hm.favour.goal-untouchable") if _victim(state, move)["down"] else None


@named("lower", "hm.favour.lower", "hm.favour.lower-any",
       when={"hm.favour.lower": option("favour_rank", "top"),
             "hm.favour.lower-any": option("favour_rank", "highest")})
def _lower(state: State, seat: int, move: Move) -> IllegalMove | None:
    taker = board.stack_at(state, state["moved"]["column"], state["moved"]["row"])
    if board.top(_victim(state, move)) < board.taking_card(state, taker):
        return None
    highest = state["options"]["favour_rank"] == "highest"
    return IllegalMove("hm.favour.lower-any" if highest else "hm.favour.lower")


@named("take-part", "hm.favour.top-part")
def _take_part(state: State, seat: int, move: Move) -> IllegalMove | None:
    height = len(_victim(state, move)["cards"])
    if not 1 <= move["count"] <= height:
        return IllegalMove("hm.favour.top-part", height=height)
    return None


@named("took", "hm.favour.again-needs-take")
def _took(state: State, seat: int, move: Move) -> IllegalMove | None:
    """Another turn only after a favour that took at least one card."""
    return None if state["phase"] == "favour" and state["took"] else IllegalMove(
        "hm.favour.again-needs-take")


# --- the die --------------------------------------------------------------------------


@named("die-entered", "hm.move.malformed")
def _die_entered(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A real die's value is entered; the companion's is not."""
    real = state["options"]["die"] == "real"
    if real != ("value" in move):
        return _malformed("enter the die's value" if real else "the companion rolls the die")
    return None


@named("die-value", "hm.die.value", applies=option("die", "real"))
def _die_value(state: State, seat: int, move: Move) -> IllegalMove | None:
    if "value" in move and not 1 <= move["value"] <= DIE_SIDES:
        return IllegalMove("hm.die.value")
    return None


@named("only-stuck", "hm.die.lose-only-stuck", applies=in_phase("move"))
def _only_stuck(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card is lost only to a roll that allows no move."""
    if state["phase"] == "move" and state["roll"] is not None:
        return IllegalMove("hm.die.lose-only-stuck")
    return None


@named("in-stack", "hm.die.lose")
def _in_stack(state: State, seat: int, move: Move) -> IllegalMove | None:
    stack = board.stack_at(state, board.own_column(state, seat), move["row"])
    return IllegalMove("hm.die.lose", row=move["row"]) if move["lost"] not in stack[
        "cards"] else None


@named("lose-top", "hm.die.lose-top", applies=option("die_loss", "top"))
def _lose_top(state: State, seat: int, move: Move) -> IllegalMove | None:
    stack = board.stack_at(state, board.own_column(state, seat), move["row"])
    if state["options"]["die_loss"] == "top" and move["lost"] != board.top(stack):
        return IllegalMove("hm.die.lose-top")
    return None


_PLAY = (_setting_up, _turn)
#: Every check a move goes through, in order (docs/games/heuchel-meuchel.md, "Which rule a
#: refusal names").
ORDER = Order(
    first=(_over, _seat, _shape),
    by_kind={
        "column": (_begun, _column_fixed, _column_taken),
        "place": (_begun, _column_first, _six, _in_turn, _dealt, _already_placed, _claimed),
        "lift": (_begun, _not_yours, _in_turn),
        "move": (*_PLAY, _favour_first, _roll_first, _moment("move"), _own_column, _home,
                 _top_part, _down, _goal_limit, _goal_shared, _die_exact, _no_landing,
                 _occupied, _keep_jumping, _step_ends, _jump_ends, _exposes),
        "take": (*_PLAY, _only_moved, _other_column, _once, _nothing_there, _goal_untouchable,
                 _lower, _take_part),
        "again": (*_PLAY, _took),
        "done": (*_PLAY, _must_move),
        "pass": (*_PLAY, _favour_first, _must_move),
        "roll": (*_PLAY, _favour_first, _moment("roll"), _die_entered, _die_value),
        "lose": (*_PLAY, _favour_first, _only_stuck, _moment("lose"), _own_column, _home,
                 _in_stack, _lose_top),
    },
)


def _attempts(state: State, seat: int, chosen: Mapping[str, Any]) -> list[Move]:
    """The moves a player tapping what ``chosen`` names most likely means, likeliest first:
    a stack (whole, or the cards chosen) one square up, then higher, or to the square
    tapped; a card placed, or taken back."""
    if is_int(chosen.get("row")) and is_int(board.column_of(state, seat)):
        row = chosen["row"]
        rows = len(state["board"][0])
        stack = board.square(state, board.own_column(state, seat), row) \
            if 1 <= row <= rows else None
        count = chosen["count"] if is_int(chosen.get("count")) else \
            len(stack["cards"]) if stack else 1
        if is_int(chosen.get("to")):
            return [{"type": "move", "row": row, "count": count, "to": chosen["to"]}]
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

