"""What a player must never read on a page: the developer's words, and the other language.

``shown_text(html)`` is what a page shows a reader, its words and the attributes a reader
meets; ``unreadable(text, lang)`` takes a page's visible text (its words and the attributes a
reader meets, not its markup) in the page's language and returns each fragment a player
should not meet there: a clause id, a research note, a section sign, Python's or Jinja's
words for nothing, a placeholder left unfilled, a source cited as "EN: … · FR: …", a French
rulebook heading in an English page, and the interface's or the rules' English left in a
French page (and their French in an English one).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import cache
from html import unescape
from typing import Any

from companion.paths import SEEDS
from support.catalogues import every

#: Python's and Jinja's words for nothing, placeholders left unfilled, notes of the
#: research behind the rules, citations in both languages at once.
_DEVELOPER = re.compile(
    r"\bNone\b|\b[Uu]ndefined\b|%\(\w+\)\w?|\{\w+\}|\{\{|\}\}|\{%|%\}"
    r"|\b[Rr]esearch\b|\brecherche §|§\s*\d*(?:\.\d+)*"
    r"|\bEN: .{0,80}?·\s*FR:|\b(?:EN|FR): ")
#: The source of the clauses the companion adds to the rulebooks: the product's name.
_OWN_SOURCE = "Table Companion"
#: A phrase of the other language counts from three words on: shorter ones ("Le Carnaval",
#: a name) are too often the same words in both.
_WORDS_AT_LEAST = 3
_WORD = re.compile(r"\w+")
_PLACEHOLDER = re.compile(r"%\(\w+\)\w|\{\w+\}|%s|%d")


#: What a reader never sees in a page: scripts, styles, templates; and the markup itself.
_HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
#: Attributes a reader meets: a button's label, an image's description.
_SHOWN_ATTRIBUTE = re.compile(r'\s(?:title|alt|aria-label|placeholder)="([^"]*)"')


def shown_text(html: str) -> str:
    """The words a page shows: its text and the attributes a reader meets, not its
    markup, addresses or scripts."""
    html = _HIDDEN.sub(" ", html)
    return unescape(" ".join([_TAG.sub(" ", html), *_SHOWN_ATTRIBUTE.findall(html)]))


def unreadable(text: str, lang: str) -> list[str]:
    """The fragments of ``text`` (a page's visible text in ``lang``, "en" or "fr") that no
    player should read there."""
    flat = " ".join(text.split())
    found = [match.group(0) for match in _DEVELOPER.finditer(flat)]
    found += _clause_ids().findall(flat)
    if lang == "en":
        found += [heading for heading in _french_headings()
                  if re.search(rf"(?<![\w']){re.escape(heading)}(?!\w)", flat)]
    other = "en" if lang != "en" else "fr"
    trigrams = _trigrams(flat)
    found += [phrase for phrase in _phrases()[other]
              if _first_trigram(phrase) in trigrams and phrase in flat]
    return found


@cache
def _clause_ids() -> re.Pattern[str]:
    """Any word shaped like a clause id of a game or of the platform (``hm.favour.first``,
    ``table.not-your-turn``), known or not."""
    prefixes = {str(clause["id"]).split(".")[0]
                for seed in _seeds().values() for clause in seed.get("clause", [])}
    alternatives = "|".join(sorted(map(re.escape, prefixes), key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})\.[a-z][\w-]*(?:\.[\w-]+)*")


@cache
def _seeds() -> dict[str, dict[str, Any]]:
    seeds = {}
    for path in sorted(SEEDS.glob("*.toml")):
        with path.open("rb") as handle:
            seeds[path.stem] = tomllib.load(handle)
    return seeds


@cache
def _french_headings() -> tuple[str, ...]:
    """The headings of the French rulebooks as the seeds cite them (``MISE EN PLACE``,
    ``Jouer une carte Chute``, ``La case n° 13``), without the notes in brackets."""
    headings: set[str] = set()
    for seed in _seeds().values():
        french_book = seed.get("rulebook_lang") == "fr"
        for clause in seed.get("clause", []):
            source = str(clause.get("source", ""))
            if " · FR: " in source:
                source = source.split(" · FR: ", 1)[1]
            elif not french_book:
                continue
            source = re.sub(r"\([^)]*\)", " ", source)
            for part in re.split(r"[;]", source):
                heading = " ".join(part.replace("...", " ").split()).strip(" .")
                if heading and heading != _OWN_SOURCE and not heading.startswith("research"):
                    headings.add(heading)
    return tuple(sorted(headings, key=len, reverse=True))


@cache
def _phrases() -> dict[str, tuple[str, ...]]:
    """By language, the phrases of three words or more that the other language says
    differently: the French catalogues' entries and every text of the seeds, cut at their
    placeholders."""
    pairs = list(_catalogue_pairs()) + list(_seed_pairs(_seeds()))
    phrases: dict[str, set[str]] = {"en": set(), "fr": set()}
    for english, french in pairs:
        if not french or " ".join(english.split()) == " ".join(french.split()):
            continue
        for lang, text in (("en", english), ("fr", french)):
            for piece in _PLACEHOLDER.split(text):
                piece = " ".join(piece.split())
                if len(_WORD.findall(piece)) >= _WORDS_AT_LEAST:
                    phrases[lang].add(piece)
    return {lang: tuple(sorted(found)) for lang, found in phrases.items()}


#: The words that name a reader's own thing ("your partners"): meaningless on a screen
#: the whole table reads, which speaks of each player by name.
_YOURS = {"en": re.compile(r"(?<!\w)yours?(?!\w)", re.I),
          "fr": re.compile(r"(?<![\w’'])(?:votre|vos|vôtres?|ton|ta|tes)(?!\w)", re.I)}


def addressed(text: str, lang: str) -> list[str]:
    """Each word of ``text`` (the visible text of a screen the whole table reads, in
    ``lang``) that speaks to its reader of their own ("your", "vos")."""
    return [match.group(0) for match in _YOURS[lang].finditer(text)]


#: The placeholders of the interface's words that a player's name fills.
_NAME_PLACEHOLDERS = frozenset({"name", "names", "was", "first", "last", "target"})
#: A blank's neighbours are told apart from a name's from this many characters on.
_CONTEXT_AT_LEAST = 4
#: A text node's edge, where a tag was.
_EDGE = "\x00"
#: An element that holds a name alone, left empty.
_EMPTY_NAME = re.compile(r'<strong\b[^>]*>\s*</strong>|class="[^"]*\bname\b[^"]*"[^>]*>\s*</')


def blank_names(html: str, lang: str) -> list[str]:
    """Where ``html`` (a page in ``lang``) names a player by nothing: an element made to
    hold a name left empty, or words of the interface whose name was filled by a blank
    ("’s turn", "Last chance for : climb", "The host freed ’s seat.")."""
    found = [match.group(0) for match in _EMPTY_NAME.finditer(_HIDDEN.sub(" ", html))]
    text = unescape(" ".join(_TAG.sub(_EDGE, _HIDDEN.sub(" ", html)).split()))
    text = re.sub(rf"\s*{_EDGE}[\s{_EDGE}]*", _EDGE, text)
    found += [match.group(0) for match in _blank_name_words(lang).finditer(text)]
    return found


@cache
def _blank_name_words(lang: str) -> re.Pattern[str]:
    """Each message of the catalogues with a name's placeholder, as it reads with that name
    blank: the words on either side of it, with nothing between (at a text node's edge, or
    after a space where the name would have been first)."""
    shapes: set[str] = set()
    for english, french in _catalogue_pairs():
        pieces = re.split(r"%\((\w+)\)s", english if lang == "en" else french)
        # pieces: text, name, text, name, …, text
        for at in range(1, len(pieces), 2):
            if pieces[at] not in _NAME_PLACEHOLDERS:
                continue
            left, right = (re.sub(r"\s+", " ", piece) for piece in pieces[at - 1:at + 2:2])
            if len(left.strip()) + len(right.strip()) < _CONTEXT_AT_LEAST:
                continue
            if not left.strip():
                edge = f"{_EDGE}" if right.startswith(" ") else f"(?:{_EDGE}|(?<=\\s))"
                shapes.add(edge + _words(right.lstrip()))
            elif not right.strip():
                shapes.add(_words(left.rstrip()) + f"(?:{_EDGE}|$)")
            else:
                joined = left.rstrip() + " " + right.lstrip() if left.endswith(" ") \
                    and right.startswith(" ") else left + right
                shapes.add(_words(joined))
    return re.compile("|".join(sorted(shapes, key=len, reverse=True)))


def _words(text: str) -> str:
    """``text`` as a pattern that a longer word does not match ("grimpe" in "grimpeur")."""
    return (r"(?<!\w)" if text[:1].isalnum() else "") + re.escape(text) + \
        (r"(?!\w)" if text[-1:].isalnum() else "")


def _catalogue_pairs() -> Iterator[tuple[str, str]]:
    """Each English and French of every French catalogue, the shared one and each game's."""
    for message in (message for place in every() for message in place.load("fr")):
        if not message.id or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        yield from zip(ids, strings, strict=False)


def _seed_pairs(node: Any) -> Iterator[tuple[str, str]]:
    """Every ``{en = …, fr = …}`` of the seeds, however deep."""
    if isinstance(node, dict):
        if isinstance(node.get("en"), str) and isinstance(node.get("fr"), str):
            yield node["en"], node["fr"]
        for value in node.values():
            yield from _seed_pairs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _seed_pairs(value)


def _first_trigram(phrase: str) -> str:
    return " ".join(_WORD.findall(phrase)[:_WORDS_AT_LEAST])


def _trigrams(text: str) -> set[str]:
    words = _WORD.findall(text)
    return {" ".join(words[i:i + _WORDS_AT_LEAST]) for i in range(len(words))}
