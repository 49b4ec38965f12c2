"""Regions drawn again only when what they read has changed (``companion.web.memo``): over
seeded games of every kind, what the pushes reuse is exactly what a fresh rendering draws,
for every phone and the screens, in two languages; and a phone waiting for its turn is not
redrawn when another seat moves."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from html.parser import HTMLParser

import pytest
from flask import render_template_string
from flask_babel import force_locale
from jinja2 import ChoiceLoader, DictLoader
from markupsafe import escape

from companion.live import Connection
from companion.web.memo import Call, Inputs, RegionMemo, Watched, reading
from companion.web.regions import regions
from companion.web.services import services
from support.pushing import render_for
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable, make_app

BY_GAME = {spec.id: spec for spec in GAMES_UNDER_TEST}


def fresh(app, live, conn: Connection) -> dict[str, str]:
    """``conn``'s regions drawn from scratch, as the pushes draw them."""
    with app.test_request_context(base_url="http://companion/"), force_locale(conn.lang):
        return {part.id: part.html for part in regions(live, conn.seat, conn.is_host)}


@pytest.mark.parametrize("game", GAME_IDS)
def test_what_the_pushes_reuse_is_what_a_fresh_rendering_draws(app, game):
    players = min(BY_GAME[game].engine.max_players, 4)
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=11)
    live = services(app).tables.get(table.code)
    hub, memo = services(app).hub, services(app).caches.memo
    viewers = [Connection(None, table.code, seat, "en") for seat in range(players)]
    viewers += [Connection(None, table.code, 1, "fr"), Connection(None, table.code, None, "en"),
                Connection(None, table.code, None, "fr", is_host=True)]
    rng = random.Random(11)
    reused = memo.reused
    for _ in range(40):
        for conn in viewers:
            with app.app_context():
                pushed = {part.id: part.html for part in render_for(live, conn)}
            assert pushed == fresh(app, live, conn), (conn.seat, conn.lang)
        found = table.seat_to_move()
        if found is None:
            break
        table.post_move(found[0], rng.choice(found[1]))
        hub.table_changed(live)
    assert memo.reused > reused  # and so the comparison above checked reused regions


def test_a_phone_waiting_for_its_turn_is_not_redrawn_when_another_seat_moves(app):
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=4, seed=7)
    live = services(app).tables.get(table.code)
    waiting = Connection(None, table.code, 2, "en")

    def own_regions() -> dict[str, object]:
        with app.app_context():
            return {part.id: part for part in render_for(live, waiting)
                    if part.id in ("private", "picker", "undo", "outcome")}

    before = own_regions()
    seat, moves = table.seat_to_move()
    assert seat == 0
    table.post_move(0, moves[0])
    after = own_regions()
    assert all(after[region] is before[region] for region in before)


def test_what_the_movers_answer_draws_the_pushes_to_the_others_reuse(app):
    """A tap's answer draws the mover's whole page: the log every phone shares and the
    board every viewer shares are drawn there once, and the pushes that follow do not draw
    them again; the table screen's log, whose lines open each move by the screen's own
    numbers, is drawn once for every screen."""
    client = app.test_client()
    table = ApiTable.started(client, game="seventh-heaven", players=4, seed=7)
    live = services(app).tables.get(table.code)
    memo = services(app).caches.memo
    others = [Connection(None, table.code, seat, "en") for seat in (1, 2, 3)]
    others.append(Connection(None, table.code, None, "en"))
    seat, moves = table.seat_to_move()
    client.set_cookie(f"seat_{table.code}", table.tokens[seat])
    answer = client.post(f"/t/{table.code}/move", data={
        "move": json.dumps(moves[0]), "seq": 0, "client_move_id": "tap-1"})
    assert answer.status_code == 200 and live.match.seq == 1
    drawn = Counter(memo.drawings)
    for conn in others:
        with app.app_context():
            render_for(live, conn)
    by_pushes = Counter(memo.drawings) - drawn
    assert drawn["log"] and drawn["games/seventh-heaven/board.html"]
    assert by_pushes["games/seventh-heaven/board.html"] == 0
    assert by_pushes["log"] == 1  # the screen's


