"""The tower's geometry, apart from the rules of play: shapes, the height map, the building
constraints, and where a figure can walk.

The grid: x runs east, y north, z up. One unit is one figure's square across and half a
cube's edge in height. A block never rests on a hole and only a block with nothing on it
may be taken away, so every column of the tower is solid from the table up: a height map
(square → height and the block on top) describes the whole tower.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

from companion.games.climbers.data import (
    ALL_COLOURS,
    FREE_STEP,
    GREY,
    LONG_LADDER,
    SHORT_LADDER,
    Block,
)

Square = tuple[int, int]
Placed = dict[str, Any]  # {"x", "y", "z", "w", "d", "h", "top", "long"}
#: A figure's place: "x,y" on the top of a column, or the table (None) around the tower.
TABLE: Final = "table"
SIDES: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


# --- shapes ----------------------------------------------------------------------------------


def shape(block: Block, top: str, long: str | None) -> tuple[int, int, int] | None:
    """Footprint (w along x, d along y) and height of ``block`` turned with ``top`` up and its
    longer side along ``long`` ("x", "y", or None for a square footprint); None when the
    block cannot lie so."""
    if top not in ALL_COLOURS or long not in (None, "x", "y"):
        return None
    small, middle, large = block.kind.size
    if block.kind.name == "cube":
        return (small, small, small) if long is None else None
    if block.grey_all_over:
        if top != GREY:
            return None
        odd, upright = large, long is None
    else:
        odd = small if small != middle else large  # the edge that differs from the other two
        upright = top in (block.square_pair or ())
    if upright:
        return (middle, middle, odd) if long is None else None
    if long is None:
        return None
    length, width = max(odd, middle), min(odd, middle)  # on its side, the height is middle
    return (length, width, middle) if long == "x" else (width, length, middle)


def shapes(block: Block) -> list[tuple[str, str | None, int, int, int]]:
    """Every way to turn ``block``: (top, long, w, d, h)."""
    found = []
    for top in ALL_COLOURS:
        for long in (None, "x", "y"):
            dims = shape(block, top, long)
            if dims is not None:
                found.append((top, long, *dims))
    return found


def footprint(x: int, y: int, w: int, d: int) -> Iterator[Square]:
    for i in range(w):
        for j in range(d):
            yield (x + i, y + j)


def perimeter(x: int, y: int, w: int, d: int) -> Iterator[tuple[str, Square]]:
    """The squares just outside a footprint, each with the side it touches."""
    for i in range(w):
        yield "south", (x + i, y - 1)
        yield "north", (x + i, y + d)
    for j in range(d):
        yield "west", (x - 1, y + j)
        yield "east", (x + w, y + j)


def square_name(square: Square) -> str:
    return f"{square[0]},{square[1]}"


def parse_square(name: Any) -> Square | None:
    """``"x,y"`` as a square, or None when it is not one."""
    if not isinstance(name, str) or name.count(",") != 1 or len(name) > 12:
        return None
    left, right = name.split(",")
    try:
        return int(left), int(right)
    except ValueError:
        return None


# --- the height map --------------------------------------------------------------------------


class Tower:
    """The height map of the placed blocks (less ``without``, a block being moved)."""

    def __init__(self, blocks: dict[str, Placed | None], without: str | None = None) -> None:
        standing = {block_id: spot for block_id, spot in blocks.items()
                    if spot is not None and block_id != without}
        #: The blocks, lowest first (then by id).
        self.blocks: dict[str, Placed] = {
            block_id: standing[block_id]
            for block_id in sorted(standing, key=lambda block_id: (standing[block_id]["z"],
                                                                    block_id))}
        self.top: dict[Square, tuple[int, str]] = {}
        for block_id, spot in self.blocks.items():
            for square in footprint(spot["x"], spot["y"], spot["w"], spot["d"]):
                self.top[square] = (spot["z"] + spot["h"], block_id)
        #: The height of each square with a block on it: the placements ask it of every
        #: square under every footprint they try, thousands of times a position.
        self.heights: dict[Square, int] = {square: height
                                           for square, (height, _) in self.top.items()}
        # What a walker and the rules read of the tower, worked out once for it: a tower
        # is shared by every reading of its position (``rules.tower``).
        self._outer: set[Square] | None = None
        self._pits: set[Square] | None = None
        self._edges: set[Square] | None = None
        self._visible: dict[str, list[Square]] = {}

    def height(self, square: Square) -> int:
        return self.heights.get(square, 0)

    def block_at(self, square: Square) -> str | None:
        found = self.top.get(square)
        return found[1] if found else None

    def colour(self, square: Square) -> str:
        """The colour a figure would stand on there: the top block's, or the table's grey."""
        block_id = self.block_at(square)
        return GREY if block_id is None else self.blocks[block_id]["top"]

    def visible(self, block_id: str) -> list[Square]:
        """The squares of the block's top that nothing covers. Read it, never change it."""
        found = self._visible.get(block_id)
        if found is None:
            spot = self.blocks[block_id]
            found = self._visible[block_id] = [
                square for square in footprint(spot["x"], spot["y"], spot["w"], spot["d"])
                if self.block_at(square) == block_id]
        return found

    def bounds(self) -> tuple[int, int, int, int]:
        """The smallest and largest x and y the blocks cover."""
        if not self.top:
            return 0, 0, 0, 0
        xs = [x for x, _ in self.top]
        ys = [y for _, y in self.top]
        return min(xs), min(ys), max(xs), max(ys)

    def rest_height(self, x: int, y: int, w: int, d: int) -> int | None:
        """The height a block with this footprint rests at, or None when the squares under it
        are not all the same height (a hole or an overhang)."""
        heights = self.heights
        level = heights.get((x, y), 0)
        for i in range(x, x + w):
            for j in range(y, y + d):
                if heights.get((i, j), 0) != level:
                    return None
        return level

    def touches(self, x: int, y: int, w: int, d: int, z: int, h: int, whole_face: bool) -> bool:
        """Whether a block here touches the construction: resting on blocks always does
        (its whole underside lies on them); on the table a side must touch a block, over at
        least one unit square, or over the whole side with ``whole_face``."""
        if z > 0:
            return True
        if not whole_face:  # a block's square is never lower than 1
            top = self.top
            return (any((i, y - 1) in top or (i, y + d) in top for i in range(x, x + w))
                    or any((x - 1, j) in top or (x + w, j) in top for j in range(y, y + d)))
        sides: dict[str, list[int]] = {}
        for side, square in perimeter(x, y, w, d):
            sides.setdefault(side, []).append(self.height(square))
        return any(min(heights) >= h for heights in sides.values())

    def outer_table(self) -> set[Square]:
        """The bare table squares joined to the table around the tower, side by side, within
        the tower's bounds grown by one square: figures on the table walk « autour de la
        construction », never through a block. Worked out once for the tower (a walker
        asks for its pits and its edges); read it, never change it."""
        if self._outer is None:
            self._outer = self._outer_table()
        return self._outer

    def _outer_table(self) -> set[Square]:
        if not self.top:
            return set()
        x0, y0, x1, y1 = self.bounds()
        inside = {(x, y) for x in range(x0 - 1, x1 + 2) for y in range(y0 - 1, y1 + 2)}
        start = (x0 - 1, y0 - 1)
        outer = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in SIDES:
                square = (x + dx, y + dy)
                if square in inside and square not in self.top and square not in outer:
                    outer.add(square)
                    stack.append(square)
        return outer

    def pits(self) -> set[Square]:
        """Bare table squares walled in by blocks: a figure reaches them only over blocks.
        Read it, never change it."""
        if self._pits is None:
            self._pits = self._walled_in()
        return self._pits

    def _walled_in(self) -> set[Square]:
        if not self.top:
            return set()
        x0, y0, x1, y1 = self.bounds()
        outer = self.outer_table()
        return {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                if (x, y) not in self.top and (x, y) not in outer}

    def edge_squares(self) -> set[Square]:
        """Block squares a figure on the table around the tower can step onto: beside a bare
        table square of that table (not beside a pit). Read it, never change it."""
        if self._edges is None:
            outer = self.outer_table()
            self._edges = {square for square in self.top
                           if any((square[0] + dx, square[1] + dy) in outer
                                  for dx, dy in SIDES)}
        return self._edges


