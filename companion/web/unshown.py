"""A part of a page that could not be drawn: one region or one log line shows a short
notice in its viewer's language, the error goes to the server's log with the table, the
seq and the viewer, and the rest of the page, the pushes and the moves go on.

A template bug met late in a game (a log line for an event seen once in a long game) must
not take a whole table down: without this, one line that raises answers every page and
every move of that table with a 500 from then on.
"""

from __future__ import annotations

import logging
import threading

from flask import render_template
from markupsafe import Markup

from companion.lru import LRU
from companion.tables import Table

logger = logging.getLogger(__name__)

#: Failures already logged, by (table, seq, part, viewer): a broken part is drawn again on
#: every push, and one line in the log says it as well as a thousand.
LOGGED_KEPT = 1024
_logged: LRU[tuple[str, int, str, str], bool] = LRU(LOGGED_KEPT)
_logged_lock = threading.Lock()


def viewer_name(seat: int | None, is_host: bool = False) -> str:
    """Who was looking, as the log names them."""
    if seat is not None:
        return f"seat {seat}"
    return "the host's screen" if is_host else "the table screen"


def report(table: Table, part: str, viewer: str, lang: str) -> None:
    """Log the exception being handled: what could not be drawn, for whom, at which seq.
    Called from an ``except`` block."""
    key = (table.code, table.match.seq, part, f"{viewer} {lang}")
    with _logged_lock:
        if key in _logged:
            return
        _logged.put(key, True)
    logger.exception("could not draw %s of table %s at seq %s for %s (%s)",
                     part, table.code, table.match.seq, viewer, lang)


def region_notice(region_id: str) -> str:
    """The region ``region_id`` as a notice that it could not be shown."""
    return render_template("partials/unshown.html", region_id=region_id)


def line_notice(seq: int) -> Markup:
    """Log line ``seq`` as a notice that it could not be shown (still a list item of the
    log, with the id its line would have)."""
    return Markup(render_template("partials/unshown_line.html", seq=seq))
