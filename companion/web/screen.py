"""The table screen on the laptop: the QR code, the seats, the board and the scoreboard.

Whoever opens it sees no secret; the host (the browser that created the table, or a device
it opened a host link on: ``companion.web.host_links``) also gets the buttons: start, free a
seat, undo, play again.
"""

from __future__ import annotations

import re

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.match import STEPS
from companion.network import qr_svg
from companion.tables import Table, TableError
from companion.web.cookies import host_token
from companion.web.regions import log_lines, regions
from companion.web.render import join_url, screen_context
from companion.web.responses import refusal_response, table_or_404, tables
from companion.web.services import services

bp = Blueprint("screen", __name__)


def is_host(table: Table) -> bool:
    return table.is_host(host_token(request, table.code))


@bp.get("/t/<code>/screen")
def show(code: str) -> str:
    table = table_or_404(code)
    host = is_host(table)
    parts = regions(table, None, is_host=host, memo=services().caches.memo)
    page = services().pushes.remember_page((table.code, None), parts)
    return render_template("screen/page.html", parts=parts, page=page,
                           **screen_context(table, host))


def host_action(code: str, action: str) -> Response:
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    try:
        if action == "start":
            tables().start(table, first_seat=int(request.form.get("first_seat", "0")))
        elif action == "free":
            tables().free_seat(table, int(request.form.get("seat", "")))
        elif action == "rewind":
            tables().rewind(table, form_seq("to"), form_seq("last"))
        elif action == "correct":
            tables().correct(table, form_correction(), form_seq("last"))
        else:
            # The confirmation named a move: if another came since, nothing is undone.
            tables().host_undo(table, form_seq("undo"))
    except ValueError:
        return refusal_response("table.no-such-seat", seat="?")
    except TableError as error:
        return refusal_response(error.rule, table.row.game, **error.params)
    if request.headers.get("HX-Request"):
        return Response(status=204)
    return redirect(url_for("screen.show", code=table.code), code=303)


def form_seq(name: str) -> int:
    """A seq the host's confirmation carries; a form without one is a bad request."""
    try:
        return int(request.form.get(name, ""))
    except ValueError:
        raise TableError("table.bad-seq") from None


def form_correction() -> dict[str, object]:
    """The correction a "The table differs…" form carries, in the game's shape: its fields
    named ``c_<key>``, a whole number where the field holds one, none (JSON null) where it
    is empty (a cube's long side). The game checks the rest."""
    return {key[2:]: None if value == "" else int(value) if WHOLE.fullmatch(value) else value
            for key, value in request.form.items() if key.startswith("c_")}


#: A form field holding a whole number.
WHOLE = re.compile(r"-?[0-9]{1,6}")


@bp.post("/t/<code>/start")
def start(code: str) -> Response:
    return host_action(code, "start")


@bp.post("/t/<code>/free")
def free(code: str) -> Response:
    return host_action(code, "free")


@bp.post("/t/<code>/host-undo")
def host_undo(code: str) -> Response:
    return host_action(code, "undo")


@bp.get("/t/<code>/rewind")
def rewind_confirmation(code: str) -> Response | str:
    """The host's confirmation of a rewind: every move it takes back, as the log says it;
    the form carries the table's seq as shown, so a move made meanwhile refuses it."""
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    try:
        to = int(request.args.get("to", ""))
    except ValueError:
        return refusal_response("table.bad-seq")
    context = screen_context(table, is_host=False)
    with table.lock:
        # Only what the table screen shows is named or counted, by the screen's seqs: a
        # choice changed in secret goes back with the rest, unsaid.
        lines = [item for item in table.match.log_for(None)
                 if item["kind"] in STEPS and not item["undone"] and item["seq"] >= to]
        if to not in (line["seq"] for line in lines):
            return refusal_response("table.no-such-move", table.row.game, seq=to)
        last = table.match.seq_for(None)
    context.update(log=list(reversed(lines)), to=to, last=last, count=len(lines))
    return render_template("screen/rewind.html", lines=log_lines(table, context), **context)


@bp.post("/t/<code>/rewind")
def rewind(code: str) -> Response:
    return host_action(code, "rewind")


@bp.get("/t/<code>/correct")
def correction_page(code: str) -> Response | str:
    """"The table differs…": the host sets the public position right, with the board's
    own picture and the game's form (``games/<id>/correct.html``), drawn from the table
    screen's view: no hand, no secret. Its forms carry the screen's seq, so a move made
    meanwhile refuses the correction."""
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    if not table.game.takes_corrections:
        return refusal_response("table.no-corrections")
    if table.status != "playing":
        return refusal_response("table.not-playing")
    context = screen_context(table, is_host=False)
    with table.lock:
        context["last"] = table.match.seq_for(None)
    return render_template("screen/correct.html", **context)


@bp.post("/t/<code>/correct")
def correct(code: str) -> Response:
    return host_action(code, "correct")


@bp.get("/t/<code>/qr.svg")
def qr(code: str) -> Response:
    """The join address as a QR code: an image of its own, fetched once, so that the pushes
    to the table screen do not carry it."""
    table = table_or_404(code)
    response = Response(qr_svg(join_url(table.code)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response
