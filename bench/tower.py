"""How long Chromium takes to draw The Climbers' tower again (static/js/tower.js).

Run: .venv/bin/python bench/tower.py [--runs N]

A seeded game of three is played some turns in (support/cl_strategy.py), then a phone at
360 × 740 and the table screen at 1920 × 1080 open it in Debian's Chromium. On each page
the tower is drawn again ``runs`` times from its records, as after a push (reading the
records, projecting, ordering the faces, writing the SVG); on the phone also
with the 192-odd ghost blocks of a block being placed, and turned by a swipe's step. The
time of each drawing is taken in the page with ``performance.now()`` around the call and a
forced layout (``getBBox``), and the median and the worst are printed in milliseconds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.web.services import services  # noqa: E402
from support.browser import CHROMIUM_FLAGS, PHONE  # noqa: E402
from support.cl_strategy import choose  # noqa: E402

NAMES = ("Ana", "Ben", "Chloé")
#: Draws the tower ``runs`` times, each forced through layout, and returns the times.
TIME = """(runs) => {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    window.clTower.redraw(true);
    for (const svg of document.querySelectorAll("svg.cl-3d")) svg.getBBox();
    times.push(performance.now() - start);
  }
  return times;
}"""


def timed(page: Page, runs: int) -> str:
    times = page.evaluate(TIME, runs)
    return f"median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "tower.sqlite"), "RATE_BURST": 1e9,
                          "SEEDED_DEALS": True})
        httpd = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_port}"
        client = app.test_client()
        body = client.post("/api/tables", json={"game": "climbers", "players": 3,
                                                "seed": 8}).get_json()
        code = body["code"]
        tokens = [client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
                  .get_json()["token"] for seat, name in enumerate(NAMES)]
        client.post(f"/api/tables/{code}/start",
                    headers={"Authorization": f"Bearer {body['host_token']}"})
        tables = services(app).tables
        table = tables.get(code)
        for number in range(30):
            seat = table.state["turn"]
            move = {"type": "built"} if table.state["phase"] == "build" else choose(
                table.view_for(seat), seat, table.moves_for(seat))
            tables.submit(table, seat, move, table.seq, f"tower-{number}")
        seat = table.state["turn"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=CHROMIUM_FLAGS)
            screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
            screen.goto(f"{base}/t/{code}/screen")
            screen.wait_for_selector("#cl-v-main g.cl-b")
            print(f"table screen, 1920 × 1080, four views: {timed(screen, args.runs)}")
            context = browser.new_context(**PHONE)
            context.add_cookies([{"name": f"seat_{code}", "value": tokens[seat], "url": base}])
            phone = context.new_page()
            phone.goto(f"{base}/t/{code}/play")
            phone.wait_for_selector("#cl-v-me g.cl-b")
            print(f"phone, 360 × 740, the tower: {timed(phone, args.runs)}")
            block = phone.locator("#cl-v-me g.cl-b.lit").first.get_attribute("data-block")
            phone.evaluate("""(block) => htmx.ajax("GET", document.getElementById("cl-ask")
              .dataset.url + "?pick=" + encodeURIComponent(JSON.stringify(
              {type: "block", block})), {target: "#picker", swap: "outerHTML"})""", block)
            phone.wait_for_selector("#cl-v-me .cl-ghost-dot")
            ghosts = phone.locator("#cl-v-me .cl-ghost-dot").count()
            print(f"phone, the tower and {ghosts} ghost blocks: {timed(phone, args.runs)}")
            browser.close()
        httpd.shutdown()


if __name__ == "__main__":
    main()
