"""A game is its places and one line in the registry: what each registered game must bring
(the checklist of docs/architecture.md, "Adding a game"), a throw-away game registered by
the tests alone that the pages, the API, hostile-input and leak suites all cover, and a copy
of it added to a copy of the checkout by its places and that line alone."""

from __future__ import annotations

import html
import importlib
import pkgutil
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, Request, build_opener

import pytest
from babel.messages.extract import extract_from_file

from companion import create_app, games
from companion.games.registry import BY_ID as ENGINES_BY_ID
from companion.games.registry import ENGINES, GAME_IDS, package
from companion.web.games import GAMES
from companion.web.spec import PARTIALS, GameSpec
from support.catalogues import of_games
from support.checkout import copy_checkout
from support.server_process import ServerProcess
from tests.conftest import FAKE_GAME

ROOT = Path(__file__).resolve().parents[1]
GAME_CSS = ROOT / "static" / "css" / "games"
LANGUAGES = ("en", "fr")


def translated(texts: dict[str, str] | None) -> bool:
    return bool(texts) and all((texts or {}).get(lang) for lang in LANGUAGES)


def untranslated_template_strings(spec: GameSpec) -> list[str]:
    """The interface strings of a game's templates that the game's own French catalogue
    (``translations/`` of its package) lacks."""
    [places] = of_games([spec])
    catalogue = places.load("fr")
    missing = []
    for path in sorted(spec.templates_path.glob("*.html")):
        for _, message, _, context in extract_from_file("jinja2", str(path)):
            msgid = message[0] if isinstance(message, tuple) else message
            found = catalogue.get(msgid, context=context)
            strings = found.string if found is not None else None
            if not (all(strings) if isinstance(strings, tuple) else strings):
                missing.append(f"{path.name}: {msgid!r}")
    return missing


def missing_parts(spec: GameSpec) -> list[str]:
    """Everything the checklist asks of a game that ``spec`` lacks, in words."""
    missing = [f"partial {name}" for name in PARTIALS
               if not (spec.templates_path / name).is_file()]
    if not (ROOT / "docs" / "games" / f"{spec.id}.md").is_file():
        missing.append(f"docs page docs/games/{spec.id}.md")
    if not (GAME_CSS / f"{spec.id}.css").is_file():
        missing.append(f"stylesheet static/css/games/{spec.id}.css")
    package = type(spec.engine).__module__.rsplit(".", 1)[0]
    try:
        declared = importlib.import_module(f"{package}.types")
    except ImportError:
        declared = None
    if not (hasattr(declared, "Move") and hasattr(declared, "View")):
        missing.append(f"{package}.types with Move and View")
    seed = spec.seed
    if seed.get("id") != spec.id:
        missing.append("seeds id equal to the engine's id")
    if (seed.get("min_players"), seed.get("max_players")) != (spec.min_players,
                                                              spec.max_players):
        missing.append("player counts read from the seeds")
    if not translated(seed.get("name")):
        missing.append("name in English and French")
    if not spec.clauses:
        missing.append("rule clauses")
    missing += [f"clause {rule} in English and French" for rule, clause in spec.clauses.items()
                if not all(clause.get(lang) for lang in LANGUAGES)]
    missing += [f"title of clause {rule} in English and French"
                for rule, clause in spec.clauses.items() if not translated(clause.get("title"))]
    for option in spec.engine.options():
        texts = [option.label, *([option.help] if option.help else []),
                 *(option.choice_labels.get(choice) for choice in option.choices)]
        if not all(translated(text) for text in texts):
            missing.append(f"option {option.key} in English and French")
    missing += [f"French for {where}"
                for where in untranslated_template_strings(spec)]
    return missing


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_every_registered_game_brings_everything_the_checklist_asks(spec):
    assert missing_parts(spec) == []


