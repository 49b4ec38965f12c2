"""A rule clause as players read it, in the reader's language: its title, its words with
their parameters filled in, the rulebook's own sentence, the decision taken where the
rulebook is unclear, and where in the rulebook it stands.

Game clauses live in the game's seeds file (``seeds/<game>.toml``, read by its
``GameSpec``); the platform's own (``table.*``) in ``seeds/table.toml``. A refusal always
names one of them. Each look-up is a function of the game, the clause and the language
alone: it needs no app and no request (a test, a script, an export read them too).
"""

from __future__ import annotations

import re
from string import Formatter
from typing import TYPE_CHECKING, Any

from companion.games.base import clauses as game_clauses

if TYPE_CHECKING:
    from companion.web.spec import GameSpec

#: The source of the clauses the companion adds to the rulebooks: no section to cite.
OWN_SOURCE = "Table Companion"
_NOTE = re.compile(r"\s*\([^()]*\)")


class _Blank(dict):
    """Leaves an ellipsis where a parameter is not known."""

    def __missing__(self, key: str) -> str:
        return "…"


def clause(game: GameSpec | None, rule: str) -> dict[str, Any] | None:
    """The clause ``rule`` names: the platform's own, or one of ``game``'s (None: a
    platform clause, or none)."""
    if rule.startswith("table."):
        return game_clauses("table").get(rule)
    return game.clauses.get(rule) if game is not None else None


def _in(pair: Any, lang: str) -> str | None:
    """``{en = …, fr = …}`` in ``lang`` (English when it has no such language)."""
    if not isinstance(pair, dict):
        return None
    return pair.get(lang) or pair.get("en")


def clause_text(game: GameSpec | None, rule: str, lang: str,
                params: dict[str, Any] | None = None) -> str:
    """The clause's words. Given the case's parameters, the refusal as it names them
    ("Column 3 is already taken."); without one it names, the rule in general, where the
    clause has a general form (its ``rule``), so no reader meets a gap."""
    found = clause(game, rule)
    if found is None:
        return rule
    text = found.get(lang) or found["en"]
    general = _in(found.get("rule"), lang)
    if general and (not params or not _named(text) <= params.keys()):
        return general
    return text.format_map(_Blank({k: _word(game, k, v, lang)
                                   for k, v in (params or {}).items()}))


def _named(text: str) -> set[str]:
    """The parameters ``text`` names."""
    return {field for _, field, _, _ in Formatter().parse(text) if field}


def _word(game: GameSpec | None, key: str, value: Any, lang: str) -> Any:
    """A ``colour`` parameter in the reader's words (the game's ``names.colours``, or its
    ``[[colour]]`` list); any other parameter as it is."""
    if key != "colour" or game is None:
        return value
    name = game.seed.get("names", {}).get("colours", {}).get(value) or next(
        (entry for entry in game.seed.get("colour", []) if entry.get("id") == value), None)
    return (name.get(lang) or name["en"]) if name else value


def clause_title(game: GameSpec | None, rule: str, lang: str) -> str:
    """What players call the rule ("Favours", "The Fall card"), in ``lang``."""
    found = clause(game, rule)
    return (_in(found.get("title"), lang) if found else None) or rule


def rulebook_section(game: GameSpec | None, found: dict[str, Any], lang: str) -> str | None:
    """Where the clause stands in the rulebook of the reader's language, as the rulebook
    names its sections (notes in brackets left out); None when no rulebook of that
    language has it, or the clause is the companion's own."""
    source = str(found.get("source", ""))
    if not source or source == OWN_SOURCE:
        return None
    if source.startswith("EN: ") and " · FR: " in source:
        english, french = source[len("EN: "):].split(" · FR: ", 1)
        source = french if lang == "fr" else english
    elif _rulebook_lang(game) != lang:
        return None
    sections = [" ".join(part.replace("...", "").split()).rstrip(" .")
                for part in _NOTE.sub("", source).split(";")]
    return " · ".join(part for part in sections if part) or None


def _rulebook_lang(game: GameSpec | None) -> str | None:
    """The one language of a game's rulebook; None when it has one in each language."""
    lang = game.seed.get("rulebook_lang") if game is not None else None
    return lang if isinstance(lang, str) else None


def clause_page(game: GameSpec | None, rule: str, lang: str) -> dict[str, Any] | None:
    """Everything the rules pages show of one clause, in ``lang``."""
    found = clause(game, rule)
    if found is None:
        return None
    return {"id": rule,
            "title": clause_title(game, rule, lang),
            "text": clause_text(game, rule, lang),
            "example": _in(found.get("example"), lang),
            "decision": _in(found.get("decision"), lang),
            "quote": _in(found.get("quote"), lang),
            "quote_translated": _rulebook_lang(game) not in (None, lang),
            "section": rulebook_section(game, found, lang),
            "when": found.get("when")}
