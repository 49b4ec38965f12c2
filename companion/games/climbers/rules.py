"""Checking a Climbers move against the rules, and listing the legal moves.

``check`` raises :class:`IllegalMove` naming a clause of ``seeds/climbers.toml`` and never
changes the state; it returns what the move does (where a block comes to rest, whom it
pushes, where a walk ends) for ``game.apply`` to carry out. The legal moves are built from
the same geometry, so the phone only ever offers what ``check`` accepts.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from companion.games.base import (
    IllegalMove,
    Move,
    Moves,
    State,
    first_refusal,
    is_int,
    is_seat,
)
from companion.games.checks import Check, Order, named, option, well_formed
from companion.games.climbers import types
from companion.games.climbers.data import ALL_COLOURS, BLOCKS, COLOURS, FOUNDATIONS
from companion.games.climbers.geometry import (
    LADDER_BITS,
    TABLE,
    Node,
    Placed,
    Placer,
    Square,
    Tower,
    Walker,
    building_problem,
    figure_node,
    hidden,
    ladder_mask,
    ladder_names,
    node_name,
    opened_pits,
    out_of_reach,
    parse_node,
    parse_square,
    shape,
    standing_squares,
)
from companion.lru import LRU

#: How far from the tower a coordinate may be at all (anything further is a typing error).
FAR = 60
BUILDING_CLAUSES = {"support": "cl.build.support", "stone": "cl.build.stone",
                    "contact": "cl.build.contact", "push": "cl.build.push"}
#: Why a block in the tower may not move (``movable_problem``), in the order it asks.
MOVABLE_CLAUSES = ("cl.block.occupied", "cl.block.stone", "cl.block.covered",
                   "cl.block.last-moved")
#: Why a figure may not stand on a square (``Walker.stand_refusal``), in the order it asks.
STAND_CLAUSES = ("cl.figure.one-per-square", "cl.figure.stone", "cl.figure.colour")


@dataclass
class Placement:
    """A block's new place, checked: where it rests and whom it pushes aside."""

    block: str
    spot: Placed
    pushed: dict[str, str | None] = field(default_factory=dict)


#: The picker's questions that a block's place answers (``Climbers.choice_keys``).
PLACE_KEYS = frozenset(("x", "y", "top", "long"))


