"""The home page on the laptop: pick a game and its options, create a table."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion.i18n import current_lang
from companion.tables import TableError
from companion.web.cookies import host_cookie, set_secret_cookie
from companion.web.responses import refusal_response, tables
from companion.web.services import registered, spec_of

bp = Blueprint("home", __name__)


def catalogue() -> list[dict[str, object]]:
    return [{"spec": spec, "options": spec.engine.options()} for spec in registered().values()]


@bp.get("/")
def index() -> str:
    return home_page()


#: Table cookies read for the night's scoreboard at most (a laptop hosting a long night
#: holds one per table it created).
TOKENS_READ = 64


def table_tokens() -> list[str]:
    """The seat and host tokens this browser holds, whichever table they are for."""
    return [value[:64] for name, value in request.cookies.items()
            if name.startswith(("seat_", "host_"))][:TOKENS_READ]


def home_page(asked: str = "", code_notice: str | None = None) -> str:
    """The bare address: a field for a table's code (what a phone that opens it needs), then
    the host's games to start a table with, and tonight's finished games of the tables this
    browser hosted or sat at (to anyone else, none: the page is open to the whole wifi)."""
    return render_template(
        "home.html", catalogue=catalogue(), asked=asked, code_notice=code_notice,
        night=tables().plays_tonight(current_app.config["NIGHT_HOURS"], table_tokens()),
        game_names={spec.id: spec.name(current_lang()) for spec in registered().values()},
    )


@bp.post("/tables")
def create() -> Response:
    game_id = request.form.get("game", "")
    spec = spec_of(game_id)
    if spec is None:
        return refusal_response("table.unknown-game", game=game_id[:40])
    game = spec.engine
    options = {opt.key: request.form.get(f"opt_{opt.key}", "false" if opt.kind == "bool"
                                         else opt.default)
               for opt in game.options()}
    try:
        players = int(request.form.get("players", ""))
        table, token = tables().create(game_id, players, options, lang=current_lang())
    except ValueError:
        return refusal_response("table.player-count", low=game.min_players,
                                high=game.max_players)
    except TableError as error:
        return refusal_response(error.rule, game_id=game_id, **error.params)
    response = redirect(url_for("screen.show", code=table.code), code=303)
    set_secret_cookie(response, host_cookie(table.code), token)
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """For clients that ask before reading the page's icon link."""
    return current_app.send_static_file("img/favicon.svg")
