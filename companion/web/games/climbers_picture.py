"""The Climbers' tower as an isometric SVG picture, from a public view only.

Pure Python (no Flask): ``tower_svg(view, ...)`` returns an ``<svg>`` element as Markup.
Every block is drawn as its unit voxels (one unit = one figure square across and half a
cube's edge up; a unit of height looks as tall as a square is wide), in the painter's order
of a view from above and two sides. Only faces that no neighbouring voxel hides are drawn,
with thin strokes so the unit grid shows and bold ones along every block's edges.

No inline ``style`` and no script (the content security policy forbids both): colours are
presentation attributes, and class names leave the rest to the stylesheet.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from markupsafe import Markup, escape

from companion.games.climbers.data import BLOCKS, OPPOSITE_PAIRS, opposite

#: The real colours of the pieces.
PALETTE: dict[str, str] = {
    "red": "#d62828", "yellow": "#f4c20d", "dark-blue": "#1d3557",
    "light-blue": "#8ecae6", "violet": "#7b2cbf", "grey": "#9e9e9e",
}
TABLE_FILL, TABLE_EDGE = "#e4e4e4", "#c4c4c4"
HIGHLIGHT = "#ff6a00"
#: Side faces are shaded darker than the top so the shape reads: left-front, right-front.
SHADE_LEFT, SHADE_RIGHT = 0.80, 0.62

UNIT = 16.0                          # one unit of height on screen, in viewBox units
COS = UNIT * math.sqrt(3) / 2        # half the screen width of a square's diagonal
MARGIN = 1                           # table squares around the tower

Voxel = tuple[int, int, int]
Direction = tuple[int, int, int]
#: Each colour's letter, in the reader's language, as sorted pairs (a cache key).
Letters = tuple[tuple[str, str], ...]
X_PLUS, X_MINUS, Y_PLUS, Y_MINUS, Z_PLUS, Z_MINUS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0),
                                                      (0, -1, 0), (0, 0, 1), (0, 0, -1))


def _shade(colour: str, factor: float) -> str:
    value = colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(c * factor))) for c in (r, g, b)))


def _dark(colour: str) -> bool:
    value = colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b < 90


def face_colours(block: dict[str, Any]) -> dict[Direction, str]:
    """The colour name on each of the block's six faces, in the table's directions.

    The top is ``top`` and the bottom its opposite. The two other opposite pairs go round
    the sides by a fixed convention: a block's square faces (half-cubes and double cubes)
    face along its odd edge; otherwise the first remaining pair faces along x, the second
    along y, the pair's first colour towards +x / +y. Foundations are grey all over."""
    if block.get("kind") == "foundation" or block.get("top") not in PALETTE:
        return {d: "grey" for d in (X_PLUS, X_MINUS, Y_PLUS, Y_MINUS, Z_PLUS, Z_MINUS)}
    top = block["top"]
    rest: list[tuple[str, str]] = [(a, b) for a, b in OPPOSITE_PAIRS if top not in (a, b)]
    known = BLOCKS.get(block.get("id", ""))
    square = known.square_pair if known is not None else None
    w, d, h = block["w"], block["d"], block["h"]
    if square is not None and tuple(square) in rest:
        odd_axis = "x" if (w != d and d == h) else "y" if (d != w and w == h) else None
        if odd_axis is not None:
            other = next(pair for pair in rest if pair != tuple(square))
            first, second = square
            rest = [(first, second), other] if odd_axis == "x" else [other, (first, second)]
    (xp, xm), (yp, ym) = rest
    return {Z_PLUS: top, Z_MINUS: opposite(top), X_PLUS: xp, X_MINUS: xm,
            Y_PLUS: yp, Y_MINUS: ym}


def _rotate_cell(x: int, y: int, turn: int) -> tuple[int, int]:
    """The unit square (x, y) after ``turn`` quarter turns about the vertical axis."""
    for _ in range(turn % 4):
        x, y = -y - 1, x
    return x, y


def _rotate_direction(direction: Direction, turn: int) -> Direction:
    x, y, z = direction
    for _ in range(turn % 4):
        x, y = -y, x
    return (x, y, z)


def _project(x: float, y: float, z: float) -> tuple[float, float]:
    """Screen position of a point: the viewer looks from +x, +y and above; a larger x + y
    is nearer (lower on the screen)."""
    return ((x - y) * COS, (x + y) * UNIT / 2 - z * UNIT)


