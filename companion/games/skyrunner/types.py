"""SkyRunner's moves and views as the checker reads them: the moves ``legal_moves`` offers,
one kind per ``type``, and what ``view`` shows (the templates' input).

No ``from __future__ import annotations`` here: ``NotRequired`` must be seen at runtime.
"""

from typing import Any, Literal, NotRequired, TypedDict


class CardMove(TypedDict):
    """"turn": the deck holder turns up a real card; "choose": a card chosen in secret."""

    type: Literal["turn", "choose"]
    card: int


class Climb(TypedDict):
    type: Literal["climb"]
    level: int
    lane: int


class Sabotage(TypedDict):
    type: Literal["sabotage"]
    target: int  # a seat
    lane: int


class LostEquipment(TypedDict):
    type: Literal["lost"]
    target: int


class Fall(TypedDict):
    type: Literal["fall"]
    lane: int


class Keep(TypedDict):
    type: Literal["keep"]


Move = CardMove | Climb | Sabotage | LostEquipment | Fall | Keep


class Card(TypedDict):
    id: int
    kind: str  # "climb", "bid", "surprise", "sabotage", "lost", "fall", "equipment"…
    colour: str | None
    value: int | None


class View(TypedDict):
    game: str
    players: int
    options: dict[str, Any]
    building: dict[str, Any]  # {"levels", "lanes"}
    roof: int
    per_section: int
    colours: list[str]
    phase: str
    round: int
    holder: int  # the seat holding the deck
    offer: Card | None  # the card turned up this round
    positions: dict[str, Any]  # seat → [level, lane]
    hand_counts: dict[str, int]
    used_counts: dict[str, int]
    waiting: dict[str, list[Card]]
    deck_count: int
    discard_count: int
    chosen: list[int]  # the seats that have chosen (not what)
    played: dict[str, Card]  # the choices, once revealed
    auction: dict[str, Any] | None
    surprise: dict[str, Any] | None
    events: list[dict[str, Any]]
    previous: dict[str, Any] | None
    pending: dict[str, Any] | None
    turn: int | None
    winner: int | None
    outcome: dict[str, Any] | None
    seat: NotRequired[int]  # a seat's own view only, from here on
    hand: NotRequired[list[Card]]
    used: NotRequired[list[Card]]
    choice: NotRequired[Card | None]
    climbs: NotRequired[list[dict[str, int]]]  # where the pending climb may go


class ClimberPlace(TypedDict):
    """The host's correction: the climber of ``seat`` hangs at ``level``, ``lane``."""

    type: Literal["climber"]
    seat: int
    level: int
    lane: int


#: What the host may correct (``SkyRunner.correct``): where a climber hangs, nothing else.
Correction = ClimberPlace
