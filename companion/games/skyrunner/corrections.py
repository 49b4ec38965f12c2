"""The host's correction of SkyRunner: a climber set on the place it hangs at the table.
Hands, used bids and the cards chosen in secret are their players' own, and the deck and
the round follow from the cards: no correction names a card, and one that does is refused
(a choice before its reveal above all)."""

from __future__ import annotations

from typing import Any

from companion.games.base import IllegalMove, Move, State, copy_state, is_seat
from companion.games.declared import BAD_CORRECTION, check_declared
from companion.games.skyrunner import building, types


def check(state: State, correction: Any) -> None:
    """Raise the clause a correction breaks, in this order: a card named, its shape, the
    game over, a round's cards acting, a place off the building, the place it has, a place
    another climber fills."""
    if isinstance(correction, dict) and "card" in correction:
        raise IllegalMove("sr.correct.secret")
    check_declared(correction, types.Correction, BAD_CORRECTION)
    seat, level, lane = correction["seat"], correction["level"], correction["lane"]
    if not is_seat(state, seat):
        raise IllegalMove(BAD_CORRECTION, problem="seat")
    if state["phase"] == "over":
        raise IllegalMove("sr.game.over")
    if state["phase"] == "resolve":
        raise IllegalMove("sr.correct.round-acting")
    if not on_building(state, level, lane):
        raise IllegalMove("sr.correct.off-building", level=level, lane=lane,
                          top=building.roof(state) - 1)
    if building.position(state, seat) == (level, lane):
        raise IllegalMove("sr.correct.same", level=level, lane=lane)
    if building.blockers(state, seat, level, lane):
        raise IllegalMove("sr.correct.overlap", level=level, lane=lane)


def on_building(state: State, level: int, lane: int) -> bool:
    """Whether (level, lane) is a place a climber may hang: the ground (lane 0) or a lane
    of a section's face; not the roof, which wins the game."""
    if level == building.GROUND:
        return lane == 0
    section = building.section_of(state, level)
    return section is not None and 1 <= lane <= building.lanes(state, section)


def correct(state: State, correction: Move) -> State:
    """The state with the climber at its place. Corrections wait for the round's cards to
    have acted, so no decision hangs on the places; the choices offered next are worked out
    from the new places."""
    check(state, correction)
    new = copy_state(state)
    new["positions"][str(correction["seat"])] = {"level": correction["level"],
                                                 "lane": correction["lane"]}
    new["effects"], new["revealed"] = [], False
    return new
