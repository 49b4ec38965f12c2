"""Floods: one guest on the wifi against the other tables, on the real server.

Run: .venv/bin/python bench/floods.py [--seconds S] [--depth D] [--sockets N]
                                      [--worker-timeout T]

Starts the Procfile's gunicorn command on 127.0.0.1 (a free port, a database in a temporary
folder; ``--worker-timeout`` sets gunicorn's ``--timeout``, 120 s in the config) with a
started table of In 7th Heaven, whose phone, from an address of its own (127.0.0.3), asks
for the table's view every 0.2 s on a fresh connection, while a guest from another address
(127.0.0.2):

1. pipelines: one keep-alive connection keeps D requests queued ahead of its answers for S
   seconds, of each in turn: a page of rules (``/rules/climbers``), the home page, its own
   table's screen (soon 429s), a code that finds no table (404s, then 429s);
2. holds sockets: tries to open N websockets to its own table one after another (for 120 s at
   most), as its six seats in turn, and holds them (reading them, answering pings) while a
   newcomer from a third address (127.0.0.4) loads the home page, takes a seat, connects
   its phone and plays a move at a table the laptop starts for it (each step 5 s at most);
3. sends a body that never comes: a move's POST whose headers and half its body are sent,
   then nothing, watched for 30 s at most.

It prints the guest's answers and the phone's (or the newcomer's) latencies in each, and
whether gunicorn's master killed the worker. Loopback only; every step is bounded in time
and count; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.floods import (
    GUEST,
    PHONE,
    Held,
    Pipeline,
    hanging_body,
    join_and_play,
    open_sockets,
    started_table,
    timed_while,
    until_closed,
)
from support.server_process import ServerProcess, request_from

BODY_WATCHED = 30.0
#: The game at the tables: one of up to six, whose second seat can move as it starts.
GAME = "seventh-heaven"


def latencies(times: list[tuple[Any, float]]) -> str:
    """The phone's answers: how many, their median and slowest, and any that failed."""
    answered = [seconds for status, seconds in times if status == 200]
    failed = Counter(status if isinstance(status, int) else type(status).__name__
                     for status, _ in times if status != 200)
    if not answered:
        return f"no answer ({dict(failed)})"
    text = (f"{len(answered)} answers, median {statistics.median(answered) * 1000:.0f} ms, "
            f"slowest {max(answered) * 1000:.0f} ms")
    return text + (f"; failed: {dict(failed)}" if failed else "")


def statuses(counts: Counter[int]) -> str:
    return ", ".join(f"{count} × {status}" for status, count in sorted(counts.items())) \
        or "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds of each pipelining flood, 1 to 60")
    parser.add_argument("--depth", type=int, default=8,
                        help="requests the guest keeps queued ahead, 1 to 64")
    parser.add_argument("--sockets", type=int, default=2100,
                        help="websockets the guest tries to open, 1 to 3000 (the worker holds "
                             "2000 connections in all)")
    parser.add_argument("--worker-timeout", type=int,
                        help="gunicorn's --timeout in seconds (the config's: 120)")
    args = parser.parse_args()
    seconds = max(1.0, min(args.seconds, 60.0))
    depth = max(1, min(args.depth, 64))
    count = max(1, min(args.sockets, 3000))
    env = {"GUNICORN_CMD_ARGS": f"--timeout {args.worker_timeout}"} \
        if args.worker_timeout else {}
    started = time.monotonic()
    print(f"Floods: {seconds:g} s each, {depth} queued ahead, {count} sockets; "
          f"{platform.machine()}, Python {platform.python_version()}", flush=True)

    with tempfile.TemporaryDirectory() as directory:
        server = ServerProcess(Path(directory) / "floods.sqlite", env=env).start()
        try:
            port = server.port
            code, _, tokens = started_table(port, PHONE, GAME)
            guest_code, _, guest_tokens = started_table(port, GUEST, GAME, players=6)

            def view() -> int:
                return request_from(port, "GET", f"/api/tables/{code}/view", None,
                                    {"Authorization": f"Bearer {tokens[1]}"}, PHONE, 20)[0]

            quiet_until = time.monotonic() + 2
            quiet = timed_while(lambda: time.monotonic() < quiet_until, view)
            print(f"  no flood: the phone's view: {latencies(quiet)}", flush=True)

            print("1. pipelining", flush=True)
            for path in ("/rules/climbers", "/", f"/t/{guest_code}/screen", "/t/ZZZZ/screen"):
                flood = Pipeline(port, path, seconds, depth=depth)
                flood.start()
                time.sleep(0.3)
                times = timed_while(flood.is_alive, view)
                flood.join()
                cut = f"; the guest's connection was cut: {flood.cut}" if flood.cut else ""
                print(f"  {path}: the guest got {statuses(flood.statuses)}{cut}\n"
                      f"    the phone's view: {latencies(times)}", flush=True)

            print("2. sockets", flush=True)
            opening = time.monotonic()
            with Held() as held:
                outcomes, _ = open_sockets(port, guest_code, GUEST, list(guest_tokens.values()),
                                           count, held, seconds=120)
                print(f"  the guest tried {count} in {time.monotonic() - opening:.1f} s: "
                      + ", ".join(f"{n} {'refused with ' if isinstance(key, int) else ''}{key}"
                                  for key, n in outcomes.items()), flush=True)
                for step, took in join_and_play(port, GAME):
                    said = f"{took * 1000:.0f} ms" if isinstance(took, float) else took
                    print(f"    the newcomer: {step}: {said}", flush=True)
                print(f"  the server closed {held.dropped} of the guest's sockets meanwhile",
                      flush=True)

            print("3. a body that never comes", flush=True)
            answer, after = until_closed(hanging_body(server, code, tokens[0]), BODY_WATCHED)
            status_line = answer.partition(b"\r\n")[0].decode(errors="replace") or "nothing"
            print(f"  answered {status_line!r}, " + (f"closed after {after:.1f} s"
                  if after is not None else f"still open after {BODY_WATCHED:g} s"),
                  flush=True)
        finally:
            server.stop()
            log = (Path(directory) / f"server-{server.port}.log").read_text(errors="replace")
    kills = log.count("WORKER TIMEOUT")
    print(f"gunicorn's master killed the worker {kills} times; "
          f"took {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
