"""The French catalogues, the shared one and each game's: complete, faithful to their
placeholders, each holding exactly the strings of its own places, saying a string alike
wherever it appears, and in step with the source."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale, gettext

from companion import i18n
from companion.config import Config
from companion.games.seventh_heaven.web import SPEC as SEVENTH_HEAVEN
from support.catalogues import (
    SHARED,
    Places,
    compiled,
    every,
    extract,
    key,
    keys,
    known_translations,
    updated,
)
from tests.conftest import GAMES_UNDER_TEST, make_app

#: The shared catalogue, then each game's: the registered games', and High Card's
#: (tests/fake_game), which the tests register.
CATALOGUES = every(GAMES_UNDER_TEST)
SHARED_PLACES = CATALOGUES[0]

# %(name)s, %(num)d, %(x)r, %(n)05.2f ... and the literal %%.
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]")

every_catalogue = pytest.mark.parametrize("place", CATALOGUES, ids=lambda place: place.name)


def load_fr(place: Places) -> Catalog:
    return place.load("fr")


def french_messages() -> list[Message]:
    """Every message of every French catalogue (a string in two catalogues, twice)."""
    return [message for place in CATALOGUES for message in messages(load_fr(place))]


def messages(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def forms(message: Message) -> tuple[str, ...]:
    strings = message.string
    return tuple(strings) if isinstance(strings, (tuple, list)) else (strings,)


def placeholders(text: str) -> Counter[str]:
    return Counter(match.group(0) for match in PLACEHOLDER.finditer(text))


@cache
def extracted() -> dict[str, Catalog]:
    """Every string of the source, extracted as babel.cfg maps the files, by catalogue."""
    return extract(CATALOGUES)


@every_catalogue
def test_every_message_has_a_french_translation(place):
    catalog = load_fr(place)
    assert catalog.num_plurals == 2 and catalog.plural_expr == "(n > 1)"
    assert messages(catalog), f"the French catalogue of {place.name} is empty"
    assert not catalog.obsolete, f"obsolete entries left: {list(catalog.obsolete)}"
    for message in messages(catalog):
        assert not message.fuzzy, f"fuzzy: {message.id!r}"
        strings = forms(message)
        if message.pluralizable:
            assert len(strings) == catalog.num_plurals, f"plural forms: {message.id!r}"
        assert all(s.strip() for s in strings), f"untranslated: {message.id!r}"


@every_catalogue
def test_placeholders_survive_translation(place):
    catalog = load_fr(place)
    for message in messages(catalog):
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        for index, string in enumerate(forms(message)):
            source = ids[min(index, len(ids) - 1)]
            assert placeholders(string) == placeholders(source), (
                f"{message.id!r}: {string!r} does not keep the placeholders of {source!r}")
        assert not list(message.check(catalog)), f"{message.id!r}: {list(message.check(catalog))}"


def test_the_extraction_finds_the_strings_of_each_place():
    assert ("Start a table", None) in keys(extracted()[SHARED]), "check babel.cfg"
    assert all(keys(extracted()[place.name]) for place in CATALOGUES), "a place says nothing"


@every_catalogue
def test_every_catalogue_holds_exactly_the_strings_of_its_places(place):
    """Its template and its French hold what its places say, no more (run
    scripts/translations, then translate what it lists)."""
    said = keys(extracted()[place.name])
    with place.template.open("rb") as template:
        assert keys(read_po(template)) == said, f"{place.template} is stale"
    french = keys(load_fr(place))
    assert sorted(map(str, said - french)) == [], "strings without French"
    assert sorted(map(str, french - said)) == [], "strings no place of it says"


def test_the_shared_catalogue_holds_no_string_said_only_in_a_games_places():
    only_games = set().union(*(keys(extracted()[place.name]) for place in CATALOGUES[1:]))
    only_games -= keys(extracted()[SHARED])
    assert sorted(map(str, keys(load_fr(SHARED_PLACES)) & only_games)) == []


def test_a_string_is_said_alike_in_every_catalogue():
    """The app merges every catalogue into one, so a string in two of them must say the
    same: else one of its places would speak the other's French."""
    said: dict[object, dict[str, object]] = {}
    for place in CATALOGUES:
        for message in messages(load_fr(place)):
            said.setdefault(key(message), {})[place.name] = message.string
    assert {message: where for message, where in said.items()
            if len(set(where.values())) > 1} == {}
    assert any(len(where) > 1 for where in said.values()), "no string is shared: check it"


