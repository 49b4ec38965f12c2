"""No page, fragment, push, API view or log entry names a card its viewer may not see.

Seeded random playouts of every game through the web layer (the phone's form and the API, in
turn). After each move, every seat's play page, a pick answer, the hub's push for it, its API
view and its API log, and the table screen's page, push, view and log, are read: the cards they
draw (``data-card="<id>"``) must be cards of the viewer's own ``game.view``. On top of that,
the secrets of each game are checked against the state itself: a SkyRunner choice before the
reveal, a Heuchel & Meuchel card hidden in a stack."""

from __future__ import annotations

import json
import random
import re
import secrets
from typing import Any

import pytest

from companion.live import Connection
from companion.web.services import services
from support.pushing import push_for, render_for
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable, bearer, make_app
from tests.web.hostile_kit import (
    GAMES,
    Seated,
    api_log,
    api_view,
    card_ids,
    data_cards,
    move_card_ids,
    random_move,
)

BY_GAME = {spec.id: spec for spec in GAMES_UNDER_TEST}
#: Moves per playout: 30, but Heuchel & Meuchel's set-up alone takes some 45.
MOVES = {"heuchel-meuchel": 60}
SEEDS = {"seventh-heaven": 101, "heuchel-meuchel": 202, "skyrunner": 303, "climbers": 404}


class Seen:
    """Everything one viewer (a seat, or None for the table screen) is sent right now."""

    def __init__(self, seated: Seated, seat: int | None, rng: random.Random) -> None:
        table, code = seated.table, seated.code
        self.seat = seat
        with table.lock:
            self.view = table.match.view_for(seat)
            moves = table.match.moves_for(seat)
        self.pages: dict[str, str] = {}
        if seat is None:
            self.pages["screen"] = seated.stranger.get(f"/t/{code}/screen").get_data(True)
            self.pages["host screen"] = seated.host.get(f"/t/{code}/screen").get_data(True)
            token = None
        else:
            phone = seated.phones[seat]
            self.pages["play"] = phone.get(f"/t/{code}/play").get_data(True)
            chosen: dict[str, Any] = {}
            if moves:
                move = rng.choice(moves)
                key = rng.choice(sorted(move))
                chosen = {key: move[key]}
            response = phone.get(f"/t/{code}/pick", query_string={"pick": json.dumps(chosen)},
                                 headers={"HX-Request": "true"})
            assert response.status_code == 200
            self.pages["pick"] = response.get_data(True)
            token = seated.tokens[seat]
        with seated.app.app_context():
            for is_host in ((False, True) if seat is None else (False,)):
                conn = Connection(None, code, seat, "en", is_host=is_host)
                self.pages[f"push{' host' if is_host else ''}"] = "".join(
                    part.html for part in render_for(table, conn))
        body = api_view(seated.api.client, code, token)
        self.api_view = body["view"]
        #: The seqs the API gives: the view's, and a seat's moves'.
        self.seqs = [body["seq"]]
        if seat is not None:
            self.seqs.append(seated.api.client.get(f"/api/tables/{code}/moves",
                                                   headers=bearer(token)).get_json()["seq"])
        self.log = api_log(seated.api.client, code, token)

    def drawn(self) -> dict[str, set[int]]:
        return {name: data_cards(page) for name, page in self.pages.items()}

    def shown(self) -> set[int]:
        """Every card this viewer is sent now, drawn on a page or in its API view (the log
        is checked entry by entry: a card a seat once chose may have changed hands since)."""
        found = card_ids(self.api_view)
        for cards in self.drawn().values():
            found |= cards
        return found


def visible_when_made(seated: Seated, number: int, viewer: int | None) -> set[int]:
    """The cards ``viewer`` could see just before or just after the log entry it numbers
    ``number``."""
    table = seated.table
    seq = table.match.entry_seq(number, viewer)
    assert seq is not None
    entry = table.match.log[seq - 1]
    before = table.match.befores[seq]
    after = table.game.apply(before, entry.seat, json.loads(json.dumps(entry.move)))
    return card_ids(table.game.view(before, viewer)) | card_ids(table.game.view(after, viewer))


def check_viewer(seated: Seated, seen: Seen) -> None:
    own = card_ids(seen.view)
    assert seen.api_view == json.loads(json.dumps(seen.view)), "the API view is the view"
    for name, cards in seen.drawn().items():
        assert cards <= own, (seated.game_id, seen.seat, name, sorted(cards - own))
    for entry in seen.log:
        named = move_card_ids(entry.get("move"))
        if named:
            visible = visible_when_made(seated, entry["seq"], seen.seat)
            assert named <= visible, (seated.game_id, seen.seat, entry, sorted(named - visible))


