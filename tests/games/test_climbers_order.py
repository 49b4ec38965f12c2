"""The Climbers: which rule a refusal names. The engine's checks, in the order of
docs/games/climbers.md, and every refusal over random positions of every table option
naming the first check that fails in that order, each check stated here again as a
predicate of its own (a walk's way and the stone's place by the legal moves)."""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.climbers import Climbers, rules, types
from companion.games.climbers.data import ALL_COLOURS, BLOCKS, COLOURS, FOUNDATIONS, GREY
from companion.games.climbers.geometry import (
    TABLE,
    Tower,
    footprint,
    hidden,
    ladder_mask,
    parse_node,
    parse_square,
    pushes,
    shape,
)
from tests.refusal_order import (
    Predicate,
    agrees_with_the_docs,
    clause_if,
    documented_clauses,
    holds_at_random,
    reached,
    undeclared,
)

G = Climbers()
GAME = "climbers"
State = dict[str, Any]
Move = dict[str, Any]


# --- each check, stated again ----------------------------------------------------------


def _grid(state: State, seat: int, move: Any) -> str | None:
    off = isinstance(move, dict) and any(
        type(move.get(key)) is float and math.isfinite(move[key]) and abs(move[key]) < 60
        for key in ("x", "y"))
    return clause_if(off, "cl.build.grid")


def _shape(state: State, seat: int, move: Any) -> str | None:
    if undeclared(move, types.Move, "cl.move.malformed"):
        return "cl.move.malformed"
    wrong = (("block" in move and move["block"] not in BLOCKS)
             or ("top" in move and move["top"] not in ALL_COLOURS)
             or ("long" in move and move["long"] not in (None, "x", "y"))
             or any(key in move and abs(move[key]) >= 60 for key in ("x", "y"))
             or ("to" in move and parse_node(move["to"]) is None)
             or ("ladders" in move and ladder_mask(move["ladders"]) is None))
    return clause_if(wrong, "cl.move.malformed")


def _complete(state: State) -> bool:
    if any(spot is None for spot in state["blocks"].values()):
        return False
    built = Tower(state["blocks"])
    return all(hidden(built, block_id) for block_id in FOUNDATIONS)


def _standing(state: State, skip: str | None = None) -> set[tuple[int, int]]:
    return {parse_square(place) for s, place in state["figures"].items()
            if place is not None and s != skip}


def _movable(state: State, seat: int, move: Move) -> str | None:
    spot = state["blocks"][move["block"]]
    if spot is None:
        return None
    built = Tower(state["blocks"])
    showing = [sq for sq in footprint(spot["x"], spot["y"], spot["w"], spot["d"])
               if built.block_at(sq) == move["block"]]
    if _standing(state) & set(showing):
        return "cl.block.occupied"
    if move["block"] in state["blocked"].values():
        return "cl.block.stone"
    if len(showing) < spot["w"] * spot["d"]:
        return "cl.block.covered"
    return clause_if(move["block"] == state["last_moved"], "cl.block.last-moved")


def _where(state: State, seat: int, move: Move) -> str | None:
    w, d, h = shape(BLOCKS[move["block"]], move["top"], move["long"])
    rest = Tower(state["blocks"], without=move["block"])
    x, y = move["x"], move["y"]
    z = rest.rest_height(x, y, w, d)
    if z is None:
        return "cl.build.support"
    if z > 0 and any(rest.block_at(sq) in state["blocked"].values()
                     for sq in footprint(x, y, w, d)):
        return "cl.build.stone"
    if not rest.touches(x, y, w, d, z, h, state["options"]["contact"] == "face"):
        return "cl.build.contact"
    under = _standing(state) & set(footprint(x, y, w, d))
    return clause_if(bool(under) and pushes(rest, state["figures"], x, y, w, d) is None,
                     "cl.build.push")


def _target(move: Move) -> Any:
    return parse_node(move["to"])


def _at(state: State, seat: int) -> Any:
    return parse_square(state["figures"][str(seat)]) or TABLE


def _own_stone_squares(state: State, seat: int) -> set[Any]:
    stone = state["blocked"].get(str(seat)) if seat == state["turn"] else None
    if stone is None:
        return set()
    built = Tower(state["blocks"])
    spot = built.blocks[stone]
    return {sq for sq in footprint(spot["x"], spot["y"], spot["w"], spot["d"])
            if built.block_at(sq) == stone}