def test_a_new_catalogue_takes_the_french_the_others_give_and_leaves_the_rest_empty(tmp_path):
    """What scripts/translations does for a new game: its catalogue begins with the shared
    one's header (two plural forms) and the French already given to its strings."""
    template = Catalog()
    template.add("Start a table")
    template.add("Nobody has translated this")
    catalog = updated(Places("new", tmp_path), template, "fr",
                      known_translations(CATALOGUES, "fr"))
    assert catalog.num_plurals == 2 and not catalog.fuzzy
    assert catalog.get("Start a table").string == "Démarrer une table"
    assert not catalog.get("Nobody has translated this").string


@every_catalogue
def test_the_committed_mo_is_the_compiled_po(place):
    """The app reads the .mo, committed so that a bare clone and its wheel speak French:
    after changing a .po, run scripts/translations."""
    assert place.mo("fr").read_bytes() == compiled(place, "fr"), (
        f"{place.mo('fr')} is stale: run scripts/translations")


def test_the_app_reads_every_games_catalogue_under_the_shared_one(app):
    assert app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";") == [
        *(str(spec.translations_path) for spec in GAMES_UNDER_TEST), str(SHARED_PLACES.folder)]


def game_catalogue(folder: Path, french: dict[str, str]) -> Path:
    """A game's catalogues folder in ``folder``, saying ``french`` in French."""
    game = folder / "translations"
    (game / "fr" / "LC_MESSAGES").mkdir(parents=True)
    catalog = Catalog(locale="fr")
    for english, said in french.items():
        catalog.add(english, said)
    with (game / "fr" / "LC_MESSAGES" / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)
    return game


def app_with(*game_catalogues: Path) -> Flask:
    """An app speaking the shared catalogue and ``game_catalogues`` under it."""
    app = Flask(__name__)
    app.config.from_object(Config)
    i18n.init_app(app, game_catalogues)
    return app


def test_a_games_catalogue_cannot_change_what_the_shared_one_says(tmp_path):
    """Flask-Babel merges the directories in order, each over the ones before: the shared
    catalogue comes last, so its French wins over a game's."""
    french = {"Start a table": "Autre chose", "Nobody else says this": "Personne d’autre ne le dit"}
    app = app_with(game_catalogue(tmp_path, french))
    with app.test_request_context(), force_locale("fr"):
        assert gettext("Start a table") == "Démarrer une table"
        assert gettext("Nobody else says this") == "Personne d’autre ne le dit"


def test_a_push_is_drawn_with_its_own_apps_catalogues(tmp_path):
    """Two apps in one process offering different games: a drawing in French (a push's,
    ``drawing_in``) says each app's own words, not those of the app that drew first."""
    said = {"Nobody else says this": "Personne d’autre ne le dit"}
    apps = [app_with(game_catalogue(tmp_path, said)), app_with()]
    heard = []
    for app in apps * 2:
        with app.app_context(), i18n.drawing_in("fr"):
            heard.append(i18n.gettext("Nobody else says this"))
    assert heard == ["Personne d’autre ne le dit", "Nobody else says this"] * 2


def test_the_home_page_speaks_french_to_a_french_browser(client):
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Démarrer une table" in page
    assert "Start a table" not in page
    assert '<html lang="fr">' in page


def test_the_home_page_speaks_english_to_an_english_browser(client):
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Start a table" in page
    assert "Démarrer une table" not in page
    assert '<html lang="en">' in page


def test_the_partner_cards_are_named_in_french():
    """The names printed on the partner cards stay as printed; a card named by its colour
    is named in the reader's language."""
    app = make_app({"DATABASE": ":memory:"})
    with app.test_request_context(), force_locale("fr"):
        names = {colour: SEVENTH_HEAVEN.helpers.partner(colour) for colour in
                 ("red", "blue", "grey", "yellow", "green", "pink")}
    assert names["green"] == "Partenaire vert" and names["pink"] == "Partenaire rose"
    assert names["red"] == "Vanessa Vamp"
    assert not any("partner" in name for name in names.values())
