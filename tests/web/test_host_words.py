"""The host's actions in words: the log on every screen names whose seat was freed and who
was let into it, as it names the move an undo took back; a freed phone is told so, and
the join page it goes back to says so too; no refusal names a move by its number."""

from __future__ import annotations

import json
import re

from companion.web.services import services
from tests.conftest import make_app
from tests.web.hostile_kit import Seated
from tests.web.test_seat_requests import ask, request_ids


def log_text(client, code: str, screen: bool = False) -> str:
    page = client.get(f"/t/{code}/{'screen' if screen else 'play'}").get_data(as_text=True)
    log = page.split('id="log"')[1].split("</ol>")[0]
    return " ".join(re.sub(r"<[^>]+>", " ", log).split())


def test_freeing_a_seat_and_letting_a_newcomer_in_are_told_in_the_log(app):
    seated = Seated(app, "seventh-heaven")
    seq = seated.table.match.seq
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "1"}).status_code == 303
    for client, screen in ((seated.host, True), (seated.stranger, True),
                           (seated.phones[0], False)):
        assert "The host freed Ben’s seat." in log_text(client, seated.code, screen)
    newcomer, _ = ask(seated, "Zoé")
    (request_id,) = request_ids(seated)
    assert seated.host.post(f"/t/{seated.code}/admit",
                            data={"request": request_id}).status_code == 303
    said = log_text(seated.phones[2], seated.code)
    assert "The host let Zoé into Ben’s seat." in said
    assert said.index("The host let Zoé") < said.index("The host freed Ben")  # newest first
    newcomer.get(f"/t/{seated.code}/wait", headers={"HX-Request": "true"})  # seated now
    assert "The host let Zoé into Ben’s seat." in log_text(newcomer, seated.code)
    assert seated.table.match.seq == seq + 2  # two lines of the log, no move

    # In French too, and the same table after a restart (the lines replay as nothing).
    seated.phones[0].set_cookie("lang", "fr")
    french = log_text(seated.phones[0], seated.code)
    assert "L’hôte a libéré la place de Ben." in french
    assert "L’hôte a donné à Zoé la place de Ben." in french
    live = seated.table
    again = services(make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})) \
        .tables.get(seated.code)
    assert json.dumps(again.match.state, sort_keys=True) == json.dumps(live.match.state,
                                                                        sort_keys=True)
    assert [entry.kind for entry in again.match.log] == [entry.kind for entry in live.match.log]


def test_the_moves_go_on_after_a_seat_changes_hands(app):
    """A line of the log that is no move leaves the moves, undo and rewind as they were."""
    seated = Seated(app, "high-card")
    api = seated.api
    assert api.post_move(0, api.moves(0)[0]).status_code == 200
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "2"}).status_code == 303
    assert api.post_move(1, api.moves(1)[0]).status_code == 200
    assert seated.host.post(f"/t/{seated.code}/host-undo",
                            data={"undo": str(seated.table.match.steps[-1].entry.seq)}) \
        .status_code == 303
    assert "The host took back: Ben played" in log_text(seated.host, seated.code, True)
    assert len(seated.table.match.steps) == 1


def test_a_freed_phone_is_told_and_its_join_page_says_so(app):
    seated = Seated(app, "seventh-heaven")
    with app.test_request_context():
        from flask import render_template

        farewell = render_template("phone/freed.html", code=seated.code)
    assert "The host freed your seat" in farewell
    assert f'href="/j/{seated.code}"' in farewell and "data-go-to" not in farewell
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "1"}).status_code == 303
    page = seated.phones[1].get(f"/t/{seated.code}/play")
    assert page.status_code == 303 and page.headers["Location"].endswith(f"/j/{seated.code}")
    join = seated.phones[1].get(f"/j/{seated.code}").get_data(as_text=True)
    assert "The host freed your seat. To play on, take a seat again." in join
    assert "The host freed your seat" not in seated.stranger.get(
        f"/j/{seated.code}").get_data(as_text=True)


def test_a_rewind_to_a_move_no_longer_there_names_no_number(app):
    seated = Seated(app, "high-card")
    refused = seated.host.get(f"/t/{seated.code}/rewind?to=57")
    text = refused.get_data(as_text=True)
    assert "can no longer be taken back" in text and "57" not in re.sub(r"<[^>]+>", "", text)
