"""Take the README's screenshots: seeded games of In 7th Heaven, Heuchel & Meuchel,
SkyRunner and The Climbers, some moves in, on the table screen and on the phone whose turn it is.

Run: .venv/bin/python scripts/screenshots.py  (needs Debian's chromium)
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.browser import CHROMIUM_FLAGS, PHONE  # noqa: E402
from support.strategies.climbers import choose as choose_cl  # noqa: E402
from support.strategies.heuchel_meuchel import choose  # noqa: E402
from support.strategies.skyrunner import choose as choose_sr  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
NAMES = ("Ana", "Ben", "Chloé", "Dev")


def new_table(app: Flask, game: str, players: int, seed: int) -> tuple[Any, list[str]]:
    """A started table with every seat taken; returns it and the seats' tokens."""
    client = app.test_client()
    body = client.post("/api/tables", json={"game": game, "players": players,
                                            "seed": seed}).get_json()
    code, host = body["code"], body["host_token"]
    tokens = [client.post(f"/api/tables/{code}/seats", json={"name": NAMES[seat],
                                                            "seat": seat}).get_json()["token"]
              for seat in range(players)]
    client.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
    return services(app).tables.get(code), tokens


def play(app: Flask, table: Any, count: int, pick, until=lambda table: False) -> int:
    """Play up to ``count`` moves chosen by ``pick(seat, moves)``, stopping early when
    ``until(table)``; returns the seat to move next."""
    for _ in range(count):
        if until(table):
            break
        seat = next(s for s in range(table.row.players) if mover(table, s))
        move = pick(seat, table.match.moves_for(seat))
        services(app).tables.submit(table, seat, move, table.match.seq, f"s{table.match.seq}")
    return next(s for s in range(table.row.players) if mover(table, s))


def mover(table: Any, seat: int) -> bool:
    """A seat with something to do: not one whose set-up or secret choice is done."""
    view = table.match.view_for(seat)
    if view.get("choice") is not None and view["phase"] == "choose":
        return False
    return any(move["type"] != "lift" for move in table.match.moves_for(seat))


def climbing(table: Any) -> bool:
    """A SkyRunner climber, well up the wall, chooses among several places."""
    pending = table.match.state["pending"]
    return (pending is not None and pending["kind"] == "climb" and table.match.state["round"] > 12
            and len(table.match.moves_for(pending["seat"])) > 4)


def climbing_turn(table: Any) -> bool:
    """A Climbers player, some rounds in, begins a turn with places to walk to."""
    state = table.match.state
    return (state["phase"] == "play" and state["round"] > 3 and state["step"] == "before"
            and not state["walked"] and len(table.match.moves_for(state["turn"])) > 100)


def shoot(browser: Browser, base: str, table: Any, token: str, name: str,
          tap: str | None) -> None:
    screen = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    screen.goto(f"{base}/t/{table.code}/screen")
    screen.wait_for_timeout(500)
    screen.screenshot(path=str(OUT / f"{name}screen.png"), full_page=True)
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": f"seat_{table.code}", "value": token, "url": base}])
    phone: Page = context.new_page()
    phone.goto(f"{base}/t/{table.code}/play")
    if tap:
        phone.locator(tap).first.click()
    phone.wait_for_timeout(400)
    phone.screenshot(path=str(OUT / f"{name}phone.png"))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "shots.sqlite"),
                          "PUBLIC_HOST": "192.168.1.20", "SEEDED_DEALS": True,
                          "RATE_BURST": 1e9})
        httpd = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_port}"
        rng = random.Random(4)
        heaven, heaven_tokens = new_table(app, "seventh-heaven", 4, 8)
        heaven_turn = play(app, heaven, 9, lambda seat, moves: rng.choice(
            [m for m in moves if m["type"] == "move"] or moves))
        hm, hm_tokens = new_table(app, "heuchel-meuchel", 3, 5)
        hm_turn = play(app, hm, 44, lambda seat, moves: choose(hm.match.view_for(seat), moves))
        sky, sky_tokens = new_table(app, "skyrunner", 3, 23)
        sky_turn = play(app, sky, 400,
                        lambda seat, moves: choose_sr(sky.match.view_for(seat), moves),
                        until=climbing)
        climb, climb_tokens = new_table(app, "climbers", 3, 8)
        climb_turn = play(app, climb, 200,
                          lambda seat, moves: choose_cl(climb.match.view_for(seat), seat, moves),
                          until=climbing_turn)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=CHROMIUM_FLAGS)
            shoot(browser, base, heaven, heaven_tokens[heaven_turn], "",
                  "#private .cardbtn.playable")
            shoot(browser, base, hm, hm_tokens[hm_turn], "hm-", "#private .stackbtn.playable")
            shoot(browser, base, sky, sky_tokens[sky_turn], "sr-", None)
            shoot(browser, base, climb, climb_tokens[climb_turn], "cl-",
                  "#picker button.option[data-value='block']")
            browser.close()
        httpd.shutdown()


if __name__ == "__main__":
    main()
