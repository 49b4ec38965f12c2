"""The Climbers in the players' words: a block named on a phone or in the log can be found on
the real tower by its description, and nothing a player reads names a coordinate."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import has_app_context

from companion.games.climbers import Climbers
from companion.games.climbers.web import ClimbersHelpers
from companion.games.climbers.web.words import _neighbour, neighbour, touching
from companion.i18n import drawing_in
from companion.web.clauses import clause_text
from companion.web.games import BY_ID
from companion.web.services import services
from tests.conftest import ApiTable, make_app

G = Climbers()
COORDINATES = re.compile(r"-?\d+,-?\d+")


def looks(block: dict[str, Any]) -> tuple[str, str]:
    return block["kind"], block["top"]


def found_by_description(view: dict[str, Any], block: dict[str, Any]) -> list[str]:
    """The blocks a player would point at, given the words for ``block``: its kind and top
    colour, the level of its top, and what the block named beside it looks like."""
    blocks = [b for b in view["blocks"] if b.get("x") is not None]
    named = neighbour(view, block)
    return [b["id"] for b in blocks
            if looks(b) == looks(block) and b["z"] + b["h"] == block["z"] + block["h"]
            and (named is None or any(touching(b, n) and looks(n) == looks(named)
                                      for n in blocks))]


@pytest.mark.parametrize("seed", [1, 2, 11, 2024])
def test_every_block_of_a_tower_is_found_by_its_description(seed):
    view = G.view(G.setup(3, {}, seed), None)
    placed = [b for b in view["blocks"] if b.get("x") is not None]
    found = {b["id"]: found_by_description(view, b) for b in placed}
    assert all(b in found[b] for b in found)
    # Most blocks are told apart by the words alone; for a look-alike pair at one level,
    # the label printed small beside the words, as on the screen's picture, settles it.
    alone = sum(1 for matches in found.values() if len(matches) == 1)
    assert alone >= 0.75 * len(found), {b: m for b, m in found.items() if len(m) > 1}


def visible_text(page: str) -> str:
    """What a player reads: the text between tags, without the scripts' data."""
    body = page.split("<main", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_no_phone_page_or_log_names_a_coordinate(app):
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=5)
    rng = random.Random(5)
    phones = []
    for seat in range(3):
        phone = app.test_client()
        phone.set_cookie(f"seat_{table.code}", table.tokens[seat])
        phones.append(phone)
    for _ in range(16):
        found = table.seat_to_move()
        if found is None:
            break
        seat, moves = found
        move = rng.choice(moves)
        pages = [phone.get(f"/t/{table.code}/play").get_data(as_text=True) for phone in phones]
        # every question on the way to this move, and its confirmation
        chosen: dict[str, Any] = {}
        for key in ("type", "to", "ladders", "block", "top", "long", "x", "y"):
            if key in move:
                chosen[key] = move[key]
                pages.append(phones[seat].get(f"/t/{table.code}/pick", query_string={
                    "pick": json.dumps(chosen)}).get_data(as_text=True))
        for page in pages:
            assert not COORDINATES.search(visible_text(page)), COORDINATES.findall(
                visible_text(page))
        assert table.post_move(seat, move).status_code == 200


def test_where_a_player_sits_is_kept_and_turns_their_tower(app):
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=2)
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[1])
    first = phone.get(f"/t/{table.code}/play").get_data(as_text=True)
    assert 'data-sitting="ahead"' in first
    response = phone.post(f"/t/{table.code}/sitting", data={"screen": "left"},
                          headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'data-sitting="left"' in response.get_data(as_text=True)
    assert services(app).tables.get(table.code).sitting == {1: "left"}
    assert services(app).tables.store.sitting(table.code) == {1: "left"}
    assert phone.post(f"/t/{table.code}/sitting", data={"screen": "up"},
                      headers={"HX-Request": "true"}).status_code == 400
    other = app.test_client()
    other.set_cookie(f"seat_{table.code}", table.tokens[2])
    assert 'data-sitting="ahead"' in other.get(f"/t/{table.code}/play").get_data(
        as_text=True)  # each player's own


def test_the_colour_a_way_crosses_is_named_in_the_readers_words():
    """cl.figure.colour-way names the colour crossed in the reader's language: words read
    from the game's seeds alone, with no app or request about."""
    assert not has_app_context()
    climbers = BY_ID["climbers"]
    assert clause_text(climbers, "cl.figure.colour-way", "fr",
                       {"colour": "dark-blue"}).startswith("Le chemin passe par du bleu foncé")
    assert clause_text(climbers, "cl.figure.colour-way", "en",
                       {"colour": "yellow"}).startswith("The way there crosses yellow")
    assert clause_text(None, "table.too-fast", "fr") == (
        "Trop de requêtes d’un coup : attendez un instant et réessayez.")


def test_words_kept_for_a_tower_are_the_words_of_the_tower_as_it_stands(app):
    """A block's words are kept by the tower's blocks in place and shared by every view
    of it: through a whole game, each block's words are what working them out afresh
    gives, so a block moved (or one beside it) is never named as it stood before."""
    helpers = ClimbersHelpers()
    rng = random.Random(7)
    state = G.apply(G.setup(3, {}, 7), 0, {"type": "built"})
    checked = 0
    with app.test_request_context(), drawing_in("en"):
        words = helpers.words
        for _ in range(40):
            if G.outcome(state) is not None:
                break
            for view in (G.view(state, None), G.view(state, state["turn"])):
                placed = [b for b in view["blocks"] if b.get("x") is not None]
                for block in placed:
                    near = _neighbour(placed, block)
                    level = f"on level {block['z'] + block['h']}"
                    fresh = f"{words.looks(block)} " + \
                        (f"{level}, {words.beside(near)}" if near is not None else level)
                    assert words.block(view, block["id"]) == fresh
                    checked += 1
            seat = state["turn"]
            state = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
    assert checked > 1000


def test_the_block_under_a_figure_is_the_highest_at_its_square():
    """``standing_on`` reads the tower's squares: on every square it is the highest block
    that covers it, as the blocks themselves say; off the tower, none."""
    helpers = ClimbersHelpers()
    for seed in (1, 5, 11):
        view = G.view(G.apply(G.setup(3, {}, seed), 0, {"type": "built"}), None)
        placed = [b for b in view["blocks"] if b.get("x") is not None]
        for cell in view["cells"]:
            covering = [b for b in placed if b["x"] <= cell["x"] < b["x"] + b["w"]
                        and b["y"] <= cell["y"] < b["y"] + b["d"]]
            highest = max(covering, key=lambda b: b["z"] + b["h"])
            assert helpers.standing_on(view, f"{cell['x']},{cell['y']}") == highest
        assert helpers.standing_on(view, "99,99") is None
        assert helpers.standing_on(view, "table") is None


def test_the_words_said_of_a_tower_are_kept_by_the_app_that_said_them(tmp_path, app):
    """What is worked out for a tower's words is kept in the app's own caches, and a
    second app starts with none of it."""
    view = G.view(G.setup(3, {}, 1), None)
    words = ClimbersHelpers().words
    with app.app_context(), drawing_in("en"):
        kept = services(app).caches.worked_out
        assert len(kept) == 0
        said = words.block(view, view["blocks"][-1]["id"])
        assert len(kept) >= 2  # the tower, and what is said of it
    other = make_app({"DATABASE": str(tmp_path / "other.sqlite")})
    with other.app_context(), drawing_in("en"):
        assert len(services(other).caches.worked_out) == 0
        assert words.block(view, view["blocks"][-1]["id"]) == said