def hidden(tower: Tower, block_id: str) -> bool:
    """Whether no face of the block shows: every unit of its sides touches a block and its
    whole top is covered."""
    spot = tower.blocks[block_id]
    top = spot["z"] + spot["h"]
    if any(tower.height(square) < top
           for _, square in perimeter(spot["x"], spot["y"], spot["w"], spot["d"])):
        return False
    return not tower.visible(block_id)


# --- pushing figures aside -------------------------------------------------------------------


def pushes(tower: Tower, figures: dict[str, str | None], x: int, y: int, w: int,
           d: int) -> dict[str, str | None] | None:
    """Where the figures standing under a new block's footprint go: each to the nearest free
    square of the same surface that the new block leaves showing (ties in reading order,
    seats in order): the same block's top, or the floor of the same pit walled in by
    blocks. A figure on a bare square that is no pit (its wall is the block being moved)
    stands on the table round the tower (None). ``{}`` when nobody stands there, None
    when someone has no room."""
    covered = set(footprint(x, y, w, d))
    taken = {parse_square(place) for place in figures.values() if place is not None}
    moved: dict[str, str | None] = {}
    pits: set[Square] | None = None
    for seat in sorted(figures, key=int):
        square = parse_square(figures[seat])
        if square is None or square not in covered:
            continue
        block_id = tower.block_at(square)
        if block_id is not None:
            surface = set(tower.visible(block_id))
        else:
            pits = tower.pits() if pits is None else pits
            surface = pit_floor(pits, square)
            if not surface:  # the table round the tower
                taken.discard(square)
                moved[seat] = None
                continue
        free = [s for s in sorted(surface) if s not in covered and s not in taken]
        if not free:
            return None
        target = min(free, key=lambda s: (abs(s[0] - square[0]) + abs(s[1] - square[1]),
                                          -s[1], s[0]))
        taken.discard(square)
        taken.add(target)
        moved[seat] = square_name(target)
    return moved


