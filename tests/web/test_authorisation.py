"""Who may do what, in every game: tokens and cookies of other seats and tables, forged or
missing ones, host actions from a seat, moves out of turn, another site's Origin (POSTs and
websocket upgrades). Each is refused with its status and clause, and the table is unchanged.
Then the headers: the CSP and what pages may contain under it, cookies, 413 and 429."""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
import threading

import pytest
import websocket
from werkzeug.serving import make_server

from companion.web.security import CSP
from companion.web.services import services
from tests.conftest import bearer, make_app
from tests.web.hostile_kit import (
    EVIL,
    GAMES,
    Seated,
    advance_until_single_mover,
    assert_api_refusal,
    assert_page_refusal,
    card_ids,
    data_cards,
    inline_problems,
    script_hash,
)

BAD_ORIGINS = [EVIL, "null", "http://localhost:8080", "http://localhost.evil.example",
               "ftp://localhost", "http://evil.example/http://localhost", "LOCALHOST"]


@pytest.fixture(params=GAMES)
def seated(request, app) -> Seated:
    return Seated(app, request.param, seed=5)


@pytest.fixture
def other(app, seated) -> Seated:
    """A second table of the same game, to borrow its tokens."""
    return Seated(app, seated.game_id, seed=6)


def single_mover(seated: Seated) -> tuple[int, int, dict]:
    """A position where one seat (``mover``) may act and another (``idle``) may not."""
    mover = advance_until_single_mover(seated, random.Random(3))
    idle = (mover + 1) % seated.players
    move = seated.table.match.moves_for(mover)[0]
    return mover, idle, move


def phone_form(seated: Seated, move: dict) -> dict[str, str]:
    return {"move": json.dumps(move), "seq": str(seated.table.match.seq),
            "client_move_id": secrets.token_hex(8)}


# --- the JSON API ----------------------------------------------------------------------------

def test_api_move_with_another_seats_token_is_not_your_turn(seated):
    mover, idle, move = single_mover(seated)
    before = seated.snapshot()
    response = seated.api.post_move(idle, move, seq=seated.table.match.seq)
    assert_api_refusal(response, 403, "table.not-your-turn")
    assert seated.snapshot() == before
    # the same request with the mover's own token goes through: the refusal was the token's
    assert seated.api.post_move(mover, move, seq=seated.table.match.seq).status_code == 200
    assert seated.snapshot() != before


def test_api_calls_with_foreign_forged_or_missing_tokens(seated, other):
    mover, _, move = single_mover(seated)
    code = seated.code
    real = seated.tokens[mover]
    foreign = [
        other.tokens[mover],                      # the same seat at another table
        other.api.host,                           # another table's host
        secrets.token_urlsafe(16),                # a forged token of the right shape
        hashlib.sha256(real.encode()).hexdigest(),  # what the database stores
        real[:-1] + ("A" if real[-1] != "A" else "B"),  # one character off
        real + " x",
    ]
    client = seated.api.client
    before = seated.snapshot()
    body = {"move": move, "seq": seated.table.match.seq, "client_move_id": "forged"}
    for token in foreign:
        assert_api_refusal(client.post(f"/api/tables/{code}/moves", json=body,
                                       headers=bearer(token)), 403, "table.bad-token")
        assert_api_refusal(client.get(f"/api/tables/{code}/moves", headers=bearer(token)),
                           403, "table.bad-token")
        assert_api_refusal(client.post(f"/api/tables/{code}/start", headers=bearer(token),
                                       json={}), 403, "table.host-only")
        assert_api_refusal(client.post(f"/api/tables/{code}/undo", headers=bearer(token)),
                           403, "table.bad-token")
        for reading in ("view", "log"):
            assert_api_refusal(client.get(f"/api/tables/{code}/{reading}",
                                          headers=bearer(token)), 403, "table.bad-token")
    # no token at all, another scheme, the token in the query string or a cookie
    for headers, query in (({}, ""), ({"Authorization": f"Basic {real}"}, ""),
                           ({"Authorization": "Bearer"}, ""), ({}, f"?token={real}"),
                           ({"Cookie": f"seat_{code}={real}"}, "")):
        response = client.post(f"/api/tables/{code}/moves{query}", json=body, headers=headers)
        assert_api_refusal(response, 403, "table.bad-token")
    # the host is not a seat
    assert_api_refusal(client.post(f"/api/tables/{code}/moves", json=body,
                                   headers=bearer(seated.api.host)), 403, "table.bad-token")
    assert seated.snapshot() == before


