"""What a player's name may hold: whatever people write names with (letters of any script
and their accents, spaces, hyphens, apostrophes, emoji with their joiners and variation
selectors), without the characters that only break a page or its storage: controls,
private-use characters (a page's own marks are made of such), unpaired surrogates (no
encoding writes them), non-characters, and the controls that turn the text after them
around."""

from __future__ import annotations

import unicodedata

#: Controls, private use, surrogates.
_DROPPED_CATEGORIES = frozenset({"Cc", "Co", "Cs"})
#: Bidirectional embeddings, overrides and isolates: one left open in a name turns the rest
#: of a log line around. The marks alone (U+200E, U+200F) stay.
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _kept(char: str) -> bool:
    code = ord(char)
    if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:  # the non-characters
        return False
    return unicodedata.category(char) not in _DROPPED_CATEGORIES \
        and char not in _DIRECTION_CONTROLS


def tidied(raw: str) -> str:
    """``raw`` without the characters no name holds, its spaces tidied: a run of spaces,
    tabs or line breaks is one space, and none is left at either end."""
    return " ".join("".join(char for char in raw if char.isspace() or _kept(char)).split())


def shows(name: str) -> bool:
    """Whether ``name`` has something to see: a letter, a digit, a punctuation mark or a
    symbol (joiners, zero-width spaces and accents alone show nothing)."""
    return any(unicodedata.category(char)[0] in "LNPS" for char in name)
