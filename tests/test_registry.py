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
from collections.abc import Callable
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
from tests.conftest import FAKE_GAME, GAMES_UNDER_TEST

ROOT = Path(__file__).resolve().parents[1]
GAME_CSS = ROOT / "static" / "css" / "games"
#: The scripts every page may load; a game's own are in ``static/js/games/<id>/``.
SCRIPTS = ROOT / "static" / "js"
GAME_SCRIPTS = SCRIPTS / "games"
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


def shared_scripts() -> list[Path]:
    """The scripts under ``static/js/`` outside the games' own folders."""
    return sorted(path for path in SCRIPTS.rglob("*.js") if GAME_SCRIPTS not in path.parents)


def shared_files_naming_a_game() -> list[str]:
    """The companion's modules, templates, stylesheets and scripts outside the games' own
    places and the registry's list that name a registered game's id as a string or an
    attribute's value (a branch such as ``game_id == 'climbers'``, a rule on
    ``[data-game=climbers]``)."""
    named = re.compile("|".join(rf"[\"'=]{re.escape(game_id)}[\"'\]]" for game_id in GAME_IDS))
    games = ROOT / "companion" / "games"
    shared = [path for path in (ROOT / "companion").rglob("*.py")
              if (games not in path.parents or path.parent == games)
              and path != games / "registry.py"]
    shared += [path for path in (ROOT / "templates").rglob("*.html")
               if (ROOT / "templates" / "games") not in path.parents]
    shared += [path for path in (ROOT / "static").rglob("*.css") if GAME_CSS not in path.parents]
    shared += shared_scripts()
    return sorted(str(path.relative_to(ROOT)) for path in shared
                  if named.search(path.read_text()))


#: A script a page loads, named by its path under ``static/`` (or its folder's, an import
#: map's): ``asset_url('js/companion.js')``, ``import_map('js/games/climbers')``.
LOADED = re.compile(r"""["'](js/[\w./-]+)["']""")


def loaded(script: str, texts: list[str]) -> bool:
    """Whether ``texts`` name ``script`` (its path under ``static/``) or its folder."""
    return any(script == named or script.startswith(named + "/")
               for text in texts for named in LOADED.findall(text))


def scripts_of_one_game(scripts: list[str]) -> list[str]:
    """The ``scripts`` (paths under ``static/``) that one game's places load and no shared
    place does: that game's scripts, which belong in its own ``static/js/games/<id>/``."""
    shared = shared_sources()
    games = {spec.id: sources_of(spec) for spec in GAMES_UNDER_TEST}
    return [f"{script} ({game_id})" for script in scripts if not loaded(script, shared)
            for game_id, texts in games.items() if loaded(script, texts)]


def test_no_shared_module_template_stylesheet_or_script_names_a_game():
    assert shared_files_naming_a_game() == []
    shared = [str(path.relative_to(ROOT / "static")) for path in shared_scripts()]
    assert scripts_of_one_game(shared) == []


def test_the_script_scan_names_a_script_only_one_games_places_load():
    assert scripts_of_one_game(["js/companion.js", "js/games/climbers/views.js",
                                "js/games/climbers/more.js"]) == [
        "js/games/climbers/views.js (climbers)", "js/games/climbers/more.js (climbers)"]


#: The stylesheets every game's pages share (a game's own are in ``static/css/games/``).
SHARED_STYLESHEETS = ROOT / "static" / "css"
#: Where a page's classes come from: markup, the code that writes it, the scripts.
SOURCE_SUFFIXES = (".html", ".py", ".js", ".css")


def class_selectors(css: str) -> set[str]:
    """The classes named in a stylesheet's selectors (not its comments, nor its at-rules)."""
    rules = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return {f".{name}" for selector in re.findall(r"([^{};]+)\{", rules)
            if not selector.lstrip().startswith("@")
            for name in re.findall(r"\.(-?[_a-zA-Z][\w-]*)", selector)}


def custom_properties(css: str) -> set[str]:
    """The custom properties a stylesheet sets and does not read itself (a game's colours
    that only its own rules paint with), not in its comments."""
    rules = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    read = set(re.findall(r"var\(\s*(--[\w-]+)", rules))
    return set(re.findall(r"(?<![\w-])(--[_a-zA-Z][\w-]*)\s*:", rules)) - read


#: The scripts every game's pages share (its ``*.js``; a game's own are in folders below).
SHARED_SCRIPTS = ROOT / "static" / "js"


#: A script's string literals, and a class named in a selector among them.
JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
SELECTED_CLASS = re.compile(r"(?:^|(?<=[\s,>+~(\w\]*]))\.(-?[_a-zA-Z][\w-]*)")


def script_selectors(js: str) -> set[str]:
    """The classes named in a script's selectors: a class after the start, a space or a
    selector's punctuation in one of its string literals (not its comments)."""
    code = re.sub(r"^\s*//.*$", "", js, flags=re.MULTILINE)
    return {f".{name}" for literal in JS_STRING.findall(code)
            for name in SELECTED_CLASS.findall(literal[1:-1])}