def test_api_host_actions_from_a_seat(seated):
    mover, _idle, move = single_mover(seated)
    seated.api.post_move(mover, move, seq=seated.table.match.seq)
    client, code = seated.api.client, seated.code
    before = seated.snapshot()
    for seat in range(seated.players):
        assert_api_refusal(client.post(f"/api/tables/{code}/start", json={"first_seat": 0},
                                       headers=bearer(seated.tokens[seat])),
                           403, "table.host-only")
    # only the mover may take a move back (the host may take back anything)
    for seat in range(seated.players):
        if seat != mover:
            assert_api_refusal(client.post(f"/api/tables/{code}/undo",
                                           headers=bearer(seated.tokens[seat])),
                               403, "table.undo-not-yours")
    assert seated.snapshot() == before
    response = seated.api.host_undo()
    assert response.status_code == 200 and seated.snapshot() != before


def test_api_move_out_of_turn_and_from_another_origin(seated):
    mover, idle, move = single_mover(seated)
    client, code = seated.api.client, seated.code
    before = seated.snapshot()
    own = {"move": move, "seq": seated.table.match.seq, "client_move_id": "origin"}
    for origin in BAD_ORIGINS:
        response = client.post(f"/api/tables/{code}/moves", json=own,
                               headers={**bearer(seated.tokens[mover]), "Origin": origin})
        assert_api_refusal(response, 403, "table.bad-origin")
        response = client.post(f"/api/tables/{code}/undo",
                               headers={**bearer(seated.api.host), "Origin": origin})
        assert_api_refusal(response, 403, "table.bad-origin")
    assert seated.snapshot() == before
    # the idle seat's own (unlikely) move and the mover's: not its turn
    for candidate in (move, {"type": move["type"]}):
        response = seated.api.post_move(idle, candidate, seq=seated.table.match.seq)
        assert_api_refusal(response, 403, "table.not-your-turn")
    assert seated.snapshot() == before
    # same site: accepted, so the refusals above were the Origin's
    response = client.post(f"/api/tables/{code}/moves", json=own,
                           headers={**bearer(seated.tokens[mover]),
                                    "Origin": "http://localhost"})
    assert response.status_code == 200


# --- the phone's pages -----------------------------------------------------------------------

def test_phone_with_foreign_forged_or_missing_cookie(seated, other):
    mover, _, move = single_mover(seated)
    code = seated.code
    phones = {
        "no cookie": seated.stranger,
        "another table's token": seated.phone(other.tokens[mover]),
        "the cookie of another table": seated.phone(other.tokens[mover], f"seat_{other.code}"),
        "its own token, named for another table": seated.phone(seated.tokens[mover],
                                                               f"seat_{other.code}"),
        "a forged token": seated.phone(secrets.token_urlsafe(16)),
        "the host's token as a seat": seated.phone(seated.api.host),
        "only the host cookie": seated.host,
    }
    before = seated.snapshot()
    for name, phone in phones.items():
        form = phone_form(seated, move)
        for response in (
            phone.post(f"/t/{code}/move", data=form, headers={"HX-Request": "true"}),
            phone.post(f"/t/{code}/move", data=form),
            phone.post(f"/t/{code}/undo"),
            phone.get(f"/t/{code}/pick", query_string={"pick": "{}"}),
            phone.get(f"/t/{code}/explain", query_string={"pick": json.dumps(move)}),
        ):
            assert_page_refusal(response, 403, "table.bad-token")
            assert 'id="private"' not in response.get_data(as_text=True), name
        response = phone.get(f"/t/{code}/play")
        assert response.status_code == 303, name
        assert response.headers["Location"].endswith(f"/j/{code}")
    assert seated.snapshot() == before
    # the mover's own phone, same form: played
    response = seated.phones[mover].post(f"/t/{code}/move", data=phone_form(seated, move))
    assert response.status_code == 200 and seated.snapshot() != before


