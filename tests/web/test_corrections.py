"""The host's corrections ("The table differs…"): the API and the host's page take one, the
game's rules refuse a position that cannot be, with its reason in the reader's language;
a correction is a line of everyone's log, replayed after a restart and undone like a move;
the correction page holds no hand and no secret choice."""

from __future__ import annotations

import random
import re

import pytest

from companion.web.services import services
from tests.conftest import ApiTable, bearer, make_app
from tests.web.test_rewind import host_page, seated

#: Per game: its players, the moves to play first (seat, move), a correction, where the
#: view says the corrected thing is, and the words of its log line in English and French.
CASES = {
    "climbers": (3, ((0, {"type": "built"}),), {"type": "figure", "seat": 1, "to": "1,-1"},
                 lambda view: view["figures"]["1"]["place"],
                 "The host set Ben’s figure on the dark blue-topped half-cube on level 10, next"
                 " to the grey-topped cube, as on the table (the companion had it on the"
                 " table).",
                 "L’hôte a mis la figurine de Ben sur le demi-cube à dessus bleu foncé au niveau"
                 " 10, à côté du cube à dessus gris, comme sur la table (le compagnon l’avait"
                 " sur la table)."),
    "seventh-heaven": (3, (), {"type": "piece", "piece": "red", "space": 10},
                       lambda view: view["pieces"]["red"],
                       "The host set red on space 10, as on the table (the companion had it"
                       " on space 0).",
                       "L’hôte a mis rouge sur la case 10, comme sur la table (le compagnon"
                       " l’avait sur la case 0)."),
    "skyrunner": (3, (), {"type": "climber", "seat": 1, "level": 3, "lane": 2},
                  lambda view: view["positions"]["1"],
                  "The host set Ben’s climber at level 3, lane 2, as on the table (the"
                  " companion had it at level 0, lane 0).",
                  "L’hôte a mis le grimpeur de Ben au niveau 3, voie 2, comme sur la table"
                  " (le compagnon l’avait au niveau 0, voie 0)."),
}


def playing(client, game: str) -> ApiTable:
    """A table of ``game`` started, and its case's moves played first (``CASES``)."""
    table = ApiTable.started(client, game=game, players=3, seed=7)
    for seat, move in CASES[game][1] if game in CASES else ():
        assert table.post_move(seat, move).status_code == 200
    return table


def correct(client, table: ApiTable, correction, seq: int | None = None, token=None):
    return client.post(f"/api/tables/{table.code}/corrections",
                       headers=bearer(token or table.host),
                       json={"correction": correction,
                             "seq": table.seq() if seq is None else seq})


def heuchel_meuchel_table(client) -> tuple[ApiTable, dict]:
    """A Heuchel & Meuchel table past its set-up, and a correction of one of its stacks."""
    table = playing(client, "heuchel-meuchel")
    rng = random.Random(3)
    while table.view()["view"]["phase"] == "setup":
        seat, moves = next((seat, moves) for seat in range(3)
                           if (moves := [m for m in table.moves(seat) if m["type"] != "lift"]))
        table.post_move(seat, rng.choice(moves))
    board = table.view()["view"]["board"]
    for column, squares in enumerate(board, 1):
        for row, stack in enumerate(squares, 1):
            if stack and not stack["down"]:
                rank = stack["top"]["rank"]
                free = [to for to in range(rank, rank + 7)
                        if to != row and squares[to - 1] is None]
                if free:
                    return table, {"type": "stack", "column": column, "row": row, "to": free[0]}
    raise AssertionError("no stack to correct")


