"""Refusals and table look-ups shared by the blueprints."""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    g,
    jsonify,
    make_response,
    render_template,
    request,
)

from companion.i18n import current_lang
from companion.tables import Table, Tables
from companion.web.clauses import clause_text
from companion.web.seat_names import seats_named
from companion.web.services import services, spec_of


def tables() -> Tables:
    return services().tables


def table_or_404(code: str) -> Table:
    """The table of the address, kept for the request (a refusal names its game's rules),
    or the "no such table" refusal."""
    table = tables().get(code)
    if table is None:
        abort(make_response(refusal_response("table.unknown-table")))
    g.table = table
    return table


def request_table() -> Table | None:
    """The table this request looked up, if any."""
    table: Table | None = g.get("table")
    return table


def wants_json() -> bool:
    return request.path.startswith("/api/")


#: The HTTP status of each platform refusal; any other rule (a game's) is a 422.
STATUS_OF_RULE = {
    "table.bad-request": 400, "table.bad-move": 400, "table.bad-seq": 400,
    "table.bad-client-move-id": 400, "table.undo-unnamed": 400, "table.bad-correction": 400,
    "table.no-corrections": 409,
    "table.bad-token": 403, "table.bad-origin": 403, "table.host-only": 403,
    "table.seed-refused": 403, "table.bad-host": 400, "table.bad-host-key": 403,
    "table.not-your-turn": 403, "table.undo-not-yours": 403, "table.undo-finished": 403,
    "table.night-token": 403,
    "table.unknown-table": 404, "table.unknown-game": 404, "table.not-found": 404,
    "table.method": 405,
    "table.full": 409, "table.seat-held": 409, "table.too-many-requests": 409,
    "table.no-such-request": 409, "table.seat-taken": 409, "table.already-playing": 409,
    "table.seats-missing": 409, "table.not-playing": 409, "table.stale": 409,
    "table.moved-on": 409, "table.no-such-move": 409, "table.too-many-host-links": 409,
    "table.no-such-host-link": 409,
    "table.too-slow": 408, "table.too-large": 413, "table.no-free-code": 503,
    "table.too-many-connections": 503,
    "table.too-fast": 429, "table.too-many-tables": 429,
    "table.server-error": 500,
}


def status_of(rule: str) -> int:
    return STATUS_OF_RULE.get(rule, 422)


def refusal_body(rule: str, game_id: str = "", **params: Any) -> dict[str, str]:
    """A refusal as its reader reads it. ``turn``, the seats the game waits for, is said by
    their names ("the game waits for Ana")."""
    waited = params.pop("turn", None)
    table = request_table()
    if waited and table is not None:
        params["turn"] = seats_named(table, waited)
    return {"rule": rule, "message": clause_text(spec_of(game_id), rule, current_lang(), params)}


def refusal_response(rule: str, game_id: str = "", status: int | None = None,
                     **params: Any) -> Response:
    """JSON for the API, an out-of-band notice for htmx, a small page for a browser; the
    status is the rule's own unless given."""
    body = refusal_body(rule, game_id, **params)
    if wants_json():
        response = jsonify({"error": body})
    elif request.headers.get("HX-Request"):
        response = make_response(render_template("partials/notice.html", notice=body, oob=True))
    else:
        response = make_response(render_template("error.html", notice=body))
    response.status_code = status or status_of(rule)
    return response