def _n(value: float) -> str:
    """A coordinate, short: one decimal, no trailing zero."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _pts(points: Iterable[tuple[float, float, float]]) -> str:
    return " ".join(f"{_n(sx)},{_n(sy)}" for sx, sy in (_project(*p) for p in points))


def _relative(points: list[tuple[float, float, float]]) -> str:
    """A closed outline as short path data: the first corner, then steps."""
    screen = [_project(*p) for p in points]
    steps = " ".join(f"{_n(b[0] - a[0])},{_n(b[1] - a[1])}" for a, b in pairwise(screen))
    return f"M{_n(screen[0][0])},{_n(screen[0][1])}l{steps}z"


def _path(segments: Iterable[tuple[tuple[float, float, float], tuple[float, float, float]]]
          ) -> str:
    return "".join(_segment(a, b) for a, b in segments)


@functools.lru_cache(maxsize=1 << 16)
def _segment(a: tuple[float, float, float], b: tuple[float, float, float]) -> str:
    """One edge as path data (the same edges come back in every picture of a tower)."""
    (ax, ay), (bx, by) = _project(*a), _project(*b)
    return f"M{_n(ax)},{_n(ay)}l{_n(bx - ax)},{_n(by - ay)}"


class _Box:
    """One block after the turn: its voxels' extent and colours by screen direction."""

    def __init__(self, block: dict[str, Any], turn: int) -> None:
        self.id = str(block["id"])
        corners = [_rotate_cell(block["x"], block["y"], turn),
                   _rotate_cell(block["x"] + block["w"] - 1, block["y"] + block["d"] - 1, turn)]
        self.x0, self.x1 = min(c[0] for c in corners), max(c[0] for c in corners) + 1
        self.y0, self.y1 = min(c[1] for c in corners), max(c[1] for c in corners) + 1
        self.z0, self.z1 = block["z"], block["z"] + block["h"]
        self.colours = {_rotate_direction(d, turn): name
                        for d, name in face_colours(block).items()}
        self.top = self.colours[Z_PLUS]
        self.fill = {
            Z_PLUS: PALETTE.get(self.top, PALETTE["grey"]),
            X_PLUS: _shade(PALETTE.get(self.colours[X_PLUS], PALETTE["grey"]), SHADE_RIGHT),
            Y_PLUS: _shade(PALETTE.get(self.colours[Y_PLUS], PALETTE["grey"]), SHADE_LEFT),
        }

    def voxels(self) -> Iterable[Voxel]:
        for x in range(self.x0, self.x1):
            for y in range(self.y0, self.y1):
                for z in range(self.z0, self.z1):
                    yield (x, y, z)

    def inside(self, x: int, y: int, z: int) -> bool:
        return self.x0 <= x < self.x1 and self.y0 <= y < self.y1 and self.z0 <= z < self.z1

    def edges(self) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
        """The box's twelve edges."""
        xs, ys, zs = (self.x0, self.x1), (self.y0, self.y1), (self.z0, self.z1)
        found: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
        for y in ys:
            for z in zs:
                found.append(((xs[0], y, z), (xs[1], y, z)))
        for x in xs:
            for z in zs:
                found.append(((x, ys[0], z), (x, ys[1], z)))
        for x in xs:
            for y in ys:
                found.append(((x, y, zs[0]), (x, y, zs[1])))
        return found


@functools.lru_cache(maxsize=1 << 16)
def _face_svg(voxel: Voxel, direction: Direction, fill: str) -> str:
    """A voxel's face, filled (the same faces come back in every picture of a tower)."""
    corners, _ = _face(voxel, direction)
    grid = ' stroke="#fff"' if _dark(fill) else ""
    return f'<path d="{_relative(corners)}" fill="{fill}"{grid}/>'


def _face(voxel: Voxel, direction: Direction
          ) -> tuple[list[tuple[float, float, float]], list[Direction]]:
    """A visible face's corners and, edge by edge, the in-plane direction across that edge."""
    x, y, z = voxel
    if direction == Z_PLUS:
        return ([(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)],
                [Y_MINUS, X_PLUS, Y_PLUS, X_MINUS])
    if direction == X_PLUS:
        return ([(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)],
                [Z_MINUS, Y_PLUS, Z_PLUS, Y_MINUS])
    return ([(x, y + 1, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)],
            [Z_MINUS, X_PLUS, Z_PLUS, X_MINUS])


def _seat_colour(view: dict[str, Any], seat: int) -> str:
    colours = view.get("colours") or []
    name = colours[seat] if 0 <= seat < len(colours) else "grey"
    return PALETTE.get(name, PALETTE["grey"])


def _parse_place(place: Any) -> tuple[int, int] | None:
    if not isinstance(place, str) or "," not in place:
        return None
    try:
        x, y = place.split(",")
        return int(x), int(y)
    except ValueError:
        return None


