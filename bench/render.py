"""Rendering: the interpreter's work to draw every push of a move, in one process.

Run: .venv/bin/python bench/render.py [--game ID] [--moves M] [--runs R] [--seed S]
                                     [--no-render] [--regions] [--viewers]

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
drawing took (wall time, in the first run). ``--viewers`` splits a move's milliseconds by
whom they were drawn for (``ROLES``): the phone that moved, the phones asked for a move now,
the phones waiting, the board all the phones share (drawn first, on its own), the table
screen.
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
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from companion.gunicorn_config import post_worker_init  # noqa: E402
from companion.live import Connection  # noqa: E402
from companion.tables import Table  # noqa: E402
from companion.web.games import BY_ID  # noqa: E402
from companion.web.regions import phone_board  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.playout import playout  # noqa: E402
from support.pushing import push_for  # noqa: E402

#: Whom a move's drawings are for (``--viewers``), in the order they are reported.
ROLES = ("the mover", "phones asked to move", "phones waiting", "the phones' board",
         "the table screen")


class Run(NamedTuple):
    """One fresh run: the CPU seconds of each move's drawings; by region, how many times
    it was drawn and the seconds that took; with ``--viewers``, each move's seconds by
    role (``ROLES``)."""

    spent: list[float]
    drawings: Counter[str]
    seconds: dict[str, float]
    roles: list[dict[str, float]]


def play(game_id: str, seed: int, moves: int, render: bool, by_viewer: bool = False) -> Run:
    """The drawings after each move of one seeded game, timed (``Run``)."""
    spent: list[float] = []
    roles: list[dict[str, float]] = []
    memo = None
    for table, mover, viewers in playout(game_id, seed, moves):
        memo = services().caches.memo
        if not spent:  # the drawings before the first move are not a move's
            memo.drawings.clear()
            memo.seconds.clear()
        board, took = 0.0, []
        started = time.process_time()
        if render and by_viewer:
            with services().pushes.drawing("en"):
                phone_board(table, memo)
            board = time.process_time() - started
        if render:
            for conn in viewers:
                before = time.process_time()
                push_for(table, conn)
                took.append((conn, time.process_time() - before))
        spent.append(time.process_time() - started)
        if by_viewer:
            move = dict.fromkeys(ROLES, 0.0)
            move["the phones' board"] = board
            for conn, seconds in took:
                move[_role(table, conn, mover)] += seconds
            roles.append(move)
    return Run(spent, Counter(memo.drawings if memo else ()),
               dict(memo.seconds if memo else {}), roles)


def _role(table: Table, conn: Connection, mover: int) -> str:
    """Whom ``conn``'s drawings were for, after ``mover``'s move (``ROLES``). Asked once
    the drawings are timed: its legal moves are the drawings' work."""
    if conn.seat is None:
        return "the table screen"
    if conn.seat == mover:
        return "the mover"
    return "phones asked to move" if table.match.moves_for(conn.seat) else "phones waiting"


def fresh_run(game_id: str, seed: int, moves: int, render: bool, by_viewer: bool) -> Run:
    """``play`` in a process of its own: nothing one run kept (templates compiled, words
    said, drawings) helps the next, as nothing helps a server's first game."""
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn,
                             initializer=post_worker_init, initargs=(None,)) as pool:
        return pool.submit(play, game_id, seed, moves, render, by_viewer).result()


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
    parser.add_argument("--viewers", action="store_true",
                        help="each move's milliseconds by whom they were drawn for")
    args = parser.parse_args()
    print("game | moves | ms per move, median | mean")
    for game_id in [args.game] if args.game else BY_ID:
        runs = [fresh_run(game_id, args.seed, args.moves, not args.no_render, args.viewers)
                for _ in range(args.runs)]
        least = [min(times) for times in zip(*(run.spent for run in runs), strict=True)]
        print(f"{game_id} | {len(least)} | {statistics.median(least) * 1e3:.1f} | "
              f"{statistics.fmean(least) * 1e3:.1f}")
        if args.regions:
            drawings, seconds = runs[0].drawings, runs[0].seconds
            for name, took in sorted(seconds.items(), key=lambda item: -item[1]):
                print(f"    {name}: {drawings[name] / len(least):.2f} drawings a move, "
                      f"{took / drawings[name] * 1e3:.2f} ms each")
        if args.viewers:
            for role in ROLES:  # each move's least over the runs, then the mean of moves
                each = [min(move[role] for move in moves)
                        for moves in zip(*(run.roles for run in runs), strict=True)]
                print(f"    {role}: {statistics.fmean(each) * 1e3:.1f} ms a move (mean)")


if __name__ == "__main__":
    main()
