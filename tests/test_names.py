"""A player's name at the door (``tables.player_name``, ``companion.names``): what people
write names with is kept, what only breaks a page or its storage is dropped, and a name
with nothing left to show is refused."""

import pytest

from companion.tables import NAME_MAX, TableError, player_name

ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize("name", [
    "Chloé", "Jean-Luc O’Brien", "Zoë d'Arc", "李小龍", "أحمد", "क्षत्रिय", "Ana 🎲",
    "👩\u200d👩\u200d👧",  # a family: emoji joined by zero-width joiners
    "❤\ufe0f",  # a variation selector
    "🇫🇷 Ana", ENGLAND,  # flags: regional indicators, and tag characters
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",  # a zero-width non-joiner, in Persian
])
def test_a_name_keeps_what_names_are_written_with(name):
    assert player_name(name) == name


@pytest.mark.parametrize(("raw", "kept"), [
    ("Ana \ue0000\ue001\ue0001\ue001", "Ana 01"),  # private use: a page's own marks
    ("\U000f0000Ana\U0010fffd", "Ana"),  # private use beyond the first plane
    ("Ana\ud800", "Ana"),  # half of a surrogate pair
    ("\ufdd0Ana\uffff\U0001fffe", "Ana"),  # non-characters
    ("A\x00n\x07a\x7f\x9b", "Ana"),  # controls
    ("Ana \x00 Ben", "Ana Ben"),
    ("Ana\t\n\u2028Ben ", "Ana Ben"),  # a tab or a line break is a space
    ("\u202eAna\u2066 Ben", "Ana Ben"),  # direction overrides and isolates
])
def test_a_name_loses_what_no_name_holds(raw, kept):
    assert player_name(raw) == kept


@pytest.mark.parametrize("raw", ["", "   ", "\ue000\ue001", "\ud800", "\x00\x1b",
                                 "\u200b\u200d", "\u0301", "\u202e \u202c"])
def test_a_name_with_nothing_to_show_is_refused(raw):
    with pytest.raises(TableError) as refused:
        player_name(raw)
    assert refused.value.rule == "table.name"


def test_the_length_counts_what_is_kept():
    assert player_name("A" * NAME_MAX + "\ue000" * 8) == "A" * NAME_MAX
    with pytest.raises(TableError):
        player_name("A" * (NAME_MAX + 1))
