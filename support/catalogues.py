"""The interface's catalogues, one for the shared places and one for each game.

The shared catalogue, ``companion/translations/``, holds the strings of the shared modules
and templates; each registered game's, the folder ``translations/`` of its package (beside
its engine and presenter), holds the strings of the game's own places: its package and its
``templates/games/<id>/``. A string said in a shared place and in a game's is in both.
Each has its template ``messages.pot`` and, for each language, its ``messages.po`` and the
compiled ``messages.mo``, committed beside it. The strings are extracted as ``babel.cfg``
maps the files (Python for ``companion/``, Jinja for ``templates/``), with Babel's default
keywords and no comment tags, as ``pybabel extract -F babel.cfg`` did.

``scripts/translations`` runs :func:`main` through ``tests/catalogues.py``, which hands it
the games the tests offer: extract, update and compile every catalogue, High Card's too
(the game the tests register, ``tests/fake_game``, whose places ``babel.cfg`` maps beside
the companion's). A new string takes the French another catalogue already
gives it; any other waits, empty, for a translator (``tests/web/test_translations.py``
fails until it has its French).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

if TYPE_CHECKING:
    from companion.web.spec import GameSpec

ROOT = Path(__file__).resolve().parents[1]
#: Which extractor reads which files: the one mapping of the project.
MAPPING = ROOT / "babel.cfg"
SHARED_FOLDER = ROOT / "companion" / "translations"
#: The shared catalogue's name among the games' ids.
SHARED = "shared"
DOMAIN = "messages"
#: The interface's languages besides English, the language of the source.
LANGUAGES = ("fr",)

#: A message as a catalogue keys it: its id (a tuple for a plural) and its context.
Key = tuple[str | tuple[str, ...], str | None]
#: The header's dates, which change at every run: a catalogue that differs only by them is
#: left as it is.
_DATES = re.compile(rb'^"(?:POT-Creation-Date|PO-Revision-Date): .*\n', re.MULTILINE)


@dataclass(frozen=True)
class Places:
    """A catalogue's folder and the places whose strings it holds: a game's folders, or
    none for the shared catalogue (every place no game holds)."""

    name: str
    folder: Path
    folders: tuple[Path, ...] = ()

    def holds(self, path: Path) -> bool:
        return any(folder == path or folder in path.parents for folder in self.folders)

    @property
    def template(self) -> Path:
        return self.folder / f"{DOMAIN}.pot"

    def po(self, lang: str) -> Path:
        return self.folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"

    def mo(self, lang: str) -> Path:
        return self.po(lang).with_suffix(".mo")

    def load(self, lang: str) -> Catalog:
        """The catalogue of ``lang`` as committed; an empty one where there is none."""
        if not self.po(lang).is_file():
            return Catalog(locale=lang)
        with self.po(lang).open("rb") as handle:
            return read_po(handle, locale=lang)


def shared() -> Places:
    return Places(SHARED, SHARED_FOLDER)


def of_games(games: Iterable[GameSpec] | None = None) -> list[Places]:
    """The places of each game (``companion.web.games.GAMES`` unless given): the folder of
    its package and its template folder, its catalogues in its package."""
    if games is None:
        from companion.web.games import GAMES

        games = GAMES
    return [Places(spec.id, spec.translations_path, (spec.package_path, spec.templates_path))
            for spec in games]


def every(games: Iterable[GameSpec] | None = None) -> list[Places]:
    """The shared catalogue, then each game's (the registered games unless given)."""
    return [shared(), *of_games(games)]


def key(message: Message) -> Key:
    return (tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id,
            message.context)


def keys(catalog: Catalog) -> set[Key]:
    return {key(message) for message in catalog if message.id}


