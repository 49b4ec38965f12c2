"""A game's rules page: every clause in the reader's language, with the table's options."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request, url_for

from companion.i18n import current_lang
from companion.web.clauses import clause_text
from companion.web.games.spec import spec_of
from companion.web.render import game_name
from companion.web.responses import refusal_response, tables

bp = Blueprint("rules", __name__)


@bp.get("/rules/<game_id>")
def show(game_id: str) -> Response | str:
    spec = spec_of(game_id)
    if spec is None:
        return refusal_response("table.unknown-game", game=game_id[:40])
    table = tables().get(request.args.get("table", ""))
    chosen = table.row.options if table is not None and table.row.game == game_id else None
    lang = current_lang()
    rules = [
        {"id": clause["id"], "text": clause_text(game_id, clause["id"], lang),
         "source": clause.get("source", ""),
         "decision": (clause.get("decision") or {}).get(lang)
         or (clause.get("decision") or {}).get("en")}
        for clause in spec.clauses.values()
    ]
    code = table.code if table is not None and chosen is not None else None
    back = None
    if code is not None:  # back where the reader came from
        back = url_for("screen.show" if request.args.get("back") == "screen" else "phone.play",
                       code=code)
    return render_template("rules.html", game_id=game_id, game_name=game_name(game_id),
                           rules=rules, options=spec.engine.options(), chosen=chosen,
                           code=code, back=back)