def test_phone_move_out_of_turn_and_from_another_origin(seated):
    mover, idle, move = single_mover(seated)
    code = seated.code
    before = seated.snapshot()
    response = seated.phones[idle].post(f"/t/{code}/move", data=phone_form(seated, move),
                                        headers={"HX-Request": "true"})
    assert_page_refusal(response, 403, "table.not-your-turn", turn=seated.table.name(mover))
    assert 'id="notice"' in response.get_data(as_text=True)
    response = seated.phones[idle].get(f"/t/{code}/explain",
                                       query_string={"pick": json.dumps(move)})
    assert response.status_code == 200
    assert re.search(r'data-rule="[a-z0-9]+\.turn\.wait"', response.get_data(as_text=True))
    for origin in BAD_ORIGINS:
        for path, data in ((f"/t/{code}/move", phone_form(seated, move)),
                           (f"/t/{code}/undo", {})):
            response = seated.phones[mover].post(path, data=data, headers={"Origin": origin})
            assert_page_refusal(response, 403, "table.bad-origin")
        for path in ("start", "host-undo", "free"):
            response = seated.host.post(f"/t/{code}/{path}", data={"seat": "1"},
                                        headers={"Origin": origin})
            assert_page_refusal(response, 403, "table.bad-origin")
        response = seated.stranger.post(f"/j/{code}", data={"name": "Eve"},
                                        headers={"Origin": origin})
        assert_page_refusal(response, 403, "table.bad-origin")
    assert seated.snapshot() == before


def test_host_actions_from_a_seat_are_refused(seated, other):
    mover, _, move = single_mover(seated)
    seated.api.post_move(mover, move, seq=seated.table.match.seq)
    code = seated.code
    browsers = [*seated.phones,
                seated.phone(seated.tokens[mover], f"host_{code}"),   # a seat token as host
                seated.phone(other.api.host, f"host_{code}"),         # another table's host
                seated.phone(secrets.token_urlsafe(16), f"host_{code}"),
                seated.stranger]
    before = seated.snapshot()
    for browser in browsers:
        for path, data in (("start", {"first_seat": "0"}), ("free", {"seat": "1"}),
                           ("host-undo", {"undo": "1"}), ("rewind", {"to": "1", "last": "1"})):
            for headers in ({}, {"HX-Request": "true"}):
                response = browser.post(f"/t/{code}/{path}", data=data, headers=headers)
                assert_page_refusal(response, 403, "table.host-only")
        page = browser.get(f"/t/{code}/screen").get_data(as_text=True)
        assert f"/t/{code}/host-undo" not in page and f"/t/{code}/free" not in page
        assert f"/t/{code}/rewind" not in page
    assert seated.snapshot() == before
    # the host's own browser may, naming the move it takes back
    response = seated.host.post(f"/t/{code}/host-undo", data={"undo": str(seated.table.match.seq)})
    assert response.status_code == 303 and seated.snapshot() != before


def test_a_freed_seats_old_cookie_and_token_are_dead(seated):
    code = seated.code
    old_phone, old_token = seated.phones[1], seated.tokens[1]
    assert seated.host.post(f"/t/{code}/free", data={"seat": "1"}).status_code == 303
    before = seated.snapshot()
    assert_page_refusal(old_phone.post(f"/t/{code}/undo"), 403, "table.bad-token")
    assert_api_refusal(seated.api.client.get(f"/api/tables/{code}/view",
                                             headers=bearer(old_token)), 403, "table.bad-token")
    assert seated.snapshot() == before


# --- websockets --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def live(tmp_path_factory):
    app = make_app({"RATE_BURST": 1e9, "PUBLIC_HOST": "127.0.0.1",
                      "DATABASE": str(tmp_path_factory.mktemp("auth") / "ws.sqlite")})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    tables = {game: Seated(app, game, seed=8) for game in GAMES}
    yield app, f"127.0.0.1:{httpd.server_port}", tables
    httpd.shutdown()


