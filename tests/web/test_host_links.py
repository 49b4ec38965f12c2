"""The host on another device: a host link made on demand on the host's screen gives a
second device (the TV, the host's phone) the host's buttons, until the host revokes it.
Its key is on no page but the one that made it, never in the table screen's regions nor in
any push; a guest cannot make one; a wrong or revoked key is told so (403), spends a miss
of the address's bucket, and changes nothing."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.web.regions import regions
from companion.web.services import services
from tests.conftest import ApiTable, bearer, make_app

KEY = re.compile(r'id="host-key">([0-9A-Z-]{19})<')


def host_client(app, table: ApiTable) -> FlaskClient:
    client = app.test_client()
    client.set_cookie(f"host_{table.code}", table.host)
    return client


def make_link(client: FlaskClient, code: str) -> str:
    response = client.post(f"/t/{code}/host-links")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    key = KEY.search(page).group(1)
    # The address in the QR code and the link carries the key, at the wifi's address.
    assert "http://192.168.1.20:" in page and f"/t/{code}/host?key={key.replace('-', '')}" in page
    return key


def test_a_second_device_gets_the_hosts_buttons_and_loses_them_when_revoked(app):
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    host = host_client(app, table)
    screen = host.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert f"/t/{table.code}/host-links" in screen  # on demand, behind a link
    key = make_link(host, table.code)

    tv = app.test_client()
    form = tv.get(f"/t/{table.code}/host?key={key.replace('-', '')}").get_data(as_text=True)
    assert f'value="{key.replace("-", "")}"' in form  # one tap away, changing nothing yet
    assert tv.get_cookie(f"host_{table.code}") is None
    typed = key.lower().replace("-", " ")  # as typed on a remote
    response = tv.post(f"/t/{table.code}/host", data={"key": typed})
    assert response.status_code == 303 and response.headers["Location"].endswith("/screen")
    assert "Start the game" in tv.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert tv.post(f"/t/{table.code}/start", data={"first_seat": "1"}).status_code == 303
    assert table.view()["status"] == "playing"
    # The TV may undo, as the host may.
    seat, moves = table.seat_to_move()
    table.post_move(seat, moves[0])
    assert tv.post(f"/t/{table.code}/host-undo", data={"undo": "1"}).status_code == 303
    assert table.seq() == 2

    links = host.get(f"/t/{table.code}/host-links").get_data(as_text=True)
    assert "Host link 1, made at" in links and key not in links  # the key is shown once
    assert host.post(f"/t/{table.code}/host-links/revoke",
                     data={"link": "1"}).status_code == 303
    refused = tv.post(f"/t/{table.code}/host-undo", data={"undo": "2"})
    assert refused.status_code == 403 and table.seq() == 2
    assert "Free a seat" not in tv.get(f"/t/{table.code}/screen").get_data(as_text=True)
    again = tv.post(f"/t/{table.code}/host", data={"key": key})
    assert again.status_code == 403
    assert "wrong, or the host has revoked it" in again.get_data(as_text=True)
    # The host itself keeps its buttons; revoking twice is told, not a 500.
    assert "Free a seat" in host.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert host.post(f"/t/{table.code}/host-links/revoke",
                     data={"link": "1"}).status_code == 409
    assert host.post(f"/t/{table.code}/host-links/revoke",
                     data={"link": "x"}).status_code == 409


def test_a_guest_can_neither_make_nor_see_a_host_link(app):
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    guest = app.test_client()
    guest.set_cookie(f"seat_{table.code}", table.tokens[0])
    for response in (guest.get(f"/t/{table.code}/host-links"),
                     guest.post(f"/t/{table.code}/host-links")):
        assert response.status_code == 403
        assert "Only the host can do that" in response.get_data(as_text=True)
    assert "/host-links" not in guest.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert "/host-links" not in guest.get(f"/t/{table.code}/play").get_data(as_text=True)
    assert not services(app).tables.get(table.code).host_links


def test_the_key_is_in_no_region_and_no_push(app):
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    host = host_client(app, table)
    key = make_link(host, table.code)
    plain = key.replace("-", "")
    live = services(app).tables.get(table.code)
    with app.test_request_context(f"/t/{table.code}/screen"):
        drawn = [regions(live, None, is_host=True), regions(live, None),
                 regions(live, 0), regions(live, 1)]
    for parts in drawn:
        for part in parts:
            assert key not in part.html and plain not in part.html
    page = host.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert plain not in page and key not in page
    assert "/host-links" in page  # the host's own screen offers to make one


def test_a_wrong_key_changes_nothing_and_keys_cannot_be_guessed(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "c.sqlite"), "PUBLIC_HOST": "192.168.1.20",
                    "RATE_BURST": 1e9, "MISS_BURST": 3, "MISS_PER_SECOND": 0.001})
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    key = make_link(host_client(app, table), table.code)
    guest = app.test_client()
    guest.set_cookie(f"seat_{table.code}", table.tokens[1])  # even a seated guest
    for typed in ("", "0000-0000-0000-0000", "x" * 500):
        response = guest.post(f"/t/{table.code}/host", data={"key": typed})
        assert response.status_code == 403, typed
        assert guest.get_cookie(f"host_{table.code}") is None
    # The misses are spent: the right key waits too.
    response = guest.post(f"/t/{table.code}/host", data={"key": key})
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert guest.get_cookie(f"host_{table.code}") is None
    assert services(app).tables.get(table.code).status == "lobby"


def test_a_host_link_survives_a_restart(tmp_path):
    config = {"DATABASE": str(tmp_path / "c.sqlite"), "PUBLIC_HOST": "192.168.1.20",
              "RATE_BURST": 1e9}
    app = make_app(config)
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    key = make_link(host_client(app, table), table.code)
    again = make_app(config)
    phone = again.test_client()
    assert phone.post(f"/t/{table.code}/host", data={"key": key}).status_code == 303
    assert phone.post(f"/t/{table.code}/start", data={"first_seat": "0"}).status_code == 303


def test_the_browser_that_is_host_already_keeps_its_own_cookie(app):
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    host = host_client(app, table)
    key = make_link(host, table.code)
    assert host.post(f"/t/{table.code}/host", data={"key": key}).status_code == 303
    assert host.get_cookie(f"host_{table.code}").value == table.host


def test_a_host_links_key_is_a_host_bearer_until_revoked(app):
    table = ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()
    host = host_client(app, table)
    key = make_link(host, table.code).replace("-", "")
    api = app.test_client()
    started = api.post(f"/api/tables/{table.code}/start", headers=bearer(key), json={})
    assert started.status_code == 200
    seat, moves = table.seat_to_move()
    table.post_move(seat, moves[0])
    assert host.post(f"/t/{table.code}/host-links/revoke", data={"link": "1"}).status_code == 303
    refused = api.post(f"/api/tables/{table.code}/undo", headers=bearer(key), json={"undo": 1})
    assert refused.status_code == 403, refused.get_json()
    assert table.seq() == 1  # the move stands
