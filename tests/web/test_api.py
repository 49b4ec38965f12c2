"""The JSON API of DESIGN.md, played through a whole seeded game."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable, bearer


def play_to_end(table: ApiTable, rng: random.Random, limit: int = 2000) -> int:
    for played in range(limit):
        if table.view()["outcome"] is not None:
            return played
        turn = table.seat_to_move()
        assert turn is not None, "the game is neither over nor waiting for anyone"
        seat, moves = turn
        response = table.post_move(seat, rng.choice(moves))
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the game did not end")


def test_a_seeded_game_plays_to_its_end(client):
    table = ApiTable(client, game="seventh-heaven", players=4, seed=11).join_all()
    assert table.start() == 0
    played = play_to_end(table, random.Random(3))
    final = table.view()
    assert played > 10
    assert final["outcome"]["winners"]
    assert final["status"] == "over"
    # the log holds every move, in order
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert [e["seq"] for e in entries] == list(range(1, played + 1))


def test_the_same_seed_deals_the_same_hands(client):
    hands = []
    for _ in range(2):
        table = ApiTable.started(client, game="seventh-heaven", players=3, seed=99)
        hands.append([table.view(seat)["view"]["hand"] for seat in range(3)])
    assert hands[0] == hands[1]


def test_an_illegal_move_is_refused_with_its_rule(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    hand = table.view(0)["view"]["hand"]
    backward = next((c for c in hand if c["kind"] == "number" and c["value"] < 0), None)
    card = backward or hand[0]
    move = {"type": "move", "card": card["id"], "piece": "red"}
    if move in table.moves(0):
        move = {"type": "move", "card": 999, "piece": "red"}
    before = table.view()
    response = table.post_move(0, move)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["rule"].startswith("7h.")
    assert error["message"]
    assert table.view() == before


def test_another_seats_token_is_forbidden(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    move = table.moves(0)[0]
    response = client.post(f"/api/tables/{table.code}/moves", headers=bearer(table.tokens[1]),
                           json={"move": move, "seq": 0, "client_move_id": "x1"})
    assert response.status_code == 403
    assert response.get_json()["error"]["rule"] == "table.not-your-turn"
    response = client.post(f"/api/tables/{table.code}/moves", headers=bearer("forged"),
                           json={"move": move, "seq": 0, "client_move_id": "x2"})
    assert response.status_code == 403
    assert response.get_json()["error"]["rule"] == "table.bad-token"
    assert table.seq() == 0


def test_a_stale_move_gets_the_fresh_view(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    assert table.post_move(0, table.moves(0)[0]).status_code == 200
    seat, moves = table.seat_to_move()
    response = table.post_move(seat, moves[0], seq=0)
    assert response.status_code == 409
    body = response.get_json()
    assert body["seq"] == 1
    assert body["error"]["rule"] == "table.stale"
    assert body["view"]["hand"] == table.view(seat)["view"]["hand"]


def test_a_repeated_client_move_id_applies_once(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    move = table.moves(0)[0]
    first = table.post_move(0, move, seq=0, client_move_id="tap-1")
    again = table.post_move(0, move, seq=0, client_move_id="tap-1")
    assert first.status_code == again.status_code == 200
    assert again.get_json()["repeated"] is True
    assert table.seq() == 1
    assert len(client.get(f"/api/tables/{table.code}/log").get_json()["entries"]) == 1


def test_undo_by_the_mover_and_by_the_host(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    before = table.view(0)["view"]
    move = next(m for m in table.moves(0) if m["type"] == "move")
    assert table.post_move(0, move).status_code == 200
    log = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert log[0]["undone"] is False  # read before it is taken back: it must not stay so
    # another seat can't take it back
    response = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[1]))
    assert response.status_code == 403
    response = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[0]))
    assert response.status_code == 200
    assert table.view(0)["view"] == before
    # the host may undo any move
    assert table.post_move(0, move, client_move_id="again").status_code == 200
    response = table.host_undo()
    assert response.status_code == 200
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert [e["kind"] for e in entries] == ["move", "undo", "move", "undo"]
    assert entries[3]["by_host"] is True
    assert entries[0]["undone"] and entries[2]["undone"]


def test_the_host_alone_starts(client):
    table = ApiTable(client, game="seventh-heaven", players=2).join_all()
    response = client.post(f"/api/tables/{table.code}/start", headers=bearer(table.tokens[0]))
    assert response.status_code == 403
    assert response.get_json()["error"]["rule"] == "table.host-only"


def test_a_seat_cannot_be_taken_twice(client):
    table = ApiTable(client, game="seventh-heaven", players=2)
    assert client.post(f"/api/tables/{table.code}/seats", json={"name": "A", "seat": 1}) \
        .status_code == 201
    response = client.post(f"/api/tables/{table.code}/seats", json={"name": "B", "seat": 1})
    assert response.status_code == 409
    assert response.get_json()["error"]["rule"] == "table.seat-taken"


def assert_lone_surrogate_refused(response) -> None:
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["rule"] == "table.bad-request" and "lone surrogate" in error["message"]


@pytest.mark.parametrize("body", [{"name": "\ud800", "seat": 0}, {"name": "Ana\udfff"},
                                  {"name": "Ana", "seat": 0, "\udc00": 1}])
def test_a_join_with_a_lone_surrogate_is_refused_and_seats_nobody(client, body):
    """JSON may write half of a surrogate pair ("\\ud800"), which no encoding writes: SQLite
    refused to store it in a 500."""
    table = ApiTable(client, game="seventh-heaven", players=2)
    assert_lone_surrogate_refused(client.post(f"/api/tables/{table.code}/seats",
                                              data=json.dumps(body),
                                              content_type="application/json"))
    joined = client.post(f"/api/tables/{table.code}/seats", json={"name": "Ana"})
    assert joined.get_json()["seat"] == 0  # the first seat is still free


def test_a_move_with_a_lone_surrogate_is_refused_and_changes_nothing(client):
    table = ApiTable.started(client, game="seventh-heaven", players=2)
    body = {"move": table.moves(0)[0], "seq": 0, "client_move_id": "m\ud800"}
    assert_lone_surrogate_refused(client.post(
        f"/api/tables/{table.code}/moves", data=json.dumps(body),
        content_type="application/json", headers=bearer(table.tokens[0])))
    assert table.seq() == 0
    assert client.get(f"/api/tables/{table.code}/log").get_json()["entries"] == []


def test_the_table_view_holds_no_hand(client):
    table = ApiTable.started(client, game="seventh-heaven", players=4)
    public = table.view()["view"]
    assert "hand" not in public
    mine = table.view(2)["view"]
    assert len(mine["hand"]) == 12


def test_play_again_keeps_the_seats_and_the_night_remembers(client):
    table = ApiTable.started(client, game="seventh-heaven", players=2, seed=5)
    play_to_end(table, random.Random(1))
    first = table.view()["outcome"]
    assert client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert table.start(first_seat=1) == 0
    again = table.view(1)
    assert again["status"] == "playing" and again["outcome"] is None
    assert len(again["view"]["hand"]) == 12
    # The new match's log is its own, though the last one's was read with the same seqs.
    assert client.get(f"/api/tables/{table.code}/log").get_json()["entries"] == []
    assert table.post_move(1, table.moves(1)[0]).status_code == 200
    (entry,) = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    assert (entry["seq"], entry["seat"]) == (1, 1)
    winner = first["names"][str(first["winners"][0])]
    assert winner not in client.get("/").get_data(as_text=True)  # not to just anyone
    client.set_cookie(f"host_{table.code}", table.host)
    assert winner in client.get("/").get_data(as_text=True)


def test_two_seats_may_use_the_same_client_move_id(client):
    table = ApiTable.started(client, game="seventh-heaven", players=2)
    assert table.post_move(0, table.moves(0)[0], client_move_id="same").status_code == 200
    seat, moves = table.seat_to_move()
    assert seat == 1
    response = table.post_move(1, moves[0], client_move_id="same")
    assert response.status_code == 200
    assert response.get_json()["repeated"] is False


def test_a_seq_that_is_not_a_number_is_a_400_in_the_api_and_on_the_phone(client):
    table = ApiTable.started(client, game="seventh-heaven", players=2)
    move = table.moves(0)[0]
    api = client.post(f"/api/tables/{table.code}/moves", headers=bearer(table.tokens[0]),
                      json={"move": move, "seq": "one", "client_move_id": "a"})
    assert api.status_code == 400
    assert api.get_json()["error"]["rule"] == "table.bad-seq"
    client.set_cookie(f"seat_{table.code}", table.tokens[0])
    phone = client.post(f"/t/{table.code}/move", data={"move": json.dumps(move), "seq": "one",
                                                        "client_move_id": "b"})
    assert phone.status_code == 400
    assert table.view(0)["seq"] == 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_through_the_api(client, game_id):
    """Each game under test, the throw-away one included: seeded random moves are taken, a
    move no rule allows is refused with one of the game's refusal clauses and changes
    nothing, and the table's view holds no hand."""
    spec = next(spec for spec in GAMES_UNDER_TEST if spec.id == game_id)
    players = min(max(3, spec.min_players), spec.max_players)
    table = ApiTable.started(client, game=game_id, players=players, seed=5)
    rng = random.Random(5)
    for _ in range(10):
        turn = table.seat_to_move()
        if turn is None:
            break
        seat, moves = turn
        before = table.view()
        refused = table.post_move(seat, {"type": "no-such-move"})
        assert refused.status_code == 422, refused.get_json()
        rule = refused.get_json()["error"]["rule"]
        assert spec.clauses[rule].get("refusal"), rule
        assert table.view() == before
        response = table.post_move(seat, rng.choice(moves))
        assert response.status_code == 200, response.get_json()
    assert response.get_json()["seq"] >= 5  # (a changed secret choice counts for its seat)
    assert "hand" not in table.view()["view"]
