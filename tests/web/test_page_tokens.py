"""A page's token (what the page was drawn with, for its socket) belongs to the phone that
drew it: another phone sending it with a move, or opening its socket with it, changes
nothing of what the first phone's socket will be sent."""

from __future__ import annotations

import json
import random
import re

from companion.live import Connection
from companion.web.diff import Part, record_shown
from companion.web.services import services
from tests.web.hostile_kit import Seated, random_move


class QuietSocket:
    def send(self, text: str) -> None:
        pass

    def close(self, **_: object) -> None:
        pass


def page_token(html: str) -> str:
    found = re.search(r'id="page-token" name="page" value="([^"]+)"', html)
    assert found
    return found.group(1)


def test_another_phones_page_token_sent_with_a_move_leaves_the_first_phone_alone(app):
    seated = Seated(app, "high-card", players=2, start=False)
    seated.api.start(first_seat=1)
    token = page_token(seated.phones[0].get(f"/t/{seated.code}/play").get_data(as_text=True))
    # Opened with its page's token, and no sender: only what ``shown`` records is watched.
    first = Connection(QuietSocket(), seated.code, 0, "en")
    services(app).pushes.opened(first, token)
    page = services(app).pushes.sent_to(first)
    assert page, "the page's own socket starts from what the page shows"
    mover, move = random_move(seated.table, random.Random(1))
    assert mover == 1
    with seated.table.lock:
        seq = seated.table.match.seq_for(mover)
    response = seated.phones[mover].post(
        f"/t/{seated.code}/move", data={"move": json.dumps(move), "seq": str(seq),
                                        "client_move_id": "m1", "page": token})
    assert response.status_code == 200
    assert services(app).pushes.sent_to(first) == page, \
        "another phone's move marked the first phone up to date"
    # the first phone's own answer does mark it
    own = seated.phones[0].post(f"/t/{seated.code}/sitting",
                                data={"screen": "left", "page": token})
    assert own.status_code == 200 and services(app).pushes.sent_to(first) != page


def test_a_page_token_is_claimed_only_by_its_own_seat(app):
    seated = Seated(app, "high-card", players=2)
    board = Part.of("board", '<div id="board">x</div>')
    token = services(app).pushes.remember_page((seated.code, 0), [board])
    shown: dict[str, str] = {}
    record_shown(shown, board)

    def opened(code: str, seat: int) -> dict[str, str]:
        conn = Connection(QuietSocket(), code, seat, "en")
        services(app).pushes.opened(conn, token)
        return services(app).pushes.sent_to(conn)

    assert opened(seated.code, 1) == {}
    assert opened("ZZZZ", 0) == {}
    assert opened(seated.code, 0) == shown
    assert opened(seated.code, 0) == {}  # once
