"""A seeded game played in one process, as the push benchmarks play it: the most players
the game allows (capped at 6), every phone and a table screen watching, random legal moves
through ``Tables.submit``."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion import create_app
from companion.live import Connection
from companion.tables import Table
from companion.web.games import BY_ID
from companion.web.services import services
from support.pushing import push_for


def playout(game_id: str, seed: int, moves: int) -> Iterator[tuple[Table, int, list[Connection]]]:
    """Yields after each move: the table, the seat that moved, and the viewers (each seat
    and a screen, each as a connection that was sent the table before the move). Runs in
    a fresh app (and database) of its own, inside its app context."""
    app = create_app({"DATABASE": str(Path(tempfile.mkdtemp()) / "bench.sqlite"),
                      "PUBLIC_HOST": "127.0.0.1"})
    rng = random.Random(seed)
    with app.app_context():
        tables = services(app).tables
        players = min(BY_ID[game_id].engine.max_players, 6)
        table, _ = tables.create(game_id, players, {}, seed=seed)
        for seat in range(players):
            tables.join(table, f"Player {seat + 1}", seat)
        tables.start(table, first_seat=0)
        viewers = [Connection(None, table.code, seat, "en") for seat in range(players)]
        viewers.append(Connection(None, table.code, None, "en"))
        for conn in viewers:
            push_for(table, conn)
        for number in range(moves):
            if table.match.outcome() is not None:
                return
            movers = [(seat, ordinary(table, seat)) for seat in range(players)]
            movers = [(seat, legal) for seat, legal in movers if legal]
            if not movers:
                return
            seat, legal = rng.choice(movers)
            tables.submit(table, seat, rng.choice(legal), table.match.seq_for(seat),
                          f"bench-{number}")
            yield table, seat, viewers


def ordinary(table: Table, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal moves as players make them: set up without taking a card back, and
    choose a secret card once (a changed choice is pushed to nobody: it is no ordinary move)."""
    return [move for move in table.match.moves_for(seat) if move.get("type") != "lift"
            and not (move.get("type") == "choose"
                     and (table.match.view_for(seat) or {}).get("choice"))]
