"""A game is its places and one line in the registry: what each registered game must bring
(the checklist of docs/architecture.md, "Adding a game"), and a throw-away game registered by
the tests alone that the pages, the API, hostile-input and leak suites all cover."""

from __future__ import annotations

import importlib
import pkgutil
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from companion import create_app, games
from companion.games.registry import BY_ID as ENGINES_BY_ID
from companion.games.registry import ENGINES, GAME_IDS, package
from companion.web.games import GAMES
from companion.web.spec import PARTIALS, GameSpec
from tests.conftest import FAKE_GAME

ROOT = Path(__file__).resolve().parents[1]
GAME_CSS = ROOT / "static" / "css" / "games"
FRENCH = ROOT / "companion" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
LANGUAGES = ("en", "fr")


def translated(texts: dict[str, str] | None) -> bool:
    return bool(texts) and all((texts or {}).get(lang) for lang in LANGUAGES)


def untranslated_template_strings(folder: Path) -> list[str]:
    """The interface strings of a game's templates that the French catalogue lacks."""
    with FRENCH.open("rb") as handle:
        catalogue = read_po(handle)
    missing = []
    for path in sorted(folder.glob("*.html")):
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
                for where in untranslated_template_strings(spec.templates_path)]
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