def check_skyrunner_choices(seated: Seated, seen: dict[int | None, Seen]) -> int:
    """Returns how many secret choices it checked."""
    state = seated.table.match.state
    if state["phase"] != "choose":
        return 0
    checked = 0
    for chooser, card in state["choices"].items():
        if card is None:
            continue
        checked += 1
        for viewer, what in seen.items():
            if viewer == int(chooser):
                continue
            assert card not in what.shown(), (chooser, card, viewer)
            for entry in what.log:
                if entry["kind"] == "move" and entry["seat"] == int(chooser) \
                        and entry["move"]["type"] == "choose":
                    assert entry["move"] == {"type": "choose"}, entry
    return checked


def hidden_stack_cards(state: dict[str, Any], viewer: int | None) -> set[int]:
    """Cards in the stacks that ``viewer`` may not see: under a top card, in a face-down pile,
    or anything during the set-up; a seat sees all of its own column."""
    own = state["columns"].get(str(viewer)) if viewer is not None else None
    hidden: set[int] = set()
    for index, column in enumerate(state["board"]):
        if own is not None and index + 1 == own:
            continue
        for stack in column:
            if stack is None:
                continue
            cards = list(stack["cards"])
            if not stack["down"] and state["phase"] != "setup":
                cards = cards[:-1]  # the top card is public
            hidden |= set(cards)
    return hidden


def check_heuchel_meuchel_stacks(seated: Seated, seen: dict[int | None, Seen]) -> int:
    """Returns how many hidden cards it checked."""
    state = seated.table.match.state
    checked = 0
    for viewer, what in seen.items():
        hidden = hidden_stack_cards(state, viewer)
        assert not hidden & what.shown(), (viewer, sorted(hidden & what.shown()))
        checked += len(hidden)
    return checked


def play_one(seated: Seated, rng: random.Random, step: int) -> bool:
    found = random_move(seated.table, rng)
    if found is None:
        return False
    seat, move = found
    seq = seated.table.match.seq
    if step % 2:
        response = seated.phones[seat].post(
            f"/t/{seated.code}/move", headers={"HX-Request": "true"},
            data={"move": json.dumps(move), "seq": str(seq),
                  "client_move_id": secrets.token_hex(8)})
        assert response.status_code == 200, response.get_data(True)
        own = card_ids(seated.table.match.view_for(seat))
        assert data_cards(response.get_data(True)) <= own
    else:
        response = seated.api.post_move(seat, move, seq=seq)
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["view"] == json.loads(json.dumps(
            seated.table.match.view_for(seat)))
    assert seated.table.match.seq == seq + 1
    return True


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_leak_nothing(app, game):
    seed = SEEDS.get(game, 505)
    seated = Seated(app, game, seed=seed)
    rng = random.Random(seed)
    checked = secrets_checked = 0
    phases = set()
    for step in range(MOVES.get(game, 30)):
        if not play_one(seated, rng, step):
            break
        seen = {viewer: Seen(seated, viewer, rng) for viewer in (*range(seated.players), None)}
        for what in seen.values():
            check_viewer(seated, what)
        if game == "skyrunner":
            secrets_checked += check_skyrunner_choices(seated, seen)
        if game == "heuchel-meuchel":
            secrets_checked += check_heuchel_meuchel_stacks(seated, seen)
        phases.add(seated.table.match.state["phase"])
        checked += 1
    assert checked >= 20, "the playout ended too early to say much"
    if game in ("skyrunner", "heuchel-meuchel"):  # the secrets beyond a hand
        assert secrets_checked >= 5, "the playout never came near the game's secrets"
    if game == "heuchel-meuchel":
        assert len(phases) > 1, f"the playout never left the set-up: {phases}"


# --- SkyRunner: another seat's choice changes nothing anyone else is sent ------------------

def normalised(text: str, code: str) -> str:
    text = text.replace(code, "CODE")
    text = re.sub(r' d="[^"]*"', "", text)  # the QR code of the join URL
    text = re.sub(r"[0-9a-f]{32}", "ID", text)  # a confirm form's fresh client_move_id
    text = re.sub(r'page=[\w-]+"|name="page" value="[\w-]+"', "PAGE", text)  # a page's token
    return re.sub(r'"at": ?[0-9.e+]+', '"at": 0', text)


