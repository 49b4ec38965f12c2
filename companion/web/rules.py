"""A game's rules: every clause in the reader's language with the table's options, and
each clause on a short page of its own, the one a refusal or a log line links to."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

from companion.i18n import current_lang
from companion.web.clauses import clause_page
from companion.web.render import game_name
from companion.web.responses import refusal_response, tables
from companion.web.services import spec_of

bp = Blueprint("rules", __name__)


@bp.get("/rules/<game_id>")
def show(game_id: str) -> Response | str:
    spec = spec_of(game_id)
    if spec is None:
        return refusal_response("table.unknown-game", game=game_id[:40])
    lang = current_lang()
    rules = [clause_page(spec, rule, lang) for rule in spec.clauses]
    return render_template("rules.html", game_id=game_id, game_name=game_name(game_id),
                           rules=rules, options=spec.engine.options(),
                           **_table_context(game_id))


@bp.get("/rules/<game_id>/<rule>")
def clause(game_id: str, rule: str) -> Response | str:
    """One rule, short: its title, its words, the rulebook's example and sentence, and
    the decision taken where the rulebook is unclear."""
    spec = spec_of(game_id)
    if spec is None:
        return refusal_response("table.unknown-game", game=game_id[:40])
    if rule not in spec.clauses:
        return refusal_response("table.not-found")
    return render_template("rule.html", game_id=game_id, game_name=game_name(game_id),
                           rule=clause_page(spec, rule, current_lang()),
                           **_table_context(game_id))


def _table_context(game_id: str) -> dict[str, Any]:
    """The table the reader came from, when it plays this game: its options, and the way
    back to the phone or the table screen."""
    table = tables().get(request.args.get("table", ""))
    if table is None or table.row.game != game_id:
        return {"chosen": None, "code": None, "back": None, "table_args": {}}
    screen = request.args.get("back") == "screen"
    back = url_for("screen.show" if screen else "phone.play", code=table.code)
    args = {"table": table.code, **({"back": "screen"} if screen else {})}
    return {"chosen": table.row.options, "code": table.code, "back": back,
            "table_args": args}
