"""Hostile input on every route of ``app.url_map`` and up every websocket: whatever the path,
query, form, JSON body, method, credentials and Origin, the answer is never a 500 nor a
traceback, and a refused request leaves every table as it was (tests/web/test_fuzz.py
covers the JSON bodies of four API calls; this covers the rest)."""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
import websocket
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing import Rule
from werkzeug.serving import make_server

from tests.conftest import make_app
from tests.web.hostile_kit import (
    EVIL,
    GAMES,
    LONE_SURROGATES,
    Seated,
    random_move,
    snapshot,
)


def _rules() -> list[Rule]:
    with tempfile.TemporaryDirectory() as folder:
        app = make_app({"DATABASE": str(Path(folder) / "rules.sqlite")})
        return list(app.url_map.iter_rules())


RULES = _rules()
EXTRA_METHODS = {"PUT", "DELETE", "PATCH"}
UNSAFE = {"POST", "PUT", "DELETE", "PATCH"}
KEYS = ["move", "seq", "client_move_id", "pick", "key", "item", "next", "table", "seat",
        "first_seat", "name", "game", "players", "options", "seed", "lang", "type", "card",
        "cards", "level", "lane", "target", "row", "to", "column", "piece", "opt_heaven",
        "opt_deal", "opt_levels"]
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.integers(-3, 120)
           | st.floats(allow_nan=True) | st.text(max_size=24) | LONE_SURROGATES)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner,
                                      max_size=5), max_leaves=10)
NASTY_TEXT = st.sampled_from(["", " ", "\x00", "../../etc/passwd", "%00", "{", "[]", "null",
                              "1e999", "-1", "99999999999999999999", "<script>x</script>",
                              "\ud7ff", "é" * 30, "{{7*7}}", "' OR 1=1 --", "x" * 3000])


class World:
    """One app for the whole module, a started table per game, and a few moves played."""

    def __init__(self, folder: Path) -> None:
        self.app = make_app({"DATABASE": str(folder / "hostile.sqlite"),
                             "PUBLIC_HOST": "192.168.1.20", "RATE_BURST": 1e9})
        self.tables = {game: self.fresh(game) for game in GAMES}

    def fresh(self, game: str) -> Seated:
        import random

        seated = Seated(self.app, game, seed=31)
        rng = random.Random(game)
        for _ in range(4):
            found = random_move(seated.table, rng)
            if found:
                seated.api.post_move(*found, seq=seated.table.match.seq)
        return seated

    def snapshots(self) -> dict[str, tuple]:
        return {game: snapshot(seated.table) for game, seated in self.tables.items()}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    return World(tmp_path_factory.mktemp("hostile"))


def path_value(data, name: str, seated: Seated, world: World) -> str:
    others = [s.code for s in world.tables.values()]
    pools = {
        "code": st.sampled_from([seated.code, seated.code.lower(), *others, "ACDE", "AAAAA"]),
        "lang": st.sampled_from(["en", "fr", "de"]),
        "game_id": st.sampled_from([*GAMES, "climbers", "SkyRunner"]),
        "filename": st.sampled_from(["css/companion.css", "vendor/htmx.min.js",
                                     "../companion/__init__.py", "..%2f..%2fpyproject.toml",
                                     "js/companion.js"]),
    }
    value = data.draw(pools.get(name, st.nothing()) | NASTY_TEXT | st.text(max_size=12),
                      label=name)
    return quote(value, safe="/" if name == "filename" else "")


def build_path(rule: Rule, values: dict[str, str]) -> str:
    path = rule.rule
    for name, value in values.items():
        path = path.replace(f"<path:{name}>", value).replace(f"<{name}>", value)
    return path or "/"


def legal_moves(seated: Seated) -> list[dict]:
    table = seated.table
    with table.lock:
        return [move for seat in range(seated.players) for move in table.match.moves_for(seat)]


def field_value(data, seated: Seated, legal: list[dict]):
    """A form or query value: nasty text, a number, JSON, or a (mutated) legal move."""
    move = st.sampled_from(legal) if legal else st.just({"type": "play"})
    mutated = st.builds(lambda m, k, v: {**m, k: v}, move, st.sampled_from(KEYS), SCALARS)
    as_json = (JSON | move | mutated).map(lambda v: json.dumps(v, allow_nan=True))
    return data.draw(NASTY_TEXT | st.text(max_size=30) | st.integers(-5, 10**20).map(str)
                     | st.just(str(seated.table.match.seq)) | as_json)


