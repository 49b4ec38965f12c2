"""The words a player reads, in both languages: nothing agrees with a gender guessed from a
player's name, and one apostrophe throughout.

A name says nothing of its player's gender, so no word after it may agree with one: no
past participle or adjective after a form of *être* ("Ana est monté"), no pronoun standing
for the player ("devant lui"), no inclusive spelling ("Seul·e Ana"). The check reads every
message of every French catalogue (the shared one and each game's) and every text of the
seeds that names a player, from each name on; and the log's move lines, which follow the
mover's name.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from companion.paths import SEEDS, TEMPLATES
from tests.web.test_translations import forms, french_messages

#: The placeholders that stand for a player's name, or for several names: the catalogue's
#: (``%(name)s``) and the seeds' (``{turn}``, whom the game waits for).
NAMES = ("name", "names", "was", "target", "first", "last", "turn")
_ANY_NAME = "|".join(NAMES)
NAME = re.compile(rf"%\((?:{_ANY_NAME})\)s|\{{(?:{_ANY_NAME})\}}")

#: A form of *être* (or a verb like it) and the word after it: a participle or an adjective
#: there agrees with its subject.
BEING = re.compile(r"\b(?:est|sont|était|étaient|sera|seront|fut|furent|reste|restent"
                   r"|semble|semblent|devient|deviennent)\s+(?:été\s+)?([\w·-]+)")
#: What may follow a form of être after a name: words that agree with nothing.
INVARIABLE = {"à", "au", "aux", "en", "sur", "dans", "sous", "hors", "libre", "libres", "là",
              "ici", "debout", "encore", "toujours", "déjà"}
#: Pronouns standing for a person that say a gender: a subject, or one after a preposition
#: ("devant lui"); "lui" as an indirect object ("dites-lui") says none.
PRONOUN = re.compile(r"\b(?:il|ils|elle|elles)\b|\b(?:devant|derrière|pour|avec|à|de|chez"
                     r"|sans|sur|contre|vers|après|avant|sauf)\s+(?:lui|eux)\b", re.I)
#: The English's singular "they", a person whose gender nobody knows: no "il" in French.
THEY = re.compile(r"\bthey\b", re.I)
SUBJECT = re.compile(r"\b(?:il|elle)\b", re.I)
#: An adjective agreeing with the name it comes just before.
BEFORE = re.compile(r"\b(?:seul|seule|seuls|seules|cher|chère|premier|première|dernier"
                    rf"|dernière)(?:·e)?\s+(?:{NAME.pattern})", re.I)
ENGLISH_PRONOUN = re.compile(r"\b(?:he|she|him|her|his|hers|himself|herself)\b", re.I)

#: The log's move lines come after the mover's name: "Ana" + "climbed onto …".
MOVE_MACRO = re.compile(r"{%-?\s*macro move\(.*?{%-?\s*endmacro", re.S)
GETTEXT = re.compile(r"""\b_\(\s*(['"])(.*?)\1""")
AFTER_A_NAME = ("took back their move:",)


def ids(message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


def move_lines() -> set[str]:
    """The English of every move line of every game's log, said after the mover's name."""
    found = set(AFTER_A_NAME)
    for describe in sorted((TEMPLATES / "games").glob("*/describe.html")):
        for macro in MOVE_MACRO.findall(describe.read_text()):
            found.update(match.group(2) for match in GETTEXT.finditer(macro))
    return found


def seed_texts() -> Iterator[tuple[str, str, str]]:
    """Every text of every seeds file: (where, language or "", text)."""
    def walk(value: object, where: str, lang: str) -> Iterator[tuple[str, str, str]]:
        if isinstance(value, dict):
            for key, inner in value.items():
                yield from walk(inner, f"{where}.{key}", key if key in ("en", "fr") else lang)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                yield from walk(inner, f"{where}[{index}]", lang)
        elif isinstance(value, str):
            yield where, lang, value

    for path in sorted(SEEDS.glob("*.toml")):
        with path.open("rb") as seeds:
            yield from walk(tomllib.load(seeds), path.name, "")


#: Where a clause ends, and the next may have a subject of its own.
CLAUSE_END = re.compile(r"[:;.!?]")


def after_names(text: str, from_start: bool = False) -> list[str]:
    """The text after each name in ``text`` (all of it for a line said after a name)."""
    found = [text[match.end():] for match in NAME.finditer(text)]
    return [text, *found] if from_start else found


def same_clause(text: str) -> str:
    return CLAUSE_END.split(text, maxsplit=1)[0]


def guessed_in_french(text: str, from_start: bool = False) -> list[str]:
    """Each word of ``text`` that agrees with a gender guessed from a name."""
    guesses = ["·"] if "·" in text and NAME.search(text) else []
    guesses += [match.group(0) for match in BEFORE.finditer(text)]
    for after in after_names(text, from_start):
        guesses += [match.group(0) for match in BEING.finditer(same_clause(after))
                    if match.group(1).lower() not in INVARIABLE]
        guesses += [match.group(0) for match in PRONOUN.finditer(after)]
    return guesses


def person_guessed(english: str, french: str) -> list[str]:
    """The French "il" or "elle" of a sentence whose English says "they" of a person."""
    return SUBJECT.findall(french) if THEY.search(english) else []


def guessed_in_english(text: str, from_start: bool = False) -> list[str]:
    return [match.group(0) for after in after_names(text, from_start)
            for match in ENGLISH_PRONOUN.finditer(after)]


def test_the_check_finds_what_it_looks_for():
    assert guessed_in_french("%(name)s est monté sur %(square)s")
    assert guessed_in_french("est tombée dans la voie 2", from_start=True)
    assert guessed_in_french("la carte attend devant lui.", from_start=True)
    assert guessed_in_french("Seul·e %(name)s peut encore bouger.")
    assert guessed_in_french("C’est à {turn} : elle joue.")
    assert guessed_in_english("%(name)s took his card")
    assert not guessed_in_french("%(name)s est au sol et défausse %(card)s.")
    assert not guessed_in_french("Sauf %(name)s : la partie est terminée.")
    assert not guessed_in_french("Quand elle est debout, %(name)s confirme.")
    assert not guessed_in_french("%(name)s a grimpé sur %(square)s", from_start=True)
    assert not guessed_in_french("%(name)s prend sa carte et donne celle du rouge.")
    assert person_guessed("so they know it is you", "pour qu’il sache que c’est vous")
    assert not person_guessed("the blocks go back as they were", "les blocs reviennent")


def test_no_french_word_agrees_with_a_gender_guessed_from_a_name():
    """The catalogues' participles and pronouns that follow a name (or begin a line said
    after one) agree with no gender; so do the seeds' texts that name players."""
    after_a_name = move_lines()
    assert "went down to the table" in after_a_name and "fell into lane %(lane)s" in after_a_name
    guesses = {}
    for message in french_messages():
        english = ids(message)
        from_start = english[0] in after_a_name
        for index, text in enumerate(forms(message)):
            said = english[min(index, len(english) - 1)]
            if found := guessed_in_french(text, from_start) + person_guessed(said, text):
                guesses[english[0]] = (text, found)
        for text in english:
            if found := guessed_in_english(text, from_start):
                guesses[text] = (text, found)
    for where, lang, text in seed_texts():
        found = (guessed_in_french(text) if lang == "fr" else
                 guessed_in_english(text) if lang == "en" else [])
        if found:
            guesses[where] = (text, found)
    assert not guesses, guesses


def test_one_apostrophe_in_each_language():
    """The typographic apostrophe (’), as most of the catalogues write it, in every
    message of every catalogue (the shared one and each game's), both languages, and every
    text of the seeds."""
    straight = [text for message in french_messages()
                for text in (*ids(message), *forms(message)) if "'" in text]
    straight += [f"{where}: {text}" for where, _lang, text in seed_texts() if "'" in text]
    assert not straight, straight


def test_every_seeds_file_is_read():
    assert {Path(where.split(".toml")[0]).name for where, _, _ in seed_texts()} >= {
        "table", "climbers", "skyrunner", "seventh-heaven", "heuchel-meuchel"}