def everything_sent(seated: Seated, viewer: int | None) -> dict[str, str]:
    seen = Seen(seated, viewer, random.Random(0))
    sent = dict(seen.pages)
    sent["view"] = json.dumps(seen.api_view, sort_keys=True)
    sent["seqs"] = json.dumps(seen.seqs)
    sent["log"] = json.dumps([{k: v for k, v in e.items() if k != "at"} for e in seen.log],
                             sort_keys=True)
    return {name: normalised(text, seated.code) for name, text in sent.items()}


def alike_until_seat_0_chooses(app) -> list[Seated]:
    """Two SkyRunner tables dealt alike, played with the same moves until seat 0 may
    choose its card."""
    tables = [Seated(app, "skyrunner", seed=77) for _ in range(2)]
    rng = random.Random(77)
    for _ in range(40):
        state = tables[0].table.match.state
        if state["phase"] == "choose" and state["choices"]["0"] is None:
            return tables
        found = random_move(tables[0].table, rng)
        assert found is not None
        for seated in tables:
            assert seated.api.post_move(*found, seq=seated.table.match.seq).status_code == 200
    raise AssertionError("seat 0 never came to choose")


def choose(seated: Seated, move: dict[str, Any], move_id: str) -> None:
    """Seat 0 chooses ``move`` from its phone."""
    seq = seated.api.view(0)["seq"]
    assert seated.phones[0].post(
        f"/t/{seated.code}/move", data={"move": json.dumps(move), "seq": str(seq),
                                       "client_move_id": move_id}).status_code == 200


def test_a_skyrunner_choice_is_invisible_to_everyone_else_until_the_reveal(app):
    """Two tables dealt alike; seat 0 chooses a different card at each. Until the reveal,
    seats 1 and 2 and the table screen are sent exactly the same bytes at both."""
    tables = alike_until_seat_0_chooses(app)
    choices = [m for m in tables[0].table.match.moves_for(0) if m["type"] == "choose"]
    assert len(choices) >= 2
    for seated, move in zip(tables, (choices[0], choices[-1]), strict=True):
        assert seated.phones[0].post(
            f"/t/{seated.code}/move",
            data={"move": json.dumps(move), "seq": str(seated.table.match.seq),
                  "client_move_id": "c1"}).status_code == 200
    assert tables[0].table.match.state["phase"] == "choose"  # not revealed yet
    for viewer in (1, 2, None):
        first, second = (everything_sent(seated, viewer) for seated in tables)
        for name in first:
            assert first[name] == second[name], (viewer, name)
    # seat 0 itself does see its own choice: the comparison can tell them apart
    mine = [everything_sent(seated, 0)["play"] for seated in tables]
    assert mine[0] != mine[1]


def test_a_changed_skyrunner_choice_leaves_no_trace(app):
    """Two tables dealt alike. At one, seat 0 chooses a card; at the other it chooses
    another, then changes its mind to the first. Seats 1 and 2 and the table screen are sent
    exactly the same at both (pages, pushes, views, logs, the change counter), and the
    change itself pushes nothing to them; seat 1 then plays on with what it was shown."""
    tables = alike_until_seat_0_chooses(app)
    choices = [m for m in tables[0].table.match.moves_for(0) if m["type"] == "choose"]
    kept, dropped = choices[0], choices[-1]
    once, changed = tables
    choose(once, kept, "c1")
    choose(changed, dropped, "c1")
    watchers = {viewer: Connection(None, changed.code, viewer, "en") for viewer in (1, 2, None)}
    with app.app_context():
        for conn in watchers.values():
            push_for(changed.table, conn)
    choose(changed, kept, "c2")  # seat 0 changes its mind
    assert changed.table.match.state["choices"]["0"] == kept["card"]
    with app.app_context():
        for viewer, conn in watchers.items():
            assert push_for(changed.table, conn) == "", viewer  # no push
    for viewer in (1, 2, None):
        first, second = (everything_sent(seated, viewer) for seated in tables)
        for name in first:
            assert first[name] == second[name], (viewer, name)
    log = [e for e in api_log(changed.api.client, changed.code, changed.tokens[1])
           if e["kind"] == "move" and e["seat"] == 0]
    assert len(log) == 1  # "has chosen", once
    seq = changed.api.view(1)["seq"]
    assert seq == once.api.view(1)["seq"] < changed.table.match.seq
    move = next(m for m in changed.table.match.moves_for(1) if m["type"] == "choose")
    assert changed.api.post_move(1, move, seq=seq).status_code == 200  # not stale