def _xray(sx: float, sy: float, colour: str, seat: int, element_id: str) -> str:
    """A figure behind blocks, drawn through them: its outline, dashed in its colour over a
    white halo, so every figure on the tower can be found."""
    r = UNIT * 0.26
    body_h = UNIT * 0.85
    shape = (f'<path d="M{sx - r * 1.1:.1f},{sy:.1f}L{sx - r * 0.55:.1f},{sy - body_h:.1f}'
             f'L{sx + r * 0.55:.1f},{sy - body_h:.1f}L{sx + r * 1.1:.1f},{sy:.1f}Z"></path>'
             f'<circle cx="{sx:.1f}" cy="{sy - body_h - r * 0.6:.1f}" r="{r:.1f}"></circle>')
    return (f'<g{element_id} class="cl-xray" data-seat="{seat}" fill="none">'
            f'<g stroke="#fff" stroke-width="3">{shape}</g>'
            f'<g stroke="{colour}" stroke-width="1.6" stroke-dasharray="2.5 1.5">{shape}</g></g>')


def _figure(sx: float, sy: float, fill: str, seat: int, number: bool, element_id: str) -> str:
    """A peg standing at screen point (sx, sy): a base shadow, a body and a head."""
    r = UNIT * 0.26
    body_h = UNIT * 0.85
    parts = [
        f'<g{element_id} class="cl-figure" data-seat="{seat}">',
        f'<ellipse cx="{sx:.1f}" cy="{sy:.1f}" rx="{r * 1.5:.1f}" ry="{r * 0.8:.1f}" '
        'fill="#000" fill-opacity="0.3" stroke="none"></ellipse>',
        f'<path d="M{sx - r * 1.1:.1f},{sy:.1f}L{sx - r * 0.55:.1f},{sy - body_h:.1f}'
        f'L{sx + r * 0.55:.1f},{sy - body_h:.1f}L{sx + r * 1.1:.1f},{sy:.1f}Z" fill="{fill}" '
        'stroke="#111" stroke-opacity="1" stroke-width="0.9"></path>',
        f'<circle cx="{sx:.1f}" cy="{sy - body_h - r * 0.6:.1f}" r="{r:.1f}" fill="{fill}" '
        'stroke="#111" stroke-opacity="1" stroke-width="0.9"></circle>',
    ]
    if number:
        parts.append(f'<text x="{sx:.1f}" y="{sy + UNIT * 0.95:.1f}" text-anchor="middle" '
                     f'font-size="{UNIT * 0.7:.0f}" font-weight="700" font-family="sans-serif" '
                     'fill="#222" stroke="none" class="cl-seatno">'
                     f'{seat + 1}</text>')
    parts.append("</g>")
    return "".join(parts)


#: The wood of the ladders.
LADDER = "#8d5a2b"


def _stone(sx: float, sy: float, ring: str, seat: int, element_id: str) -> str:
    """A blocking stone: black in a white ring and its owner's colour, crossed in white, so
    it stands out on any colour of top."""
    r = 0.45
    rx, ry = r * math.sqrt(2) * COS, r * math.sqrt(2) * UNIT / 2
    return (f'<g{element_id} class="cl-stone" data-seat="{seat}">'
            f'<ellipse cx="{sx:.1f}" cy="{sy:.1f}" rx="{rx + 1.6:.1f}" ry="{ry + 1.6:.1f}" '
            f'fill="{ring}" stroke="#111" stroke-opacity="1" stroke-width="0.8"></ellipse>'
            f'<ellipse cx="{sx:.1f}" cy="{sy:.1f}" rx="{rx:.1f}" ry="{ry:.1f}" fill="#111" '
            'stroke="#fff" stroke-opacity="1" stroke-width="1.4"></ellipse>'
            f'<path d="M{sx - rx * 0.5:.1f},{sy - ry * 0.5:.1f}L{sx + rx * 0.5:.1f},'
            f'{sy + ry * 0.5:.1f}M{sx + rx * 0.5:.1f},{sy - ry * 0.5:.1f}L{sx - rx * 0.5:.1f},'
            f'{sy + ry * 0.5:.1f}" stroke="#fff" stroke-opacity="1" stroke-width="1.6"></path>'
            '</g>')