class Offered(Moves):
    """The legal moves of one position (``Climbers.moves``): ``first`` (the walks), each
    block's placements (``kind`` "block" or "build", for ``blocks`` in order) and ``last``
    (pass, the blocking stone, end, built), in that order; and which of the walks go lower
    than the figure stood when the turn began, as (to, ladders) pairs: such a way must end
    the turn higher than it began.

    A block may go to hundreds of places and a phone shows those of the one block its
    player tapped, so each block's placements are worked out only when asked for
    (``placements``, ``narrow``), and whether a block can go anywhere at all from its first
    place."""

    def __init__(self, first: list[Move], lower: frozenset[tuple[str, str]] = frozenset(),
                 placing: Placer | None = None, kind: str = "block",
                 blocks: list[str] | None = None, last: list[Move] | None = None) -> None:
        self.first = first
        self.lower = lower
        self._placing = placing
        self._kind = kind
        self._blocks = blocks or []
        self._last = last or []
        self._placements: dict[str, list[Move]] = {}
        self._starts: dict[str, list[Move]] = {}
        self._moves: list[Move] | None = None
        self._opening: list[Move] | None = None

    @property
    def moves(self) -> list[Move]:
        """Every legal move, in order."""
        if self._moves is None:
            self._moves = [*self.first,
                           *(move for block_id in self._blocks
                             for move in self.placements(block_id)),
                           *self._last]
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def placements(self, block_id: str) -> list[Move]:
        """Every place ``block_id`` may go to (none for a block not on offer)."""
        found = self._placements.get(block_id)
        if found is None:
            found = self._placements[block_id] = (
                placement_moves(self._placing, self._kind, block_id)
                if self._placing is not None and block_id in self._blocks else [])
        return found

    def _start(self, block_id: str) -> list[Move]:
        """The first two places of ``block_id``: whether it may move at all, and whether one
        place only settles it."""
        found = self._placements.get(block_id)
        if found is not None:
            return found[:2]
        start = self._starts.get(block_id)
        if start is None:
            assert self._placing is not None
            start = self._starts[block_id] = placement_moves(self._placing, self._kind,
                                                             block_id, at_most=2)
        return start

    def narrow(self, chosen: Mapping[str, Any]) -> list[Move]:
        """The legal moves a picker narrowed to ``chosen`` asks the same next question of
        as of every legal move (``companion.web.picker.narrow``), and none exactly when
        there are none: with a block on offer chosen, that block's places; with a place
        named without its block (a forged link), every legal move; else each block's first
        two places (enough to offer it, and to settle a block with one place only), but
        every place of a block that alone may move, as its places are asked next. The
        opening one (nothing chosen), asked at every push, is kept."""
        if chosen:
            return self._narrowed(chosen)
        if self._opening is None:
            self._opening = self._narrowed(chosen)
        return self._opening

    def _narrowed(self, chosen: Mapping[str, Any]) -> list[Move]:
        if self._placing is None:
            return self.moves
        placing = chosen.get("type", self._kind) == self._kind
        block_id = chosen.get("block")
        if placing and isinstance(block_id, str) and block_id in self._blocks:
            return [*self.first, *self.placements(block_id), *self._last]
        if placing and "block" not in chosen and PLACE_KEYS.intersection(chosen):
            return self.moves
        # No place of any block has the values chosen, or none is named yet.
        starts = {block_id: self._start(block_id) for block_id in self._blocks}
        placeable = [block_id for block_id, start in starts.items() if start]
        if len(placeable) == 1:
            starts[placeable[0]] = self.placements(placeable[0])
        return [*self.first, *(move for block_id in self._blocks
                               for move in starts[block_id]), *self._last]


@dataclass
class Walk:
    """A walk, checked: where it ends, the ladders it uses, whether it went lower than the
    turn's start."""

    to: str | None
    ladders: int
    dipped: bool
    #: Each ladder's foot and top ("x,y" or "table") and its name, in the order climbed.
    climbs: list[tuple[str, str, str]] = field(default_factory=list)


def _malformed(problem: str) -> IllegalMove:
    return IllegalMove("cl.move.malformed", problem=problem)


# --- reading the state -------------------------------------------------------------------------


#: The towers of the latest positions. Most moves (a walk, a stone, a turn's end) leave the
#: blocks where they were, and each reading of a position (its view, its legal moves, its
#: words) asks for its tower: one tower, with what it has worked out, serves them all.
TOWERS_KEPT = 32
_towers: LRU[tuple[Any, ...], Tower] = LRU(TOWERS_KEPT)
_towers_lock = threading.Lock()


def tower(state: State, without: str | None = None) -> Tower:
    """The tower of ``state``'s blocks (less ``without``), shared: read it, never change it."""
    key = (without, *((block_id, spot["x"], spot["y"], spot["z"], spot["w"], spot["d"],
                       spot["h"], spot["top"], spot["long"])
                      for block_id, spot in state["blocks"].items() if spot is not None))
    with _towers_lock:
        found = _towers.get(key)
    if found is None:
        found = Tower(state["blocks"], without)
        with _towers_lock:
            _towers.put(key, found)
    return found


def placer(state: State, built: Tower | None = None) -> Placer:
    """Where the blocks of this position may go, each on the tower without itself."""
    return Placer(state["blocks"], state["figures"], barred(state), whole_face(state), built)


def height_of(state: State, seat: int, built: Tower | None = None) -> int:
    node = figure_node(state["figures"][str(seat)])
    if node == TABLE:
        return 0
    return (built or tower(state)).height(node)


def barred(state: State) -> set[str]:
    """The blocks blocking stones lie on."""
    return set(state["blocked"].values())


