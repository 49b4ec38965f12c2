"""In 7th Heaven's moves and views as the checker reads them: the moves ``legal_moves``
offers, one kind per ``type``, and what ``view`` shows (the templates' input).

No ``from __future__ import annotations`` here: ``NotRequired`` must be seen at runtime.
"""

from typing import Any, Literal, NotRequired, TypedDict


class CardMove(TypedDict):
    """A card played: "move" a piece, "swap" partner cards, "play" a special card, or "pass"
    (a card that can do nothing)."""

    type: Literal["move", "swap", "play", "pass"]
    card: int
    piece: NotRequired[str]  # "move": the piece's colour
    give: NotRequired[str]  # "swap": the partner colour handed over
    steps: NotRequired[int]  # a Foot: how far
    count: NotRequired[int]  # Three cards: how many to draw
    take: NotRequired[str]  # a card that swaps partner cards
    cards: NotRequired[list[int]]


class EventSwap(TypedDict):
    type: Literal["event-swap"]
    take: str
    give: str


class Decline(TypedDict):
    type: Literal["decline"]


class Discard(TypedDict):
    type: Literal["discard"]
    cards: list[int]


Move = CardMove | EventSwap | Decline | Discard


class Card(TypedDict):
    id: int
    kind: str  # "number", "arrow" or "special"
    colour: str | None
    value: int | None
    special: str | None


class View(TypedDict):
    game: str
    players: int
    heaven: int  # the space of 7th Heaven
    options: dict[str, Any]
    pieces: dict[str, int]  # colour → space
    partners: dict[str, list[str]]  # seat → partner colours
    spare_partners: list[str]
    hand_counts: dict[str, int]
    deck_count: int
    discard_count: int
    turn: int | None
    phase: str
    pending: dict[str, Any] | None  # an event space's swap waiting for its decider
    deciders: list[int]
    arrived: list[str]
    places: list[list[int]]
    refilling: bool
    first_card: bool
    last: dict[str, Any] | None  # the last card played and all it did (public)
    outcome: dict[str, Any] | None
    seat: NotRequired[int]  # a seat's own view only
    hand: NotRequired[list[Card]]