def _ladder(event: dict[str, Any], turn: int,
            heights: dict[tuple[int, int], int], element_id: str) -> list[str]:
    """The ladder a walk has just climbed: from the foot's top (or the table beside the
    block) to the edge of the square it reached, drawn over the tower."""
    top = _parse_place(event.get("to"))
    if top is None:
        return []
    tx, ty = _rotate_cell(top[0], top[1], turn)
    foot = _parse_place(event.get("from"))
    if foot is not None:
        fx, fy = _rotate_cell(foot[0], foot[1], turn)
    else:  # from the table: the bare square beside it, nearest the viewer
        bare = [(tx + dx, ty + dy) for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))
                if heights.get((tx + dx, ty + dy), 0) == 0]
        if not bare:
            return []
        fx, fy = bare[0]
    dx, dy = tx - fx, ty - fy
    if abs(dx) + abs(dy) != 1:
        return []
    low, high = heights.get((fx, fy), 0), heights.get((tx, ty), 0)
    px, py = -dy * 0.28, dx * 0.28  # half the ladder's width, across the climb
    base = (fx + 0.5 + dx * 0.05, fy + 0.5 + dy * 0.05, low)
    head = (fx + 0.5 + dx * 0.5, fy + 0.5 + dy * 0.5, high + 0.4)
    rails = [((base[0] + sx * px, base[1] + sx * py, base[2]),
              (head[0] + sx * px, head[1] + sx * py, head[2])) for sx in (-1, 1)]
    rungs = []
    for step in range(1, 2 * (high - low) + 1):
        t = step / (2 * (high - low) + 1)
        x, y, z = (base[i] + (head[i] - base[i]) * t for i in range(3))
        rungs.append(((x - px, y - py, z), (x + px, y + py, z)))
    name = escape(str(event.get("ladder", "")))
    return [f'<g{element_id} class="cl-ladder-drawn" data-ladder="{name}">'
            f'<path d="{_path(rails + rungs)}" fill="none" stroke="#fff" stroke-width="4.2" '
            'stroke-linecap="round"/>'
            f'<path d="{_path(rails + rungs)}" fill="none" stroke="{LADDER}" '
            'stroke-width="2.2" stroke-linecap="round"/></g>']


#: The picture's frame is rounded out to this many squares.
FRAME = 4


def _side_label(text: str, turn: int, bounds: tuple[float, float, float, float],
                element_id: str) -> tuple[str, tuple[float, float]]:
    """``text`` beside the table, by the middle of its edge on the tower's north side (the
    side facing the table screen), after ``turn`` quarter turns; and where it is."""
    min_x, max_x, min_y, max_y = bounds
    dx, dy, _ = _rotate_direction((0, 1, 0), turn)
    mid_x, mid_y = (min_x + max_x) / 2, (min_y + max_y) / 2
    x = {1: max_x + 1.2, -1: min_x - 1.2}.get(dx, mid_x)
    y = {1: max_y + 1.2, -1: min_y - 1.2}.get(dy, mid_y)
    sx, sy = _project(x, y, 0)
    return (f'<text{element_id} x="{_n(sx)}" y="{_n(sy)}" text-anchor="middle" '
            f'font-size="{_n(UNIT * 0.8)}" font-weight="700" font-family="sans-serif" '
            f'fill="{HIGHLIGHT}" stroke="#fff" stroke-width="2.4" paint-order="stroke" '
            f'class="cl-screen-side">▲ {escape(text)}</text>'), (sx, sy)


def _round_down(value: int) -> int:
    return value - value % FRAME


def _key(*parts: object) -> str:
    """Part of an element id from names and numbers (a minus sign spelt ``m``, a decimal
    point ``p``)."""
    return "_".join(str(part).replace("-", "m").replace(".", "p") for part in parts)


