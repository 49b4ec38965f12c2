"""A page as regions: what a phone and the table screen show, one element per region, each
rendered by its own template and swapped in by morphing, so a push changes only what
changed and keeps the rest (a half-made choice, the scroll position, the focus).

The page, a push and the answer to a move are all built here, from the same regions; a
push (``companion.web.pushes``) sends a connection only the regions whose HTML differs from
what it last sent.
"""

from __future__ import annotations

from typing import Any

from flask import render_template
from markupsafe import Markup

from companion.i18n import current_lang
from companion.tables import Table
from companion.web import unshown
from companion.web.diff import Part
from companion.web.memo import (
    Call,
    Inputs,
    ReadingContext,
    RegionMemo,
    fragment,
    reading,
    watch_json,
)
from companion.web.render import screen_context, viewer_context
from companion.web.seat_names import seats_then
from companion.web.services import services

#: A phone's regions in page order: (element id, template).
PHONE = (("status", "phone/status.html"), ("notice", "partials/notice.html"),
         ("private", "phone/private.html"), ("picker", "phone/picker.html"),
         ("undo", "phone/undo.html"), ("outcome", "partials/outcome.html"),
         ("board", "phone/board.html"), ("seats", "partials/seats.html"),
         ("log", "partials/log.html"))
PHONE_BOARD = dict(PHONE)["board"]
#: The table screen's regions in page order.
SCREEN = (("screen-head", "screen/head.html"), ("notice", "partials/notice.html"),
          ("seats", "partials/seats.html"), ("host", "screen/host.html"),
          ("requests", "screen/requests.html"),
          ("outcome", "partials/outcome.html"), ("board", "screen/board.html"),
          ("log", "partials/log.html"), ("night", "partials/night.html"))


def regions(table: Table, seat: int | None, is_host: bool = False,
            chosen: dict[str, Any] | None = None,
            notice: dict[str, str] | None = None, board: Part | None = None,
            memo: RegionMemo | None = None) -> list[Part]:
    """Every region of ``seat``'s page (None: the table screen's), rendered now. Call it in
    a request context, in the viewer's language. A phone's ``board`` is the same for every
    phone (see ``phone_board``): pass it when it is already drawn. With a ``memo``, a region
    is reused where a drawing for any viewer of the table read the values it would read."""
    layout: tuple[tuple[str, str], ...]
    if seat is None:
        context, layout = screen_context(table, is_host), SCREEN
    else:
        context, layout = viewer_context(table, seat, chosen=chosen), PHONE
    context["notice"] = notice
    context["log_lines"] = Call(lambda: log_lines(table, context), table.code,
                                context["match_no"], context["is_host"], context["opens_move"],
                                kept=context["log"])
    reuse = _reuse(memo, context)
    parts = []
    for region_id, template in layout:
        if region_id == "board" and seat is not None:
            parts.append(board or phone_board(table, memo))
        else:
            parts.append(_draw(table, region_id, template, context, reuse))
    return parts


Reuse = tuple[RegionMemo, Inputs]


def _reuse(memo: RegionMemo | None, context: dict[str, Any]) -> Reuse | None:
    """The memo and the context's inputs, taken once for all the regions drawn from it;
    None without a memo (a page), where nothing need be compared."""
    return None if memo is None else (memo, Inputs(context, views=memo.views))


def _draw(table: Table, region_id: str, template: str, context: dict[str, Any],
          reuse: Reuse | None) -> Part:
    """One region; a region that cannot be drawn is a notice saying so, and the error is
    logged (``companion.web.unshown``): the rest of the page goes on."""
    try:
        if reuse is None:
            return Part.of(region_id, render_template(template, **context))
        memo, inputs = reuse
        return memo.draw(table.code, current_lang(), region_id, template, inputs)
    except Exception:  # whatever a template or a game's helper raised
        unshown.report(table, f"region {region_id}",
                       unshown.viewer_name(context.get("me"), bool(context.get("is_host"))),
                       current_lang())
        return Part.of(region_id, unshown.region_notice(region_id))


def phone_board(table: Table, memo: RegionMemo | None = None) -> Part:
    """A phone's board, drawn from the public view: every game shows the table there and
    keeps a seat's secrets in its private region, so all the phones share one rendering."""
    context = viewer_context(table, None)
    return _draw(table, "board", PHONE_BOARD, context, _reuse(memo, context))


def log_lines(table: Table, context: dict[str, Any]) -> list[Markup]:
    """The log's lines, newest first. A line is rendered once for all the viewers who see
    the same move (moves another viewer sees redacted differ). Templates call it through
    the context's ``log_lines``, named by what the lines show: a push whose log region is
    unchanged does not look them up."""
    cache, lock = services().caches.log_lines, services().caches.log_lines_lock
    public = None
    lines = []
    for entry in context["log"]:
        # The entry's repr holds all it says, as its JSON would, at a fraction of the cost
        # (this runs for each line of each viewer's log): the names of its moment too.
        # The host's lines offer a rewind; a line opens the move in its reader's numbers.
        key = (table.code, context["match_no"], current_lang(), context["is_host"],
               context.get("opens_move"), repr(entry))
        with lock:
            html = cache.get(key)
        if html is None:
            if public is None:
                with table.lock:
                    public = table.match.view_for(None)
            html = _line(table, entry, dict(context, view=public))
            with lock:
                cache.put(key, html)
        lines.append(Markup(html))
    return lines


def _line(table: Table, entry: dict[str, Any], context: dict[str, Any]) -> str:
    """One log line; a line that cannot be drawn says so, and the error is logged.

    Its words are a function of the entry alone (with the viewer's language): the move as
    the viewer may see it, the players named as they were when it was made (the entry's
    ``names``), and the table just before and after it (``Match.moment``, kept for a move
    taken back too). Nothing of today's table reaches them but the view's constants (the
    seats' colours, a building's roof), so a line reads the same after a seat changes
    hands, a take-back, a rewind or a restart."""
    try:
        # The line's key holds all it shows: what drawing it reads is not the region's.
        # An undo's line describes the move it took back, as the table was around it.
        seq = entry["undo"] if entry["kind"] == "undo" else entry["seq"]
        game_id, view = table.row.game, context["view"]
        back = entry.get("taken_back")
        with reading():
            return render_template(
                "partials/log_entry.html",
                **dict(context, entry=entry, seats=seats_then(game_id, view, entry["names"]),
                       back_seats=seats_then(game_id, view, back["names"]) if back else None,
                       moment=lambda: table.match.moment(seq, context["me"])))
    except Exception:  # whatever a game's describe.html or helper raised
        unshown.report(table, f"log line {entry['seq']}",
                       unshown.viewer_name(context.get("me"), bool(context.get("is_host"))),
                       current_lang())
        return str(unshown.line_notice(entry["seq"]))


def install(app: Any) -> None:
    app.jinja_env.context_class = ReadingContext
    app.jinja_env.globals["fragment"] = fragment
    watch_json(app)
