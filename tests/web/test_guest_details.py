"""The smaller holes a guest on the wifi could use: a page under another site's name (DNS
rebinding), the home page's scoreboard, a deal fixed by whoever created the table, and a
database file anyone on the laptop could read."""

from __future__ import annotations

import os
import random
import stat

import pytest

from tests.conftest import ApiTable, bearer, make_app
from tests.web.test_api import play_to_end


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "rebind.attacker.net"])
def test_a_page_under_another_sites_name_is_refused(client, host):
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    for method, path in (("GET", "/"), ("GET", f"/api/tables/{table.code}/view"),
                         ("POST", "/api/tables"), ("GET", f"/t/{table.code}/screen")):
        response = client.open(path, method=method, headers={"Host": host},
                               json={"game": "high-card", "players": 2})
        assert response.status_code == 400, (host, path)
        assert "own address" in response.get_data(as_text=True)
    assert table.view()["status"] == "lobby"


@pytest.mark.parametrize("host", ["localhost:5000", "127.0.0.1", "192.168.1.20:5000",
                                  "10.0.0.7", "[::1]:5000", "LOCALHOST"])
def test_the_lan_address_localhost_and_companion_host_are_answered(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_a_configured_name_is_answered(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "named.sqlite"),
                    "PUBLIC_HOST": "games.lan"})
    client = app.test_client()
    assert client.get("/", headers={"Host": "games.lan:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "other.lan:5000"}).status_code == 400


def test_the_home_page_shows_a_finished_game_only_to_its_own_table(client):
    table = ApiTable.started(client, game="high-card", players=2, seed=3)
    play_to_end(table, random.Random(2))
    names = table.view()["outcome"]["names"]
    stranger = client.get("/").get_data(as_text=True)
    assert table.code not in stranger and not any(name in stranger for name in names.values())
    # a made-up cookie is no one
    client.set_cookie(f"seat_{table.code}", "made-up")
    assert names["0"] not in client.get("/").get_data(as_text=True)
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    player = client.get("/").get_data(as_text=True)
    assert names["0"] in player and names["1"] in player
    assert table.code not in player  # the code is not needed to read a score
    client.delete_cookie(f"seat_{table.code}")
    client.set_cookie(f"host_{table.code}", table.host)
    assert names["0"] in client.get("/").get_data(as_text=True)


def test_a_seeded_deal_is_refused_unless_allowed(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "seedless.sqlite"), "SEEDED_DEALS": False})
    client = app.test_client()
    response = client.post("/api/tables", json={"game": "seventh-heaven", "players": 2,
                                                "seed": 42})
    assert response.status_code == 403
    assert response.get_json()["error"]["rule"] == "table.seed-refused"
    assert "COMPANION_SEEDED_DEALS" in response.get_json()["error"]["message"]
    body = client.post("/api/tables", json={"game": "seventh-heaven", "players": 2})
    assert body.status_code == 201
    code = body.get_json()["code"]
    token = client.post(f"/api/tables/{code}/seats", json={"name": "Ana"}).get_json()["token"]
    client.set_cookie(f"seat_{code}", token)
    assert 'class="seeded"' not in client.get(f"/t/{code}/play").get_data(as_text=True)


def test_a_seeded_table_says_so_on_every_phone(client):
    table = ApiTable.started(client, game="seventh-heaven", players=3, seed=42)
    for seat in range(3):
        client.set_cookie(f"seat_{table.code}", table.tokens[seat])
        page = client.get(f"/t/{table.code}/play").get_data(as_text=True)
        assert 'class="seeded"' in page and "fixed in advance" in page
    client.set_cookie("lang", "fr")
    french = client.get(f"/t/{table.code}/play").get_data(as_text=True)
    assert "fixée à l’avance" in french


def test_the_database_is_readable_by_its_owner_alone(tmp_path):
    path = tmp_path / "private.sqlite"
    app = make_app({"DATABASE": str(path)})
    client = app.test_client()
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    client.post(f"/api/tables/{table.code}/start", headers=bearer(table.host))
    for name in ("private.sqlite", "private.sqlite-wal", "private.sqlite-shm"):
        mode = stat.S_IMODE(os.stat(tmp_path / name).st_mode)
        assert mode & 0o077 == 0, (name, oct(mode))


def test_an_old_database_anyone_could_read_is_made_private(tmp_path):
    path = tmp_path / "old.sqlite"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    make_app({"DATABASE": str(path)})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