class _Ids:
    """Element ids for a picture's pieces, and the markers that make each a list item of the
    page region it is drawn in (see ``companion.live``), so that a push after a move sends
    only the pieces it changed. With no prefix, no ids and no markers."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def attr(self, *parts: object) -> str:
        return f' id="{self.prefix}{_key(*parts)}"' if self.prefix else ""

    def list_attr(self, name: str) -> str:
        return f' id="{self.prefix}{name}"' if self.prefix else ""

    def item(self, list_name: str, svg: str) -> str:
        return f"<!--i:{self.prefix}{list_name}-->{svg}<!--/i-->" if self.prefix else svg


@dataclass(frozen=True)
class _Scene:
    """A picture's blocks, drawn: what a move that leaves them alone (a walk, a stone)
    does not draw again."""

    boxes: list[_Box]
    owner: dict[Voxel, _Box]
    heights: dict[tuple[int, int], int]
    #: The blocks' pieces of the painter's list: (depth, layer, name, svg).
    items: tuple[tuple[int, int, str, str], ...]
    #: Each colour's letter (none: the blocks are not lettered).
    letters: dict[str, str] = field(default_factory=dict)
    #: The blocks' labels as drawn, by the block whose label is big (a build step's).
    labels: dict[str | None, list[str]] = field(default_factory=dict)

    @functools.cached_property
    def highest(self) -> int:
        """The height of the highest voxel (the table's is -1)."""
        return max(self.heights.values(), default=0) - 1

    def hidden_point(self, px: float, py: float, pz: float) -> bool:
        """Whether a point on a top is hidden from the viewer by a voxel in front of it."""
        x, y, z = math.floor(px - 0.5), math.floor(py - 0.5), math.floor(pz - 0.5)
        # Only as far along the line of sight as there are voxels high enough to meet it.
        for k in range(1, min(40, self.highest - z + 1)):
            if (x + k, y + k, z + k) in self.owner or (x + k, y + k, z + k + 1) in self.owner:
                return True
        return False

    def top_block(self, x: int, y: int) -> _Box | None:
        h = self.heights.get((x, y), 0)
        return self.owner.get((x, y, h - 1)) if h else None

    def labelled(self, named: _Ids, big: str | None) -> list[str]:
        """Every block's id on the visible part of its top; ``big``'s is big enough for a
        small picture (a build step's new block). Kept: a walk or a stone leaves them."""
        found = self.labels.get(big)
        if found is None:
            found = self.labels[big] = [label for box in sorted(self.boxes, key=lambda b: b.id)
                                        if (label := self._label(box, named, big)) is not None]
        return found

    def _label(self, box: _Box, named: _Ids, big: str | None) -> str | None:
        tops = [(x, y) for x in range(box.x0, box.x1) for y in range(box.y0, box.y1)
                if self.heights.get((x, y)) == box.z1 and self.top_block(x, y) is box]
        seen = [s for s in tops if not self.hidden_point(s[0] + 0.5, s[1] + 0.5, box.z1)]
        if not seen:
            return None
        if len(seen) == (box.x1 - box.x0) * (box.y1 - box.y0):
            px, py = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        else:
            sx_, sy_ = max(seen, key=lambda s: (s[0] + s[1], s[0]))
            px, py = sx_ + 0.5, sy_ + 0.5
        sx, sy = _project(px, py, box.z1)
        large = box.id == big
        font = UNIT * (1.25 if large else 0.62)
        return (f'<text{named.attr("label", box.id)} x="{_n(sx)}" '
                f'y="{_n(sy + font * 0.35)}" text-anchor="middle" '
                f'font-size="{_n(font)}" font-weight="700" '
                'font-family="sans-serif" fill="#111" '
                f'stroke="{HIGHLIGHT if large else "#fff"}" '
                f'stroke-width="{3.5 if large else 2.4}" paint-order="stroke" '
                f'class="cl-label" data-block="{escape(box.id)}">'
                f'{escape(box.id)}{self._top_letter(box)}</text>')

    def _top_letter(self, box: _Box) -> str:
        """The top's colour letter in a block's label, after its id, lighter."""
        letter = self.letters.get(box.top)
        if not letter:
            return ""
        return (f'<tspan class="cl-letter" data-colour="{escape(box.top)}" font-weight="400"'
                f' dx="2">{escape(letter)}</tspan>')


#: Scenes drawn lately, by their blocks, turn, highlighted block and id prefix.
_SCENES: OrderedDict[tuple[str, int, str | None, str, Letters, bool], _Scene] = OrderedDict()
_SCENES_LOCK = threading.Lock()
SCENES_KEPT = 128


def _scene(blocks: list[dict[str, Any]], turn: int, highlight: str | None,
           named: _Ids, letters: Letters = (), labels: bool = False) -> _Scene:
    key = (json.dumps(blocks, sort_keys=True), turn, highlight, named.prefix, letters, labels)
    with _SCENES_LOCK:
        found = _SCENES.get(key)
        if found is not None:
            _SCENES.move_to_end(key)
            return found
    scene = _draw_scene(blocks, turn, highlight, named, letters, labels)
    with _SCENES_LOCK:
        _SCENES[key] = scene
        while len(_SCENES) > SCENES_KEPT:
            _SCENES.popitem(last=False)
    return scene


#: Where on a face its letter sits: the visible voxel face nearest the face's middle.
_FACE_MIDDLE: dict[Direction, tuple[float, float, float]] = {
    Z_PLUS: (0.5, 0.5, 1.0), X_PLUS: (1.0, 0.5, 0.5), Y_PLUS: (0.5, 1.0, 0.5)}


def _face_letters(box: _Box, voxels: list[Voxel], covered: tuple[bool, ...],
                  letters: Letters, top: bool) -> dict[int, list[str]]:
    """The colour's letter on each of the box's faces turned to the viewer (the top's only
    with ``top``: a labelled picture prints it in the label), at the visible voxel face
    nearest that face's middle, by the depth of that voxel (so that what stands in front
    of it covers it as it covers the face)."""
    if not letters:
        return {}
    by_colour = dict(letters)
    marks: dict[int, list[str]] = {}
    for index, direction in enumerate(_SIDES):
        if direction == Z_PLUS and not top:
            continue
        open_faces = [v for n, v in enumerate(voxels) if not covered[n * 3 + index]]
        text = by_colour.get(box.colours[direction])
        if not open_faces or not text:
            continue
        middle = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2, (box.z0 + box.z1) / 2)
        ox, oy, oz = _FACE_MIDDLE[direction]
        x, y, z = min(open_faces, key=lambda v: (abs(v[0] + ox - middle[0])
                                                 + abs(v[1] + oy - middle[1])
                                                 + abs(v[2] + oz - middle[2]), v))
        sx, sy = _project(x + ox, y + oy, z + oz)
        fill = box.fill[direction]
        font = UNIT * (0.62 if len(text) == 1 else 0.5)
        ink = "#fff" if _dark(fill) else "#111"
        marks.setdefault(x + y + z, []).append(
            f'<text x="{_n(sx)}" y="{_n(sy + font * 0.36)}" text-anchor="middle" '
            f'font-size="{_n(font)}" font-weight="700" font-family="sans-serif" '
            f'fill="{ink}" stroke="none" class="cl-letter" '
            f'data-colour="{escape(box.colours[direction])}">{escape(text)}</text>')
    return marks


