"""The games' colours as colour-blind players see them: the smallest distance between any two
colours of one game, in normal vision and in simulated protanopia, deuteranopia and
tritanopia, and the contrast of the text printed on each.

Measured by bench/palette.py ([--markdown]); held by tests/web/test_palette.py.

The colours are read from the ``:root`` custom properties of the stylesheets the pages take
them from: static/css/companion.css and each game's own (static/css/games/). Dichromacy is
simulated with the matrices of Machado, Oliveira and Fernandes (2009) at severity 1.0,
applied in linear RGB; the distance is CIEDE2000 in CIELAB (D65). tests/web/test_palette.py
holds every game to ``MIN_DELTA_E`` and every label to WCAG's 4.5:1.
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = ROOT / "static" / "css"

#: No two colours of one game closer than this (CIEDE2000) in any vision simulated. About
#: ten is "clearly another colour" at a glance across a table; the letters do the rest.
MIN_DELTA_E = 10.0

#: Each game's colours that players tell apart, by their custom property.
#: The third item is the colour of the text printed on it (a card's value, a square's
#: height, a colour letter).
GAMES: dict[str, list[tuple[str, str, str]]] = {
    "In 7th Heaven": [
        ("red", "--red", "#ffffff"), ("blue", "--blue", "#ffffff"),
        ("grey", "--grey", "#ffffff"), ("yellow", "--yellow", "#1d1d28"),
        ("green", "--green", "#1d1d28"), ("pink", "--pink", "#1d1d28"),
    ],
    "The Climbers": [
        ("red", "--cl-red", "#ffffff"), ("dark blue", "--cl-dark-blue", "#ffffff"),
        ("yellow", "--cl-yellow", "#1d1d28"), ("light blue", "--cl-light-blue", "#1d1d28"),
        ("violet", "--cl-violet", "#ffffff"), ("grey", "--cl-grey", "#1d1d28"),
    ],
    "SkyRunner": [
        ("red", "--sr-red", "#ffffff"), ("blue", "--sr-blue", "#ffffff"),
        ("yellow", "--sr-yellow", "#1d1d28"), ("green", "--sr-green", "#1d1d28"),
        ("purple", "--sr-purple", "#1d1d28"),
    ],
}

# Machado et al. 2009, severity 1.0, for linear RGB.
SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...] | None] = {
    "normal": None,
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

RGB = tuple[float, float, float]


def stylesheets() -> str:
    """The platform's stylesheet and each game's own, one after the other."""
    sheets = [CSS / "companion.css", *sorted((CSS / "games").glob("*.css"))]
    return "\n".join(sheet.read_text(encoding="utf-8") for sheet in sheets)


def root_colours(css: str) -> dict[str, str]:
    """The ``:root`` blocks' colour custom properties: name (with its dashes) to #rrggbb."""
    blocks = re.findall(r":root\s*\{(.*?)\}", css, re.S)
    if not blocks:
        raise ValueError("the stylesheets have no :root block")
    return {name: value.lower() for block in blocks for name, value in
            re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b", block)}


def linear(hex_colour: str) -> RGB:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def simulate(rgb: RGB, vision: str) -> RGB:
    matrix = SIMULATIONS[vision]
    if matrix is None:
        return rgb
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
               for row in matrix)
    return r, g, b


def lab(rgb: RGB) -> RGB:
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: RGB, lab2: RGB) -> float:
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (
        h2p - h1p if abs(h2p - h1p) <= 180 else h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360)
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lp, cp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    else:
        hp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp - 30)) + 0.24 * math.cos(math.radians(2 * hp))
         + 0.32 * math.cos(math.radians(3 * hp + 6)) - 0.20 * math.cos(math.radians(4 * hp - 63)))
    sl = 1 + 0.015 * (lp - 50) ** 2 / math.sqrt(20 + (lp - 50) ** 2)
    sc, sh = 1 + 0.045 * cp, 1 + 0.015 * cp * t
    rt = (-2 * math.sqrt(cp ** 7 / (cp ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((hp - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2
                     + rt * (dc / sc) * (dhp / sh))


def luminance(hex_colour: str) -> float:
    r, g, b = linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def closest_pairs(colours: dict[str, str]) -> dict[str, tuple[float, str, str]]:
    """For each vision: the smallest distance between two of ``colours`` (name to hex), and
    which two."""
    found = {}
    for vision in SIMULATIONS:
        seen = {name: lab(simulate(linear(value), vision)) for name, value in colours.items()}
        found[vision] = min((ciede2000(seen[a], seen[b]), a, b)
                            for a, b in itertools.combinations(seen, 2))
    return found


def report(css: str) -> dict[str, dict[str, object]]:
    """Per game: its colours, the closest pair in each vision, each label's contrast."""
    root = root_colours(css)
    out: dict[str, dict[str, object]] = {}
    for game, entries in GAMES.items():
        colours = {name: root[prop] for name, prop, _ in entries}
        out[game] = {
            "colours": colours,
            "closest": closest_pairs(colours),
            "contrast": {name: contrast(root[prop], ink) for name, prop, ink in entries},
        }
    return out


def markdown(css: str) -> str:
    lines = ["| game | colours | " + " | ".join(SIMULATIONS) + " | lowest text contrast |",
             "|---|---|" + "---|" * len(SIMULATIONS) + "---|"]
    for game, found in report(css).items():
        colours = ", ".join(f"{name} `{value}`" for name, value in found["colours"].items())
        cells = [f"{d:.1f} ({a}/{b})" for d, a, b in found["closest"].values()]
        name, worst = min(found["contrast"].items(), key=lambda item: item[1])
        lines.append(f"| {game} | {colours} | " + " | ".join(cells)
                     + f" | {worst:.2f}:1 ({name}) |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="a table for docs/")
    args = parser.parse_args()
    css = stylesheets()
    if args.markdown:
        print(markdown(css))
        return 0
    worst = math.inf
    for game, found in report(css).items():
        print(game)
        for vision, (distance, a, b) in found["closest"].items():
            worst = min(worst, distance)
            print(f"  {vision:13} closest {a} / {b}: ΔE00 {distance:.1f}")
        for name, ratio in found["contrast"].items():
            print(f"  text on {name}: {ratio:.2f}:1")
    print(f"smallest distance: {worst:.1f} (floor {MIN_DELTA_E})")
    return 0 if worst >= MIN_DELTA_E else 1


if __name__ == "__main__":
    sys.exit(main())
