"""Module data built from ``seeds/heuchel-meuchel.toml``: ranks, rows and the 36 cards.

A card is an int 0..35: ``rank = id // 6 + 1`` (1 = Fire-eater … 6 = Prince) and
``value = id % 6 + 1``. So card ``a`` outranks card ``b`` exactly when ``a > b``: rank first,
then number (rulebook, MATERIEL).
"""

from __future__ import annotations

from companion.games.base import load_seed
from companion.games.heuchel_meuchel.types import Card

GAME_ID = "heuchel-meuchel"
SEED = load_seed(GAME_ID)

COLUMNS: int = SEED["board"]["columns"]
ROWS: int = SEED["board"]["rows"]
GOAL_OFFSET: int = SEED["board"]["goal_offset"]
CARDS_PER_PLAYER: int = SEED["board"]["cards_per_player"]
VALUES: int = SEED["board"]["values"]
DIE_SIDES: int = SEED["board"]["die_sides"]

RANK_IDS: tuple[str, ...] = tuple(rank["id"] for rank in SEED["rank"])
#: Rank number (1 = lowest) → its start row.
START_ROW: dict[int, int] = {index + 1: rank["start"] for index, rank in enumerate(SEED["rank"])}
CARD_COUNT = len(RANK_IDS) * VALUES


def rank_of(card: int) -> int:
    return card // VALUES + 1


def value_of(card: int) -> int:
    return card % VALUES + 1


def start_row(rank: int) -> int:
    return START_ROW[rank]


def goal_row(rank: int) -> int:
    return START_ROW[rank] + GOAL_OFFSET


def card_goal(card: int) -> int:
    return goal_row(rank_of(card))


def card_json(card: int) -> Card:
    """A card as views show it: its id, rank (1-6, with the rank's id) and value."""
    rank = rank_of(card)
    return {"id": card, "rank": rank, "rank_id": RANK_IDS[rank - 1], "value": value_of(card)}


def rank_name(rank: int, lang: str) -> str:
    entry = SEED["rank"][rank - 1]
    return entry.get(lang) or entry["en"]
