"""Every game on an iPhone's browser engine (WebKit) and on Android's Firefox: a phone joins
by the join page, is refused with the rule that forbids what it tapped, makes a move by
taps, and sees another seat's move arrive live, with no error in its console (the
``phone`` fixture fails a test whose pages report one). The other seats play through the
JSON API."""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.paths import STATIC
from tests.conftest import ApiTable
from tests.e2e.browsers.drivers import PATIENCE, Phone, assert_no_page_errors, wait, when_quiet

pytestmark = pytest.mark.browsers

#: Where a finger taps a block of the phone's tower that is not lit, once the tower lights
#: the blocks that may move: the middle of the first one whose middle shows.
BLOCK_NOT_LIT = """if (!document.querySelector("#cl-v-me g.cl-b.lit")) return null;
for (const g of document.querySelectorAll("#cl-v-me g.cl-b:not(.lit)")) {
  g.scrollIntoView({block: "center"});
  const r = g.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  const hit = document.elementFromPoint(x, y);
  if (hit && g.contains(hit)) return [Math.round(x), Math.round(y)];
}
return null;"""


def seq_of(phone: Phone) -> int:
    return int(phone.run("return document.getElementById('status').dataset.seq"))


def until_seq(phone: Phone, seq: int) -> None:
    wait(phone, "return !!document.querySelector(`#status[data-seq='${arguments[0]}']`)", seq,
         what=f"the move of seq {seq}")


def join(phone: Phone, live_server: dict[str, Any], game: str, players: int,
         seed: int) -> ApiTable:
    """A table of ``game``: the phone takes the first seat by the join page, the others join
    through the API, and the host starts with the phone to play first."""
    table = ApiTable(live_server["app"].test_client(), game=game, players=players, seed=seed)
    phone.open(f"{live_server['base']}/j/{table.code}")
    phone.type("input[name=name]", "Ana")
    phone.tap("label.seat-option:has(input[value='0'])")
    phone.tap("button[type=submit]")
    wait(phone, "return document.getElementById('status')?.textContent.includes("
         "'Waiting for the host') && document.querySelector('.whoami').textContent"
         ".includes('Ana')", what="the play page, the name typed")
    for seat in range(1, players):
        joined = table.client.post(f"/api/tables/{table.code}/seats",
                                   json={"name": f"Seat {seat + 1}", "seat": seat})
        assert joined.status_code == 201, joined.get_json()
        table.tokens[seat] = joined.get_json()["token"]
    table.start(first_seat=0)
    wait(phone, "return document.getElementById('status').dataset.myTurn === 'yes'",
         what="the game started, the phone's turn")
    return table


def refused(phone: Phone, game: str) -> None:
    """The phone says why the tap before was refused, naming the game's rule."""
    wait(phone, "return !!document.querySelector(`#notice .rule-id a[href^='/rules/${"
         "arguments[0]}/']`)", game, what="a refusal naming its rule")


def move_by_taps(phone: Phone, *selectors: str) -> None:
    """Tap each of ``selectors`` in turn (each once it shows): the move is made."""
    seq = seq_of(phone)
    for selector in selectors:
        phone.tap(selector)
    until_seq(phone, seq + 1)


def another_seat_moves(phone: Phone, table: ApiTable, seat: int) -> None:
    """``seat`` moves through the API: the phone shows it without a reload."""
    seq = seq_of(phone)
    assert table.post_move(seat, table.moves(seat)[0]).status_code == 200
    until_seq(phone, seq + 1)


#: Per card game: the table, a tap the phone refuses first, and the taps of its move.
CARD_GAMES = [
    pytest.param("seventh-heaven", 4, 8, "#private .cardbtn.dimmed",
                 ("#private .cardbtn.playable", "#picker [data-confirm-move]"),
                 id="seventh-heaven"),
    pytest.param("heuchel-meuchel", 3, 5, "#private [data-place].dimmed",  # column first
                 ("#picker [data-confirm-move][data-value='1']",), id="heuchel-meuchel"),
    pytest.param("skyrunner", 3, 23, "#private .cardbtn.dimmed",
                 ("#private .cardbtn.playable", "#picker [data-confirm-move]"), id="skyrunner"),
]


@pytest.mark.parametrize(("game", "players", "seed", "refused_tap", "move_taps"), CARD_GAMES)
def test_a_card_game(phone: Phone, live_server, game: str, players: int, seed: int,
                     refused_tap: str, move_taps: tuple[str, ...]):
    table = join(phone, live_server, game, players, seed)
    phone.tap(refused_tap)
    refused(phone, game)
    move_by_taps(phone, *move_taps)
    another_seat_moves(phone, table, seat=1)


#: The tower's modules the page fetched (the URL's path and query of each fetch), once it
#: has fetched every one, ``arguments[0]`` of them (the last ones after the first drawing).
TOWER_MODULES = """const urls = performance.getEntriesByType("resource").map((e) => new URL(e.name))
  .filter((u) => u.pathname.startsWith("/static/js/games/climbers/"));
const all = new Set(urls.map((u) => u.pathname)).size === arguments[0];
return all ? urls.map((u) => u.pathname + u.search) : null;"""


def test_climbers(phone: Phone, live_server):
    table = join(phone, live_server, "climbers", players=2, seed=8)
    # the import map (allowed by its hash in the page's policy) sends every module to its
    # hashed URL: none is fetched twice, nor without its hash
    count = len(list((STATIC / "js" / "games" / "climbers").glob("*.js")))
    modules = wait(phone, TOWER_MODULES, count, what="the tower's modules")
    assert len(modules) == count and all("?v=" in url for url in modules), modules
    move_by_taps(phone, "#picker [data-confirm-move]")  # the start tower stands
    phone.tap_at(*when_quiet(phone, BLOCK_NOT_LIT, what="a block not lit"))
    refused(phone, "climbers")
    move_by_taps(phone, "#picker [data-confirm-move][data-value='pass']")
    move_by_taps(phone, "#picker [data-confirm-move][data-value='end']")
    another_seat_moves(phone, table, seat=1)


@pytest.mark.page_errors
def test_an_error_the_page_throws_fails_the_test(phone: Phone, live_server):
    table = ApiTable(live_server["app"].test_client(), game="seventh-heaven")
    phone.open(f"{live_server['base']}/j/{table.code}")
    assert_no_page_errors(phone)
    phone.run("setTimeout(() => { throw new Error('planted'); });")
    deadline = time.monotonic() + PATIENCE  # the page's next task throws
    while not phone.errors() and time.monotonic() < deadline:
        time.sleep(0.05)
    with pytest.raises(AssertionError, match="planted"):
        assert_no_page_errors(phone)
