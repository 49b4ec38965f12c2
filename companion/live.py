"""The websocket hub: who is connected to which table as which seat, and the pushes.

flask-sock has no broadcast, so the hub keeps the registry. Each connection gets its own
rendering of the table (its seat's view, or the table screen's), produced by the
``renderer`` the web layer installs: the hub knows sockets, not templates.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

    from companion.tables import Table

#: Renders what one connection should receive: ``part`` is "full" or "seats".
Renderer = Callable[["Table", "Connection", str], str]


@dataclass(eq=False)
class Connection:
    ws: Any
    code: str
    seat: int | None  # None: the table screen
    lang: str
    is_host: bool = False
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    open: bool = True

    def send(self, text: str) -> bool:
        """Send, or mark the connection closed; never raises. Callers hold ``send_lock``."""
        if not self.open:
            return False
        try:
            self.ws.send(text)
        except Exception:  # a dead socket, whatever the library calls it
            self.open = False
            return False
        return True


class Hub:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.renderer: Renderer | None = None
        self._lock = threading.Lock()
        self._by_table: dict[str, set[Connection]] = {}

    def connections(self, code: str) -> list[Connection]:
        with self._lock:
            return list(self._by_table.get(code, ()))

    def connected_seats(self, code: str) -> set[int]:
        return {c.seat for c in self.connections(code) if c.seat is not None and c.open}

    def register(self, table: Table, conn: Connection) -> None:
        """Add a connection and send it its full view at once (a phone coming back is
        whole again); the others see the seat come back."""
        with self._lock:
            self._by_table.setdefault(conn.code, set()).add(conn)
        self._push(table, conn, "full")
        self._presence(table)

    def unregister(self, table: Table, conn: Connection) -> None:
        conn.open = False
        with self._lock:
            conns = self._by_table.get(conn.code)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._by_table[conn.code]
        self._presence(table)

    def seat_freed(self, code: str, seat: int) -> None:
        """Close the sockets of a seat the host has freed."""
        for conn in self.connections(code):
            if conn.seat == seat:
                conn.open = False
                with contextlib.suppress(Exception):  # already gone
                    conn.ws.close(reason=1008, message="seat freed")

    def table_changed(self, table: Table) -> None:
        for conn in self.connections(table.code):
            self._push(table, conn, "full")

    def _presence(self, table: Table) -> None:
        for conn in self.connections(table.code):
            self._push(table, conn, "seats")

    def _push(self, table: Table, conn: Connection, part: str) -> None:
        """Render and send under the connection's lock, so that a connection receives its
        renderings in the order they were taken and never an older one last."""
        if self.renderer is None or not conn.open:
            return
        with conn.send_lock, self.app.app_context():
            conn.send(self.renderer(table, conn, part))
