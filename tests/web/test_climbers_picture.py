"""The Climbers' tower picture: an isometric SVG drawn from a view, without Flask."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from companion.games.climbers import Climbers
from companion.web.games import climbers_picture
from companion.web.games.climbers_picture import PALETTE, face_colours, tower_svg

SVG = "{http://www.w3.org/2000/svg}"
G = Climbers()


def a_view(seed: int = 11, **changes: Any) -> dict[str, Any]:
    state = G.setup(3, {}, seed)
    state.update(changes)
    return G.view(state, None)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(str(svg))
    assert root.tag == f"{SVG}svg"
    return root


def block_groups(root: ET.Element) -> set[str]:
    return {g.get("data-block", "") for g in root.iter(f"{SVG}g") if g.get("data-block")}


@pytest.mark.parametrize("seed", [1, 11, 2024])
def test_a_generated_tower_is_valid_svg_with_a_name(seed: int) -> None:
    svg = tower_svg(a_view(seed))
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label")
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}title").text
    assert re.fullmatch(r"-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+", root.get("viewBox", ""))
    assert root.find(f"{SVG}polygon").get("class") == "cl-table"


def test_every_top_colour_is_drawn() -> None:
    view = a_view()
    svg = str(tower_svg(view))
    for block in view["blocks"]:
        assert PALETTE[block["top"]] in svg, block


def test_no_inline_style_and_no_script() -> None:
    view = a_view(figures={"0": "1,0", "1": None, "2": None}, blocked={"2": "C1"})
    for svg in (tower_svg(view), tower_svg(view, turn=2, labels=True, highlight="D1"),
                tower_svg(view, upto=5, labels=True)):
        text = str(svg)
        assert "style=" not in text and "<style" not in text
        assert "<script" not in text.lower() and "javascript:" not in text.lower()
        assert not re.search(r"\son\w+=", text)


def test_the_highlighted_block_is_marked() -> None:
    view = a_view()
    block_id = view["blocks"][-1]["id"]
    root = parse(tower_svg(view, highlight=block_id))
    marked = [el for el in root.iter() if "cl-hl" in (el.get("class") or "").split()]
    assert marked and all(el.get("data-block") == block_id for el in marked)
    xray = [el for el in root.iter() if el.get("class") == "cl-hl-xray"]
    assert len(xray) == 1 and xray[0].get("data-block") == block_id
    assert "cl-hl" not in str(tower_svg(view))


def test_labels_name_the_blocks_whose_tops_show() -> None:
    view = a_view()
    root = parse(tower_svg(view, labels=True))
    named = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "cl-label"}
    tops = {cell["block"] for cell in view["cells"]}
    assert named and named <= tops
    # The block on the highest square can always be seen from above.
    highest = max(view["cells"], key=lambda cell: cell["height"])
    assert highest["block"] in named
    assert not [t for t in parse(tower_svg(view)).iter(f"{SVG}text")
                if t.get("class") == "cl-label"]


def test_quarter_turns_give_different_pictures() -> None:
    view = a_view()
    pictures = {str(tower_svg(view, turn=turn)) for turn in range(4)}
    assert len(pictures) == 4
    assert str(tower_svg(view, turn=4)) == str(tower_svg(view, turn=0))
    for turn in range(4):
        parse(tower_svg(view, turn=turn, labels=True))


def test_upto_draws_only_the_first_blocks_and_highlights_the_last() -> None:
    view = a_view()
    for k in (1, 2, 7, len(view["order"])):
        root = parse(tower_svg(view, upto=k, labels=True))
        drawn = block_groups(root)
        assert drawn <= set(view["order"][:k])
        assert view["order"][k - 1] in drawn  # nothing rests on the newest block yet
        marked = {el.get("data-block") for el in root.iter() if el.get("class") == "cl-hl"}
        assert marked == {view["order"][k - 1]}
        assert root.get("data-upto") == str(k)
    assert block_groups(parse(tower_svg(view, upto=1))) == {view["order"][0]}
    assert not block_groups(parse(tower_svg(view, upto=0)))


def test_a_figure_on_a_block_and_figures_on_the_table() -> None:
    view = a_view()
    square = max(view["cells"], key=lambda cell: cell["height"])
    place = f"{square['x']},{square['y']}"
    view = a_view(figures={"0": place, "1": None, "2": None})
    root = parse(tower_svg(view))
    figures = {g.get("data-seat"): g for g in root.iter(f"{SVG}g")
               if g.get("class") == "cl-figure"}
    assert set(figures) == {"0", "1", "2"}
    fills = {el.get("fill") for el in figures["0"] if el.tag == f"{SVG}circle"}
    assert fills == {PALETTE["red"]}
    # Seats 1 and 2 wait on the table with their seat numbers.
    numbers = {t.text for g in (figures["1"], figures["2"]) for t in g.iter(f"{SVG}text")}
    assert numbers == {"2", "3"}
    assert not [t for t in figures["0"].iter(f"{SVG}text")]
    # Build steps show no figures.
    assert "cl-figure" not in str(tower_svg(view, upto=3))


def test_a_blocking_stone_sits_on_its_block_in_its_owner_colour() -> None:
    view = a_view()
    block_id = view["cells"][0]["block"]
    view = a_view(blocked={"1": block_id}, stones={"0": "unused", "1": "used", "2": "unused"})
    stones = [el for el in parse(tower_svg(view)).iter(f"{SVG}g")
              if el.get("class") == "cl-stone"]
    assert len(stones) == 1
    ring, stone = stones[0].iter(f"{SVG}ellipse")
    assert ring.get("fill") == PALETTE["dark-blue"]
    # It stands out on any top: black in a white rim, crossed in white.
    assert (stone.get("fill"), stone.get("stroke")) == ("#111", "#fff")
    assert [p.get("stroke") for p in stones[0].iter(f"{SVG}path")] == ["#fff"]


def test_a_figure_behind_blocks_is_drawn_through_them() -> None:
    view = a_view()
    highest = max(view["cells"], key=lambda cell: cell["height"])

    def xrays(cell: dict[str, Any]) -> list[ET.Element]:
        placed = a_view(figures={"0": f"{cell['x']},{cell['y']}", "1": None, "2": None})
        return [g for g in parse(tower_svg(placed)).iter(f"{SVG}g")
                if g.get("class") == "cl-xray"]

    assert xrays(highest) == []  # on top of the tower, in plain sight
    hidden = [found for cell in view["cells"] if (found := xrays(cell))]
    assert hidden, "no square of the tower is hidden from the viewer"
    outline = hidden[0][0]
    assert outline.get("data-seat") == "0"
    assert PALETTE["red"] in {g.get("stroke") for g in outline.iter(f"{SVG}g")}


def test_faces_hidden_by_neighbours_are_skipped() -> None:
    view = a_view()
    voxels = sum(b["w"] * b["d"] * b["h"] for b in view["blocks"])
    faces = len([el for g in parse(tower_svg(view)).iter(f"{SVG}g") if g.get("data-block")
                 for el in g if el.get("fill") not in (None, "none")])
    assert 0 < faces < voxels * 3 / 2


def test_face_colours_follow_the_pairs() -> None:
    cube = {"id": "C1", "kind": "cube", "x": 0, "y": 0, "z": 0, "w": 2, "d": 2, "h": 2,
            "top": "red", "long": None}
    faces = face_colours(cube)
    assert faces[(0, 0, 1)] == "red" and faces[(0, 0, -1)] == "yellow"
    assert {faces[(1, 0, 0)], faces[(-1, 0, 0)]} in ({"dark-blue", "light-blue"},
                                                    {"violet", "grey"})
    assert sorted(faces.values()) == sorted(["red", "yellow", "dark-blue", "light-blue",
                                             "violet", "grey"])
    # A half-cube on its edge, thin along x: its square faces (red/yellow) face along x.
    half = {"id": "H1", "kind": "half", "x": 0, "y": 0, "z": 0, "w": 1, "d": 2, "h": 2,
            "top": "violet", "long": "x"}
    faces = face_colours(half)
    assert {faces[(1, 0, 0)], faces[(-1, 0, 0)]} == {"red", "yellow"}
    foundation = {"id": "F1", "kind": "foundation", "x": 0, "y": 0, "z": 0, "w": 2, "d": 2,
                  "h": 6, "top": "grey", "long": None}
    assert set(face_colours(foundation).values()) == {"grey"}


def test_the_title_names_it() -> None:
    root = parse(tower_svg(a_view(), title="La tour"))
    assert root.get("aria-label") == "La tour"
    assert root.find(f"{SVG}title").text == "La tour"


def test_the_ladder_just_climbed_stands_where_it_was_used() -> None:
    # Seed 21: the first player, on the table, reaches 2,5 only with the long ladder.
    state = G.apply(G.setup(2, {}, 21), 0, {"type": "built"})
    state = G.apply(state, 0, {"type": "walk", "to": "2,5", "ladders": "long"})
    assert state["effects"] == [{"rule": "cl.ladder.once", "kind": "ladder", "ladder": "long",
                                 "from": "table", "to": "2,5"}]
    view = G.view(state, None)
    root = parse(tower_svg(view))
    drawn = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
             if g.get("class") == "cl-ladder-drawn"]
    assert [g.get("data-ladder") for g in drawn] == ["long"]
    assert 'class="cl-ladder-drawn"' not in tower_svg(view, upto=5)
    after = G.apply(state, 0, {"type": "pass"})
    assert 'class="cl-ladder-drawn"' not in tower_svg(G.view(after, None))


def test_with_ids_every_piece_is_a_list_item_and_a_move_leaves_the_others_alone() -> None:
    """A push after a move sends only the pieces it changed (see companion.live): each piece
    has an id unique in the picture, and the pieces of the blocks that did not move keep
    their ids and their order."""
    from companion.web.diff import Part

    view = a_view(figures={"0": "1,0", "1": None, "2": None})
    before = Part.of("board", f'<div id="board">{tower_svg(view, labels=True, ids="t-")}</div>')
    ids = [item.id for item in before.items]
    assert len(ids) == len(set(ids)) > len(view["blocks"])
    assert "<!--" not in before.html and "<!--" not in str(tower_svg(view))  # none unasked
    top = max(view["blocks"], key=lambda block: block["z"] + block["h"])
    moved = dict(view, blocks=[dict(block, x=block["x"] + 9) if block is top else block
                               for block in view["blocks"]])
    after = Part.of("board", f'<div id="board">{tower_svg(moved, labels=True, ids="t-")}</div>')
    kept = [item for item in after.items if item.id in set(ids)]
    assert [item.id for item in kept] == [i for i in ids if i in {k.id for k in kept}]
    gone = set(ids) - {item.id for item in after.items}
    # The block's own pieces, and a figure that stood on it.
    assert gone and all(f"-{top['id']}_" in item_id or "-fig_" in item_id for item_id in gone)


def test_pictures_drawn_from_kept_pieces_are_the_pictures_drawn_afresh() -> None:
    """The pictures keep what they drew (faces, edges, each block's pieces, whole scenes)
    by everything it depends on: over a seeded game, with every kind of picture the pages
    draw, a picture drawn with the pieces kept from the earlier moves is the one drawn with
    nothing kept."""
    def forget() -> None:
        climbers_picture._SCENES.clear()
        climbers_picture._BOX_ITEMS.clear()
        climbers_picture._face_svg.cache_clear()
        climbers_picture._segment.cache_clear()

    game, rng = Climbers(), random.Random(5)
    state = game.setup(3, {}, 5)
    for _ in range(45):
        view = game.view(state, None)
        kinds = [{"turn": turn, "ids": f"tw{turn}-", "highlight": view.get("moved")}
                 for turn in range(4)] + [{"labels": True}, {"upto": 6}]
        kept = [tower_svg(view, **kind) for kind in kinds]
        forget()
        assert [tower_svg(view, **kind) for kind in kinds] == kept
        moves = game.legal_moves(state, state["turn"])
        if not moves:
            break
        state = game.apply(state, state["turn"], rng.choice(moves))


LETTERS = {"red": "R", "yellow": "Y", "dark-blue": "DB", "light-blue": "LB", "violet": "V",
           "grey": "Gy"}


def letter_marks(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("class") == "cl-letter"]


def test_every_block_face_in_sight_carries_its_colour_letter() -> None:
    view = a_view()
    root = parse(tower_svg(view, letters=LETTERS))
    lettered: dict[str, set[str]] = {}
    for group in root.iter(f"{SVG}g"):
        for mark in group.findall(f"{SVG}text"):
            if mark.get("class") == "cl-letter":
                assert mark.text == LETTERS[mark.get("data-colour", "")]
                lettered.setdefault(group.get("data-block", ""), set()).add(
                    mark.get("data-colour", ""))
    # Every block drawn shows at least one lettered face, and its top's letter when its
    # top is lettered at all (the highest block's top is always in sight).
    assert lettered.keys() == block_groups(root)
    highest = max(view["cells"], key=lambda cell: cell["height"])
    top = next(b["top"] for b in view["blocks"] if b["id"] == highest["block"])
    assert top in lettered[highest["block"]]
    assert not letter_marks(parse(tower_svg(view)))


def test_a_labelled_picture_prints_the_top_letter_in_the_label() -> None:
    view = a_view()
    root = parse(tower_svg(view, labels=True, letters=LETTERS))
    tops = {b["id"]: b["top"] for b in view["blocks"]}
    labels = [t for t in root.iter(f"{SVG}text") if t.get("class") == "cl-label"]
    assert labels
    for label in labels:
        letter = label.find(f"{SVG}tspan")
        assert letter is not None and letter.text == LETTERS[tops[label.text or ""]]
    # Sides still lettered; tops only in the labels, so the two never overlap.
    marks = [m for m in letter_marks(root) if m.tag == f"{SVG}text"]
    assert marks


def test_the_letters_are_kept_apart_by_language() -> None:
    view = a_view()
    french = dict(LETTERS, **{"dark-blue": "BF", "light-blue": "BC", "grey": "G"})
    english, in_french = (str(tower_svg(view, letters=table)) for table in (LETTERS, french))
    assert ">DB<" in english and ">DB<" not in in_french and ">BF<" in in_french
