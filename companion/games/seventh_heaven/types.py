"""In 7th Heaven's moves and views as the checker reads them: the moves ``legal_moves``
offers, one kind per ``type``, and what ``view`` shows (the templates' input).

No ``from __future__ import annotations`` here: ``NotRequired`` must be seen at runtime.
"""

from typing import Any, Literal, NotRequired, TypedDict


class MoveCard(TypedDict):
    """A number or arrow card moving a piece."""

    type: Literal["move"]
    card: int
    piece: str  # the piece's colour


class SwapCard(TypedDict):
    """A card played to swap partner cards: ``give`` is the partner colour handed over."""

    type: Literal["swap"]
    card: int
    give: str


class PlaySpecial(TypedDict):
    """A special card played; which of its parameters it needs depends on the card."""

    type: Literal["play"]
    card: int
    piece: NotRequired[str]  # a Foot or a Finger: the piece it moves
    steps: NotRequired[int]  # a Foot: how far
    count: NotRequired[int]  # the Mushroom: how many cards to draw
    take: NotRequired[str]  # the Heart: the partner colour taken
    give: NotRequired[str]  # the Heart: the partner colour handed over


class PassCard(TypedDict):
    """A card that can do nothing now, laid down."""

    type: Literal["pass"]
    card: int


class EventSwap(TypedDict):
    type: Literal["event-swap"]
    take: str
    give: str


class Decline(TypedDict):
    type: Literal["decline"]


class Discard(TypedDict):
    type: Literal["discard"]
    cards: list[int]


Move = MoveCard | SwapCard | PlaySpecial | PassCard | EventSwap | Decline | Discard


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


class PieceSpace(TypedDict):
    """The host's correction: the piece of colour ``piece`` stands on ``space``."""

    type: Literal["piece"]
    piece: str
    space: int


#: What the host may correct (``SeventhHeaven.correct``): a piece's space, nothing else.
Correction = PieceSpace