def test_a_region_whose_fragment_changed_is_put_together_again_not_drawn_again(app):
    """A phone's own region holds the map every phone shares: a move that changes only
    the map draws the map once, and each phone's own things are not drawn again."""
    app.jinja_env.loader = ChoiceLoader([DictLoader({
        "t/own.html": '<div id="own">{{ said(name) }}{{ fragment("t/shared.html") }}</div>',
        "t/shared.html": "<p>{{ view.height }}</p>",
    }), app.jinja_env.loader])
    drawn: list[str] = []
    said = Call(lambda name: drawn.append(name) or name)
    memo = RegionMemo()

    def own(name: str, height: int) -> str:
        inputs = Inputs({"name": name, "said": said, "view": {"height": height}})
        with app.test_request_context():
            return memo.draw("T", "en", "own", "t/own.html", inputs).html

    assert own("Ann", 1) == '<div id="own">Ann<p>1</p></div>'
    assert own("Ann", 2) == '<div id="own">Ann<p>2</p></div>'
    assert own("Bob", 2) == '<div id="own">Bob<p>2</p></div>'
    assert own("Ann", 2) == '<div id="own">Ann<p>2</p></div>'
    assert drawn == ["Ann", "Bob"]  # the map changed; Ann's own things were drawn once


#: A name holding the private-use marks a region's drawing once kept where each fragment
#: went (U+E000, the fragment's number, U+E001), and one holding today's mark as typed.
MARKS = "Ana \ue0000\ue001\ue0001\ue001"


@pytest.mark.parametrize("name", [MARKS, "<!--fragment 0-->"])
def test_a_name_that_looks_like_a_splice_mark_stays_where_it_was_drawn(app, name):
    app.jinja_env.loader = ChoiceLoader([DictLoader({
        "t/own.html": '<div id="own"><b title="{{ name }}">{{ name }}</b>'
                      '{{ fragment("t/shared.html") }}{{ fragment("t/more.html") }}</div>',
        "t/shared.html": "<p>{{ name }}</p>",
        "t/more.html": "<i>{{ view.height }}</i>",
    }), app.jinja_env.loader])
    with app.test_request_context():
        html = RegionMemo().draw("T", "en", "own", "t/own.html",
                                 Inputs({"name": name, "view": {"height": 3}})).html
    shown = str(escape(name))
    assert html == f'<div id="own"><b title="{shown}">{shown}</b><p>{shown}</p><i>3</i></div>'


class BoardReader(HTMLParser):
    """What a page says of its boards: each element's ``aria-label`` by its class, the
    names over Heuchel & Meuchel's columns, and any attribute that holds markup."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.labels: dict[str, str] = {}
        self.owners: list[str] = []
        self.markup_in_attributes: list[str] = []
        self._owner = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.markup_in_attributes += [value for value in found.values() if "<" in (value or "")]
        if found.get("aria-label"):
            self.labels.setdefault(found.get("class") or "", found["aria-label"] or "")
        self._owner = tag == "text" and found.get("class") == "owner"

    def handle_endtag(self, tag: str) -> None:
        self._owner = False

    def handle_data(self, data: str) -> None:
        if self._owner:
            self.owners.append(data)


def assert_board_shows(page: str, game: str, name: str) -> None:
    """``page``'s board and panel are whole, and the board names ``name`` where it should."""
    board = BoardReader(page)
    assert board.markup_in_attributes == []
    # Every private-use mark of the page is inside a whole copy of the name.
    assert "\ue000" not in page.replace(name, "") and "\ue001" not in page.replace(name, "")
    if game == "skyrunner":
        assert board.labels["sr-wall"].startswith(f"The building: {name}’s climber, red (R)")
        assert page.count('id="sr-offer"') == 1
    else:
        assert board.owners == [name]


@pytest.mark.parametrize("game", ["skyrunner", "heuchel-meuchel"])
@pytest.mark.parametrize("arrives", ["joining", "stored before names were cleaned"])
def test_a_name_holding_splice_marks_draws_a_whole_board(app, game, arrives):
    """A guest named with the marks a region's drawing once kept where its fragments went
    broke the board of the screen and every phone: the offer panel spliced into the board's
    ``aria-label``. The name is cleaned at the door, and a name stored before that (in a
    table a restart reads back) is drawn as it is, the marks no longer made of such."""
    joining = arrives == "joining"
    table = ApiTable(app.test_client(), game=game, players=3, seed=3).join_all(
        (MARKS if joining else "Ana", "Ben", "Chloé"))
    table.start()
    rng = random.Random(1)
    while game == "heuchel-meuchel" and table.view()["view"]["columns"].get("0") is None:
        table.play_at_random(1, rng)  # until the first player's name is over a column
    if not joining:
        with sqlite3.connect(app.config["DATABASE"]) as db:
            db.execute("UPDATE seats SET name = ? WHERE code = ? AND seat = 0",
                       (MARKS, table.code))
        app = make_app(dict(app.config))  # the server started again on that database
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[1])
    for page in (app.test_client().get(f"/t/{table.code}/screen"),
                 phone.get(f"/t/{table.code}/play")):
        assert page.status_code == 200
        assert_board_shows(page.get_data(as_text=True), game, "Ana 01" if joining else MARKS)