def _stand(state: State, seat: int, move: Move) -> str | None:
    target = _target(move)
    if target == TABLE:
        return None
    if target in _standing(state, skip=str(seat)):
        return "cl.figure.one-per-square"
    built = Tower(state["blocks"])
    if built.block_at(target) in state["blocked"].values():
        return "cl.figure.stone"
    return clause_if(built.colour(target) not in (COLOURS[seat], GREY), "cl.figure.colour")


def _height(state: State, seat: int) -> int:
    at = _at(state, seat)
    return 0 if at == TABLE else Tower(state["blocks"]).height(at)


def _may_end_here(state: State, seat: int) -> bool:
    start, height = state["start"], _height(state, seat)
    return height > start["height"] or (height == start["height"] and not start["dipped"])


def _offered(state: State, seat: int, move: Move) -> bool:
    return move in G.moves(state, seat)


def _free_surface(state: State, seat: int, block_id: str) -> bool:
    built = Tower(state["blocks"])
    spot = built.blocks.get(block_id)
    if spot is None:
        return False
    showing = {sq for sq in footprint(spot["x"], spot["y"], spot["w"], spot["d"])
               if built.block_at(sq) == block_id}
    return (bool(showing) and block_id not in state["blocked"].values()
            and not showing & _standing(state, skip=str(seat)))


WAY = frozenset(documented_clauses(GAME)["way"])

PREDICATES: dict[str, Predicate] = {
    "over": lambda s, seat, m: clause_if(s["phase"] == "over", "cl.game.over"),
    "turn": lambda s, seat, m: clause_if(not (type(seat) is int and 0 <= seat < s["players"])
                                         or seat != s["turn"], "cl.turn.wait"),
    "grid": _grid,
    "shape": _shape,
    "building": lambda s, seat, m: clause_if(s["phase"] != "build", "cl.turn.phase"),
    "unplaced": lambda s, seat, m: clause_if(not _complete(s), "cl.setup.unplaced"),
    "own-tower": lambda s, seat, m: clause_if(s["options"]["tower"] != "own", "cl.turn.phase"),
    "entered": lambda s, seat, m: clause_if(
        s["blocks"][m["block"]] is not None
        and (m["block"] in FOUNDATIONS or None in s["blocks"].values() or _complete(s)),
        "cl.move.malformed"),
    "movable": _movable,
    "lies": lambda s, seat, m: clause_if(shape(BLOCKS[m["block"]], m["top"], m["long"]) is None,
                                         "cl.block.shape"),
    "elsewhere": lambda s, seat, m: clause_if(
        s["blocks"][m["block"]] is not None
        and all(s["blocks"][m["block"]][key] == m[key] for key in ("x", "y", "top", "long")),
        "cl.block.elsewhere"),
    "where": _where,
    "playing": lambda s, seat, m: clause_if(s["phase"] != "play", "cl.turn.phase"),
    "not-stuck": lambda s, seat, m: clause_if(not rules.stuck(s, seat), "cl.turn.restart"),
    "walked": lambda s, seat, m: clause_if(s["walked"], "cl.turn.phase"),
    "place": lambda s, seat, m: clause_if(
        _target(m) != TABLE and _target(m) not in Tower(s["blocks"]).top
        and _target(m) not in Tower(s["blocks"]).pits(), "cl.move.malformed"),
    "here": lambda s, seat, m: clause_if(_target(m) == _at(s, seat), "cl.figure.reach"),
    "own-stone": lambda s, seat, m: clause_if(_target(m) in _own_stone_squares(s, seat),
                                              "cl.stone.free"),
    "stand": _stand,
    "spent": lambda s, seat, m: clause_if(
        bool(set(filter(None, m["ladders"].split("+"))) - set(s["ladders"][str(seat)])),
        "cl.ladder.once"),
    "way": lambda s, seat, m: None if _offered(s, seat, m) else WAY,
    "before-block": lambda s, seat, m: clause_if(s["step"] != "before", "cl.turn.phase"),
    "after-block": lambda s, seat, m: clause_if(s["step"] != "after", "cl.turn.phase"),
    "stone-used": lambda s, seat, m: clause_if(s["stones"][str(seat)] != "unused", "cl.stone.used"),
    "stone-higher": lambda s, seat, m: clause_if(
        not _offered(s, seat, m) and _free_surface(s, seat, m["block"])
        and not _may_end_here(s, seat), "cl.figure.higher"),
    "stone-free": lambda s, seat, m: clause_if(not _offered(s, seat, m), "cl.stone.free"),
    "end-higher": lambda s, seat, m: clause_if(not _may_end_here(s, seat), "cl.figure.higher"),
    "end-on-stone": lambda s, seat, m: clause_if(_at(s, seat) in _own_stone_squares(s, seat),
                                                 "cl.stone.free"),
}


