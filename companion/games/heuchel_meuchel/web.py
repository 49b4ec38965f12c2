"""Heuchel & Meuchel for templates: rank names, card names and the board's geometry.

Everything here reads the game's public data (ranks, rows) or a view; nothing reads a
state, so a template cannot reach a card its viewer may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.lists import format_list

from companion.games.heuchel_meuchel import ENGINE
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    COLUMNS,
    GOAL_OFFSET,
    RANK_IDS,
    ROWS,
    START_ROW,
    VALUES,
    card_json,
    rank_name,
)
from companion.games.heuchel_meuchel.types import Card
from companion.i18n import current_lang
from companion.web.spec import GameSpec, Helpers

#: Rows from the top of the board down, as the phone's ladder and the screen draw them.
ROWS_TOP_DOWN = tuple(range(ROWS, 0, -1))


class HeuchelMeuchelHelpers(Helpers):
    #: The board's drawing: the row labels' width, a column's width, a row's height, and
    #: the column numbers' band at the top.
    label_width, column_width, row_height, head = 74, 62, 38, 30
    columns = tuple(range(1, COLUMNS + 1))
    rows_top_down = ROWS_TOP_DOWN
    ranks_high_first = tuple(range(len(RANK_IDS), 0, -1))

    def card(self, card: Any) -> Mapping[str, Any]:
        """A card id (or a view's card) as a card dict."""
        if isinstance(card, Mapping):
            return card
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < CARD_COUNT:
            return card_json(card)
        return {"id": card, "rank": 0, "rank_id": "unknown", "value": 0}

    def rank(self, rank: int) -> str:
        if isinstance(rank, int) and 1 <= rank <= len(RANK_IDS):
            return rank_name(rank, current_lang())
        return str(rank)

    def rows_list(self, rows: list[int]) -> str:
        """Rows as the reader's language lists them ("4, 5 and 6", "4, 5 et 6")."""
        return format_list([str(row) for row in rows], locale=current_lang())

    def card_name(self, card: Any) -> str:
        card = self.card(card)
        return f"{self.rank(card['rank'])} {card['value']}"

    def cards_of_rank(self, rank: int) -> list[Card]:
        """The six cards of a rank, 6 first: the table-deals entry grid."""
        first = (rank - 1) * VALUES
        return [card_json(card) for card in range(first + VALUES - 1, first - 1, -1)]

    def row_kind(self, row: int) -> tuple[str, int] | None:
        """("start", rank) or ("goal", rank) for a patterned row, None for a plain one."""
        for rank, start in START_ROW.items():
            if row == start:
                return "start", rank
            if row == start + GOAL_OFFSET:
                return "goal", rank
        return None

    def owner(self, view: dict[str, Any], column: int) -> int | None:
        for seat, chosen in view["columns"].items():
            if chosen == column:
                return int(seat)
        return None

    def mine_at(self, view: dict[str, Any], row: int) -> dict[str, Any] | None:
        return next((stack for stack in view.get("mine", []) if stack["row"] == row), None)

    def column_x(self, column: int) -> int:
        """Where a column's squares start on the board's drawing."""
        return self.label_width + (column - 1) * self.column_width

    def row_y(self, row: int) -> int:
        """Where a row's band starts on the board's drawing (row 13 at the top)."""
        return self.head + (ROWS - row) * self.row_height

    def house(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every square of the board, top row first, as its piece draws it: where it is,
        its stack, and whether the stack moved this turn or is a favour's victim."""
        moved = view.get("moved") or {}
        favour_row = moved.get("row") if view.get("phase") == "favour" else None
        victims = {v["column"] for v in view.get("victims", [])} if favour_row else set()
        board = view["board"]
        return [{"column": column, "row": row, "square": board[column - 1][row - 1],
                 "x": self.column_x(column), "y": self.row_y(row),
                 "moved": moved.get("column") == column and moved.get("row") == row,
                 "victim": row == favour_row and column in victims}
                for row in ROWS_TOP_DOWN for column in self.columns]

    def victim(self, view: dict[str, Any], column: int) -> dict[str, Any] | None:
        return next((v for v in view.get("victims", []) if v["column"] == column), None)

    def mine_has(self, view: dict[str, Any], card: int) -> bool:
        """Whether a card already stands in the viewer's own column."""
        return any(c["id"] == card for stack in view.get("mine", []) for c in stack["cards"])


SPEC = GameSpec(engine=ENGINE, helpers=HeuchelMeuchelHelpers())
