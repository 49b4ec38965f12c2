"""Every target a phone draws answers a finger, at 360 × 740 with touch. In one position of a
game under way, at each question of one move (going on each time by the answer to the
question asked that leaves the most moves), every card, stack, square, place and button of
the phone's own things and of the picker is tapped, one at a time, at its drawn centre: each
either does what it shows (the picker asks on or goes back, a move is made) or answers with
a refusal naming the rule in the player's words (English, and French at one position),
never nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.base import has_values
from companion.web.clauses import clause_text, clause_title
from companion.web.games import BY_ID
from companion.web.services import services
from tests.conftest import ApiTable
from tests.e2e.phones import WATCH_REQUESTS, quiet, seated_page, tap
from tests.e2e.playing import play

pytestmark = pytest.mark.e2e

#: What a finger may tap on a phone: the phone's own things (cards, stacks, the squares of a
#: Heuchel & Meuchel column, the places of SkyRunner's wall, each tapped whole at its
#: centre) and every control of theirs and of the picker outside them.
SQUARES = "#private .rung, #private .reach-grid td"
TARGETS = f"""() => {{
  const squares = [...document.querySelectorAll("{SQUARES}")];
  const controls = [...document.querySelectorAll(
    "#private button, #private a, #private .cardbtn, #private [role=button], " +
    "#picker button, #picker a, #picker label, #picker input:not([type=hidden]), #undo button")]
    .filter(el => !el.closest("{SQUARES}"));
  return [...squares, ...controls].filter(el => el.getClientRects().length);
}}"""

#: Counts the taps that reach the page and the requests they send.
COUNT_TAPS = """() => {
  window.__taps = 0; window.__asked = 0;
  document.addEventListener("click", () => { window.__taps += 1; }, true);
  document.addEventListener("htmx:before:request", () => { window.__asked += 1; });
}"""

#: What a tap may change: the picker's question and words, the move made, the address (the
#: pick it holds), the boxes ticked; and the refusal open, if any.
SNAPSHOT = """() => {
  const p = document.getElementById("picker");
  const n = document.getElementById("notice");
  return {question: p ? [p.dataset.step, p.dataset.key, p.innerText].join("|") : "",
          seq: document.getElementById("status").dataset.seq, url: location.href,
          ticked: [...document.querySelectorAll("input:checked")].map(e => e.value).join(),
          rule: n && n.classList.contains("refusal") && n.dataset.rule || null,
          asked: window.__asked, taps: window.__taps};
}"""

#: Brings a target to the middle of the screen, above the panel stuck to the bottom, and
#: says whether a finger at its centre touches it (rather than the panel over it).
IN_REACH = """(el) => {
  el.scrollIntoView({block: "center", behavior: "instant"});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit) && (hit === el || el.contains(hit));
}"""

#: Resolves after two drawn frames: time for a tap's handlers to send their request.
TWO_FRAMES = """() => new Promise(done => requestAnimationFrame(
  () => requestAnimationFrame(() => done())))"""

RULE_WORDS = {"en": "Rule: ", "fr": "Règle : "}
#: The platform's own rule a target may answer with: a card at rest beside a choice made.
PLATFORM_ANSWERS = {"table.choice-stands"}


@dataclass(frozen=True)
class Position:
    """A game under way: the table seeded, the moves played (``playing.play``), the seat
    whose phone is walked, in its language."""
    game: str
    players: int
    seed: int
    played: int
    seat: int
    lang: str = "en"

    def table(self, live_server: dict[str, Any]) -> ApiTable:
        table = ApiTable(live_server["app"].test_client(), game=self.game,
                         players=self.players, seed=self.seed).join_all()
        table.start(first_seat=0)
        play(table, self.game, self.played)
        assert table.moves(self.seat), "the phone walked has nothing to do"
        return table


POSITIONS = [
    # cards no move may take, and a white card that asks which piece it moves
    Position("seventh-heaven", 4, 21, 5, 3),
    # a stack of several cards (stack, how many, square), a face-down pile, empty squares
    Position("heuchel-meuchel", 4, 1, 69, 1),
    # a card chosen while the others choose, in French: the cards at rest, the equipment
    Position("skyrunner", 3, 2, 15, 0, "fr"),
    # a climb: the places in reach, the holes out of it, a place another climber holds
    Position("skyrunner", 3, 2, 12, 1),
]


def pick_of(url: str) -> dict[str, Any]:
    """The values picked so far that a phone's address holds."""
    return json.loads(parse_qs(urlparse(url).query).get("pick", ["{}"])[0])