def own_stone(state: State, seat: int) -> str | None:
    """The block ``seat`` laid its stone on this turn, or None. The stone goes down as the
    turn ends (cl.stone.place): it bars no step of the seat's last walk, but that walk may
    not end on it, nor the turn with the figure on it."""
    return state["blocked"].get(str(seat)) if seat == state["turn"] else None


def whole_face(state: State) -> bool:
    return state["options"]["contact"] == "face"


def walker(state: State, seat: int, built: Tower | None = None,
           named: int | None = None) -> Walker:
    built = built or tower(state)
    others = [square for s, place in state["figures"].items()
              if s != str(seat) and (square := parse_square(place)) is not None]
    ladders = sum(LADDER_BITS[name] for name in state["ladders"][str(seat)])
    return Walker(built, COLOURS[seat], others, barred(state) - {own_stone(state, seat)}, ladders,
                  state["start"]["height"], state["start"]["dipped"],
                  state["options"]["descent"] == "never", named)


def may_end(state: State, height: int, dipped: bool) -> bool:
    """Whether a turn may end with the figure at ``height``: never lower than it began, and
    higher when it went lower on the way."""
    start = state["start"]["height"]
    return height >= start and (height > start or not dipped)


def may_end_here(state: State, seat: int, built: Tower | None = None) -> bool:
    """Whether the seat's turn may end at the height its figure stands at now (``may_end``)."""
    return may_end(state, height_of(state, seat, built), state["start"]["dipped"])


def movable_problem(state: State, block_id: str, built: Tower,
                    standing: set[Square] | None = None) -> str | None:
    """Why a block cannot be moved now (a clause), or None. ``standing``: the squares the
    figures stand on (``standing_squares``), when the caller asks of many blocks."""
    squares = built.visible(block_id)
    if standing is None:
        standing = standing_squares(state["figures"])
    if not standing.isdisjoint(squares):
        return "cl.block.occupied"
    if block_id in barred(state):
        return "cl.block.stone"
    if covered(built, block_id):
        return "cl.block.covered"
    if block_id == state["last_moved"]:
        return "cl.block.last-moved"
    return None


def covered(built: Tower, block_id: str) -> bool:
    """Whether anything rests on the block's top, even on part of it."""
    spot = built.blocks[block_id]
    return len(built.visible(block_id)) < spot["w"] * spot["d"]


def movable(state: State, built: Tower | None = None) -> list[str]:
    built = built or tower(state)
    standing = standing_squares(state["figures"])
    return [block_id for block_id in state["blocks"]
            if state["blocks"][block_id] is not None
            and movable_problem(state, block_id, built, standing) is None]


def set_block(state: State, block_id: str, spot: Placed) -> list[str]:
    """Put ``block_id`` at ``spot`` in ``state`` (changed in place), last in the build
    order, as a block moved: every block then rests on blocks before it, and the order
    stays one to build the tower in (the rebuild's steps). A figure left on the floor of a
    pit the block no longer walls in stands on the table round the tower: returns their
    seats."""
    state["blocks"][block_id] = spot
    state["order"] = [*(other for other in state["order"] if other != block_id), block_id]
    opened = opened_pits(tower(state), state["figures"])
    for seat in opened:
        state["figures"][seat] = None
    return opened


def complete(state: State) -> bool:
    """Every block placed and both foundations hidden: the tower stands."""
    if any(spot is None for spot in state["blocks"].values()):
        return False
    built = tower(state)
    return all(hidden(built, block_id) for block_id in FOUNDATIONS)


# --- checking a move ---------------------------------------------------------------------------


def check_grid(move: Any) -> None:
    """A place given in fractions of a square is off the grid, not a typing error."""
    if isinstance(move, dict) and any(
            isinstance(move.get(key), float) and math.isfinite(move[key]) and abs(move[key]) < FAR
            for key in ("x", "y")):
        raise IllegalMove("cl.build.grid")


