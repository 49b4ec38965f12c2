"""The games' colours stay apart for colour-blind eyes, their labels readable, and the
numbers in docs/accessibility.md are the script's."""

from __future__ import annotations

import json
import re

from companion.paths import STATIC
from support import palette

CSS = palette.CSS.read_text(encoding="utf-8")


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


def tower_fills() -> dict[str, str]:
    """The colours static/js/tower/paint.js paints The Climbers' blocks and figures with."""
    script = (STATIC / "js" / "tower" / "paint.js").read_text(encoding="utf-8")
    found = re.search(r"const FILL = (\{.*?\});", script, re.S)
    assert found is not None
    return json.loads(re.sub(r'([{,]\s*)([a-z]+):', r'\1"\2":', found.group(1)))


def test_the_towers_are_drawn_in_the_css_colours():
    root = palette.root_colours(CSS)
    fills = tower_fills()
    assert len(fills) == 6
    assert {name: root[f"--cl-{name}"] for name in fills} == fills


def test_the_docs_give_the_scripts_numbers():
    docs = (palette.ROOT / "docs" / "accessibility.md").read_text(encoding="utf-8")
    assert palette.markdown(CSS) in docs
