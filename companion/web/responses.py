"""Refusals and table look-ups shared by the blueprints."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, current_app, jsonify, make_response, render_template, request

from companion.clauses import clause_text
from companion.i18n import current_lang
from companion.tables import Table, Tables


def tables() -> Tables:
    return current_app.extensions["tables"]


def table_or_404(code: str) -> Table:
    table = tables().get(code)
    if table is None:
        abort(make_response(refusal_response("table.unknown-table", 404)))
    return table


def wants_json() -> bool:
    return request.path.startswith("/api/")


def refusal_body(rule: str, game_id: str = "", **params: Any) -> dict[str, str]:
    return {"rule": rule, "message": clause_text(game_id, rule, current_lang(), params)}


def refusal_response(rule: str, status: int, game_id: str = "", **params: Any) -> Response:
    """JSON for the API, an out-of-band notice for htmx, a small page for a browser."""
    body = refusal_body(rule, game_id, **params)
    if wants_json():
        response = jsonify({"error": body})
    elif request.headers.get("HX-Request"):
        response = make_response(render_template("partials/notice.html", notice=body, oob=True))
    else:
        response = make_response(render_template("error.html", notice=body))
    response.status_code = status
    return response
