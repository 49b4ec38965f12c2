"""Words that fit the game and the moment: a refusal for the wrong turn names whom the game
waits for, in both languages, on the phone and in the API; The Climbers' table screen
follows each step of a turn, and its phones offer only the steps that can be taken; a
freed seat's cards are spoken of only in a game with cards."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import render_template

from support.reading import shown_text
from support.strategies.climbers import choose
from tests.conftest import ApiTable, bearer
from tests.web.climbers_building import finish_building
from tests.web.hostile_kit import Seated
from tests.web.test_climbers_api import LOWER_OR_LADDER, LOWER_OR_LADDER_SEED
from tests.web.test_seat_requests import ask


def flat(html: str) -> str:
    return " ".join(shown_text(html).split())


# --- the wrong turn ---------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "said"), [
    ("en", "It is not your turn: the game waits for Ana."),
    ("fr", "Ce n’est pas à vous : le jeu attend Ana."),
])
def test_the_api_refusal_for_the_wrong_turn_names_whose_turn_it_is(client, lang, said):
    table = ApiTable.started(client, game="seventh-heaven", players=3)
    response = client.post(f"/api/tables/{table.code}/moves", headers={
        **bearer(table.tokens[1]), "Accept-Language": lang}, json={
        "move": table.moves(0)[0], "seq": 0, "client_move_id": "early"})
    assert response.status_code == 403
    assert response.get_json()["error"] == {"rule": "table.not-your-turn", "message": said}


def test_the_phone_refused_out_of_turn_names_whose_turn_it_is(app):
    seated = Seated(app, "seventh-heaven", players=3)
    move = seated.table.match.moves_for(0)[0]
    form = {"move": json.dumps(move), "seq": str(seated.table.match.seq_for(1)),
            "client_move_id": "early"}
    response = seated.phones[1].post(f"/t/{seated.code}/move", data=form,
                                     headers={"HX-Request": "true"})
    assert response.status_code == 403
    assert "It is not your turn: the game waits for Ana." in flat(
        response.get_data(as_text=True))
    # a seat nobody holds is named as free
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "0"}).status_code == 303
    form["seq"] = str(seated.table.match.seq_for(1))
    response = seated.phones[1].post(f"/t/{seated.code}/move", data=form,
                                     headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert "Ce n’est pas à vous : le jeu attend Place 1 (libre)." in flat(
        response.get_data(as_text=True))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "It is not your turn: the game waits for Ana."),
    ("fr", "Ce n’est pas votre tour : le jeu attend Ana."),
])
def test_a_tap_out_of_turn_on_the_tower_names_whose_turn_it_is(app, lang, said):
    seated = Seated(app, "climbers", players=2)
    finish_building(seated.api)
    block = seated.table.match.view_for(1)["movable"][0]
    response = seated.phones[1].get(f"/t/{seated.code}/explain", headers={
        "Accept-Language": lang}, query_string={"pick": json.dumps({"block": block})})
    page = response.get_data(as_text=True)
    assert 'data-rule="cl.turn.wait"' in page and said in flat(page)


def test_the_rules_page_says_the_turn_rule_in_general(client):
    page = flat(client.get("/rules/climbers").get_data(as_text=True))
    assert "It is not your turn." in page and "waits for" not in page


# --- The Climbers: each step of a turn --------------------------------------------------------

def turn_line(app, view: dict[str, Any], names: list[str]) -> str:
    seats = [{"name": name} for name in names]
    with app.test_request_context(headers={"Accept-Language": "en"}):
        return flat(render_template("games/climbers/turn.html", view=view, seats=seats,
                                    game_id="climbers"))


def headline(app, view: dict[str, Any]) -> str:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        return flat(render_template("games/climbers/your_turn.html", view=view,
                                    game_id="climbers"))


#: What each line offers, as the words say it, and the move that is that step.
PHONE_STEPS = {"walk": re.compile(r"move your figure", re.I),
               "block": re.compile(r"\ba block\b", re.I),
               "pass": re.compile(r"\bpass\b", re.I),
               "end": re.compile(r"\bend your turn\b", re.I),
               "stone": re.compile(r"\blay it\b|\blaying your\b", re.I)}
SCREEN_STEPS = {"walk": re.compile(r"\bwalk if you like\b|\bthen walk\b", re.I),
                "block": re.compile(r"\bmove one block\b", re.I),
                "end": re.compile(r"\bend the turn\b", re.I),
                "stone": re.compile(r"\blay the blocking stone\b", re.I)}


def offered(words: str, steps: dict[str, re.Pattern[str]]) -> set[str]:
    return {kind for kind, said in steps.items() if said.search(words)}


def test_the_screen_says_a_block_is_next_once_the_figure_has_walked(app):
    table = ApiTable(app.test_client(), game="climbers", players=2,
                     seed=LOWER_OR_LADDER_SEED).join_all()
    table.start(first_seat=0)
    finish_building(table)
    for seat, move in LOWER_OR_LADDER[:4]:  # the last: the second player's first walk
        assert table.post_move(seat, move).status_code == 200
    view = table.view()["view"]
    assert view["turn"] == 1 and view["step"] == "before" and view["walked"]
    line = turn_line(app, view, ["Ana", "Ben"])
    assert "Ben is climbing" in line
    assert "Walk" not in line and "Move one block, or leave the blocks as they are." in line


#: With two players and the moves of ``choose``, this seed soon brings a turn where the
#: figure has no walk left after the block move.
NO_WALK_AFTER_SEED = 17


def steps_said(app, table: ApiTable) -> tuple[str, bool, bool]:
    """The phone's headline and the screen's turn line of the turn under way offer only
    steps among the moves of the seat whose turn it is; the moment: (the step, whether the
    figure can walk, whether the turn can end)."""
    public = table.view()["view"]
    seat = public["turn"]
    kinds = {move["type"] for move in table.moves(seat)}
    view = table.view(seat)["view"]
    if not view.get("stuck") and not view["last_chance"]:
        said = headline(app, view)
        assert offered(said, PHONE_STEPS) <= kinds, (said, kinds)
        line = turn_line(app, public, ["Ana", "Ben"])
        assert offered(line, SCREEN_STEPS) <= kinds, (line, kinds)
    return view["step"], "walk" in kinds, "end" in kinds


def test_a_phone_and_the_screen_offer_only_the_steps_that_can_be_taken(app):
    """Through a seeded game, and a turn whose figure went lower before the block move, at
    each moment of a turn: each step the phone's headline or the screen's turn line offers
    is among the moves of the seat whose turn it is."""
    table = ApiTable(app.test_client(), game="climbers", players=2,
                     seed=NO_WALK_AFTER_SEED).join_all()
    table.start(first_seat=0)
    finish_building(table)
    seen = set()
    for _ in range(20):
        if table.view()["view"]["phase"] != "play":
            break
        seen.add(steps_said(app, table))
        seat = table.view()["view"]["turn"]
        moves = table.moves(seat)
        move = choose(table.view(seat)["view"], seat, moves)
        assert table.post_move(seat, move).status_code == 200
    lower = ApiTable(app.test_client(), game="climbers", players=2,
                     seed=LOWER_OR_LADDER_SEED).join_all()
    lower.start(first_seat=0)
    finish_building(lower)
    for seat, move in LOWER_OR_LADDER[:-1]:
        assert lower.post_move(seat, move).status_code == 200
        seen.add(steps_said(app, lower))
    # the moments the words once got wrong were met: no walk left after the block move (or
    # none before it), and a walk that must end the turn
    assert {("after", False, True), ("before", False, False), ("after", True, False)} <= seen


# --- a freed seat's cards ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_freed_seat_of_the_climbers_holds_no_cards(app, lang):
    seated = Seated(app, "climbers", players=2)
    finish_building(seated.api)
    assert seated.host.post(f"/t/{seated.code}/free", data={"seat": "1"}).status_code == 303
    newcomer, _ = ask(seated, "Zoé")
    newcomer.set_cookie("lang", lang)
    seated.host.set_cookie("lang", lang)
    waiting = flat(newcomer.get(f"/t/{seated.code}/wait").get_data(as_text=True))
    screen = flat(seated.host.get(f"/t/{seated.code}/screen").get_data(as_text=True))
    assert "Zoé" in waiting and "Zoé" in screen
    cards = re.compile(r"\bcards?\b|\bcartes?\b|\bhand\b|\bmain\b", re.I)
    assert not cards.search(waiting), waiting
    request = re.search(r"Zoé (?:asks for|demande) [^.]*\.", screen)
    assert request and not cards.search(request.group(0)), screen