# --- the docs and the engine ------------------------------------------------------------


def test_the_docs_list_the_engines_checks_in_its_order_and_each_is_stated():
    agrees_with_the_docs(GAME, rules.ORDER, PREDICATES)


# --- random positions -------------------------------------------------------------------


OPTIONS = {"tower": ["generated", "own"], "contact": ["square", "face"],
           "descent": ["allowed", "never"], "tie": ["last", "first"],
           "last_climb": ["above-all", "above-start"]}


def game(rng: random.Random) -> list[State]:
    """The positions of one table of random options: a few blocks of its own tower
    entered, or the drawn tower built and random legal moves played (a walk two times in
    five, a block move taking the first place of a random block)."""
    players = rng.randint(2, 5)
    options = {key: rng.choice(values) for key, values in OPTIONS.items()}
    state = G.setup(players, {**options, "first_seat": rng.randrange(players)},
                    rng.randrange(8))  # a few towers, drawn once (``tower.generate``)
    states = [state]
    if options["tower"] == "own":
        for _ in range(rng.randint(0, 6)):
            state = G.apply(state, state["first"], rng.choice(G.legal_moves(state,
                                                                           state["first"])))
            states.append(state)
        return states
    state = G.apply(state, state["first"], {"type": "built"})
    for _ in range(rng.choice((3, 20, 60))):
        if state["phase"] == "over":
            break
        moves = list(G.moves(state, state["turn"]))
        walks = [move for move in moves if move["type"] == "walk"]
        move = rng.choice(walks) if walks and rng.random() < 0.4 else rng.choice(moves)
        state = G.apply(state, state["turn"], move)
        states.append(state)
    return states


LADDERS = ("", "short", "long", "short+long", "long+short", "ladder")


def probe(rng: random.Random, state: State) -> tuple[Any, Any]:
    """A seat and a move to try: mostly the seat to move with a legal move changed a
    little, or a move of any kind about the tower's blocks and squares; now and then not
    a move at all, or no seat."""
    seat: Any = state["turn"] if rng.random() < 0.85 else rng.randrange(state["players"])
    legal = list(G.moves(state, seat))
    squares = sorted(Tower(state["blocks"]).top) or [(0, 0)]
    placed = [block_id for block_id, spot in state["blocks"].items() if spot is not None]
    if legal and rng.random() < 0.4:
        move = dict(rng.choice(legal))
        keys = sorted(set(move) - {"type"})
        for key in rng.sample(keys, k=min(len(keys), rng.randint(1, 2))):
            if key in ("x", "y"):
                move[key] += rng.choice((-2, -1, 1, 2))
            elif key == "top":
                move[key] = rng.choice(ALL_COLOURS)
            elif key == "long":
                move[key] = rng.choice((None, "x", "y"))
            elif key == "ladders":
                move[key] = rng.choice(LADDERS)
            elif key == "to":
                move[key] = rng.choice(["table", *(f"{x},{y}" for x, y in squares)])
            else:
                move[key] = rng.choice(placed or sorted(BLOCKS))
    else:
        kind = rng.choice(("walk", "walk", "block", "block", "pass", "stone", "end",
                           "restart", "built", "build"))
        x, y = rng.choice(squares)
        values = {"to": rng.choice(["table", f"{x},{y}", f"{x + 1},{y - 1}"]),
                  "ladders": rng.choice(LADDERS[:4]),
                  "block": rng.choice(placed if placed and rng.random() < 0.8
                                      else sorted(BLOCKS)),
                  "top": rng.choice(ALL_COLOURS), "long": rng.choice((None, None, "x", "y")),
                  "x": x + rng.randint(-2, 1), "y": y + rng.randint(-2, 1)}
        keys = {"walk": ("to", "ladders"), "block": ("block", "top", "long", "x", "y"),
                "build": ("block", "top", "long", "x", "y"), "stone": ("block",)}
        move = {"type": kind, **{key: values[key] for key in keys.get(kind, ())}}
    if placed and rng.random() < 0.05:  # a block put back as it lies
        block_id = rng.choice(placed)
        spot = state["blocks"][block_id]
        move = {"type": "block" if state["phase"] == "play" else "build", "block": block_id,
                **{key: spot[key] for key in ("top", "long", "x", "y")}}
    if rng.random() < 0.04:
        move = rng.choice([{"type": "fly"}, {**move, "extra": 1}, {**move, "x": 1.5},
                           {"type": "walk", "to": "99,0", "ladders": ""}])
    if rng.random() < 0.04:
        seat = rng.choice([-1, state["players"], True, 0.0])
    return seat, move


