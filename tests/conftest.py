"""Shared fixtures: a fresh app (and database) per test, and JSON API helpers."""

from __future__ import annotations

import fnmatch
import itertools
import logging
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from support import server_process
from support.server_log import assert_clean_log

# The games under test (tests/games_under_test.py), as the suites import them from here.
from tests.games_under_test import FAKE_GAME as FAKE_GAME
from tests.games_under_test import GAME_IDS as GAME_IDS
from tests.games_under_test import GAMES_UNDER_TEST


def pytest_configure(config: pytest.Config) -> None:
    # Beside the markers of pyproject.toml: scripts/test runs these with the ``slow`` ones,
    # alone, after the rest has run on every core.
    config.addinivalue_line(
        "markers", "timed: asserts how long something takes, so it runs with nothing beside it")


#: The modules whose tests take the longest (a whole game drawn for every viewer, the
#: engines' random playouts), longest first: on several cores (pytest-xdist) they start
#: first, so that no core is left alone with one of them at the end.
LONGEST_FIRST = ("tests/web/test_whole_games.py", "tests/games/*_playouts.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):  # one process: the order written
        return

    def rank(item: pytest.Item) -> int:
        where = item.nodeid.partition("::")[0]
        return next((n for n, pattern in enumerate(LONGEST_FIRST)
                     if fnmatch.fnmatch(where, pattern)), len(LONGEST_FIRST))

    items.sort(key=rank)


class ErrorRecords(logging.Handler):
    """Keeps every record of level ERROR or above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def server_logs_are_clean(request):
    """An error any test server logs fails the test that started it: the servers inside
    this process (pages, pushes, sockets) through ``logging``, the server processes through
    their log files. A test that provokes one on purpose is marked ``server_errors``."""
    handler = ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    already = len(server_process.LOGS)
    yield
    root.removeHandler(handler)
    if request.node.get_closest_marker("server_errors"):
        return
    assert not handler.records, "a server logged an error:\n" + "\n".join(
        handler.format(record) for record in handler.records)
    for path in server_process.LOGS[already:]:
        assert_clean_log(path)


#: What every test app allows unless a test says otherwise: seeded deals (the tests replay
#: known deals), and as many code look-ups and tables per address as it takes (the limits
#: on them have their own tests, tests/web/test_ratelimit.py).
TEST_DEFAULTS: dict[str, Any] = {"TESTING": True, "SEEDED_DEALS": True, "MISS_BURST": 1e9,
                                 "TABLES_BURST": 1e9}


def make_app(config: dict[str, Any]) -> Flask:
    """A fresh app offering the games under test."""
    return create_app({**TEST_DEFAULTS, **config}, games=GAMES_UNDER_TEST)


@pytest.fixture
def app(tmp_path) -> Flask:
    # Tests fire requests faster than any player: the rate limit has its own tests.
    return make_app({"DATABASE": str(tmp_path / "companion.sqlite"),
                     "PUBLIC_HOST": "192.168.1.20", "RATE_BURST": 1e9})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


_ids = itertools.count()


class ApiTable:
    """A table of ``game`` (a registered game's id) driven through the JSON API, the way a
    script or a bot would."""

    def __init__(self, client: FlaskClient, game: str, players: int = 4,
                 seed: int = 7, options: dict[str, Any] | None = None) -> None:
        self.client = client
        response = client.post("/api/tables", json={"game": game, "players": players,
                                                    "seed": seed, "options": options or {}})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.code: str = body["code"]
        self.host: str = body["host_token"]
        self.tokens: dict[int, str] = {}
        self.players = players

    @classmethod
    def started(cls, client: FlaskClient, game: str, players: int = 4,
                seed: int = 7, options: dict[str, Any] | None = None,
                first_seat: int = 0) -> ApiTable:
        """A table of ``game`` whose every seat is taken and whose match has begun."""
        table = cls(client, game, players, seed, options).join_all()
        table.start(first_seat)
        return table

    def join_all(self, names: tuple[str, ...] = ("Ana", "Ben", "Chloé", "Dev", "Eli", "Fay")):
        for seat in range(self.players):
            response = self.client.post(f"/api/tables/{self.code}/seats",
                                        json={"name": names[seat], "seat": seat})
            assert response.status_code == 201, response.get_json()
            self.tokens[seat] = response.get_json()["token"]
        return self

    def start(self, first_seat: int = 0) -> int:
        response = self.client.post(f"/api/tables/{self.code}/start", headers=bearer(self.host),
                                    json={"first_seat": first_seat})
        assert response.status_code == 200, response.get_json()
        return response.get_json()["seq"]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        headers = bearer(self.tokens[seat]) if seat is not None else {}
        return self.client.get(f"/api/tables/{self.code}/view", headers=headers).get_json()

    def moves(self, seat: int) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/tables/{self.code}/moves",
                                   headers=bearer(self.tokens[seat]))
        return response.get_json()["moves"]

    def seq(self) -> int:
        return self.view()["seq"]

    def post_move(self, seat: int, move: dict[str, Any], seq: int | None = None,
                  client_move_id: str | None = None):
        return self.client.post(
            f"/api/tables/{self.code}/moves", headers=bearer(self.tokens[seat]),
            json={"move": move, "seq": self.view(seat)["seq"] if seq is None else seq,
                  "client_move_id": client_move_id or f"m{next(_ids)}"})

    def last_shown(self) -> int:
        """The seq of the last move in effect the table screen shows, as its log says it:
        the move the host's undo names."""
        entries = self.client.get(f"/api/tables/{self.code}/log").get_json()["entries"]
        return next(entry["seq"] for entry in reversed(entries)
                    if entry["kind"] == "move" and not entry["undone"])

    def host_undo(self):
        """The host takes back the last move the table screen shows, naming it."""
        return self.client.post(f"/api/tables/{self.code}/undo", headers=bearer(self.host),
                                json={"undo": self.last_shown()})

    def seat_to_move(self) -> tuple[int, list[dict[str, Any]]] | None:
        for seat in range(self.players):
            moves = self.moves(seat)
            if moves:
                return seat, moves
        return None

    def play_at_random(self, moves: int, rng: random.Random) -> None:
        """Up to ``moves`` random legal moves, each by the first seat that may move."""
        for _ in range(moves):
            found = self.seat_to_move()
            if found is None:
                return
            self.post_move(found[0], rng.choice(found[1]))