#: A block's pieces drawn lately, by the block (turned), what covers its faces, whether it
#: is highlighted and the id prefix: a block move draws again only the blocks it touches.
_BOX_ITEMS: OrderedDict[tuple[Any, ...], list[tuple[int, int, str, str]]] = OrderedDict()
BOX_ITEMS_KEPT = 8192
_SIDES = (Z_PLUS, X_PLUS, Y_PLUS)


def _box_items(box: _Box, owner: dict[Voxel, _Box], highlighted: bool,
               named: _Ids, letters: Letters, top: bool) -> list[tuple[int, int, str, str]]:
    """``box``'s pieces for the painter's list: one group per depth of its voxels' visible
    faces (the faces another block covers are not drawn), their outline and, with
    ``letters``, the colour's letter on each visible face (see ``_face_letters``)."""
    voxels = sorted(box.voxels())
    covered = tuple((x + dx, y + dy, z + dz) in owner
                    for x, y, z in voxels for dx, dy, dz in _SIDES)
    key = (box.id, box.x0, box.x1, box.y0, box.y1, box.z0, box.z1,
           tuple(sorted(box.fill.items())), covered, highlighted, named.prefix, letters, top)
    with _SCENES_LOCK:
        found = _BOX_ITEMS.get(key)
        if found is not None:
            _BOX_ITEMS.move_to_end(key)
            return found
    Segment = tuple[tuple[float, float, float], tuple[float, float, float]]
    pieces: dict[int, tuple[list[str], list[Segment]]] = {}
    hidden = iter(covered)
    for x, y, z in voxels:
        faces: list[str] = []
        outline: list[Segment] = []
        for direction in _SIDES:
            if next(hidden):
                continue
            corners, across = _face((x, y, z), direction)
            outline.extend((corners[i], corners[(i + 1) % 4]) for i in range(4)
                           if not box.inside(x + across[i][0], y + across[i][1],
                                             z + across[i][2]))
            faces.append(_face_svg((x, y, z), direction, box.fill[direction]))
        if faces:
            # One group for a block's voxels at the same depth: they never overlap.
            piece = pieces.setdefault(x + y + z, ([], []))
            piece[0].extend(faces)
            piece[1].extend(outline)
    marks = _face_letters(box, voxels, covered, letters, top)
    items: list[tuple[int, int, str, str]] = []
    for depth, (faces, outline) in pieces.items():
        parts = list(faces) + marks.get(depth, [])
        if outline and highlighted:
            parts.append(f'<path class="cl-hl-edge" d="{_path(outline)}" fill="none" '
                         f'stroke="{HIGHLIGHT}" stroke-opacity="1" stroke-width="3.2"/>')
        elif outline:
            parts.append(f'<path d="{_path(outline)}" fill="none" stroke="#1a1a1a" '
                         'stroke-opacity="1" stroke-width="1.1"/>')
        cls = ' class="cl-hl"' if highlighted else ""
        name = (box.id, box.x0, box.y0, box.z0, depth)
        items.append((depth, 0, _key(*name), f'<g{named.attr(*name)} data-block='
                      f'"{escape(box.id)}"{cls}>' + "".join(parts) + "</g>"))
    with _SCENES_LOCK:
        _BOX_ITEMS[key] = items
        while len(_BOX_ITEMS) > BOX_ITEMS_KEPT:
            _BOX_ITEMS.popitem(last=False)
    return items


def _draw_scene(blocks: list[dict[str, Any]], turn: int, highlight: str | None,
                named: _Ids, letters: Letters, labels: bool) -> _Scene:
    boxes = [_Box(block, turn) for block in blocks]
    owner: dict[Voxel, _Box] = {}
    for box in boxes:
        for voxel in box.voxels():
            owner[voxel] = box

    # Painter's list: (key, order, svg). Voxels with the same x + y + z never overlap on
    # the screen; things standing on a top are drawn just after the voxel under them.
    items = [item for box in boxes
             for item in _box_items(box, owner, box.id == highlight, named, letters,
                                    not labels)]

    heights: dict[tuple[int, int], int] = {}
    for (vx, vy, vz) in owner:
        heights[(vx, vy)] = max(heights.get((vx, vy), 0), vz + 1)

    return _Scene(boxes, owner, heights, tuple(items), dict(letters))


