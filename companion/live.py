"""The websocket hub: who is connected to which table as which seat, and the pushes.

flask-sock has no broadcast, so the hub keeps the registry. A change wakes every connection
of the table; each connection has a sender thread of its own that asks the push pipeline
(given by the web layer at construction: the hub knows sockets, not pages) for what its
viewer lacks at the table's version now, and sends it. The pipeline keeps its own record
of what each connection was sent; the hub tells it when a connection closes. So the
request that made the change never waits for a push, a slow or dead phone holds up nobody
else, and a phone that was busy gets the newest state once, never a backlog.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.tables import Table


@dataclass(eq=False)
class Connection:
    ws: Any
    code: str
    seat: int | None  # None: the table screen
    lang: str
    is_host: bool = False
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    open: bool = True
    wake: threading.Event = field(default_factory=threading.Event)
    #: Bytes and messages sent, for the tests and the benchmark.
    sent_bytes: int = 0
    messages: int = 0

    def send(self, text: str) -> bool:
        """Send, or mark the connection closed; never raises. Callers hold ``send_lock``."""
        if not self.open:
            return False
        try:
            self.ws.send(text)
        except Exception:  # a dead socket, whatever the library calls it
            self.open = False
            return False
        self.sent_bytes += len(text.encode())
        self.messages += 1
        return True


logger = logging.getLogger(__name__)


class Pipeline(Protocol):
    """What the hub asks of the web layer (``companion.web.pushes.Pushes``)."""

    def push(self, table: Table, conn: Connection, version: int) -> str:
        """What ``conn`` lacks at ``version`` of its table (empty when nothing), recorded
        as sent to it."""

    def farewell(self, conn: Connection) -> str:
        """What a phone whose seat the host freed is sent last."""

    def closed(self, conn: Connection) -> None:
        """``conn`` is closed for good: what was recorded of it may go."""


class Hub:
    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        #: Guards the registry and the versions.
        self._lock = threading.Lock()
        self._by_table: dict[str, set[Connection]] = {}
        self._versions: dict[str, int] = {}

    def version(self, code: str) -> int:
        """A number that grows with every change of the table or of who is connected: what
        a rendering taken at one version shows is at least as new as that version."""
        with self._lock:
            return self._versions.get(code, 0)

    def connections(self, code: str) -> list[Connection]:
        with self._lock:
            return list(self._by_table.get(code, ()))

    def connected_seats(self, code: str) -> set[int]:
        return {c.seat for c in self.connections(code) if c.seat is not None and c.open}

    def register(self, table: Table, conn: Connection) -> None:
        """Add a connection and start its sender, which sends it what it lacks at once (a
        phone coming back is whole again); the others see the seat come back."""
        with self._lock:
            self._by_table.setdefault(conn.code, set()).add(conn)
        threading.Thread(target=self._sender, args=(table, conn), daemon=True,
                         name=f"push {conn.code} {conn.seat}").start()
        self._wake(table.code)

    def unregister(self, table: Table, conn: Connection) -> None:
        conn.open = False
        conn.wake.set()  # the sender ends
        with self._lock:
            conns = self._by_table.get(conn.code)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._by_table[conn.code]
        self.pipeline.closed(conn)
        self._wake(table.code)

    def seat_freed(self, code: str, seat: int) -> None:
        """Tell the phones of a seat the host has freed, and close their sockets."""
        for conn in self.connections(code):
            if conn.seat == seat:
                with conn.send_lock:
                    conn.send(self.pipeline.farewell(conn))
                conn.open = False
                conn.wake.set()
                with contextlib.suppress(Exception):  # already gone
                    conn.ws.close(reason=1008, message="seat freed")

    def table_retired(self, code: str) -> None:
        """Close every socket of a table whose code was given up: the code may soon name
        another table."""
        for conn in self.connections(code):
            conn.open = False
            conn.wake.set()
            with contextlib.suppress(Exception):  # already gone
                conn.ws.close(reason=1001, message="table retired")

    def host_link_revoked(self, code: str) -> None:
        """Close the table screens that have the host's buttons: each comes back at once
        (a code its socket retries on) and is known again by its cookie, so a device whose
        host link was revoked is a plain table screen from then on."""
        for conn in self.connections(code):
            if conn.is_host:
                conn.open = False
                conn.wake.set()
                with contextlib.suppress(Exception):  # already gone
                    conn.ws.close(reason=1013, message="host links changed")

    def table_changed(self, table: Table) -> None:
        self._wake(table.code)

    def _wake(self, code: str) -> None:
        with self._lock:
            self._versions[code] = self._versions.get(code, 0) + 1
        for conn in self.connections(code):
            conn.wake.set()

    def _sender(self, table: Table, conn: Connection) -> None:
        """Until the connection closes: wait for a change, then send what it changed. A
        change during a send wakes the loop again, so the newest state always goes last."""
        while True:
            conn.wake.wait()
            conn.wake.clear()
            if not conn.open:
                return
            try:
                self.push(table, conn)
            except Exception:  # a rendering bug must not silence this phone for good
                logger.exception("push to %s seat %s failed", conn.code, conn.seat)

    def push(self, table: Table, conn: Connection) -> None:
        """Send ``conn`` what its viewer lacks now."""
        if not conn.open:
            return
        with conn.send_lock:
            text = self.pipeline.push(table, conn, self.version(table.code))
            if text:
                conn.send(text)
