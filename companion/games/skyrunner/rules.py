"""Checking a SkyRunner move against the rules, and listing the legal moves.

``check`` raises :class:`IllegalMove` naming a clause of ``seeds/skyrunner.toml`` and never
mutates the state; ``legal`` builds the candidates from the same questions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalMove, Move, State, first_refusal, is_int, is_seat
from companion.games.declared import check_declared
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
    if state["phase"] == "over":
        raise IllegalMove("sr.game.over")
    if not is_seat(state, seat):
        raise IllegalMove("sr.turn.wait")
    check_declared(move, types.Move, "sr.move.malformed")
    check_values(move)
    phase, kind_ = state["phase"], move["type"]
    if phase == "turn":
        if seat != state["holder"]:
            raise IllegalMove("sr.turn.wait")
        if kind_ != "turn":
            raise IllegalMove("sr.deck.first" if kind_ == "choose" else "sr.turn.phase")
        if move["card"] not in state["deck"]:
            raise IllegalMove("sr.deck.not-in-deck")
        return
    if phase == "choose":
        if kind_ != "choose":
            raise IllegalMove("sr.turn.phase")
        _check_choice(state, seat, move["card"])
        return
    pending = state["pending"]
    if pending is None or seat != pending["seat"]:
        raise IllegalMove("sr.turn.wait")
    if move not in pending_moves(state):
        raise _pending_refusal(state, move)


def _check_choice(state: State, seat: int, card: int) -> None:
    if card not in state["hands"][str(seat)]:
        raise IllegalMove("sr.choose.not-in-hand")
    if state["choices"][str(seat)] == card:
        raise IllegalMove("sr.choose.same")
    offer = state["offer"]
    if offer is not None and kind(offer) == "fall" and kind(card) != "bid":
        raise IllegalMove("sr.fall.bid-only")
    if kind(card) == "equipment":
        raise IllegalMove("sr.equipment.with-climb")
    if kind(card) not in CHOOSABLE:
        raise IllegalMove("sr.choose.not-in-hand")


def why_not(state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
    """The rule that stops every move with the values ``chosen`` (see ``Game.why_not``):
    a card of the hand tapped now names the decision the round waits for; a place on the
    wall, what keeps the climber from it."""
    card, level, lane = chosen.get("card"), chosen.get("level"), chosen.get("lane")
    attempts = [{"type": "choose", "card": card}] if is_int(card) else []
    if is_int(level) and is_int(lane):  # a place on the wall the climber can't reach
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


def _pending_refusal(state: State, move: Move) -> IllegalMove:
    """The clause that explains why a move does not answer the pending decision."""
    pending = state["pending"]
    expected = {"climb": {"climb"}, "fall": {"fall"}, "target": {"sabotage", "lost"},
                "won": {"sabotage", "lost", "keep"}}[pending["kind"]]
    if move["type"] in ("choose", "turn"):  # a card, while a decision waits: name it
        return IllegalMove(f"sr.{pending['kind']}.first")
    if move["type"] not in expected:
        return IllegalMove("sr.turn.phase")
    if move["type"] == "climb":
        return _climb_refusal(state, move)
    if move["type"] == "keep":
        return IllegalMove("sr.turn.phase")
    if "target" in move and (move["target"] == pending["seat"]
                             or not 0 <= move["target"] < state["players"]):
        return IllegalMove("sr.target.opponent")
    if move["type"] in ("sabotage", "lost") and \
            kind(pending["card"]) != move["type"]:
        return IllegalMove("sr.turn.phase")
    return IllegalMove("sr.drop.lane")


def _climb_refusal(state: State, move: Move) -> IllegalMove:
    """Why a place is out of reach: which rule stops the climber getting there."""
    pending = state["pending"]
    seat = pending["seat"]
    points = CARDS[pending["card"]]["value"]
    target = (move["level"], move["lane"])
    unlimited = building.climbs(state, seat, points, equipment=99)
    if target in unlimited:
        return IllegalMove("sr.climb.equipment", needs=unlimited[target])
    if target in building.climbs(state, seat, points, equipment=99, pass_min=0):
        return IllegalMove("sr.climb.pass")
    wider = building.climbs(state, seat, 99, equipment=99)
    if target in wider:
        return IllegalMove("sr.climb.points", points=points)
    return IllegalMove("sr.climb.blocked")
