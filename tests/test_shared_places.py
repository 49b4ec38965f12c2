"""Nothing of a game outside its own places: no shared module, template, stylesheet or
script names a game, styles or selects a class or sets a colour that only one game uses,
or is loaded by one game's places alone; and the project's settings list no game (the
import contracts cover the games by wildcard). docs/architecture.md, "Adding a game"."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from companion.games.registry import GAME_IDS, package
from companion.web.spec import GameSpec
from tests.conftest import GAMES_UNDER_TEST

ROOT = Path(__file__).resolve().parents[1]
COMPANION = ROOT / "companion"
GAME_PACKAGES = COMPANION / "games"
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
GAME_CSS = STATIC / "css" / "games"
#: The scripts every page may load; a game's own are in ``static/js/games/<id>/``.
SCRIPTS = STATIC / "js"
GAME_SCRIPTS = SCRIPTS / "games"


def shared_code() -> list[Path]:
    """The shared modules (not the games' packages, nor the registry's list) and templates
    (not ``templates/games/``)."""
    paths = [path for path in COMPANION.rglob("*.py")
             if (GAME_PACKAGES not in path.parents or path.parent == GAME_PACKAGES)
             and path != GAME_PACKAGES / "registry.py"]
    return paths + [path for path in TEMPLATES.rglob("*.html")
                    if TEMPLATES / "games" not in path.parents]


def shared_scripts() -> list[Path]:
    """The scripts under ``static/js/`` outside the games' own folders."""
    return sorted(path for path in SCRIPTS.rglob("*.js") if GAME_SCRIPTS not in path.parents)


def shared_stylesheets() -> list[Path]:
    """The stylesheets under ``static/`` outside the games' own folder."""
    return sorted(path for path in STATIC.rglob("*.css") if GAME_CSS not in path.parents)


def shared_files_naming_a_game() -> list[str]:
    """The shared modules, templates, stylesheets and scripts that name a registered game's
    id as a string or an attribute's value (a branch such as ``game_id == 'climbers'``, a
    rule on ``[data-game=climbers]``)."""
    named = re.compile("|".join(rf"[\"'=]{re.escape(game_id)}[\"'\]]" for game_id in GAME_IDS))
    shared = [*shared_code(), *shared_stylesheets(), *shared_scripts()]
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
    """The texts of the shared modules, templates and scripts, but the file ``but`` being
    scanned."""
    paths = [*shared_code(), *shared_scripts()]
    return [path.read_text() for path in paths if path != but]


def sources_of(spec: GameSpec) -> list[str]:
    """A game's own places: its templates, its package, its stylesheets, its scripts."""
    paths = [*spec.templates_path.rglob("*"), *spec.package_path.rglob("*"),
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
    assert classes_of_one_game(shared_stylesheets()) == []


def test_no_shared_stylesheet_holds_a_custom_property_of_one_game():
    """A game's colours (``--cl-red``) are set in its own stylesheet, not the shared one."""
    assert classes_of_one_game(shared_stylesheets(), custom_properties) == []


def test_the_custom_property_scan_names_one_games_colours(tmp_path):
    sheet = tmp_path / "shared.css"
    sheet.write_text(":root { --ink: #111; /* --sr-red: */ --cl-red: #d62828;\n"
                     "  --cl-violet: #7b2cbf; }\n"
                     ".swatch { background: var(--cl-violet); color: var(--ink); }")
    assert classes_of_one_game([sheet], custom_properties) == ["shared.css: --cl-red (climbers)"]


def test_no_shared_script_selects_a_class_of_one_game():
    assert classes_of_one_game(shared_scripts(), script_selectors) == []


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
