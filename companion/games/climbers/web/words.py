"""The Climbers in the players' words: a block by what one sees of it (its kind, the colour
on its top, the level of that top, a block beside it), a square by the block whose top it
is. Nothing a player reads names a coordinate; block ids stay on the screen's picture, as
small labels, for the rare tie.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import has_app_context

from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.web.services import services

Block = dict[str, Any]


#: What tells a block apart when it is named: where it stands and what it looks like.
SHAPE_KEYS = ("id", "kind", "top", "x", "y", "z", "w", "d", "h")
_shape = operator.itemgetter(*SHAPE_KEYS)


@dataclass
class _Said:
    """What was said of a tower of these very blocks, in place: the block named beside each
    block, and each block in words by language. Shared by every state that leaves the blocks
    where they stand (a walk, the blocking stone, the end of a turn)."""

    beside: dict[str, str | None] = field(default_factory=dict)
    #: (language, block id): "the red-topped cube on level 6, next to the grey foundation".
    words: dict[tuple[str, str], str] = field(default_factory=dict)


class _Tower:
    """One view's tower: its blocks by id, and what is said of them (``_Said``). A view is
    never changed once made (``Match.view_for``) and every viewer's view of a state shares
    the public view's list of blocks, so the list itself is the key (``worked_out``): a
    push names the same blocks in many log lines, regions and lit tops, for every phone."""

    def __init__(self, blocks: list[Block]) -> None:
        self.blocks = blocks
        self.placed = [b for b in blocks if b.get("x") is not None]
        self.by_id = {b["id"]: b for b in self.placed}
        shapes = tuple(map(_shape, self.placed))
        self.said: _Said = _kept(("said", shapes), _Said)

    def beside(self, block: Block) -> Block | None:
        """The block to name beside ``block`` of this tower (``neighbour``)."""
        if block["id"] not in self.said.beside:
            near = _neighbour(self.placed, block)
            self.said.beside[block["id"]] = near["id"] if near is not None else None
        found = self.said.beside[block["id"]]
        return self.by_id[found] if found is not None else None


def _kept(key: tuple[Any, ...], work: Callable[[], Any]) -> Any:
    """``work()``, kept under ``key`` in the app's caches (``Caches.worked_out``) so
    that the words said of a tower die with the app; outside an app (a script, a test of
    the words alone), worked out afresh."""
    if not has_app_context():
        return work()
    caches = services().caches
    with caches.worked_out_lock:
        found = caches.worked_out.get(key)
    if found is None:
        found = work()
        with caches.worked_out_lock:
            caches.worked_out.put(key, found)
    return found


def worked_out(what: str, value: list[Any], work: Callable[[list[Any]], Any]) -> Any:
    """``work(value)``, done once for the list ``value`` of a view (a tower's blocks, its
    squares), which is never changed (see ``_Tower``). ``what`` names the work. Kept by the
    list's identity, together with the list: its id is not reused while it is kept."""
    kept: tuple[list[Any], Any] = _kept((what, id(value)), lambda: (value, work(value)))
    return kept[1]


def _tower(view: dict[str, Any]) -> _Tower:
    tower: _Tower = worked_out("tower", view.get("blocks") or [], _Tower)
    return tower


def _square_blocks(cells: list[dict[str, Any]]) -> dict[str, str]:
    """Each square of the tower ("x,y") and the block whose top it is."""
    return {f"{c['x']},{c['y']}": c["block"] for c in cells}


def square_block(view: dict[str, Any], name: Any) -> str | None:
    """The block whose top is the square ``name`` ("x,y"), or None."""
    squares: dict[str, str] = worked_out("squares", view.get("cells") or [], _square_blocks)
    return squares.get(name) if isinstance(name, str) else None


def placed_block(view: dict[str, Any], block_id: Any) -> Block | None:
    """The block as it stands in ``view``, or None (not in the tower yet)."""
    return _tower(view).by_id.get(block_id) if isinstance(block_id, str) else None


def touching(a: Block, b: Block) -> bool:
    """Side by side, face to face, at some common height."""
    if a["id"] == b["id"] or not (a["z"] < b["z"] + b["h"] and b["z"] < a["z"] + a["h"]):
        return False
    ax1, ay1, bx1, by1 = a["x"] + a["w"], a["y"] + a["d"], b["x"] + b["w"], b["y"] + b["d"]
    across = (ax1 == b["x"] or bx1 == a["x"]) and a["y"] < by1 and b["y"] < ay1
    along = (ay1 == b["y"] or by1 == a["y"]) and a["x"] < bx1 and b["x"] < ax1
    return across or along


def _looks(block: Block) -> tuple[str, str]:
    return block["kind"], block["top"]


def neighbour(view: dict[str, Any], block: Block) -> Block | None:
    """The block beside ``block`` worth naming: the one that best tells it apart from the
    blocks that look like it at its level (then the tallest), so a player finds it. A
    block of the tower is looked up among the answers for the whole tower, worked out once
    for each tower (``_Tower``)."""
    tower = _tower(view)
    if tower.by_id.get(block.get("id")) == block:
        return tower.beside(block)
    return _neighbour(tower.placed, block)


def _neighbour(blocks: list[Block], block: Block) -> Block | None:
    near = [b for b in blocks if touching(block, b)]
    level = block["z"] + block["h"]
    alike = [b for b in blocks if b["id"] != block["id"] and _looks(b) == _looks(block)
             and b["z"] + b["h"] == level]

    def confusions(named: Block) -> int:
        """How many look-alikes also stand beside a block that looks like ``named``."""
        return sum(1 for other in alike
                   if any(touching(other, b) and _looks(b) == _looks(named) for b in blocks))

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
        tower = _tower(view)
        block = tower.by_id.get(block_id) if isinstance(block_id, str) else None
        if block is None:
            return str(block_id)
        key = (current_lang(), block["id"])
        said = tower.said.words.get(key)
        if said is None:
            said = tower.said.words[key] = f"{self.looks(block)} {self.place(view, block)}"
        return said

    def square(self, view: dict[str, Any], name: Any) -> str:
        """A square of the tower by the block whose top it is; the table by its name."""
        if name in (None, "table"):
            return _("the table")
        block_id = square_block(view, name)
        if block_id is None:
            return _("the table")
        return self.block(view, block_id)

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
        """Laying the blocking stone on a block."""
        return _("Place your blocking stone on %(block)s",
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
