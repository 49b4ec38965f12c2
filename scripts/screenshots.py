"""Take the README's screenshots: a seeded game of In 7th Heaven, a few moves in.

Run: .venv/bin/python scripts/screenshots.py  (needs Debian's chromium)
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS, PHONE  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "shots.sqlite"),
                          "PUBLIC_HOST": "192.168.1.20"})
        httpd = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_port}"
        client = app.test_client()
        body = client.post("/api/tables", json={"game": "seventh-heaven", "players": 4,
                                                "seed": 8}).get_json()
        code, host = body["code"], body["host_token"]
        tokens = []
        for seat, name in enumerate(("Ana", "Ben", "Chloé", "Dev")):
            joined = client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
            tokens.append(joined.get_json()["token"])
        client.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
        rng = random.Random(4)
        table = app.extensions["tables"].get(code)
        for _ in range(9):
            seat = next(s for s in range(4) if table.moves_for(s))
            move = rng.choice([m for m in table.moves_for(seat) if m["type"] == "move"]
                              or table.moves_for(seat))
            app.extensions["tables"].submit(table, seat, move, table.seq, f"s{table.seq}")
        mover = next(s for s in range(4) if table.moves_for(s))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                 args=CHROMIUM_FLAGS)
            screen = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            screen.goto(f"{base}/t/{code}/screen")
            screen.wait_for_timeout(500)
            screen.screenshot(path=str(OUT / "screen.png"), full_page=True)
            phone_context = browser.new_context(**PHONE)
            phone_context.add_cookies([{"name": f"seat_{code}", "value": tokens[mover],
                                        "url": base}])
            phone = phone_context.new_page()
            phone.goto(f"{base}/t/{code}/play")
            phone.locator("#private .cardbtn.playable").first.click()
            phone.wait_for_timeout(400)
            phone.screenshot(path=str(OUT / "phone.png"))
            browser.close()
        httpd.shutdown()


if __name__ == "__main__":
    main()
