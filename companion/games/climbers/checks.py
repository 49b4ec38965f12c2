"""The rules The Climbers' ``rules.check`` holds each kind of move to, in the order it
checks them (``Game.checked``): what a player reads under "Why it was allowed" for a move
of the log. Each is a clause of ``seeds/climbers.toml`` that ``check`` raises for a move
of that kind breaking it; a move's shape (``cl.move.malformed``) is no rule of the game.
The position says which of them applied: a stone laid this turn, a walk after the block
move, a tower's block moved again while it is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Move

#: The game is on, and it is the mover's turn.
ON = ("cl.game.over", "cl.turn.wait")
#: A block's new place is on the grid (``rules.check_grid``), before anything else.
GRID = ("cl.build.grid",)
#: A block that is in the tower may move (``rules.movable_problem``).
MOVABLE = ("cl.block.occupied", "cl.block.stone", "cl.block.covered", "cl.block.last-moved")
#: Where a block comes to rest (``geometry.building_problem``, ``rules.BUILDING_CLAUSES``).
RESTING = ("cl.build.support", "cl.build.stone", "cl.build.contact", "cl.build.push")
#: A walk's way, as the figure's search refuses its steps (``geometry.Walker``).
WAY = ("cl.figure.step", "cl.ladder.short", "cl.figure.diagonal", "cl.figure.colour-way",
       "cl.ladder.long", "cl.ladder.chain")


def checked(before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
    kind = str(move.get("type"))
    if kind == "built":
        return [*ON, "cl.setup.unplaced"]
    if kind == "restart":
        return [*ON, "cl.turn.restart"]
    if kind in ("block", "build"):
        return [*ON, *GRID, "cl.turn.phase", *_placed(before, move)]
    after = before.get("step") == "after"
    higher = ["cl.figure.higher"] if after else []
    if kind == "walk":
        own_stone = str(seat) in (before.get("blocked") or {})
        never_down = (before.get("options") or {}).get("descent") == "never"
        return [*ON, "cl.turn.phase", "cl.figure.reach",
                *(["cl.stone.free"] if own_stone else []), "cl.figure.one-per-square",
                "cl.figure.stone", "cl.figure.colour", "cl.ladder.once", *higher, *WAY,
                *(["cl.figure.never-down"] if never_down else [])]
    if kind == "stone":
        return [*ON, "cl.turn.phase", "cl.stone.used", "cl.figure.higher", "cl.stone.free"]
    if kind == "end":
        return [*ON, "cl.turn.phase", "cl.figure.higher", "cl.stone.free"]
    return [*ON, "cl.turn.phase"]


def _placed(before: Mapping[str, Any], move: Move) -> list[str]:
    """A block put in a new place (``rules.check_placement``): one in the tower already must
    be free to move, and go elsewhere."""
    standing = any(block.get("id") == move.get("block") for block in before.get("blocks") or [])
    if not standing:
        return ["cl.block.shape", *RESTING]
    return [*MOVABLE, "cl.block.shape", "cl.block.elsewhere", *RESTING]