def check_values(move: Move) -> None:
    """The values of a well-formed move name real things: a block, a colour, an axis, a
    square near the tower, ladders."""
    if "block" in move and move["block"] not in BLOCKS:
        raise _malformed("block must be a block's label, such as D3")
    if "top" in move and move["top"] not in ALL_COLOURS:
        raise _malformed("top must be a colour: " + ", ".join(ALL_COLOURS))
    if "long" in move and move["long"] not in (None, "x", "y"):
        raise _malformed("long must be x, y or null")
    for key in ("x", "y"):
        if key in move and abs(move[key]) >= FAR:
            raise _malformed(f"{key} must be a whole number of squares near the tower")
    if "to" in move and parse_node(move["to"]) is None:
        raise _malformed("to must be a square \"x,y\" or \"table\"")
    if "ladders" in move and ladder_mask(move["ladders"]) is None:
        raise _malformed("ladders must be \"\", \"short\", \"long\" or \"short+long\"")


def check(state: State, seat: int, move: Any) -> Placement | Walk | None:
    """Raise the clause of the first of ``ORDER``'s checks the move fails; else return
    what it does."""
    ORDER.enforce(state, seat, move)
    if move["type"] in ("block", "build"):
        placed = placement(state, move)
        assert isinstance(placed, Placement)
        return placed
    if move["type"] == "walk":
        found = way(state, seat, move)
        assert isinstance(found, Walk)
        return found
    return None


# --- when a move of the log was held to a check (``checks.Applies``) -----------------------


