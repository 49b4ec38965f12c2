"""Read-only questions about a state: where pieces are, who holds what, who must act."""

from __future__ import annotations

from companion.games.base import State
from companion.games.seventh_heaven.data import COLOURS


def in_heaven(state: State, colour: str) -> bool:
    return state["pieces"][colour] >= state["heaven"]


def racing(state: State) -> list[str]:
    """Colours whose piece is still on the way (not in 7th Heaven), in table order."""
    return [colour for colour in COLOURS if not in_heaven(state, colour)]


def leaders(state: State) -> list[str]:
    """The piece(s) tied for first place, pieces in Heaven left out."""
    pieces = racing(state)
    if not pieces:
        return []
    best = max(state["pieces"][colour] for colour in pieces)
    return [colour for colour in pieces if state["pieces"][colour] == best]


def laggards(state: State) -> list[str]:
    """The piece(s) tied for last place, pieces in Heaven left out."""
    pieces = racing(state)
    if not pieces:
        return []
    worst = min(state["pieces"][colour] for colour in pieces)
    return [colour for colour in pieces if state["pieces"][colour] == worst]


def next_ahead(state: State, colour: str) -> int | None:
    """The nearest space ahead of ``colour`` holding another piece not in Heaven."""
    here = state["pieces"][colour]
    ahead = [
        state["pieces"][other]
        for other in racing(state)
        if other != colour and state["pieces"][other] > here
    ]
    return min(ahead) if ahead else None


def shares_space(state: State, colour: str) -> bool:
    here = state["pieces"][colour]
    return any(state["pieces"][other] == here for other in racing(state) if other != colour)


def holder(state: State, colour: str) -> int | None:
    """The seat holding the partner card of ``colour``, or None if it lies beside the board."""
    for seat, colours in state["partners"].items():
        if colour in colours:
            return int(seat)
    return None


def own(state: State, seat: int) -> list[str]:
    return list(state["partners"][str(seat)])


def hand(state: State, seat: int) -> list[int]:
    return state["hands"][str(seat)]


def placed(state: State) -> set[int]:
    return {seat for group in state["places"] for seat in group}


def active(state: State) -> list[int]:
    """Seats still in the race (not yet placed when playing on for places)."""
    done = placed(state)
    return [seat for seat in range(state["players"]) if seat not in done]


def clockwise_from(state: State, seat: int) -> list[int]:
    """Every seat, starting with ``seat`` and going clockwise."""
    players = state["players"]
    return [(seat + step) % players for step in range(players)]


def deciders(state: State) -> list[int]:
    """The seats that have a move to make now."""
    phase = state["phase"]
    if phase == "play":
        return [state["turn"]]
    if phase == "event-swap":
        return [state["pending"]["seat"]]
    if phase == "discard":
        return [int(seat) for seat in state["pending"]["seats"]]
    return []


def swap_pairs(state: State, seat: int) -> list[tuple[str, str]]:
    """Every (take, give) partner-card exchange open to ``seat`` now."""
    mine = [colour for colour in own(state, seat) if not in_heaven(state, colour)]
    takes = [colour for colour in racing(state) if colour not in own(state, seat)]
    return [(take, give) for take in takes for give in mine]
