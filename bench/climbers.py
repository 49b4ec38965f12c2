"""The Climbers' geometry on generated towers: drawing a start tower, every legal placement of
every movable block, the picker's first question over them, and a figure's reachable squares.

Run: .venv/bin/python bench/climbers.py [--towers N] [--turns N]
For each of N seeded start towers (4 players), plays seeded random turns and, before each
move, times: every placement of every movable block (what the phone offers when a player
moves a block), the picker's first question over all the legal moves then (what the
mover's phone draws on every push), and the walk of the player on turn (the squares it can
reach, with the ladders each needs). Prints medians and 95th percentiles, and the sizes
measured.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

# The checkout this script is in, not whichever one the environment has installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.climbers import Climbers, rules
from companion.games.climbers.geometry import figure_node
from companion.games.climbers.tower import generate
from companion.web.picker import narrow


def spread(values: list[float], unit: float = 1e3, name: str = "ms") -> str:
    ordered = sorted(values)
    p95 = ordered[int(len(ordered) * 0.95)]
    return (f"median {statistics.median(values) * unit:7.2f} {name}, "
            f"p95 {p95 * unit:7.2f} {name}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--towers", type=int, default=10)
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    game = Climbers()
    generating: list[float] = []
    placing: list[float] = []
    placements: list[int] = []
    movable: list[int] = []
    walking: list[float] = []
    reachable: list[int] = []
    asking: list[float] = []
    for seed in range(args.towers):
        started = time.perf_counter()
        generate(seed)
        generating.append(time.perf_counter() - started)
        rng = random.Random(seed)
        state = game.apply(game.setup(4, {}, seed), 0, {"type": "built"})
        moves_made = 0
        while game.outcome(state) is None and moves_made < args.turns * 4:
            seat = state["turn"]
            if state["step"] == "before":
                started = time.perf_counter()
                blocks = rules.movable(state)
                placer = rules.placer(state)
                found = sum(len(rules.placement_moves(placer, "block", block_id))
                            for block_id in blocks)
                placing.append(time.perf_counter() - started)
                placements.append(found)
                movable.append(len(blocks))
            if not state["walked"]:
                started = time.perf_counter()
                walker = rules.walker(state, seat)
                reach = walker.reach(figure_node(state["figures"][str(seat)]))
                walking.append(time.perf_counter() - started)
                reachable.append(len(reach))
            moves = game.legal_moves(state, seat)
            if state["step"] == "before":
                started = time.perf_counter()
                narrow(moves, game.choice_keys, {})
                asking.append(time.perf_counter() - started)
            walks = [m for m in moves if m["type"] == "walk"]
            move = rng.choice(walks) if walks and rng.random() < 0.5 else rng.choice(moves)
            state = game.apply(state, seat, move)
            moves_made += 1
    print(f"start tower, drawn:             {spread(generating)}  ({len(generating)} towers)")
    print(f"every placement of every block: {spread(placing)}  "
          f"({len(placing)} positions; {statistics.median(movable):.0f} movable blocks and "
          f"{statistics.median(placements):.0f} placements (median), "
          f"{max(placements)} at most)")
    print(f"the picker's first question:    {spread(asking)}  (over the same moves)")
    print(f"a figure's reachable squares:   {spread(walking, 1e6, 'µs')}  "
          f"({len(walking)} walks; {statistics.median(reachable):.0f} places (median), "
          f"{max(reachable)} at most)")


if __name__ == "__main__":
    main()
