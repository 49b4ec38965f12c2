"""The server with pushes that draw nothing: the floor under bench/load.py's latencies.

``bench/load.py --floor`` serves this app instead of the Procfile's. Every request, the
engines, the store, the hub's senders and the websockets are the companion's own; only the
pushes' rendering is replaced by one that sends each socket its status line (the seq, the
status and whether it is the phone's turn: what the load bench waits for). What a move
costs there is the part of its latency that drawing cannot remove.
"""

from __future__ import annotations

from flask import Flask
from markupsafe import escape

from companion import create_app as create_companion
from companion.live import Connection
from companion.tables import Table
from companion.web.diff import Part
from companion.web.services import services


def status_parts(table: Table, conn: Connection) -> list[Part]:
    """``conn``'s status line alone, with the attributes the real one carries."""
    with table.lock:
        seq, status = table.match.seq_for(conn.seat), escape(table.status)
        if conn.seat is None:
            return [Part.of("screen-head", f'<section id="screen-head" data-seq="{seq}" '
                                           f'data-status="{status}"></section>')]
        my_turn = "yes" if table.match.moves_for(conn.seat) else "no"
    return [Part.of("status", f'<section id="status" data-my-turn="{my_turn}" '
                              f'data-status="{status}" data-seq="{seq}"></section>')]


def status_only(table: Table, conn: Connection, version: int) -> list[Part]:
    """What the pushes draw for ``conn``: its status line alone, of which it is sent what
    it lacks, as the real pushes send their regions."""
    return status_parts(table, conn)


def create_app() -> Flask:
    app = create_companion()
    services(app).pushes.render = status_only  # type: ignore[method-assign]
    return app