def changed_in_secret(app) -> tuple[Seated, Seated]:
    """Two SkyRunner tables dealt alike: at the first, seat 0 chose a card; at the second,
    it chose another, then changed its choice to the first, before the others chose."""
    once, changed = alike_until_seat_0_chooses(app)
    choices = [m for m in once.table.match.moves_for(0) if m["type"] == "choose"]
    choose(once, choices[0], "c1")
    choose(changed, choices[-1], "c1")
    choose(changed, choices[0], "c2")
    return once, changed


def test_a_changed_skyrunner_choice_shows_in_no_seq_anyone_else_is_given(app):
    """Two tables dealt alike; at one, seat 0 changes its choice before the others have
    chosen; then both play on alike, through the reveal and into the next rounds, and the
    host takes a move back. Every seq seats 1 and 2 and the table screen are given (move
    answers, views, moves, log entries, pages, pushes, the host's undo and its answer) is
    the same at both: a seq counts only what its viewer may know of. Seat 0's own count its
    change. A restart on the same database numbers the log the same."""
    tables = once, changed = changed_in_secret(app)
    rng = random.Random(7)
    movers = set()
    for step in range(12):
        found = random_move(once.table, rng)
        assert found is not None
        seat, move = found
        movers.add(seat)
        answers = [seated.api.post_move(seat, move, client_move_id=f"m{step}").get_json()
                   for seated in tables]
        if seat == 0:
            assert answers[1]["seq"] == answers[0]["seq"] + 1
        else:
            assert answers[0] == answers[1], (step, seat)
        for viewer in (1, 2, None):
            first, second = (everything_sent(seated, viewer) for seated in tables)
            for name in first:
                assert first[name] == second[name], (step, viewer, name)
    assert movers == {0, 1, 2} and once.table.match.state["round"] > 1
    undone = [seated.api.host_undo() for seated in tables]
    assert [answer.status_code for answer in undone] == [200, 200]
    assert undone[0].get_json() == undone[1].get_json()
    for viewer in (1, 2, None):
        assert everything_sent(once, viewer) == everything_sent(changed, viewer), viewer

    restarted = make_app({"DATABASE": app.config["DATABASE"], "RATE_BURST": 1e9})
    for seated in tables:
        again = services(restarted).tables.get(seated.code)
        for viewer in (0, 1, 2, None):
            assert again.match.seq_for(viewer) == seated.table.match.seq_for(viewer)
            assert again.match.log_for(viewer) == seated.table.match.log_for(viewer)


def test_the_hosts_api_undo_names_the_move_and_tells_nothing_hidden(app):
    """SkyRunner: seat 0 chooses, then changes its choice in secret. The host's API undo
    names the move it takes back, as the table screen's page does: without it, nothing is
    taken back (a 400 that says so). Named by the screen's seq of the choice, it takes back
    the choice and the hidden change after it, and answers as at a table where seat 0 chose
    once."""
    tables = once, changed = changed_in_secret(app)
    before = changed.snapshot()
    undo = f"/api/tables/{changed.code}/undo"
    for body in (None, {}, {"undo": "1"}, {"undo": True}):
        refused = changed.api.client.post(undo, headers=bearer(changed.api.host), json=body)
        assert refused.status_code == 400, refused.get_json()
        error = refused.get_json()["error"]
        assert error["rule"] == "table.undo-unnamed"
        assert "must name the move it takes back" in error["message"]
    assert changed.snapshot() == before
    undone = [seated.api.host_undo() for seated in tables]
    assert [answer.status_code for answer in undone] == [200, 200]
    assert undone[0].get_json() == undone[1].get_json()
    # the choice and its change went back
    assert json.dumps(changed.table.match.state, sort_keys=True) == \
        json.dumps(once.table.match.state, sort_keys=True)
    assert changed.table.match.state["choices"]["0"] is None


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_views_and_moves_kept_for_the_state_are_each_viewers_own(app, game):
    """A push asks for each viewer's view of the state and each seat's moves, kept until
    the state changes: every seat and the table screen get their own, and a move (or the
    host taking one back) gives fresh ones."""
    players = min(BY_GAME[game].engine.max_players, 4)
    client = app.test_client()
    table = ApiTable.started(client, game=game, players=players, seed=17)
    live = services(app).tables.get(table.code)
    rng = random.Random(17)
    for number in range(12):
        for viewer in (None, *range(players)):
            assert live.match.view_for(viewer) == live.game.view(live.match.state, viewer)
            assert live.match.moves_for(viewer) == (
                [] if viewer is None else live.game.legal_moves(live.match.state, viewer))
        if number % 5 == 4:
            assert table.host_undo().status_code == 200
            continue
        found = table.seat_to_move()
        assert found is not None
        table.post_move(found[0], rng.choice(found[1]))
