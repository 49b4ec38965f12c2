"""Shared by the hostile-input, authorisation and leak tests: seated tables of every game,
phones holding cookies, snapshots of a table, and readers for what a page or a view names."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import random
import re
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st

from companion.tables import Table
from companion.web.clauses import clause_text
from companion.web.services import services
from support.json_walk import objects_in
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable, bearer

#: Every game under test, each with three seats, so "another seat" exists.
GAMES = GAME_IDS
PLAYERS = 3
EVIL = "http://evil.example"
#: Text ending in halves of surrogate pairs, which JSON writes as ``"\\ud800"``:
#: ``st.text`` draws none, and a lone one once reached SQLite (a 500).
LONE_SURROGATES = st.builds(str.__add__, st.text(max_size=8),
                            st.text(st.characters(categories=["Cs"]), min_size=1, max_size=2))


class Seated:
    """A started table of ``game``: API tokens, a phone (cookie client) per seat, the host's
    browser (host cookie) and a stranger's browser."""

    def __init__(self, app: Flask, game: str, seed: int = 11, players: int = PLAYERS,
                 start: bool = True) -> None:
        self.app = app
        self.api = ApiTable(app.test_client(), game=game, players=players, seed=seed)
        self.api.join_all()
        self.game_id = game
        self.code = self.api.code
        self.players = players
        self.phones = [self.phone(self.api.tokens[seat]) for seat in range(players)]
        self.host = app.test_client()
        self.host.set_cookie(f"host_{self.code}", self.api.host)
        self.stranger = app.test_client()
        if start:
            self.api.start(first_seat=0)

    def phone(self, token: str, name: str | None = None) -> FlaskClient:
        client = self.app.test_client()
        client.set_cookie(name or f"seat_{self.code}", token)
        return client

    @property
    def table(self) -> Table:
        return services(self.app).tables.get(self.code)

    @property
    def tokens(self) -> dict[int, str]:
        return self.api.tokens

    def snapshot(self) -> tuple[Any, ...]:
        return snapshot(self.table)

    def movers(self) -> list[int]:
        table = self.table
        with table.lock:
            return [seat for seat in range(self.players) if table.match.moves_for(seat)]


def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a request could change about a table, comparable with ==."""
    with table.lock:
        return (table.match.seq, table.status, json.dumps(table.match.state, sort_keys=True),
                sorted(table.seats.items()), len(table.matches),
                json.dumps(table.match.outcome(), sort_keys=True))


def acting_seats(table: Table) -> list[int]:
    """Seats with something to do; a SkyRunner seat that has chosen only waits."""
    with table.lock:
        seats = []
        for seat in range(table.row.players):
            if not table.match.moves_for(seat):
                continue
            view = table.match.view_for(seat) or {}
            if view.get("phase") == "choose" and view.get("choice") is not None:
                continue
            seats.append(seat)
        return seats


def random_move(table: Table, rng: random.Random,
                take_back: float = 0.1) -> tuple[int, dict[str, Any]] | None:
    """A seeded random legal move. A Heuchel & Meuchel "lift" (a set-up card taken back)
    is chosen only now and then, or the set-up would never end."""
    seats = acting_seats(table)
    if not seats:
        return None
    seat = rng.choice(seats)
    moves = table.match.moves_for(seat)
    forward = [move for move in moves if move.get("type") != "lift"]
    if forward and rng.random() >= take_back:
        moves = forward
    return seat, rng.choice(moves)


def play_api(seated: Seated, seat: int, move: dict[str, Any]) -> None:
    response = seated.api.post_move(seat, move, seq=seated.table.match.seq)
    assert response.status_code == 200, response.get_json()


def advance_until_single_mover(seated: Seated, rng: random.Random, limit: int = 200) -> int:
    """Play seeded random moves until exactly one seat may act; returns it."""
    for _ in range(limit):
        movers = seated.movers()
        if len(movers) == 1:
            return movers[0]
        found = random_move(seated.table, rng, take_back=0)
        assert found is not None, "the game ended before a single seat was to move"
        play_api(seated, *found)
    raise AssertionError("never reached a position with a single seat to move")


# --- what a page or a view names ---------------------------------------------------------

DATA_CARD = re.compile(r'data-card="([^"]*)"')


def data_cards(page: str) -> set[int]:
    return {int(value) for value in DATA_CARD.findall(page)}


def card_ids(value: Any) -> set[int]:
    """The ids of every card object in a view: a dict with an "id" and a "kind" or "rank"."""
    return {card["id"] for card in objects_in(value)
            if isinstance(card.get("id"), int) and ("kind" in card or "rank" in card)}


def move_card_ids(move: Any) -> set[int]:
    """The card ids a (redacted) move names: its "card" and "cards" fields."""
    if not isinstance(move, dict):
        return set()
    found = set()
    if isinstance(move.get("card"), int) and not isinstance(move.get("card"), bool):
        found.add(move["card"])
    for card in move.get("cards") or []:
        if isinstance(card, int):
            found.add(card)
    return found


# --- refusals ------------------------------------------------------------------------------

SPECS = {spec.id: spec for spec in GAMES_UNDER_TEST}


def message(rule: str, game: str = "", **params: Any) -> str:
    return clause_text(SPECS.get(game), rule, "en", params)


def assert_api_refusal(response, status: int, rule: str) -> None:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.get_json()["error"]["rule"] == rule


def assert_page_refusal(response, status: int, rule: str, game: str = "", **params: Any) -> None:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert html.escape(message(rule, game, **params)) in response.get_data(as_text=True)


def api_view(client: FlaskClient, code: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{code}/view",
                          headers=bearer(token) if token else {})
    assert response.status_code == 200
    return response.get_json()


def api_log(client: FlaskClient, code: str, token: str | None) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{code}/log", headers=bearer(token) if token else {})
    assert response.status_code == 200
    return response.get_json()["entries"]


# --- what an HTML page may contain under the CSP ------------------------------------------

def script_hash(text: str) -> str:
    """How a policy names the inline script ``text``: its SHA-256, in base64."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


class InlineFinder(HTMLParser):
    """Every inline script, event handler, style attribute and style element of a page; an
    import map only where ``policy`` names it by its hash."""

    def __init__(self, policy: str) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._policy = policy
        self._in_script = False
        self._import_map: str | None = None  # the text of the import map being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): value for name, value in attrs}
        if tag == "script":
            if names.get("type") == "importmap" and not names.get("src"):
                self._import_map = ""
            elif not names.get("src"):
                self.problems.append("inline <script>")
            self._in_script = bool(names.get("src"))
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in names.items():
            if name.startswith("on"):
                self.problems.append(f"event attribute {name}= on <{tag}>")
            if name == "style":
                self.problems.append(f"style= on <{tag}>")
            if name.startswith(("hx-on", "data-hx-on")):
                self.problems.append(f"{name}= (inline script through htmx) on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name}= on <{tag}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "script":
            self._in_script = False

    def handle_endtag(self, tag: str) -> None:
        if tag != "script":
            return
        self._in_script = False
        if self._import_map is not None and f" {script_hash(self._import_map)}" not in self._policy:
            self.problems.append("an import map the policy does not name")
        self._import_map = None

    def handle_data(self, data: str) -> None:
        if self._import_map is not None:
            self._import_map += data
        elif self._in_script and data.strip():
            self.problems.append("a <script src> with a body")


def inline_problems(page: str, policy: str = "") -> list[str]:
    """What ``page`` carries inline that its ``policy`` (its Content-Security-Policy) does
    not allow."""
    finder = InlineFinder(policy)
    finder.feed(page)
    finder.close()
    return finder.problems