def ws_connect(address: str, code: str, cookie: str = "", origin: str | None = None):
    return websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=5,
                                       origin=origin or f"http://{address}", cookie=cookie)


def first_full(ws) -> str:
    for _ in range(10):
        text = ws.recv()
        if 'id="board"' in text:
            return text
    raise AssertionError("no full rendering came")


@pytest.mark.parametrize("game", GAMES)
def test_websocket_upgrade_from_another_origin_is_refused(live, game):
    _, address, tables = live
    seated = tables[game]
    before = seated.snapshot()
    cookies = ["", f"seat_{seated.code}={seated.tokens[0]}",
               f"host_{seated.code}={seated.api.host}"]
    port = address.rsplit(":", 1)[1]
    for cookie in cookies:
        for origin in (EVIL, "null", f"http://127.0.0.1:{int(port) + 1}",
                       f"http://evil.example:{port}"):
            with pytest.raises(websocket.WebSocketBadStatusException) as refused:
                ws_connect(address, seated.code, cookie, origin)
            assert refused.value.status_code == 403
    assert seated.snapshot() == before
    assert not [c for c in services(seated.app).hub.connections(seated.code)
                if c.open]


@pytest.mark.parametrize("game", GAMES)
def test_websocket_with_foreign_or_forged_cookie_gets_only_the_table_view(live, game):
    _, address, tables = live
    seated = tables[game]
    other = tables[GAMES[(GAMES.index(game) + 1) % len(GAMES)]]
    own = ws_connect(address, seated.code, f"seat_{seated.code}={seated.tokens[0]}")
    assert 'id="private"' in first_full(own)
    own.close()
    for cookie in (f"seat_{seated.code}={other.tokens[0]}",
                   f"seat_{other.code}={other.tokens[0]}",
                   f"seat_{seated.code}={secrets.token_urlsafe(16)}",
                   f"seat_{seated.code}={seated.api.host}",
                   f"host_{seated.code}={seated.tokens[0]}"):
        ws = ws_connect(address, seated.code, cookie)
        text = first_full(ws)
        assert 'id="private"' not in text, cookie
        assert "/host-undo" not in text and "/free" not in text, cookie
        assert data_cards(text) <= card_ids(seated.table.match.view_for(None)), cookie
        ws.close()


# --- headers -------------------------------------------------------------------------------------

def html_pages(app, seated: Seated) -> dict[str, object]:
    """Every kind of HTML page and fragment the app sends, for this game's table."""
    code, phone = seated.code, seated.phones[0]
    mover = seated.movers()[0]
    move = seated.table.match.moves_for(mover)[0]
    first_key = next(iter(move))
    lobby = Seated(app, seated.game_id, start=False)
    return {
        "home": seated.stranger.get("/"),
        "home fr": seated.stranger.get("/", headers={"Accept-Language": "fr"}),
        "join form": lobby.stranger.get(f"/j/{lobby.code}"),
        "join refused": lobby.stranger.post(f"/j/{lobby.code}", data={"name": ""}),
        "lobby phone": lobby.phones[0].get(f"/t/{lobby.code}/play"),
        "lobby screen (host)": lobby.host.get(f"/t/{lobby.code}/screen"),
        "phone": phone.get(f"/t/{code}/play"),
        "mover's phone": seated.phones[mover].get(f"/t/{code}/play"),
        "pick": seated.phones[mover].get(
            f"/t/{code}/pick", query_string={"pick": json.dumps({first_key: move[first_key]})},
            headers={"HX-Request": "true"}),
        "explain": seated.phones[(mover + 1) % 3].get(
            f"/t/{code}/explain", query_string={"pick": json.dumps(move)},
            headers={"HX-Request": "true"}),
        "move refused": seated.phones[(mover + 1) % 3].post(
            f"/t/{code}/move", data=phone_form(seated, move), headers={"HX-Request": "true"}),
        "screen": seated.stranger.get(f"/t/{code}/screen"),
        "screen (host)": seated.host.get(f"/t/{code}/screen"),
        "rules": seated.stranger.get(f"/rules/{seated.game_id}?table={code}"),
        "404 page": seated.stranger.get("/nothing/here"),
        "405 page": seated.stranger.put("/"),
        "403 page": seated.stranger.post(f"/t/{code}/start"),
        "bad origin page": seated.stranger.post("/tables", headers={"Origin": EVIL}),
        "413 page": seated.stranger.post("/tables", data={"x": "y" * 20_000}),
    }


