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
from companion.games.checks import Applies, Check, Order, in_phase, named, well_formed
from companion.games.seventh_heaven import board, types
from companion.games.seventh_heaven.data import (
    CARD_COUNT,
    CARDS,
    COLOURS,
    SPECIAL_PARAMS,
    WHITE,
)

COLOUR_KEYS = ("piece", "give", "take")
MAX_DRAW = 4
FOOT_STEPS = (1, 2, 3)
THREE = 3


def _malformed(problem: str) -> IllegalMove:
    return IllegalMove("7h.move.malformed", problem=problem)


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove unless ``seat`` may make ``move`` in ``state``: the first of
    ``ORDER``'s checks that the move fails."""
    ORDER.enforce(state, seat, move)


# --- when a move of the log was held to a check (``checks.Applies``) ---------------------


def _played(move: Move) -> Mapping[str, Any]:
    """The card a move names (played, hence public), or nothing for no card."""
    card = move.get("card")
    return CARDS[card] if is_int(card) and 0 <= card < CARD_COUNT else {}


def _names_a_card(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    return "card" in move


def _of_kind(kind: str) -> Applies:
    def applies(before: Mapping[str, Any], seat: int, move: Move) -> bool:
        return move.get("type") == kind
    return applies



def _first_card(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    return bool(before["first_card"])


def _card_of(key: str, value: str) -> Applies:
    """The checks of a card of one kind, or one special card, only."""
    def applies(before: Mapping[str, Any], seat: int, move: Move) -> bool:
        return _played(move).get(key) == value
    return applies


def _exchanges(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A partner-card exchange: a swap, the Heart, an event space's (``_exchange``)."""
    return move.get("type") == "swap" or "take" in move


# --- every move -----------------------------------------------------------------------


@named("over", "7h.game.over")
def _over(state: State, seat: int, move: Any) -> IllegalMove | None:
    return IllegalMove("7h.game.over") if state["phase"] == "over" else None


_shape = well_formed(types.Move, "7h.move.malformed")


@named("card", "7h.card.not-in-hand", applies=_names_a_card)
def _card(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card that exists."""
    if "card" in move and not 0 <= move["card"] < CARD_COUNT:
        return IllegalMove("7h.card.not-in-hand", card=move["card"])
    return None


@named("special", "7h.card.wrong-kind", applies=_of_kind("play"))
def _special(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card played for its own effect is a special card."""
    if move["type"] == "play" and CARDS[move["card"]]["special"] is None:
        return IllegalMove("7h.card.wrong-kind", card=move["card"])
    return None


@named("values", "7h.move.malformed")
def _values(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A special card carries exactly the parameters it needs; colours are colours; the
    cards discarded are listed once each, in order."""
    if move["type"] == "play":
        expected = SPECIAL_PARAMS[CARDS[move["card"]]["special"]] | {"type", "card"}
        if set(move) != expected:
            return _malformed("expected keys " + ", ".join(sorted(expected)))
    for key in COLOUR_KEYS:
        if key in move and move[key] not in COLOURS:
            return _malformed(f"{key} must be a colour")
    if "cards" in move and move["cards"] != sorted(set(move["cards"])):
        return _malformed("cards must be sorted and distinct")
    return None


@named("seat", "7h.turn.wait")
def _seat(state: State, seat: int, move: Move) -> IllegalMove | None:
    if not is_seat(state, seat) or seat not in board.deciders(state):
        return IllegalMove("7h.turn.wait", seat=seat)
    return None


# --- the decision that comes first ------------------------------------------------------


@named("event-first", "7h.event.first", applies=in_phase("event-swap"))
def _event_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["phase"] == "event-swap":
        return IllegalMove("7h.event.first", space=state["pending"]["space"])
    return None


@named("discard-first", "7h.three-cards.first", applies=in_phase("discard"))
def _discard_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    if state["phase"] == "discard":
        return IllegalMove("7h.three-cards.first",
                           count=min(THREE, len(board.hand(state, seat))))
    return None


@named("moment", "7h.turn.phase", applies=in_phase("play"))
def _moment(state: State, seat: int, move: Move) -> IllegalMove | None:
    """An answer nobody is asked for during the play."""
    return IllegalMove("7h.turn.phase") if state["phase"] == "play" else None


# --- the card played ------------------------------------------------------------------


@named("in-hand", "7h.card.not-in-hand")
def _in_hand(state: State, seat: int, move: Move) -> IllegalMove | None:
    if move["card"] not in board.hand(state, seat):
        return IllegalMove("7h.card.not-in-hand", card=move["card"])
    return None


@named("opening", "7h.first.forward-number", applies=_first_card)
def _opening(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The game's very first card moves a piece forward with a number."""
    card = CARDS[move["card"]]
    if state["first_card"] and not (
        move["type"] == "move" and card["kind"] == "number" and card["value"] > 0
    ):
        return IllegalMove("7h.first.forward-number", card=move["card"])
    return None


@named("pass", "7h.turn.pass")
def _pass(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card laid down for nothing: one of no significance, or when no card can act."""
    if not dead(state, move["card"]) and any(True for _ in _candidates(state, seat)):
        return IllegalMove("7h.turn.pass", card=move["card"])
    return None


@named("card-kind", "7h.card.wrong-kind")
def _card_kind(state: State, seat: int, move: Move) -> IllegalMove | None:
    """Pieces move, and partner cards swap, with a number or an arrow."""
    if CARDS[move["card"]]["kind"] not in ("number", "arrow"):
        return IllegalMove("7h.card.wrong-kind", card=move["card"])
    return None


@named("colour", "7h.move.colour")
def _colour(state: State, seat: int, move: Move) -> IllegalMove | None:
    colour = CARDS[move["card"]]["colour"]
    if colour != WHITE and move["piece"] != colour:
        return IllegalMove("7h.move.colour", colour=colour, piece=move["piece"])
    return None


@named("in-heaven", "7h.move.in-heaven")
def _in_heaven(state: State, seat: int, move: Move) -> IllegalMove | None:
    if board.in_heaven(state, move["piece"]):
        return IllegalMove("7h.move.in-heaven", piece=move["piece"])
    return None


@named("backward", "7h.move.backward-limit", applies=_card_of("kind", "number"))
def _backward(state: State, seat: int, move: Move) -> IllegalMove | None:
    card, piece = CARDS[move["card"]], move["piece"]
    if card["kind"] == "number" and state["pieces"][piece] + card["value"] < 0:
        return IllegalMove("7h.move.backward-limit", piece=piece)
    return None


@named("nothing-ahead", "7h.arrow.nothing-ahead", applies=_card_of("kind", "arrow"))
def _nothing_ahead(state: State, seat: int, move: Move) -> IllegalMove | None:
    if CARDS[move["card"]]["kind"] == "arrow" and board.next_ahead(state, move["piece"]) is None:
        return IllegalMove("7h.arrow.nothing-ahead", piece=move["piece"])
    return None


@named("coloured-only", "7h.swap.coloured-only")
def _coloured_only(state: State, seat: int, move: Move) -> IllegalMove | None:
    if CARDS[move["card"]]["colour"] == WHITE:
        return IllegalMove("7h.swap.coloured-only", card=move["card"])
    return None


# --- partner cards --------------------------------------------------------------------


def _exchange(move: Move) -> tuple[str, str] | None:
    """The partner colours a move takes and gives: a coloured card's swap takes the card's
    colour; the Heart and an event space name both; other moves exchange nothing."""
    if move["type"] == "swap":
        return CARDS[move["card"]]["colour"], move["give"]
    if "take" in move:
        return move["take"], move["give"]
    return None


@named("give-own", "7h.swap.give-own", applies=_exchanges)
def _give_own(state: State, seat: int, move: Move) -> IllegalMove | None:
    exchange = _exchange(move)
    if exchange is not None and exchange[1] not in board.own(state, seat):
        return IllegalMove("7h.swap.give-own", give=exchange[1])
    return None


@named("already-held", "7h.swap.already-held", applies=_exchanges)
def _already_held(state: State, seat: int, move: Move) -> IllegalMove | None:
    exchange = _exchange(move)
    if exchange is not None and exchange[0] in board.own(state, seat):
        return IllegalMove("7h.swap.already-held", take=exchange[0])
    return None


@named("heaven-fixed", "7h.swap.heaven-fixed", applies=_exchanges)
def _heaven_fixed(state: State, seat: int, move: Move) -> IllegalMove | None:
    for colour in _exchange(move) or ():
        if board.in_heaven(state, colour):
            return IllegalMove("7h.swap.heaven-fixed", colour=colour)
    return None


# --- special cards ----------------------------------------------------------------------


def _special_of(move: Move) -> str | None:
    return CARDS[move["card"]]["special"]


@named("mushroom-count", "7h.mushroom.count", applies=_card_of("special", "mushroom"))
def _mushroom_count(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _special_of(move) != "mushroom":
        return None
    deck = len(state["deck"])
    allowed = range(1, min(MAX_DRAW, deck) + 1) if deck else range(1)
    return None if move["count"] in allowed else IllegalMove("7h.mushroom.count",
                                                             count=move["count"])


@named("foot-steps", "7h.foot.steps", applies=_card_of("special", "foot"))
def _foot_steps(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _special_of(move) == "foot" and move["steps"] not in FOOT_STEPS:
        return IllegalMove("7h.foot.steps", steps=move["steps"])
    return None


@named("first-piece", "7h.foot.first-piece", applies=_card_of("special", "foot"))
def _first_piece(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _special_of(move) == "foot" and move["piece"] not in board.leaders(state):
        return IllegalMove("7h.foot.first-piece", piece=move["piece"])
    return None


@named("own-piece", "7h.finger.own-piece", applies=_card_of("special", "finger"))
def _own_piece(state: State, seat: int, move: Move) -> IllegalMove | None:
    piece = move.get("piece")
    if _special_of(move) == "finger" and (piece not in board.own(state, seat)
                                          or board.in_heaven(state, piece)):
        return IllegalMove("7h.finger.own-piece", piece=piece)
    return None


# --- the answers of a decision ----------------------------------------------------------


@named("disco", "7h.event.disco")
def _disco(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A Disco space's swap is not declined."""
    if state["pending"]["must"]:
        return IllegalMove("7h.event.disco", space=state["pending"]["space"])
    return None


@named("discard-count", "7h.three-cards.discard")
def _discard_count(state: State, seat: int, move: Move) -> IllegalMove | None:
    count = min(THREE, len(board.hand(state, seat)))
    return None if len(move["cards"]) == count else IllegalMove("7h.three-cards.discard",
                                                                count=count)


@named("discard-held", "7h.card.not-in-hand")
def _discard_held(state: State, seat: int, move: Move) -> IllegalMove | None:
    held = board.hand(state, seat)
    missing = [card for card in move["cards"] if card not in held]
    return IllegalMove("7h.card.not-in-hand", card=missing[0]) if missing else None


def dead(state: State, card_id: int) -> bool:
    """A sympathy card of a colour already in 7th Heaven: it « has no significance », so it
    may be played for nothing at any time (7h.card.dead)."""
    colour = CARDS[card_id]["colour"]
    return colour in COLOURS and board.in_heaven(state, colour)


_PLAY = (_event_first, _discard_first, _in_hand, _opening)
_EXCHANGE = (_give_own, _already_held, _heaven_fixed)
#: The checks of a card played, but the first ones (``_PLAY``): the play's own.
PLAY_ORDER: dict[str, tuple[Check, ...]] = {
    "move": (_card_kind, _colour, _in_heaven, _backward, _nothing_ahead),
    "swap": (_card_kind, _coloured_only, *_EXCHANGE),
    "play": (*_EXCHANGE, _mushroom_count, _foot_steps, _first_piece, _own_piece),
    "pass": (_pass,),
}
#: Every check a move goes through, in order (docs/games/seventh-heaven.md, "Which rule a
#: refusal names").
ORDER = Order(
    first=(_over, _shape, _card, _special, _values, _seat),
    by_kind={
        **{kind: (*_PLAY, *checks) for kind, checks in PLAY_ORDER.items()},
        "event-swap": (_discard_first, _moment, *_EXCHANGE),
        "decline": (_discard_first, _moment, _disco),
        "discard": (_event_first, _moment, _discard_count, _discard_held),
    },
)


def _decision_first(state: State, seat: int) -> IllegalMove:
    """The decision this seat must make before anything else, named with its space."""
    return (_event_first(state, seat, {}) or _discard_first(state, seat, {})
            or IllegalMove("7h.turn.phase"))


def _playable(state: State, seat: int, move: Move) -> bool:
    """Whether a card of the seat's hand may make ``move`` in the play (its checks but
    those of whose turn and moment it is)."""
    return not any(step(state, seat, move) for step in (_in_hand, _opening,
                                                        *PLAY_ORDER[move["type"]]))


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
        yield from (move for move in options if _playable(state, seat, move))


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
