"""The pushes: what each websocket of a table is sent after a change, and the record of
what it was sent.

The hub (``companion.live``) knows sockets, not pages: when a connection's sender wakes,
it hands :class:`Pushes` the table, the connection and the table's version, and sends the
text it gets back. Everything a push needs to remember is kept here, under this object's
own lock: what each open connection was last sent (digests by region, see
``companion.web.diff``), forgotten when the connection closes; each table's latest
renderings by viewer; and what the pages were drawn with, for the socket each page opens.

It draws through the regions it is given (``companion.web.regions``, by the app factory)
rather than importing them: the regions reach the app's services, which hold the pushes.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, render_template
from werkzeug.test import EnvironBuilder

from companion.i18n import drawing_in
from companion.live import Connection
from companion.lru import LRU
from companion.tables import Table
from companion.web.diff import Part, catch_up, record_shown
from companion.web.memo import RegionMemo

#: A phone's regions below what a move changes in sight (the tower, the question, the
#: picker): a push sends them after ``LATER``, and the phone swaps them in two frames after
#: the rest, once its tower is drawn again (``static/js/companion.js``).
PHONE_LATER = frozenset(("seats", "log"))
LATER = "<!--later-->"
#: Pages remembered for the socket each opens (see ``Pushes.remember_page``).
PAGES_KEPT = 2048

#: Whose page a page memory is: its table's code and its seat (None: the table screen).
Owner = tuple[str, int | None]


class Regions(Protocol):
    """How a viewer's regions are drawn: ``companion.web.regions``."""

    def regions(self, table: Table, seat: int | None, is_host: bool = False, *,
                board: Part | None = None, memo: RegionMemo | None = None) -> list[Part]: ...

    def phone_board(self, table: Table, memo: RegionMemo | None = None) -> Part: ...


@dataclass
class _Record:
    """What one connection was sent: digests by region (``diff.record_shown``), and the
    token of the page that opened it, when that page's memory was claimed."""

    sent: dict[str, str] = field(default_factory=dict)
    page: str | None = None


