"""Styles that let a push restyle only what it changed.

Chromium restyles the whole subtree of an element a ``:has()`` matched whenever a node is
inserted anywhere under it, when a rule styles that element's descendants. A push inserts
nodes into every page it reaches, so a rule ``.page:has(...) .thing`` restyled the whole
table screen of The Climbers after each one (880 elements, ``bench/tower.py --breakdown``).
In the styles every page, the table screen and The Climbers' pages load, ``:has()`` only
ever styles the element it is on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
#: Every page's styles, the table screen's (each game's board on it too) and The Climbers'.
SHEETS = ("css/companion.css", "css/screen.css", "css/games/climbers.css",
          "css/games/climbers-extras.css",
          *sorted(str(path.relative_to(STATIC)) for path in STATIC.glob("css/games/*-screen.css")))
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def selectors(css: str) -> list[str]:
    """Every selector of the style rules in ``css`` (inside @media blocks too)."""
    out = []
    for prelude in re.findall(r"([^{}]+)\{", COMMENT.sub("", css)):
        prelude = prelude.strip()
        if prelude and not prelude.startswith("@"):
            out += [part.strip() for part in split_top(prelude)]
    return out


def split_top(prelude: str) -> list[str]:
    """``prelude`` split at its commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return [*parts, prelude[start:]]


def has_before_combinator(selector: str) -> bool:
    """Whether a ``:has()`` in ``selector`` sits on an element that a combinator after it
    reaches down or along from: one not the rule's own subject."""
    for match in re.finditer(r":has\(", selector):
        depth, i = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(selector[i], 0)
            i += 1
        if re.search(r"[\s>~+]", selector[i:].rstrip()):
            return True
    return False


def test_the_checker_tells_a_subject_has_from_an_ancestor_has():
    assert has_before_combinator(".page:has(> #head[data-x]) .thing")
    assert has_before_combinator(".board:has(.build) > :not(.x)")
    assert not has_before_combinator(".page:has(> #head[data-x])")
    assert not has_before_combinator(".options:has(> form.settle)")
    assert not has_before_combinator(".page > #head[data-x] ~ * .board:not(.x)")
    assert selectors("/* a:has(b) c {} */ @media (x) { a, b:has(c) { x: 1 } }") == ["a", "b:has(c)"]


@pytest.mark.parametrize("sheet", SHEETS)
def test_no_has_styles_the_descendants_of_what_it_matches(sheet):
    css = (STATIC / sheet).read_text(encoding="utf-8")
    assert [s for s in selectors(css) if has_before_combinator(s)] == []