def credentials(data, seated: Seated, world: World) -> dict[str, str]:
    other = world.tables[GAMES[(GAMES.index(seated.game_id) + 1) % len(GAMES)]]
    tokens = [*seated.tokens.values(), seated.api.host, other.api.host, other.tokens[0],
              "forged-token", ""]
    headers: dict[str, str] = {}
    auth = data.draw(st.none() | st.sampled_from(tokens), label="bearer")
    if auth is not None:
        headers["Authorization"] = data.draw(st.sampled_from(["Bearer ", "bearer ", "Basic ",
                                                              ""])) + auth
    cookies = []
    for kind in ("seat", "host"):
        token = data.draw(st.none() | st.sampled_from(tokens), label=f"{kind} cookie")
        if token is not None:
            cookies.append(f"{kind}_{seated.code}={token}")
    if data.draw(st.booleans(), label="lang cookie"):
        cookies.append(f"lang={data.draw(st.sampled_from(['fr', 'en', 'xx', '']))}")
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    if data.draw(st.booleans(), label="htmx"):
        headers["HX-Request"] = "true"
    origin = data.draw(st.sampled_from([None, None, "http://localhost", EVIL, "null"]),
                       label="origin")
    if origin:
        headers["Origin"] = origin
    if data.draw(st.booleans(), label="accept-language"):
        headers["Accept-Language"] = data.draw(st.sampled_from(["fr", "de;q=x", "*", "fr-CA"]))
    return headers


def assert_clean(response, label: str, method: str) -> None:
    body = response.get_data(as_text=True)
    assert response.status_code < 500, (label, response.status_code, body[:500])
    assert "Traceback" not in body and 'File "/' not in body, label
    if label.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
        assert response.get_json()["error"]["rule"], label


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.endpoint}:{rule.rule}")
@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_any_request_on_any_route(world, rule, data):
    game = data.draw(st.sampled_from(GAMES), label="game")
    seated = world.tables[game]
    method = data.draw(st.sampled_from(sorted(rule.methods | EXTRA_METHODS)), label="method")
    path = build_path(rule, {name: path_value(data, name, seated, world)
                             for name in rule.arguments})
    legal = legal_moves(seated)
    query = data.draw(st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6),
                                      st.just(None), max_size=4), label="query keys")
    query = {key: field_value(data, seated, legal) for key in query}
    headers = credentials(data, seated, world)
    body = data.draw(st.sampled_from(["none", "form", "json", "raw"]), label="body")
    kwargs: dict = {}
    if body == "form":
        keys = data.draw(st.lists(st.sampled_from(KEYS) | st.text(max_size=6), max_size=5))
        kwargs["data"] = {key: field_value(data, seated, legal) for key in keys}
    elif body == "json":
        move_id = data.draw(st.just("fz") | LONE_SURROGATES, label="client_move_id")
        kwargs["data"] = json.dumps(data.draw(JSON | st.sampled_from(legal or [{}]).map(
            lambda m: {"move": m, "seq": seated.table.match.seq, "client_move_id": move_id})),
            allow_nan=True)
        kwargs["content_type"] = data.draw(st.sampled_from(
            ["application/json", "text/plain", "application/json; charset=latin-1"]))
    elif body == "raw":
        kwargs["data"] = data.draw(st.binary(max_size=300))
        kwargs["content_type"] = data.draw(st.sampled_from(
            ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
             "application/json", "application/octet-stream"]))
    client = world.app.test_client(use_cookies=False)
    before = world.snapshots()
    response = client.open(path, method=method, query_string=query, headers=headers, **kwargs)
    assert_clean(response, path, method)
    if method in UNSAFE and headers.get("Origin") in (EVIL, "null"):
        assert response.status_code == 403, (path, method)
    if response.status_code >= 400:
        assert world.snapshots() == before, (path, method, response.status_code)
    else:
        for name, after in world.snapshots().items():
            if after != before[name]:  # a request that happened to be allowed: a new table
                world.tables[name] = world.fresh(name)


def test_every_route_was_fuzzed():
    endpoints = {rule.endpoint for rule in RULES}
    assert {"phone.move", "phone.pick", "api.submit", "screen.free", "sockets.table_socket",
            "static"} <= endpoints
    assert len(RULES) >= 25


# --- websockets, on a real server ---------------------------------------------------------

