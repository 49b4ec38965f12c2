"""Module data built from ``seeds/seventh-heaven.toml``: colours, the 99-card table, the track.

The state only ever holds card ids; this table says what each id is.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import load_seed

GAME_ID = "seventh-heaven"
SEED = load_seed(GAME_ID)

COLOURS: tuple[str, ...] = tuple(colour["id"] for colour in SEED["colour"])
COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}
#: Each partner card's name by language.
PARTNER_NAMES: dict[str, dict[str, str]] = {colour["id"]: colour["partner"]
                                             for colour in SEED["colour"]}
WHITE = "white"

HAND_SIZE: int = SEED["deck"]["hand_size"]
START: int = SEED["track"]["start"]

SPECIALS: tuple[str, ...] = tuple(SEED["deck"]["specials"])

#: The parameters each special card's move carries besides "type" and "card".
SPECIAL_PARAMS: dict[str, frozenset[str]] = {
    "heart": frozenset({"take", "give"}),
    "mushroom": frozenset({"count"}),
    "three_cards": frozenset(),
    "pepper": frozenset(),
    "snail": frozenset(),
    "cloud": frozenset(),
    "foot": frozenset({"piece", "steps"}),
    "finger": frozenset({"piece"}),
}


def _card(card_id: int, kind: str, colour: str | None, value: int | None,
          special: str | None) -> dict[str, Any]:
    return {"id": card_id, "kind": kind, "colour": colour, "value": value, "special": special}


def _build_cards() -> tuple[dict[str, Any], ...]:
    deck = SEED["deck"]
    cards: list[dict[str, Any]] = []
    for colour in COLOURS:
        for value in deck["colour_numbers"]:
            cards.append(_card(len(cards), "number", colour, value, None))
    for value in deck["white_numbers"]:
        cards.append(_card(len(cards), "number", WHITE, value, None))
    for colour in COLOURS:
        for _ in range(deck["colour_arrows"]):
            cards.append(_card(len(cards), "arrow", colour, None, None))
    for _ in range(deck["white_arrows"]):
        cards.append(_card(len(cards), "arrow", WHITE, None, None))
    for special in SPECIALS:
        cards.append(_card(len(cards), "special", None, None, special))
    return tuple(cards)


CARDS: tuple[dict[str, Any], ...] = _build_cards()
CARD_COUNT = len(CARDS)

#: space -> event ({"space", "kind": "move"|"swap", "to"?, "must"?, "rule"}).
EVENTS: dict[int, dict[str, Any]] = {event["space"]: event for event in SEED["track"]["event"]}


def card_sort_key(card_id: int) -> tuple[int, int, int, int]:
    """Sort a hand by colour (table order, white, then text cards), kind, then value."""
    card = CARDS[card_id]
    colour = card["colour"]
    colour_rank = COLOUR_INDEX.get(colour, len(COLOURS)) if colour else len(COLOURS) + 1
    kind_rank = {"number": 0, "arrow": 1, "special": 2}[card["kind"]]
    value = card["value"] if card["value"] is not None else 0
    return (colour_rank, kind_rank, value, card_id)
