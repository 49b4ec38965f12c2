"""The record is the evening's truth: a line of the log says what happened when it happened,
with the players' names and the table of that moment, and reads the same after a seat
changes hands, a take-back, a rewind, a restart and a switch of language; a free seat is
said to be free, never named by a blank."""

from __future__ import annotations

import json
import random
import re
from html import unescape

from flask.testing import FlaskClient

from support.reading import blank_names
from tests.conftest import ApiTable, make_app
from tests.web.climbers_building import finish_building
from tests.web.hostile_kit import Seated
from tests.web.test_seat_requests import ask, request_ids

LINE = re.compile(r'<li id="(log-\d+)" class="([^"]*)">(.*?)</li>', re.S)


def lines_of(html: str) -> dict[str, str]:
    """Each log line of a page by its id, in words: without the "taken back" tag and the
    host's rewind link, which say what became of the move, not what it was."""
    lines = {}
    for line_id, _, body in LINE.findall(html):
        body = re.sub(r'<span class="tag">.*?</span>|<a class="rewind".*?</a>', " ", body)
        lines[line_id] = " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return lines


def page(client: FlaskClient, code: str, screen: bool = False, lang: str = "en") -> str:
    response = client.get(f"/t/{code}/{'screen' if screen else 'play'}",
                          headers={"Accept-Language": lang})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def read(clients: dict[str, tuple[FlaskClient, bool]], code: str) -> dict[str, str]:
    """Every line each viewer reads, in each language, by (viewer, language, line)."""
    return {f"{who} {lang} {line_id}": text
            for who, (client, screen) in clients.items() for lang in ("en", "fr")
            for line_id, text in lines_of(page(client, code, screen, lang)).items()}


def admit(seated: Seated, name: str, seat: int) -> FlaskClient:
    newcomer, _ = ask(seated, name, str(seat))
    (request_id,) = request_ids(seated)
    assert seated.host.post(f"/t/{seated.code}/admit",
                            data={"request": request_id}).status_code == 303
    newcomer.get(f"/t/{seated.code}/wait")  # seated now: the seat's cookie
    return newcomer


def restarted(seated: Seated) -> Seated:
    """The same table, served by a new app on the same database (a restart)."""
    seated.app = make_app({"DATABASE": seated.app.config["DATABASE"], "RATE_BURST": 1e9})
    for client in (*seated.phones, seated.host, seated.stranger):
        client.application = seated.app
    return seated


def test_a_players_lines_keep_their_name_when_their_seat_changes_hands(app):
    seated = Seated(app, "seventh-heaven")
    rng = random.Random(3)
    while not any(entry.seat == 2 for entry in seated.table.match.log):
        seat, moves = seated.api.seat_to_move()
        assert seated.api.post_move(seat, rng.choice(moves)).status_code == 200
    viewers = {"host": (seated.host, True), "screen": (seated.stranger, True),
               "Ana": (seated.phones[0], False)}
    first = read(viewers, seated.code)
    assert any("Chloé played" in text for text in first.values())

    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "2"}).status_code == 303
    assert read(viewers, seated.code).items() >= first.items()
    dana = admit(seated, "Dana", 2)
    while seated.table.match.log[-1].seat != 2:  # Dana moves too
        seat = seated.movers()[0]
        client = dana if seat == 2 else seated.phones[seat]
        assert client.post(f"/t/{seated.code}/move", data={
            "move": json.dumps(rng.choice(seated.table.match.moves_for(seat))),
            "seq": seated.table.match.seq_for(seat),
            "client_move_id": f"m{len(seated.table.match.log)}"}).status_code == 200
    restarted(seated)
    now = read(viewers, seated.code)
    assert now.items() >= first.items()
    said = " ".join(now.values())
    assert "The host let Dana into Chloé’s seat." in said and "Dana played" in said
    assert "L’hôte a donné à Dana la place de Chloé." in said


def test_a_block_taken_back_is_said_where_it_went_in_both_languages(app):
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=5)
    finish_building(table)
    seat, moves = table.seat_to_move()
    block = next(move for move in moves if move["type"] == "block")
    assert table.post_move(seat, block).status_code == 200
    seated_phone = app.test_client()
    seated_phone.set_cookie(f"seat_{table.code}", table.tokens[seat])
    host = app.test_client()
    host.set_cookie(f"host_{table.code}", table.host)
    viewers = {"host": (host, True), "mover": (seated_phone, False)}
    first = read(viewers, table.code)
    assert any("now" in text and "on top" in text for text in first.values())

    assert seated_phone.post(f"/t/{table.code}/undo").status_code == 200  # taken back
    assert read(viewers, table.code).items() >= first.items()
    again = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    for client, _ in viewers.values():
        client.application = again
    assert read(viewers, table.code).items() >= first.items()


def test_a_free_seat_whose_turn_it_is_is_said_to_be_free_everywhere(app):
    seated = Seated(app, "climbers")
    finish_building(seated.api)
    (turn,) = seated.movers()
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": str(turn)}).status_code \
        == 303
    colour = {0: "Red", 1: "Dark blue", 2: "Yellow"}[turn]
    french = {0: "Rouge", 1: "Bleu foncé", 2: "Jaune"}[turn]
    others = [phone for seat, phone in enumerate(seated.phones) if seat != turn]
    for lang, said in (("en", f"{colour}’s seat is free: the host can let someone in."),
                       ("fr", f"La place de {french} est libre : l’hôte peut y faire entrer "
                              "quelqu’un.")):
        pages = [page(seated.host, seated.code, True, lang),
                 page(seated.stranger, seated.code, True, lang),
                 *(page(phone, seated.code, lang=lang) for phone in others)]
        for html in pages:
            head = html.split('id="turn-line"')[1] if 'id="turn-line"' in html \
                else html.split('id="status"')[1]
            assert said in unescape(head.split("</section>")[0])
            assert not blank_names(html, lang)


def test_a_game_ended_with_a_seat_free_names_who_played_it(app):
    seated = Seated(app, "high-card", players=2)
    rng = random.Random(1)
    while True:
        seat, moves = seated.api.seat_to_move()
        if seat == 1 and len(seated.api.moves(1)) == 1:  # seat 1's last card ends it
            break
        assert seated.api.post_move(seat, rng.choice(moves)).status_code == 200
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "0"}).status_code == 303
    assert seated.api.post_move(1, moves[0]).status_code == 200
    assert seated.table.status == "over"
    assert seated.table.match.outcome()["names"] == {"0": "Ana", "1": "Ben"}
    screen = page(seated.stranger, seated.code, screen=True)
    ranking = screen.split('class="ranking"')[1].split("</ol>")[0]
    assert "Ana" in ranking and "Ben" in ranking
    assert not blank_names(screen, "en")
