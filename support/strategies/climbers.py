"""A way to play The Climbers that climbs: the highest walk, else a block move that gives
the figure a step up, shared by the API tests and the screenshots so both play the same
seeded game. It reads only what the seat sees (its view and its legal moves)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.games.climbers import Climbers
from companion.games.climbers.data import BLOCKS
from companion.games.climbers.geometry import shape
from support.strategies import Table

Square = tuple[int, int]


def heights(view: dict[str, Any]) -> dict[Square, int]:
    return {(c["x"], c["y"]): c["height"] for c in view["cells"]}


def height_at(view: dict[str, Any], place: str | None) -> int:
    if place in (None, "table"):
        return 0
    x, y = map(int, place.split(","))  # type: ignore[union-attr]
    return heights(view).get((x, y), 0)


def footprint(move: dict[str, Any]) -> list[Square] | None:
    dims = shape(BLOCKS[move["block"]], move["top"], move["long"])
    if dims is None:
        return None
    w, d, _ = dims
    return [(move["x"] + i, move["y"] + j) for i in range(w) for j in range(d)]


def climbing_block_move(view: dict[str, Any], seat: int,
                        moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A block move that gives the figure a step up: the block comes to rest, its top the
    player's colour (or grey), beside a square the figure can get to now, at most one higher
    than that square and higher than the figure stands. The highest such; ties by the order
    of the moves."""
    mine = view["colours"][seat]
    figure = view["figures"][str(seat)]
    here = figure["height"]
    cells = {(c["x"], c["y"]): c for c in view["cells"]}
    ways = {tuple(map(int, k.split(","))) for k in view.get("reach", {}) if k != "table"}
    if figure["place"] is not None:
        ways.add(tuple(map(int, figure["place"].split(","))))
    best = None
    for move in moves:
        if move["type"] != "block" or move["top"] not in (mine, "grey"):
            continue
        squares = footprint(move)
        if squares is None or any((cells.get(s) or {}).get("block") == move["block"]
                                  for s in squares):
            continue  # resting partly where it stands now: its height there is unknown
        z = {cells[s]["height"] if s in cells else 0 for s in squares}.pop()
        top = z + shape(BLOCKS[move["block"]], move["top"], move["long"])[2]
        if top <= here:
            continue
        if z == 0 and top == 1:
            near = True  # a step up from the table
        else:
            near = any(abs(s[0] - w[0]) + abs(s[1] - w[1]) == 1 and w not in squares
                       and top - cells[w]["height"] <= 1 for s in squares for w in ways)
        if near and (best is None or top > best[0]):
            best = (top, move)
    return best[1] if best else None


def choose(view: dict[str, Any], seat: int, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A walk that ends highest (fewest ladders); else a block move that lets the figure climb
    (before the block move); else pass, end, or start the turn again."""
    here = view["figures"][str(seat)]["height"]
    walks = [m for m in moves if m["type"] == "walk"]
    higher = [m for m in walks if height_at(view, m["to"]) > here]
    if higher:
        return max(higher, key=lambda m: (height_at(view, m["to"]), -len(m["ladders"]),
                                          m["to"]))
    types = {m["type"] for m in moves}
    if "pass" in types:
        found = climbing_block_move(view, seat, moves)
        return found or {"type": "pass"}
    if "end" in types:
        return {"type": "end"}
    return moves[0]


def random_positions(game: Climbers, options: dict[str, Any], seed: int,
                     moves: int) -> Iterator[dict[str, Any]]:
    """The positions of a seeded random game of three, up to ``moves`` moves or its end:
    a walk two times in five when one is legal, else any legal move."""
    rng = random.Random(seed)
    state = game.setup(3, options, seed)
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        yield state
        seat = state["turn"]
        legal = game.legal_moves(state, seat)
        walks = [m for m in legal if m["type"] == "walk"]
        move = rng.choice(walks) if walks and rng.random() < 0.4 else rng.choice(legal)
        state = game.apply(state, seat, move)


def quick_move(table: Table) -> tuple[int, dict[str, Any]]:
    """The seat whose turn it is, and its move."""
    seat = table.view()["view"]["turn"]
    return seat, choose(table.view(seat)["view"], seat, table.moves(seat))
