"""The Climbers' "The table differs…" page in the players' words: the squares a figure may
be set on, the blocks that can be set right (those with nothing on them), and the places
and ways of lying a block's form offers, each said as the table screen's side sees the
tower (it faces +y: docs/games/climbers.md, "One orientation"). A block is named by its
look and the block beside it, as everywhere else (``words``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.climbers.data import ALL_COLOURS, BLOCKS
from companion.games.climbers.geometry import shapes
from companion.games.climbers.web.words import Words
from companion.i18n import gettext as _
from companion.i18n import ngettext

#: How many squares each way from where the companion has it a block's form offers.
SHIFT = 4


@dataclass(frozen=True)
class Choice:
    """An option of a select: the value the form sends, and what the host reads."""

    value: str
    label: str


def bare_blocks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The blocks of the tower with nothing on them, every square of their top showing:
    only those are set right alone, as one lifts a block off the real tower."""
    showing: dict[str, int] = {}
    for cell in view.get("cells") or []:
        showing[cell["block"]] = showing.get(cell["block"], 0) + 1
    return [block for block in view.get("blocks") or []
            if showing.get(block["id"], 0) == block["w"] * block["d"]]


def figure_places(view: dict[str, Any], colour: str, words: Words) -> list[Choice]:
    """Where a figure of ``colour`` may be set: the table, then every square of a top of
    its colour or grey, by its block and, on a top of several squares, which one, counted
    from the left and from the table screen as the screen sees them."""
    places = [Choice("table", _("the table"))]
    tops: dict[str, list[tuple[int, int]]] = {}
    for cell in view.get("cells") or []:
        if cell["top"] in (colour, "grey"):
            tops.setdefault(cell["block"], []).append((cell["x"], cell["y"]))
    for block_id, squares in tops.items():
        label = words.block(view, block_id)
        xs = sorted({x for x, _y in squares}, reverse=True)  # the screen's left is +x
        ys = sorted({y for _x, y in squares}, reverse=True)  # nearest the screen first
        for x, y in sorted(squares, key=lambda s: (-s[1], -s[0])):
            where = [_("square %(num)s from the left", num=xs.index(x) + 1)
                     ] if len(xs) > 1 else []
            if len(ys) > 1:
                where.append(_("%(num)s from the screen", num=ys.index(y) + 1))
            said = f"{label} ({', '.join(where)})" if where else label
            places.append(Choice(f"{x},{y}", said))
    return places


def shifts(at: int, axis: str) -> list[Choice]:
    """The places along ``axis`` a block's form offers, around ``at`` where the companion
    has it: x to the left or right, y toward or away from the table screen, as the screen
    sees the tower."""
    said: dict[tuple[str, bool], Callable[[int], str]] = {
        ("x", True): lambda n: ngettext("%(num)d square to the left",
                                        "%(num)d squares to the left", n),
        ("x", False): lambda n: ngettext("%(num)d square to the right",
                                         "%(num)d squares to the right", n),
        ("y", True): lambda n: ngettext("%(num)d square toward the screen",
                                        "%(num)d squares toward the screen", n),
        ("y", False): lambda n: ngettext("%(num)d square away from the screen",
                                         "%(num)d squares away from the screen", n),
    }
    return [Choice(str(at + step), said[(axis, step > 0)](abs(step)) if step
                   else _("where the companion has it"))
            for step in range(-SHIFT, SHIFT + 1)]


def tops(block_id: str, colour: Callable[[str], str]) -> list[Choice]:
    """The colours the block can show on top (a grey foundation, grey only)."""
    shown = {top for top, *_rest in shapes(BLOCKS[block_id])}
    return [Choice(name, colour(name)) for name in ALL_COLOURS if name in shown]


def longs(block_id: str) -> list[Choice]:
    """The ways a block's long side can run: none (a cube, or standing on a square face),
    left to right, or toward the screen. Empty for a cube, which has no long side."""
    if BLOCKS[block_id].kind.name == "cube":
        return []
    return [Choice("", _("no long side: on a square face")),
            Choice("x", _("long side from left to right")),
            Choice("y", _("long side toward the screen"))]