class Pushes:
    """What each connection lacks now, drawn for its viewer and diffed against what it was
    sent. Viewers alike (the table screens of one language, one seat open twice) share one
    rendering per version, and the phones of one language share their board."""

    def __init__(self, app: Flask, memo: RegionMemo, drawn: Regions) -> None:
        self._app = app
        self._memo = memo
        self._drawn = drawn
        #: Guards everything below.
        self._lock = threading.Lock()
        self._records: dict[Connection, _Record] = {}
        #: Each table's latest renderings by viewer, with the version they show.
        self._renders: dict[str, tuple[int, dict[Any, list[Part]]]] = {}
        #: What a page was drawn with, by the token its socket claims it with once.
        self._pages: LRU[str, tuple[Owner, dict[str, str]]] = LRU(PAGES_KEPT)
        #: The request environment a push is drawn in, built once: werkzeug's builder took
        #: a tenth of a push's time.
        self._environ = EnvironBuilder(base_url="http://companion/").get_environ()

    def push(self, table: Table, conn: Connection, version: int) -> str:
        """What the hub sends ``conn``: the HTML its page lacks at ``version`` (see
        ``diff.catch_up``), recorded as sent; to a phone, its regions further down the page
        (``PHONE_LATER``) after ``LATER``. Empty when it lacks nothing."""
        parts = self.render(table, conn, version)
        with self._lock:
            sent = self._record(conn).sent
            if conn.seat is None:
                return catch_up(sent, parts)
            now = catch_up(sent, [part for part in parts if part.id not in PHONE_LATER])
            later = catch_up(sent, [part for part in parts if part.id in PHONE_LATER])
        return f"{now}{LATER}{later}" if now and later else now + later

    def render(self, table: Table, conn: Connection, version: int) -> list[Part]:
        """``conn``'s regions at ``version`` of its table (the hub's count of its changes):
        drawn now, or as drawn for a viewer alike at the same version."""
        key = (conn.seat, conn.is_host, conn.lang)
        board_key = ("phone board", conn.lang)
        board: Part | None = None
        with self._lock:
            kept_version, kept = self._renders.get(table.code, (-1, {}))
            if kept_version == version:
                if key in kept:
                    return kept[key]
                board = kept[board_key][0] if board_key in kept else None
        with self.drawing(conn.lang):
            if conn.seat is None:
                parts = self._drawn.regions(table, None, conn.is_host, memo=self._memo)
            else:
                board = board or self._drawn.phone_board(table, self._memo)
                parts = self._drawn.regions(table, conn.seat, board=board, memo=self._memo)
        with self._lock:
            kept_version, kept = self._renders.get(table.code, (-1, {}))
            if kept_version != version:
                kept = {}
                self._renders[table.code] = (version, kept)
            kept[key] = parts
            if board is not None:
                kept.setdefault(board_key, [board])
        return parts

    def farewell(self, conn: Connection) -> str:
        """What a phone is told when the host frees its seat: it goes back to the join page."""
        with self.drawing(conn.lang):
            return render_template("phone/freed.html", code=conn.code)

    def closed(self, conn: Connection) -> None:
        """``conn`` is closed for good: what it was sent is forgotten."""
        with self._lock:
            self._records.pop(conn, None)

    @contextlib.contextmanager
    def drawing(self, lang: str) -> Iterator[None]:
        """Draw in ``lang`` off any request: a request context of this app (``url_for``
        needs one), in an environment built once."""
        with self._app.request_context(dict(self._environ)), drawing_in(lang):
            yield

    def remember_page(self, owner: Owner, parts: list[Part],
                      pushed: list[Part] | None = None) -> str:
        """Remember what a page was drawn with, for the socket it opens: its first push then
        sends only what changed since, and does not replace a picker the player may already
        be tapping. ``pushed`` are the regions a push would draw where the page differs from
        it (a page reloaded with a half-made choice). ``owner`` is the page's table and
        seat. Returns the token the page passes on to its socket."""
        known: dict[str, str] = {}
        for part in parts:
            record_shown(known, part)
        for part in pushed or ():
            known[part.id] = part.digest
        token = secrets.token_urlsafe(9)
        with self._lock:
            self._pages.put(token, (owner, known))
        return token

    def opened(self, conn: Connection, token: str | None) -> None:
        """``conn`` was opened by the page behind ``token``: when that page was drawn for
        the same table and seat, ``conn`` starts as having been sent what the page shows
        (once: a socket that reconnects later gets everything, since it may have missed
        pushes; another phone's token says nothing about this one)."""
        with self._lock:
            kept = self._pages.get(token) if token else None
            if token is None or kept is None or kept[0] != (conn.code, conn.seat):
                return
            self._pages.pop(token)
            if conn.open:
                self._records[conn] = _Record(kept[1], token)

    def shown(self, code: str, seat: int, page: str | None, parts: list[Part]) -> None:
        """``seat``'s page behind ``page`` was just answered with ``parts`` over HTTP: its
        socket need not be sent them again (another seat's page token changes nothing)."""
        if not page:
            return
        with self._lock:
            for conn, record in self._records.items():
                if record.page == page and conn.code == code and conn.seat == seat:
                    catch_up(record.sent, parts)

    def sent_to(self, conn: Connection) -> dict[str, str]:
        """What ``conn`` was sent so far, as recorded (a copy)."""
        with self._lock:
            record = self._records.get(conn)
            return dict(record.sent) if record is not None else {}

    def _record(self, conn: Connection) -> _Record:
        """``conn``'s record, kept while it is open. Under the lock."""
        record = self._records.get(conn)
        if record is None:
            record = _Record()
            if conn.open:  # a push that ends after the connection closed keeps nothing
                self._records[conn] = record
        return record