def test_the_contract_names_each_part_a_game_lacks(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(FAKE_GAME.templates_path, templates)
    (templates / "turn.html").unlink()
    (templates / "waiting.html").write_text("<h1>{{ _('Nobody has translated this') }}</h1>")
    missing = missing_parts(replace(FAKE_GAME, templates=templates))
    assert "partial turn.html" in missing
    assert "docs page docs/games/high-card.md" in missing
    assert "stylesheet static/css/games/high-card.css" in missing
    assert "French for waiting.html: 'Nobody has translated this'" in missing
    assert "tests.fake_game.types with Move and View" in missing
    assert not any("clause" in part or "option" in part or "name" in part for part in missing)


def test_a_game_registered_through_the_registry_alone_is_offered(app):
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    assert 'id="game-high-card"' in home and "High Card" in home
    assert "Cards in each hand" in home
    assert "Carte haute" in client.get("/", headers={"Accept-Language": "fr"}).get_data(True)
    created = client.post("/tables", data={"game": "high-card", "players": "2",
                                           "opt_hand": "4"})
    assert created.status_code == 303
    rules = client.get("/rules/high-card").get_data(as_text=True)
    assert "When every hand is empty, the highest total wins." in rules


def test_the_companion_itself_offers_only_the_registered_games(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "x.sqlite")})
    home = app.test_client().get("/").get_data(as_text=True)
    assert re.findall(r'id="game-([a-z-]+)"', home) == [spec.id for spec in GAMES]


def test_the_pages_offer_the_engines_of_the_registry_in_its_order():
    assert [spec.id for spec in GAMES] == [engine.id for engine in ENGINES]
    assert all(spec.engine is ENGINES_BY_ID[spec.id] for spec in GAMES)


def test_every_package_of_the_games_is_a_registered_game_found_by_its_id():
    """The import contracts cover the games by wildcard (``companion.games.*``): each
    package there is a game of the registry, at the package its id names."""
    found = sorted(f"{games.__name__}.{info.name}"
                   for info in pkgutil.iter_modules(games.__path__) if info.ispkg)
    assert found == sorted(package(game_id) for game_id in GAME_IDS)
    assert all(type(engine).__module__.startswith(package(engine.id) + ".")
               for engine in ENGINES)


def test_the_readme_lists_every_registered_game_with_its_player_counts():
    rows = re.findall(r"^\| (.+?) \| (\d)–(\d) \| (\w+) \|$", (ROOT / "README.md").read_text(),
                      re.MULTILINE)
    assert len(rows) == len(GAMES)
    for (title, low, high, status), spec in zip(rows, GAMES, strict=True):
        assert title.startswith(spec.name("en")), title
        assert (int(low), int(high)) == (spec.min_players, spec.max_players)
        assert status == "playable"


def test_the_engine_benchmark_needs_no_web_layer():
    loaded = subprocess.run(
        [sys.executable, "-c", "import runpy, sys; runpy.run_path('bench/engine.py');"
         "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('flask')}"
         " | {m for m in sys.modules if m.startswith('companion.web')}))"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


# --- a new game is its places and one line -----------------------------------------------

#: High Card's places, kept in one folder in the tests (tests/fake_game/__init__.py).
HIGH_CARD = ROOT / "tests" / "fake_game"


def add_high_card_as(checkout: Path, game_id: str) -> None:
    """High Card's places copied into ``checkout`` under ``game_id``, where the conventions
    find them (its catalogue as it is, compiled ``.mo`` and all, in its package), and its
    id added to the registry's list: the one line outside them."""
    name = game_id.replace("-", "_")
    package = checkout / "companion" / "games" / name
    shutil.copytree(HIGH_CARD / "translations", package / "translations")
    places = {HIGH_CARD / module: package / module
              for module in ("__init__.py", "engine.py", "web.py")}
    places[HIGH_CARD / "high-card.toml"] = checkout / "seeds" / f"{game_id}.toml"
    places |= {HIGH_CARD / f"high-card{kind}.css": checkout / "static" / "css" / "games" /
               f"{game_id}{kind}.css" for kind in ("", "-screen")}
    places |= {path: checkout / "templates" / "games" / game_id / path.name
               for path in (HIGH_CARD / "templates").glob("*.html")}
    renamed = {"high-card": game_id, "tests.fake_game": f"companion.games.{name}",
               "load_seed(GAME_ID, Path(__file__).parent)": "load_seed(GAME_ID)"}
    for source, copy in places.items():
        text = source.read_text()
        for old, new in renamed.items():
            text = text.replace(old, new)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text)
    registry = checkout / "companion" / "games" / "registry.py"
    listed = registry.read_text()
    assert "\n)\n" in listed  # the end of GAME_IDS, one id a line
    registry.write_text(listed.replace("\n)\n", f'\n    "{game_id}",\n)\n', 1))


def git(checkout: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=Tests", "-c", "user.email=tests@localhost",
                           *args], cwd=checkout, check=True, capture_output=True,
                          text=True).stdout


