"""A page's token (what the page was drawn with, for its socket) belongs to the phone that
drew it: another phone sending it with a move, or opening its socket with it, changes
nothing of what the first phone's socket will be sent."""

from __future__ import annotations

import json
import random
import re

from companion.live import Connection
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
    hub = services(app).hub
    token = page_token(seated.phones[0].get(f"/t/{seated.code}/play").get_data(as_text=True))
    first = Connection(QuietSocket(), seated.code, 0, "en", page=token)
    with hub.lock:  # registered without its sender: only what ``shown`` does is watched
        hub._by_table.setdefault(seated.code, set()).add(first)
    mover, move = random_move(seated.table, random.Random(1))
    assert mover == 1
    with seated.table.lock:
        seq = seated.table.match.seq_for(mover)
    response = seated.phones[mover].post(
        f"/t/{seated.code}/move", data={"move": json.dumps(move), "seq": str(seq),
                                        "client_move_id": "m1", "page": token})
    assert response.status_code == 200
    assert first.sent == {}, "another phone's move marked the first phone up to date"
    # the first phone's own answer does mark it
    own = seated.phones[0].post(f"/t/{seated.code}/sitting",
                                data={"screen": "left", "page": token})
    assert own.status_code == 200 and first.sent


def test_a_page_token_is_claimed_only_by_its_own_seat(app):
    seated = Seated(app, "high-card", players=2)
    hub = services(app).hub
    token = hub.remember_page({"board": "x"}, (seated.code, 0))
    assert hub.claim_page(token, (seated.code, 1)) is None
    assert hub.claim_page(token, ("ZZZZ", 0)) is None
    assert hub.claim_page(token, (seated.code, 0)) == {"board": "x"}
    assert hub.claim_page(token, (seated.code, 0)) is None  # once
