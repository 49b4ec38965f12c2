"""The JSON API (docs/api.md): the same tables, for scripts, bots and tests."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.tables import NAME_MAX, Table, TableError
from companion.web import exports, jsonread
from companion.web.jsonread import Unreadable
from companion.web.render import join_url
from companion.web.responses import (
    refusal_body,
    refusal_response,
    request_table,
    table_or_404,
    tables,
)
from companion.web.services import spec_of

bp = Blueprint("api", __name__, url_prefix="/api")


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def json_body(optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (``optional``: an empty object when there is no body)."""
    raw = request.get_data(cache=True)
    if optional and not raw.strip():
        return {}
    try:
        body = jsonread.loads(raw) if request.is_json else None
    except Unreadable as error:
        raise TableError("table.bad-request", detail=str(error)) from None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise TableError("table.bad-request", detail="a JSON object is expected")
    return body


@bp.errorhandler(TableError)
def refused(error: TableError) -> Response:
    """Every refusal of an API route, worded by the rules of the table it asked about."""
    table = request_table()
    return refusal_response(error.rule, table.row.game if table else "", **error.params)


def viewer_or_refuse(table: Table) -> int | None:
    """The seat reading a view or the log: a seat token, the host's or no token (None)."""
    token = bearer()
    seat = table.seat_of(token)
    if token is not None and seat is None and not table.is_host(token):
        raise TableError("table.bad-token")
    return seat


def seat_or_refuse(table: Table) -> int:
    seat = table.seat_of(bearer())
    if seat is None:
        raise TableError("table.bad-token")
    return seat


@bp.post("/tables")
def create() -> tuple[Response, int] | Response:
    body = json_body()
    game_id = body.get("game")
    game = spec_of(game_id)
    if game is None:
        raise TableError("table.unknown-game", game=str(game_id)[:40])
    players, seed, lang = body.get("players"), body.get("seed"), body.get("lang", "en")
    if not isinstance(players, int) or isinstance(players, bool):
        raise TableError("table.player-count", low=game.min_players, high=game.max_players)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < 2**53):
        raise TableError("table.bad-request", detail="seed")
    if seed is not None and not current_app.config["SEEDED_DEALS"]:
        raise TableError("table.seed-refused")
    if lang not in ("en", "fr"):
        raise TableError("table.bad-request", detail="lang")
    table, host_token = tables().create(game.id, players, body.get("options") or {},
                                        seed=seed, lang=lang)
    return jsonify({
        "code": table.code,
        "join_url": join_url(table.code),
        "screen_url": join_url(table.code).replace(f"/j/{table.code}",
                                                   f"/t/{table.code}/screen"),
        "host_token": host_token,
    }), 201


@bp.post("/tables/<code>/seats")
def join(code: str) -> tuple[Response, int] | Response:
    table = table_or_404(code)
    body = json_body()
    name, seat = body.get("name"), body.get("seat")
    if not isinstance(name, str):
        raise TableError("table.name", max=NAME_MAX)
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise TableError("table.no-such-seat", seat=str(seat)[:8])
    seat, token = tables().join(table, name, seat)
    return jsonify({"seat": seat, "token": token}), 201


@bp.post("/tables/<code>/start")
def start(code: str) -> Response:
    table = table_or_404(code)
    if not table.is_host(bearer()):
        raise TableError("table.host-only")
    first_seat = json_body(optional=True).get("first_seat", 0)
    if not isinstance(first_seat, int) or isinstance(first_seat, bool):
        raise TableError("table.no-such-seat", seat=str(first_seat)[:8])
    seq = tables().start(table, first_seat=first_seat)
    return jsonify({"seq": seq})


@bp.get("/tables/<code>/view")
def view(code: str) -> Response:
    table = table_or_404(code)
    seat = viewer_or_refuse(table)
    with table.lock:
        return jsonify({"seq": table.match.seq_for(seat), "status": table.status,
                        "view": table.match.view_for(seat),
                        "outcome": table.match.outcome()})


@bp.get("/tables/<code>/moves")
def moves(code: str) -> Response:
    table = table_or_404(code)
    seat = seat_or_refuse(table)
    with table.lock:
        return jsonify({"seq": table.match.seq_for(seat),
                        "moves": table.match.moves_for(seat)})


@bp.post("/tables/<code>/moves")
def submit(code: str) -> Response | tuple[Response, int]:
    table = table_or_404(code)
    seat = seat_or_refuse(table)
    body = json_body()
    try:
        seq, repeated = tables().submit(table, seat, body.get("move"), body.get("seq"),
                                        body.get("client_move_id"))
    except TableError as error:
        if error.rule != "table.stale":
            raise
        # A move made on an old view: the refusal brings the view it missed.
        with table.lock:
            return jsonify({"error": refusal_body(error.rule, table.row.game),
                            "seq": table.match.seq_for(seat),
                            "view": table.match.view_for(seat)}), 409
    with table.lock:
        return jsonify({"seq": seq, "repeated": repeated, "view": table.match.view_for(seat)})


@bp.post("/tables/<code>/undo")
def undo(code: str) -> Response:
    """The mover takes back its own last move; the host names the move it takes back by
    its seq, as the table screen's page does (``Tables.host_undo``)."""
    table = table_or_404(code)
    expected = json_body(optional=True).get("undo")
    if not table.is_host(bearer()):
        return jsonify({"seq": tables().undo(table, seat_or_refuse(table))})
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise TableError("table.undo-unnamed")
    return jsonify({"seq": tables().host_undo(table, expected)})


@bp.post("/tables/<code>/rewind")
def rewind(code: str) -> Response:
    """The host takes back move ``to`` and every move after it; ``last`` is the seq of the
    last move the host saw (a move made since refuses the rewind)."""
    table = table_or_404(code)
    if not table.is_host(bearer()):
        raise TableError("table.host-only")
    body = json_body()
    to, last = body.get("to"), body.get("last")
    if not isinstance(to, int) or not isinstance(last, int) \
            or isinstance(to, bool) or isinstance(last, bool):
        raise TableError("table.bad-seq")
    seq = tables().rewind(table, to, last)
    return jsonify({"seq": seq})


@bp.post("/tables/<code>/corrections")
def correct(code: str) -> Response:
    """The host sets the public position right: ``correction`` in the game's shape (its
    ``types.Correction``), ``seq`` the table screen's seq as the host saw it (anything shown
    since refuses the correction)."""
    table = table_or_404(code)
    if not table.is_host(bearer()):
        raise TableError("table.host-only")
    body = json_body()
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise TableError("table.bad-seq")
    if not isinstance(body.get("correction"), dict):
        raise TableError("table.bad-correction", problem="no correction object")
    seq = tables().correct(table, body["correction"], seq)
    with table.lock:
        return jsonify({"seq": seq, "view": table.match.view_for(None)})


@bp.get("/tables/<code>/log")
def log(code: str) -> Response:
    table = table_or_404(code)
    seat = viewer_or_refuse(table)
    with table.lock:
        return jsonify({"entries": table.match.log_for(seat)})


@bp.get("/night")
def night() -> Response:
    """Tonight's plays of the tables the bearer hosts or holds a seat at: the home page's
    rule, for scripts."""
    token = bearer()
    if token is None:
        raise TableError("table.night-token")
    plays = tables().plays_tonight(current_app.config["NIGHT_HOURS"], [token[:64]])
    return jsonify({"plays": [exports.play_json(play) for play in plays]})
