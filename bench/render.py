"""Rendering: the interpreter's work to draw every push of a move, in one process.

Run: .venv/bin/python bench/render.py [--game ID] [--moves M] [--runs R] [--seed S]
                                     [--no-render] [--regions]

For each game (or ``--game``) it seats the most players the game allows (capped at 6),
plays seeded random legal moves through ``Tables.submit`` and, after each move, draws what
every phone and one table screen would be pushed, with the hub's own renderer and diff.
It reports the CPU time of those drawings per move: each move's shortest over ``--runs``
fresh runs (a process each, so nothing kept in one run helps the next), then the median
and mean over the moves, with the garbage collector set as the server's worker sets it.
This machine's timings drift by a fifth or more from one minute to the next; for a
comparison that does not, count instructions, which is the same from run to run: run one
game under ``valgrind --tool=callgrind`` with ``--runs 1``, once as it is and once with
``--no-render`` (the same moves, nothing drawn), and subtract. ``--regions`` also tells
how many times a move draws each region and fragment (the rest are reused), and what a
drawing took (wall time, in the first run).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from companion.gunicorn_config import post_worker_init  # noqa: E402
from companion.web.diff import catch_up  # noqa: E402
from companion.web.games import BY_ID  # noqa: E402
from companion.web.regions import render_for  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.playout import playout  # noqa: E402


def play(game_id: str, seed: int, moves: int,
         render: bool) -> tuple[list[float], Counter[str], dict[str, float]]:
    """The CPU seconds of the drawings after each move of one seeded game; and by region,
    how many times it was drawn and the seconds that took."""
    spent: list[float] = []
    memo = None
    for table, _, viewers in playout(game_id, seed, moves):
        memo = services().caches.memo
        if not spent:  # the drawings before the first move are not a move's
            memo.drawings.clear()
            memo.seconds.clear()
        started = time.process_time()
        if render:
            for conn in viewers:
                catch_up(conn.sent, render_for(table, conn))
        spent.append(time.process_time() - started)
    return spent, Counter(memo.drawings if memo else ()), dict(memo.seconds if memo else {})


def fresh_run(game_id: str, seed: int, moves: int,
              render: bool) -> tuple[list[float], Counter[str], dict[str, float]]:
    """``play`` in a process of its own: nothing one run kept (templates compiled, words
    said, drawings) helps the next, as nothing helps a server's first game."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn,
                             initializer=post_worker_init, initargs=(None,)) as pool:
        return pool.submit(play, game_id, seed, moves, render).result()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(BY_ID), help="only this game")
    parser.add_argument("--moves", type=int, default=80, help="moves at most per game")
    parser.add_argument("--runs", type=int, default=3, help="fresh runs; each move's least")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-render", action="store_true",
                        help="play the same moves and draw nothing (a baseline)")
    parser.add_argument("--regions", action="store_true",
                        help="how many times a move draws each region and fragment")
    args = parser.parse_args()
    print("game | moves | ms per move, median | mean")
    for game_id in [args.game] if args.game else BY_ID:
        runs = [fresh_run(game_id, args.seed, args.moves, not args.no_render)
                for _ in range(args.runs)]
        least = [min(times) for times in zip(*(spent for spent, _, _ in runs), strict=True)]
        print(f"{game_id} | {len(least)} | {statistics.median(least) * 1e3:.1f} | "
              f"{statistics.fmean(least) * 1e3:.1f}")
        if args.regions:
            _, drawings, seconds = runs[0]
            for name, took in sorted(seconds.items(), key=lambda item: -item[1]):
                print(f"    {name}: {drawings[name] / len(least):.2f} drawings a move, "
                      f"{took / drawings[name] * 1e3:.2f} ms each")


if __name__ == "__main__":
    main()
