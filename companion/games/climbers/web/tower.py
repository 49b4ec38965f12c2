"""The Climbers' tower as the browser draws it: one short record per block, figure and
ladder, read from a public view. ``static/js/games/climbers/`` projects them in 3-D from where
each viewer sits.

Each record is a list item of its own (``games/climbers/tower_data.html``), keyed by what
it stands for (``tb-C4``, ``tf-0``), so a move's push carries only the records it changed:
the block moved, a figure, the stone. Records are kept in a fixed order (blocks by id,
figures by seat) so that a moved block never reorders the list.

Pure Python (no Flask): the words come from the caller.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

from companion.games.climbers.data import BLOCKS, OPPOSITE_PAIRS, opposite
from companion.games.climbers.geometry import parse_square

#: The six faces of a block, in the order a record lists their colours.
FACES = ("top", "bottom", "east", "west", "north", "south")
COLOURS = {colour for pair in OPPOSITE_PAIRS for colour in pair}


def face_colours(block: dict[str, Any]) -> dict[str, str]:
    """The colour on each of the block's six faces.

    The top is ``top`` and the bottom its opposite. The two other opposite pairs go round
    the sides by a fixed convention (only the colour on top counts in play): a block's
    square faces (half-cubes and double cubes) face along its odd edge; otherwise the first
    remaining pair faces along x, the second along y, the pair's first colour east / north.
    Foundations are grey all over."""
    if block.get("kind") == "foundation" or block.get("top") not in COLOURS:
        return dict.fromkeys(FACES, "grey")
    top = block["top"]
    rest: list[tuple[str, str]] = [(a, b) for a, b in OPPOSITE_PAIRS if top not in (a, b)]
    known = BLOCKS.get(block.get("id", ""))
    square = known.square_pair if known is not None else None
    w, d, h = block["w"], block["d"], block["h"]
    if square is not None and tuple(square) in rest:
        odd_axis = "x" if (w != d and d == h) else "y" if (d != w and w == h) else None
        if odd_axis is not None:
            other = next(pair for pair in rest if pair != tuple(square))
            pair = (square[0], square[1])
            rest = [pair, other] if odd_axis == "x" else [other, pair]
    (east, west), (north, south) = rest
    return {"top": top, "bottom": opposite(top), "east": east, "west": west,
            "north": north, "south": south}


def figure_letters(seats: list[dict[str, Any]]) -> dict[int, str]:
    """The letter each figure wears, on the phones and the table screen alike: its
    player's initial, with the seat's number added where two players share one."""
    initials = {int(s["seat"]): (str(s.get("name") or "?")[:1] or "?").upper() for s in seats}
    shared = {letter for letter in initials.values()
              if list(initials.values()).count(letter) > 1}
    return {seat: f"{letter}{seat + 1}" if letter in shared else letter
            for seat, letter in initials.items()}


def block_records(view: dict[str, Any], marked: str | None,
                  stays: str | None = None) -> list[dict[str, str]]:
    """Each block standing: its item id and its record, "ID kind x y z w d h" then its six
    face colours (``FACES``), the colour of the stone lying on it ("-": none) and its mark:
    "1" for the block ``marked`` (moved this turn, or entered last), "2" for the block that
    ``stays`` put this turn (moved last turn), "0" for any other."""
    stones = {block: view["colours"][int(seat)]
              for seat, block in (view.get("blocked") or {}).items()}
    marks = {marked: "1", stays: "2"}
    return [{"id": f"tb-{block['id']}",
             "data": _block_record(*_recorded(block), stones.get(block["id"], "-"),
                                   marks.get(block["id"], "0"))}
            for block in sorted(view.get("blocks") or [], key=lambda b: b["id"])]


#: What a block's record is made of, beside its stone and its mark.
_recorded = operator.itemgetter("id", "kind", "top", "x", "y", "z", "w", "d", "h")


@functools.lru_cache(maxsize=4096)
def _block_record(block_id: str, kind: str, top: str, x: int, y: int, z: int, w: int, d: int,
                  h: int, stone: str, mark: str) -> str:
    """One block's record (``block_records``), worked out once: a move moves one block."""
    faces = face_colours({"id": block_id, "kind": kind, "top": top, "w": w, "d": d, "h": h})
    return " ".join([block_id, kind, *(str(value) for value in (x, y, z, w, d, h)),
                     *(faces[face] for face in FACES), stone, mark])


def figure_records(view: dict[str, Any], seats: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Each figure: "seat letter colour x y z", x and y "-" on the table round the tower."""
    letters = figure_letters(seats)
    heights = {(c["x"], c["y"]): c["height"] for c in view.get("cells") or []}
    records = []
    for seat in sorted(int(s) for s in view.get("figures") or {}):
        square = parse_square(view["figures"][str(seat)].get("place"))
        where = ["-", "-", "0"] if square is None else \
            [str(square[0]), str(square[1]), str(heights.get(square, 0))]
        records.append({"id": f"tf-{seat}", "seat": str(seat),
                        "name": str(seats[seat]["name"]) if seat < len(seats) else "",
                        "data": " ".join([str(seat), letters.get(seat, "?"),
                                          view["colours"][seat], *where])})
    return records


def ladder_records(view: dict[str, Any]) -> list[dict[str, str]]:
    """The ladders the last walk climbed: "name x y z x y z", foot then top ("-" for the
    table round the tower)."""
    heights = {(c["x"], c["y"]): c["height"] for c in view.get("cells") or []}
    records = []
    for index, effect in enumerate(e for e in view.get("effects") or []
                                   if e.get("kind") == "ladder"):
        ends = []
        for place in (effect.get("from"), effect.get("to")):
            square = parse_square(place)
            ends += ["-", "-", "0"] if square is None else \
                [str(square[0]), str(square[1]), str(heights.get(square, 0))]
        records.append({"id": f"tl-{index}", "data": " ".join([effect["ladder"], *ends])})
    return records