def pit_floor(pits: set[Square], square: Square) -> set[Square]:
    """The squares of the pit ``square`` lies in (joined side by side), or none."""
    if square not in pits:
        return set()
    floor, stack = {square}, [square]
    while stack:
        sx, sy = stack.pop()
        for dx, dy in SIDES:
            near = (sx + dx, sy + dy)
            if near in pits and near not in floor:
                floor.add(near)
                stack.append(near)
    return floor


def opened_pits(tower: Tower, figures: dict[str, str | None]) -> list[str]:
    """The seats whose figures stand on a bare square that is no longer walled in: a block
    of its pit's wall was taken away, so they stand on the table round the tower."""
    pits = tower.pits()
    return [seat for seat, place in sorted(figures.items(), key=lambda item: int(item[0]))
            if (square := parse_square(place)) is not None
            and square not in tower.top and square not in pits]


# --- where a figure can walk ------------------------------------------------------------------

Node = Square | Literal["table"]  # a square, or TABLE
WalkState = tuple[Node, int, bool]  # where, the ladders used (a mask), whether it went lower
LADDER_BITS = {"short": 1, "long": 2}


def ladder_names(mask: int) -> str:
    """"", "short", "long" or "short+long" for a set of ladders."""
    return "+".join(name for name, bit in LADDER_BITS.items() if mask & bit)


def ladder_mask(names: str) -> int | None:
    if names == "":
        return 0
    mask = 0
    for name in names.split("+"):
        if name not in LADDER_BITS or mask & LADDER_BITS[name]:
            return None
        mask |= LADDER_BITS[name]
    return mask