@pytest.fixture(scope="module")
def live(tmp_path_factory):
    app = make_app({"RATE_BURST": 1e9, "PUBLIC_HOST": "127.0.0.1",
                    "DATABASE": str(tmp_path_factory.mktemp("ws") / "ws.sqlite")})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    tables = {game: Seated(app, game, seed=9) for game in GAMES}
    yield app, f"127.0.0.1:{httpd.server_port}", tables
    httpd.shutdown()


def receive(ws, needle: str, limit: int = 12) -> str:
    for _ in range(limit):
        text = ws.recv()
        if needle in text:
            return text
    raise AssertionError(f"{needle!r} never came")


def closed(ws) -> bool:
    """Whether the server has closed the socket (a close frame, or the end of the stream)."""
    try:
        for _ in range(12):
            opcode, _frame = ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        return True
    except websocket.WebSocketTimeoutException:
        return False
    return False


MESSAGES = st.one_of(
    st.text(max_size=200).map(lambda t: ("text", t)),
    st.binary(max_size=200).map(lambda b: ("bytes", b)),
    JSON.map(lambda v: ("text", json.dumps(v, allow_nan=True)[:3000])),
    st.sampled_from([("text", "x" * 5000), ("text", "y" * 4097),
                     ("bytes", b"\x00" * 4097)]),  # over 4 KiB: the socket is closed
)


@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), who=st.sampled_from(["seat", "screen", "host", "forged"]),
       messages=st.lists(MESSAGES, min_size=1, max_size=4))
def test_any_message_up_any_socket(live, game, who, messages):
    _app, address, tables = live
    seated = tables[game]
    cookie = {"seat": f"seat_{seated.code}={seated.tokens[1]}",
              "host": f"host_{seated.code}={seated.api.host}",
              "forged": f"seat_{seated.code}=forged; host_{seated.code}=forged",
              "screen": ""}[who]
    before = snapshot(seated.table)
    ws = websocket.create_connection(f"ws://{address}/t/{seated.code}/ws", timeout=3,
                                     origin=f"http://{address}", cookie=cookie)
    try:
        receive(ws, 'id="board"')
        for kind, payload in messages:
            size = len(payload.encode() if isinstance(payload, str) else payload)
            if kind == "text":
                ws.send(payload)
            else:
                ws.send_binary(payload)
            if size > 4096:
                assert closed(ws), "an oversized message must close the socket"
                break
            notice = receive(ws, 'id="notice"')
            assert "only listens" in notice
            assert "Traceback" not in notice
    finally:
        ws.close()
    assert snapshot(seated.table) == before
    # the server is still there for everyone
    again = websocket.create_connection(f"ws://{address}/t/{seated.code}/ws", timeout=3,
                                        origin=f"http://{address}")
    assert 'id="board"' in receive(again, 'id="board"')
    again.close()


def test_a_socket_to_an_unknown_table_is_refused_before_the_upgrade(live):
    _, address, _ = live
    for code in ("ACDE", "zzzz", "A" * 100, "%00"):
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=3,
                                        origin=f"http://{address}")
        assert refused.value.status_code == 404  # a miss, counted as any other look-up
        assert b"Traceback" not in (refused.value.resp_body or b"")


def raw_upgrade(address: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_plain_get_on_the_socket_route_is_a_400(live):
    _, address, tables = live
    code = tables[GAMES[0]].code
    for headers in ({}, {"Upgrade": "websocket"}, {"Upgrade": "h2c", "Connection": "Upgrade"}):
        status, body = raw_upgrade(address, f"/t/{code}/ws", headers)
        assert status == 400 and b"Traceback" not in body


def test_a_malformed_websocket_handshake_is_a_4xx(live):
    _, address, tables = live
    code = tables[GAMES[0]].code
    base = {"Upgrade": "websocket", "Connection": "Upgrade"}
    for headers in (base, {**base, "Sec-WebSocket-Version": "13"},
                    {**base, "Sec-WebSocket-Key": "x", "Sec-WebSocket-Version": "99"},
                    {**base, "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}):
        status, body = raw_upgrade(address, f"/t/{code}/ws", headers)
        assert 400 <= status < 500, (headers, status)
        assert b"Traceback" not in body


def test_a_text_message_over_4_kib_of_utf8_closes_the_socket(live):
    _, address, tables = live
    seated = tables[GAMES[0]]
    ws = websocket.create_connection(f"ws://{address}/t/{seated.code}/ws", timeout=2,
                                     origin=f"http://{address}")
    try:
        receive(ws, 'id="board"')
        ws.send("é" * 2100)
        assert closed(ws)
    finally:
        ws.close()
