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
import functools
import hashlib
import logging
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

    from companion.tables import Table


#: A list item in a region's template: ``<!--i:LIST-->ELEMENT<!--/i-->``, where LIST is the
#: id of the element the item sits in and ELEMENT has an ``id`` of its own.
_OPEN, _CLOSE = "<!--i:", "<!--/i-->"
_LIST_ID = re.compile(r"[\w-]+")
_FIRST_TAG = re.compile(r"\s*<([a-zA-Z][\w-]*)([^>]*)>")
_ID = re.compile(r'\sid="([^"]+)"')
_SPACES = re.compile(r"\s+")
#: Items that the HTML parser drops or misreads on their own are sent inside what they need:
#: (opening, element that holds an item to insert, closing), by the item's tag.
_SVG = ("<svg>", "g", "</svg>")
_CONTEXT = {**dict.fromkeys(("g", "path", "text", "circle", "ellipse", "rect", "polygon",
                             "line", "polyline"), _SVG),
            "tr": ("<table>", "tbody", "</table>"),
            **dict.fromkeys(("td", "th"), ("<table>", "tr", "</table>"))}
_PLAIN = ("", "template", "")


@dataclass(frozen=True)
class Item:
    """One element of a region's list: a log line, a square of a board, a block's faces."""

    id: str
    list_id: str
    html: str
    digest: str
    #: (opening, holder, closing): see ``_CONTEXT``.
    context: tuple[str, str, str]


@dataclass(frozen=True)
class Part:
    """One region of a page (an element with an ``id``), as a push would swap it in.

    A region's template marks its list items (see ``_OPEN``). When only items changed (the
    rest of the region, its ``skeleton``, is the same), a connection that has the region
    receives only the items added, changed and dropped, each put in its place.
    """

    id: str
    html: str
    digest: str
    skeleton: str = ""
    items: tuple[Item, ...] = ()

    @classmethod
    def of(cls, region_id: str, marked: str) -> Part:
        """The region drawn as ``marked`` (its items marked; the markers are not sent)."""
        html: list[str] = []
        skeleton: list[str] = []
        items: list[Item] = []
        position = 0
        for start, list_id, inner, end in _marked_items(marked):
            between = marked[position:start]
            html += (between, inner)
            skeleton.append(between)
            items.append(_item(list_id, inner))
            position = end
        html.append(marked[position:])
        skeleton.append(marked[position:])
        whole = "".join(html)
        # Spaces left by a template's conditions around an item are not a change.
        frame = _SPACES.sub(" ", "".join(skeleton)) if items else ""
        return cls(region_id, whole, fingerprint(whole), fingerprint(frame) if items else "",
                   tuple(items))


def _marked_items(marked: str) -> Iterator[tuple[int, str, str, int]]:
    """Each item marked in ``marked`` (see ``_OPEN``): where its marker starts, its list's
    id, its element, where its closing marker ends. Found with ``str.find``: a regular
    expression's lazy match tried the closing marker at every character of a picture's
    hundreds of kilobytes."""
    start = marked.find(_OPEN)
    while start >= 0:
        name_end = marked.find("-->", start)
        close = marked.find(_CLOSE, name_end)
        list_id = marked[start + len(_OPEN):name_end]
        if name_end < 0 or close < 0 or not _LIST_ID.fullmatch(list_id):
            raise ValueError(f"a badly marked list item: {marked[start:start + 80]!r}")
        end = close + len(_CLOSE)
        yield start, list_id, marked[name_end + 3:close], end
        start = marked.find(_OPEN, end)


#: Items parsed lately: a move changes few of a region's items, so most are met again.
ITEMS_KEPT = 32768


@functools.lru_cache(maxsize=ITEMS_KEPT)
def _item(list_id: str, html: str) -> Item:
    tag = _FIRST_TAG.match(html)
    found = _ID.search(tag.group(2)) if tag else None
    if tag is None or found is None:
        raise ValueError(f"a list item of #{list_id} has no id on its element: {html[:80]!r}")
    return Item(found.group(1), list_id, html, fingerprint(html),
                _CONTEXT.get(tag.group(1).lower(), _PLAIN))


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


