"""Heuchel & Meuchel through the JSON API: a seeded game to the end, refusals, undo, secrets."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from companion.games.heuchel_meuchel.data import CARD_COUNT
from support.json_walk import objects_in
from support.strategies.heuchel_meuchel import choose, seat_with_work
from tests.conftest import ApiTable, bearer

GAME = "heuchel-meuchel"
#: With three players, this seed and support/strategies/heuchel_meuchel.py play a game with
#: favours followed by a second turn and an arrogance discard.
SEED = 7


def card_ids(value: Any) -> set[int]:
    """Every card id a JSON value holds (cards are the dicts with an id and a rank)."""
    return {card["id"] for card in objects_in(value) if "id" in card and "rank" in card}


def public_cards(view: dict[str, Any]) -> set[int]:
    """The face-up top cards, and the card that moved last (everyone saw it move, even if
    it then went home face down)."""
    tops = {square["top"]["id"] for column in view["board"] for square in column
            if square and "top" in square}
    last = view["last"]
    return tops | ({last["top"]["id"]} if last and last["top"] else set())


def own_cards(view: dict[str, Any]) -> set[int]:
    return (card_ids(view["mine"]) | card_ids(view["hand"]) | card_ids(view["discards"]))


def test_a_seeded_game_with_favours_and_arrogance_plays_to_its_end(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    seconds = arrogance = played = 0
    while table.view()["outcome"] is None:
        found = seat_with_work(table)
        assert found is not None, "nobody has anything to do and the game is not over"
        seat, moves = found
        move = choose(table.view(seat)["view"], moves)
        response = table.post_move(seat, move)
        assert response.status_code == 200, response.get_json()
        played += 1
        view = response.get_json()["view"]
        seconds += move["type"] == "again"
        if move["type"] == "take":
            arrogance += view["last"]["takes"][-1]["discarded"] > 0
        # secrets: a seat sees its own cards and the public tops, nothing else
        public = table.view()["view"]
        assert card_ids(public) <= public_cards(public)
        for other in range(3):
            seen = table.view(other)["view"]
            assert card_ids(seen) <= own_cards(seen) | public_cards(public)
        assert played < 300
    assert seconds >= 1 and arrogance >= 1
    final = table.view()
    assert final["status"] == "over"
    scores = final["view"]["scores"]
    for seat, total in final["outcome"]["scores"].items():
        parts = scores[seat]
        assert total == parts["total"] == parts["home"] - parts["short"] - parts["discarded"]
    assert final["outcome"]["reason"] == "last-player"
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert [entry["seq"] for entry in entries] == list(range(1, played + 1))


def test_another_seats_set_up_shows_only_the_start_square_in_the_log(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    assert table.post_move(0, {"type": "column", "column": 2}).status_code == 200
    card = table.view(0)["view"]["hand"][0]
    assert table.post_move(0, {"type": "place", "card": card["id"]}).status_code == 200
    mine = client.get(f"/api/tables/{table.code}/log", headers=bearer(table.tokens[0]))
    theirs = client.get(f"/api/tables/{table.code}/log", headers=bearer(table.tokens[1]))
    screen = client.get(f"/api/tables/{table.code}/log")
    assert mine.get_json()["entries"][-1]["move"] == {"type": "place", "card": card["id"]}
    for response in (theirs, screen):
        assert response.get_json()["entries"][-1]["move"] == {"type": "place",
                                                             "rank": card["rank"]}
    # nor does the table view, or another seat's, hold the card while players set up
    assert card["id"] not in card_ids(table.view(1)["view"]) | card_ids(table.view()["view"])


def test_a_refused_move_names_its_rule_and_changes_nothing(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    while table.view()["view"]["phase"] == "setup":
        seat, moves = seat_with_work(table)
        assert table.post_move(seat, choose(table.view(seat)["view"], moves)).status_code == 200
    mover = table.view()["view"]["turn"]
    legal = table.moves(mover)
    row = legal[0]["row"]
    landings = sorted({m["to"] for m in legal if m["row"] == row})
    wrong = next(to for to in range(row + 1, 14) if to not in landings)
    before = table.view()
    response = table.post_move(mover, {"type": "move", "row": row, "count": 1, "to": wrong})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["rule"] in {"hm.move.upward", "hm.move.keep-jumping", "hm.move.goal-limit",
                             "hm.move.exposes"}
    assert error["message"] and "{" not in error["message"]
    assert table.view() == before
    # out of turn: refused by the platform
    other = (mover + 1) % 3
    response = table.post_move(other, legal[0])
    assert response.status_code == 403
    assert table.view() == before


def test_the_mover_takes_back_a_whole_stack_move_but_not_a_take(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    undone = refused = False
    for _ in range(300):
        found = seat_with_work(table)
        if found is None or (undone and refused):
            break
        seat, moves = found
        move = choose(table.view(seat)["view"], moves)
        whole = move["type"] == "move" and move["count"] == len(next(
            s for s in table.view(seat)["view"]["mine"] if s["row"] == move["row"])["cards"])
        assert table.post_move(seat, move).status_code == 200
        undo = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[seat]))
        if whole and not undone:
            assert undo.status_code == 200
            undone = True
            assert table.post_move(seat, move).status_code == 200  # and play it again
        elif move["type"] == "take" and not refused:
            assert undo.status_code == 422
            assert undo.get_json()["error"]["rule"] == "table.undo-revealed"
            refused = True
        elif undo.status_code == 200:
            assert table.post_move(seat, move).status_code == 200
    assert undone and refused


def test_table_deals_refuse_a_card_entered_twice_without_saying_who(client):
    table = ApiTable(client, game=GAME, players=3, seed=1, options={"deal": "table"})
    table.join_all()
    table.start()
    for seat in range(3):
        assert table.post_move(seat, {"type": "column", "column": seat + 1}).status_code == 200
    moves = table.moves(1)
    assert len([m for m in moves if m["type"] == "place"]) == CARD_COUNT
    assert table.post_move(0, {"type": "place", "card": 20}).status_code == 200
    before = table.view()
    response = table.post_move(1, {"type": "place", "card": 20})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["rule"] == "hm.setup.claimed"
    assert "Ana" not in error["message"]
    assert table.view() == before
    # the one who typed it wrongly takes it back; then it can be entered
    assert table.post_move(0, {"type": "lift", "card": 20}).status_code == 200
    assert table.post_move(1, {"type": "place", "card": 20}).status_code == 200


def test_the_real_die_is_entered_and_checked(client):
    table = ApiTable(client, game=GAME, players=3, seed=SEED, options={"die": "real"})
    table.join_all()
    table.start()
    while table.view()["view"]["phase"] == "setup":
        seat, moves = seat_with_work(table)
        assert table.post_move(seat, choose(table.view(seat)["view"], moves)).status_code == 200
    mover = table.view()["view"]["turn"]
    assert table.moves(mover) == [{"type": "roll", "value": v} for v in range(1, 7)]
    response = table.post_move(mover, {"type": "roll", "value": 7})
    assert response.get_json()["error"]["rule"] == "hm.die.value"
    response = table.post_move(mover, {"type": "roll", "value": 2})
    assert response.status_code == 200
    assert response.get_json()["view"]["roll"] == 2
    assert all(move["to"] - move["row"] == 2 for move in table.moves(mover)
               if move["type"] == "move")


def test_options_from_the_home_form_reach_the_rules_page(client):
    response = client.post("/tables", data={"game": GAME, "players": "4", "opt_deal": "table",
                                            "opt_die": "real"})
    assert response.status_code == 303
    code = re.search(r"/t/([A-Z]{4})/screen", response.headers["Location"]).group(1)
    page = client.get(f"/rules/{GAME}?table={code}").get_data(as_text=True)
    assert "The table deals" in page and "Players roll a real die" in page
    assert "hm.favour.hidden" in page and "Our reading:" in page
    french = client.get(f"/rules/{GAME}", headers={"Accept-Language": "fr"})
    assert "La table distribue" not in french.get_data(as_text=True)  # defaults shown
    assert "Le compagnon distribue" in french.get_data(as_text=True)


def test_random_play_through_the_api_never_errs(client):
    """Any legal move, in any mode, answers 200; the table view never holds a hidden card."""
    for options in ({"die": "app"}, {"deal": "table", "step_ends_move": True}):
        table = ApiTable.started(client, game=GAME, players=4, seed=3, options=options)
        rng = random.Random(json.dumps(options))
        physical = list(range(CARD_COUNT))
        rng.shuffle(physical)
        for _ in range(400):
            if table.view()["outcome"] is not None:
                break
            found = seat_with_work(table)
            assert found is not None
            seat, moves = found
            moves = [m for m in moves if m["type"] != "lift" and (
                m["type"] != "place" or options.get("deal") != "table"
                or m["card"] in physical[6 * seat:6 * seat + 6])]
            response = table.post_move(seat, rng.choice(moves))
            assert response.status_code == 200, response.get_json()
            public = table.view()["view"]
            assert card_ids(public) <= public_cards(public)
        assert table.view()["outcome"] is not None


def test_every_effect_shows_in_the_log_with_its_why_line(client):
    """A game to the end: every effect the rules caused is in the API log with its clause,
    and each shows on a seat's phone and on the table screen as a why line linking to the
    rule; the screen's log names no hidden card."""
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    while table.view()["outcome"] is None:
        seat, moves = seat_with_work(table)
        assert table.post_move(seat, choose(table.view(seat)["view"], moves)).status_code == 200
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    rules = [effect["rule"] for entry in entries for effect in entry["effects"]]
    assert {"hm.setup.begin", "hm.goal.reached", "hm.favour.same-row", "hm.arrogance",
            "hm.end.last-player", "hm.move.upward"} <= set(rules)
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    phone = client.get(f"/t/{table.code}/play").get_data(as_text=True)
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    for page in (phone, screen):
        # the rule by the name players give it, in the page's language, opening on its own
        assert 'href="/rules/heuchel-meuchel/hm.end.last-player">Why: The end of the game' \
            in page
        assert "FIN DE LA PARTIE" not in page
    hidden = card_ids(table.view()["view"]) ^ set(range(CARD_COUNT))
    names = {card: re.escape(f'data-card="{card}"') for card in hidden}
    log = screen[screen.index('id="log"'):]
    assert not [card for card, pattern in names.items() if re.search(pattern, log)]


