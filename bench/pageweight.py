"""What a phone downloads the first time it opens its game page, on the wire and unpacked.

Run: .venv/bin/python bench/pageweight.py
For each game, a table of four (or the game's maximum) is made and started through the JSON
API; a phone joins through the join form, then loads its game page and every stylesheet,
script and icon the page names, as Chromium would (Accept-Encoding: gzip, deflate, br,
zstd). A second load shows what a reload costs: hashed assets come from the phone's cache.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from companion import create_app
from companion.web.games import BY_ID

ENCODINGS = "gzip, deflate, br, zstd"
ASSET = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def header_bytes(response) -> int:
    return len(f"HTTP/1.1 {response.status}\r\n") + sum(
        len(f"{name}: {value}\r\n") for name, value in response.headers.items()) + 2


def first_load(game_id: str, database: Path) -> list[tuple[str, int, int, str]]:
    """(url, bytes on the wire, bytes unpacked, Cache-Control) for the page and its assets."""
    app = create_app({"TESTING": True, "DATABASE": str(database), "RATE_BURST": 1e9,
                      "SEEDED_DEALS": True})
    api = app.test_client()
    game = BY_ID[game_id].engine
    players = min(4, game.max_players)
    body = api.post("/api/tables", json={"game": game_id, "players": players, "seed": 1}).json
    code, host = body["code"], body["host_token"]
    for seat in range(1, players):
        api.post(f"/api/tables/{code}/seats", json={"name": f"P{seat}", "seat": seat})
    phone = app.test_client()
    phone.post(f"/j/{code}", data={"name": "Ana", "seat": "0"})
    api.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
    rows = []
    page = phone.get(f"/t/{code}/play", headers={"Accept-Encoding": ENCODINGS})
    html = phone.get(f"/t/{code}/play").get_data(as_text=True)
    rows.append((f"/t/{code}/play", page, len(html.encode())))
    for url in dict.fromkeys(ASSET.findall(html)):
        url = url.replace("&amp;", "&")
        packed = phone.get(url, headers={"Accept-Encoding": ENCODINGS})
        unpacked = phone.get(url)
        rows.append((url, packed, len(unpacked.get_data())))
    return [(url, len(response.get_data()) + header_bytes(response), raw,
             response.headers.get("Cache-Control", "")) for url, response, raw in rows]


def main() -> None:
    print("| game | first load on the wire | unpacked | a reload (hashed assets cached) |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for game_id in BY_ID:
            rows = first_load(game_id, Path(folder) / f"{game_id}.sqlite")
            wire = sum(row[1] for row in rows)
            raw = sum(row[2] for row in rows)
            reload = sum(row[1] for row in rows if "immutable" not in row[3])
            print(f"| {game_id} | {wire / 1024:.1f} KB | {raw / 1024:.1f} KB "
                  f"| {reload / 1024:.1f} KB |")
        print()
        print("In 7th Heaven, file by file:")
        for url, wire, raw, cache in first_load("seventh-heaven", Path(folder) / "x.sqlite"):
            print(f"  {url.split('?')[0]:42} {wire:7d} B on the wire {raw:7d} B  {cache}")


if __name__ == "__main__":
    main()
