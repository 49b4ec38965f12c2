"""A deterministic way to play Heuchel & Meuchel that seeks favours and arrogance, shared
by the API and browser tests so both play the same seeded game.

It reads only what the seat itself sees (its view and its legal moves), as a player would.
"""

from __future__ import annotations

from typing import Any

from support.strategies import Table

Move = dict[str, Any]
#: Columns the seats pick, in seat order.
COLUMNS = (1, 3, 5, 2, 4, 6)


def choose(view: dict[str, Any], moves: list[Move]) -> Move:
    """The move this seat makes: its own column, its cards placed in the order dealt, then
    moves that land beside lower cards, single-card takes off taller stacks (which can
    uncover an arrogant card), and another turn whenever one is on offer."""
    by_type: dict[str, list[Move]] = {}
    for move in moves:
        by_type.setdefault(move["type"], []).append(move)
    if "column" in by_type and view.get("column") is None:
        wanted = COLUMNS[view["seat"]]
        return next((m for m in by_type["column"] if m["column"] == wanted), by_type["column"][0])
    if "place" in by_type:
        return by_type["place"][0]
    if "take" in by_type:
        return max(by_type["take"], key=lambda m: (_victim_height(view, m) > m["count"],
                                                    -m["count"], -m["from"]))
    for kind in ("again", "roll", "done", "lose"):
        if kind in by_type:
            return by_type[kind][0]
    return max(by_type["move"], key=lambda m: (_favours_at(view, m), m["to"], m["count"]))


def _victim_height(view: dict[str, Any], move: Move) -> int:
    victim = next(v for v in view["victims"] if v["column"] == move["from"])
    return victim["height"]


def _favours_at(view: dict[str, Any], move: Move) -> int:
    """How many stacks beside the landing square the moved stack could take."""
    mine = next(s for s in view["mine"] if s["row"] == move["row"])
    taker = mine["cards"][-1]["id"]
    count = 0
    for column, squares in enumerate(view["board"], start=1):
        square = squares[move["to"] - 1]
        if column != view["column"] and square and not square["down"] \
                and square["top"]["id"] < taker:
            count += 1
    return count


def seat_with_work(table: Table) -> tuple[int, list[Move]] | None:
    """The seat that has something to do; a seat whose set-up is complete may still take
    a card back, but is waiting for the others, not acting."""
    for seat in range(table.players):
        moves = table.moves(seat)
        if moves and not all(move["type"] == "lift" for move in moves):
            return seat, moves
    return None


def quick_move(table: Table) -> tuple[int, Move]:
    """The seat with something to do, and its move."""
    found = seat_with_work(table)
    assert found is not None, "nobody has anything to do and the game is not over"
    seat, moves = found
    return seat, choose(table.view(seat)["view"], moves)