def remember(sent: dict[str, str], part: Part) -> None:
    """Record in ``sent`` that ``part`` is shown whole."""
    shown = {item.id for item in part.items}
    for item_id in sent.get(f"{part.id}#items", "").split():
        if item_id not in shown:
            sent.pop(item_id, None)
    for item in part.items:
        sent[item.id] = item.digest
    if part.items or f"{part.id}#items" in sent:
        sent[f"{part.id}#items"] = " ".join(item.id for item in part.items)
        sent[f"{part.id}#skeleton"] = part.skeleton
    sent[part.id] = part.digest


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
        if conn.sent.get(part.id) == part.digest:
            continue
        edits = None
        if part.items and conn.sent.get(f"{part.id}#skeleton") == part.skeleton:
            edits = _item_changes(conn.sent, part)
        out.append(part.html if edits is None else edits)
        remember(conn.sent, part)
    return "".join(out)


def _item_changes(sent: dict[str, str], part: Part) -> str | None:
    """The edits that turn the items ``sent`` into ``part``'s: drop the items gone, put new
    ones after the item before them (or first in their list), morph the changed ones. None
    when the items kept changed order, or the edits would outweigh the whole region.

    Out-of-band targets are found before any edit is made, so new items that follow each
    other go in together, after an item the page already has."""
    before = sent.get(f"{part.id}#items", "").split()
    old = set(before)
    now = {item.id for item in part.items}
    kept = [item.id for item in part.items if item.id in old]
    if kept != [item_id for item_id in before if item_id in now]:
        return None
    out = [f'<template id="{item_id}" hx-swap-oob="delete"></template>'
           for item_id in before if item_id not in now]
    previous: dict[str, str] = {}
    run: list[Item] = []  # new items, one after the other in one list

    def put_run() -> None:
        if run:
            opening, holder, closing = run[0].context
            after = previous.get(run[0].list_id)
            where = f"afterend:#{after}" if after else f"afterbegin:#{run[0].list_id}"
            html = "".join(item.html for item in run)
            out.append(f'{opening}<{holder} hx-swap-oob="{where}">{html}</{holder}>{closing}')
            previous[run[0].list_id] = run[-1].id
            run.clear()

    for item in part.items:
        if item.id not in old:
            if run and (run[-1].list_id != item.list_id or run[-1].context != item.context):
                put_run()
            if run or previous.get(item.list_id) is None or previous[item.list_id] in old:
                run.append(item)
                continue
            return None  # after an item of another run: cannot happen in one list
        put_run()
        if sent.get(item.id) != item.digest:
            opening, _, closing = item.context
            out.append(opening + _with_oob(item.html, "outerMorph") + closing)
        previous[item.list_id] = item.id
    put_run()
    edits = "".join(out)
    return None if len(edits) >= len(part.html) else edits


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
        #: What a phone whose seat the host freed is sent last (the web layer draws it).
        self.farewell: Callable[[Connection], str] | None = None
        #: Guards the registry, the versions, the pages, and the renderer's shared cache.
        self.lock = threading.Lock()
        self._by_table: dict[str, set[Connection]] = {}
        self._versions: dict[str, int] = {}
        self._pages: OrderedDict[str, tuple[tuple[str, int | None], dict[str, str]]] = \
            OrderedDict()

    def version(self, code: str) -> int:
        """A number that grows with every change of the table or of who is connected: what
        a rendering taken at one version shows is at least as new as that version."""
        with self.lock:
            return self._versions.get(code, 0)

    def remember_page(self, known: dict[str, str], owner: tuple[str, int | None]) -> str:
        """Keep what a page was drawn with (a digest per region) for ``owner`` (its table's
        code and its seat, None for the table screen); returns a token for the page's
        socket to claim once."""
        token = secrets.token_urlsafe(9)
        with self.lock:
            self._pages[token] = (owner, known)
            while len(self._pages) > PAGES_KEPT:
                self._pages.popitem(last=False)
        return token

    def claim_page(self, token: str | None,
                   owner: tuple[str, int | None]) -> dict[str, str] | None:
        """What the page behind ``token`` shows, once, if ``owner`` drew it (None when it
        did not: another phone's token says nothing about this one). A socket that
        reconnects later gets everything, since it may have missed pushes."""
        with self.lock:
            kept = self._pages.get(token) if token else None
            if token is None or kept is None or kept[0] != owner:
                return None
            del self._pages[token]
            return kept[1]

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
        """Tell the phones of a seat the host has freed, and close their sockets."""
        for conn in self.connections(code):
            if conn.seat == seat:
                if self.farewell is not None:
                    with conn.send_lock:
                        conn.send(self.farewell(conn))
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

    def shown(self, code: str, seat: int, page: str | None, parts: list[Part]) -> None:
        """``seat``'s page behind ``page`` was just answered with ``parts`` over HTTP: its
        socket need not be sent them again (another seat's page token changes nothing)."""
        for conn in self.connections(code):
            if page and conn.page == page and conn.seat == seat:
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
