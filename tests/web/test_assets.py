"""Pages and assets are compressed; assets have content-hashed URLs cached for a year; a
phone's first load of its game page stays small; no page asks for a file that is not there."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import brotli
import pytest

from companion.paths import STATIC
from companion.web.games import BY_ID
from tests.conftest import ApiTable

ENCODINGS = "gzip, deflate, br, zstd"
ASSET = re.compile(r'(?:src|href)="(/static/[^"]+)"')
#: 40 KB until the colour letters, the focus moves and the large-text rules (issue 34) took
#: The Climbers' phone, the heaviest, from 39.8 to 41.5 KB.
FIRST_LOAD_BUDGET = 45 * 1024


def seated_phone(app, game_id: str):
    """A phone seated at a started table of ``game_id`` (through the join form), and its code."""
    api = app.test_client()
    table = ApiTable(api, game=game_id, players=min(4, BY_ID[game_id].max_players))
    for seat in range(1, table.players):
        api.post(f"/api/tables/{table.code}/seats", json={"name": f"P{seat}", "seat": seat})
    phone = app.test_client()
    assert phone.post(f"/j/{table.code}", data={"name": "Ana", "seat": "0"}).status_code == 303
    table.start()
    return phone, table.code


def wire_bytes(response) -> int:
    return len(response.get_data()) + sum(
        len(f"{name}: {value}\r\n") for name, value in response.headers.items())


@pytest.mark.parametrize("game_id", list(BY_ID))
def test_a_phones_first_load_of_its_game_page_is_at_most_45_kb_on_the_wire(app, game_id):
    phone, code = seated_phone(app, game_id)
    page = phone.get(f"/t/{code}/play", headers={"Accept-Encoding": ENCODINGS})
    assert page.status_code == 200 and page.headers["Content-Encoding"] in {"br", "zstd", "gzip"}
    html = phone.get(f"/t/{code}/play").get_data(as_text=True)
    assets = [url.replace("&amp;", "&") for url in dict.fromkeys(ASSET.findall(html))]
    assert len(assets) >= 4
    total = wire_bytes(page)
    for url in assets:
        response = phone.get(url, headers={"Accept-Encoding": ENCODINGS})
        assert response.status_code == 200, url
        total += wire_bytes(response)
    assert total <= FIRST_LOAD_BUDGET, total


def test_pages_and_assets_are_compressed_for_a_browser_that_accepts_it(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["Vary"]
    html = client.get("/").get_data(as_text=True)
    script = next(url for url in ASSET.findall(html) if "htmx.min.js" in url)
    packed = client.get(script.replace("&amp;", "&"), headers={"Accept-Encoding": "br"})
    assert packed.headers["Content-Encoding"] == "br"
    plain = client.get(script.replace("&amp;", "&"))
    assert "Content-Encoding" not in plain.headers
    assert len(packed.get_data()) < len(plain.get_data()) / 2


def test_a_hashed_asset_is_sent_as_brotli_at_its_best_and_unpacks_to_the_file(client):
    """An asset that never changes is packed once with Brotli's best quality: smaller than
    the quick packing a page gets, and the same bytes once unpacked."""
    html = client.get("/").get_data(as_text=True)
    for url in (u.replace("&amp;", "&") for u in ASSET.findall(html)):
        packed = client.get(url, headers={"Accept-Encoding": ENCODINGS})
        assert packed.headers["Content-Encoding"] == "br", url
        assert "Accept-Encoding" in packed.headers["Vary"]
        file = (STATIC / url.split("?")[0].removeprefix("/static/")).read_bytes()
        assert brotli.decompress(packed.get_data()) == file, url
        assert len(packed.get_data()) <= len(brotli.compress(file, quality=4)), url


def test_assets_carry_their_content_hash_and_are_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    urls = ASSET.findall(html)
    assert {"css/companion.css", "vendor/htmx.min.js", "vendor/hx-ws.js", "js/companion.js",
            "img/favicon.svg"} <= {url.split("?")[0].removeprefix("/static/") for url in urls}
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        response = client.get(url)
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert not {"ETag", "Last-Modified"} & set(response.headers.keys()), url
    # Without its current hash (an old page, a typed URL), an asset is revalidated.
    stale = client.get("/static/css/companion.css?v=000000000000")
    assert stale.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/css/companion.css").headers["Cache-Control"] == "no-cache"
    assert "ETag" in stale.headers  # and can be revalidated


def test_an_asset_changed_on_disk_gets_a_new_url(app, tmp_path):
    app.static_folder = str(tmp_path)
    (tmp_path / "a.css").write_text("p { color: red; }")
    with app.test_request_context("/"):
        from companion.web.assets import asset_url

        first = asset_url("a.css")
        (tmp_path / "a.css").write_text("p { color: blue; }")
        assert asset_url("a.css") != first


TOWER = STATIC / "js" / "games" / "climbers"
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>')


def test_the_towers_modules_come_under_their_hashed_urls(app):
    """The Climbers' page maps each module of the tower from its plain URL (what a relative
    import names) to its hashed one, cached for a year, in an import map its policy names;
    it preloads the modules of the first drawing; the rest come after it, by ``import()``."""
    phone, code = seated_phone(app, "climbers")
    response = phone.get(f"/t/{code}/play")
    html = response.get_data(as_text=True)
    found = IMPORT_MAP.search(html)
    assert found is not None
    digest = base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}';" in response.headers["Content-Security-Policy"]
    imports = json.loads(found.group(1))["imports"]
    assert sorted(imports) == sorted(f"/static/{p.relative_to(STATIC)}" for p in TOWER.glob("*.js"))
    for plain, hashed in imports.items():
        content = (STATIC / plain.removeprefix("/static/")).read_bytes()
        assert hashed == f"{plain}?v={hashlib.sha256(content).hexdigest()[:12]}"
        cached = phone.get(hashed).headers["Cache-Control"]
        assert cached == "public, max-age=31536000, immutable", plain
    entry = re.findall(r'<script type="module" src="([^"]+)"></script>', html)
    assert entry == [imports["/static/js/games/climbers/views.js"]]
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert preloaded and set(preloaded) <= set(imports.values())
    named = {url.split("?")[0].rsplit("/", 1)[1] for url in ASSET.findall(html)}
    assert {"views.js", "projection.js", "paint.js"} <= named
    assert not {"more.js", "zoom.js", "gestures.js", "taps.js"} & named


def test_a_module_changed_on_disk_gets_a_new_url_in_the_import_map(app, tmp_path):
    app.static_folder = str(tmp_path)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a.js").write_text('import {b} from "./b.js";\nimport("./d.js");\n')
    (tmp_path / "m" / "b.js").write_text('import {\n  c,\n} from "./c.js";\nexport const b = c;\n')
    (tmp_path / "m" / "c.js").write_text("export const c = 1;\n")
    (tmp_path / "m" / "d.js").write_text("export const d = 1;\n")
    with app.test_request_context("/"):
        from companion.web.assets import asset_url
        from companion.web.modules import import_map, module_preloads

        assert module_preloads("m/a.js") == [asset_url("m/b.js"), asset_url("m/c.js")]
        first = json.loads(import_map("m"))["imports"]
        assert sorted(first) == [f"/static/m/{name}.js" for name in "abcd"]
        (tmp_path / "m" / "c.js").write_text("export const c = 2;\n")
        again = json.loads(import_map("m"))["imports"]
    assert again["/static/m/c.js"] != first["/static/m/c.js"]
    assert again["/static/m/a.js"] == first["/static/m/a.js"]


def test_the_favicon_is_served(client):
    html = client.get("/").get_data(as_text=True)
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html).group(1)
    assert client.get(icon.replace("&amp;", "&")).status_code == 200
    assert client.get("/favicon.ico").status_code == 200


VENDOR = STATIC / "vendor"


def test_every_vendored_file_is_the_one_its_lock_names():
    """static/vendor holds exactly the files scripts/vendor wrote, unchanged, each package
    with its version, licence and licence text recorded."""
    lock = json.loads((VENDOR / "vendor.json").read_text())
    vendored = {name for entry in lock.values() for name in entry["files"]}
    assert {path.name for path in VENDOR.iterdir()} == vendored | {"vendor.json"}
    for package, entry in lock.items():
        assert entry["version"] and entry["license"] and entry["integrity"], package
        assert set(entry["sha256"]) == set(entry["files"]), package
        assert "LICENSE" in entry["files"].values(), f"{package}: its licence text is missing"
        for name, digest in entry["sha256"].items():
            assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, (
                f"{name} is not the file of {package}@{entry['version']}: run scripts/vendor")


def test_the_vendored_htmx_is_the_version_the_lock_names():
    lock = json.loads((VENDOR / "vendor.json").read_text())["htmx.org"]
    declared = re.search(r'this\.version="([^"]+)"', (VENDOR / "htmx.min.js").read_text())
    assert declared is not None and declared.group(1) == lock["version"]


def test_the_vendored_nosleep_is_the_version_the_lock_names():
    lock = json.loads((VENDOR / "vendor.json").read_text())["nosleep.js"]
    declared = re.search(r"NoSleep\.min\.js v(\S+)", (VENDOR / "NoSleep.min.js").read_text())
    assert declared is not None and declared.group(1) == lock["version"]


def test_the_keep_awake_script_is_no_part_of_a_phones_first_load(app):
    """NoSleep's script (17 KB, its videos inline) is fetched by companion.js only where the
    Wake Lock API is missing: the page names it, and loads it not."""
    phone, code = seated_phone(app, "seventh-heaven")
    html = phone.get(f"/t/{code}/play").get_data(as_text=True)
    assert "NoSleep.min.js" not in "".join(ASSET.findall(html))
    lazy = re.search(r'data-no-sleep="([^"]+)"', html)
    assert lazy is not None and phone.get(lazy.group(1).replace("&amp;", "&")).status_code == 200
