"""Heuchel & Meuchel (Rudi Hoffmann, Kosmos 1990): the Game protocol implementation.

State layout (plain JSON; see docs/games/heuchel-meuchel.md): ``players``, ``options``,
``rng``, ``first``, ``phase`` (setup, move, favour, roll, lose, over), ``turn``,
``columns`` {seat: column}, ``hands`` {seat: [cards dealt, not yet placed]}, ``board``
(6 columns × 13 squares), ``discards`` {seat: [cards]}, ``unused`` (cards out of the game),
``moved`` (the stack that may take favours), ``taken_from``, ``took``, ``roll``,
``last`` (the public account of the latest turn), ``revealed``.
"""

from __future__ import annotations

import json
from typing import Any

from companion.games.base import (
    Move,
    Outcome,
    SeededGame,
    State,
    clone,
    copy_state,
    new_rng_state,
    read_setup,
    revealed_nothing,
    shuffled,
)
from companion.games.heuchel_meuchel import board, corrections, resolve, rules
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    CARDS_PER_PLAYER,
    COLUMNS,
    GAME_ID,
    ROWS,
    SEED,
    card_json,
    rank_of,
)
from companion.games.heuchel_meuchel.types import View


class HeuchelMeuchel(SeededGame, seed=SEED, rules=rules):
    choice_keys: tuple[str, ...] = ("card", "row", "lost", "column", "type", "from", "count",
                                    "to", "value")
    takes_corrections = True

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        values, first = read_setup(self, players, options)
        state: State = {"rng": new_rng_state(seed)}
        seats = [str(seat) for seat in range(players)]
        if values["deal"] == "app":
            deck = shuffled(state, list(range(CARD_COUNT)))
            hands = {seat: sorted(deck[int(seat) * CARDS_PER_PLAYER:
                                       (int(seat) + 1) * CARDS_PER_PLAYER]) for seat in seats}
            unused = sorted(deck[players * CARDS_PER_PLAYER:])
        else:
            hands, unused = {seat: [] for seat in seats}, []
        state.update({
            "game": GAME_ID,
            "players": players,
            "options": values,
            "first": first,
            "phase": "setup",
            "turn": None,
            "columns": {seat: None for seat in seats},
            "hands": hands,
            "board": [[None] * ROWS for _ in range(COLUMNS)],
            "discards": {seat: [] for seat in seats},
            "unused": unused,
            "moved": None,
            "taken_from": [],
            "took": False,
            "roll": None,
            "last": None,
            "effects": [],
            "revealed": False,
        })
        return state

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return rules.legal(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        rules.check(state, seat, move)
        new = copy_state(state)
        new["revealed"], new["effects"] = False, []
        resolve.CARRY_OUT[move["type"]](new, seat, move)
        resolve.end_if_settled(new)
        return new

    def correct(self, state: State, correction: Move) -> State:
        """The host sets a stack on the row it stands on at the table (``corrections.py``)."""
        return corrections.correct(state, correction)

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Not after a die roll by the companion, nor after a move that uncovered a card."""
        return revealed_nothing(before, after) and not after["revealed"]

    def redact_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move:
        """While players set up, the others learn which start square a card went to, not
        which card it was."""
        if move.get("type") in ("place", "lift") and viewer != seat:
            return {"type": move["type"], "rank": rank_of(move["card"])}
        if move.get("type") == "lose" and viewer != seat:
            stack = board.square(state, board.own_column(state, seat), move["row"])
            if stack is None or move["lost"] != board.top(stack):
                return {"type": "lose", "row": move["row"]}  # a covered card stays unnamed
        return json.loads(json.dumps(move))

    # --- what players see -----------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        players = range(state["players"])
        view: View = {
            "game": GAME_ID,
            "players": state["players"],
            "options": dict(state["options"]),
            "phase": state["phase"],
            "turn": state["turn"],
            "first": state["first"],
            "columns": dict(state["columns"]),
            "board": [[_public_square(stack, _tops_shown(state, column))
                       for stack in squares]
                      for column, squares in enumerate(state["board"], start=1)],
            "placing": board.placing_seat(state),
            "counts": {str(s): board.counts(state, s) for s in players},
            "placed": {str(s): board.placed_count(state, s) for s in players},
            "moved": clone(state["moved"]),
            "took": state["took"],
            "taken_from": list(state["taken_from"]),
            "victims": [dict(victim, top=card_json(victim["top"]))
                        for victim in board.victims(state)],
            "roll": state["roll"],
            "last": clone(state["last"]),
            "outcome": None,
        }
        result = self.outcome(state)
        if result is not None:
            view["outcome"] = result.as_json()
            view["scores"] = {str(s): board.score_parts(state, s) for s in players}
        if seat is not None and str(seat) in state["columns"]:
            _add_private(view, state, seat)
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = {seat: board.score_parts(state, seat)["total"]
                  for seat in range(state["players"])}
        ranking: list[list[int]] = []
        for seat in sorted(scores, key=lambda s: (-scores[s], s)):
            if ranking and scores[ranking[-1][0]] == scores[seat]:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        reason = "all-home" if state["options"]["die"] != "off" else "last-player"
        return Outcome(ranking=ranking, scores=scores, reason=reason)


def _tops_shown(state: State, column: int) -> bool:
    """Whether everyone sees the top cards of a column's stacks: once the game has begun;
    during the set-up only with the table option "in turn", once the column's owner has
    placed their six (hm.setup.hidden, hm.setup.in-turn)."""
    if state["phase"] != "setup":
        return True
    owner = board.owner_of(state, column)
    return (state["options"]["placing"] == "in-turn" and owner is not None
            and board.setup_done(state, owner))


def _public_square(stack: dict[str, Any] | None, tops_shown: bool) -> dict[str, Any] | None:
    """A square as everyone sees it: a face-down pile's height, a stack's top card and
    height (only the height while its top is hidden: ``_tops_shown``)."""
    if stack is None:
        return None
    public: dict[str, Any] = {"height": len(stack["cards"]), "down": stack["down"]}
    if not stack["down"] and tops_shown:
        public["top"] = card_json(board.top(stack))
    return public


def _add_private(view: View, state: State, seat: int) -> None:
    """What only this seat sees: every card of its column, its hand and its discards."""
    column = board.column_of(state, seat)
    stacks = [] if column is None else [
        {"row": row, "down": stack["down"], "cards": [card_json(c) for c in stack["cards"]]}
        for row, stack in board.stacks(state, column)
    ]
    view["seat"] = seat
    view["column"] = column
    view["mine"] = stacks
    view["hand"] = [card_json(card) for card in state["hands"][str(seat)]]
    view["discards"] = [card_json(card) for card in state["discards"][str(seat)]]
    view["score"] = board.score_parts(state, seat)
    view["done"] = state["phase"] == "setup" and board.setup_done(state, seat)
