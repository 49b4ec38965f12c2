"""Each step of building the drawn start tower in the builder's words: the block by what one
sees of it (kind, colours, which way it lies) and its place relative to the table and the
blocks already standing, as the builder sees the tower from their side of the table.

The wooden blocks carry no codes, so nothing here names one, nor a coordinate. A place is
said so that it can be found again exactly: resting on the table against a side of one
standing block, or on top of the blocks under it, and in each case how its edges line up
with that block's (or those blocks') edges, to the square. A standing block is named by its
look (its top colour, or once that is hidden the block over it); two that look alike by
which is lower, more to the left or nearer; more than two by the step that placed them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.climbers.data import BLOCKS
from companion.games.climbers.web.words import touching
from companion.i18n import gettext as _
from companion.i18n import listed, ngettext

Block = dict[str, Any]

#: The builder's right hand and the way straight ahead of them, as (x, y) on the tower's
#: grid, by where the table screen is from them (a phone's ``sitting``).
FRAMES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "ahead": ((1, 0), (0, 1)), "left": ((0, -1), (1, 0)),
    "behind": ((-1, 0), (0, -1)), "right": ((0, 1), (-1, 0)),
}
#: The table screen words the tower from its own side, the one facing it: as a player sees
#: the tower who has the screen at their back.
SCREEN_SITTING = "behind"


@dataclass(frozen=True)
class Seen:
    """A block's extent as the builder sees it: left to right (u), near to far (v), up (z)."""

    u0: int
    u1: int
    v0: int
    v1: int
    z0: int
    z1: int


@dataclass(frozen=True)
class StepWords:
    """One build step said: the block to take, where it goes, and the standing blocks the
    words name (by id, for the checks; the words themselves never show an id)."""

    block: str
    place: str
    named: tuple[str, ...]


def seen_from(block: Block, sitting: str) -> Seen:
    return _seen(block["x"], block["y"], block["z"], block["w"], block["d"], block["h"],
                 sitting)


@lru_cache(maxsize=4096)
def _seen(x: int, y: int, z: int, w: int, d: int, h: int, sitting: str) -> Seen:
    """A block's extent turned to the builder (kept: each step compares every standing
    block, from the same sides, again and again)."""
    (rx, ry), (ax, ay) = FRAMES.get(sitting, FRAMES["ahead"])
    # Each of the builder's directions runs along one of the grid's axes, one way or back.
    u = (rx * x, rx * (x + w)) if rx else (ry * y, ry * (y + d))
    v = (ax * x, ax * (x + w)) if ax else (ay * y, ay * (y + d))
    return Seen(min(u), max(u), min(v), max(v), z, z + h)


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return max(0, min(a1, b1) - max(a0, b0))


def covers(standing: list[Block]) -> dict[str, str]:
    """Each standing block whose top is wholly hidden, with the block resting on the most
    of it (its top colour no longer shows: the words name it by that block)."""
    top: dict[tuple[int, int], tuple[int, str]] = {}
    for block in standing:
        level = block["z"] + block["h"]
        for x in range(block["x"], block["x"] + block["w"]):
            for y in range(block["y"], block["y"] + block["d"]):
                if level > top.get((x, y), (-1, ""))[0]:
                    top[(x, y)] = (level, block["id"])
    shown = {block_id for _level, block_id in top.values()}
    found = {}
    for block in standing:
        if block["id"] in shown:
            continue
        level = block["z"] + block["h"]
        resting = [(_overlap(block["x"], block["x"] + block["w"], other["x"],
                             other["x"] + other["w"])
                    * _overlap(block["y"], block["y"] + block["d"], other["y"],
                               other["y"] + other["d"]), -order, other["id"])
                   for order, other in enumerate(standing) if other["z"] == level]
        found[block["id"]] = max(resting)[2]  # no holes: something rests on a hidden top
    return found


def _under(block_id: str, hidden: dict[str, str], on_table: bool) -> tuple[str, str]:
    """How a hidden block is named: under the block on it ("under"), or, for a block on
    the table with more than one block over it, under the first block up its column whose
    top shows ("table")."""
    cover = hidden[block_id]
    if not on_table or cover not in hidden:
        return "under", cover
    while cover in hidden:
        cover = hidden[cover]
    return "table", cover


