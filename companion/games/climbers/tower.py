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

from companion.aside import let_others_run
from companion.games.base import clone
from companion.games.climbers.data import BLOCKS, FOUNDATIONS, GREY
from companion.games.climbers.geometry import (
    Placed,
    Tower,
    building_problem,
    footprint,
    footprint_corners,
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


class _Foundations:
    """What a block placed on ``tower`` would hide of the foundations, worked out once per
    block placed: for each foundation its top's height, the squares round its sides, and
    the squares of its top that nothing covers yet."""

    def __init__(self, tower: Tower) -> None:
        self._tower = tower
        self._found = []
        for block_id in FOUNDATIONS:
            spot = tower.blocks[block_id]
            sides = {square for _, square in perimeter(spot["x"], spot["y"], spot["w"], spot["d"])}
            self._found.append((spot["z"] + spot["h"], sides, set(tower.visible(block_id))))

    def cover(self, x: int, y: int, w: int, d: int, z: int, h: int) -> int:
        """How many unit faces of the foundations a block here would hide."""
        under = set(footprint(x, y, w, d))
        cover = 0
        for top, sides, visible in self._found:
            for square in under & sides:
                cover += max(0, min(z + h, top) - max(z, self._tower.height(square)))
            if z == top:
                cover += 2 * len(under & visible)
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
    hides = _Foundations(tower)
    best: tuple[float, Placed] | None = None
    for top, long, w, d, h in shapes(block):
        # Only a footprint on the blocks or beside them can stand (``footprint_corners``):
        # those are tried, in the order of a sweep over x then y round the tower, so the
        # places found, their order and the random numbers drawn are a sweep's over every
        # square: a seed always draws the same tower.
        corners = sorted((x, y) for x, y in footprint_corners(tower, w, d)
                         if min_x - w <= x <= max_x + 1 and min_y - d <= y <= max_y + 1)
        for x, y in corners:
            problem, z, _ = building_problem(tower, x, y, w, d, h, {}, (), False, ())
            if problem is not None:
                continue
            spread = abs(x + w / 2 - centre[0]) + abs(y + d / 2 - centre[1])
            score = (10 * hides.cover(x, y, w, d, z, h) - 2 * spread
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
    """Drawing a tower takes a tenth of a second, and a table replays its set-up each time
    the server rebuilds it: the towers drawn are kept by seed. The server's other work goes
    on between two blocks (``let_others_run``): a push waits a block's few milliseconds,
    not the whole tower's."""
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        blocks: dict[str, Any] = foundations()
        order = list(FOUNDATIONS)
        tower = Tower(blocks)
        min_x, min_y, max_x, max_y = tower.bounds()
        centre = ((min_x + max_x + 1) / 2, (min_y + max_y + 1) / 2)
        for block_id in _order(rng):
            let_others_run()
            blocks[block_id] = _choose(tower, block_id, rng, centre)
            order.append(block_id)
            tower = Tower(blocks)
        if all(hidden(tower, block_id) for block_id in FOUNDATIONS):
            return blocks, order
    raise RuntimeError("no start tower hid the foundations")  # pragma: no cover