def shared_sources(but: Path | None = None) -> list[str]:
    """The shared templates and modules (but the games' and the registry's list), and the
    scripts every page loads (``static/js/*.js``), but the file ``but`` being scanned."""
    games = ROOT / "companion" / "games"
    paths = [path for path in (ROOT / "companion").rglob("*.py")
             if games not in path.parents or path.parent == games]
    paths += [path for path in (ROOT / "templates").rglob("*.html")
              if (ROOT / "templates" / "games") not in path.parents]
    paths += sorted(SHARED_SCRIPTS.glob("*.js"))
    return [path.read_text() for path in paths if path != but]


def sources_of(spec: GameSpec) -> list[str]:
    """A game's own places: its templates, its package, its stylesheets, its scripts."""
    module = importlib.import_module(type(spec.engine).__module__.rsplit(".", 1)[0])
    paths = [*spec.templates_path.rglob("*"), *Path(str(module.__file__)).parent.rglob("*"),
             *GAME_CSS.glob(f"{spec.id}.css"), *GAME_CSS.glob(f"{spec.id}-*.css"),
             *(GAME_SCRIPTS / spec.id).rglob("*.js")]
    return [path.read_text() for path in paths if path.suffix in SOURCE_SUFFIXES]


def classes_of_one_game(files: list[Path],
                        names: Callable[[str], set[str]] = class_selectors) -> list[str]:
    """The classes that ``files`` select (stylesheets; with ``script_selectors`` scripts;
    with ``custom_properties`` a stylesheet's custom properties) that only one game's places
    use, no other shared template, module or script: rules that belong in that game's own
    places. (A class several games use and no shared place is one component they share, or
    one to split.)"""
    games = {spec.id: sources_of(spec) for spec in GAMES_UNDER_TEST}
    found = []
    for file in files:
        shared = shared_sources(but=file)
        for name in sorted(names(file.read_text())):
            word = re.compile(rf"(?<![\w-]){re.escape(name.removeprefix('.'))}(?![\w-])")
            if any(word.search(text) for text in shared):
                continue
            users = [game_id for game_id, texts in games.items()
                     if any(word.search(text) for text in texts)]
            if len(users) == 1:
                found.append(f"{file.name}: {name} ({users[0]})")
    return found


def test_no_shared_stylesheet_styles_a_class_of_one_game():
    assert classes_of_one_game(sorted(SHARED_STYLESHEETS.glob("*.css"))) == []


def test_no_shared_stylesheet_holds_a_custom_property_of_one_game():
    """A game's colours (``--cl-red``) are set in its own stylesheet, not the shared one."""
    assert classes_of_one_game(sorted(SHARED_STYLESHEETS.glob("*.css")), custom_properties) == []


def test_the_custom_property_scan_names_one_games_colours(tmp_path):
    sheet = tmp_path / "shared.css"
    sheet.write_text(":root { --ink: #111; /* --sr-red: */ --cl-red: #d62828;\n"
                     "  --cl-violet: #7b2cbf; }\n"
                     ".swatch { background: var(--cl-violet); color: var(--ink); }")
    assert classes_of_one_game([sheet], custom_properties) == ["shared.css: --cl-red (climbers)"]


def test_no_shared_script_selects_a_class_of_one_game():
    assert classes_of_one_game(sorted(SHARED_SCRIPTS.glob("*.js")), script_selectors) == []


def test_the_script_scan_names_a_class_only_one_games_templates_use(tmp_path):
    script = tmp_path / "shared.js"
    script.write_text("// .stackbtn\n"
                      "document.querySelector(\".ladder .rung.chosen, svg.cl-3d [role=button]\");\n"
                      "el.closest(`#private .cl-step-nav`);\n")
    assert classes_of_one_game([script], script_selectors) == [
        "shared.js: .cl-3d (climbers)", "shared.js: .cl-step-nav (climbers)",
        "shared.js: .rung (heuchel-meuchel)"]


def test_the_stylesheet_scan_names_a_class_only_one_games_templates_use(tmp_path):
    sheet = tmp_path / "shared.css"
    sheet.write_text("/* .stackbtn */ .picker .cl-sitting button.chosen { margin: .4rem 0; }\n"
                     "@media (max-height: 30em) { .hm-card, .cardbtn { font: .9rem/1.2 a; } }")
    assert classes_of_one_game([sheet]) == ["shared.css: .cl-sitting (climbers)",
                                            "shared.css: .hm-card (heuchel-meuchel)"]


def test_the_project_settings_name_no_game():
    """No per-game list in pyproject.toml: the contracts name the games by wildcard."""
    settings = (ROOT / "pyproject.toml").read_text()
    assert [game_id for game_id in GAME_IDS
            if game_id in settings or package(game_id) in settings] == []


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
