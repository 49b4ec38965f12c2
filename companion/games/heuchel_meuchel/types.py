"""Heuchel & Meuchel's moves and views as the checker reads them: the moves ``legal_moves``
offers, one kind per ``type``, and what ``view`` shows (the templates' input).

No ``from __future__ import annotations`` here: ``NotRequired`` must be seen at runtime.
"""

from typing import Any, Literal, NotRequired, TypedDict


class ChooseColumn(TypedDict):
    type: Literal["column"]
    column: int


class PlaceCard(TypedDict):
    """Set-up: a card put on its start square ("place") or taken back ("lift")."""

    type: Literal["place", "lift"]
    card: int


class MoveStack(TypedDict):
    type: Literal["move"]
    row: int
    count: int  # cards taken from the top of the stack
    to: int  # the row they land on


#: A favour: cards taken from the top of a stack in another column ("from", a keyword).
TakeFavour = TypedDict("TakeFavour", {"type": Literal["take"], "from": int, "count": int})


class Lose(TypedDict):
    """Die variant: a roll that allows no move gives up a card still on its way."""

    type: Literal["lose"]
    row: int
    lost: int


class Roll(TypedDict):
    type: Literal["roll"]
    value: NotRequired[int]  # a real die's roll, entered by the player


class Bare(TypedDict):
    type: Literal["again", "done", "pass"]


Move = ChooseColumn | PlaceCard | MoveStack | TakeFavour | Lose | Roll | Bare


class Card(TypedDict):
    id: int
    rank: int  # 1-6
    rank_id: str
    value: int


class View(TypedDict):
    game: str
    players: int
    options: dict[str, Any]
    phase: str  # "setup", "roll", "move", "favour", "over"
    turn: int | None
    first: int
    columns: dict[str, int | None]  # seat → its column
    board: list[list[dict[str, Any] | None]]  # column → row → a square as everyone sees it
    counts: dict[str, dict[str, int]]
    placed: dict[str, int]
    placing: int | None  # the set-up "in turn": the seat placing its cards now
    moved: dict[str, Any] | None
    took: bool
    taken_from: list[int]
    victims: list[dict[str, Any]]
    roll: int | None
    last: dict[str, Any] | None
    outcome: dict[str, Any] | None
    scores: NotRequired[dict[str, dict[str, int]]]  # once the game is over
    seat: NotRequired[int]  # a seat's own view only, from here on
    column: NotRequired[int | None]
    mine: NotRequired[list[dict[str, Any]]]  # every card of its column
    hand: NotRequired[list[Card]]
    discards: NotRequired[list[Card]]
    score: NotRequired[dict[str, int]]
    done: NotRequired[bool]


class StackRow(TypedDict):
    """The host's correction: the stack on ``row`` of ``column`` stands on row ``to``."""

    type: Literal["stack"]
    column: int
    row: int
    to: int


#: What the host may correct (``HeuchelMeuchel.correct``): where a stack stands in its
#: column, as a whole; never what it holds.
Correction = StackRow