def log_text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&#39;", "'").split())


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_correction_is_in_every_log_replayed_after_a_restart_and_undone(app, client, game):
    _, _, correction, where, english, french = CASES[game]
    table = playing(client, game)
    before = where(table.view()["view"])
    answer = correct(client, table, correction)
    assert answer.status_code == 200, answer.get_json()
    after = where(answer.get_json()["view"])
    assert after != before and where(table.view(0)["view"]) == after
    for lang, words in (("en", english), ("fr", french)):
        assert words in log_text(host_page(client, table, lang=lang))
        phone = seated(client, table, 2).get(f"/t/{table.code}/play",
                                             headers={"Accept-Language": lang})
        assert words in log_text(phone.get_data(True))
    assert table.moves(0) or table.moves(1) or table.moves(2)  # the game goes on

    restarted = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    again = restarted.test_client()
    replayed = services(restarted).tables.get(table.code)
    assert replayed is not None and where(replayed.match.view_for(None)) == after
    assert english in log_text(host_page(again, table))

    last = again.get(f"/api/tables/{table.code}/log").get_json()["entries"][-1]
    assert last["kind"] == "correction"
    undone = again.post(f"/api/tables/{table.code}/undo", headers=bearer(table.host),
                        json={"undo": last["seq"]})
    assert undone.status_code == 200, undone.get_json()
    assert where(again.get(f"/api/tables/{table.code}/view").get_json()["view"]) == before
    assert "The host took back: " + english in log_text(host_page(again, table))


def test_a_stack_correction_through_the_hosts_page_and_a_rewind(client):
    table, correction = heuchel_meuchel_table(client)
    column, row, to = correction["column"], correction["row"], correction["to"]
    page = host_page(client, table, "screen")
    assert "The table differs…" in page
    form_page = host_page(client, table, "correct")
    assert f'data-correct-stack="{column}-{row}"' in form_page
    last = int(re.search(r'name="last" value="(\d+)"', form_page).group(1))
    posted = client.post(f"/t/{table.code}/correct",
                         data={"last": last, "c_type": "stack", "c_column": column,
                               "c_row": row, "c_to": to})
    assert posted.status_code == 303
    board = table.view()["view"]["board"][column - 1]
    assert board[row - 1] is None and board[to - 1] is not None
    words = f"on row {to}, as on the table (the companion had it on row {row})."
    assert words in log_text(host_page(client, table))
    assert "comme sur la table" in log_text(host_page(client, table, lang="fr"))
    seq = client.get(f"/api/tables/{table.code}/log").get_json()["entries"][-1]["seq"]
    rewound = client.post(f"/api/tables/{table.code}/rewind", headers=bearer(table.host),
                          json={"to": seq, "last": table.seq()})
    assert rewound.status_code == 200
    assert table.view()["view"]["board"][column - 1][row - 1] is not None


def test_an_impossible_correction_is_refused_with_its_reason_and_changes_nothing(client):
    table = playing(client, "seventh-heaven")
    view = table.view()
    refused = correct(client, table, {"type": "piece", "piece": "red", "space": 99})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == {
        "rule": "7h.correct.track",
        "message": "Space 99 is not on the way to 7th Heaven: a piece is set on the Garden "
                   f"Party (0) up to space {view['view']['heaven'] - 1}."}
    client.set_cookie(f"host_{table.code}", table.host)
    french = client.post(f"/t/{table.code}/correct", headers={"Accept-Language": "fr"},
                         data={"last": table.seq(), "c_type": "piece", "c_piece": "red",
                               "c_space": 0})
    assert french.status_code == 422
    assert "rouge est déjà sur la case 0 ici" in french.get_data(True).replace("&#39;", "'")
    assert table.view() == view


