"""The start tower: the two grey foundations standing side by side, and every coloured block
built around them until both are hidden (PREPARATION).

The generator places the double cubes first, then the cubes, then the half-cubes (big
blocks low, half-cubes high, as the rulebook recommends), each one legally: supported
everywhere and touching the construction. The order it placed them in is the order the
table screen shows the build in, block by block.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from companion.games.base import clone
from companion.games.climbers.data import BLOCKS, FOUNDATIONS, GREY
from companion.games.climbers.geometry import (
    Placed,
    Tower,
    building_problem,
    footprint,
    hidden,
    perimeter,
    shapes,
)

FOUNDATION_HEIGHT = BLOCKS[FOUNDATIONS[0]].kind.size[2]
ATTEMPTS = 50


def foundations() -> dict[str, Placed]:
    """The two grey blocks standing side by side in the middle of the table."""
    found = {}
    for index, block_id in enumerate(FOUNDATIONS):
        small, _, large = BLOCKS[block_id].kind.size
        found[block_id] = {"x": 2 * index, "y": 0, "z": 0, "w": small, "d": small,
                           "h": large, "top": GREY, "long": None}
    return found


def _foundation_cover(tower: Tower, x: int, y: int, w: int, d: int, z: int, h: int) -> int:
    """How many unit faces of the foundations a block here would hide."""
    under = set(footprint(x, y, w, d))
    cover = 0
    for block_id in FOUNDATIONS:
        spot = tower.blocks[block_id]
        top = spot["z"] + spot["h"]
        sides = {square for _, square in perimeter(spot["x"], spot["y"], spot["w"], spot["d"])}
        for square in under & sides:
            cover += max(0, min(z + h, top) - max(z, tower.height(square)))
        if z == top:
            cover += 2 * len(under & set(tower.visible(block_id)))
    return cover


def _order(rng: random.Random) -> list[str]:
    by_kind: dict[str, list[str]] = {}
    for block_id, block in BLOCKS.items():
        if block.kind.name != "foundation":
            by_kind.setdefault(block.kind.name, []).append(block_id)
    order = []
    for kind in ("double", "cube", "half"):
        ids = by_kind[kind]
        rng.shuffle(ids)
        order.extend(ids)
    return order


def _choose(tower: Tower, block_id: str, rng: random.Random,
            centre: tuple[float, float]) -> Placed:
    """The best legal place for the next block: hide the foundations first, then keep the
    tower compact, big blocks low and half-cubes high."""
    block = BLOCKS[block_id]
    min_x, min_y, max_x, max_y = tower.bounds()
    high = block.kind.name == "half"
    best: tuple[float, Placed] | None = None
    for top, long, w, d, h in shapes(block):
        for x in range(min_x - w, max_x + 2):
            for y in range(min_y - d, max_y + 2):
                problem, z, _ = building_problem(tower, x, y, w, d, h, {}, (), False)
                if problem is not None:
                    continue
                spread = abs(x + w / 2 - centre[0]) + abs(y + d / 2 - centre[1])
                score = (10 * _foundation_cover(tower, x, y, w, d, z, h) - 2 * spread
                         - (z + h if not high else abs(z - FOUNDATION_HEIGHT)) + 3 * rng.random())
                if best is None or score > best[0]:
                    best = (score, {"x": x, "y": y, "z": z, "w": w, "d": d, "h": h,
                                    "top": top, "long": long})
    assert best is not None, "a block always fits beside the tower"
    return best[1]


def generate(seed: int) -> tuple[dict[str, Placed], list[str]]:
    """A random legal start tower hiding both foundations: the blocks' places, and the
    order they were placed in (foundations first)."""
    blocks, order = _generate(seed)
    return clone(blocks), list(order)


@lru_cache(maxsize=64)
def _generate(seed: int) -> tuple[dict[str, Placed], list[str]]:
    """Drawing a tower takes a third of a second, and a table replays its set-up each time
    the server rebuilds it: the towers drawn are kept by seed."""
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        blocks: dict[str, Any] = foundations()
        order = list(FOUNDATIONS)
        tower = Tower(blocks)
        min_x, min_y, max_x, max_y = tower.bounds()
        centre = ((min_x + max_x + 1) / 2, (min_y + max_y + 1) / 2)
        for block_id in _order(rng):
            blocks[block_id] = _choose(tower, block_id, rng, centre)
            order.append(block_id)
            tower = Tower(blocks)
        if all(hidden(tower, block_id) for block_id in FOUNDATIONS):
            return blocks, order
    raise RuntimeError("no start tower hid the foundations")  # pragma: no cover
