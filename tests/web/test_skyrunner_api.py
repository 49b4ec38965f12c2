"""SkyRunner through the JSON API: a seeded game to the roof, secret choices, the real deck."""

from __future__ import annotations

import random

from companion.games.skyrunner.data import CARDS
from support.strategies.skyrunner import choose, seat_to_act
from tests.conftest import ApiTable, bearer

GAME = "skyrunner"
#: With three players, this seed and support/strategies/skyrunner.py play a game with tied
#: auctions, a Surprise taking climbing cards, a sabotage and a Fall dragging another climber
#: down.
SEED = 23


def test_a_seeded_game_reaches_the_roof_with_every_kind_of_card(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    seen: set[str] = set()
    for _ in range(600):
        if table.view()["outcome"] is not None:
            break
        seat, view, moves = seat_to_act(table)
        before = table.view()["view"]
        response = table.post_move(seat, choose(view, moves))
        assert response.status_code == 200, response.get_json()
        after = table.view()["view"]
        if after["round"] > before["round"]:  # a round ended: what did it do?
            done = after["previous"]
            if done["auction"]["cancelled"]:
                seen.add("tie")
            for event in done["events"]:
                if event["kind"] == "surprise":
                    seen.add("surprise")
                if event["kind"] == "sabotage" and event["falls"]:
                    seen.add("sabotage")
                if event["kind"] == "fall" and len(event["falls"]) > 1:
                    seen.add("knock-on")
    final = table.view()
    assert final["outcome"] is not None, "nobody reached the roof"
    winner = final["outcome"]["winners"][0]
    assert final["view"]["positions"][str(winner)]["level"] == final["view"]["roof"]
    assert seen == {"tie", "surprise", "sabotage", "knock-on"}


def test_nobody_learns_a_choice_before_the_reveal(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    hand = table.view(0)["view"]["hand"]
    card = next(c for c in hand if c["kind"] == "bid" and c["value"] == 5)
    assert table.post_move(0, {"type": "choose", "card": card["id"]}).status_code == 200
    assert table.view(0)["view"]["choice"]["id"] == card["id"]
    for viewer in (None, 1, 2):
        view = table.view(viewer)["view"]
        assert view["chosen"] == [0]
        assert view["played"] == {} and view.get("choice") is None
        headers = bearer(table.tokens[viewer]) if viewer is not None else {}
        log = client.get(f"/api/tables/{table.code}/log", headers=headers).get_json()
        assert log["entries"][-1]["move"] == {"type": "choose"}
    # a choice can change until the last player has chosen
    other = next(c for c in hand if c["kind"] == "bid" and c["value"] == 2)
    assert table.post_move(0, {"type": "choose", "card": other["id"]}).status_code == 200
    for seat in (1, 2):
        bid = next(c for c in table.view(seat)["view"]["hand"]
                   if c["kind"] == "bid" and c["value"] == 7)
        assert table.post_move(seat, {"type": "choose", "card": bid["id"]}).status_code == 200
    revealed = table.view()["view"]
    assert {seat: card["value"] for seat, card in revealed["played"].items()} == {
        "0": 2, "1": 7, "2": 7}
    assert revealed["auction"]["cancelled"] == [7]
    assert revealed["auction"]["winner"] == 0  # the 2 wins when both 7s cancel
    # the last choice revealed everything: it cannot be taken back
    undo = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[2]))
    assert undo.status_code == 422


def test_a_refused_choice_names_its_rule_and_changes_nothing(client):
    table = ApiTable.started(client, game=GAME, players=2, seed=4)
    hand = table.view(0)["view"]["hand"]
    equipment = next(c for c in hand if c["kind"] == "equipment")
    before = table.view()
    response = table.post_move(0, {"type": "choose", "card": equipment["id"]})
    assert response.status_code == 422
    assert response.get_json()["error"]["rule"] == "sr.equipment.with-climb"
    theirs = next(c for c in table.view(1)["view"]["hand"] if c["kind"] == "bid")
    response = table.post_move(0, {"type": "choose", "card": theirs["id"]})
    assert response.get_json()["error"]["rule"] == "sr.choose.not-in-hand"
    assert table.view() == before


def test_the_deck_holder_enters_the_card_of_a_real_deck(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=2, options={"deck": "real"},
                             first_seat=1)
    view = table.view()["view"]
    assert view["phase"] == "turn" and view["turn"] == 1 and view["offer"] is None
    moves = table.moves(1)
    kinds = {(CARDS[m["card"]]["kind"], CARDS[m["card"]]["value"]) for m in moves}
    assert ("fall", 3) in kinds and ("climb", 5) in kinds and len(moves) > len(kinds)
    # Every card still in the deck may be entered, and the phone shows one per kind.
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    page = client.get(f"/t/{table.code}/play").get_data(as_text=True)
    assert page.count("data-enter=") == len(kinds)
    assert table.moves(0) == []
    fall = next(m for m in moves if CARDS[m["card"]]["kind"] == "fall")
    assert table.post_move(1, fall).status_code == 200
    view = table.view()["view"]
    assert view["phase"] == "choose" and view["offer"]["kind"] == "fall"
    # a Fall is on offer: only bids may be played
    climb = next(c for c in table.view(0)["view"]["hand"] if c["kind"] == "climb")
    response = table.post_move(0, {"type": "choose", "card": climb["id"]})
    assert response.get_json()["error"]["rule"] == "sr.fall.bid-only"
    assert all(CARDS[m["card"]]["kind"] == "bid" for m in table.moves(0))


def test_options_reach_the_building(client):
    table = ApiTable(client, game=GAME, players=5, seed=1,
                     options={"middle_lanes": "4", "upper_lanes": "1", "levels": 10})
    assert table.join_all().start() == 0
    view = table.view()["view"]
    assert view["building"] == {"levels": 10, "lanes": [5, 4, 1]}
    assert view["roof"] == 28
    bad = client.post("/api/tables", json={"game": GAME, "players": 3,
                                           "options": {"upper_lanes": "7"}})
    assert bad.status_code == 422
    assert bad.get_json()["error"]["rule"] == "table.bad-option"


def test_what_the_cards_did_shows_in_the_log_with_a_why_line(client):
    table = ApiTable.started(client, game=GAME, players=3, seed=4)
    rng = random.Random(1)
    rules: set[str] = set()
    for _ in range(200):
        for seat in range(3):  # each seat chooses once a round, then the round resolves
            view, moves = table.view(seat)["view"], table.moves(seat)
            if moves and not (view["phase"] == "choose" and view.get("choice")):
                assert table.post_move(seat, rng.choice(moves)).status_code == 200
                break
        entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
        rules = {effect["rule"] for entry in entries for effect in entry.get("effects", [])}
        if "sr.climb.move" in rules:
            break
    assert "sr.climb.move" in rules and "sr.round.reveal" in rules
    client.set_cookie(f"seat_{table.code}", table.tokens[2])
    for page in (client.get(f"/t/{table.code}/play"), client.get(f"/t/{table.code}/screen")):
        log = page.get_data(as_text=True).split('id="log"', 1)[1]
        assert 'href="/rules/skyrunner/sr.climb.move">Why: Climbing</a>' in log
