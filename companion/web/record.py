"""The game's record: its whole log, page by page, and any move of it on its own ("This
move": who, what, the table just before and after it, and the rules the engine held it to).

Each reader reads the record as its log shows it, by its own numbers (docs/architecture.md,
"A seq is its viewer's own"): a seated phone by its seat's (``/t/<code>/play/log``,
``/t/<code>/play/moves/<n>``), the table screen and the host by the screen's
(``/t/<code>/log``, ``/t/<code>/moves/<n>``), so a phone's address never names a number
of another count. The host's whole log offers a rewind on every line, back to the first
move. The pictures are drawn from the table's views alone: no page shows a hand, nor a
choice before its reveal.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.i18n import current_lang
from companion.tables import SCREEN_SIDES, Table
from companion.web import unshown
from companion.web.clauses import clause_page
from companion.web.phone import seat_or_join
from companion.web.regions import log_lines
from companion.web.render import viewer_context
from companion.web.responses import refusal_response, table_or_404
from companion.web.screen import is_host
from companion.web.services import spec_of

bp = Blueprint("record", __name__)

#: Lines of the whole log on one page: the newest first, then older pages.
LOG_PAGE = 40


@bp.get("/t/<code>/log")
def screen_log(code: str) -> Response | str:
    table = table_or_404(code)
    return log_page(table, _reader(table, None, is_host(table)))


@bp.get("/t/<code>/play/log")
def phone_log(code: str) -> Response | str:
    table = table_or_404(code)
    return log_page(table, _reader(table, seat_or_join(table)))


@bp.get("/t/<code>/moves/<number>")
def screen_move(code: str, number: str) -> Response | str:
    table = table_or_404(code)
    return move_page(table, _reader(table, None), number)


@bp.get("/t/<code>/play/moves/<number>")
def phone_move(code: str, number: str) -> Response | str:
    table = table_or_404(code)
    return move_page(table, _reader(table, seat_or_join(table)), number)


def _reader(table: Table, seat: int | None, host: bool = False) -> dict[str, Any]:
    """What the record's pages show ``seat`` (None: the table screen, and the host's
    buttons with ``host``): the table's context, the reader's own numbering, the way back."""
    context = viewer_context(table, None, host)
    phone = seat is not None
    context.update(
        me=seat, my_name=table.name(seat), on_phone=phone,
        opens_move="record.phone_move" if phone else "record.screen_move",
        sitting=table.sitting.get(seat, SCREEN_SIDES[0]) if seat is not None else None,
        back=url_for("phone.play" if phone else "screen.show", code=table.code),
        log_url=url_for("record.phone_log" if phone else "record.screen_log",
                        code=table.code))
    return context


def log_page(table: Table, context: dict[str, Any]) -> str:
    """The reader's whole log, newest first, ``LOG_PAGE`` lines a page (``?page=``)."""
    with table.lock:
        items = list(reversed(table.match.log_for(context["me"])))
    pages = max(1, -(-len(items) // LOG_PAGE))
    page = min(max(_number(request.args.get("page"), 1), 1), pages)
    shown = items[(page - 1) * LOG_PAGE:page * LOG_PAGE]
    context.update(log=shown, page=page, pages=pages)
    return render_template("record/log.html", lines=log_lines(table, context), **context)


def _number(raw: str | None, otherwise: int = 0) -> int:
    """A number of an address (a page, a move), or ``otherwise`` where it is none."""
    try:
        return int(raw or "")
    except ValueError:
        return otherwise


def move_page(table: Table, context: dict[str, Any], number: str) -> Response | str:
    """One move on its own, as the reader's log shows it (another number: not found)."""
    recorded = table.match.recorded(_number(number[:12]), context["me"])
    if recorded is None:
        return refusal_response("table.not-found")
    game_id, lang = table.row.game, current_lang()
    spec = spec_of(game_id)
    line = log_lines(table, dict(context, log=[recorded.item], opens_move=None))[0]
    back_to_screen: dict[str, Any] = {} if context["on_phone"] else {"back": "screen"}
    rules: dict[tuple[str, str], dict[str, Any]] = {}
    for rule in recorded.checked:  # clauses of one rule quoting the same sentence: once
        page = clause_page(spec, rule, lang)
        if page is not None:
            rules.setdefault((page["title"], page["quote"] or page["text"]), dict(
                page, url=url_for("rules.clause", game_id=game_id, rule=rule,
                                  table=None if table.retired else table.code,
                                  **back_to_screen)))
    return render_template("record/move.html", line=line, rules=list(rules.values()),
                           recorded=recorded,
                           before=_picture(table, context, recorded.before, "before"),
                           after=_picture(table, context, recorded.after, "after"),
                           **context)


def _picture(table: Table, context: dict[str, Any], view: Any, at: str) -> Markup:
    """The table as it stood (``view``, the table's view then): the game's own picture of a
    moment where it has one (The Climbers' tower, from the reader's side), else the board
    a phone shows. A picture that cannot be drawn says so, and the rest of the page goes
    on (``companion.web.unshown``)."""
    game_id = context["game_id"]
    try:
        return Markup(render_template([f"games/{game_id}/moment.html",
                                       f"games/{game_id}/phone_board.html"],
                                      **dict(context, view=view, at=at)))
    except Exception:  # whatever a game's template or helper raised
        unshown.report(table, f"picture {at} a move",
                       unshown.viewer_name(context["me"], bool(context["is_host"])),
                       current_lang())
        return Markup(unshown.region_notice("board"))
