"""Templates import their macros without the caller's context, so Jinja builds each macro
module once and keeps it: drawing a region again builds no module, no macro and no context
that only a garbage collection would free. What a macro needs of the drawing it is given."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask_babel import force_locale, gettext
from jinja2.environment import TemplateModule
from markupsafe import escape

from companion.games.base import clauses
from companion.live import Connection
from companion.web.regions import regions
from companion.web.services import services
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable

BY_GAME = {spec.id: spec for spec in GAMES_UNDER_TEST}
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def modules_built(monkeypatch) -> Iterator[list[str]]:
    """The names of the template modules Jinja builds from now on."""
    built: list[str] = []
    init = TemplateModule.__init__

    def counting(self, template, *args, **kwargs):
        built.append(template.name)
        init(self, template, *args, **kwargs)

    monkeypatch.setattr(TemplateModule, "__init__", counting)
    yield built


def draw(app, live, viewers: list[Connection]) -> dict[tuple, str]:
    """Every viewer's regions drawn from scratch (no drawing kept from before)."""
    drawn: dict[tuple, str] = {}
    for conn in viewers:
        with app.test_request_context(base_url="http://companion/"), force_locale(conn.lang):
            for part in regions(live, conn.seat, conn.is_host):
                drawn[(conn.seat, conn.lang, conn.is_host, part.id)] = part.html
    return drawn


@pytest.mark.parametrize("game", GAME_IDS)
def test_drawing_the_regions_again_builds_no_macro_module(app, game, modules_built):
    players = min(BY_GAME[game].engine.max_players, 3)
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=5)
    table.play_at_random(12, random.Random(5))
    live = services(app).tables.get(table.code)
    viewers = [Connection(None, table.code, seat, lang)
               for seat in range(players) for lang in ("en", "fr")]
    viewers += [Connection(None, table.code, None, "en"),
                Connection(None, table.code, None, "fr", is_host=True)]
    first = draw(app, live, viewers)
    built = len(modules_built)
    again = draw(app, live, viewers)
    assert again == first
    assert modules_built[built:] == []


def test_a_kept_macro_module_speaks_each_drawing_s_language(app, modules_built):
    """The picker's words come from the game's kept ``choice.html`` module: drawn in one
    language, then the other, each says its own."""
    table = ApiTable.started(app.test_client(), game="seventh-heaven", players=2, seed=3)
    live = services(app).tables.get(table.code)
    said = {}
    for lang in ("en", "fr", "en"):
        conn = Connection(None, table.code, 0, lang)
        said[lang] = draw(app, live, [conn])[(0, lang, False, "picker")]
    assert "Tap a card in your hand" in said["en"]
    assert "Touchez une carte de votre main" in said["fr"]
    assert modules_built.count("games/seventh-heaven/choice.html") <= 1


def test_the_rules_pages_build_their_macro_module_once(app, client, modules_built):
    """A rule's words come from the kept ``partials/clause.html``, in each page's language."""
    rule = next(rule for rule, clause in clauses("climbers").items() if clause.get("decision"))
    readings = {}
    for lang in ("en", "fr"):
        with app.test_request_context(), force_locale(lang):
            readings[lang] = str(escape(gettext("Our reading:")))
    assert readings["en"] != readings["fr"]
    for _ in range(2):
        for lang, reading in readings.items():
            for url in ("/rules/climbers", f"/rules/climbers/{rule}"):
                page = client.get(url, headers={"Accept-Language": lang})
                assert page.status_code == 200
                assert reading in page.get_data(as_text=True), (url, lang)
    assert modules_built.count("partials/clause.html") <= 1


def test_no_template_imports_macros_with_the_callers_context():
    """An import ``with context`` is built afresh at every drawing: what its macros read of
    the drawing is passed to them instead."""
    found = [str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
             if "with context" in path.read_text(encoding="utf-8")]
    assert found == []
