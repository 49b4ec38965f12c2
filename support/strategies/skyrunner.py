"""A deterministic way to play SkyRunner that makes auctions tie, Surprises and sabotage
happen, and climbers crowd one lane (so falls drag others down): shared by the API and
browser tests so both play the same seeded game. It reads only the seat's own view."""

from __future__ import annotations

from typing import Any

from support.strategies import Table

Move = dict[str, Any]


def choose(view: dict[str, Any], moves: list[Move]) -> Move:
    kinds = {move["type"] for move in moves}
    if "climb" in kinds:
        # as high as possible, crowding the leftmost lane
        return max((m for m in moves if m["type"] == "climb"),
                   key=lambda m: (m["level"], -m["lane"]))
    if "sabotage" in kinds:
        # the highest opponent (ties: the next seat)
        targets = [m for m in moves if m["type"] == "sabotage"]
        return max(targets, key=lambda m: (view["positions"][str(m["target"])]["level"],
                                           -m["target"], -m["lane"]))
    if "lost" in kinds:
        return next(m for m in moves if m["type"] == "lost")
    if kinds <= {"fall"}:
        return moves[0]
    if "turn" in kinds:
        return moves[(view["round"] * 7) % len(moves)]
    return _choose_card(view, moves)


def _choose_card(view: dict[str, Any], moves: list[Move]) -> Move:
    by_kind: dict[str, list[Move]] = {}
    for move in moves:
        card = next(c for c in view["hand"] if c["id"] == move["card"])
        by_kind.setdefault(card["kind"], []).append({**move, "value": card["value"]})
    offer = view["offer"]
    turn = view["round"] + view["seat"]
    if offer and offer["kind"] != "fall":
        if "sabotage" in by_kind and turn % 3 == 0:
            return _plain(by_kind["sabotage"][0])
        if "surprise" in by_kind and view["round"] % 6 == view["seat"] + 1:
            return _plain(by_kind["surprise"][0])
        if "climb" in by_kind and turn % 2 == 0:
            return _plain(max(by_kind["climb"], key=lambda m: m["value"]))
    bids = sorted(by_kind.get("bid", []), key=lambda m: m["value"])
    if bids:
        # everyone favours the middle of their bids: ties happen
        return _plain(bids[len(bids) // 2])
    return _plain(next(iter(by_kind.values()))[0])


def _plain(move: Move) -> Move:
    return {"type": move["type"], "card": move["card"]}


def seat_to_act(table: Table) -> tuple[int, dict[str, Any], list[Move]] | None:
    """The first seat with something to do (a seat that has chosen is waiting, not acting)."""
    for seat in range(table.players):
        moves = table.moves(seat)
        view = table.view(seat)["view"]
        if moves and not (view["phase"] == "choose" and view["choice"] is not None):
            return seat, view, moves
    return None


def quick_move(table: Table) -> tuple[int, Move]:
    """The first seat with something to do, and its move."""
    found = seat_to_act(table)
    assert found is not None, "nobody has anything to do and the game is not over"
    seat, view, moves = found
    return seat, choose(view, moves)
