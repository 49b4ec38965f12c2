"""A freed seat taken back: during a game a free seat holds a hand, so whoever asks for it
waits on a page of its own until the host lets them in (or turns them away) on the host's
screen. The page asks again every few seconds; once let in, the phone goes to its seat.

The page shows the request's spoken code large, and the host's view of the table screen
shows it beside the name: the host asks the person at the table for it, since anyone on
the wifi can type the freed player's name. The public screen shows no request at all. One
address holds one place in the line: asking again replaces its request."""

from __future__ import annotations

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.tables import Table, TableError
from companion.web.cookies import (
    seat_cookie,
    set_secret_cookie,
    wait_cookie,
    wait_token,
)
from companion.web.ratelimit import address_key
from companion.web.render import game_name
from companion.web.responses import refusal_response, table_or_404, tables
from companion.web.screen import is_host

bp = Blueprint("waiting", __name__)

#: Seconds between a waiting phone's questions.
POLL_SECONDS = 2


def ask(table: Table, name: str, seat: int) -> Response:
    """Ask the host for ``seat`` (a freed seat of a game under way) and go and wait."""
    token = tables().ask_seat(table, name, seat, asker=address_key())
    response = redirect(url_for("waiting.wait", code=table.code), code=303)
    set_secret_cookie(response, wait_cookie(table.code), token)
    return response


@bp.get("/t/<code>/wait")
def wait(code: str) -> Response:
    """Where a newcomer waits for the host: the whole page, or (polled by htmx) its
    status; once let in, the seat's cookie and the way to the seat."""
    table = table_or_404(code)
    token = wait_token(request, table.code)
    polled = bool(request.headers.get("HX-Request"))
    if table.seat_of(token) is not None:
        assert token is not None
        play = url_for("phone.play", code=table.code)
        response = Response(status=204, headers={"HX-Redirect": play}) if polled \
            else redirect(play, code=303)
        set_secret_cookie(response, seat_cookie(table.code), token)
        response.delete_cookie(wait_cookie(table.code), path="/")
        return response
    pending = table.request_of(token)
    context = {"code": table.code, "game_name": game_name(table.row.game),
               "game_id": table.row.game, "pending": pending, "poll": POLL_SECONDS}
    template = "wait_status.html" if polled else "wait.html"
    return make_response(render_template(template, **context))


def host_answer(code: str, admit: bool) -> Response:
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    try:
        if admit:
            tables().admit(table, request.form.get("request", "")[:16])
        else:
            tables().turn_away(table, request.form.get("request", "")[:16])
    except TableError as error:
        return refusal_response(error.rule, table.row.game, **error.params)
    if request.headers.get("HX-Request"):
        return Response(status=204)
    return redirect(url_for("screen.show", code=table.code), code=303)


@bp.post("/t/<code>/admit")
def admit(code: str) -> Response:
    """The host lets a waiting newcomer into the seat they asked for."""
    return host_answer(code, admit=True)


@bp.post("/t/<code>/turn-away")
def turn_away(code: str) -> Response:
    """The host turns a waiting newcomer away."""
    return host_answer(code, admit=False)
