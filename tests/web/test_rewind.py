"""The host brings a table back: the undo names the move it takes back and refuses when
another came meanwhile; a rewind from any line of the host's log takes back that move and
every one after it, says so to everyone in words, works whatever the table's state, and
the stored log replays to the same table after a restart."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.web.services import services
from tests.conftest import ApiTable, bearer, make_app
from tests.web.test_api import play_to_end

NAMES = ("Ana", "Ben", "Chloé")


def playing(client, game: str = "seventh-heaven", players: int = 3, seed: int = 7,
            moves: int = 0) -> ApiTable:
    table = ApiTable.started(client, game=game, players=players, seed=seed)
    table.play_at_random(moves, random.Random(seed))
    return table


def host_page(client, table: ApiTable, path: str = "screen", lang: str = "en") -> str:
    client.set_cookie(f"host_{table.code}", table.host)
    response = client.get(f"/t/{table.code}/{path}", headers={"Accept-Language": lang})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def hidden(page: str, name: str) -> int:
    found = re.search(rf'name="{name}" value="(\d+)"', page)
    assert found is not None, f"no {name} in the form"
    return int(found.group(1))


def effective(client, table: ApiTable) -> list[int]:
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    return [entry["seq"] for entry in entries if entry["kind"] == "move" and not entry["undone"]]


def test_the_hosts_undo_names_the_move_and_refuses_once_the_table_moved_on(client):
    table = playing(client)
    table.post_move(0, table.moves(0)[0])
    page = host_page(client, table)
    undo = page.split('id="host-undo"')[1].split("</details>")[0]
    assert "<strong>Ana</strong>" in undo and "Yes, undo Ana’s move" in undo
    named = hidden(undo, "undo")
    assert named == 1

    table.post_move(1, table.moves(1)[0])  # Ben moves while the host reads
    refused = client.post(f"/t/{table.code}/host-undo", data={"undo": named})
    assert refused.status_code == 409
    assert "The table moved on" in refused.get_data(as_text=True)
    assert effective(client, table) == [1, 2]  # neither move was undone

    assert client.post(f"/t/{table.code}/host-undo",
                       data={"undo": hidden(host_page(client, table), "undo")}).status_code == 303
    assert effective(client, table) == [1]
    # Everyone's log says what was taken back, in words.
    phone = seated(client, table, 2).get(f"/t/{table.code}/play",
                                         headers={"Accept-Language": "fr"}).get_data(True)
    assert "L’hôte a repris :" in phone and "<strong>Ben</strong>" in phone


def test_the_api_host_undo_may_name_the_move_it_takes_back(client):
    table = playing(client, moves=2)
    stale = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.host),
                        json={"undo": 1})
    assert stale.status_code == 409 and stale.get_json()["error"]["rule"] == "table.moved-on"
    assert client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.host),
                       json={"undo": 2}).status_code == 200


def test_the_host_rewinds_from_a_line_of_the_log_after_confirming(client):
    table = playing(client, moves=6)
    screen = host_page(client, table)
    links = re.findall(r'href="(/t/\w+/rewind\?to=(\d+))"', screen)
    assert [int(seq) for _, seq in links] == [6, 5, 4, 3, 2, 1]  # on every line, newest first
    anyone = client.application.test_client().get(f"/t/{table.code}/screen")
    assert "/rewind" not in anyone.get_data(as_text=True)
    phone = seated(client, table, 0).get(f"/t/{table.code}/play")
    assert "/rewind" not in phone.get_data(as_text=True)

    confirm = host_page(client, table, "rewind?to=3")
    assert table.host not in screen + confirm  # the host is known by its cookie alone
    assert "Take back these 4 moves for everyone?" in confirm
    assert all(f'id="log-{seq}"' in confirm for seq in (3, 4, 5, 6))
    assert 'id="log-2"' not in confirm and "/rewind?to=" not in confirm
    form = {"to": hidden(confirm, "to"), "last": hidden(confirm, "last")}
    assert form == {"to": 3, "last": 6}

    # A move made while the host reads: nothing is taken back.
    table.play_at_random(1, random.Random(1))
    refused = client.post(f"/t/{table.code}/rewind", data=form)
    assert refused.status_code == 409 and effective(client, table) == [1, 2, 3, 4, 5, 6, 7]

    confirm = host_page(client, table, "rewind?to=3", lang="fr")
    assert "Reprendre ces 5 coups pour tout le monde ?" in confirm
    done = client.post(f"/t/{table.code}/rewind",
                       data={"to": hidden(confirm, "to"), "last": hidden(confirm, "last")})
    assert done.status_code == 303 and effective(client, table) == [1, 2]
    log = host_page(client, table).split('id="log"')[1]
    assert log.count("The host took back:") == 5
    assert table.post_move(*first_move(table)).status_code == 200  # the game goes on


def seated(client, table: ApiTable, seat: int):
    """A phone of its own (its own cookies) on ``seat``."""
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[seat])
    return phone


def first_move(table: ApiTable) -> tuple[int, dict]:
    found = table.seat_to_move()
    assert found is not None
    return found[0], found[1][0]


def test_only_the_host_rewinds(client):
    table = playing(client, moves=3)
    assert client.get(f"/t/{table.code}/rewind?to=1").status_code == 403
    assert client.post(f"/t/{table.code}/rewind", data={"to": 1, "last": 3}).status_code == 403
    api = client.post(f"/api/tables/{table.code}/rewind", headers=bearer(table.tokens[0]),
                      json={"to": 1, "last": 3})
    assert api.status_code == 403 and effective(client, table) == [1, 2, 3]
    gone = client.post(f"/api/tables/{table.code}/rewind", headers=bearer(table.host),
                       json={"to": 9, "last": 3})
    assert gone.status_code == 409 and gone.get_json()["error"]["rule"] == "table.no-such-move"


def test_a_rewind_reopens_a_finished_game(client):
    table = ApiTable.started(client, game="high-card", players=2, seed=3)
    play_to_end(table, random.Random(2))
    last = effective(client, table)[-1]
    answer = client.post(f"/api/tables/{table.code}/rewind", headers=bearer(table.host),
                         json={"to": last - 2, "last": last})
    assert answer.status_code == 200
    assert table.view()["status"] == "playing" and table.view()["outcome"] is None
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("game", ["skyrunner", "climbers", "heuchel-meuchel"])
def test_a_rewind_in_the_middle_of_a_round_and_a_restart_replay_to_the_same_table(
        app, tmp_path, game):
    """Whatever the table is doing (choices hidden from the screen, a turn half made), the
    rewind takes back what it says, and the stored log gives the same table after a
    restart."""
    client = app.test_client()
    table = playing(client, game=game, seed=5, moves=25)
    seqs = effective(client, table)
    answer = client.post(f"/api/tables/{table.code}/rewind", headers=bearer(table.host),
                         json={"to": seqs[len(seqs) // 2], "last": table.view()["seq"]})
    assert answer.status_code == 200, answer.get_json()
    assert effective(client, table) == seqs[:len(seqs) // 2]
    table.play_at_random(5, random.Random(6))
    for seat in range(table.players):
        assert seated(client, table, seat).get(f"/t/{table.code}/play").status_code == 200
    host_page(client, table)

    live = services(app).tables.get(table.code)
    restarted = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    again = services(restarted).tables.get(table.code)
    assert json.dumps(again.match.state, sort_keys=True) == json.dumps(live.match.state,
                                                                        sort_keys=True)
    assert [step.entry.seq for step in again.match.steps] == \
        [step.entry.seq for step in live.match.steps]


def test_a_rewind_neither_names_nor_counts_a_choice_changed_in_secret(client):
    """SkyRunner: a seat that changes its choice tells nobody. The rewind's confirmation on
    the table screen counts the choice once, and takes back the change with it."""
    table = playing(client, game="skyrunner", players=3, seed=5)
    choices = [move for move in table.moves(0) if move["type"] == "choose"]
    assert table.post_move(0, choices[0]).status_code == 200
    assert table.post_move(0, choices[-1]).status_code == 200  # changed, in secret
    confirm = host_page(client, table, "rewind?to=1")
    assert "Take back 1 move for everyone?" in confirm and 'id="log-2"' not in confirm
    assert client.post(f"/t/{table.code}/rewind", data={
        "to": 1, "last": hidden(confirm, "last")}).status_code == 303
    assert not services(client.application).tables.get(table.code).match.steps
