"""The Climbers' placements are generated only around the tower's outline, and for a
dozen blocks at once (a footprint away from the moved block answers as on the whole
tower): over seeded games (the generated tower and one built by the players, either
contact rule, figures and blocking stones about), they are exactly what trying every
footprint over the bounds of the tower without the block finds."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.climbers import Climbers, rules
from companion.games.climbers.data import BLOCKS
from companion.games.climbers.geometry import (
    Tower,
    building_problem,
    footprint,
    perimeter,
    shapes,
)
from support.strategies.climbers import random_positions

G = Climbers()


def every_footprint(tower: Tower, block_id: str, state: dict[str, Any]
                    ) -> list[tuple[str, str | None, int, int]]:
    """Every legal (top, long, x, y), trying every footprint over the tower's bounds."""
    current = state["blocks"][block_id]
    min_x, min_y, max_x, max_y = tower.bounds()
    found = []
    by_dims: dict[tuple[int, int, int], list[tuple[str, str | None]]] = {}
    for top, long, w, d, h in shapes(BLOCKS[block_id]):
        by_dims.setdefault((w, d, h), []).append((top, long))
    for (w, d, h), faces in by_dims.items():
        for x in range(min_x - w, max_x + 2):
            for y in range(min_y - d, max_y + 2):
                problem, _, _ = building_problem(tower, x, y, w, d, h, state["figures"],
                                                 rules.barred(state), rules.whole_face(state))
                if problem is None:
                    found += [(top, long, x, y) for top, long in faces
                              if current is None or (x, y, top, long) != (
                                  current["x"], current["y"], current["top"],
                                  current["long"])]
    return found


@pytest.mark.parametrize("options", [{}, {"contact": "face"}, {"tower": "own"}],
                         ids=["generated", "whole-face", "own-tower"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_placements_around_the_outline_are_every_placement(options, seed):
    checked = 0
    for state in random_positions(G, options, seed, 30):
        placing = rules.placer(state)
        for block_id in rules.movable(state) or [b for b, spot in state["blocks"].items()
                                                 if spot is None][:3]:
            rest = Tower(state["blocks"], without=block_id)
            fast = list(placing.placements(block_id, BLOCKS[block_id]))
            assert fast == every_footprint(rest, block_id, state), block_id
            checked += 1
    assert checked > 20


def _rest_height(tower: Tower, x: int, y: int, w: int, d: int) -> int | None:
    """The height a footprint rests at, square by square (None: not all the same)."""
    heights = {tower.height(square) for square in footprint(x, y, w, d)}
    return heights.pop() if len(heights) == 1 else None


def _touches(tower: Tower, x: int, y: int, w: int, d: int, z: int, h: int,
             whole_face: bool) -> bool:
    """Whether a block there touches the tower, side square by side square."""
    if z > 0:
        return True
    sides: dict[str, list[int]] = {}
    for side, square in perimeter(x, y, w, d):
        sides.setdefault(side, []).append(tower.height(square))
    if not whole_face:
        return any(height > 0 for heights in sides.values() for height in heights)
    return any(min(heights) >= h for heights in sides.values())


@pytest.mark.parametrize("seed", [3, 4])
def test_the_tower_answers_for_a_footprint_as_its_squares_do(seed):
    """What the placements ask of the tower thousands of times a position (the height a
    footprint rests at, whether a block there touches it) is what its squares say."""
    checked = 0
    for state in random_positions(G, {}, seed, 25):
        for block_id in rules.movable(state)[:2]:
            rest = Tower(state["blocks"], without=block_id)
            min_x, min_y, max_x, max_y = rest.bounds()
            for w, d, h in {(w, d, h) for *_, w, d, h in shapes(BLOCKS[block_id])}:
                for x in range(min_x - w - 1, max_x + 3):
                    for y in range(min_y - d - 1, max_y + 3):
                        z = rest.rest_height(x, y, w, d)
                        assert z == _rest_height(rest, x, y, w, d), (x, y, w, d)
                        for whole_face in (False, True):
                            assert rest.touches(x, y, w, d, z or 0, h, whole_face) == \
                                _touches(rest, x, y, w, d, z or 0, h, whole_face)
                        checked += 1
    assert checked > 1000


def test_a_block_may_go_onto_a_figure_that_moves_to_the_squares_it_leaves():
    """A figure under the block's new place is pushed onto a free square of the block it
    stands on: here only the squares the moving block leaves are free, far from the new
    place, so that placement exists only on the tower without the block."""
    spot = {"z": 2, "w": 2, "d": 2, "h": 2, "top": "red", "long": None}
    blocks: dict[str, Any] = {block_id: None for block_id in BLOCKS}
    blocks.update({"F1": {"x": 0, "y": 0, "z": 0, "w": 6, "d": 2, "h": 2, "top": "grey",
                          "long": "x"},
                   "C1": dict(spot, x=2, y=0), "C2": dict(spot, x=4, y=0)})
    figures = {"0": "0,0", "1": "0,1", "2": "1,0", "3": "1,1"}
    state = {"blocks": blocks, "figures": figures, "blocked": {},
             "options": {"contact": "side"}}
    found = list(rules.placer(state).placements("C2", BLOCKS["C2"]))
    assert ("red", None, 0, 0) in found
    assert found == every_footprint(Tower(blocks, without="C2"), "C2", state)
