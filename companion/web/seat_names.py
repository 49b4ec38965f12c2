"""How the pages name a seat: by its player's name, as it stood at the moment a line tells
of, or, while nobody holds the seat, by the seat as its game names it ("Yellow", "Seat 3")
said to be free. Never by a blank.

A game names its seats by colour through its helpers' ``seat_colour_name(view, seat)``
(The Climbers, SkyRunner: each seat plays a colour); otherwise (None) a seat is its number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.i18n import gettext, listed
from companion.tables import Table
from companion.web.services import registered


def seat_colour(game_id: str, view: Mapping[str, Any] | None, seat: int) -> str | None:
    """The colour the game gives ``seat`` as a name ("Yellow"), or None: a game without
    seat colours, or no game under way."""
    said = None if view is None else registered()[game_id].helpers.seat_colour_name(view, seat)
    return None if said is None else said[:1].upper() + said[1:]


def free_name(game_id: str, view: Mapping[str, Any] | None, seat: int) -> str:
    """What stands for a player's name while ``seat`` is free: "Yellow (free)"."""
    label = seat_colour(game_id, view, seat) or gettext("Seat %(n)s", n=seat + 1)
    return gettext("%(seat)s (free)", seat=label)


def seat_name(table: Table, seat: int, public: Mapping[str, Any] | None) -> str:
    """``seat`` as the pages name it now: its player's name, or while it is free, the seat
    said as free (``public``: the table's public view, where a game names seats by colour).
    Under the table's lock."""
    return table.name(seat) if seat in table.seats else free_name(table.row.game, public, seat)


def seats_named(table: Table, seats: Sequence[int]) -> str:
    """Several seats in one phrase, each as ``seat_name`` says it: "Ana and Ben"."""
    with table.lock:
        public = table.match.view_for(None) if len(table.seats) < table.row.players else None
        return listed([seat_name(table, seat, public) for seat in seats])


def free_line(game_id: str, view: Mapping[str, Any] | None, seat: int) -> str:
    """What the table and every phone say while the game waits for free ``seat``."""
    colour = seat_colour(game_id, view, seat)
    if colour is None:
        return gettext("Seat %(n)s is free: the host can let someone in.", n=seat + 1)
    return gettext("%(colour)s’s seat is free: the host can let someone in.", colour=colour)


def seats_then(game_id: str, view: Mapping[str, Any] | None,
               names: tuple[str | None, ...]) -> list[dict[str, Any]]:
    """The seats as a log line names them: who held each when the entry was made
    (``names``, the log item's), a seat free then named as free."""
    return [{"seat": seat, "name": name if name is not None else free_name(game_id, view, seat)}
            for seat, name in enumerate(names)]
