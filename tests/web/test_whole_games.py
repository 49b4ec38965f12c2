"""Whole games through the pages: every registered game (and the tests' own), at its smallest
and largest player count, played to its end with random legal moves as the phones' pickers
offer them. After every move every viewer's page (each phone, the host's table screen) and
every push is drawn, in English and French by turns; nothing may answer 5xx, fail to draw
(a part that cannot be drawn is logged, and the log fails the test) or show what a player
must never read (``support/reading.py``: a developer's word, the other language). What the
whole table reads (the table screen, the host's, the screen's record of the game) names
players, never a reader's own ("your partners"). A new game in the registry is covered
without a line here.

On the way the table does what a games night does (``EVENTS``): the host frees the seat
whose turn it is and lets a newcomer into it, a move is taken back, the host rewinds three
moves, and the server restarts. While the seat is free no page names anyone by a blank;
and every line of the log, for every viewer and in both languages, reads at the end as it
read when it was first pushed.

The engines' playouts check the rules over thousands of games; this checks what the
players read, over a few long ones: a log line met only late in a game (SkyRunner's
reshuffle) is drawn too.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.base import Game, Move
from companion.live import Connection
from companion.tables import Table
from companion.web.picker import narrow
from companion.web.record import LOG_PAGE
from companion.web.regions import log_lines
from companion.web.render import screen_context, viewer_context
from companion.web.services import services
from companion.web.spec import GameSpec
from support.pushing import render_for
from support.reading import addressed, blank_names, shown_text, unreadable
from tests.conftest import GAMES_UNDER_TEST, ApiTable, bearer, make_app
from tests.web.test_log_history import lines_of

LANGS = ("en", "fr")
#: Each game at its smallest player count with its default options, and at its largest
#: with every number option at its low end (the quickest table the options allow, and
#: options other than the defaults drawn too): (game, players, quick, seed). The seeds are
#: fixed, so a run draws the same games and takes a known time.
GAMES = [(spec, players, quick, seed)
         for spec in GAMES_UNDER_TEST
         for players, quick, seed in ((spec.engine.min_players, False, 0),
                                      (spec.engine.max_players, True, 5))]
#: A game that has not ended after this many moves is a bug of its own.
MOVES_AT_MOST = 1500
#: What the table does, after how many moves once the game's set-up is over: every game at
#: every count is longer. Not during a set-up, where every player places at once: the
#: test's players go on lifting what they placed, and a set-up set back may never end.
EVENTS = {2: "free", 4: "take back", 7: "rewind", 9: "restart"}
#: The phases of a game's set-up.
SETTING_UP = ("setup", "build")
#: A move's page quotes the rules it was held to as the rulebook words them, to any reader
#: ("you move only your own cards"): the rest of the page speaks of the players.
_RULES_QUOTED = re.compile(r'<section class="rules checked".*?</section>', re.S)


def picked(rng: random.Random, moves: list[Move], keys: tuple[str, ...],
           before: set[str] | None = None) -> list[dict[str, Any]]:
    """A move as a player picks it on the phone: a random answer to each question the
    picker asks (a random legal set for a question with several answers at once). Returns
    the values chosen after each answer, the last holding the whole move.

    Players are not dice: half the time they take an answer they have not given before
    (``before``, updated here), where there is one; a quarter of the time the answer the
    phone offers first (a card in hand before the top of a stack to lift). Else any. A
    game of uniformly random taps may never end (cards placed and lifted forever), and one
    of first answers alone never climbs."""
    before = set() if before is None else before
    chosen: dict[str, Any] = {}
    steps = []
    for _ in range(len(keys) + 20):
        pick = narrow(moves, keys, chosen)
        if pick.move is not None:
            return [*steps, pick.move]
        if pick.key is None:  # moves alike but for keys nobody asks: any of them
            return [*steps, rng.choice(moves)]
        if pick.multi:
            left = [move for move in moves if all(move.get(k) == v for k, v in chosen.items())]
            values = [move[pick.key] for move in left]
        else:
            values = pick.values
        new = [value for value in values if _answer(pick.key, value) not in before]
        draw = rng.random()
        answer = rng.choice(new) if new and draw < 0.5 else \
            values[0] if draw < 0.75 else rng.choice(values)
        before.add(_answer(pick.key, answer))
        chosen = dict(chosen, **{pick.key: answer})
        steps.append(chosen)
    raise AssertionError(f"the picker never settled on a move: {chosen}")


def _answer(key: str, value: Any) -> str:
    return json.dumps([key, value], sort_keys=True)


def viewer_name(conn: Connection) -> str:
    return f"seat {conn.seat}" if conn.seat is not None else \
        "host" if conn.is_host else "screen"


def state_key(state: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in state.items() if k != "effects"}, sort_keys=True)


class WholeGame:
    """A table of ``spec`` played through the phones' pages, everything drawn as it goes."""

    def __init__(self, app: Flask, spec: GameSpec, players: int, quick: bool,
                 seed: int) -> None:
        self.app, self.spec, self.players = app, spec, players
        self.engine: Game = spec.engine
        self.rng = random.Random(seed)
        options = {option.key: option.low for option in self.engine.options()
                   if quick and option.kind == "int"}
        self.table = ApiTable(app.test_client(), game=spec.id, players=players,
                              seed=seed, options=options).join_all()
        self.live: Table = services(app).tables.get(self.table.code)
        code = self.table.code
        self.phones: dict[int, FlaskClient] = {}
        for seat in range(players):
            self.phones[seat] = app.test_client()
            self.phones[seat].set_cookie(f"seat_{code}", self.table.tokens[seat])
        self.screen = app.test_client()
        self.screen.set_cookie(f"host_{code}", self.table.host)
        self.stranger = app.test_client()
        self.seen: set[str] = set()
        self.checked: set[tuple[str, str, bool]] = set()
        self.last_moved: dict[int, int] = {}
        self.answered: dict[int, set[str]] = {}
        self.moves = 0
        self.effects: list[dict[str, Any]] = []

        #: Each log line's words as first pushed, by viewer, language and line id.
        self.lines: dict[tuple[str, str, str], str] = {}
        #: The moves made when the game's set-up was over, and the events done since.
        self.set_up: int | None = None
        self.done: list[str] = []
        for lang in LANGS:  # the screen that invites the table, before the game
            self.get(self.stranger, f"/t/{code}/screen", "the lobby's screen", shared=True,
                     lang=lang)
        self.table.start(first_seat=seed % players)

    def lang(self) -> str:
        return LANGS[self.moves % 2]

    def check(self, what: str, html: str, status: int = 200, shared: bool = False,
              lang: str | None = None) -> None:
        """``shared``: a page or part the whole table reads."""
        assert status < 500, f"{what} answered {status} after {self.moves} moves"
        lang = lang or self.lang()
        found = unreadable(shown_text(html), lang)
        if shared:
            found += addressed(shown_text(_RULES_QUOTED.sub(" ", html)), lang)
        assert not found, f"{what} shows {found} after {self.moves} moves ({lang})"
        if len(self.live.seats) < self.players:
            blank = blank_names(html, lang)
            assert not blank, f"{what} names a player by a blank while a seat is free: {blank}"

    def get(self, client: FlaskClient, path: str, what: str, shared: bool = False,
            lang: str | None = None, **params: Any) -> None:
        lang = lang or self.lang()
        response = client.get(path, query_string=params, headers={"Accept-Language": lang})
        self.check(what, response.get_data(as_text=True), response.status_code, shared, lang)
        assert response.status_code == 200, f"{what}: {response.status_code}"

    def draw_everything(self) -> None:
        """Every viewer's page and push, in this move's language."""
        code, lang = self.table.code, self.lang()
        self.get(self.screen, f"/t/{code}/screen", "the host's screen", shared=True)
        seated = [seat for seat in range(self.players) if seat in self.live.seats]
        if len(seated) < self.players:  # every page, while a seat is free
            self.get(self.stranger, f"/t/{code}/screen", "the table screen", shared=True)
        for seat in seated:
            self.get(self.phones[seat], f"/t/{code}/play", f"seat {seat}'s page")
        viewers = [Connection(None, code, seat, lang) for seat in seated]
        viewers += [Connection(None, code, None, lang, is_host=True),
                    Connection(None, code, None, lang)]
        for conn in viewers:
            with self.app.app_context():
                parts = render_for(self.live, conn)
            shared = conn.seat is None
            for part in parts:  # a part shared by viewers or kept from before, once
                if (part.digest, lang, shared) not in self.checked:
                    self.checked.add((part.digest, lang, shared))
                    self.check(f"the push of #{part.id} to {conn.seat}", part.html, shared=shared)
                if part.id == "log":
                    for line_id, text in lines_of(part.html).items():
                        self.lines.setdefault((viewer_name(conn), lang, line_id), text)

    def whole_logs(self) -> dict[tuple[str, str, str], str]:
        """Every line of every viewer's log, the whole match's, in each language."""
        lines = {}
        for lang in LANGS:
            for conn in [Connection(None, self.table.code, seat, lang)
                         for seat in range(self.players)] + \
                    [Connection(None, self.table.code, None, lang, is_host=True),
                     Connection(None, self.table.code, None, lang)]:
                with self.app.app_context(), services(self.app).pushes.drawing(lang):
                    context = viewer_context(self.live, conn.seat) if conn.seat is not None \
                        else screen_context(self.live, conn.is_host)
                    context["log"] = self.live.match.log_for(conn.seat)
                    html = "".join(log_lines(self.live, context))
                for line_id, text in lines_of(html).items():
                    lines[(viewer_name(conn), lang, line_id)] = text
        return lines

    def check_the_record(self) -> None:
        """Every line reads as it did when first pushed, in each language; a line not
        pushed yet in a language is read so now, for the next check."""
        now = self.whole_logs()
        changed = {key: (text, now.get(key)) for key, text in self.lines.items()
                   if now.get(key) != text}
        assert not changed, f"lines that read otherwise after {self.done}: {changed}"
        for key, text in now.items():
            self.lines.setdefault(key, text)

    def turn(self) -> tuple[int, list[Move]] | None:
        """The seat that acts next: of those with moves, the one that moved least lately
        (players take turns to decide at once, as at a table)."""
        able = [(seat, moves) for seat in range(self.players)
                if (moves := self.live.match.moves_for(seat))]
        if not able:
            return None
        return min(able, key=lambda found: self.last_moved.get(found[0], -1))

    def choose(self, seat: int, moves: list[Move]) -> list[dict[str, Any]]:
        """A pick that does not lead back to a position already seen (a card placed and
        lifted again forever): players do not dither, though the rules let them."""
        state = self.live.match.state
        assert state is not None
        steps: list[dict[str, Any]] = []
        for _ in range(12):
            steps = picked(self.rng, moves, self.engine.choice_keys,
                           self.answered.setdefault(seat, set()))
            key = state_key(self.engine.apply(state, seat, steps[-1]))
            if key not in self.seen:
                self.seen.add(key)
                break
        return steps

    def move(self, seat: int, moves: list[Move]) -> None:
        code = self.table.code
        steps = self.choose(seat, moves)
        for chosen in steps[:-1]:  # each answer as the phone asks for the next question
            self.get(self.phones[seat], f"/t/{code}/pick", f"seat {seat}'s picker",
                     pick=json.dumps(chosen, separators=(",", ":")))
        answer = self.phones[seat].post(f"/t/{code}/move", data={
            "move": json.dumps(steps[-1]), "seq": self.live.match.seq_for(seat),
            "client_move_id": f"whole-{self.moves}"},
            headers={"Accept-Language": self.lang(), "HX-Request": "true"})
        self.check(f"seat {seat}'s move", answer.get_data(as_text=True), answer.status_code)
        assert answer.status_code == 200, f"seat {seat}'s move was refused: {steps[-1]}"
        self.moves += 1
        self.last_moved[seat] = self.moves
        self.effects += self.live.match.effects.get(self.live.match.seq, [])

    def play(self) -> None:
        self.draw_everything()
        while self.live.match.outcome() is None:
            assert self.moves < MOVES_AT_MOST, f"{self.spec.id} did not end"
            found = self.turn()
            assert found is not None, "the game is neither over nor waiting for anyone"
            self.move(*found)
            self.draw_everything()
            event = self.event()
            if event is not None:
                getattr(self, event.replace(" ", "_"))(found[0])
                self.done.append(event)
                self.draw_everything()
                self.check_the_record()
        view = self.table.client.get(f"/api/tables/{self.table.code}/view",
                                     headers=bearer(self.table.host)).get_json()
        assert view["status"] == "over"
        assert self.done == list(EVENTS.values())
        self.check_the_record()
        self.read_the_screens_record()

    def read_the_screens_record(self) -> None:
        """The table screen's record of the game, as anyone at the table may open it: every
        page of its whole log in each language, and each move on its own in one."""
        code = self.table.code
        pages = -(-len(self.live.match.log_for(None)) // LOG_PAGE)
        for lang in LANGS:
            for page in range(1, pages + 1):
                self.get(self.stranger, f"/t/{code}/log", f"the screen's log, page {page}",
                         shared=True, lang=lang, page=page)
        for number in self.shown_moves():
            self.get(self.stranger, f"/t/{code}/moves/{number}", f"the screen's move {number}",
                     shared=True, lang=LANGS[number % 2])

    def event(self) -> str | None:
        """What the table does now, if anything (``EVENTS``)."""
        if self.set_up is None:
            view = self.live.match.view_for(None)
            if view is None or view.get("phase") in SETTING_UP:
                return None
            self.set_up = self.moves
        event = EVENTS.get(self.moves - self.set_up)
        return event if event not in self.done else None

    def host_post(self, path: str, **form: Any) -> None:
        answer = self.screen.post(f"/t/{self.table.code}/{path}", data=form)
        assert answer.status_code == 303, f"the host's {path}: {answer.status_code}"

    def free(self, _: int) -> None:
        """The host frees the seat the game waits for; everything is drawn, not a blank
        name anywhere; then a newcomer asks for the seat and the host lets them in."""
        found = self.turn()
        assert found is not None
        seat = found[0]
        self.host_post("free", seat=seat)
        self.draw_everything()
        newcomer = self.app.test_client()
        asked = newcomer.post(f"/j/{self.table.code}", data={"name": "Zoé", "seat": seat})
        assert asked.status_code == 303
        (request_id,) = self.live.requests
        self.host_post("admit", request=request_id)
        newcomer.get(f"/t/{self.table.code}/wait")  # the seat's cookie
        self.phones[seat] = newcomer

    def take_back(self, mover: int) -> None:
        """The last mover takes their move back, or the host does where the game says it
        revealed something."""
        seq = self.live.match.seq
        self.phones[mover].post(f"/t/{self.table.code}/undo")
        if self.live.match.seq == seq:
            shown = self.live.match.last_shown()
            assert shown is not None
            self.host_post("host-undo", undo=self.live.match.number_of(
                self.live.match.steps[shown].entry.seq, None))
        assert self.live.match.seq > seq

    def rewind(self, _: int) -> None:
        """The host rewinds to before the third move from the end the screen shows, from
        the line's link, through its confirmation."""
        shown = self.shown_moves()
        self.get(self.screen, f"/t/{self.table.code}/rewind", "the rewind's confirmation",
                 to=shown[-3])
        self.host_post("rewind", to=shown[-3], last=self.live.match.seq_for(None))
        assert self.shown_moves() == shown[:-3]

    def shown_moves(self) -> list[int]:
        """The moves in effect the table screen shows, by the screen's numbers."""
        live = self.live
        return [number for step in live.match.steps
                if (number := live.match.number_of(step.entry.seq, None)) is not None]

    def restart(self, _: int) -> None:
        """A new app on the same database: every client and the table it serves."""
        self.app = make_app({"DATABASE": self.app.config["DATABASE"],
                             "PUBLIC_HOST": "192.168.1.20", "RATE_BURST": 1e9})
        for client in (*self.phones.values(), self.screen, self.stranger, self.table.client):
            client.application = self.app
        self.live = services(self.app).tables.get(self.table.code)


@pytest.mark.parametrize(("spec", "players", "quick", "seed"), GAMES,
                         ids=[f"{spec.id}-{players}" for spec, players, _, _ in GAMES])
def test_a_whole_game_draws_every_page_and_push(app, spec, players, quick, seed):
    game = WholeGame(app, spec, players, quick, seed)
    game.play()
    assert game.moves > 5
    if spec.id == "skyrunner" and not quick:
        # Long enough that the played cards are shuffled into a new deck twice: the line
        # that says so is drawn in both languages, after every move that follows.
        assert sum(effect.get("kind") == "reshuffled" for effect in game.effects) >= 2
