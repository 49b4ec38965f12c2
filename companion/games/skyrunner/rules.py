"""Checking a SkyRunner move against the rules, and listing the legal moves.

``check`` raises :class:`IllegalMove` naming a clause of ``seeds/skyrunner.toml`` and never
mutates the state; ``legal`` builds the candidates from the same questions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalMove, Move, State, first_refusal, is_int, is_seat
from companion.games.checks import Order, in_phase, named, never, well_formed
from companion.games.skyrunner import building, types
from companion.games.skyrunner.data import CARD_COUNT, CARDS, SABOTAGE_DROP, kind

CHOOSABLE = frozenset({"bid", "surprise", "climb", "sabotage", "lost"})


def _malformed(problem: str) -> IllegalMove:
    return IllegalMove("sr.move.malformed", problem=problem)


def check_values(move: Move) -> None:
    """A well-formed move's card is one that exists."""
    if "card" in move and not 0 <= move["card"] < CARD_COUNT:
        raise _malformed(f"card must be 0 to {CARD_COUNT - 1}")


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove unless ``seat`` may make ``move``: the first of ``ORDER``'s checks
    that the move fails."""
    ORDER.enforce(state, seat, move)


# --- every move -----------------------------------------------------------------------


@named("over", "sr.game.over")
def _over(state: State, seat: int, move: Any) -> IllegalMove | None:
    return IllegalMove("sr.game.over") if state["phase"] == "over" else None


@named("seat", "sr.turn.wait", applies=never)
def _seat(state: State, seat: int, move: Any) -> IllegalMove | None:
    return None if is_seat(state, seat) else IllegalMove("sr.turn.wait")


_shape = well_formed(types.Move, "sr.move.malformed", check_values)


# --- whose decision, and which ----------------------------------------------------------



#: The decisions the resolution waits for, each named when another move is tried first.
DECISIONS = ("sr.climb.first", "sr.fall.first", "sr.target.first", "sr.won.first")


@named("holder", "sr.turn.wait", applies=in_phase("turn"))
def _holder(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The deck's card is turned by its holder, and nobody else acts meanwhile."""
    if state["phase"] == "turn" and seat != state["holder"]:
        return IllegalMove("sr.turn.wait")
    return None


@named("deck-first", "sr.deck.first", applies=in_phase("turn"))
def _deck_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.deck.first") if state["phase"] == "turn" else None


@named("decider", "sr.turn.wait", applies=in_phase("resolve"))
def _decider(state: State, seat: int, move: Move) -> IllegalMove | None:
    """While the round resolves, only the seat a decision waits for acts."""
    pending = state["pending"]
    if state["phase"] == "resolve" and (pending is None or seat != pending["seat"]):
        return IllegalMove("sr.turn.wait")
    return None


