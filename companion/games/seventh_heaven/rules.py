"""Checking a move against the rules, and listing every legal move.

``check`` raises :class:`IllegalMove` naming a clause of the seeds file; it never mutates
the state. ``legal`` lists candidates and keeps those ``check`` accepts, so the two can
never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations
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
from companion.games.seventh_heaven import board, types
from companion.games.seventh_heaven.data import (
    CARD_COUNT,
    CARDS,
    COLOURS,
    SPECIAL_PARAMS,
    WHITE,
)

PHASE_TYPES: dict[str, frozenset[str]] = {
    "play": frozenset({"move", "swap", "play", "pass"}),
    "event-swap": frozenset({"event-swap", "decline"}),
    "discard": frozenset({"discard"}),
}
COLOUR_KEYS = ("piece", "give", "take")
MAX_DRAW = 4
FOOT_STEPS = (1, 2, 3)
THREE = 3


def _malformed(problem: str) -> IllegalMove:
    return IllegalMove("7h.move.malformed", problem=problem)


def check_values(move: Move) -> None:
    """The values of a well-formed move name real things: a card, colours, numbers; a
    special card carries exactly the parameters it needs."""
    if "card" in move:
        card = move["card"]
        if not 0 <= card < CARD_COUNT:
            raise IllegalMove("7h.card.not-in-hand", card=card)
        if move["type"] == "play":
            special = CARDS[card]["special"]
            if special is None:
                raise IllegalMove("7h.card.wrong-kind", card=card)
            expected = SPECIAL_PARAMS[special] | {"type", "card"}
            if set(move) != expected:
                raise _malformed("expected keys " + ", ".join(sorted(expected)))
    for key in COLOUR_KEYS:
        if key in move and move[key] not in COLOURS:
            raise _malformed(f"{key} must be a colour")
    if "cards" in move and move["cards"] != sorted(set(move["cards"])):
        raise _malformed("cards must be sorted and distinct")


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove unless ``seat`` may make ``move`` in ``state``."""
    if state["phase"] == "over":
        raise IllegalMove("7h.game.over")
    check_declared(move, types.Move, "7h.move.malformed")
    check_values(move)
    if not is_seat(state, seat) or seat not in board.deciders(state):
        raise IllegalMove("7h.turn.wait", seat=seat)
    if move["type"] not in PHASE_TYPES[state["phase"]]:
        raise _decision_first(state, seat)
    if state["phase"] == "event-swap":
        _check_event(state, seat, move)
    elif state["phase"] == "discard":
        _check_discard(state, seat, move)
    else:
        _check_play(state, seat, move)


def _decision_first(state: State, seat: int) -> IllegalMove:
    """The decision this seat must make before anything else, named with its space."""
    if state["phase"] == "event-swap":
        return IllegalMove("7h.event.first", space=state["pending"]["space"])
    if state["phase"] == "discard":
        return IllegalMove("7h.three-cards.first",
                           count=min(THREE, len(board.hand(state, seat))))
    return IllegalMove("7h.turn.phase")


def check_swap(state: State, seat: int, take: str, give: str) -> None:
    """The shared rules of every partner-card exchange (coloured card, Heart, event)."""
    mine = board.own(state, seat)
    if give not in mine:
        raise IllegalMove("7h.swap.give-own", give=give)
    if take in mine:
        raise IllegalMove("7h.swap.already-held", take=take)
    for colour in (take, give):
        if board.in_heaven(state, colour):
            raise IllegalMove("7h.swap.heaven-fixed", colour=colour)


def _check_event(state: State, seat: int, move: Move) -> None:
    if move["type"] == "decline":
        if state["pending"]["must"]:
            raise IllegalMove("7h.event.disco", space=state["pending"]["space"])
        return
    check_swap(state, seat, move["take"], move["give"])


def _check_discard(state: State, seat: int, move: Move) -> None:
    held = board.hand(state, seat)
    count = min(THREE, len(held))
    if len(move["cards"]) != count:
        raise IllegalMove("7h.three-cards.discard", count=count)
    for card in move["cards"]:
        if card not in held:
            raise IllegalMove("7h.card.not-in-hand", card=card)


def _check_play(state: State, seat: int, move: Move) -> None:
    card_id = move["card"]
    if card_id not in board.hand(state, seat):
        raise IllegalMove("7h.card.not-in-hand", card=card_id)
    card = CARDS[card_id]
    kind = move["type"]
    if state["first_card"] and not (
        kind == "move" and card["kind"] == "number" and card["value"] > 0
    ):
        raise IllegalMove("7h.first.forward-number", card=card_id)
    if kind == "pass":
        if not dead(state, card_id) and any(True for _ in _candidates(state, seat)):
            raise IllegalMove("7h.turn.pass", card=card_id)
        return
    if kind in ("move", "swap") and card["kind"] not in ("number", "arrow"):
        raise IllegalMove("7h.card.wrong-kind", card=card_id)
    if kind == "move":
        _check_piece_move(state, card, move["piece"])
    elif kind == "swap":
        if card["colour"] == WHITE:
            raise IllegalMove("7h.swap.coloured-only", card=card_id)
        check_swap(state, seat, card["colour"], move["give"])
    else:
        _check_special(state, seat, card["special"], move)


def dead(state: State, card_id: int) -> bool:
    """A sympathy card of a colour already in 7th Heaven: it « has no significance », so it
    may be played for nothing at any time (7h.card.dead)."""
    colour = CARDS[card_id]["colour"]
    return colour in COLOURS and board.in_heaven(state, colour)


