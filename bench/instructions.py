"""Instructions: each move's drawings counted under callgrind, which does not drift with the
machine as its timings do.

Run: .venv/bin/python bench/instructions.py [--game ID] [--moves M] [--seed S]

Needs valgrind. For each game (or ``--game``) it plays ``bench/render.py``'s seeded game
(``support.playout``) under ``valgrind --tool=callgrind``, with the worker's collector
settings, and asks callgrind for a dump just before and just after each move's drawings
(every push of the move, drawn with the hub's own renderer and diff): the dump after holds
the instructions of those drawings alone. It reports the median and mean millions of
instructions a move, then each move's. A game takes a few minutes.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: The dump after a move's drawings is named by this tag and the move's number.
TAG = "drawn"


def drawn(game_id: str, seed: int, moves: int) -> None:
    """In the process callgrind runs: play the game, a dump around each move's drawings."""
    import os

    from companion.gunicorn_config import post_worker_init
    from support.playout import playout
    from support.pushing import push_for

    post_worker_init(None)

    def dump(tag: str) -> None:
        subprocess.run(["callgrind_control", "-d", tag, str(os.getpid())], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    for number, (table, _, viewers) in enumerate(playout(game_id, seed, moves)):
        dump(f"before{number}")
        for conn in viewers:
            push_for(table, conn)
        dump(f"{TAG}{number}")


def counted(game_id: str, seed: int, moves: int) -> list[int]:
    """Each move's instructions, in order."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=no",
                        f"--callgrind-out-file={folder}/out", sys.executable, __file__,
                        "--child", game_id, "--seed", str(seed), "--moves", str(moves)],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        found: dict[int, int] = {}
        for path in Path(folder).glob("out*"):
            text = path.read_text()
            tag = re.search(rf"^desc: Trigger: .*?\b{TAG}(\d+)\b", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            if tag and total:
                found[int(tag.group(1))] = int(total.group(1))
    return [found[number] for number in sorted(found)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--moves", type=int, default=80, help="moves at most per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        drawn(args.child, args.seed, args.moves)
        return
    from companion.web.games import BY_ID

    print("game | moves | million instructions per move, median | mean")
    for game_id in [args.game] if args.game else BY_ID:
        counts = [count / 1e6 for count in counted(game_id, args.seed, args.moves)]
        print(f"{game_id} | {len(counts)} | {statistics.median(counts):.1f} | "
              f"{statistics.fmean(counts):.1f}")
        print("    " + " ".join(f"{count:.1f}" for count in counts), flush=True)


if __name__ == "__main__":
    main()
