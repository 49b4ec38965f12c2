"""Rules engine speed, per game: `apply` and `legal_moves` per call, and replaying 500 moves.

Run: .venv/bin/python bench/engine.py [--games N]
Plays seeded random legal games (4 players, or the game's minimum) and times each call;
replay is setup + apply over logged games totalling at least 500 moves, as the server
does when it rebuilds a table after a start.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from companion.games.registry import BY_ID


def play(game, players: int, seed: int, legal_times: list[float], apply_times: list[float]):
    rng = random.Random(seed)
    state = game.setup(players, {}, seed)
    log = []
    while game.outcome(state) is None:
        movers = []
        for seat in range(players):
            started = time.perf_counter()
            moves = game.legal_moves(state, seat)
            legal_times.append(time.perf_counter() - started)
            # Players set up without taking cards back (Heuchel & Meuchel's "lift" corrects
            # a mistake); a seat whose set-up is done waits for the others.
            moves = [move for move in moves if move["type"] != "lift"]
            if moves:
                movers.append((seat, moves))
        seat, moves = rng.choice(movers)
        move = rng.choice(moves)
        started = time.perf_counter()
        state = game.apply(state, seat, move)
        apply_times.append(time.perf_counter() - started)
        log.append((seat, move))
    return log


def micro(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(len(ordered) * 0.95)]
    return f"median {statistics.median(values) * 1e6:7.1f} µs, p95 {p95 * 1e6:7.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for game_id, game in BY_ID.items():
        players = max(game.min_players, min(4, game.max_players))
        legal_times: list[float] = []
        apply_times: list[float] = []
        logs = [play(game, players, seed, legal_times, apply_times)
                for seed in range(args.games)]
        replay_logs, total = [], 0
        for seed, log in enumerate(logs * 100):
            replay_logs.append((seed % len(logs), log))
            total += len(log)
            if total >= 500:
                break
        started = time.perf_counter()
        for seed, log in replay_logs:
            state = game.setup(players, {}, seed)
            for seat, move in log:
                state = game.apply(state, seat, move)
        replay = time.perf_counter() - started
        print(f"{game_id} ({players} players, {args.games} games, "
              f"{sum(map(len, logs))} moves)")
        print(f"  legal_moves: {micro(legal_times)}")
        print(f"  apply:       {micro(apply_times)}")
        print(f"  replay of {total} moves: {replay * 1000:.1f} ms "
              f"({replay / total * 500 * 1000:.1f} ms per 500 moves)")


if __name__ == "__main__":
    main()