def test_a_region_that_reads_the_request_is_drawn_again_for_each_request(app):
    """A page's address may ask for something the context does not hold (the build step
    on the table screen): such a drawing is never reused, for that page or another."""
    app.jinja_env.loader = ChoiceLoader([DictLoader({
        "t/step.html": "<p id='step'>{{ request.args.get('step', 1) }} of {{ total }}</p>",
    }), app.jinja_env.loader])
    memo = RegionMemo()

    def step(query: str) -> str:
        with app.test_request_context(f"/screen{query}"):
            return memo.draw("T", "en", "step", "t/step.html", Inputs({"total": 35})).html

    assert step("?step=2") == "<p id='step'>2 of 35</p>"
    assert step("") == "<p id='step'>1 of 35</p>"
    assert step("?step=3") == "<p id='step'>3 of 35</p>"


def test_a_region_reads_the_names_it_looks_up_and_the_view_down_to_the_values(app):
    view = {"turn": 1, "partners": {"0": ["red"], "1": ["blue"]}, "hand": [3, 4]}
    inputs = Inputs({"view": view, "me": 1, "seq": 9})
    with app.test_request_context(), reading() as reads:
        html = render_template_string(
            "{{ view.partners[me|string]|join }} {{ view.hand|length }}", **inputs.context)
    assert html == "blue 2"
    # Not seat 0's partners, the turn or the seq: none of them changes this region.
    assert {read for read in reads if read[0] in inputs.raw} == {
        ("me",), ("view", "partners", "1"), ("view", "hand")}


def test_going_through_a_mapping_serialising_it_or_asking_if_it_is_empty_is_a_read(app):
    watched = Watched(("view",), {"a": 1, "b": {"c": 2}, "d": {}})
    with reading() as whole:
        assert dict(watched)["a"] == 1
    with app.test_request_context(), reading() as serialised:
        assert render_template_string("{{ view.b|tojson }}", view=watched) == '{"c": 2}'
    with reading() as asked:
        assert bool(watched["b"]) and not watched["d"] and "z" not in watched
    assert ("view",) in whole
    assert ("view", "b") in serialised
    assert asked == {("view", "b", "#truth"), ("view", "d", "#truth"), ("view", "z")}


def test_asking_whether_there_are_moves_reads_only_that_and_going_through_them_reads_all(app):
    moves = [{"type": "walk", "to": "1,2"}, {"type": "walk", "to": "2,2"}]
    inputs = Inputs({"moves": moves})
    with app.test_request_context(), reading() as asked:
        assert render_template_string("{% if moves %}yes{% endif %}",
                                      **inputs.context) == "yes"
    with app.test_request_context(), reading() as listed:
        assert render_template_string("{{ moves|map(attribute='to')|join(' ') }}",
                                      **inputs.context) == "1,2 2,2"
    with app.test_request_context(), reading() as serialised:
        assert '"to": "2,2"' in render_template_string("{{ moves|tojson }}", **inputs.context)
    assert asked == {("moves", "#truth")}
    assert ("moves",) in listed and ("moves",) in serialised
    # Another seat's turn with other moves still has moves: the first region stays as it was.
    other = Inputs({"moves": [{"type": "walk", "to": "3,3"}]})
    assert other.digest(("moves", "#truth")) == inputs.digest(("moves", "#truth"))
    assert other.digest(("moves",)) != inputs.digest(("moves",))
    assert Inputs({"moves": []}).digest(("moves", "#truth")) != inputs.digest(("moves", "#truth"))


def test_a_function_that_names_its_inputs_is_compared_by_them_and_a_bare_one_never_is():
    same = Inputs({"f": Call(len, "x")}), Inputs({"f": Call(str, "x")})
    assert same[0].digest(("f",)) == same[1].digest(("f",))
    assert Inputs({"f": Call(len, "y")}).digest(("f",)) != same[0].digest(("f",))
    assert Inputs({"f": len}).digest(("f",)) is None


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_page_shows_the_last_lines_of_the_log_each_viewer_may_see(app, game):
    """``log_tail`` walks back only as far as a page shows, and gives what the whole
    redacted log ends with, undone moves and undos included."""
    players = min(BY_GAME[game].engine.max_players, 3)
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=13)
    live = services(app).tables.get(table.code)
    table.play_at_random(30, random.Random(13))
    # A move taken back by the host shows as undone, then as an undo.
    table.play_at_random(1, random.Random(13))
    undone = table.host_undo()
    assert undone.status_code == 200, undone.get_json()
    for viewer in (None, *range(players)):
        whole = live.match.log_for(viewer)
        for count in (1, 5, 12, len(whole) + 3):
            assert live.match.log_tail(viewer, count) == list(reversed(whole))[:count]
