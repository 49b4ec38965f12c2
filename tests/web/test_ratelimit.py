"""The per-token rate limit: a runaway script is refused, a person never is."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask import url_for

from companion.web.buckets import RateLimiter
from companion.web.services import services
from tests.conftest import ApiTable, bearer, make_app


def test_a_person_tapping_never_meets_the_limit():
    limiter = RateLimiter(rate=10, burst=40)
    # three taps a second for ten minutes
    assert all(limiter.allow("seat", now=t / 3) for t in range(1800))


def test_a_burst_is_cut_and_the_bucket_refills():
    limiter = RateLimiter(rate=10, burst=40)
    results = [limiter.allow("bot", now=0.0) for _ in range(60)]
    assert results.count(True) == 40
    assert limiter.allow("bot", now=1.0)
    assert limiter.allow("someone-else", now=0.0)


def test_a_runaway_client_gets_429_and_the_table_is_unchanged(tmp_path):
    client = make_app({"DATABASE": str(tmp_path / "rate.sqlite")}).test_client()
    table = ApiTable.started(client, game="seventh-heaven", players=2)
    before = table.view()
    statuses = {client.post(f"/api/tables/{table.code}/undo",
                            headers=bearer(table.tokens[1])).status_code for _ in range(60)}
    assert 429 in statuses
    response = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[1]))
    assert response.status_code == 429
    assert response.get_json()["error"]["rule"] == "table.too-fast"
    assert response.headers["Retry-After"] == "1"
    assert table.view() == before  # read from the address's bucket, not the seat's


def test_retry_after_is_the_time_until_a_request_is_allowed_again():
    limiter = RateLimiter(rate=0.25, burst=1)
    assert limiter.wait("bot", now=0.0) == 0
    assert limiter.wait("bot", now=1.0) == pytest.approx(3.0)
    assert limiter.wait("bot", now=4.0) == 0


def limited(tmp_path, **config):
    return make_app({"DATABASE": str(tmp_path / "limits.sqlite"), "RATE_PER_SECOND": 0.001,
                     **config})


GUEST = {"REMOTE_ADDR": "192.168.1.66"}


def test_a_made_up_token_is_no_one_and_shares_its_address_bucket(tmp_path):
    import secrets

    client = limited(tmp_path, RATE_BURST=20).test_client()
    statuses = [client.post("/api/tables/KWTE/seats", json={"name": "x"},
                            headers=bearer(secrets.token_urlsafe(16)),
                            environ_base=GUEST).status_code for _ in range(80)]
    assert statuses.count(404) == 20 and statuses[20:] == [429] * 60
    # a made-up seat or host cookie is no one either
    client.set_cookie("seat_KWTE", secrets.token_urlsafe(16))
    client.set_cookie("host_KWTE", secrets.token_urlsafe(16))
    response = client.post("/api/tables/KWTE/seats", json={"name": "x"}, environ_base=GUEST)
    assert response.status_code == 429 and response.headers["Retry-After"]


def test_looking_up_codes_one_after_another_is_cut_short(tmp_path):
    app = limited(tmp_path, RATE_BURST=1e9, MISS_BURST=10, MISS_PER_SECOND=0.001)
    client = app.test_client()
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    guesses = [code for code in ("ACDE", "ACDF", "ACDH", "ACDJ", "ACDK", "ACDM", "ACDN",
                                 "ACDP", "ACDR", "ACDT", "ACDW", "ACDX") if code != table.code]
    statuses = [client.get(f"/join?code={code}", environ_base=GUEST).status_code
                for code in guesses[:11]]
    assert statuses[:10] == [404] * 10 and statuses[10] == 429
    # with its misses spent, the guest finds no code, not even a real one, by any route
    for path in (f"/join?code={table.code}", f"/j/{table.code}", f"/t/{table.code}/screen",
                 f"/api/tables/{table.code}/view"):
        response = client.get(path, environ_base=GUEST)
        assert response.status_code == 429, path
        assert int(response.headers["Retry-After"]) >= 1
    # another address, and a phone whose seat token the server checked, are not held up
    assert client.get(f"/j/{table.code}",
                      environ_base={"REMOTE_ADDR": "192.168.1.67"}).status_code == 200
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[0])
    assert phone.get(f"/t/{table.code}/play", environ_base=GUEST).status_code == 200
    assert client.get(f"/api/tables/{table.code}/view", headers=bearer(table.tokens[1]),
                      environ_base=GUEST).status_code == 200


def test_looking_up_a_table_by_its_code_counts_towards_the_limit(tmp_path):
    app = limited(tmp_path, RATE_BURST=6)
    client = app.test_client()
    code = ApiTable(client, game="seventh-heaven", players=2).code  # spends one
    statuses = [client.get(f"/t/{code}/screen").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]


def test_one_address_creates_only_so_many_tables(tmp_path):
    app = limited(tmp_path, RATE_BURST=1e9, TABLES_BURST=3, TABLES_PER_SECOND=0.001)
    client = app.test_client()
    body = {"game": "seventh-heaven", "players": 2}
    statuses = [client.post("/api/tables", json=body, environ_base=GUEST).status_code
                for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    response = client.post("/tables", data={"game": "seventh-heaven", "players": "2"},
                           environ_base=GUEST)
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 100
    assert "wait" in response.get_data(as_text=True)
    # another guest, and the laptop the companion runs on, still create tables
    assert client.post("/api/tables", json=body,
                       environ_base={"REMOTE_ADDR": "192.168.1.67"}).status_code == 201
    assert all(client.post("/api/tables", json=body).status_code == 201 for _ in range(5))


#: A websocket handshake's headers (RFC 6455), as a browser sends them.
UPGRADE = {"Upgrade": "websocket", "Connection": "Upgrade",
           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"}


def code_lookups(app, code: str) -> list[tuple[str, str, dict[str, str]]]:
    """Every way to name a table by its code, as (method, path, headers): each method of
    each route taking a code (its socket with a handshake), the join form's ``?code=`` and
    the rules pages' ``?table=``."""
    spec = services(app).games["seventh-heaven"]
    ways = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "code" not in rule.arguments:
                continue
            path = url_for(rule.endpoint, code=code,
                           **{name: "x" for name in rule.arguments - {"code"}})
            ways += [(method, urlsplit(path).path, UPGRADE if rule.websocket else {})
                     for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
        ways += [("GET", url_for("join.by_code", code=code), {}),
                 ("GET", url_for("rules.show", game_id=spec.id, table=code), {}),
                 ("GET", url_for("rules.clause", game_id=spec.id, rule=next(iter(spec.clauses)),
                                 table=code), {})]
    return ways


def guessing(tmp_path):
    """An app whose misses bucket holds one, and a table on it."""
    app = limited(tmp_path, RATE_BURST=1e9, MISS_BURST=1, MISS_PER_SECOND=0.001)
    return app, ApiTable(app.test_client(), game="seventh-heaven", players=2).join_all()


def finds_no_table(response, code: str) -> bool:
    """A rules page that found no table still shows the rules, with no way to the table."""
    if response.request.path.startswith("/rules/"):
        return response.status_code == 200 and f"/t/{code}/" not in response.get_data(True)
    return response.status_code == 404


def test_an_unknown_code_costs_one_miss_by_every_route(tmp_path):
    app, table = guessing(tmp_path)
    client = app.test_client()
    ways = code_lookups(app, "ACDE" if table.code != "ACDE" else "ACDF")
    assert len(ways) >= 35 and {urlsplit(path).path for _, path, _ in ways} >= {
        "/t/ACDE/ws", "/join", "/rules/seventh-heaven", "/j/ACDE", "/api/tables/ACDE/view"}
    for n, (method, path, headers) in enumerate(ways):
        guest = {"REMOTE_ADDR": f"192.168.2.{n + 1}"}
        miss = client.open(path, method=method, headers=headers, environ_base=guest)
        assert finds_no_table(miss, "ACDE"), (method, path, miss.status_code)
        after = client.get(f"/j/{table.code}", environ_base=guest)
        assert after.status_code == 429, (method, path)  # the one miss spent the bucket


def test_with_its_misses_spent_a_guest_finds_no_table_by_any_route(tmp_path):
    app, table = guessing(tmp_path)
    client = app.test_client()
    assert client.get("/join?code=ACDE", environ_base=GUEST).status_code == 404
    for method, path, headers in code_lookups(app, table.code):
        response = client.open(path, method=method, headers=headers, environ_base=GUEST)
        assert response.status_code == 429, (method, path, response.status_code)
    # the rules page still opens without naming a table; another address finds it
    assert client.get("/rules/seventh-heaven", environ_base=GUEST).status_code == 200
    found = client.get(f"/rules/seventh-heaven?table={table.code}",
                       environ_base={"REMOTE_ADDR": "192.168.1.67"})
    assert f"/t/{table.code}/play" in found.get_data(as_text=True)
