"""Pieces of a table's public pages that a game serves when asked instead of pushing them
(see ``GameSpec.extras``): one step of a long instruction, fetched by its Back and Next
buttons, so no page or push carries every step at once."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from companion.web.render import screen_context
from companion.web.responses import table_or_404

bp = Blueprint("extras", __name__)


@bp.get("/t/<code>/extra/<name>")
def show(code: str, name: str) -> str:
    table = table_or_404(code)
    spec = current_app.extensions["games"].get(table.row.game)
    if spec is None or name not in spec.extras or table.view_for(None) is None:
        abort(404)
    return render_template(f"games/{spec.id}/{name}.html", **screen_context(table, False))
