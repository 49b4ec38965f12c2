"""The games' colours stay apart for colour-blind eyes, their labels readable, and the
numbers in docs/accessibility.md are the script's."""

from __future__ import annotations

from companion.paths import STATIC
from support import palette

CSS = palette.stylesheets()


def test_no_two_colours_of_a_game_are_close_in_any_simulated_vision():
    for game, found in palette.report(CSS).items():
        for vision, (distance, a, b) in found["closest"].items():
            assert distance >= palette.MIN_DELTA_E, (game, vision, a, b, distance)


def test_what_is_printed_on_a_colour_has_a_contrast_of_4_5():
    for game, found in palette.report(CSS).items():
        for colour, ratio in found["contrast"].items():
            assert ratio >= 4.5, (game, colour, ratio)


def test_the_simulation_finds_the_old_red_green_confusion():
    """The measure itself: In 7th Heaven's old grey and pink, ΔE00 6.9 in deuteranopia."""
    closest = palette.closest_pairs({"grey": "#8a8f98", "pink": "#ef6fb0"})
    assert round(closest["deuteranopia"][0], 1) == 6.9
    assert closest["normal"][0] > 25


TOWER = STATIC / "js" / "games" / "climbers"
#: The Climbers' colours by the names the tower's records give them.
CLIMBERS = ("red", "yellow", "dark-blue", "light-blue", "violet", "grey")


def climbers_colours() -> dict[str, str]:
    """The colours The Climbers' blocks and figures are painted in: its stylesheet's
    ``--cl-<colour>``, which static/js/games/climbers/paint.js reads (its only colour table)."""
    root = palette.root_colours(CSS)
    return {name: root[f"--cl-{name}"] for name in CLIMBERS}


def test_the_tower_has_no_colour_table_of_its_own():
    """The tower's modules paint with the stylesheet's colours: none of them is written
    in a script, and the painting reads the stylesheet's custom properties."""
    scripts = {path.name: path.read_text(encoding="utf-8").lower() for path in TOWER.glob("*.js")}
    assert "paint.js" in scripts and "getpropertyvalue(`--cl-${name}`)" in scripts["paint.js"]
    for colour in climbers_colours().values():
        assert not [name for name, text in scripts.items() if colour in text], colour


def test_the_tower_prints_each_letter_in_the_ink_the_palette_checks():
    """paint.js prints a colour's letter in white or #111, whichever contrasts more: the
    same light or dark ink as the palette's contrast check has for that colour."""
    inks = {prop: ink for _, prop, ink in palette.GAMES["The Climbers"]}
    for name, colour in climbers_colours().items():
        white = palette.contrast(colour, "#ffffff") > palette.contrast(colour, "#111111")
        assert white == (inks[f"--cl-{name}"] == "#ffffff"), name


def test_the_docs_give_the_scripts_numbers():
    docs = (palette.ROOT / "docs" / "accessibility.md").read_text(encoding="utf-8")
    assert palette.markdown(CSS) in docs
