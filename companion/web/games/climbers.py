"""The Climbers for templates: colour and block names, the tower's picture, and the phone's
top-down height map with the squares a question lights up.

Everything here reads the game's public data (the block set, the names) or a view, and the
seat's own legal moves (for the placements on offer).
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from companion.games.base import has_values
from companion.games.climbers.data import BLOCKS, SEED
from companion.games.climbers.geometry import footprint, parse_square, shape, square_name
from companion.games.registry import BY_ID as ENGINES
from companion.i18n import current_lang
from companion.web.games.climbers_build import SCREEN_SITTING, BuildWords, StepWords
from companion.web.games.climbers_picture import tower_svg
from companion.web.games.climbers_words import Words, placed_block
from companion.web.games.spec import GameSpec

#: The phone's map as its player sits, by where the table screen is from them: a model
#: square (x, y) is drawn in column a·x + b·y and row c·x + d·y, so the side of the tower
#: facing the screen (north, +y) is at the top when the screen is ahead across the table.
MAP_TURNS: dict[str, tuple[int, int, int, int]] = {
    "ahead": (1, 0, 0, -1), "left": (0, -1, -1, 0),
    "behind": (-1, 0, 0, 1), "right": (0, 1, 1, 0),
}
#: Where a block's corner nearest the origin (its anchor) lies on the map, as one sits.
ANCHOR_CORNER = {"ahead": "near-left", "left": "near-right", "behind": "far-right",
                 "right": "far-left"}
#: The quarter turns that show the tower to a builder from their side (see ``build_picture``).
BUILD_TURNS = {"behind": 0, "left": 1, "ahead": 2, "right": 3}


class ClimbersHelpers:
    def pick_json(self, chosen: dict[str, Any]) -> str:
        """A pick for the picker's URL, its keys in the order they were chosen (the chips
        above the question follow it)."""
        return json.dumps(chosen, separators=(",", ":"))

    def picture(self, view: dict[str, Any], **kwargs: Any) -> Markup:
        """The tower, each block face lettered with its colour, and its accessible name
        saying how many tops of each colour the tower shows."""
        letters = {name: self.letter(name) for name in SEED["names"]["letters"]}
        said = self.tops_said(view) if kwargs.get("upto") is None else ""
        if kwargs.get("title") and said:
            kwargs["title"] = f"{kwargs['title']}. {said}"
        return tower_svg(view, letters=letters, **kwargs)

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

    def build_words(self, view: dict[str, Any], step: int, sitting: str | None) -> StepWords:
        """Build step ``step`` in words, from the builder's side (a phone's ``sitting``; the
        table screen, with none, from its own side)."""
        return BuildWords(self.colour, self.kind).step(view.get("blocks") or [], step,
                                                       sitting or SCREEN_SITTING)

    def build_picture(self, view: dict[str, Any], step: int, sitting: str | None,
                      title: str) -> Markup:
        """The tower up to build step ``step``, its new block outlined, seen from the
        builder's side and their right, as the step's words say it. ``tower_svg`` draws the
        grid mirrored (from the north-east, north is on its left), so the blocks are given
        to it mirrored east to west: the picture is then the real tower, seen from the
        north-west, turned to the builder's side."""
        mirrored = [{**block, "x": -block["x"] - block["w"]}
                    for block in view.get("blocks") or [] if block.get("x") is not None]
        return self.picture({"blocks": mirrored, "order": view.get("order") or [],
                             "colours": view.get("colours") or []},
                            upto=step, turn=BUILD_TURNS[sitting or SCREEN_SITTING],
                            title=title, screen_side=_("Table screen"))

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

    def anchor_corner(self, sitting: str) -> str:
        """Which corner of a block its anchor square takes, on the map as one sits."""
        return ANCHOR_CORNER.get(sitting, ANCHOR_CORNER["ahead"])

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

    def seat_colour(self, view: dict[str, Any], seat: Any) -> str:
        colours = view.get("colours") or []
        try:
            return str(colours[int(seat)])
        except (ValueError, TypeError, IndexError):
            return "grey"

    def figures(self, view: dict[str, Any], seats: list[dict[str, Any]]) -> dict[int, Any]:
        """Each figure as the map shows it, by seat: its player's name and colour."""
        return {int(seat): {"seat": int(seat), "name": seats[int(seat)]["name"],
                            "colour": self.seat_colour(view, seat)}
                for seat in view.get("figures") or {}}

    def on_table(self, view: dict[str, Any]) -> list[int]:
        """The seats whose figure stands on the table."""
        return sorted(int(seat) for seat, fig in (view.get("figures") or {}).items()
                      if fig.get("place") is None)

    def anchors(self, moves: list[dict[str, Any]] | None,
                chosen: dict[str, Any]) -> dict[tuple[int, int], tuple[int, int]]:
        """The anchor squares (x, y) of the placements on offer for the chosen block and way
        up, each with its footprint's size (w, d)."""
        found: dict[tuple[int, int], tuple[int, int]] = {}
        for move in moves or []:
            if "x" not in move or "y" not in move or not has_values(move, chosen):
                continue
            dims = shape(BLOCKS[move["block"]], move["top"], move["long"]) \
                if move.get("block") in BLOCKS else None
            if dims is not None:
                found[(move["x"], move["y"])] = (dims[0], dims[1])
        return found

    def standing_offered(self, moves: list[dict[str, Any]] | None,
                         chosen: dict[str, Any]) -> bool:
        """Whether a placement with no ``long`` (a grey foundation standing) is on offer: the
        picker lists only the ways to lie, so the phone offers this one itself."""
        return any(move.get("type") in ("block", "build") and "long" in move
                   and move["long"] is None and has_values(move, chosen)
                   for move in moves or [])

    def grid(self, view: dict[str, Any], pick: Any = None,
             moves: list[dict[str, Any]] | None = None,
             sitting: str = "ahead") -> dict[str, Any]:
        """The phone's height map as its player sits (``sitting``: where the table screen is
        from them, see ``MAP_TURNS``), each cell with its height, top colour, block, figure
        and what the question asked now (``pick``) lights up on it."""
        ta, tb, tc, td = MAP_TURNS.get(sitting, MAP_TURNS["ahead"])
        cells = {(c["x"], c["y"]): c for c in view.get("cells") or []}
        figures = {}
        for seat, fig in (view.get("figures") or {}).items():
            place = parse_square(fig.get("place"))
            if place is not None:
                figures[place] = int(seat)
        blocked = {block for block in (view.get("blocked") or {}).values()}
        key = getattr(pick, "key", None)
        chosen: dict[str, Any] = dict(getattr(pick, "chosen", None) or {})
        values = list(getattr(pick, "values", None) or [])
        reach: dict[tuple[int, int], list[str]] = {}
        lit_blocks: dict[str, dict[str, Any]] = {}
        anchors: dict[tuple[int, int], tuple[int, int]] = {}
        outlined: set[tuple[int, int]] = set()
        picking_y = key == "y"
        base: dict[str, Any] = {}
        if key == "type" and "walk" in values:
            for name, ladders in (view.get("reach") or {}).items():
                place = parse_square(name)
                if place is not None:
                    reach[place] = ladders
            base = {"type": "walk"}
        if key == "type" and "block" in values:  # a block is tapped straight away too
            lit_blocks = {block: {"type": "block", "block": block}
                          for block in view.get("movable") or []}
        if key == "to":
            given = view.get("reach") or {}
            for name in values:
                place = parse_square(name)
                if place is not None:
                    reach[place] = given.get(name, [""])
            base = dict(chosen)
        elif key == "block":
            lit_blocks = {block: dict(chosen, block=block) for block in values
                          if isinstance(block, str)}
        elif key in ("x", "y"):
            anchors = self.anchors(moves, chosen)
        chosen_block = chosen.get("block")
        settled = getattr(pick, "move", None)  # only a legal move is outlined
        if settled is not None and settled["type"] in ("block", "build"):
            lying = shape(BLOCKS[settled["block"]], settled["top"], settled["long"])
            assert lying is not None, "a legal move lies some way"
            w, d, _ = lying
            outlined = set(footprint(settled["x"], settled["y"], w, d))
        elif settled is not None and settled["type"] == "walk":
            target = parse_square(settled["to"])  # the square the figure walks to
            outlined = {target} if target is not None else set()
        # The tower, and whatever else must show: the squares a block may be anchored at on
        # the table, the footprint chosen (the map grows as little as it can, so the squares
        # stay big enough to tap).
        squares = set(cells) | set(figures) or {(0, 0)}
        squares |= set(anchors) | outlined
        shown = [(ta * x + tb * y, tc * x + td * y) for x, y in squares]  # (column, row)
        min_c, max_c = min(c for c, _ in shown), max(c for c, _ in shown)
        min_r, max_r = min(r for _, r in shown), max(r for _, r in shown)
        rows = []
        for r in range(min_r, max_r + 1):
            row = []
            for c in range(min_c, max_c + 1):
                x, y = ta * c + tc * r, tb * c + td * r  # each turn's inverse is its transpose
                cell = cells.get((x, y))
                block = cell["block"] if cell else None
                entry: dict[str, Any] = {
                    "x": x, "y": y, "name": square_name((x, y)),
                    "height": cell["height"] if cell else 0,
                    "top": cell["top"] if cell else None,
                    "block": block,
                    "figure": figures.get((x, y)),
                    "blocked": block in blocked,
                    "chosen": block is not None and block == chosen_block,
                    "foot": (x, y) in outlined,
                    "pick": None, "lit": None, "ladders": None,
                }
                if (x, y) in reach:
                    entry["lit"] = "reach"
                    entry["ladders"] = reach[(x, y)]
                    entry["pick"] = dict(base, to=square_name((x, y)))
                elif block in lit_blocks:
                    entry["lit"] = "block"
                    entry["pick"] = lit_blocks[block]
                elif (x, y) in anchors and (not picking_y or x == chosen.get("x")):
                    entry["lit"] = "anchor"
                    entry["pick"] = dict(chosen, x=x, y=y)
                row.append(entry)
            rows.append(row)
        # The edges drawn thick: a block's outline, and the outline of the footprint chosen;
        # each named by the side of the map it is drawn on.
        on_map = {(0, -1): "n", (0, 1): "s", (1, 0): "e", (-1, 0): "w"}
        sides = [(on_map[(ta * dx + tb * dy, tc * dx + td * dy)], (dx, dy))
                 for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        for row in rows:
            for entry in row:
                x, y, block = entry["x"], entry["y"], entry["block"]
                edges = []
                if block is not None:
                    edges += [f"bk-{side}" for side, (dx, dy) in sides
                              if (cells.get((x + dx, y + dy)) or {}).get("block") != block]
                if entry["foot"]:
                    edges += [f"ft-{side}" for side, (dx, dy) in sides
                              if (x + dx, y + dy) not in outlined]
                entry["edges"] = " ".join(edges)
        table_pick = None
        if key == "to" and "table" in values:
            table_pick = dict(chosen, to="table")
        elif key == "type" and "table" in (view.get("reach") or {}) and "walk" in values:
            table_pick = {"type": "walk", "to": "table"}
        return {"rows": rows, "columns": max_c - min_c + 1, "table": table_pick}

    def unplaced_offered(self, view: dict[str, Any], pick: Any) -> list[str]:
        """Blocks on offer that are not in the tower yet (entering one's own tower)."""
        if getattr(pick, "key", None) != "block":
            return []
        placed = {block["id"] for block in view.get("blocks") or []}
        return [block for block in pick.values if isinstance(block, str) and block not in placed]


SPEC = GameSpec(engine=ENGINES["climbers"], helpers=ClimbersHelpers(),
                extras=("build", "build_step"))