class Browser:
    """A browser of the pages alone: its cookies, forms posted, redirects followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = build_opener(HTTPCookieProcessor(CookieJar()))
        self.url = ""

    def get(self, path: str, headers: dict[str, str] | None = None) -> str:
        return self._open(Request(self.base + path, headers=headers or {}))

    def post(self, path: str, form: dict[str, str]) -> str:
        return self._open(Request(self.base + path, data=urlencode(form).encode()))

    def _open(self, request: Request) -> str:
        with self.opener.open(request, timeout=10) as response:
            self.url = response.geturl()
            return response.read().decode()


def confirm_form(page: str) -> dict[str, str]:
    """The first move a phone's page offers to make at once, as its form posts it."""
    return {name: html.unescape(re.search(rf'name="{name}" value="([^"]*)"', page)[1])
            for name in ("move", "client_move_id", "seq")}


@pytest.mark.slow
def test_a_copy_of_high_card_under_a_new_id_is_a_game_of_its_places_and_one_line(tmp_path):
    checkout = copy_checkout(tmp_path / "checkout")
    git(checkout, "init", "-q")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-q", "-m", "the checkout")
    add_high_card_as(checkout, "low-card")

    assert sorted(git(checkout, "status", "--porcelain").splitlines()) == [
        " M companion/games/registry.py", "?? companion/games/low_card/",
        "?? seeds/low-card.toml", "?? static/css/games/low-card-screen.css",
        "?? static/css/games/low-card.css", "?? templates/games/low-card/"]
    assert git(checkout, "diff", "--numstat").split() == ["1", "0",
                                                          "companion/games/registry.py"]

    server = ServerProcess(tmp_path / "low-card.sqlite", checkout=checkout).start()
    try:
        host = Browser(server.base)
        assert 'id="game-low-card"' in host.get("/")
        screen = host.post("/tables", {"game": "low-card", "players": "2", "opt_hand": "3"})
        code = re.fullmatch(r".*/t/(\w+)/screen", host.url)[1]
        assert "css/games/low-card.css" in screen and "css/games/low-card-screen.css" in screen
        phones = [Browser(server.base) for _ in range(2)]
        for seat, (phone, name) in enumerate(zip(phones, ("Ana", "Ben"), strict=True)):
            phone.post(f"/j/{code}", {"name": name, "seat": str(seat)})
            assert phone.url.endswith(f"/t/{code}/play")
            assert "low-card-screen.css" not in phone.get(f"/t/{code}/play")
        host.post(f"/t/{code}/start", {"first_seat": "0"})
        # High Card's own French, in no other catalogue: the copy's, found in its package.
        assert "Quelle carte jouez-vous ?" in phones[0].get(f"/t/{code}/play",
                                                            {"Accept-Language": "fr"})
        for turn in range(6):
            phone = phones[turn % 2]
            phone.post(f"/t/{code}/move", confirm_form(phone.get(f"/t/{code}/play")))
        assert "Every hand is empty." in host.get(f"/t/{code}/screen")
        assert "When every hand is empty, the highest total wins." in host.get(
            "/rules/low-card")
    finally:
        server.stop()