def _check_piece_move(state: State, card: dict[str, Any], piece: str) -> None:
    if card["colour"] != WHITE and piece != card["colour"]:
        raise IllegalMove("7h.move.colour", colour=card["colour"], piece=piece)
    if board.in_heaven(state, piece):
        raise IllegalMove("7h.move.in-heaven", piece=piece)
    if card["kind"] == "number":
        if state["pieces"][piece] + card["value"] < 0:
            raise IllegalMove("7h.move.backward-limit", piece=piece)
    elif board.next_ahead(state, piece) is None:
        raise IllegalMove("7h.arrow.nothing-ahead", piece=piece)


def _check_special(state: State, seat: int, special: str, move: Move) -> None:
    if special == "heart":
        check_swap(state, seat, move["take"], move["give"])
    elif special == "mushroom":
        deck = len(state["deck"])
        allowed = range(1, min(MAX_DRAW, deck) + 1) if deck else range(1)
        if move["count"] not in allowed:
            raise IllegalMove("7h.mushroom.count", count=move["count"])
    elif special == "foot":
        if move["steps"] not in FOOT_STEPS:
            raise IllegalMove("7h.foot.steps", steps=move["steps"])
        if move["piece"] not in board.leaders(state):
            raise IllegalMove("7h.foot.first-piece", piece=move["piece"])
    elif special == "finger":
        piece = move["piece"]
        if piece not in board.own(state, seat) or board.in_heaven(state, piece):
            raise IllegalMove("7h.finger.own-piece", piece=piece)


def _special_candidates(card_id: int, special: str, seat_colours: list[str]) -> list[Move]:
    base = {"type": "play", "card": card_id}
    if special == "heart":
        return [{**base, "take": take, "give": give} for take in COLOURS for give in seat_colours]
    if special == "mushroom":
        return [{**base, "count": count} for count in range(MAX_DRAW + 1)]
    if special == "foot":
        return [
            {**base, "piece": piece, "steps": steps} for piece in COLOURS for steps in FOOT_STEPS
        ]
    if special == "finger":
        return [{**base, "piece": piece} for piece in seat_colours]
    return [base]


def _candidates(state: State, seat: int) -> Iterator[Move]:
    """Every legal play-phase move except passing (a generator, so callers may stop early)."""
    mine = board.own(state, seat)
    for card_id in sorted(set(board.hand(state, seat))):
        card = CARDS[card_id]
        if card["kind"] == "special":
            options = _special_candidates(card_id, card["special"], mine)
        else:
            options = [{"type": "move", "card": card_id, "piece": piece} for piece in COLOURS]
            options += [{"type": "swap", "card": card_id, "give": give} for give in mine]
        for move in options:
            try:
                _check_play(state, seat, move)
            except IllegalMove:
                continue
            yield move


def _attempts(state: State, seat: int, card_id: Any) -> list[Move]:
    """The moves a player tapping ``card_id`` most likely means, likeliest first: its own
    colour's piece, then a partner-card swap, then playing it for nothing."""
    if not is_int(card_id) or not 0 <= card_id < CARD_COUNT:
        return []
    card = CARDS[card_id]
    mine = board.own(state, seat) or list(COLOURS)
    if card["kind"] == "special":
        options = _special_candidates(card_id, card["special"], mine)
    else:
        pieces = [card["colour"]] if card["colour"] != WHITE else (
            board.racing(state) + [c for c in COLOURS if board.in_heaven(state, c)])
        options = [{"type": "move", "card": card_id, "piece": piece} for piece in pieces]
        options += [{"type": "swap", "card": card_id, "give": give} for give in mine]
    return [*options, {"type": "pass", "card": card_id}]


def why_not(state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
    """The rule that stops every move with the values ``chosen`` (see ``Game.why_not``)."""
    if "card" in chosen:
        attempts = _attempts(state, seat, chosen["card"])
    elif state["phase"] == "event-swap":
        attempts = [{"type": "event-swap", "take": take, "give": give}
                    for take in COLOURS for give in COLOURS] + [{"type": "decline"}]
    else:
        attempts = [move for card_id in sorted(set(board.hand(state, seat)))
                    for move in _attempts(state, seat, card_id)]
    wanted = [move for move in attempts if has_values(move, chosen)]
    waiting = state["phase"] == "over" or seat not in board.deciders(state)
    return first_refusal(lambda move: check(state, seat, move), wanted,
                         IllegalMove("7h.turn.wait", seat=seat) if waiting
                         else _decision_first(state, seat))


def legal(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (empty if it has nothing to decide)."""
    if state["phase"] == "over" or not is_seat(state, seat) or seat not in board.deciders(state):
        return []
    if state["phase"] == "event-swap":
        moves = [
            {"type": "event-swap", "take": take, "give": give}
            for take, give in board.swap_pairs(state, seat)
        ]
        if not state["pending"]["must"]:
            moves.append({"type": "decline"})
        return moves
    if state["phase"] == "discard":
        held = sorted(board.hand(state, seat))
        count = min(THREE, len(held))
        return [{"type": "discard", "cards": list(cards)} for cards in combinations(held, count)]
    moves = list(_candidates(state, seat))
    held = sorted(set(board.hand(state, seat)))
    if moves:
        return moves + [{"type": "pass", "card": card_id} for card_id in held
                        if dead(state, card_id)]
    return [{"type": "pass", "card": card_id} for card_id in held]