def climb_needs(rise: int) -> tuple[int, ...]:
    """The ladder sets (masks) that can each climb one step of ``rise``: () when impossible."""
    if rise <= FREE_STEP:
        return (0,)
    options = []
    if rise in SHORT_LADDER:
        options.append(LADDER_BITS["short"])
    if rise in LONG_LADDER:
        options.append(LADDER_BITS["long"])
    return tuple(options)


class Walker:
    """Where one figure can go from where it stands, over one walk.

    ``colour`` is the figure's; ``others`` the squares other figures stand on; ``barred`` the
    blocks a blocking stone bars; ``ladders`` the mask of ladders the player still has;
    ``start_height`` the height the figure began its turn at, and ``dipped`` whether it has
    already been lower than that this turn; ``never_down`` forbids any step down. ``named``
    restricts the walk to the ladders a player named (None: any they have).

    The table around the tower is one place (``TABLE``); a pit walled in by blocks is bare
    table too, but each of its squares is a place of its own, joined only to its neighbours.
    While it searches, the walker notes in ``refused`` why each place it tried to step onto
    was refused: the first rule that stopped the nearest attempt.
    """

    def __init__(self, tower: Tower, colour: str, others: Iterable[Square],
                 barred: Iterable[str], ladders: int, start_height: int, dipped: bool,
                 never_down: bool, named: int | None = None) -> None:
        self.tower = tower
        self.colour = colour
        self.others = set(others)
        self.barred = set(barred)
        self.held = ladders
        self.named = named
        self.ladders = ladders if named is None else ladders & named
        self.start_height = start_height
        self.dipped = dipped
        self.never_down = never_down
        self.edges = tower.edge_squares()
        self.pits = tower.pits()
        #: What ``stand_refusal`` and ``neighbours`` answered for each place: a search asks
        #: them of every place once for each set of ladders it may arrive with.
        self._refusals: dict[Node, str | None] = {}
        self._next: dict[Node, list[Node]] = {}
        self._steps_from: dict[Node, list[tuple[Node, tuple[int, ...], int, bool]]] = {}
        self.refused: dict[Node, str] = {}
        #: Where each refused place was first tried from (the table is a detour).
        self.tried_from: dict[Node, Node] = {}

    def height(self, node: Node) -> int:
        return 0 if node == TABLE else self.tower.height(node)

    def may_stand(self, node: Node) -> bool:
        return self.stand_refusal(node) is None

    def stand_refusal(self, node: Node) -> str | None:
        """The clause that keeps the figure off ``node``, or None when it may stand there."""
        if node in self._refusals:
            return self._refusals[node]
        why = self._refusals[node] = self._stand_refusal(node)
        return why

    def _stand_refusal(self, node: Node) -> str | None:
        if node == TABLE:
            return None
        if node in self.others:
            return "cl.figure.one-per-square"
        if self.tower.block_at(node) in self.barred:
            return "cl.figure.stone"
        if self.tower.colour(node) not in (self.colour, GREY):
            return "cl.figure.colour"
        return None

    def places(self) -> set[Node]:
        """Every place a figure may be named at: a block's top, a pit, or the table."""
        return {TABLE, *self.tower.top, *self.pits}

    def neighbours(self, node: Node) -> list[Node]:
        """The places one step from ``node``, in order."""
        found = self._next.get(node)
        if found is None:
            found = self._next[node] = list(self._neighbours(node))
        return found

    def _neighbours(self, node: Node) -> Iterator[Node]:
        if node == TABLE:
            yield from self.edges
            return
        x, y = node
        for dx, dy in SIDES:
            square = (x + dx, y + dy)
            if square in self.tower.top or square in self.pits:
                yield square
        if node in self.edges:
            yield TABLE

    def _ladder_refusal(self, need: int, used: int, rise: int) -> str:
        """Why the ladder set ``need`` cannot climb this step now."""
        if need & used:
            return "cl.ladder.once"  # already climbed on this walk
        if not self.named:
            return "cl.figure.step"  # no ladder named: a free step climbs at most 1
        if need & ~self.held:
            return "cl.ladder.once"  # spent before
        if need == LADDER_BITS["long"] and self.named & LADDER_BITS["short"]:
            return "cl.ladder.short"  # the short ladder climbs a step of 2 only
        return "cl.figure.reach"  # a ladder held but not named for this walk

    def _refuse(self, place: Node, why: str, source: Node) -> None:
        """Note the first refusal of a place, a try from the tower before one from the
        table."""
        if place not in self.refused or (self.tried_from[place] == TABLE and source != TABLE):
            self.refused[place] = why
            self.tried_from[place] = source

    def _only_by_a_corner(self, target: Square) -> bool:
        """Whether the squares the figure may stand on that join the target side by side
        (whatever their heights) touch the table and every other such square only by a
        corner: the rulebook's diagonal step."""
        places = self.tower.top.keys() | self.pits
        island, stack = {target}, [target]
        while stack:
            x, y = stack.pop()
            for dx, dy in SIDES:
                square = (x + dx, y + dy)
                if square in places and square not in island and \
                        self.stand_refusal(square) is None:
                    island.add(square)
                    stack.append(square)
        if island & self.edges:
            return False
        return any((x + dx, y + dy) in places and (x + dx, y + dy) not in island
                   and self.stand_refusal((x + dx, y + dy)) is None
                   for x, y in island for dx in (-1, 1) for dy in (-1, 1))

    def why_not(self, start: Node, target: Node) -> tuple[str, dict[str, str]]:
        """The first rule that stops the nearest attempt to reach ``target`` (a clause and
        its parameters), in this order: the target refused from a square next to it; a
        target the figure could touch only by a corner, from where it stands or from its
        island (the rulebook's diagonal step); the refused square in the way nearest to it
        (a colour, a stone, a figure or a height): one tried from the tower, or, for a walk
        that starts on the table, one the figure tried from there that leads onto the
        target's top (``_leads_onto``); the target refused from the table round the tower
        (a detour, or the single step up from the table); else it is simply out of reach.
        A square of another colour in the way names the colour the way crosses."""
        self._explore(start)  # fills ``refused``
        if target in self.refused and self.tried_from[target] != TABLE:
            return self.refused[target], {}
        others = [node for node in self.refused if node != TABLE and node != target]
        if target == TABLE:  # the first place in the way, in the order the search met them
            return self._in_the_way(others[0]) if others else ("cl.figure.reach", {})
        tx, ty = target

        def nearest(squares: list[Square]) -> Square:
            """The square nearest the target (a tie: the smallest x, then y)."""
            return min(squares, key=lambda square: (abs(square[0] - tx) + abs(square[1] - ty),
                                                    square))

        beside = start != TABLE and abs(start[0] - tx) == 1 and abs(start[1] - ty) == 1
        if beside or self._only_by_a_corner(target):
            return "cl.figure.diagonal", {}
        in_the_way = [node for node in others if self.tried_from[node] != TABLE
                      or (start == TABLE and self._leads_onto(node, target))]
        if in_the_way:
            return self._in_the_way(nearest(in_the_way))
        if target in self.refused:
            return self.refused[target], {}
        if others:  # tried only from the table round the tower
            return self._in_the_way(nearest(others))
        return "cl.figure.reach", {}

    def _leads_onto(self, square: Square, target: Square) -> bool:
        """Whether a figure standing on ``square``, a block's top other than the target's,
        could step onto the target's top with the ladders it may use: the square touches
        that top side by side, and the step is one a ladder climbs (or a step down, where
        going down is allowed)."""
        block = self.tower.block_at(target)
        if self.tower.block_at(square) == block:
            return False
        here = self.height(square)
        for dx, dy in SIDES:
            near = (square[0] + dx, square[1] + dy)
            if near != target and (self.tower.block_at(near) != block or block is None):
                continue
            rise = self.height(near) - here
            if rise < 0:
                return not self.never_down
            if any(need & ~self.ladders == 0 for need in climb_needs(rise)):
                return True
        return False

    def _in_the_way(self, square: Square) -> tuple[str, dict[str, str]]:
        """Why a square on the way was refused: a colour names the colour the way crosses."""
        why = self.refused[square]
        if why == "cl.figure.colour":
            return "cl.figure.colour-way", {"colour": self.tower.colour(square)}
        return why, {}

    def reach(self, start: Node) -> dict[Node, list[tuple[int, bool]]]:
        """Every place the figure can end this walk at, with the ladder sets (masks) that
        get it there and whether that way goes lower than the turn's start: for each place
        only the least ladders, and a way that stays up where there is one."""
        ways: dict[Node, list[tuple[int, bool]]] = {}
        for node, used, dipped in self._explore(start):
            if node != start:
                ways.setdefault(node, []).append((used, dipped))
        return {node: _least(options) for node, options in ways.items()}

    def ladder_steps(self, start: Node, target: Node, used: int,
                     dipped: bool) -> list[tuple[Node, Node, int]]:
        """Where a walk found by ``reach`` puts its ladders: (foot, top, ladder) for each
        step that climbs with one, in the order climbed."""
        came_from = self._explore(start)
        state: WalkState | None = (target, used, dipped)
        steps = []
        while state is not None and state in came_from:
            before = came_from[state]
            if before is not None and state[1] != before[1]:
                steps.append((before[0], state[0], state[1] & ~before[1]))
            state = before
        return steps[::-1]

    def _explore(self, start: Node) -> dict[WalkState, WalkState | None]:
        """A breadth-first search over (place, ladders used, went lower): every state the
        figure can reach, with the one it was first reached from."""
        first = (start, 0, self.dipped or self.height(start) < self.start_height)
        came_from: dict[WalkState, WalkState | None] = {first: None}
        queue = deque([first])
        while queue:
            state = queue.popleft()
            node, used, dipped = state
            for step, needs, rise, lower in self._steps(node):
                low = dipped or lower
                refusals = []
                for need in needs:
                    if need & used or need & ~self.ladders:
                        refusals.append(self._ladder_refusal(need, used, rise))
                        continue
                    following = (step, used | need, low)
                    if following not in came_from:
                        came_from[following] = state
                        queue.append(following)
                if len(refusals) == len(needs):
                    once = "cl.ladder.once" in refusals
                    self._refuse(step, "cl.ladder.once" if once else refusals[0], node)
        return came_from

    def _steps(self, node: Node) -> list[tuple[Node, tuple[int, ...], int, bool]]:
        """The steps from ``node`` that only a ladder may still stop: (place, the ladder sets
        that can each climb it, the rise, whether the place is lower than the turn's start).
        Whatever else stops a step stops it whatever ladders were used: it is refused here,
        once for the walker, rather than at each state the search reaches ``node`` in."""
        found = self._steps_from.get(node)
        if found is not None:
            return found
        found = self._steps_from[node] = []
        here = self.height(node)
        for step in self.neighbours(node):
            why = self.stand_refusal(step)
            up = self.height(step)
            rise = up - here
            if why is None and rise < 0 and self.never_down:
                why = "cl.figure.never-down"
            needs = climb_needs(rise)
            if why is None and not needs:  # higher than any one ladder climbs
                why = ("cl.ladder.long" if rise > max(LONG_LADDER) + max(SHORT_LADDER)
                       else "cl.ladder.chain")
            if why is not None:
                self._refuse(step, why, node)
            else:
                found.append((step, needs, rise, up < self.start_height))
        return found


