"""Push weight: the bytes each phone and table screen is sent per move, region by region.

Run: .venv/bin/python bench/pushes.py [--games N] [--moves M] [--seed S] [--game ID]

In one process, with no sockets: for every registered game it seats the most players the
game allows (capped at 6), plays seeded random legal moves through ``Tables.submit`` and,
after each move, renders what every phone and one table screen would be pushed (the hub's
own renderer and diff, as a connection that received every earlier push). It reports the
median bytes per move for a phone and for the screen against the game's budgets (its
``GameSpec.push_budget``), and which regions those bytes are made of. A move's bytes for a
phone are those of every phone but the mover's (whose answer comes over HTTP).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.live import Connection  # noqa: E402
from companion.web.diff import catch_up  # noqa: E402
from companion.web.games import BY_ID  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.playout import playout  # noqa: E402
from support.pushing import render_for  # noqa: E402


def play(game_id: str, seed: int, moves: int) -> tuple[list[int], list[int],
                                                        dict[str, list[int]]]:
    """Bytes per move to the other phones and to the screen, and per region."""
    phone_bytes: list[int] = []
    screen_bytes: list[int] = []
    by_region: dict[str, list[int]] = defaultdict(list)
    #: What each viewer was sent, from what the playout's first push sent it on.
    shown: dict[Connection, dict[str, str]] = {}
    for table, seat, viewers in playout(game_id, seed, moves):
        for conn in viewers:
            total = 0
            record = shown.setdefault(conn, services().pushes.sent_to(conn))
            for part in render_for(table, conn):
                sent = len(catch_up(record, [part]).encode())
                total += sent
                if conn.seat is None or conn.seat != seat:
                    by_region[f"{'screen' if conn.seat is None else 'phone'} "
                              f"{part.id}"].append(sent)
            if conn.seat is None:
                screen_bytes.append(total)
            elif conn.seat != seat:
                phone_bytes.append(total)
    return phone_bytes, screen_bytes, by_region


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games played per game kind")
    parser.add_argument("--moves", type=int, default=120, help="moves at most per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(BY_ID), help="only this game")
    args = parser.parse_args()
    print("game | phone median (budget) | screen median (budget) | biggest regions (mean B/move)")
    for game_id in [args.game] if args.game else BY_ID:
        phones: list[int] = []
        screens: list[int] = []
        regions: dict[str, list[int]] = defaultdict(list)
        for n in range(args.games):
            p, s, r = play(game_id, args.seed + n, args.moves)
            phones += p
            screens += s
            for key, values in r.items():
                regions[key] += values
        budget = BY_ID[game_id].push_budget
        biggest = sorted(regions.items(), key=lambda kv: -statistics.fmean(kv[1]))[:6]
        print(f"{game_id} | {statistics.median(phones):,.0f} B ({budget[0]:,}) | "
              f"{statistics.median(screens):,.0f} B ({budget[1]:,}) | "
              + ", ".join(f"{key} {statistics.fmean(v):,.0f}" for key, v in biggest))


if __name__ == "__main__":
    main()
