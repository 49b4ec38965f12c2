"""The Climbers in the players' words: a block by what one sees of it (its kind, the colour
on its top, the level of that top, a block beside it), a square by the block whose top it
is. Nothing a player reads names a coordinate; block ids stay on the screen's picture, as
small labels, for the rare tie.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _

Block = dict[str, Any]


def placed_block(view: dict[str, Any], block_id: Any) -> Block | None:
    """The block as it stands in ``view``, or None (not in the tower yet)."""
    found = next((b for b in view.get("blocks") or [] if b["id"] == block_id), None)
    return found if found is not None and found.get("x") is not None else None


def _touching(a: Block, b: Block) -> bool:
    """Side by side, face to face, at some common height."""
    if a["id"] == b["id"] or not (a["z"] < b["z"] + b["h"] and b["z"] < a["z"] + a["h"]):
        return False
    ax1, ay1, bx1, by1 = a["x"] + a["w"], a["y"] + a["d"], b["x"] + b["w"], b["y"] + b["d"]
    across = (ax1 == b["x"] or bx1 == a["x"]) and a["y"] < by1 and b["y"] < ay1
    along = (ay1 == b["y"] or by1 == a["y"]) and a["x"] < bx1 and b["x"] < ax1
    return across or along


def _looks(block: Block) -> tuple[str, str]:
    return block["kind"], block["top"]


#: A block as its neighbour is chosen: where it stands and what it looks like.
Shape = tuple[str, str, str, int, int, int, int, int, int]
SHAPE_KEYS = ("id", "kind", "top", "x", "y", "z", "w", "d", "h")


def neighbour(view: dict[str, Any], block: Block) -> Block | None:
    """The block beside ``block`` worth naming: the one that best tells it apart from the
    blocks that look like it at its level (then the tallest), so a player finds it. A
    block of the tower is looked up among the answers for the whole tower, worked out once
    for each tower (a push names the same blocks in many lines and regions)."""
    blocks = [b for b in view.get("blocks") or [] if b.get("x") is not None]
    shapes = tuple(tuple(b[key] for key in SHAPE_KEYS) for b in blocks)
    own = tuple(block.get(key) for key in SHAPE_KEYS)
    if own in shapes:
        found = _neighbours(shapes).get(block["id"])
        return next((b for b in blocks if b["id"] == found), None) if found else None
    return _neighbour(blocks, block)


@functools.lru_cache(maxsize=64)
def _neighbours(shapes: tuple[Shape, ...]) -> dict[str, str | None]:
    blocks: list[Block] = [dict(zip(SHAPE_KEYS, shape, strict=True)) for shape in shapes]
    found: dict[str, str | None] = {}
    for block in blocks:
        near = _neighbour(blocks, block)
        found[block["id"]] = near["id"] if near is not None else None
    return found


def _neighbour(blocks: list[Block], block: Block) -> Block | None:
    near = [b for b in blocks if _touching(block, b)]
    level = block["z"] + block["h"]
    alike = [b for b in blocks if b["id"] != block["id"] and _looks(b) == _looks(block)
             and b["z"] + b["h"] == level]

    def confusions(named: Block) -> int:
        """How many look-alikes also stand beside a block that looks like ``named``."""
        return sum(1 for other in alike
                   if any(_touching(other, b) and _looks(b) == _looks(named) for b in blocks))

    return min(near, key=lambda b: (confusions(b), -(b["z"] + b["h"]), b["id"]), default=None)


class Words:
    """Phrases in the reader's language; ``colour`` and ``kind`` name a colour and a kind."""

    def __init__(self, colour: Callable[[str], str], kind: Callable[[str], str]) -> None:
        self.colour, self.kind = colour, kind

    def looks(self, block: Block) -> str:
        """"the red-topped half-cube"."""
        if block["kind"] == "foundation":
            return _("the %(kind)s", kind=self.kind(block["kind"]))
        return _("the %(colour)s-topped %(kind)s", colour=self.colour(block["top"]),
                 kind=self.kind(block["kind"]))

    def beside(self, block: Block) -> str:
        """"next to the grey foundation"."""
        if block["kind"] == "foundation":
            return _("next to the %(kind)s", kind=self.kind(block["kind"]))
        return _("next to the %(colour)s-topped %(kind)s", colour=self.colour(block["top"]),
                 kind=self.kind(block["kind"]))

    def place(self, view: dict[str, Any], block: Block) -> str:
        """Where a block stands: "on level 6, next to the grey foundation"."""
        text = _("on level %(level)s", level=block["z"] + block["h"])
        near = neighbour(view, block)
        return f"{text}, {self.beside(near)}" if near is not None else text

    def block(self, view: dict[str, Any], block_id: Any) -> str:
        """"the red-topped half-cube on level 6, next to the grey foundation"."""
        block = placed_block(view, block_id)
        if block is None:
            return str(block_id)
        return f"{self.looks(block)} {self.place(view, block)}"

    def square(self, view: dict[str, Any], name: Any) -> str:
        """A square of the tower by the block whose top it is; the table by its name."""
        if name in (None, "table"):
            return _("the table")
        cell = next((c for c in view.get("cells") or []
                     if f"{c['x']},{c['y']}" == name), None)
        if cell is None:
            return _("the table")
        return self.block(view, cell["block"])

    def ladders(self, ladders: str) -> str:
        """The ladders a walk uses: "with the short ladder", "with no ladder"."""
        return {"short": _("with the short ladder"), "long": _("with the long ladder"),
                "short+long": _("with both ladders")}.get(ladders, _("with no ladder"))

    def walk(self, view: dict[str, Any], to: str, ladders: str, lower: bool | None) -> str:
        """A walk onto a top by one of its ways: the square, the ladders, and (where the
        top is reached several ways) whether it goes lower than the turn began."""
        square, used = self.square(view, to), self.ladders(ladders)
        if lower is None:
            return _("%(square)s, %(ladders)s", square=square, ladders=used)
        if lower:
            return _("%(square)s, %(ladders)s, going lower than you began",
                     square=square, ladders=used)
        return _("%(square)s, %(ladders)s, never lower than you began",
                 square=square, ladders=used)

    def stone(self, view: dict[str, Any], block_id: str) -> str:
        """Laying the blocking stone, which ends the turn, on a block."""
        return _("Place your blocking stone on %(block)s and end your turn",
                 block=self.block(view, block_id))

    def destination(self, view: dict[str, Any], move: dict[str, Any],
                    dims: tuple[int, int, int]) -> str:
        """Where a block move puts the block: on top of what its footprint covers."""
        w, d, h = dims
        others = [b for b in view.get("blocks") or []
                  if b["id"] != move["block"] and b.get("x") is not None]
        z = max((b["z"] + b["h"] for b in others
                 if b["x"] < move["x"] + w and move["x"] < b["x"] + b["w"]
                 and b["y"] < move["y"] + d and move["y"] < b["y"] + b["d"]), default=0)
        moved = {"id": move["block"], "kind": "", "top": move["top"], "x": move["x"],
                 "y": move["y"], "z": z, "w": w, "d": d, "h": h}
        return self.place({**view, "blocks": others}, moved)
