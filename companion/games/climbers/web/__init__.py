"""The Climbers for templates: colour and block names, the tower's records the browser draws
in 3-D, and what a phone's tower lights up for the question asked now.

Everything here reads the game's public data (the block set, the names) or a view, and the
seat's own legal moves (for the placements on offer).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from companion.games.climbers import ENGINE
from companion.games.climbers.data import BLOCKS, SEED
from companion.games.climbers.geometry import parse_square, shape
from companion.games.climbers.web import ask, correct, tower
from companion.games.climbers.web.build import (
    SCREEN_SITTING,
    BuildWords,
    StepWords,
    rebuild_order,
)
from companion.games.climbers.web.words import Words, placed_block, square_block
from companion.i18n import current_lang
from companion.i18n import gettext as _
from companion.web.spec import GameSpec, Helpers

#: Keys the phone's tower answers together with the key before them: a ghost tapped is
#: where the block goes and how it lies, all at once. "Back" drops them with it.
RIDERS = ("y", "long")


class ClimbersHelpers(Helpers):
    riders = RIDERS

    def block_items(self, view: dict[str, Any], marked: str | None = None) -> Markup:
        """The tower's blocks as the browser draws them (``tower``), ``marked``
        outlined and the block that stays put this turn (``stays_put``) marked: the list
        items of ``#cl-td`` (``tower_data.html``), each made once."""
        records = tower.block_records(view, marked, self.stays_put(view))
        return Markup("".join(_block_item(record["id"], record["data"]) for record in records))

    def stays_put(self, view: dict[str, Any]) -> str | None:
        """The block moved last turn, which the player on turn may not move: until they
        have moved a block of their own (then only that one is marked)."""
        if view.get("phase") != "play" or view.get("step") != "before":
            return None
        return view.get("last_moved")

    def block_records(self, view: dict[str, Any],
                      marked: str | None = None) -> list[dict[str, str]]:
        """The tower's blocks as records alone, for a picture of its own (a moment of the
        game's record), beside the page's own tower."""
        return tower.block_records(view, marked)

    def figure_records(self, view: dict[str, Any],
                       seats: list[dict[str, Any]]) -> list[dict[str, str]]:
        return tower.figure_records(view, seats)

    def ladder_records(self, view: dict[str, Any]) -> list[dict[str, str]]:
        return tower.ladder_records(view)

    def ask(self, view: dict[str, Any], pick: Any, moves: list[dict[str, Any]] | None,
            offer: ask.Offer | None = None) -> dict[str, str]:
        """What the phone's tower lights up for the question asked now (``ask``)."""
        return ask.ask(view, pick, moves, self.words, offer)

    def ghost_words(self, view: dict[str, Any], chosen: dict[str, Any]) -> str:
        """Where a ghost tapped puts the block, in words ("on level 6, next to …")."""
        block = chosen.get("block")
        size = ask.dims(block, chosen.get("long")) if isinstance(block, str) else None
        if size is None or not isinstance(chosen.get("x"), int) \
                or not isinstance(chosen.get("y"), int):
            return ""
        return self.words.destination(view, {"top": "", **chosen}, size)

    def figure_letters(self, seats: list[dict[str, Any]]) -> dict[int, str]:
        """The letter each figure wears, the same on every phone and the table screen."""
        return tower.figure_letters(seats)

    def letter_pairs(self) -> str:
        """Each colour and its letter, for the drawing: "red R yellow Y …"."""
        return " ".join(f"{name} {self.letter(name)}" for name in SEED["names"]["letters"])

    def tallest(self, view: dict[str, Any]) -> int:
        """The highest top of the tower (at least 1): the full length of a height bar."""
        return max([*(cell["height"] for cell in view.get("cells") or []), 1])

    def tops_said(self, view: dict[str, Any]) -> str:
        """The tower's tops by colour, for a screen reader: "Tops: 4 red (R), 2 violet (V)"."""
        counts: dict[str, int] = {}
        for block in view.get("blocks") or []:
            if block.get("kind") != "foundation" and block.get("top"):
                counts[block["top"]] = counts.get(block["top"], 0) + 1
        listed = ", ".join(f"{counts[name]} {self.colour(name)} ({self.letter(name)})"
                           for name in SEED["names"]["letters"] if name in counts)
        return _("Tops: %(list)s", list=listed) if listed else ""

    def _name(self, group: str, key: str | None) -> str:
        names = SEED["names"][group].get(key) if isinstance(key, str) else None
        if names is None:
            return str(key)
        return str(names.get(current_lang()) or names["en"])

    def build_step(self, raw: Any, steps: int) -> int:
        """The build step asked for in a page's address (``?step=``), kept between the first
        and the last: a step that does not read is the first."""
        try:
            step = int(raw)
        except (TypeError, ValueError):
            return 1
        return max(1, min(step, steps))

    def build_side(self, sitting: str | None) -> str:
        """The side a build step is said and drawn from: a phone's ``sitting``, or the table
        screen's own side (with none)."""
        return sitting or SCREEN_SITTING

    def build_words(self, view: dict[str, Any], step: int, sitting: str | None) -> StepWords:
        """Build step ``step`` in words, from the builder's side (``build_side``)."""
        return BuildWords(self.colour, self.kind).step(view.get("blocks") or [], step,
                                                       self.build_side(sitting))

    def rebuild_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view with its blocks in an order to build the tower again from the table up
        (``rebuild_order``): what "Rebuild the tower" steps through."""
        return {**view, "blocks": rebuild_order(view.get("blocks") or [])}

    def colour(self, name: str | None) -> str:
        return self._name("colours", name)

    def kind(self, kind: str | None) -> str:
        return self._name("kinds", kind)

    def letter(self, name: str | None) -> str:
        """A colour's letter, printed beside its fill for eyes that do not tell it apart."""
        return self._name("letters", name) if name else ""

    def letter_key(self) -> str:
        """Every colour's letter and name, for the map's legend ("R red, Y yellow, …")."""
        return ", ".join(f"{self.letter(name)} {self.colour(name)}"
                         for name in SEED["names"]["letters"])

    @property
    def words(self) -> Words:
        """Blocks and squares in the players' words, in the reader's language."""
        return Words(self.colour, self.kind)

    def standing_on(self, view: dict[str, Any], place: Any) -> dict[str, Any] | None:
        """The block whose top a figure stands on at ``place`` ("x,y"), or None."""
        square = parse_square(place)
        if square is None:
            return None
        block = placed_block(view, square_block(view, f"{square[0]},{square[1]}"))
        return dict(block) if block is not None else None

    def placed_block(self, view: dict[str, Any], block_id: Any) -> dict[str, Any] | None:
        return placed_block(view, block_id)

    def destination(self, view: dict[str, Any], move: dict[str, Any]) -> str:
        """Where a block move puts its block, in words ("on level 9, next to …")."""
        dims = self.shape(move.get("block"), move.get("top"), move.get("long"))
        if dims is None:
            return ""
        return self.words.destination(view, move, (dims["w"], dims["d"], dims["h"]))

    def block_kind(self, block_id: Any) -> str | None:
        block = BLOCKS.get(block_id) if isinstance(block_id, str) else None
        return block.kind.name if block else None

    def shape(self, block_id: Any, top: Any, long: Any = None) -> dict[str, Any] | None:
        """How ``block_id`` stands with ``top`` up: {pose: lying|standing|edge|cube, w, d, h};
        with ``long`` unknown, the pose the top colour gives (a foundation: standing)."""
        block = BLOCKS.get(block_id) if isinstance(block_id, str) else None
        if block is None or not isinstance(top, str):
            return None
        dims = shape(block, top, long)
        if dims is None and long is None:
            dims = shape(block, top, "x")
        if dims is None:
            return None
        w, d, h = dims
        kind = block.kind.name
        if kind == "cube":
            pose = "cube"
        elif kind == "half":
            pose = "lying" if w == d else "edge"
        else:  # double, foundation: upright on a square face, else lying on a long side
            pose = "standing" if w == d else "lying"
        return {"pose": pose, "w": w, "d": d, "h": h}

    def seat_colour_name(self, view: Mapping[str, Any], seat: int) -> str:
        """The colour of ``seat``'s figure, by which a free seat is named ("dark blue")."""
        return self.colour(self.seat_colour(view, seat))

    def seat_colour(self, view: Mapping[str, Any], seat: Any) -> str:
        colours = view.get("colours") or []
        try:
            return str(colours[int(seat)])
        except (ValueError, TypeError, IndexError):
            return "grey"

    def on_table(self, view: dict[str, Any]) -> list[int]:
        """The seats whose figure stands on the table."""
        return sorted(int(seat) for seat, fig in (view.get("figures") or {}).items()
                      if fig.get("place") is None)

    # --- "The table differs…" (games/climbers/correct.html) ---------------------------

    def correct_places(self, view: dict[str, Any],
                       seat: int) -> list[correct.Choice]:
        """Where the host may set ``seat``'s figure: the table, or a top it may stand on."""
        return correct.figure_places(view, self.seat_colour(view, seat), self.words)

    def correct_blocks(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The blocks the host may set right: those with nothing on them."""
        return correct.bare_blocks(view)

    def correct_shifts(self, at: int, axis: str) -> list[correct.Choice]:
        return correct.shifts(at, axis)

    def correct_tops(self, block_id: str) -> list[correct.Choice]:
        return correct.tops(block_id, self.colour)

    def correct_longs(self, block_id: str) -> list[correct.Choice]:
        return correct.longs(block_id)

    def unplaced_offered(self, view: dict[str, Any], pick: Any) -> list[str]:
        """Blocks on offer that are not in the tower yet (entering one's own tower)."""
        if getattr(pick, "key", None) != "block":
            return []
        placed = {block["id"] for block in view.get("blocks") or []}
        return [block for block in pick.values if isinstance(block, str) and block not in placed]


@functools.lru_cache(maxsize=4096)
def _block_item(item_id: str, record: str) -> str:
    return f'<!--i:cl-td--><i id="{escape(item_id)}" data-b="{escape(record)}"></i><!--/i-->'


SPEC = GameSpec(engine=ENGINE, helpers=ClimbersHelpers(),
                extras=("build", "build_step", "rebuild", "rebuild_step"),
                pauses={"rebuild": "cl.rebuild.under-way"},
                # The tower is drawn in the browser: a move sends the few blocks it changed.
                push_budget=(2_000, 2_000))