class Climber(Walker):
    """Where a figure could climb with the ladders it holds if nothing stood in its way: no
    colour, stone or figure refuses a square, and every step down is allowed. A place it
    cannot reach even so is out of its reach: too high for its steps and ladders."""

    def _stand_refusal(self, node: Node) -> str | None:
        return None


def out_of_reach(tower: Tower, start: Node, target: Node, ladders: int) -> bool:
    """Whether ``target`` is too high for a figure at ``start`` holding ``ladders`` (a
    mask): no way there climbs only steps it can climb, whatever stands in the way."""
    climber = Climber(tower, GREY, (), (), ladders, 0, False, False)
    return target not in climber.reach(start)


def _least(options: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
    """The ladder sets no smaller set beats; for each, whether it must go lower (False when a
    way that stays up exists). A smaller set that must go lower does not beat a larger one
    that stays up: a ladder may spare the figure the dip."""
    best: dict[int, bool] = {}
    for used, dipped in options:
        best[used] = best.get(used, True) and dipped
    kept = [used for used in best
            if not any(other != used and other & used == other
                       and (best[used] or not best[other]) for other in best)]
    return sorted((used, best[used]) for used in kept)


def node_name(node: Node) -> str:
    return TABLE if node == TABLE else square_name(node)


def parse_node(name: Any) -> Node | None:
    if name == TABLE:
        return TABLE
    return parse_square(name)


def figure_node(place: str | None) -> Node:
    square = parse_square(place)
    return TABLE if square is None else square


# --- building ----------------------------------------------------------------------------------


def covers_any(x: int, y: int, w: int, d: int, squares: Iterable[Square]) -> bool:
    """Whether the footprint covers any of ``squares`` (a few figures' squares)."""
    return any(x <= sx < x + w and y <= sy < y + d for sx, sy in squares)


def standing_squares(figures: dict[str, str | None]) -> set[Square]:
    """The squares the figures stand on (not the table)."""
    return {square for place in figures.values() if (square := parse_square(place))}


def building_problem(tower: Tower, x: int, y: int, w: int, d: int, h: int,
                     figures: dict[str, str | None], barred: Collection[str],
                     whole_face: bool, standing: Collection[Square] | None = None
                     ) -> tuple[str | None, int, dict[str, str | None]]:
    """Whether a block of this footprint and height can go at (x, y) on ``tower`` (the tower
    without the block itself): (None, z, the figures pushed aside) when it can, else (the
    building rule it breaks: "support", "stone", "contact" or "push", 0, {}). ``standing``:
    the squares the figures stand on, when the caller has them already."""
    z = tower.rest_height(x, y, w, d)
    if z is None:
        return "support", 0, {}
    if z > 0 and barred and any(tower.block_at(square) in barred
                                for square in footprint(x, y, w, d)):
        return "stone", 0, {}
    if not tower.touches(x, y, w, d, z, h, whole_face):
        return "contact", 0, {}
    if standing is None:
        standing = standing_squares(figures)
    # On a block's top or on the floor of a pit, the figures under the footprint are pushed
    # aside on the same surface (« rester debout sur la même surface »).
    under = covers_any(x, y, w, d, standing)
    moved = pushes(tower, figures, x, y, w, d) if under else {}
    if moved is None:
        return "push", 0, {}
    return None, z, moved


def footprint_corners(tower: Tower, w: int, d: int) -> set[Square]:
    """The corners (smallest x and y) of the w × d footprints that can hold a block: on the
    blocks (the corner square is on one) or on the table beside them (a square of the
    tower just past one of the footprint's sides). Anywhere else the footprint lies on the
    bare table touching nothing."""
    found: set[Square] = set()
    for sx, sy in tower.top:
        found.add((sx, sy))
        for y in range(sy - d + 1, sy + 1):
            found.update(((sx + 1, y), (sx - w, y)))
        for x in range(sx - w + 1, sx + 1):
            found.update(((x, sy + 1), (x, sy - d)))
    return found


@cache
def _by_dims(block: Block) -> dict[tuple[int, int, int], list[tuple[str, str | None]]]:
    """The ways to turn ``block``, by the footprint and height they give (one answer for
    the game's life: read it, never change it)."""
    by_dims: dict[tuple[int, int, int], list[tuple[str, str | None]]] = {}
    for top, long, w, d, h in shapes(block):
        by_dims.setdefault((w, d, h), []).append((top, long))
    return by_dims


class Placer:
    """The placements of each block of one position, the block tried on the tower without
    itself, for a dozen blocks at once, each block's worked out only as far as asked.

    Only a block with nothing on it is ever placed again, so taking it away changes the
    height of its own squares and nothing else. A footprint that neither covers nor borders
    those squares, and pushes no figure aside, therefore fits on the tower without the
    block exactly when it fits on the whole tower: that answer is worked out once for every
    block of the same size. Only the footprints around the block's own place, and those
    over a figure, are tried again on the tower without it. Every corner worth trying on
    the tower without the block (``footprint_corners``) is one on the whole tower too, which covers
    more squares, so nothing is missed."""

    def __init__(self, blocks: dict[str, Placed | None], figures: dict[str, str | None],
                 barred: Iterable[str], whole_face: bool, whole: Tower | None = None) -> None:
        self.blocks = blocks
        self.whole = whole or Tower(blocks)
        self.figures = figures
        self.barred = set(barred)
        self.whole_face = whole_face
        self.standing = standing_squares(figures)
        self._on_whole: dict[tuple[int, int, int], _Footprints] = {}

    def _fits(self, tower: Tower, x: int, y: int, w: int, d: int, h: int) -> bool:
        return building_problem(tower, x, y, w, d, h, self.figures, self.barred,
                                self.whole_face, self.standing)[0] is None

    def _footprints(self, w: int, d: int, h: int) -> _Footprints:
        # The height matters only to a block on the table that must touch by a whole side.
        key = (w, d, h if self.whole_face else 0)
        if key not in self._on_whole:
            origins = footprint_corners(self.whole, w, d)
            over_figures = {(x, y) for sx, sy in self.standing
                            for x in range(sx - w + 1, sx + 1)
                            for y in range(sy - d + 1, sy + 1)} & origins
            self._on_whole[key] = _Footprints(origins, sorted(origins), over_figures, {})
        return self._on_whole[key]

    def _fits_whole(self, footprints: _Footprints, x: int, y: int, w: int, d: int,
                    h: int) -> bool:
        """Whether the footprint at (x, y) fits on the whole tower, worked out once for
        every block of its size."""
        fits = footprints.fits.get((x, y))
        if fits is None:
            fits = footprints.fits[(x, y)] = self._fits(self.whole, x, y, w, d, h)
        return fits

    def placements(self, block_id: str, block: Block) -> Iterator[tuple[str, str | None, int,
                                                                        int]]:
        """Every legal (top, long, x, y) for the block, in order, but the place and face it
        has now: worked out one footprint at a time, so a caller that needs only the
        first few (is the block movable at all?) stops early."""
        current = self.blocks[block_id]
        here = None if current is None else (current["top"], current["long"], current["x"],
                                             current["y"])
        rest: Tower | None = None
        for (w, d, h), faces in _by_dims(block).items():
            footprints = self._footprints(w, d, h)
            again: set[Square] = set()
            if current is not None:  # the corners to try on the tower without the block
                bx, by = current["x"], current["y"]
                near = {(x, y) for x in range(bx - w, bx + current["w"] + 1)
                        for y in range(by - d, by + current["d"] + 1)} & footprints.origins
                again = near | footprints.over_figures
            for x, y in footprints.corners:
                if (x, y) in again:
                    rest = rest or Tower(self.blocks, without=block_id)
                    if not self._fits(rest, x, y, w, d, h):
                        continue
                elif not self._fits_whole(footprints, x, y, w, d, h):
                    continue
                for top, long in faces:
                    if (top, long, x, y) != here:
                        yield top, long, x, y


@dataclass(frozen=True)
class _Footprints:
    """The footprints of one size worth trying on the whole tower (their corners, as a set
    and in order), those over a figure, and whether each fits there (as asked)."""

    origins: set[Square]
    corners: list[Square]
    over_figures: set[Square]
    fits: dict[Square, bool]