def _placed(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A move that puts a block in a place."""
    return "x" in move or "y" in move


def _standing(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A block in the tower already, taken up to go elsewhere."""
    return any(block["id"] == move.get("block") for block in before["blocks"])


def _stone_laid(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """The seat laid its blocking stone this turn (``own_stone``): the turn is the mover's."""
    return str(seat) in before["blocked"]


def _after_the_block(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    return bool(before["step"] == "after")


# --- every move ----------------------------------------------------------------------------


@named("over", "cl.game.over")
def _over(state: State, seat: int, move: Any) -> IllegalMove | None:
    return IllegalMove("cl.game.over") if state["phase"] == "over" else None


@named("turn", "cl.turn.wait")
def _turn(state: State, seat: int, move: Any) -> IllegalMove | None:
    return None if is_seat(state, seat) and seat == state["turn"] else IllegalMove(
        "cl.turn.wait")


@named("grid", "cl.build.grid", applies=_placed)
def _grid(state: State, seat: int, move: Any) -> IllegalMove | None:
    try:
        check_grid(move)
    except IllegalMove as refusal:
        return refusal
    return None


_shape = well_formed(types.Move, "cl.move.malformed", check_values)


# --- the moment of the turn ------------------------------------------------------------------


def _when(name: str, ready: Callable[[State], bool]) -> Check:
    """The check ``name``: the move fits the moment only when ``ready(state)``."""
    def refuse(state: State, seat: int, move: Move) -> IllegalMove | None:
        return None if ready(state) else IllegalMove("cl.turn.phase")
    return Check(name, refuse, ("cl.turn.phase",))


_building = _when("building", lambda state: state["phase"] == "build")
_own_tower = _when("own-tower", lambda state: state["options"]["tower"] == "own")
_playing = _when("playing", lambda state: state["phase"] == "play")
_not_walked = _when("walked", lambda state: not state["walked"])
_before_block = _when("before-block", lambda state: state["step"] == "before")
_after_block = _when("after-block", lambda state: state["step"] == "after")


@named("unplaced", "cl.setup.unplaced")
def _unplaced(state: State, seat: int, move: Move) -> IllegalMove | None:
    return None if complete(state) else IllegalMove("cl.setup.unplaced")


@named("not-stuck", "cl.turn.restart")
def _not_stuck(state: State, seat: int, move: Move) -> IllegalMove | None:
    return None if stuck(state, seat) else IllegalMove("cl.turn.restart")


# --- a block's place -----------------------------------------------------------------------


@named("entered", "cl.move.malformed")
def _entered(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The own tower: a block is entered again only once every block is, where a grey
    foundation still shows, and never a foundation."""
    if state["blocks"][move["block"]] is not None and (
            move["block"] in FOUNDATIONS
            or any(spot is None for spot in state["blocks"].values()) or complete(state)):
        return _malformed("that block is already in the tower")
    return None


@named("movable", *MOVABLE_CLAUSES, applies=_standing)
def _movable(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A block taken up: no figure on it, no stone, nothing on it, not moved last."""
    if state["blocks"][move["block"]] is None:
        return None
    problem = movable_problem(state, move["block"], tower(state))
    return None if problem is None else IllegalMove(problem, block=move["block"])


@named("lies", "cl.block.shape")
def _lies(state: State, seat: int, move: Move) -> IllegalMove | None:
    if shape(BLOCKS[move["block"]], move["top"], move["long"]) is None:
        return IllegalMove("cl.block.shape", block=move["block"])
    return None


@named("elsewhere", "cl.block.elsewhere", applies=_standing)
def _elsewhere(state: State, seat: int, move: Move) -> IllegalMove | None:
    current = state["blocks"][move["block"]]
    if current is not None and (move["x"], move["y"], move["top"], move["long"]) == (
            current["x"], current["y"], current["top"], current["long"]):
        return IllegalMove("cl.block.elsewhere", block=move["block"])
    return None


@named("where", *BUILDING_CLAUSES.values())
def _where(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The building rules: resting whole, not on a stone, touching, room to push aside."""
    found = placement(state, move)
    return found if isinstance(found, IllegalMove) else None


def placement(state: State, move: Move) -> Placement | IllegalMove:
    """Where a block of a checked shape comes to rest, and whom it pushes, or the building
    rule it breaks there."""
    block_id = move["block"]
    dims = shape(BLOCKS[block_id], move["top"], move["long"])
    assert dims is not None
    w, d, h = dims
    rest = tower(state, without=block_id)
    problem, z, pushed = building_problem(rest, move["x"], move["y"], w, d, h,
                                          state["figures"], barred(state), whole_face(state))
    if problem is not None:
        return IllegalMove(BUILDING_CLAUSES[problem], block=block_id)
    return Placement(block_id, {"x": move["x"], "y": move["y"], "z": z, "w": w, "d": d,
                                "h": h, "top": move["top"], "long": move["long"]}, pushed)


# --- the blocking stone and the turn's end -------------------------------------------------


@named("stone-used", "cl.stone.used")
def _stone_used(state: State, seat: int, move: Move) -> IllegalMove | None:
    return None if state["stones"][str(seat)] == "unused" else IllegalMove("cl.stone.used")


@named("stone-higher", "cl.figure.higher")
def _stone_higher(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A free block whose stone would leave no way to end the turn higher."""
    built = tower(state)
    if move["block"] not in stone_spots(state, seat, built) and \
            move["block"] in free_surfaces(state, seat, built) and \
            not may_end_here(state, seat, built):
        return IllegalMove("cl.figure.higher")  # the only ways up end on that block
    return None


@named("stone-free", "cl.stone.free")
def _stone_free(state: State, seat: int, move: Move) -> IllegalMove | None:
    if move["block"] not in stone_spots(state, seat):
        return IllegalMove("cl.stone.free", block=move["block"])
    return None


@named("end-higher", "cl.figure.higher")
def _end_higher(state: State, seat: int, move: Move) -> IllegalMove | None:
    return None if may_end_here(state, seat) else IllegalMove("cl.figure.higher")


@named("end-on-stone", "cl.stone.free", applies=_stone_laid)
def _end_on_stone(state: State, seat: int, move: Move) -> IllegalMove | None:
    if _on_own_stone(state, seat, tower(state), figure_node(state["figures"][str(seat)])):
        return IllegalMove("cl.stone.free", block=own_stone(state, seat))
    return None


END: Move = {"type": "end"}


def _end_refusal(state: State, seat: int) -> IllegalMove | None:
    """Why the seat's turn cannot end where its figure stands now, or None: the end's own
    checks, in their order."""
    return _end_higher(state, seat, END) or _end_on_stone(state, seat, END)


# --- a walk --------------------------------------------------------------------------------


@named("place", "cl.move.malformed")
def _place(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A square of the tower, a pit, or the table."""
    if parse_node(move["to"]) not in walker(state, seat).places():
        return _malformed("to must be a square of the tower, or \"table\"")
    return None


@named("here", "cl.figure.reach")
def _here(state: State, seat: int, move: Move) -> IllegalMove | None:
    at = figure_node(state["figures"][str(seat)])
    return IllegalMove("cl.figure.reach") if parse_node(move["to"]) == at else None


@named("own-stone", "cl.stone.free", applies=_stone_laid)
def _own_stone(state: State, seat: int, move: Move) -> IllegalMove | None:
    """Not onto the block the seat laid its stone on this turn."""
    target = parse_node(move["to"])
    assert target is not None
    if _on_own_stone(state, seat, tower(state), target):
        return IllegalMove("cl.stone.free", block=own_stone(state, seat))
    return None


@named("stand", *STAND_CLAUSES)
def _stand(state: State, seat: int, move: Move) -> IllegalMove | None:
    """The target itself: another figure, a stone, another colour."""
    target = parse_node(move["to"])
    assert target is not None
    refusal = walker(state, seat).stand_refusal(target)
    return None if refusal is None else IllegalMove(refusal)


@named("spent", "cl.ladder.once")
def _spent(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A ladder named that the seat used already."""
    mask = ladder_mask(move["ladders"])
    assert mask is not None
    return IllegalMove("cl.ladder.once") if mask & ~walker(state, seat).held else None


@named("way", "cl.figure.higher", "cl.figure.reach", *STAND_CLAUSES, "cl.ladder.once",
       "cl.figure.step", "cl.ladder.short", "cl.figure.diagonal", "cl.figure.colour-way",
       "cl.ladder.long", "cl.ladder.chain", "cl.figure.never-down",
       when={"cl.figure.higher": _after_the_block,
             "cl.figure.never-down": option("descent", "never")})
def _way(state: State, seat: int, move: Move) -> IllegalMove | None:
    """A way there with exactly the ladders named, that lets the turn end after the block
    move: else what stops the nearest attempt (``way``)."""
    found = way(state, seat, move)
    return found if isinstance(found, IllegalMove) else None


def way(state: State, seat: int, move: Move) -> Walk | IllegalMove:
    """The walk the player describes: to ``to`` with exactly the ladders named. One search,
    with those ladders only, finds the ways there or notes the first rule that stops the
    nearest attempt (``Walker.why_not``); a place out of the figure's reach, which no way
    of steps it can climb reaches whatever stands in it, names that reach first."""
    start = figure_node(state["figures"][str(seat)])
    target = parse_node(move["to"])
    mask = ladder_mask(move["ladders"])
    assert target is not None and mask is not None
    walking = walker(state, seat, tower(state), named=mask)
    ways = walking.reach(start).get(target, [])
    if state["step"] == "after":
        ending = [(used, dipped) for used, dipped in ways
                  if may_end(state, walking.height(target), dipped)]
        if ways and not ending:
            return IllegalMove("cl.figure.higher")
        ways = ending
    for used, dipped in ways:
        if used == mask:
            climbs = [(node_name(foot), node_name(top), ladder_names(ladder))
                      for foot, top, ladder in walking.ladder_steps(start, target, used, dipped)]
            return Walk(None if target == TABLE else node_name(target), used, dipped, climbs)
    if ways:  # there, but without every ladder named: name only the ladders climbed
        needless = {LADDER_BITS["short"]: "cl.ladder.short", LADDER_BITS["long"]: "cl.ladder.long"}
        one = needless.get(mask) if all(used == 0 for used, _ in ways) else None
        return IllegalMove(one or "cl.figure.reach")
    if out_of_reach(walking.tower, start, target, walking.held):
        return IllegalMove("cl.figure.reach")  # too high, whatever stands in the way
    rule, params = walking.why_not(start, target)
    return IllegalMove(rule, **params)


_BLOCK = (_movable, _lies, _elsewhere, _where)
#: Every check a move goes through, in order (docs/games/climbers.md, "Which rule a
#: refusal names").
ORDER = Order(
    first=(_over, _turn, _grid, _shape),
    by_kind={
        "built": (_building, _unplaced),
        "build": (_building, _own_tower, _entered, *_BLOCK),
        "restart": (_playing, _not_stuck),
        "walk": (_playing, _not_walked, _place, _here, _own_stone, _stand, _spent, _way),
        "block": (_playing, _before_block, *_BLOCK),
        "pass": (_playing, _before_block),
        "stone": (_playing, _after_block, _stone_used, _stone_higher, _stone_free),
        "end": (_playing, _after_block, _end_higher, _end_on_stone),
    },
)


# --- the legal moves ---------------------------------------------------------------------------


def _attempts(state: State, seat: int, chosen: Mapping[str, Any]) -> list[Move]:
    """What a player tapping a greyed square or block most likely means: to walk there
    with no ladder (the refusal names the nearest thing in the way), to move the block
    picked to that square as it lies, or to move that block one place along."""
    to, block_id = chosen.get("to"), chosen.get("block")
    if isinstance(to, str) and (node := parse_node(to)) is not None \
            and node in walker(state, seat).places():
        return [{"type": "walk", "to": to, "ladders": ""}]
    spot = state["blocks"].get(block_id) if isinstance(block_id, str) else None
    if spot is None:
        return []
    if chosen.get("type") == "stone":  # the blocking stone, tapped onto a block
        return [{"type": "stone", "block": block_id}]
    kind = "build" if state["phase"] == "build" else "block"
    x, y = chosen.get("x"), chosen.get("y")
    if is_int(x) and is_int(y):  # a greyed square where the block would go
        return [{"type": kind, "block": block_id, "x": x, "y": y,
                 "top": chosen.get("top", spot["top"]), "long": chosen.get("long", spot["long"])}]
    return [{"type": kind, "block": block_id, "x": spot["x"] + spot["w"], "y": spot["y"],
             "top": spot["top"], "long": spot["long"]}]


def why_not(state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
    """The rule that stops every move with the values ``chosen`` (see ``Game.why_not``)."""
    waiting = state["phase"] == "over" or seat != state["turn"]
    return first_refusal(lambda move: check(state, seat, move), _attempts(state, seat, chosen),
                         IllegalMove("cl.turn.wait") if waiting
                         else IllegalMove("cl.figure.reach"))


def offered(state: State, seat: int) -> Offered:
    """Every legal move of ``seat``, with the walks among them that go lower; the blocks'
    places worked out as asked for."""
    if state["phase"] == "over" or not is_seat(state, seat) or seat != state["turn"]:
        return Offered([])
    if state["phase"] == "build":
        return _build_offered(state)
    built = tower(state)
    ways = [] if state["walked"] else walk_ways(state, seat, built)
    walking = [move for move, _ in ways]
    lower = frozenset((move["to"], move["ladders"]) for move, dipped in ways if dipped)
    if state["step"] == "before":
        return Offered(walking, lower, placer(state, built), "block", movable(state, built),
                       [{"type": "pass"}])
    ending = _end_refusal(state, seat)
    if not walking and ending is not None and ending.rule == "cl.figure.higher":
        return Offered([{"type": "restart"}])
    last: list[Move] = [{"type": "stone", "block": block_id}
                        for block_id in stone_spots(state, seat, built, ways)]
    if ending is None:
        last.append({"type": "end"})
    return Offered(walking, lower, last=last)


def stuck(state: State, seat: int, built: Tower | None = None) -> bool:
    """Whether the turn can no longer end: the figure went lower before the block move, and
    no walk left takes it higher than it began. The player puts everything back and starts
    the turn again."""
    if state["step"] != "after" or may_end_here(state, seat, built):
        return False
    return not walk_ways(state, seat, built)


def walk_ways(state: State, seat: int, built: Tower | None = None) -> list[tuple[Move, bool]]:
    """Every walk the seat's figure can make now, with the fewest ladders for each place,
    each with whether it goes lower than the figure stood when the turn began (a way that
    does must end the turn higher than it began)."""
    built = built or tower(state)
    walking = walker(state, seat, built)
    start = figure_node(state["figures"][str(seat)])
    found = []
    for target, ways in walking.reach(start).items():
        if _on_own_stone(state, seat, built, target):
            continue  # the stone laid this turn goes there as the turn ends
        for used, dipped in ways:
            if state["step"] == "after" and not may_end(state, walking.height(target), dipped):
                continue
            found.append(({"type": "walk", "to": node_name(target),
                           "ladders": ladder_names(used)}, dipped))
    return sorted(found, key=lambda way: (way[0]["to"] != TABLE, way[0]["to"],
                                          way[0]["ladders"]))


def stone_spots(state: State, seat: int, built: Tower | None = None,
                ways: list[tuple[Move, bool]] | None = None) -> list[str]:
    """The blocks the seat's stone may go on: some of the top showing, no other figure
    there, no other stone; and the turn can still end with the block free, the figure
    off it where it stands or after the last walk (``ways``: ``walk_ways``, when the
    caller has them)."""
    if state["stones"][str(seat)] != "unused":
        return []
    built = built or tower(state)
    ends = [figure_node(move["to"]) for move, _ in
            (walk_ways(state, seat, built) if ways is None else ways)]
    if may_end_here(state, seat, built):
        ends.append(figure_node(state["figures"][str(seat)]))
    return [block_id for block_id in free_surfaces(state, seat, built)
            if any(end not in built.visible(block_id) for end in ends)]


def free_surfaces(state: State, seat: int, built: Tower) -> list[str]:
    """The blocks with some of the top showing, no other figure than the seat's there, and
    no stone."""
    own = str(seat)
    standing = {figure_node(place) for s, place in state["figures"].items()
                if place is not None and s != own}
    taken = barred(state)
    return [block_id for block_id in built.blocks
            if block_id not in taken and (squares := built.visible(block_id))
            and standing.isdisjoint(squares)]


def _on_own_stone(state: State, seat: int, built: Tower, node: Node) -> bool:
    """Whether ``node`` is on the block the seat laid its stone on this turn (``own_stone``),
    where neither the last walk nor the turn may end."""
    stone = own_stone(state, seat)
    return stone is not None and node in built.visible(stone)


def placement_moves(placing: Placer, kind: str, block_id: str,
                    at_most: int | None = None) -> list[Move]:
    """The places ``block_id`` may go to, in order (the first ``at_most`` only)."""
    found = islice(placing.placements(block_id, BLOCKS[block_id]), at_most)
    return [{"type": kind, "block": block_id, "top": top, "long": long, "x": x, "y": y}
            for top, long, x, y in found]


def _build_offered(state: State) -> Offered:
    """The moves that enter a tower the players build: the first block left of each kind
    anywhere it may go; then, the tower standing, "built"; or every block entered yet a
    grey foundation showing, any block with nothing on it put where it really stands."""
    if state["options"]["tower"] != "own":
        return Offered([], last=[{"type": "built"}])
    placing = placer(state)
    entering: list[str] = []
    seen = set()
    for block_id, spot in state["blocks"].items():
        block = BLOCKS[block_id]
        kind = (block.kind.name, block.square_pair)
        if spot is None and kind not in seen:  # blocks alike: offer the first one left
            seen.add(kind)
            entering.append(block_id)
    if complete(state):
        return Offered([], placing=placing, kind="build", blocks=entering,
                       last=[{"type": "built"}])
    if not seen:  # a block entered in the wrong place
        entering = [block_id for block_id in state["blocks"]
                    if block_id not in FOUNDATIONS
                    and movable_problem(state, block_id, placing.whole,
                                        placing.standing) is None]
    return Offered([], placing=placing, kind="build", blocks=entering)