@named("decision-first", *DECISIONS, applies=in_phase("resolve"))
def _decision_first(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card, while a decision waits: the decision, named."""
    if state["phase"] == "resolve":
        return IllegalMove(f"sr.{state['pending']['kind']}.first")
    return None


#: The moment each kind of move answers.
MOMENT = {"turn": "turn", "choose": "choose", "climb": "resolve", "fall": "resolve",
          "sabotage": "resolve", "lost": "resolve", "keep": "resolve"}
#: The moves each decision of the resolution takes.
ANSWERS = {"climb": {"climb"}, "fall": {"fall"}, "target": {"sabotage", "lost"},
           "won": {"sabotage", "lost", "keep"}}


@named("moment", "sr.turn.phase")
def _moment(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.turn.phase") if state["phase"] != MOMENT[move["type"]] else None


@named("answer", "sr.turn.phase")
def _answer(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A move that answers the decision the resolution waits for."""
    if move["type"] not in ANSWERS[state["pending"]["kind"]]:
        return IllegalMove("sr.turn.phase")
    return None


# --- the deck and the secret choice -----------------------------------------------------


@named("in-deck", "sr.deck.not-in-deck")
def _in_deck(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.deck.not-in-deck") if move["card"] not in state["deck"] else None


@named("in-hand", "sr.choose.not-in-hand")
def _in_hand(state: State, seat: int, move: Move) -> IllegalMove | None:
    held = move["card"] in state["hands"][str(seat)]
    return None if held else IllegalMove("sr.choose.not-in-hand")


@named("same", "sr.choose.same")
def _same(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.choose.same") if state["choices"][str(seat)] == move["card"] else None


def _fall_offered(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A choice is held to the Fall card's rule only while the Fall card is on offer."""
    offer = before["offer"]
    return offer is not None and offer["kind"] == "fall"


@named("bid-only", "sr.fall.bid-only", applies=_fall_offered)
def _bid_only(state: State, seat: int, move: Move) -> IllegalMove | None:
    offer = state["offer"]
    if offer is not None and kind(offer) == "fall" and kind(move["card"]) != "bid":
        return IllegalMove("sr.fall.bid-only")
    return None


@named("with-climb", "sr.equipment.with-climb")
def _with_climb(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.equipment.with-climb") if kind(move["card"]) == "equipment" else None


@named("choosable", "sr.choose.not-in-hand")
def _choosable(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A card of a kind chosen in secret (not a Fall, kept in hand)."""
    return None if kind(move["card"]) in CHOOSABLE else IllegalMove("sr.choose.not-in-hand")


# --- a climb ------------------------------------------------------------------------------


def _reachable(state: State, points: int | None = None, equipment: int = 99,
               pass_min: int | None = None) -> dict[tuple[int, int], int]:
    """Where the climber the decision waits for reaches with the card it plays (or
    ``points``), with ``equipment`` (``pass_min``: the least card that passes, when not the
    rulebook's)."""
    pending = state["pending"]
    value = CARDS[pending["card"]]["value"] if points is None else points
    if pass_min is None:
        return building.climbs(state, pending["seat"], value, equipment)
    return building.climbs(state, pending["seat"], value, equipment, pass_min=pass_min)


def _out_of_reach(state: State, move: Move) -> bool:
    pending = state["pending"]
    return (move["level"], move["lane"]) not in climb_options(state, pending["seat"],
                                                              pending["card"])


@named("equipment", "sr.climb.equipment")
def _equipment(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A place the climber reaches with more equipment than it holds."""
    unlimited = _reachable(state)
    target = (move["level"], move["lane"])
    if _out_of_reach(state, move) and target in unlimited:
        return IllegalMove("sr.climb.equipment", needs=unlimited[target])
    return None


@named("pass", "sr.climb.pass")
def _pass(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A place reached only by passing a climber with a card under 4."""
    if _out_of_reach(state, move) and (move["level"], move["lane"]) in _reachable(state,
                                                                                 pass_min=0):
        return IllegalMove("sr.climb.pass")
    return None


@named("points", "sr.climb.points")
def _points(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _out_of_reach(state, move) and (move["level"], move["lane"]) in _reachable(state, 99):
        return IllegalMove("sr.climb.points", points=CARDS[state["pending"]["card"]]["value"])
    return None


@named("blocked", "sr.climb.blocked")
def _blocked(state: State, seat: int, move: Move) -> IllegalMove | None:
    return IllegalMove("sr.climb.blocked") if _out_of_reach(state, move) else None


# --- targets and falls ----------------------------------------------------------------------


@named("opponent", "sr.target.opponent")
def _opponent(state: State, seat: int, move: Move) -> IllegalMove | None:
    target = move["target"]
    if target == state["pending"]["seat"] or not 0 <= target < state["players"]:
        return IllegalMove("sr.target.opponent")
    return None


@named("card-kind", "sr.turn.phase")
def _card_kind(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A Sabotage card sabotages; a Lost-equipment card takes equipment."""
    return IllegalMove("sr.turn.phase") if kind(state["pending"]["card"]) != move["type"] else None


@named("lane", "sr.drop.lane")
def _lane(state: State, seat: int, move: Move) -> IllegalMove | None:
    return None if move in pending_moves(state) else IllegalMove("sr.drop.lane")


_CHOICE = (_in_hand, _same, _bid_only, _with_climb, _choosable)
_ANSWER = (_holder, _moment, _decider, _answer)
#: Every check a move goes through, in order (docs/games/skyrunner.md, "Which rule a
#: refusal names").
ORDER = Order(
    first=(_over, _seat, _shape),
    by_kind={
        "turn": (_holder, _decider, _decision_first, _moment, _in_deck),
        "choose": (_holder, _deck_first, _decider, _decision_first, *_CHOICE),
        "climb": (*_ANSWER, _equipment, _pass, _points, _blocked),
        "fall": (*_ANSWER, _lane),
        "sabotage": (*_ANSWER, _opponent, _card_kind, _lane),
        "lost": (*_ANSWER, _opponent, _card_kind),
        "keep": _ANSWER,
    },
)


def why_not(state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
    """The rule that stops every move with the values ``chosen`` (see ``Game.why_not``):
    a card of the hand tapped now names the decision the round waits for, whatever place
    was picked before it; a place on the wall, what keeps the climber from it."""
    card, level, lane = chosen.get("card"), chosen.get("level"), chosen.get("lane")
    attempts = [{"type": "choose", "card": card}] if is_int(card) else []
    if not attempts and is_int(level) and is_int(lane):  # a place the climber can't reach
        attempts = [{"type": "climb", "level": level, "lane": lane}]
    return first_refusal(lambda move: check(state, seat, move), attempts,
                         IllegalMove("sr.turn.wait"))


def choices(state: State, seat: int) -> list[Move]:
    hand = state["hands"][str(seat)]
    offer = state["offer"]
    fall = offer is not None and kind(offer) == "fall"
    chosen = state["choices"][str(seat)]
    return [{"type": "choose", "card": card} for card in sorted(hand)
            if card != chosen and kind(card) in CHOOSABLE and (not fall or kind(card) == "bid")]


def pending_moves(state: State) -> list[Move]:
    """The moves that answer the decision the resolution waits for."""
    pending = state["pending"]
    seat = pending["seat"]
    opponents = [other for other in range(state["players"]) if other != seat]
    if pending["kind"] == "climb":
        return [{"type": "climb", "level": level, "lane": lane}
                for (level, lane) in sorted(climb_options(state, seat, pending["card"]))]
    if pending["kind"] == "fall":
        return [{"type": "fall", "lane": lane}
                for lane in building.drop_lanes(state, seat, pending["distance"])]
    moves: list[Move] = []
    card = pending["card"]
    if kind(card) == "sabotage":
        moves += [{"type": "sabotage", "target": other, "lane": lane} for other in opponents
                  for lane in building.drop_lanes(state, other, SABOTAGE_DROP)]
    else:
        moves += [{"type": "lost", "target": other} for other in opponents]
    if pending["kind"] == "won":
        moves.append({"type": "keep"})
    return moves


def climb_options(state: State, seat: int, card: int) -> dict[tuple[int, int], int]:
    """Where ``seat`` can climb with ``card``: {(level, lane): equipment it needs}."""
    equipment = sum(1 for held in state["hands"][str(seat)] if kind(held) == "equipment")
    return building.climbs(state, seat, CARDS[card]["value"], equipment)


