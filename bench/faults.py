"""Faults, the long version: SIGKILL the real server again and again while tables play.

Run: .venv/bin/python bench/faults.py [--kills N] [--tables T] [--seconds S] [--seed X]

Starts the Procfile's gunicorn on 127.0.0.1 (a free port, a database in a temporary
folder), opens T tables (the three games in turn, three seats each, seeded), connects a
websocket for every seat and a table screen per table, and lets one thread per seat play
random legal moves through the API, resending a move whose answer was lost with the same
client_move_id. Over about S seconds of play it kills the server N times with SIGKILL: at
random moments, every third the moment a POST is under way, once with a POST half sent;
the host takes back a move on every table once. After each start, with the seats paused,
it checks against the SQLite file itself: every acknowledged move is logged once where it
was made, nothing refused is; every seat's and the table's view from the API equals a
replay of the log with the game engine; every socket came back once and got its full,
current view first. It stops by itself, prints what it checked, and exits 1 on a problem.
The short version is tests/web/test_faults.py.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.server_process import FaultRun, read_stored


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=12, help="SIGKILLs, at least 1")
    parser.add_argument("--tables", type=int, default=6, help="tables, 1 to 30")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="seconds of play in all, 1 to 600")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kills = max(1, min(args.kills, 200))
    tables = max(1, min(args.tables, 30))
    seconds = max(1.0, min(args.seconds, 600.0))
    started = time.monotonic()

    def say(text: str) -> None:
        print(f"{time.monotonic() - started:6.1f}s  {text}", flush=True)

    print(f"Faults: {kills} kills, {tables} tables, {seconds:g} s of play, seed {args.seed}; "
          f"{platform.machine()}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as directory, \
            FaultRun(Path(directory), tables=tables, seed=args.seed, say=say) as run:
        run.open_tables()
        stretch = seconds / kills
        half_at = kills // 2 if kills > 1 else -1
        for index in range(kills):
            if index == half_at:
                run.playing.set()
                time.sleep(run.rng.uniform(0.2, 1.0) * stretch)
                run.kill_half_post()
            else:
                run.play(stretch, in_flight=index % 3 == 1)
            if index == 0:
                run.host_undo()
        run.playing.set()
        time.sleep(min(stretch, 2.0))
        run.finish()
        stored = [read_stored(run.server.database, code) for code in run.tables]
    sent = [one for seat in run.seats for one in seat.sent]
    moves = sum(kind == "move" for table in stored for _, _, kind, _, _ in table.entries)
    undos = sum(kind == "undo" for table in stored for _, _, kind, _, _ in table.entries)
    lines = [
        ("server starts after a SIGKILL", run.kills),
        ("tables (games: " + ", ".join(sorted({t.game for t in stored})) + ")", len(stored)),
        ("moves in the logs", moves),
        ("host undos in the logs", undos),
        ("moves acknowledged (200), each found once in the log", run.checked["acknowledged"]),
        ("POSTs cut off by a kill", run.checked["cut"]),
        ("  of which resent and answered 'repeated' (applied before the kill)",
         sum(bool(one.repeated) for one in sent)),
        ("  of which resent and applied then", sum("cut" in one.answers and one.acknowledged
                                                    and not one.repeated for one in sent)),
        ("  of which refused as stale when resent (never applied)",
         sum("cut" in one.answers and 409 in one.answers for one in sent)),
        ("POSTs half sent at a kill, absent after it, then applied once", run.checked[
            "half_posts"]),
        ("stale refusals (409), none of them in the log",
         sum(one.answers.count(409) for one in sent)),
        ("views compared with a replay of the log (every seat and screen, every check)",
         run.checked["views"]),
        ("sockets come back with their full, current view first", run.checked["reconnects"]),
        ("problems", len(run.problems)),
    ]
    width = max(len(text) for text, _ in lines)
    for text, value in lines:
        print(f"  {text:<{width}}  {value}")
    for problem in run.problems[:50]:
        print("PROBLEM", problem)
    print(f"took {time.monotonic() - started:.1f} s")
    return 1 if run.problems else 0


if __name__ == "__main__":
    sys.exit(main())