def extract(places: Sequence[Places]) -> dict[str, Catalog]:
    """Every string of the checkout, extracted as ``babel.cfg`` maps the files, each in the
    template (by the places' name) of the game whose places hold its file, the shared one's
    where none does."""
    with MAPPING.open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    templates = {place.name: Catalog() for place in places}
    games = [place for place in places if place.folders]
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS,
                             comment_tags=())
    for filename, lineno, message, comments, context in found:
        path = ROOT / filename
        owner = next((game.name for game in games if game.holds(path)), SHARED)
        templates[owner].add(message, None, [(Path(filename).as_posix(), lineno)],
                             auto_comments=comments, context=context)
    return templates


def known_translations(places: Iterable[Places], lang: str) -> dict[Key, object]:
    """What every catalogue of ``lang`` already says, by message: a new string in one takes
    the translation another gives it."""
    known: dict[Key, object] = {}
    for place in places:
        for message in place.load(lang):
            if message.id and not message.fuzzy and translated(message):
                known.setdefault(key(message), message.string)
    return known


def translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return all(strings)


def updated(place: Places, template: Catalog, lang: str, known: dict[Key, object]) -> Catalog:
    """The catalogue of ``lang`` of ``place`` brought to ``template`` as ``pybabel update``
    does (a changed string is matched to its old translation and marked fuzzy), its
    obsolete entries dropped, and each string another catalogue translates given that
    translation."""
    catalog = place.load(lang) if place.po(lang).is_file() else _new(lang)
    catalog.update(template)
    catalog.obsolete.clear()
    for message in catalog:
        said = known.get(key(message))
        if message.id and said is not None and (message.fuzzy or not translated(message)):
            message.string = said
            message.flags.discard("fuzzy")
    return catalog


def _new(lang: str) -> Catalog:
    """An empty catalogue of ``lang`` with the shared one's header: the project's name and
    version, and its plural forms (two in French, as the tests expect; Babel's locale data
    now gives French a third, for millions)."""
    catalog = Catalog(locale=lang)
    catalog.mime_headers = shared().load(lang).mime_headers
    catalog.fuzzy = False
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    written = io.BytesIO()
    write_po(written, catalog, ignore_obsolete=True)
    return written.getvalue()


def compiled(place: Places, lang: str) -> bytes:
    """The ``.mo`` of the committed ``.po`` of ``lang``, as ``pybabel compile`` writes it
    (fuzzy entries left out)."""
    written = io.BytesIO()
    write_mo(written, place.load(lang))
    return written.getvalue()


def _write(path: Path, text: bytes) -> bool:
    """Write ``text`` at ``path`` unless what is there differs only by the header's dates."""
    if path.is_file() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return True


def refresh(places: Sequence[Places]) -> Iterator[Path]:
    """Extract, update and compile every catalogue of ``places``; the files rewritten. A
    game whose places say nothing gets no catalogue."""
    templates = extract(places)
    known = {lang: known_translations(places, lang) for lang in LANGUAGES}
    for place in places:
        template = templates[place.name]
        if not keys(template) and not place.template.is_file():
            continue
        if _write(place.template, _po_bytes(template)):
            yield place.template
        for lang in LANGUAGES:
            if _write(place.po(lang), _po_bytes(updated(place, template, lang, known[lang]))):
                yield place.po(lang)
            if _write(place.mo(lang), compiled(place, lang)):
                yield place.mo(lang)


def untranslated(places: Iterable[Places]) -> Iterator[str]:
    """Each string a catalogue still lacks a translation of, or holds as fuzzy."""
    for place in places:
        for lang in LANGUAGES:
            for message in place.load(lang):
                if message.id and (message.fuzzy or not translated(message)):
                    yield f"{place.po(lang).relative_to(ROOT)}: {message.id!r}"


def main(games: Sequence[GameSpec]) -> None:
    """Refresh the shared catalogue and those of ``games`` (the tests' run this with High
    Card among them, whose strings go to its own catalogue, not to the shared one)."""
    places = every(games)
    for path in refresh(places):
        print(f"wrote {path.relative_to(ROOT)}")
    waiting = list(untranslated(places))
    for line in waiting:
        print(f"to translate: {line}")
    if waiting:
        raise SystemExit(1)