def test_a_long_rank_name_is_drawn_whole_in_french(client):
    """« Cracheur de feu » is not cut to « Cracheu. » on the board: the whole name, narrowed
    to the card."""
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    client.get("/lang/fr")
    for _ in range(120):
        page = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
        if 'class="rk long"' in page:
            break
        found = seat_with_work(table)
        assert found is not None
        seat, moves = found
        table.post_move(seat, choose(table.view(seat)["view"], moves))
    else:
        raise AssertionError("no long rank name came on top in 120 moves")
    assert "Cracheur de feu" in page and "Cracheu." not in page
    assert 'textLength="42" lengthAdjust="spacingAndGlyphs">Cracheur de feu</text>' in page


def test_a_start_stack_being_built_names_its_top_card(client):
    """Set-up: the phone's start stacks show their top card first, marked, the one that
    'Take back the top card' takes."""
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    for _ in range(4):  # the column, then three cards
        moves = table.moves(0)
        assert table.post_move(0, choose(table.view(0)["view"], moves)).status_code == 200
    mine = table.view(0)["view"]["mine"]
    assert mine
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[0])
    page = phone.get(f"/t/{table.code}/play").get_data(as_text=True)
    tops = re.findall(r'<span class="on-top">top <span class="hm-card[^"]*" data-card="(\d+)"',
                      page)
    assert sorted(map(int, tops)) == sorted(stack["cards"][-1]["id"] for stack in mine)
