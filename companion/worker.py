"""gunicorn's gevent worker, with the limits a guest on the wifi meets (README, "Limits, for
a guest on the wifi"; docs/api.md, "Limits"). Set in ``companion/gunicorn_config.py``.

- **One request, then the others.** A greenlet gives way only when it waits, and a
  keep-alive connection whose next request is already there (pipelined) never waits: it
  would be served again and again while every other table, and the worker's heartbeat to
  gunicorn's master, waited for it to stop. After each request, every other greenlet
  that is ready runs first (``let_others_run``).
- **Connections per address.** One address holds at most ``connections_per_address()``
  connections, websockets included. A connection over the cap is served one request: the
  app's refusal (``table.too-many-connections``, 503), then it is closed. Past twice the
  cap, a connection is closed at once: no browser holds that many.
- **A body that does not come.** A request's body must have arrived ``BODY_SECONDS`` after
  its headers, or reading it fails with 408 (``table.too-slow``) and the connection is
  closed. The headers themselves are bounded by gunicorn's ``keepalive`` (5 s), and a
  websocket, whose request has no body, is not concerned.

Nothing here imports the app: gunicorn's master loads this class before the worker
patches the standard library for gevent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import RequestTimeout

from companion.aside import let_others_run
from companion.config import OVER_CONNECTION_CAP, connections_per_address

#: Seconds a request's body has, from the end of its headers, to arrive whole.
BODY_SECONDS = 10.0

#: Whether the connection this greenlet serves is over its address's cap.
_over_cap: ContextVar[bool] = ContextVar("over_cap", default=False)

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ArrivingBy:
    """The reader of a request's body (gunicorn's ``LengthReader`` or ``ChunkedReader``),
    giving up at a deadline while the app reads: each read waits at most what is left of
    ``seconds``. When it gives up, the answer closes the connection; gunicorn's ``Body``
    marks itself failed too (its reader raised), so nothing more is read from it."""

    def __init__(self, req: Any, seconds: float) -> None:
        self.req = req
        self.reader = req.body.reader
        self.deadline = time.monotonic() + seconds

    def read(self, size: int) -> bytes:
        late = RequestTimeout("the request's body did not arrive in time")
        left = self.deadline - time.monotonic()
        try:
            if left <= 0:
                raise late
            with gevent.Timeout(left, late):
                data: bytes = self.reader.read(size)
                return data
        except RequestTimeout:
            self.req.must_close = True
            raise


def marking_over_cap(app: WSGIApp) -> WSGIApp:
    """``app``, told (``OVER_CONNECTION_CAP`` in the environ) when the request came on a
    connection over its address's cap, so that it answers with its refusal."""

    def marked(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if _over_cap.get():
            environ[OVER_CONNECTION_CAP] = True
        return app(environ, start_response)

    return marked


class CompanionWorker(GeventWorker):
    """gunicorn's gevent worker with the three limits above (the module's docstring)."""

    wsgi: WSGIApp

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cap = connections_per_address()
        #: Open connections by client address.
        self.open: dict[str, int] = {}

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = marking_over_cap(self.wsgi)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        held = self.open.get(address, 0)
        if held >= 2 * self.cap:
            client.close()
            return
        self.open[address] = held + 1
        over = _over_cap.set(held >= self.cap)
        try:
            super().handle(listener, client, addr)
        finally:
            _over_cap.reset(over)
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> None:
        if _over_cap.get():
            req.must_close = True  # the refusal is this connection's only answer
        arriving = ArrivingBy(req, BODY_SECONDS)
        req.body.reader = arriving
        try:
            super().handle_request(listener_name, req, sock, addr)
        finally:
            # What the app left unread is skipped within gunicorn's keep-alive timeout.
            req.body.reader = arriving.reader
        let_others_run()
