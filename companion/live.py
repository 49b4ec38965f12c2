"""The websocket hub: who is connected to which table as which seat, and the pushes.

flask-sock has no broadcast, so the hub keeps the registry. A change wakes every connection
of the table; each connection has a sender thread of its own that renders the newest state
for its viewer (through the ``renderer`` the web layer installs: the hub knows sockets, not
templates) and sends only the parts whose HTML changed since it last sent them. So the
request that made the change never waits for a push, a slow or dead phone holds up nobody
else, and a phone that was busy gets the newest state once, never a backlog.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

    from companion.tables import Table


@dataclass(frozen=True)
class Part:
    """One region of a page (an element with an ``id``), as a push would swap it in.

    ``items`` are the region's list items, newest first (the log's lines): when a region
    with items changes, a connection that already has it receives only its new, changed and
    dropped items. ``html`` then holds the whole region, ``item_html`` each item alone.
    """

    id: str
    html: str
    items: tuple[tuple[str, str], ...] = ()  # (item id, item HTML), in page order

    @property
    def digest(self) -> str:
        return fingerprint(self.html)


#: Renders what one connection shows now, region by region, in page order.
Renderer = Callable[["Table", "Connection"], list[Part]]

#: A confirm form carries a fresh id for each rendering, so that a double tap applies once;
#: it is not a change of the region.
_VOLATILE = b'name="client_move_id" value="'


def fingerprint(html: str) -> str:
    data = html.encode()
    start = data.find(_VOLATILE)
    if start >= 0:
        end = data.find(b'"', start + len(_VOLATILE))
        data = data[:start] + data[end:]
    return hashlib.blake2b(data, digest_size=12).hexdigest()


@dataclass(eq=False)
class Connection:
    ws: Any
    code: str
    seat: int | None  # None: the table screen
    lang: str
    is_host: bool = False
    #: The token of the page that opened this socket (see ``Hub.remember_page``).
    page: str | None = None
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    open: bool = True
    #: What this connection was last sent: a digest per region and per list item.
    sent: dict[str, str] = field(default_factory=dict)
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


def changes(conn: Connection, parts: Iterable[Part]) -> str:
    """The HTML ``conn`` needs to show ``parts``, given what it was sent before; updates
    ``conn.sent`` to match. Empty when nothing changed."""
    out: list[str] = []
    for part in parts:
        digest = part.digest
        if conn.sent.get(part.id) == digest:
            continue
        if part.id in conn.sent and part.items:
            out.append(_item_changes(conn, part))
        else:
            out.append(part.html)
            for item_id, item_html in part.items:
                conn.sent[item_id] = fingerprint(item_html)
            conn.sent[f"{part.id}#items"] = " ".join(item_id for item_id, _ in part.items)
        conn.sent[part.id] = digest
    return "".join(out)


def _item_changes(conn: Connection, part: Part) -> str:
    """New items go on top of the region's list, changed ones are swapped in place and
    items no longer shown are removed."""
    before = conn.sent.get(f"{part.id}#items", "").split()
    now = [item_id for item_id, _ in part.items]
    out: list[str] = []
    new = [html for item_id, html in part.items if item_id not in before]
    if new:
        out.append(f'<template hx-swap-oob="afterbegin:#{part.id}">{"".join(new)}</template>')
    for item_id, html in part.items:
        digest = fingerprint(html)
        if item_id in before and conn.sent.get(item_id) != digest:
            out.append(_with_oob(html, "outerMorph"))
        conn.sent[item_id] = digest
    for item_id in before:
        if item_id not in now:
            out.append(f'<template id="{item_id}" hx-swap-oob="delete"></template>')
            conn.sent.pop(item_id, None)
    conn.sent[f"{part.id}#items"] = " ".join(now)
    return "".join(out)


def _with_oob(html: str, swap: str) -> str:
    """The element ``html`` begins with, swapped out of band by ``swap``."""
    start = html.index("<")
    end = start + 1
    while end < len(html) and (html[end].isalnum() or html[end] == "-"):
        end += 1
    return f'{html[:end]} hx-swap-oob="{swap}"{html[end:]}'


logger = logging.getLogger(__name__)

#: Pages remembered for the socket each opens (see ``remember_page``).
PAGES_KEPT = 2048


class Hub:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.renderer: Renderer | None = None
        #: Guards the registry, the versions, the pages, and the renderer's shared cache.
        self.lock = threading.Lock()
        self._by_table: dict[str, set[Connection]] = {}
        self._versions: dict[str, int] = {}
        self._pages: OrderedDict[str, dict[str, str]] = OrderedDict()

    def version(self, code: str) -> int:
        """A number that grows with every change of the table or of who is connected: what
        a rendering taken at one version shows is at least as new as that version."""
        with self.lock:
            return self._versions.get(code, 0)

    def remember_page(self, known: dict[str, str]) -> str:
        """Keep what a page was drawn with (a digest per region); returns a token for the
        page's socket to claim once."""
        token = secrets.token_urlsafe(9)
        with self.lock:
            self._pages[token] = known
            while len(self._pages) > PAGES_KEPT:
                self._pages.popitem(last=False)
        return token

    def claim_page(self, token: str | None) -> dict[str, str]:
        """What the page behind ``token`` shows, once: a socket that reconnects later gets
        everything, since it may have missed pushes."""
        with self.lock:
            return self._pages.pop(token, {}) if token else {}

    def connections(self, code: str) -> list[Connection]:
        with self.lock:
            return list(self._by_table.get(code, ()))

    def connected_seats(self, code: str) -> set[int]:
        return {c.seat for c in self.connections(code) if c.seat is not None and c.open}

    def register(self, table: Table, conn: Connection) -> None:
        """Add a connection and start its sender, which sends it what it lacks at once (a
        phone coming back is whole again); the others see the seat come back."""
        with self.lock:
            self._by_table.setdefault(conn.code, set()).add(conn)
        threading.Thread(target=self._sender, args=(table, conn), daemon=True,
                         name=f"push {conn.code} {conn.seat}").start()
        self._wake(table.code)

    def unregister(self, table: Table, conn: Connection) -> None:
        conn.open = False
        conn.wake.set()  # the sender ends
        with self.lock:
            conns = self._by_table.get(conn.code)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self._by_table[conn.code]
        self._wake(table.code)

    def seat_freed(self, code: str, seat: int) -> None:
        """Close the sockets of a seat the host has freed."""
        for conn in self.connections(code):
            if conn.seat == seat:
                conn.open = False
                conn.wake.set()
                with contextlib.suppress(Exception):  # already gone
                    conn.ws.close(reason=1008, message="seat freed")

    def shown(self, code: str, page: str | None, parts: list[Part]) -> None:
        """The page behind ``page`` was just answered with ``parts`` over HTTP: its socket
        need not be sent them again."""
        for conn in self.connections(code):
            if page and conn.page == page:
                with conn.send_lock:
                    changes(conn, parts)

    def table_changed(self, table: Table) -> None:
        self._wake(table.code)

    def _wake(self, code: str) -> None:
        with self.lock:
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
        """Render ``conn``'s viewer now and send the parts that changed."""
        if self.renderer is None or not conn.open:
            return
        with conn.send_lock, self.app.app_context():
            parts = self.renderer(table, conn)
            text = changes(conn, parts)
            if text:
                conn.send(text)
