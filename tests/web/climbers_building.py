"""The Climbers' start, for the tests that play past it: the tower built, every player
says so."""

from __future__ import annotations

from tests.conftest import ApiTable


def finish_building(table: ApiTable) -> None:
    """Say the start tower stands, as each player of ``table`` does once it is built."""
    while (found := table.seat_to_move()) and found[1][0]["type"] == "built":
        table.post_move(found[0], found[1][0])
