"""The French catalogue: complete, faithful to its placeholders, in step with the source."""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from pathlib import Path

from babel.messages import frontend
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask_babel import force_locale

from companion.games.seventh_heaven.web import SPEC as SEVENTH_HEAVEN
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion" / "translations"
FR_PO = TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po"
FR_MO = FR_PO.with_suffix(".mo")

# %(name)s, %(num)d, %(x)r, %(n)05.2f ... and the literal %%.
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def load_fr() -> Catalog:
    with FR_PO.open("rb") as po:
        return read_po(po, locale="fr")


def messages(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def forms(message: Message) -> tuple[str, ...]:
    strings = message.string
    return tuple(strings) if isinstance(strings, (tuple, list)) else (strings,)


def placeholders(text: str) -> Counter[str]:
    return Counter(match.group(0) for match in PLACEHOLDER.finditer(text))


def test_every_message_has_a_french_translation():
    catalog = load_fr()
    assert catalog.num_plurals == 2 and catalog.plural_expr == "(n > 1)"
    assert messages(catalog), "the French catalogue is empty"
    assert not catalog.obsolete, f"obsolete entries left: {list(catalog.obsolete)}"
    for message in messages(catalog):
        assert not message.fuzzy, f"fuzzy: {message.id!r}"
        strings = forms(message)
        if message.pluralizable:
            assert len(strings) == catalog.num_plurals, f"plural forms: {message.id!r}"
        assert all(s.strip() for s in strings), f"untranslated: {message.id!r}"


def test_placeholders_survive_translation():
    catalog = load_fr()
    for message in messages(catalog):
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        for index, string in enumerate(forms(message)):
            source = ids[min(index, len(ids) - 1)]
            assert placeholders(string) == placeholders(source), (
                f"{message.id!r}: {string!r} does not keep the placeholders of {source!r}")
        assert not list(message.check(catalog)), f"{message.id!r}: {list(message.check(catalog))}"


def extracted_messages() -> dict[tuple[str, str | None], str | tuple[str, ...]]:
    """Every string of the source, extracted with the project's babel.cfg."""
    parse = getattr(frontend, "parse_mapping_cfg", None) or frontend.parse_mapping
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse(cfg)

    def directory_filter(dirpath: str) -> bool:
        name = os.path.basename(dirpath)
        return not name.startswith((".", "_")) and name not in {
            "translations", "tests"}

    found: dict[tuple[str, str | None], str | tuple[str, ...]] = {}
    for _, _, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, directory_filter=directory_filter):
        singular = message[0] if isinstance(message, tuple) else message
        if singular:
            found[(singular, context)] = message
    return found


def test_every_string_in_the_source_is_in_the_french_catalogue():
    catalog = load_fr()
    extracted = extracted_messages()
    assert ("Start a table", None) in extracted, "extraction found nothing: check babel.cfg"
    missing = sorted(singular for (singular, context) in extracted
                     if catalog.get(singular, context=context) is None)
    assert not missing, ("strings without French (run pybabel extract/update, then "
                         f"translate): {missing}")
    for (singular, context), message in extracted.items():
        in_po = catalog.get(singular, context=context)
        if isinstance(message, tuple):
            assert in_po.pluralizable and tuple(in_po.id) == message, (
                f"the plural of {singular!r} changed: {message!r} vs {in_po.id!r}")


def test_the_committed_mo_is_the_compiled_po():
    """The app reads the .mo, committed so that a bare clone and its wheel speak French:
    after changing the .po, run `pybabel compile -d companion/translations`."""
    compiled = io.BytesIO()
    write_mo(compiled, load_fr())
    assert FR_MO.read_bytes() == compiled.getvalue(), (
        "messages.mo is stale: run pybabel compile -d companion/translations")


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