#: Positions random games seldom reach, on a tower of a few blocks ((id, x, y, top), each
#: resting where it falls), red to move from its square, after the moves listed: red
#: standing on the block it laid its stone on; red gone down to the table, whose stone
#: on the cube would leave no way up; a stone on the middle of three cubes.
CORNERS: list[tuple[tuple[tuple[str, int, int, str], ...], str | None, tuple[Move, ...]]] = [
    ((("C1", 2, 0, "grey"), ("C2", 4, 0, "grey")), "2,0",
     ({"type": "pass"}, {"type": "stone", "block": "C1"})),
    ((("H9", 0, 0, "grey"), ("C1", 2, 0, "grey")), "0,0",
     ({"type": "walk", "to": "table", "ladders": ""}, {"type": "pass"})),
    ((("C1", 0, 0, "grey"), ("C2", 2, 0, "grey"), ("C3", 4, 0, "grey")), "1,0", ()),
]


def corner(rng: random.Random, blocks: tuple[tuple[str, int, int, str], ...],
           red: str | None, moves: tuple[Move, ...]) -> State:
    """A corner's position at a table of random options (figures may go down), its first
    turn begun."""
    options = {key: rng.choice(values) for key, values in OPTIONS.items()}
    state = G.setup(2, {**options, "tower": "own", "descent": "allowed"}, 1)
    state["blocks"] = {block_id: None for block_id in state["blocks"]}
    state["order"] = []
    for block_id, x, y, top in blocks:
        w, d, h = shape(BLOCKS[block_id], top, None)
        z = Tower(state["blocks"]).rest_height(x, y, w, d)
        state["blocks"][block_id] = {"x": x, "y": y, "z": z, "w": w, "d": d, "h": h,
                                     "top": top, "long": None}
        state["order"].append(block_id)
    state["figures"]["0"] = red
    height = 0 if red is None else Tower(state["blocks"]).height(parse_square(red))
    state.update(phase="play", round=1, turn=0, step="before", walked=False, turns=1,
                 start={"height": height, "dipped": False}, top_before=height)
    state["turn_start"] = {key: state[key] for key in ("blocks", "order", "figures",
                                                       "ladders", "reached", "step",
                                                       "walked", "moved", "start")}
    if not moves:
        state["blocked"] = {"1": "C2"}
    for move in moves:
        state = G.apply(state, 0, move)
    return state


POSITIONS, PROBES = 8, 10


def positions(rng: random.Random) -> list[State]:
    """Positions of one random table, and the corners at a table of random options."""
    states = game(rng)
    return [*rng.sample(states, min(POSITIONS, len(states))),
            *(corner(rng, *spec) for spec in CORNERS)]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_refusal_names_the_first_check_that_fails_in_the_docs_order(seed):
    holds_at_random(G, PREDICATES, positions, probe, seed, PROBES)


def test_the_random_positions_reach_every_check():
    """The games and moves the property test draws fail every check first, somewhere: a
    check they never reach would go untested."""
    seen = reached(GAME, PREDICATES, positions, probe, 20, PROBES)
    assert seen == set(PREDICATES), sorted(set(PREDICATES) - seen)
