"""The websocket each phone and table screen holds: pushes only, identified on connect.

A connection is registered under its seat (the seat cookie) or as the table screen, and
is sent its full view at once, so a phone that slept or lost its wifi comes back whole.
Phones act through ordinary requests; a message sent up the socket gets a clear notice.
A code that finds no table is refused before the upgrade, a 404 like any other look-up's
(the rate limit has counted it a miss by then).
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_sock import ConnectionClosed, Sock

from companion.i18n import current_lang
from companion.live import Connection
from companion.web.cookies import host_token, seat_token
from companion.web.responses import refusal_body, request_table, table_or_404
from companion.web.services import services

bp = Blueprint("sockets", __name__)


@bp.before_request
def refuse_unknown_table() -> None:
    """flask-sock answers the handshake before its route runs: the table is found here."""
    table_or_404((request.view_args or {}).get("code", ""))


@Sock().route("/t/<code>/ws", bp=bp)
def table_socket(ws, code: str) -> None:
    table = request_table()
    assert table is not None  # refuse_unknown_table found it
    seat = table.seat_of(seat_token(request, table.code))
    conn = Connection(ws, table.code, seat, current_lang(),
                      is_host=table.is_host(host_token(request, table.code)))
    hub = services().hub
    # This phone's own page: its socket sends only what changed since the page was drawn.
    services().pushes.opened(conn, request.args.get("page"))
    hub.register(table, conn)
    notice = render_template("partials/notice.html", oob=True,
                             notice=refusal_body("table.bad-request", "",
                                                 detail="the socket only listens"))
    limit = current_app.config["SOCK_SERVER_OPTIONS"]["max_message_size"]
    try:
        while conn.open:
            message = ws.receive(timeout=30)
            if message is None:
                continue
            size = len(message.encode() if isinstance(message, str) else message)
            if size > limit:  # the socket counts characters; the limit is in bytes
                ws.close(reason=1009, message="message too big")
                break
            with conn.send_lock:
                conn.send(notice)
    except ConnectionClosed:
        pass
    finally:
        hub.unregister(table, conn)