class Walk:
    """The phone of ``position``'s seat, at one question after another; after a tap that
    makes a move, a fresh table in the same position."""

    def __init__(self, browser: Browser, live_server: dict[str, Any], position: Position):
        self.browser, self.live_server, self.position = browser, live_server, position
        self.silent: list[str] = []
        self.out_of_reach: list[str] = []
        self.told_to_wait: list[str] = []
        self.refusals: set[str] = set()
        self.pick: dict[str, Any] = {}
        self.page: Page | None = None
        self.table = position.table(live_server)

    def open(self) -> Page:
        """The phone at the question walked, just loaded."""
        base, code = self.live_server["base"], self.table.code
        if self.page is None:
            self.page = seated_page(self.browser, base, self.table, self.position.seat,
                                    self.position.lang)
        page = self.page
        page.context.add_cookies([{"name": f"seat_{code}", "url": base,
                                   "value": self.table.tokens[self.position.seat]}])
        pick = json.dumps(self.pick, separators=(",", ":"))
        page.goto(f"{base}/t/{code}/play" + (f"?pick={pick}" if self.pick else ""))
        expect(page.locator("#status")).to_be_visible()
        page.evaluate(WATCH_REQUESTS)
        page.evaluate(COUNT_TAPS)
        return page

    def targets(self, page: Page) -> list[str]:
        return page.evaluate(f"""() => ({TARGETS})().map(el =>
            `${{el.tagName.toLowerCase()}}.${{[...el.classList].join(".")}} ` +
            `"${{el.innerText.replace(/\\s+/g, " ").trim().slice(0, 40)}}"`)""")

    def remaining(self, pick: dict[str, Any]) -> int:
        """How many legal moves have the values ``pick`` holds."""
        live = services(self.live_server["app"]).tables.get(self.table.code)
        with live.lock:
            moves = live.match.pick_moves(self.position.seat, pick)
        return len([move for move in moves if has_values(move, pick)])

    def question(self) -> dict[str, Any] | None:
        """Tap every target of the question walked, each on the phone as the question
        left it; the pick of the question the walk goes on to (of the answers to the
        question, the one that leaves the most moves), or None at the last."""
        page = self.open()
        names = self.targets(page)
        assert names, "nothing to tap"
        onward: list[dict[str, Any]] = []
        as_it_was = True
        for index, name in enumerate(names):
            if not as_it_was:
                page = self.open()
                assert self.targets(page) == names, "the phone drew the question otherwise"
            as_it_was, asked_on = self.tap(page, index, f"{name} at {self.pick}")
            if asked_on is not None:
                onward.append(asked_on)
        return max(onward, key=self.remaining, default=None)

    def tap(self, page: Page, index: int, name: str) -> tuple[bool, dict[str, Any] | None]:
        """Tap target ``index`` and judge the answer: whether the phone is as it was, and
        the pick of a further question it asked."""
        target = page.locator("[data-walked]")
        found = page.evaluate(f"""() => {{
            document.querySelectorAll("[data-walked]").forEach(el => delete el.dataset.walked);
            const el = ({TARGETS})()[{index}];
            el.dataset.walked = "";
            return {{reach: ({IN_REACH})(el), chosen: Boolean(el.closest(".chosen")),
                     disabled: Boolean(el.closest("[aria-disabled=true]"))}};
        }}""")
        if not found["reach"]:
            self.out_of_reach.append(name)
            return True, None
        before = page.evaluate(SNAPSHOT)
        tap(target, force=found["disabled"])  # aria-disabled: drawn not offered, still answers
        page.wait_for_function(f"window.__taps > {before['taps']}")
        page.evaluate(TWO_FRAMES)
        quiet(page)
        after = page.evaluate(SNAPSHOT)
        if after["rule"]:
            self.refused(page, name, after["rule"])
            return page.evaluate(SNAPSHOT)["question"] == before["question"], None
        if after["seq"] != before["seq"]:  # a move made: the walk goes on at a fresh table
            self.table = self.position.table(self.live_server)
            return False, None
        if (after["question"], pick_of(after["url"]), after["ticked"]) == (
                before["question"], pick_of(before["url"]), before["ticked"]):
            # A thing drawn chosen, tapped again, is asked about again and stays chosen.
            if not (after["asked"] > before["asked"] and found["chosen"]):
                self.silent.append(name)
            return True, None
        # The walk goes on by answers to the question asked (not a square tapped before its
        # stack's count is), or by any first answer to a question that asks nothing.
        asked, was, now = before["question"].split("|")[1], pick_of(before["url"]), pick_of(
            after["url"])
        added = set(now) - set(was)
        onward = added and has_values(now, was) and (not asked or asked in added)
        return False, now if onward else None

    def refused(self, page: Page, name: str, rule: str) -> None:
        """The refusal open names its rule as players know it, in the phone's language,
        never "wait your turn" to the seat the game waits for; its OK closes it."""
        notice = page.locator("#notice")
        assert rule not in notice.inner_text(), (name, rule)
        if rule.endswith(".turn.wait"):
            self.told_to_wait.append(name)
        game, lang = self.position.game, self.position.lang
        with self.live_server["app"].app_context():
            words = (clause_text(None, rule, lang) if rule.startswith("table.")
                     else RULE_WORDS[lang] + clause_title(BY_ID[game], rule, lang))
        if rule.startswith("table."):  # the platform's own rule: its words
            assert rule in PLATFORM_ANSWERS, (name, rule)
            expect(notice.locator("p").first).to_have_text(words)
        else:
            link = notice.locator(".rule-id a")
            expect(link).to_have_text(words)
            assert link.get_attribute("href").startswith(f"/rules/{game}/{rule}?"), name
        self.refusals.add(rule)
        tap(notice.locator("[data-dismiss]"))
        expect(notice).to_be_empty()


@pytest.mark.parametrize("position", POSITIONS,
                         ids=[f"{p.game}-{p.played}" for p in POSITIONS])
def test_every_target_does_what_it_shows_or_names_the_rule_against_it(
        browser: Browser, live_server, position: Position):
    walk = Walk(browser, live_server, position)
    questions = 0
    for _ in range(6):
        questions += 1
        onward = walk.question()
        if onward is None:
            break
        walk.pick = onward
    else:
        raise AssertionError("the walk never reached a move's last question")
    assert not walk.out_of_reach, f"covered where a finger taps them: {walk.out_of_reach}"
    assert not walk.silent, f"silent when tapped: {walk.silent}"
    assert not walk.told_to_wait, f"told to wait for their turn: {walk.told_to_wait}"
    assert questions >= 2 and walk.refusals, (questions, walk.refusals)
    if walk.page is not None:
        walk.page.context.close()
