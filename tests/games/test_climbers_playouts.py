"""The Climbers: random legal games to the end, checking the tower and the figures after
every move; and the start towers the companion draws.

Hypothesis draws the table (players, options, first seat, seed); a generator seeded from it
picks the moves: mostly walks that stay at least as high as the turn began (the highest
often), a random block move, sometimes a pass or the blocking stone. Now and then a figure
goes down on purpose; when its turn can no longer end, the player restarts the turn (the
phone's Take back), and plays it again without going down.

Why every game ends: a turn never ends lower than it began, and nobody else's figure
changes height during it (a figure pushed aside stays on the same top), so the highest
figure never gets lower; of two rounds running one at least holds a turn ending strictly
above every figure (a round without one gives the first player a last chance, which must
top or the game ends); and no figure stands higher than all the blocks stacked (96 units).
So a game lasts at most about two hundred rounds.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.climbers import Climbers, rules
from companion.games.climbers.data import BLOCKS, COLOURS, FOUNDATIONS, GREY
from companion.games.climbers.game import TURN_START
from companion.games.climbers.geometry import Tower, footprint, hidden, parse_square, shape
from companion.games.climbers.tower import generate

G = Climbers()
#: All the blocks stacked: no figure can stand higher.
CEILING = sum(max(block.kind.size) for block in BLOCKS.values())
MAX_ROUNDS = 2 * CEILING + 2
MAX_MOVES = 20000

State = dict[str, Any]
Move = dict[str, Any]


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def check_tower(blocks: dict[str, Any]) -> None:
    """Every block placed is shaped as its top says, rests on the table or with every square
    of its underside on the top of a block, and no two blocks share any space."""
    space: dict[tuple[int, int, int], str] = {}
    for block_id, place in blocks.items():
        if place is None:
            continue
        assert shape(BLOCKS[block_id], place["top"], place["long"]) == (
            place["w"], place["d"], place["h"]), (block_id, place)
        for x, y in footprint(place["x"], place["y"], place["w"], place["d"]):
            for z in range(place["z"], place["z"] + place["h"]):
                assert (x, y, z) not in space, ("overlap", block_id, space.get((x, y, z)))
                space[(x, y, z)] = block_id
    for block_id, place in blocks.items():
        if place is not None and place["z"] > 0:
            for x, y in footprint(place["x"], place["y"], place["w"], place["d"]):
                assert (x, y, place["z"] - 1) in space, ("hole under", block_id, (x, y))
    built = Tower(blocks)
    for (x, y), (top, _) in built.top.items():  # so every column is solid
        assert all((x, y, z) in space for z in range(top)), ("hollow column", x, y)


def check_figures(state: State) -> None:
    """Each figure stands on the table, in a pit (bare table walled in by blocks) or on a
    square of the top of a column, of its own colour or grey, one per square, never on a
    block under a stone but the one its seat laid this turn; the stones lie on blocks whose
    top shows, one per seat that used its stone."""
    built = Tower(state["blocks"])
    pits = built.pits()
    barred = set(state["blocked"].values())
    squares = []
    for seat, place in state["figures"].items():
        assert state["ladders"][seat] in (["short", "long"], ["short"], ["long"], [])
        if place is None:
            continue
        square = parse_square(place)
        assert square in built.top or square in pits, (seat, place)
        assert built.colour(square) in (COLOURS[int(seat)], GREY), (seat, place)
        # The mover's own stone, laid this turn, lies under its figure until its last walk.
        assert built.block_at(square) not in barred - {rules.own_stone(state, int(seat))}
        squares.append(square)
    assert len(squares) == len(set(squares)), state["figures"]
    for seat, block_id in state["blocked"].items():
        assert state["stones"][seat] == "used" and built.visible(block_id)
    assert len(barred) == len(state["blocked"])


def heights(state: State) -> dict[int, int]:
    built = Tower(state["blocks"])
    return {seat: rules.height_of(state, seat, built) for seat in range(state["players"])}


def check_legal_apply(state: State, seat: int, moves: list[Move]) -> None:
    """Every legal move applies: all of them, or some 8 to 15 spread out (to keep it quick)."""
    for move in moves[:: max(1, len(moves) // 8)]:
        try:
            G.apply(state, seat, move)
        except IllegalMove as err:  # pragma: no cover - the failure message is the point
            pytest.fail(f"legal move {move} refused: {err.rule} {err.params}")


def target_height(state: State, move: Move) -> int:
    square = parse_square(move["to"])
    return 0 if square is None else Tower(state["blocks"]).height(square)


def pick(state: State, moves: list[Move], rng: random.Random, careful: bool) -> Move:
    """A random move: walks that do not go below the turn's start (the highest often), a
    block move or now and then a pass, and at the end sometimes the stone. A figure goes
    down on purpose only once in a while, and never when ``careful``."""
    by_kind: dict[str, list[Move]] = {}
    for move in moves:
        by_kind.setdefault(move["type"], []).append(move)
    if "restart" in by_kind:
        return by_kind["restart"][0]
    start = state["start"]["height"]
    walks = by_kind.get("walk", [])
    steady = [m for m in walks if target_height(state, m) >= start]
    if state["step"] == "before":
        if walks and not careful and rng.random() < 0.05:
            return rng.choice(walks)  # down, perhaps: the block move may open a way up
        if steady and rng.random() < 0.4:
            return _climb(state, steady, rng)
        if "block" in by_kind and rng.random() < 0.9:
            steps = stepping_stones(state, by_kind["block"])
            return rng.choice(steps if steps and rng.random() < 0.7 else by_kind["block"])
        return by_kind["pass"][0]
    if walks and ("end" not in by_kind or rng.random() < 0.8):
        return _climb(state, walks, rng)  # after the block move, every walk may end the turn
    if "stone" in by_kind and rng.random() < 0.15:
        return rng.choice(by_kind["stone"])
    return by_kind["end"][0]


def stepping_stones(state: State, moves: list[Move]) -> list[Move]:
    """The block moves that put a top the mover's figure may stand on one unit above it,
    beside the square it stands on (anywhere, from the table): a way up after the move."""
    seat = state["turn"]
    place = parse_square(state["figures"][str(seat)])
    here = rules.height_of(state, seat)
    near = None if place is None else {(place[0] + dx, place[1] + dy)
                                       for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    rests: dict[str, Tower] = {}
    found = []
    for move in moves:
        if move["top"] not in (COLOURS[seat], GREY):
            continue
        if move["block"] not in rests:
            rests[move["block"]] = Tower(state["blocks"], without=move["block"])
        w, d, h = shape(BLOCKS[move["block"]], move["top"], move["long"])  # type: ignore[misc]
        squares = set(footprint(move["x"], move["y"], w, d))
        if near is not None and not squares & near:
            continue
        z = rests[move["block"]].rest_height(move["x"], move["y"], w, d)
        if z is not None and z + h == here + 1:
            found.append(move)
    return found


def _climb(state: State, walks: list[Move], rng: random.Random) -> Move:
    if rng.random() < 0.6:
        top = max(target_height(state, m) for m in walks)
        walks = [m for m in walks if target_height(state, m) == top]
    return rng.choice(walks)


def play_out(data: st.DataObject, players: int) -> None:
    options = {
        "contact": data.draw(st.sampled_from(["square", "face"]), label="contact"),
        "descent": data.draw(st.sampled_from(["allowed", "never"]), label="descent"),
        "tie": data.draw(st.sampled_from(["last", "first"]), label="tie"),
        "last_climb": data.draw(st.sampled_from(["above-all", "above-start"]),
                                label="last_climb"),
        "first_seat": data.draw(st.integers(0, players - 1), label="first_seat"),
    }
    seed = data.draw(st.integers(0, 2**32), label="seed")
    rng = random.Random(seed)
    state = G.setup(players, options, seed % 40)  # the towers drawn are kept by seed
    first = options["first_seat"]
    assert G.legal_moves(state, first) == [{"type": "built"}]
    state = G.apply(state, first, {"type": "built"})
    turn_start = {key: state[key] for key in TURN_START}
    careful = False
    peak = 0
    for _ in range(MAX_MOVES):
        if state["phase"] == "over":
            break
        seat = state["turn"]
        assert all(G.legal_moves(state, other) == [] for other in range(players)
                   if other != seat)
        moves = G.legal_moves(state, seat)
        assert moves, "the turn is stuck"
        if state["step"] == "before":
            assert state["last_moved"] not in rules.movable(state)
        move = pick(state, moves, rng, careful)
        check_legal_apply(state, seat, moves)
        before = snapshot(state)
        after = G.apply(state, seat, move)
        for effect in after["effects"]:  # each names its clause
            assert effect["rule"] in clauses(G.id), effect
        assert snapshot(state) == before, "apply mutated its input"
        assert json.loads(json.dumps(after)) == after
        check_tower(after["blocks"])
        assert all(after["blocks"].values())
        check_figures(after)
        was, now = heights(state), heights(after)
        assert all(now[other] == was[other] for other in range(players) if other != seat)
        G.view(after, None)
        mine = G.view(after, after["turn"])
        if after["phase"] == "play" and not after["walked"]:  # its walks, as the rules say
            ways: dict[str, list[str]] = {}
            lower: dict[str, list[str]] = {}
            for walk, dipped in rules.walk_ways(after, after["turn"]):
                ways.setdefault(walk["to"], []).append(walk["ladders"])
                if dipped:
                    lower.setdefault(walk["to"], []).append(walk["ladders"])
            assert mine["reach"] == ways and mine["reach_lower"] == lower
        if move["type"] == "restart":
            careful = True
            assert {key: after[key] for key in TURN_START} == turn_start
        elif after["turns"] != state["turns"] or after["phase"] == "over":  # the turn ended
            assert now[seat] >= turn_start["start"]["height"]
            if state["start"]["dipped"]:
                assert now[seat] > turn_start["start"]["height"]
            careful = False
            assert max(now.values()) >= peak, "the highest figure got lower"
            if max(now.values()) > peak:
                assert now[seat] == max(now.values()) and not after["last_chance"]
            peak = max(now.values())
            if after["phase"] == "play":
                turn_start = {key: after[key] for key in TURN_START}
                assert after["start"] == {"height": now[after["turn"]], "dipped": False}
        state = after
        assert state["round"] <= MAX_ROUNDS
    assert state["phase"] == "over", "the game did not end"
    result = G.outcome(state)
    assert result is not None and result.reason in ("last-chance", "tie-last", "tie-first")
    final = heights(state)
    assert result.scores == final
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert all(final[s] == max(final.values()) for s in result.ranking[0])
    ranked = [final[group[0]] for group in result.ranking]
    assert ranked == sorted(ranked, reverse=True)
    assert all(G.legal_moves(state, seat) == [] for seat in range(players))
    assert G.view(state, None)["outcome"] == result.as_json()


SETTINGS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@SETTINGS
@given(data=st.data())
def test_random_games_end_cleanly(players, data):
    play_out(data, players)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_start_towers_are_legal_and_hide_the_foundations(seed):
    """Every tower drawn stands (supported, nothing overlapping), uses every block, hides
    both foundations, and its build order is a sequence of legal placements: entered block
    by block as the group's own tower, it stands."""
    blocks, order = generate(seed)
    assert sorted(order) == sorted(BLOCKS) and order[:2] == list(FOUNDATIONS)
    assert all(blocks[block_id] is not None for block_id in BLOCKS)
    check_tower(blocks)
    built = Tower(blocks)
    assert all(hidden(built, block_id) for block_id in FOUNDATIONS)
    state = G.setup(2, {"tower": "own"}, seed)
    for block_id in order[2:]:
        place = blocks[block_id]
        state = G.apply(state, 0, {"type": "build", "block": block_id, "top": place["top"],
                                   "long": place["long"], "x": place["x"], "y": place["y"]})
        assert state["blocks"][block_id] == place
    assert G.legal_moves(state, 0)[-1] == {"type": "built"}
    assert G.apply(state, 0, {"type": "built"})["phase"] == "play"