def policy_for(page: str) -> str:
    """The strict policy, with the hash of the page's import map where it has one."""
    found = re.search(r'<script type="importmap">(.*?)</script>', page, re.S)
    if found is None:
        return CSP
    return CSP.replace("script-src 'self'", f"script-src 'self' {script_hash(found.group(1))}")


def test_every_html_page_has_the_strict_csp_and_nothing_inline(app, seated):
    """No page runs a script of its own but its import map (The Climbers' tower), which
    its policy names by its hash."""
    maps = 0
    for name, response in html_pages(app, seated).items():
        assert response.mimetype == "text/html", name
        page = response.get_data(as_text=True)
        policy = response.headers["Content-Security-Policy"]
        assert policy == policy_for(page), name
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff", name
        assert response.headers["X-Frame-Options"] == "DENY", name
        assert response.headers["Cache-Control"] == "no-store", name
        assert page.strip(), name
        assert inline_problems(page, policy) == [], name
        for script in re.findall(r"<script[^>]*>", page):
            maps += script == '<script type="importmap">'
            assert re.search(r'src="/static/', script) or script == '<script type="importmap">', \
                (name, script)
    assert (maps > 0) == (seated.game_id == "climbers")


def test_the_inline_finder_sees_what_the_csp_forbids():
    assert inline_problems('<script src="/static/a.js"></script><p class="x">ok</p>') == []
    page = ('<script>alert(1)</script><a href="javascript:x" onclick="y" style="c">a</a>'
            '<div hx-on:click="z"></div><style>p{}</style><script src="/s.js">1</script>')
    assert len(inline_problems(page)) == 7
    text = '{"imports":{}}'
    import_map = f'<script type="importmap">{text}</script>'
    named = CSP.replace("script-src 'self'", f"script-src 'self' {script_hash(text)}")
    assert inline_problems(import_map, named) == []
    assert inline_problems(import_map, CSP) == ["an import map the policy does not name"]


def test_api_and_redirects_carry_the_headers_too(client):
    for response in (client.post("/api/tables", json={"game": "skyrunner", "players": 2}),
                     client.get("/api/tables/ACDE/view"),
                     client.get("/lang/fr?next=/")):
        assert response.headers["Content-Security-Policy"] == CSP
        assert response.headers["X-Frame-Options"] == "DENY"