def tower_svg(view: dict[str, Any], turn: int = 0, highlight: str | None = None,
              labels: bool = False, upto: int | None = None,
              title: str | None = None, ids: str = "",
              screen_side: str | None = None,
              letters: dict[str, str] | None = None) -> Markup:
    """The tower in ``view`` seen from above and two sides, turned ``turn`` quarter turns.

    ``highlight``: a block id outlined thickly (its hidden edges dashed over everything).
    ``labels``: every block's id on the visible part of its top. ``upto``: only the first
    ``upto`` blocks of the build order, the last of them highlighted (a build step; no
    figures).
    ``title``: the accessible name (the caller translates it). ``ids``: a prefix, unique in
    the page, for the ids of the picture's pieces (see ``_Ids``). ``screen_side``: written
    on the table beside the tower's side that faces the table screen (north, +y), so the
    group can turn the real tower to match. ``letters``: each colour's letter (the
    caller's language), printed on every block face turned to the viewer, so a colour is
    never told by its fill alone."""
    turn = int(turn or 0) % 4
    named = _Ids(ids)
    placed = {str(block["id"]): block for block in view.get("blocks") or []}
    every = list(placed.values())
    if upto is not None:
        order = [block_id for block_id in view.get("order") or [] if block_id in placed]
        chosen = order[:max(0, int(upto))]
        blocks = [placed[block_id] for block_id in chosen]
        if chosen and highlight is None:
            highlight = chosen[-1]
    else:
        blocks = every

    scene = _scene(blocks, turn, highlight, named, tuple(sorted((letters or {}).items())),
                   labels)
    boxes, heights = scene.boxes, scene.heights

    # The table: the whole tower's footprint (every block, so build steps line up) plus a
    # margin, and a strip in front for the figures still on the table.
    plane_boxes = (boxes if upto is None else [_Box(block, turn) for block in every]) or boxes
    if plane_boxes:
        min_x: float
        max_x: float
        min_y: float
        max_y: float
        # Rounded out to whole frames, so that the picture's frame (and a push's share of
        # it) changes only when the tower spreads well beyond it.
        min_x = _round_down(min(b.x0 for b in plane_boxes) - MARGIN)
        max_x = -_round_down(-max(b.x1 for b in plane_boxes) - MARGIN)
        min_y = _round_down(min(b.y0 for b in plane_boxes) - MARGIN)
        max_y = -_round_down(-max(b.y1 for b in plane_boxes) - MARGIN)
    else:
        min_x, max_x, min_y, max_y = -MARGIN, 4 + MARGIN, -MARGIN, 2 + MARGIN
    figures = view.get("figures") or {} if upto is None else {}
    on_table = sorted(int(seat) for seat, f in figures.items()
                      if _parse_place((f or {}).get("place")) is None)
    if on_table:
        max_y += 1.5
        max_x = max(max_x, min_x + 1 + 2 * len(on_table))

    items = list(scene.items)  # (depth, layer, name, svg): the blocks', then the rest

    top_block, hidden_point = scene.top_block, scene.hidden_point

    occupied: set[tuple[int, int]] = set()
    standing: list[tuple[int, int, int, int]] = []  # seat, x, y, height of the figures up
    for seat_key, figure in sorted(figures.items()):
        seat = int(seat_key)
        square = _parse_place((figure or {}).get("place"))
        if square is None:
            continue
        x, y = _rotate_cell(square[0], square[1], turn)
        h = heights.get((x, y), int((figure or {}).get("height") or 0))
        occupied.add((x, y))
        standing.append((seat, x, y, h))
        sx, sy = _project(x + 0.5, y + 0.5, h)
        items.append((x + y + h - 1, 2, _key("fig", seat),
                      _figure(sx, sy, _seat_colour(view, seat), seat, False,
                              named.attr("fig", seat, x, y, h))))
    for index, seat in enumerate(on_table):
        tx, ty = min_x + 1 + 2 * index, max_y - 0.9
        sx, sy = _project(tx, ty, 0)
        items.append((math.ceil(tx + ty), 2, _key("fig", seat),
                      _figure(sx, sy, _seat_colour(view, seat), seat, True,
                              named.attr("fig", seat, "t", tx, ty))))

    # Stones go over the scene, under the labels: a stone half behind a block still shows.
    stones: list[str] = []
    if upto is None:
        for seat_key, block_id in sorted((view.get("blocked") or {}).items()):
            squares = [(x, y) for (x, y) in heights if (b := top_block(x, y)) is not None
                       and b.id == block_id]
            if not squares:
                continue
            seen = [s for s in squares
                    if not hidden_point(s[0] + 0.5, s[1] + 0.5, heights[s])] or squares
            free = [s for s in seen if s not in occupied] or seen
            # The back-most square: the block's label goes on the front-most one.
            x, y = min(free, key=lambda s: (s[0] + s[1], s[0]))
            h = heights[(x, y)]
            sx, sy = _project(x + 0.5, y + 0.5, h)
            stones.append(_stone(sx, sy, _seat_colour(view, int(seat_key)), int(seat_key),
                                 named.attr("stone", seat_key, x, y, h)))

    # Pieces at one depth never overlap: among them, a fixed order by name keeps the
    # pieces a move did not touch in the same order.
    items.sort(key=lambda item: item[:3])

    overlay: list[str] = list(stones)
    if labels:
        # A build step's new block gets a label big enough for a small picture.
        overlay.extend(scene.labelled(named, highlight if upto is not None else None))
    for seat, x, y, h in standing:
        if hidden_point(x + 0.5, y + 0.5, h) or hidden_point(x + 0.5, y + 0.5, h + 1):
            sx, sy = _project(x + 0.5, y + 0.5, h)
            overlay.append(_xray(sx, sy, _seat_colour(view, seat), seat,
                                 named.attr("xray-fig", seat, x, y, h)))
    if upto is None:
        ladders = [event for event in view.get("effects") or [] if event.get("kind") == "ladder"]
        for number, event in enumerate(ladders):
            overlay.extend(_ladder(event, turn, heights, named.attr("ladder", number)))
    if highlight is not None:
        target = next((box for box in boxes if box.id == highlight), None)
        if target is not None:
            overlay.insert(0, f'<path{named.attr("xray")} d="{_path(target.edges())}" '
                              f'stroke="{HIGHLIGHT}" '
                              'stroke-width="1.6" stroke-dasharray="3 2.5" fill="none" '
                              f'class="cl-hl-xray" data-block="{escape(target.id)}"></path>')

    # The view box: everything projected, with room for a head above the top.
    corners3 = [(min_x, min_y, 0), (max_x, min_y, 0), (max_x, max_y, 0), (min_x, max_y, 0)]
    screen = [_project(*p) for p in corners3]
    if screen_side:
        svg, (sx, sy) = _side_label(screen_side, turn, (min_x, max_x, min_y, max_y),
                                    named.attr("screen-side"))
        overlay.append(svg)
        half = len(screen_side) * UNIT * 0.3
        screen += [(sx - half, sy + UNIT), (sx + half, sy - UNIT)]
    for box in plane_boxes:
        for p in ((box.x0, box.y0, box.z1), (box.x1, box.y1, box.z1),
                  (box.x0, box.y1, box.z1), (box.x1, box.y0, box.z1)):
            screen.append(_project(*p))
    step = FRAME * UNIT  # rounded out, as the table is
    left = math.floor((min(p[0] for p in screen) - UNIT) / step) * step
    right = math.ceil((max(p[0] for p in screen) + UNIT) / step) * step
    top = math.floor((min(p[1] for p in screen) - UNIT * 2.2) / step) * step
    bottom = math.ceil((max(p[1] for p in screen) + UNIT) / step) * step
    vb_w, vb_h = right - left, bottom - top

    label = title or ("The tower" + (f", build step {upto}" if upto is not None else "")
                      + (f", turned {turn} quarter" + ("s" if turn > 1 else "") if turn else ""))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="cl-tower" role="img" '
            f'viewBox="{left:.1f} {top:.1f} {vb_w:.1f} {vb_h:.1f}" '
            f'aria-label="{escape(label)}" data-turn="{turn}"'
            + (f' data-upto="{int(upto)}"' if upto is not None else "") + ">")
    body = [head, f"<title>{escape(label)}</title>",
            f'<polygon class="cl-table" points="{_pts(corners3)}" fill="{TABLE_FILL}" '
            f'stroke="{TABLE_EDGE}" stroke-width="1"></polygon>']
    # Faces inherit a thin grid stroke; figures, stones and edges set their own.
    body.append(f'<g{named.list_attr("scene")} class="cl-scene" stroke="#000" '
                'stroke-opacity="0.3" stroke-width="0.6" stroke-linecap="round" '
                'stroke-linejoin="round">')
    body.extend(named.item("scene", svg) for *_, svg in items)
    body.append(f'</g><g{named.list_attr("over")}>')
    body.extend(named.item("over", svg) for svg in overlay)
    body.append("</g></svg>")
    return Markup("".join(body))
