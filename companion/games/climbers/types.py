"""The Climbers' moves and views as the checker reads them: the moves ``legal_moves``
offers, one kind per ``type``, and what ``view`` shows (the templates' input).

No ``from __future__ import annotations`` here: ``NotRequired`` must be seen at runtime.
"""

from typing import Any, Literal, NotRequired, TypedDict


class PlaceBlock(TypedDict):
    """A block put in the start tower ("build") or moved in a turn ("block"): where its
    corner nearest the origin goes, the colour on top, and its long side's axis."""

    type: Literal["build", "block"]
    block: str
    x: int
    y: int
    top: str
    long: str | None


class Walk(TypedDict):
    type: Literal["walk"]
    to: str  # "x,y" or "table"
    ladders: str  # the ladders used, in order


class Stone(TypedDict):
    type: Literal["stone"]
    block: str


class Bare(TypedDict):
    type: Literal["built", "pass", "end", "restart"]


Move = PlaceBlock | Walk | Stone | Bare


class Figure(TypedDict):
    place: str | None
    height: int


class View(TypedDict):
    game: str
    players: int
    options: dict[str, Any]
    colours: list[str]
    phase: str  # "build", "play", "over"
    first: int
    turn: int | None
    step: str  # "before" or "after" the block move
    walked: bool
    round: int
    last_chance: bool
    blocks: list[dict[str, Any]]  # placed blocks, in the order they were placed
    order: list[str]
    unplaced: list[str]
    cells: list[dict[str, Any]]  # the top of each square: height, block, colour
    bounds: list[int]
    figures: dict[str, Figure]
    ladders: dict[str, list[str]]
    stones: dict[str, str]
    blocked: dict[str, str]
    last_moved: str | None
    moved: str | None
    start: dict[str, Any]
    effects: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    movable: NotRequired[list[str]]  # during play
    stuck: NotRequired[bool]
    steps: NotRequired[list[str]]  # the kinds of move the player to move can make now
    seat: NotRequired[int]  # a seat's own view only, from here on
    reach: NotRequired[dict[str, list[str]]]  # where its figure can walk, and with what
    reach_lower: NotRequired[dict[str, list[str]]]  # the ways of those that go lower


class FigurePlace(TypedDict):
    """The host's correction: ``seat``'s figure stands at ``to``, a square "x,y" (a block's
    top, or the floor of a pit walled in by blocks) or "table"."""

    type: Literal["figure"]
    seat: int
    to: str


class BlockPlace(TypedDict):
    """The host's correction: ``block`` lies at ``x``, ``y`` (its corner nearest the
    origin), ``top`` up and its long side along ``long``, as a block move puts it."""

    type: Literal["block"]
    block: str
    x: int
    y: int
    top: str
    long: str | None


#: What the host may correct (``Climbers.correct``): a figure's place, a block's place and
#: way of lying; nothing else.
Correction = FigurePlace | BlockPlace
