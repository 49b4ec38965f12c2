"""A seat freed during a game holds a hand: whoever asks for it waits until the host lets
them in on the host's screen; nobody else, the API included, takes it meanwhile."""

from __future__ import annotations

import itertools
import re

from tests.conftest import bearer, make_app
from tests.web.hostile_kit import Seated


def freed(app) -> Seated:
    """A game under way whose host freed seat 1."""
    seated = Seated(app, "seventh-heaven")
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "1"}).status_code == 303
    return seated


#: Each newcomer's phone has an address of its own on the wifi.
ADDRESSES = (f"10.0.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def ask(seated: Seated, name: str = "Mallory", seat: str = "1", address: str | None = None):
    newcomer = seated.app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = address or next(ADDRESSES)
    response = newcomer.post(f"/j/{seated.code}", data={"name": name, "seat": seat})
    return newcomer, response


def request_ids(seated: Seated) -> list[str]:
    page = seated.host.get(f"/t/{seated.code}/screen").get_data(as_text=True)
    return list(dict.fromkeys(re.findall(r'name="request" value="([0-9a-f]+)"', page)))


def spoken_codes(seated: Seated) -> dict[str, str]:
    """The code the host's screen shows beside each request, by request id."""
    page = seated.host.get(f"/t/{seated.code}/screen").get_data(as_text=True)
    return dict(re.findall(r'id="request-([0-9a-f]+)".*?class="spoken-code"[^>]*>([^<]+)<',
                           page, re.DOTALL))


def waiting_code(newcomer, seated: Seated) -> str:
    """The code a waiting phone's page tells its owner to say to the host."""
    page = newcomer.get(f"/t/{seated.code}/wait").get_data(as_text=True)
    (code,) = re.findall(r'class="spoken-code"[^>]*>([^<]+)<', page)
    return code


def test_a_stranger_asking_for_a_freed_seat_waits_and_gets_no_hand(app):
    seated = freed(app)
    before = seated.snapshot()
    newcomer, response = ask(seated)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{seated.code}/wait")
    assert seated.snapshot() == before and 1 not in seated.table.seats
    play = newcomer.get(f"/t/{seated.code}/play")
    assert play.status_code == 303 and "/j/" in play.headers["Location"]
    page = newcomer.get(f"/t/{seated.code}/wait").get_data(as_text=True)
    assert "Mallory, you asked for seat 2" in page and 'hx-trigger="every 2s"' in page
    # the join page says the seat is the host's to give; the API does not give it either
    join = seated.stranger.get(f"/j/{seated.code}").get_data(as_text=True)
    assert "the host lets you in" in join
    api = seated.stranger.post(f"/api/tables/{seated.code}/seats",
                               json={"name": "Eve", "seat": 1})
    assert api.status_code == 409 and api.get_json()["error"]["rule"] == "table.seat-held"
    assert seated.stranger.post(f"/api/tables/{seated.code}/seats",
                                json={"name": "Eve"}).status_code == 409
    assert seated.snapshot() == before


def test_the_host_sees_who_asks_and_lets_them_in(app):
    seated = freed(app)
    newcomer, _ = ask(seated, "Ben again")
    screen = seated.host.get(f"/t/{seated.code}/screen").get_data(as_text=True)
    assert "Ben again asks for Ben’s seat in the game under way." in screen
    public = seated.stranger.get(f"/t/{seated.code}/screen").get_data(as_text=True)
    assert "Ben again" not in public and "/admit" not in public
    (request_id,) = request_ids(seated)
    # only the host answers
    for client in (seated.stranger, seated.phones[0], newcomer):
        refused = client.post(f"/t/{seated.code}/admit", data={"request": request_id})
        assert refused.status_code == 403
    assert 1 not in seated.table.seats
    admitted = seated.host.post(f"/t/{seated.code}/admit", data={"request": request_id})
    assert admitted.status_code == 303
    assert seated.table.name(1) == "Ben again"
    # the waiting page, asking again, is sent to the seat with its cookie
    poll = newcomer.get(f"/t/{seated.code}/wait", headers={"HX-Request": "true"})
    assert poll.status_code == 204
    assert poll.headers["HX-Redirect"] == f"/t/{seated.code}/play"
    play = newcomer.get(f"/t/{seated.code}/play")
    assert play.status_code == 200 and "Ben again" in play.get_data(as_text=True)
    assert request_ids(seated) == []


def test_the_host_turns_a_stranger_away(app):
    seated = freed(app)
    newcomer, _ = ask(seated)
    (request_id,) = request_ids(seated)
    assert seated.host.post(f"/t/{seated.code}/turn-away",
                            data={"request": request_id}).status_code == 303
    page = newcomer.get(f"/t/{seated.code}/wait").get_data(as_text=True)
    assert "did not let you in" in page and "hx-trigger" not in page
    again = seated.host.post(f"/t/{seated.code}/admit", data={"request": request_id})
    assert again.status_code == 409
    assert 1 not in seated.table.seats


def test_letting_one_in_turns_the_others_for_that_seat_away(app):
    seated = freed(app)
    first, _ = ask(seated, "Ben")
    second, _ = ask(seated, "Mallory")
    ids = request_ids(seated)
    assert len(ids) == 2
    seated.host.post(f"/t/{seated.code}/admit", data={"request": ids[0]})
    assert "did not let you in" in second.get(f"/t/{seated.code}/wait").get_data(as_text=True)
    assert first.get(f"/t/{seated.code}/wait").status_code == 303


def test_the_waiting_list_is_bounded_and_names_are_checked(app):
    seated = freed(app)
    assert ask(seated, "   ")[1].status_code == 422
    for n in range(8):
        assert ask(seated, f"Guest {n}")[1].status_code == 303
    _, refused = ask(seated, "One too many")
    assert refused.status_code == 409 and "Too many people" in refused.get_data(as_text=True)


def test_a_seat_freed_in_the_lobby_is_free_to_anyone(app):
    seated = Seated(app, "seventh-heaven", start=False)
    seated.host.post(f"/t/{seated.code}/free", data={"seat": "1"})
    _, response = ask(seated, "Dev")
    assert response.headers["Location"].endswith(f"/t/{seated.code}/play")
    assert seated.table.name(1) == "Dev"


def test_the_api_host_start_still_needs_every_seat(app):
    seated = freed(app)
    response = seated.api.client.post(f"/api/tables/{seated.code}/start",
                                      headers=bearer(seated.api.host))
    assert response.status_code == 409


def test_one_address_holds_one_place_in_line_and_the_newcomer_gets_in(app):
    seated = freed(app)
    flood, said_first = [], None
    for _ in range(12):
        flood.append(ask(seated, "Ben", address="192.168.1.66"))
        # asking again keeps the code the phone showed: it may have been said aloud
        said_first = said_first or waiting_code(flood[-1][0], seated)
        assert waiting_code(flood[-1][0], seated) == said_first
    assert [response.status_code for _, response in flood] == [303] * 12
    assert len(request_ids(seated)) == 1  # each ask from that address replaced its last
    ben, response = ask(seated, "Ben")
    assert response.status_code == 303
    # two Bens ask: the host tells them apart by the code the real one's phone shows
    codes = spoken_codes(seated)
    assert len(codes) == 2 and len(set(codes.values())) == 2
    said = waiting_code(ben, seated)
    assert re.fullmatch(r"\d \d \d", said) and said in codes.values()
    assert waiting_code(flood[-1][0], seated) in codes.values()
    (real,) = (request_id for request_id, code in codes.items() if code == said)
    public = seated.stranger.get(f"/t/{seated.code}/screen").get_data(as_text=True)
    assert "spoken-code" not in public
    assert seated.host.post(f"/t/{seated.code}/admit",
                            data={"request": real}).status_code == 303
    assert ben.get(f"/t/{seated.code}/wait").headers["Location"].endswith("/play")
    assert "did not let you in" in flood[-1][0].get(f"/t/{seated.code}/wait").get_data(True)
    assert "did not let you in" in flood[0][0].get(f"/t/{seated.code}/wait").get_data(True)


def test_a_name_over_the_limit_asking_for_a_freed_seat_is_refused_and_kept(app):
    seated = freed(app)
    typed = "Maximilian-Alexander Wolff von Hohenberg"
    _, refused = ask(seated, typed)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "1 to 24 characters" in page
    assert re.search(rf'<input[^>]*name="name"[^>]*value="{typed}"', page)
    assert request_ids(seated) == []


def test_a_request_waits_through_a_restart_and_the_host_still_lets_them_in(app):
    seated = freed(app)
    newcomer, _ = ask(seated, "Ben again")
    code = waiting_code(newcomer, seated)
    again = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    for client in (seated.host, newcomer):
        client.application = again
    assert spoken_codes(seated) == {request_ids(seated)[0]: code}  # the same code to say
    (request_id,) = request_ids(seated)
    assert seated.host.post(f"/t/{seated.code}/admit",
                            data={"request": request_id}).status_code == 303
    play = newcomer.get(f"/t/{seated.code}/wait")
    assert play.status_code == 303 and play.headers["Location"].endswith("/play")
