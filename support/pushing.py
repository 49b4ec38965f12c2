"""What the hub's sender would draw and send a connection now, for the tests and the
benchmarks that play in one process without sockets. Call them in the app's context."""

from __future__ import annotations

from companion.live import Connection
from companion.tables import Table
from companion.web.diff import Part
from companion.web.services import services


def render_for(table: Table, conn: Connection) -> list[Part]:
    """``conn``'s regions at its table's version now (``Pushes.render``)."""
    return services().pushes.render(table, conn, services().hub.version(table.code))


def push_for(table: Table, conn: Connection) -> str:
    """What the hub would send ``conn`` now, recorded as sent (``Pushes.push``)."""
    return services().pushes.push(table, conn, services().hub.version(table.code))