def test_scripts_and_style_sheets_carry_only_the_headers_that_govern_them(client):
    page = client.get("/").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/static/(?:js|css|vendor)/[^"]+)"', page)
    assert len(assets) >= 3
    for url in assets:
        response = client.get(url.replace("&amp;", "&"))
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        assert "Content-Security-Policy" not in response.headers, url
    svg = client.get("/static/img/favicon.svg")
    assert svg.headers["Content-Security-Policy"] == CSP  # an SVG is a document


def test_cookies_from_table_creation_and_joining_are_httponly_and_samesite(app):
    browser = app.test_client()
    for game in GAMES:
        response = browser.post("/tables", data={"game": game, "players": "3"})
        assert response.status_code == 303
        code = re.search(r"/t/([A-Z]{4})/screen", response.headers["Location"]).group(1)
        (host_cookie,) = response.headers.getlist("Set-Cookie")
        assert host_cookie.startswith(f"host_{code}=")
        for flag in ("HttpOnly", "SameSite=Lax", "Path=/"):
            assert flag in host_cookie, host_cookie
        phone = app.test_client()
        response = phone.post(f"/j/{code}", data={"name": "Ana"})
        assert response.status_code == 303
        (seat_cookie,) = response.headers.getlist("Set-Cookie")
        assert seat_cookie.startswith(f"seat_{code}=")
        for flag in ("HttpOnly", "SameSite=Lax", "Path=/"):
            assert flag in seat_cookie, seat_cookie
        # the API hands tokens in the body, never as cookies
        response = browser.post(f"/api/tables/{code}/seats", json={"name": "Ben"})
        assert response.status_code == 201 and not response.headers.getlist("Set-Cookie")


def test_bodies_over_the_limit_get_413_on_every_unsafe_route(app, seated):
    code = seated.code
    limit = app.config["MAX_CONTENT_LENGTH"]
    posts = [rule.rule.replace("<code>", code) for rule in app.url_map.iter_rules()
             if "POST" in rule.methods]
    assert len(posts) >= 10
    before = seated.snapshot()
    for path in posts:
        for kwargs in ({"data": "x" * (limit + 1), "content_type": "application/json"},
                       {"data": {"move": "x" * (limit + 1)}},
                       {"data": b"\x00" * (limit + 1),
                        "content_type": "application/octet-stream"}):
            response = seated.host.post(path, headers={**bearer(seated.api.host)}, **kwargs)
            assert response.status_code == 413, path
            if path.startswith("/api/"):
                assert response.get_json()["error"]["rule"] == "table.too-large"
            else:
                assert_page_refusal(response, 413, "table.too-large")
    # exactly at the limit: read (and refused for what it says, not for its size)
    response = seated.api.client.post(f"/api/tables/{code}/moves", headers=bearer(
        seated.tokens[0]), data=" " * (limit - 2) + "{}", content_type="application/json")
    assert response.status_code != 413
    assert seated.snapshot() == before


def limited_app(tmp_path, burst: int = 5):
    return make_app({"DATABASE": str(tmp_path / "limited.sqlite"),
                       "RATE_BURST": burst, "RATE_PER_SECOND": 0.001})


def test_rate_limit_per_cookie_on_the_phone_per_address_and_on_reads_by_code(tmp_path):
    app = limited_app(tmp_path, burst=40)
    seated = Seated(app, "seventh-heaven")  # creating and 3 joins spend 4 of the address's
    code = seated.code
    before = seated.snapshot()
    phone = seated.phones[1]
    statuses = [phone.post(f"/t/{code}/undo").status_code for _ in range(45)]
    assert statuses[:40] == [422] * 40  # nothing to undo: refused, but counted
    assert statuses[40:] == [429] * 5
    response = phone.post(f"/t/{code}/undo")
    assert_page_refusal(response, 429, "table.too-fast")
    response = phone.post(f"/t/{code}/undo", headers={"HX-Request": "true"})
    assert_page_refusal(response, 429, "table.too-fast")
    assert 'id="notice"' in response.get_data(as_text=True)
    # reading the table by its code counts too; another phone and the host still may act
    assert phone.get(f"/t/{code}/play").status_code == 429
    assert seated.phones[2].get(f"/t/{code}/play").status_code == 200
    assert seated.phones[2].post(f"/t/{code}/undo").status_code == 422
    assert seated.snapshot() == before
    # no token: the bucket is the address's (the start spent the host token's)
    anonymous = app.test_client()
    statuses = [anonymous.post("/api/tables", json={"game": "nope"}).status_code
                for _ in range(37)]
    assert statuses[:36] == [404] * 36 and statuses[36] == 429
    response = anonymous.post("/api/tables", json={"game": "skyrunner", "players": 2})
    assert_api_refusal(response, 429, "table.too-fast")


def test_rate_limit_on_the_host_cookie_leaves_the_table_alone(tmp_path):
    app = limited_app(tmp_path, burst=3)
    browser = app.test_client()
    response = browser.post("/tables", data={"game": "skyrunner", "players": "2"})
    code = re.search(r"/t/([A-Z]{4})/screen", response.headers["Location"]).group(1)
    statuses = [browser.post(f"/t/{code}/start").status_code for _ in range(4)]
    # the host cookie has its own bucket (creating the table spent the address's)
    assert statuses == [409, 409, 409, 429]  # seats missing, then too fast
    response = browser.post(f"/t/{code}/free", data={"seat": "0"})
    assert_page_refusal(response, 429, "table.too-fast")
    table = services(app).tables.get(code)
    assert table.status == "lobby" and table.seats == {}