def _look(block: Block, hidden: dict[str, str]) -> tuple[str, ...]:
    """What tells blocks apart at a glance: the kind, and the colour on top (a grey
    foundation is grey all over), or for a hidden top the block over it."""
    if block["kind"] == "foundation":
        return block["kind"], ""
    if block["id"] in hidden:
        return block["kind"], *_under(block["id"], hidden, block["z"] == 0)
    return block["kind"], block["top"]


class BuildWords:
    """Build steps in the reader's language; ``colour`` and ``kind`` name a colour and a
    kind of block."""

    def __init__(self, colour: Callable[[str], str], kind: Callable[[str], str]) -> None:
        self.colour, self.kind = colour, kind

    # --- the block to take ---------------------------------------------------------------

    def block(self, block: Block, sitting: str) -> str:
        """"Double cube, lying on its side, yellow on top, long side towards you, square
        faces violet and grey"."""
        kind = self.kind(block["kind"])
        parts = [kind[:1].upper() + kind[1:]]
        seen = seen_from(block, sitting)
        wide, deep = seen.u1 - seen.u0, seen.v1 - seen.v0
        upright = wide == deep  # on a square face: standing, or a half-cube lying flat
        if block["kind"] == "half":
            parts.append(_("lying flat") if upright else _("standing on its edge"))
        elif block["kind"] != "cube":
            parts.append(_("standing upright") if upright else _("lying on its side"))
        if block["kind"] != "foundation":
            parts.append(_("%(colour)s on top", colour=self.colour(block["top"])))
        if not upright:
            parts.append(_("long side towards you") if wide > deep
                         else _("one end towards you"))
            pair = BLOCKS[block["id"]].square_pair if block["id"] in BLOCKS else None
            if pair is not None:  # which of the set's blocks: the colours of its square faces
                parts.append(_("square faces %(one)s and %(other)s",
                               one=self.colour(pair[0]), other=self.colour(pair[1])))
        return ", ".join(parts)

    # --- the blocks standing -------------------------------------------------------------

    def _noun(self, block: Block, standing: list[Block], sitting: str,
              hidden: dict[str, str]) -> str:
        if block["kind"] == "foundation":
            return self.kind(block["kind"])
        if block["id"] in hidden:
            how, over = _under(block["id"], hidden, block["z"] == 0)
            cover = self.name(next(other for other in standing if other["id"] == over),
                              standing, sitting, hidden)
            if how == "table":
                return _("%(kind)s on the table under the %(block)s",
                         kind=self.kind(block["kind"]), block=cover)
            return _("%(kind)s under the %(block)s", kind=self.kind(block["kind"]),
                     block=cover)
        return _("%(colour)s-topped %(kind)s", colour=self.colour(block["top"]),
                 kind=self.kind(block["kind"]))

    def name(self, block: Block, standing: list[Block], sitting: str,
             hidden: dict[str, str] | None = None) -> str:
        """A standing block's name, told apart from the standing blocks that look like it
        (``hidden``: ``covers(standing)``, when the caller has it already)."""
        if hidden is None:
            hidden = covers(standing)
        noun = self._noun(block, standing, sitting, hidden)
        look = _look(block, hidden)
        alike = [index for index, other in enumerate(standing) if _look(other, hidden) == look]
        if len(alike) <= 1:
            return noun
        if len(alike) == 2:
            other = next(standing[index] for index in alike if standing[index] is not block)
            return self._of_two(noun, block, other, sitting)
        step = next(index for index in alike if standing[index] is block) + 1
        return _("%(block)s from step %(n)s", block=noun, n=step)

    def _of_two(self, noun: str, block: Block, other: Block, sitting: str) -> str:
        """One of two look-alikes: the lower or upper, else the left or right, else the near
        or far one (two blocks never fill the same space)."""
        mine, theirs = seen_from(block, sitting), seen_from(other, sitting)
        if mine.z1 != theirs.z1:
            return (_("lower %(block)s", block=noun) if mine.z1 < theirs.z1
                    else _("upper %(block)s", block=noun))
        if mine.u0 + mine.u1 != theirs.u0 + theirs.u1:
            return (_("left %(block)s", block=noun) if mine.u0 + mine.u1 < theirs.u0 + theirs.u1
                    else _("right %(block)s", block=noun))
        return (_("near %(block)s", block=noun) if mine.v0 + mine.v1 < theirs.v0 + theirs.v1
                else _("far %(block)s", block=noun))

    # --- where it goes -------------------------------------------------------------------

    def _squares(self, count: int) -> str:
        return ngettext("%(num)d square", "%(num)d squares", count)

    def _edge(self, axis: str, end: str, plural: bool) -> str:
        """"its left edge", "their near edge", "its left and right edges" (``end`` "both")."""
        names: dict[tuple[str, str, bool], Callable[[], str]] = {
            ("u", "low", False): lambda: _("its left edge"),
            ("u", "high", False): lambda: _("its right edge"),
            ("v", "low", False): lambda: _("its near edge"),
            ("v", "high", False): lambda: _("its far edge"),
            ("u", "both", False): lambda: _("its left and right edges"),
            ("v", "both", False): lambda: _("its near and far edges"),
            ("u", "low", True): lambda: _("their left edge"),
            ("u", "high", True): lambda: _("their right edge"),
            ("v", "low", True): lambda: _("their near edge"),
            ("v", "high", True): lambda: _("their far edge"),
            ("u", "both", True): lambda: _("their left and right edges"),
            ("v", "both", True): lambda: _("their near and far edges"),
        }
        return names[(axis, end, plural)]()

    def _along(self, axis: str, mine: tuple[int, int], ref: tuple[int, int],
               plural: bool) -> tuple[str | None, str]:
        """How the block's edges line up with the reference's along one axis (the two
        overlap): (the edges it is flush with, "") or (None, centred between them, or so
        many squares past or in from the nearer edge)."""
        (b0, b1), (r0, r1) = mine, ref
        if b0 == r0 and b1 == r1:
            return self._edge(axis, "both", plural), ""
        if b0 == r0 or b1 == r1:
            return self._edge(axis, "low" if b0 == r0 else "high", plural), ""
        low, high = b0 - r0, b1 - r1
        if low == -high:  # as far in (or out) at both ends
            return None, _("centred between %(edges)s", edges=self._edge(axis, "both", plural))
        if abs(low) <= abs(high):
            edge, outside, by = self._edge(axis, "low", plural), low < 0, abs(low)
        else:
            edge, outside, by = self._edge(axis, "high", plural), high > 0, abs(high)
        if outside:
            return None, _("reaching %(by)s past %(edge)s", by=self._squares(by), edge=edge)
        return None, _("set %(by)s in from %(edge)s", by=self._squares(by), edge=edge)

    def _lined_up(self, *axes: tuple[str | None, str]) -> str:
        """The lines of ``_along`` said together: "flush with its left edge and its near
        and far edges", "flush with its left edge, set 1 square in from its far edge"."""
        flush = [edge for edge, _said in axes if edge is not None]
        said = [text for edge, text in axes if edge is None]
        if len(flush) == 2:
            said.insert(0, _("flush with %(edge)s and %(other)s", edge=flush[0],
                             other=flush[1]))
        elif flush:
            said.insert(0, _("flush with %(edge)s", edge=flush[0]))
        return ", ".join(said)

    def _against(self, new: Seen, block: Seen) -> tuple[str, str, int] | None:
        """Which side of ``block`` the new block rests against on the table (its face
        touching that side at some common height): the side, the axis along it, and how
        long the contact is; None when they do not touch."""
        if not (new.z0 < block.z1 and block.z0 < new.z1):
            return None
        along_u = _overlap(new.u0, new.u1, block.u0, block.u1)
        along_v = _overlap(new.v0, new.v1, block.v0, block.v1)
        if along_v and new.u1 == block.u0:
            return "left", "v", along_v
        if along_v and new.u0 == block.u1:
            return "right", "v", along_v
        if along_u and new.v1 == block.v0:
            return "near", "u", along_u
        if along_u and new.v0 == block.v1:
            return "far", "u", along_u
        return None

    def place(self, standing: list[Block], new: Block, sitting: str
              ) -> tuple[str, tuple[str, ...]]:
        """Where ``new`` goes, as one sentence, and the standing blocks it names."""
        seen = seen_from(new, sitting)
        if new["z"] > 0:
            return self._on_top(standing, seen, sitting)
        contacts = []
        for order, block in enumerate(standing):
            box = seen_from(block, sitting)
            found = self._against(seen, box)
            if found is not None:
                contacts.append((order, block, box, *found))
        hidden = covers(standing) if contacts else {}

        def rank(found: tuple[int, Block, Seen, str, str, int]) -> tuple[Any, ...]:
            """A block whose top colour shows, the longest contact, a grey foundation
            (named by its kind), a block needing no "lower" or "left" to tell it apart,
            then the one placed first."""
            order, block, _box, _side, _axis, contact = found
            look = _look(block, hidden)
            return (block["id"] in hidden, -contact, block["kind"] != "foundation",
                    sum(_look(other, hidden) == look for other in standing) > 1, order)

        if not contacts and standing:  # a part of its own: a tower split by a block moved
            return _("On the table, apart from the blocks standing, as the picture shows"), ()
        if not contacts:  # the first block: every other one touches the construction
            return _("On the table, in the middle"), ()
        _order, block, box, side, axis, _contact = min(contacts, key=rank)
        name = self.name(block, standing, sitting, hidden)
        against = {
            "left": lambda: _("against the left side of the %(block)s", block=name),
            "right": lambda: _("against the right side of the %(block)s", block=name),
            "near": lambda: _("against the near side of the %(block)s", block=name),
            "far": lambda: _("against the far side of the %(block)s", block=name),
        }[side]()
        mine = (seen.u0, seen.u1) if axis == "u" else (seen.v0, seen.v1)
        ref = (box.u0, box.u1) if axis == "u" else (box.v0, box.v1)
        text = _("On the table, %(against)s, %(aligned)s", against=against,
                 aligned=self._lined_up(self._along(axis, mine, ref, plural=False)))
        return text, (block["id"],)

    def _on_top(self, standing: list[Block], seen: Seen, sitting: str
                ) -> tuple[str, tuple[str, ...]]:
        """On the blocks whose tops it rests on, lined up with the edges of their tops
        taken together (one rectangle round them)."""
        under = []
        for order, block in enumerate(standing):
            box = seen_from(block, sitting)
            area = (_overlap(seen.u0, seen.u1, box.u0, box.u1)
                    * _overlap(seen.v0, seen.v1, box.v0, box.v1))
            if box.z1 == seen.z0 and area:
                under.append((-area, order, block, box))
        under.sort(key=lambda found: found[:2])
        hidden = covers(standing)
        the = [_("the %(block)s", block=self.name(block, standing, sitting, hidden))
               for _area, _order, block, _box in under if block["kind"] != "foundation"]
        if sum(block["kind"] == "foundation" for block in standing) == 2 == sum(
                block["kind"] == "foundation" for _area, _order, block, _box in under):
            the.insert(0, _("both grey foundations"))
        else:
            the[:0] = [_("the %(block)s", block=self.name(block, standing, sitting, hidden))
                       for _area, _order, block, _box in under if block["kind"] == "foundation"]
        boxes = [box for _area, _order, _block, box in under]
        u = (min(b.u0 for b in boxes), max(b.u1 for b in boxes))
        v = (min(b.v0 for b in boxes), max(b.v1 for b in boxes))
        plural = len(boxes) > 1
        if (seen.u0, seen.u1) == u and (seen.v0, seen.v1) == v:
            aligned = _("covering their tops exactly") if plural else _("covering its top exactly")
        else:
            aligned = self._lined_up(self._along("u", (seen.u0, seen.u1), u, plural),
                                     self._along("v", (seen.v0, seen.v1), v, plural))
        text = _("On top of %(blocks)s, %(aligned)s", blocks=listed(the), aligned=aligned)
        return text, tuple(block["id"] for _area, _order, block, _box in under)

    def step(self, blocks: list[Block], n: int, sitting: str) -> StepWords:
        """Step ``n`` (from 1) of building ``blocks`` in their order, from ``sitting``."""
        new = blocks[n - 1]
        place, named = self.place(blocks[:n - 1], new, sitting)
        return StepWords(self.block(new, sitting), place, named)


def rebuild_order(blocks: list[Block]) -> list[Block]:
    """The tower as it stands, in an order to build it again from the table up: each block
    after every block under it and, on the table, after a block it stands against where
    one can be (a tower split by a block moved has parts of their own). Blocks go in the
    order they were placed in (``blocks``, in which each rests on blocks before it)
    wherever that order allows."""
    left: list[Block] = list(blocks)
    built: list[Block] = []
    standing: set[str] = set()
    while left:
        ready = [block for block in left if all(
            other["id"] in standing for other in blocks if other["z"] + other["h"] == block["z"]
            and _overlap(block["x"], block["x"] + block["w"], other["x"], other["x"] + other["w"])
            and _overlap(block["y"], block["y"] + block["d"], other["y"],
                         other["y"] + other["d"]))]
        joined = [block for block in ready if not built or block["z"] > 0
                  or any(touching(block, other) for other in built)]
        chosen = (joined or ready or left)[0]
        left.remove(chosen)
        built.append(chosen)
        standing.add(chosen["id"])
    return built
