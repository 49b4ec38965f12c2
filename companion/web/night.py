"""The night's page: every game finished tonight at the tables this browser hosted or sat
at (the home page's rule), each with its players in seat order, colours, scores, places,
who started, when it began and how long it took, its whole log a tap away; and the plays
to take home (``companion.web.exports``), the whole night's or one game's.

A game's log is read as the table screen read it, from the match replayed
(``Tables.replayed``): no hand, no choice before its reveal. A play this browser may not
see is no page at all.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.i18n import current_lang, gettext
from companion.plays import Play
from companion.web import exports
from companion.web.cookies import seat_token
from companion.web.home import table_tokens
from companion.web.outcome_words import outcome_reason
from companion.web.record import log_page, move_page
from companion.web.render import game_name, viewer_context
from companion.web.responses import refusal_response, tables
from companion.web.services import registered

bp = Blueprint("night", __name__)

#: Each download: its file name's ending and its media type.
FORMATS = {
    "bgsplay": ("bgsplay", "application/json"),
    "csv": ("csv", "text/csv; charset=utf-8"),
    "xml": ("xml", "application/xml; charset=utf-8"),
}


def plays_here() -> list[Play]:
    """Tonight's plays of the tables this browser hosted or sat at, in the order they
    ended."""
    return tables().plays_tonight(current_app.config["NIGHT_HOURS"], table_tokens())


def play_here(play_id: str) -> Play:
    """The play ``play_id`` when this browser may see it; else the "nothing here" refusal
    (a play of another's table is no page, as no play is)."""
    play = next((play for play in plays_here() if play.id == play_id), None)
    if play is None:
        abort(refusal_response("table.not-found"))
    return play


def night_of(plays: list[Play]) -> str:
    """The night's date: the day its first game began (today, before any)."""
    return (exports.local(plays[0].started_at).date() if plays else date.today()).isoformat()


@bp.get("/night")
def show() -> str:
    plays = plays_here()
    return render_template("night/page.html", plays=[shown(play) for play in plays],
                           day=night_of(plays))


def shown(play: Play) -> dict[str, Any]:
    """What the night's page says of a play, in the reader's language."""
    colours = exports.seat_colours(play)
    started = exports.local(play.started_at)
    return {
        "id": play.id, "code": play.code, "no": play.no, "game": game_name(play.game),
        "time": started.strftime("%H:%M"), "minutes": play.minutes,
        "why": outcome_reason(registered()[play.game], play.reason, current_lang()),
        "coloured": any(colours), "bgstats": exports.bgstats_link(play),
        "seats": [{"seat": seat.seat + 1, "players": seat.players, "colour": colours[seat.seat],
                   "score": seat.score, "place": seat.place, "winner": seat.winner,
                   "starts": seat.seat == play.first_seat} for seat in play.seats],
    }


@bp.get("/night/plays.<fmt>")
def download(fmt: str) -> BaseResponse:
    """The whole night in one file."""
    plays = plays_here()
    return _file(plays, fmt, f"table-companion-{night_of(plays)}")


@bp.get("/night/bgg")
def bgg() -> str:
    plays = plays_here()
    return render_template("night/bgg.html", text=exports.bgg_text(plays) if plays else "",
                           back=url_for("night.show"))


@bp.get("/night/<play_id>/plays.<fmt>")
def play_download(play_id: str, fmt: str) -> BaseResponse:
    """One game's file ("Add to my plays")."""
    play = play_here(play_id)
    return _file([play], fmt, f"table-companion-{play.code}-{play.no}", _me(play))


@bp.get("/night/<play_id>/bgg")
def play_bgg(play_id: str) -> str:
    play = play_here(play_id)
    return render_template("night/bgg.html", text=exports.bgg_text([play]),
                           back=url_for("night.show", _anchor=f"play-{play.id}"))


def _file(plays: list[Play], fmt: str, name: str, me: str | None = None) -> BaseResponse:
    if fmt not in FORMATS:
        return refusal_response("table.not-found")
    ending, media = FORMATS[fmt]
    if fmt == "bgsplay":
        body = json.dumps(exports.bgstats_file(plays, me), ensure_ascii=False, indent=1)
    elif fmt == "csv":
        body = "\ufeff" + exports.csv_text(plays)  # the mark a spreadsheet reads UTF-8 by
    else:
        body = exports.bgg_xml(plays)
    response = Response(body, mimetype=media.partition(";")[0], content_type=media)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.{ending}"'
    return response


def _me(play: Play) -> str | None:
    """The name this phone played ``play`` under, where its seat's table is still open."""
    table = tables().get(play.key)
    seat = None if table is None else table.seat_of(seat_token(request, table.code))
    if table is None or seat is None:
        return None
    name = table.name(seat)
    return name if any(name in held.players for held in play.seats) else None


@bp.get("/night/<play_id>/log")
def log(play_id: str) -> Response | str:
    play = play_here(play_id)
    return log_page(tables().replayed(play), _reader(play))


@bp.get("/night/<play_id>/moves/<number>")
def move(play_id: str, number: str) -> BaseResponse | str:
    play = play_here(play_id)
    return move_page(tables().replayed(play), _reader(play), number)


def _reader(play: Play) -> dict[str, Any]:
    """The record's pages of a finished game, read as its table screen read them, by the
    screen's numbers; the way back is the night's page."""
    context = viewer_context(tables().replayed(play), None)
    context.update(
        code=play.id, shown_code=f"{play.code} · {game_name(play.game)} #{play.no}",
        me=None, my_name="", on_phone=False, sitting=None, opens_move="night.move",
        back=url_for("night.show", _anchor=f"play-{play.id}"),
        back_label=gettext("← Back to the night"),
        log_url=url_for("night.log", play_id=play.id))
    return context


@bp.url_defaults
def play_named_as_a_code(_: str, values: dict[str, Any]) -> None:
    """The record's templates name the page of a move by its table's ``code``: on the
    night's pages that is the play. (A play's address holds no table code: the limits on
    looking up codes count those, not plays.)"""
    if "code" in values:
        values.setdefault("play_id", values.pop("code"))


@bp.app_template_global()
def bgstats_link(play: Play) -> str:
    """For the game-over screen: the address that opens BG Stats on ``play``."""
    return exports.bgstats_link(play)