def test_the_api_refuses_what_it_cannot_read_and_anyone_but_the_host(client):
    table = playing(client, "skyrunner")
    url = f"/api/tables/{table.code}/corrections"
    bad = client.post(url, headers={**bearer(table.host), "Content-Type": "application/json"},
                      data="{not json")
    assert bad.status_code == 400 and bad.get_json()["error"]["rule"] == "table.bad-request"
    shapeless = correct(client, table, {"type": "climber", "seat": 0})
    assert shapeless.status_code == 400
    assert shapeless.get_json()["error"]["rule"] == "table.bad-correction"
    stale = correct(client, table, {"type": "climber", "seat": 0, "level": 2, "lane": 1},
                    seq=table.seq() + 1)
    assert stale.status_code == 409
    player = correct(client, table, {"type": "climber", "seat": 0, "level": 2, "lane": 1},
                     token=table.tokens[0])
    assert player.status_code == 403
    secret = correct(client, table, {"type": "choose", "seat": 1, "card": 3})
    assert secret.status_code == 422 and secret.get_json()["error"]["rule"] == "sr.correct.secret"
    assert client.post(f"/t/{table.code}/correct", data={"last": table.seq()}).status_code == 403


def test_the_correction_page_holds_no_hand_and_no_secret_choice(app):
    """Two tables alike but for seat 1's secret choice draw the same correction page."""
    pages = []
    for pick in (0, -1):
        client = app.test_client()
        table = playing(client, "skyrunner")
        choice = table.moves(1)[pick]
        assert table.post_move(1, choice).status_code == 200
        page = host_page(client, table, "correct").replace(table.code, "CODE")
        pages.append(re.sub(r'name="csrf[^>]*>', "", page))
        hand = table.view(1)["view"]["hand"]
        assert not any(f'data-card="{card["id"]}"' in page for card in hand)
    assert pages[0] == pages[1]


def test_the_correction_page_names_each_piece_by_its_chip_and_its_colour_in_french(client):
    table = playing(client, "seventh-heaven")
    page = host_page(client, table, "correct", lang="fr")
    form = re.search(r'<form[^>]*data-correct-piece="red".*?</form>', page, re.S).group(0)
    assert '<span class="pawn c-red"' in form and "rouge" in log_text(form)
    assert "<li>" not in page  # no list bullets: one card a piece


def test_the_correction_page_says_when_stacks_can_be_corrected_during_the_set_up(client):
    table = playing(client, "heuchel-meuchel")
    assert table.view()["view"]["phase"] == "setup"
    for lang, words in (("en", "nothing can be corrected yet"),
                        ("fr", "rien ne se corrige pour l’instant")):
        assert words in log_text(host_page(client, table, "correct", lang=lang))


def test_a_block_is_set_right_through_the_hosts_page_by_its_look(client):
    table = playing(client, "climbers")
    page = host_page(client, table, "correct")
    block = re.search(r'<details[^>]*data-correct-block="C7".*?</summary>', page, re.S)
    assert log_text(block.group(0)) == ("the violet-topped cube on level 2, next to the dark"
                                        " blue-topped double cube")
    assert 'data-correct-block="F1"' not in page  # the foundations have blocks on them
    form = {"last": table.seq(), "c_type": "block", "c_block": "C7", "c_x": 4, "c_y": -3,
            "c_top": "violet", "c_long": ""}  # a cube has no long side: the field is empty
    assert client.post(f"/t/{table.code}/correct", data=form).status_code == 303
    moved = next(b for b in table.view()["view"]["blocks"] if b["id"] == "C7")
    assert (moved["x"], moved["y"], moved["z"], moved["long"]) == (4, -3, 0, None)
    assert ("The host set the violet-topped cube on level 2, next to the yellow-topped double"
            " cube, violet on top, as on the table (the companion had it on level 2, next to"
            " the dark blue-topped double cube).") in log_text(host_page(client, table))
    assert ("L’hôte a mis le cube à dessus violet au niveau 2, à côté du double cube à dessus"
            " jaune, violet dessus, comme sur la table") in log_text(
                host_page(client, table, lang="fr"))
    view = table.view()
    french = client.post(f"/t/{table.code}/correct", headers={"Accept-Language": "fr"},
                         data={**form, "last": table.seq(), "c_x": 9, "c_y": 9})
    assert french.status_code == 422
    assert "Un bloc doit toucher la construction" in french.get_data(True)
    assert table.view() == view
