"""The pages: home, join, phone, screen, rules; the headers and refusals around them."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.web.services import services
from support.strategies.heuchel_meuchel import choose as choose_hm
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable


def create_by_form(client, players: int = 4) -> str:
    response = client.post("/tables", data={"game": "seventh-heaven", "players": str(players),
                                            "opt_heaven": "20"})
    assert response.status_code == 303
    code = re.search(r"/t/([A-Z]{4})/screen", response.headers["Location"]).group(1)
    return code


def test_home_lists_every_game_and_every_one_starts(client):
    page = client.get("/").get_data(as_text=True)
    for name in ("In 7th Heaven", "Heuchel &amp; Meuchel", "SkyRunner", "The Climbers"):
        assert name in page
    assert page.count('name="game" value=') == len(GAME_IDS)
    response = client.post("/tables", data={"game": "climbers", "players": "3"})
    assert response.status_code == 303
    assert client.post("/tables", data={"game": "chess", "players": "3"}).status_code == 404


def test_creating_a_table_makes_this_browser_the_host_screen(client):
    code = create_by_form(client)
    page = client.get(f"/t/{code}/screen").get_data(as_text=True)
    assert f'src="/t/{code}/qr.svg"' in page  # the QR code
    qr = client.get(f"/t/{code}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and b"<svg" in qr.data
    assert f"http://192.168.1.20:5000/j/{code}" in page
    assert "Start the game" in page


def test_someone_else_sees_the_screen_without_host_buttons(app, client):
    code = create_by_form(client)
    other = app.test_client()
    page = other.get(f"/t/{code}/screen").get_data(as_text=True)
    assert "Start the game" not in page
    assert other.post(f"/t/{code}/start").status_code == 403


def join_by_form(app, code: str, name: str, seat: int):
    phone = app.test_client()
    response = phone.post(f"/j/{code}", data={"name": name, "seat": str(seat)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return phone


def test_a_phone_comes_back_to_its_seat(app, client):
    code = create_by_form(client, players=2)
    phone = join_by_form(app, code, "Ana", 1)
    response = phone.get(f"/j/{code}")
    assert response.status_code == 303 and response.headers["Location"].endswith("/play")
    page = phone.get(f"/t/{code}/play").get_data(as_text=True)
    assert "Ana" in page and "Waiting for the host" in page
    cookie = phone.get_cookie(f"seat_{code}")
    assert cookie.http_only and cookie.same_site == "Lax"


def test_a_taken_seat_cannot_be_taken_and_the_host_can_free_it(app, client):
    code = create_by_form(client, players=2)
    join_by_form(app, code, "Ana", 0)
    intruder = app.test_client()
    response = intruder.post(f"/j/{code}", data={"name": "Zed", "seat": "0"})
    assert response.status_code == 409
    assert "taken by another phone" in response.get_data(as_text=True)
    assert client.post(f"/t/{code}/free", data={"seat": "0"}).status_code == 303
    assert intruder.post(f"/j/{code}", data={"name": "Zed", "seat": "0"}).status_code == 303


def start_four(app, client):
    code = create_by_form(client)
    phones = [join_by_form(app, code, name, seat)
              for seat, name in enumerate(("Ana", "Ben", "Chloé", "Dev"))]
    assert client.post(f"/t/{code}/start", data={"first_seat": "0"}).status_code == 303
    return code, phones


def test_the_phone_offers_only_legal_moves_and_plays_one(app, client):
    code, phones = start_four(app, client)
    page = phones[0].get(f"/t/{code}/play").get_data(as_text=True)
    assert "Your turn" in page
    playable = re.findall(r'data-card="(\d+)"', page.split('class="hand"')[1])
    assert len(playable) == 12
    table = services(app).tables.get(code)
    legal = table.match.moves_for(0)
    card = legal[0]["card"]
    # tap the card, then every next question, until the confirm form appears
    chosen = {"card": card}
    for _ in range(6):
        picker = phones[0].get(f"/t/{code}/pick", query_string={"pick": json.dumps(chosen)})
        text = picker.get_data(as_text=True)
        if "Confirm" in text:
            break
        key, value = next(iter((k, v) for k, v in legal[0].items() if k not in chosen))
        chosen[key] = value
    form = dict(re.findall(r'name="(move|client_move_id)" value="([^"]*)"', text))
    # the confirm form sends the seq the phone's status shows (hx-include="#seq")
    assert 'hx-include="#seq' in text
    form["seq"] = re.search(r'id="seq" name="seq" value="(\d+)"', page).group(1)
    form["move"] = form["move"].replace("&#34;", '"').replace("&quot;", '"')
    response = phones[0].post(f"/t/{code}/move", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert table.match.seq == 1
    # the same form sent again (a double tap) changes nothing
    phones[0].post(f"/t/{code}/move", data=form, headers={"HX-Request": "true"})
    assert table.match.seq == 1


def test_a_dimmed_card_explains_its_rule(app, client):
    code, phones = start_four(app, client)
    table = services(app).tables.get(code)
    # seat 1 is not to play: any card explains that it is not their turn
    card = table.match.view_for(1)["hand"][0]["id"]
    response = phones[1].get(f"/t/{code}/explain",
                             query_string={"pick": json.dumps({"card": card})},
                             headers={"HX-Request": "true"})
    assert "It is not your turn" in response.get_data(as_text=True)
    assert table.match.seq == 0


def test_the_phone_never_shows_another_hand(app, client):
    code, phones = start_four(app, client)
    table = services(app).tables.get(code)
    for seat, phone in enumerate(phones):
        page = phone.get(f"/t/{code}/play").get_data(as_text=True)
        mine = {c["id"] for c in table.match.view_for(seat)["hand"]}
        shown = {int(x) for x in re.findall(r'data-card="(\d+)"', page)}
        assert shown == mine


def test_rules_page_in_both_languages(client):
    english = client.get("/rules/seventh-heaven").get_data(as_text=True)
    french = client.get("/rules/seventh-heaven", headers={"Accept-Language": "fr"}) \
        .get_data(as_text=True)
    assert "7h." in english and english != french
    assert client.get("/rules/nope").status_code == 404


def test_language_switch_sets_a_cookie(client):
    response = client.get("/lang/fr?next=/")
    assert response.status_code == 303
    assert "Démarrer une table" in client.get("/").get_data(as_text=True)
    assert client.get("/lang/fr?next=//evil.example").headers["Location"] == "/"


@pytest.mark.parametrize("target", ["//evil.example", "/%09/evil.example", "/%0a/evil.example",
                                    "/%5Cevil.example", "%5C%5Cevil.example", "/%00/x",
                                    "http://evil.example/", "evil.example", "/%7F/evil.example"])
def test_the_language_switch_sends_nowhere_but_this_site(client, target):
    """A browser drops a tab or a line break from a URL and reads a backslash as a slash:
    ``/<tab>/evil.example`` is ``//evil.example``, another site."""
    response = client.get(f"/lang/fr?next={target}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert response.headers["Set-Cookie"].startswith("lang=fr")


def test_a_phone_saying_where_the_screen_is_goes_back_only_to_a_page_of_its_own(client):
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    client.set_cookie(f"seat_{table.code}", table.tokens[0])
    back = f"/t/{table.code}/play/x\r\nSet-Cookie: a=b"  # a header of its own, once a 500
    sent = client.post(f"/t/{table.code}/sitting", data={"screen": "left", "next": back})
    assert sent.status_code == 200 and "Location" not in sent.headers
    assert services(client.application).tables.get(table.code).sitting == {0: "left"}


def test_the_language_switch_goes_back_to_the_page_it_was_asked_from(client):
    response = client.get("/lang/en?next=%2Ft%2FACDE%2Fplay%3Fpick%3D%7B%7D")
    assert response.headers["Location"] == "/t/ACDE/play?pick=%7B%7D"


def test_headers_forbid_inline_script(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in response.get_data(as_text=True)


def test_a_post_from_another_origin_is_refused(client):
    response = client.post("/tables", data={"game": "seventh-heaven", "players": "4"},
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert client.get("/api/tables/ACDE/view").status_code == 404


def test_bad_urls_and_bodies_get_clear_4xx(client):
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    for path in ("/t/ZZZZ/play", "/j/0000", "/t/ACDE/screen", "/nothing"):
        response = client.get(path)
        assert response.status_code == 404
    response = client.post(f"/api/tables/{table.code}/moves", data="not json",
                           headers={"Authorization": f"Bearer {table.tokens[0]}"})
    assert response.status_code == 400
    response = client.post("/api/tables", json={"game": "seventh-heaven", "players": 9})
    assert response.status_code == 422
    assert response.get_json()["error"]["rule"] == "table.player-count"
    response = client.post("/api/tables", data="x" * 100_000)
    assert response.status_code == 413


@pytest.mark.parametrize("typed", ["", "zz", "ZZZZZ", "AB CD", "<script>", "ÉÉÉÉ", "0000"])
def test_a_code_that_names_no_table_is_answered_on_the_home_page(client, typed):
    answer = client.get("/join", query_string={"code": typed})
    assert answer.status_code == 404
    page = answer.get_data(as_text=True)
    assert 'id="join-problem"' in page and "no table with that code" in page
    assert "<script>" not in page.split('id="join-code"')[1].split(">")[0]


def test_a_code_typed_in_any_case_leads_to_its_join_page(client):
    table = ApiTable(client, game="seventh-heaven", players=3)
    for typed in (table.code.lower(), f" {table.code} ", table.code):
        answer = client.get("/join", query_string={"code": typed})
        assert answer.status_code == 303
        assert answer.headers["Location"].endswith(f"/j/{table.code}")


def test_every_game_says_why_it_ended_and_what_its_numbers_mean():
    """Each game's seeds name every way its games end, and the meaning of the number beside
    each name, in English and French."""
    for spec in GAMES_UNDER_TEST:
        outcome = spec.seed["outcome"]
        assert outcome["reasons"], spec.id
        for text in (outcome["score"], *outcome["reasons"].values()):
            assert text["en"] and text["fr"], spec.id
        assert "{score}" in outcome["score"]["en"] and "{score}" in outcome["score"]["fr"]


@pytest.mark.parametrize(("game", "phase", "headline"), [
    ("seventh-heaven", "event-swap", r"Space \d+, The "),
    ("seventh-heaven", "discard", r"Three cards: discard \d"),
    ("heuchel-meuchel", "favour", r"Your turn: favours"),
])
def reach_phase(app, game: str, phase: str) -> tuple[ApiTable, int] | None:
    """A started table of ``game`` played at random until ``phase``, and the seat to act."""
    for seed in range(1, 12):
        table = ApiTable.started(app.test_client(), game=game, players=3, seed=seed)
        live = services(app).tables.get(table.code)
        rng = random.Random(seed)
        for _ in range(300):
            # a seat with something to do besides taking back a set-up card
            acting = [(seat, moves) for seat in range(3)
                      if (moves := table.moves(seat)) and any(m["type"] != "lift" for m in moves)]
            if not acting:
                break
            seat, moves = acting[0]
            with live.lock:
                if live.match.state["phase"] == phase:
                    return table, seat
            if game == "heuchel-meuchel":  # a player who seeks favours
                move = choose_hm(table.view(seat)["view"], moves)
            else:
                move = rng.choice(moves)
            table.post_move(seat, move)
    return None


@pytest.mark.parametrize(("game", "phase", "headline"), [
    ("seventh-heaven", "event-swap", r"Space \d+, The "),
    ("seventh-heaven", "discard", r"Three cards: discard \d"),
    ("heuchel-meuchel", "favour", r"Your turn: favours"),
])
def test_a_decision_says_what_is_decided_and_why(app, game, phase, headline):
    reached = reach_phase(app, game, phase)
    assert reached is not None, f"{phase} never came"
    table, seat = reached
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[seat])
    page = phone.get(f"/t/{table.code}/play").get_data(as_text=True)
    status = page.split('id="status"')[1].split("</section>")[0]
    assert re.search(headline, status), status
    assert 'class="why-now"' in status


def name_field(page: str) -> str:
    (field,) = re.findall(r'<input[^>]*name="name"[^>]*>', page)
    return field


LONG_NAME = "Maximilian-Alexander Wolff von Hohenberg"  # 40 characters


@pytest.mark.parametrize("lang, said", [("en", "Give a name of 1 to 24 characters."),
                                        ("fr", "Donnez un nom de 1 à 24 caractères.")])
def test_a_name_over_the_limit_is_refused_with_the_limit_and_kept_as_typed(app, client, lang,
                                                                          said):
    code = create_by_form(client, players=2)
    phone = app.test_client()
    typed = LONG_NAME + " the Third of Lower Saxony"  # 66 characters
    response = phone.post(f"/j/{code}", data={"name": typed, "seat": "0"},
                          headers={"Accept-Language": lang})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert said in page
    field = name_field(page)
    assert f'value="{typed}"' in field and 'aria-invalid="true"' in field
    # The field itself never cuts what is typed: the server's words say the limit.
    limit = re.search(r'maxlength="(\d+)"', field)
    assert limit is None or int(limit.group(1)) >= len(typed)
    assert 0 not in services(app).tables.get(code).seats


def test_the_join_form_says_the_name_limit_and_does_not_cut_at_it(app, client):
    code = create_by_form(client, players=2)
    field = name_field(client.get(f"/j/{code}").get_data(as_text=True))
    limit = re.search(r'maxlength="(\d+)"', field)
    assert limit is None or int(limit.group(1)) > 24
