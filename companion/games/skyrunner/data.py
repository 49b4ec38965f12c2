"""Module data built from ``seeds/skyrunner.toml``: the 90 cards and the building's defaults.

The state only ever holds card ids; ``CARDS[id]`` says what each is:
``{"id", "kind", "colour", "value"}``, kind one of bid, surprise, climb, equipment, lost,
sabotage, fall. Ids follow the seeds' order: bids colour by colour (value 1-8), the
Surprise cards, climbing cards by value, equipment, lost equipment, sabotage, falls.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import load_seed

GAME_ID = "skyrunner"
SEED = load_seed(GAME_ID)
DECK = SEED["deck"]
BUILDING = SEED["building"]

COLOURS: tuple[str, ...] = tuple(SEED["colours"])
BID_VALUES: int = SEED["bid_values"]
PASS_MIN: int = DECK["pass_min"]
SABOTAGE_DROP: int = DECK["sabotage_drop"]
SABOTAGE_GROUND_MIN: int = DECK["sabotage_ground_min"]
SECTIONS = ("lower", "middle", "upper")


def _build_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []

    def add(kind: str, colour: str | None = None, value: int | None = None) -> None:
        cards.append({"id": len(cards), "kind": kind, "colour": colour, "value": value})

    for colour in COLOURS:
        for value in range(1, BID_VALUES + 1):
            add("bid", colour, value)
    for colour in COLOURS:
        add("surprise", colour)
    for value, count in sorted((int(v), n) for v, n in DECK["climbing"].items()):
        for _ in range(count):
            add("climb", value=value)
    for kind, count in (("equipment", DECK["equipment"]), ("lost", DECK["lost_equipment"]),
                        ("sabotage", DECK["sabotage"])):
        for _ in range(count):
            add(kind)
    for value in DECK["falls"]:
        add("fall", value=value)
    return cards


CARDS: list[dict[str, Any]] = _build_cards()
CARD_COUNT = len(CARDS)


def kind(card: int) -> str:
    return CARDS[card]["kind"]


def value(card: int) -> int:
    """The number on a bid, climbing or Fall card (the other cards carry none)."""
    number = CARDS[card]["value"]
    if number is None:
        raise ValueError(f"card {card} carries no number")
    return number


def bid_of(colour: str, value_: int) -> int:
    return COLOURS.index(colour) * BID_VALUES + value_ - 1


def surprise_of(colour: str) -> int:
    return len(COLOURS) * BID_VALUES + COLOURS.index(colour)


def cards_of(kind_: str, value_: int | None = None) -> list[int]:
    return [card["id"] for card in CARDS
            if card["kind"] == kind_ and (value_ is None or card["value"] == value_)]
