"""Building the drawn start tower in words: every step of several towers, said from each of
the four sides in both languages, names no code and no coordinate, names only blocks already
standing, and tells its place apart from every other place the same block could go then."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games.climbers import Climbers
from companion.games.climbers.data import BLOCKS
from companion.games.climbers.geometry import Tower, building_problem, shapes
from companion.games.climbers.web import ClimbersHelpers
from companion.games.climbers.web.build import FRAMES, BuildWords, covers, rebuild_order, seen_from
from companion.i18n import drawing_in
from tests.conftest import ApiTable
from tests.web.test_climbers_words import visible_text

G = Climbers()
CODES = re.compile(r"\b[FDCH]\d{1,2}\b")
NUMBERS = re.compile(r"-?\d+\s*,\s*-?\d+|\(\s*-?\d")
SEEDS = (2, 2024)


def tower(seed: int) -> list[dict[str, Any]]:
    """The blocks of the start tower drawn from ``seed``, in build order."""
    return G.view(G.setup(3, {}, seed), None)["blocks"]


def others(standing: list[dict[str, Any]], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Every other place the same block, with the same colour on top, could go at this
    step by the building rules."""
    built = Tower({block["id"]: block for block in standing})
    x0, y0, x1, y1 = built.bounds()
    found = []
    for top, long, w, d, h in shapes(BLOCKS[new["id"]]):
        if top != new["top"]:
            continue
        for x in range(x0 - w, x1 + 2):
            for y in range(y0 - d, y1 + 2):
                problem, z, _ = building_problem(built, x, y, w, d, h, {}, (), False)
                if problem is None and (x, y, long) != (new["x"], new["y"], new["long"]):
                    found.append({**new, "x": x, "y": y, "z": z, "w": w, "d": d, "h": h,
                                  "long": long})
    return found


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_step_reads_apart_from_every_other_place(app, seed, lang):
    blocks = tower(seed)
    with app.test_request_context(), drawing_in(lang):
        words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
        for sitting in FRAMES:
            for n in range(1, len(blocks) + 1):
                standing, new = blocks[:n - 1], blocks[n - 1]
                said = words.step(blocks, n, sitting)
                text = f"{said.block} {said.place}"
                assert not CODES.search(text) and not NUMBERS.search(text), text
                assert set(said.named) <= {block["id"] for block in standing}, text
                assert said.block and said.place
                for elsewhere in others(standing, new):
                    other = words.step([*standing, elsewhere], n, sitting)
                    assert (other.block, other.place) != (said.block, said.place), (
                        sitting, n, text, elsewhere)


def test_each_standing_block_has_a_name_of_its_own(app):
    """Look-alikes are told apart (lower, left, near, or the step that placed them)."""
    blocks = tower(21)
    with app.test_request_context(), drawing_in("en"):
        words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
        for sitting in FRAMES:
            for n in range(1, len(blocks) + 1):
                standing = blocks[:n]
                hidden = covers(standing)
                names = [words.name(block, standing, sitting, hidden) for block in standing]
                assert len(set(names)) == len(names)


def test_the_words_turn_with_the_builder():
    """The same block is on the left of one side and on the right of the opposite side."""
    block = {"x": 2, "y": 0, "z": 0, "w": 2, "d": 2, "h": 6}
    ahead, behind = seen_from(block, "ahead"), seen_from(block, "behind")
    assert (ahead.u0, ahead.u1) == (2, 4) and (behind.u0, behind.u1) == (-4, -2)
    left, right = seen_from(block, "left"), seen_from(block, "right")
    assert (left.v0, left.v1) == (2, 4) and (right.v0, right.v1) == (-4, -2)


def test_the_second_foundation_and_a_block_on_both(app):
    blocks = tower(21)
    with app.test_request_context(), drawing_in("en"):
        words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
        assert words.step(blocks, 1, "ahead").place == "On the table, in the middle"
        second = words.step(blocks, 2, "ahead")
        assert second.block == "Grey foundation, standing upright"
        assert second.place == ("On the table, against the right side of the grey "
                                "foundation, flush with its near and far edges")
        assert "left side" in words.step(blocks, 2, "behind").place
        assert words.step(blocks, 3, "ahead").place == ("On top of both grey foundations, "
                                                        "covering their tops exactly")
    with app.test_request_context(), drawing_in("fr"):
        words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
        assert words.step(blocks, 2, "ahead").place == (
            "Sur la table, contre le côté droit du gros bloc gris, aligné sur ses bords "
            "avant et arrière")


def test_a_phone_reads_the_steps_from_its_players_side(app):
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=21)
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[2])
    board = phone.get(f"/t/{table.code}/play").get_data(as_text=True)
    page_url = f"/t/{table.code}/play/extra/build"
    assert f'href="{page_url}"' in board  # "Lead the build", from any seat
    page = phone.get(f"{page_url}?step=2").get_data(as_text=True)
    assert "Step 2 of 35" in page and "with the table screen ahead of you" in page
    assert 'data-view="ahead" data-straight data-upto="2"' in page and 'id="cl-td"' in page
    assert "against the right side of the grey foundation" in page
    assert not CODES.search(visible_text(page))
    moved = phone.post(f"/t/{table.code}/sitting",
                       data={"screen": "behind", "next": f"{page_url}?step=2"})
    assert moved.status_code == 303 and moved.headers["Location"].endswith("?step=2")
    page = phone.get(f"{page_url}?step=2").get_data(as_text=True)
    assert "against the left side of the grey foundation" in page  # seen from across
    assert 'data-view="behind" data-straight data-upto="2"' in page  # drawn from there too
    step = phone.get(f"/t/{table.code}/play/extra/build_step?step=3",
                     headers={"HX-Request": "true"}).get_data(as_text=True)
    assert step.lstrip().startswith('<div id="cl-build-step"') and "Step 3 of 35" in step
    on_screen = app.test_client().get(f"/t/{table.code}/extra/build_step?step=3")
    assert 'data-view="behind" data-straight' in on_screen.get_data(as_text=True)
    # Only the phone's own pages are gone back to; a stranger is sent to join.
    elsewhere = phone.post(f"/t/{table.code}/sitting",
                           data={"screen": "left", "next": "https://example.org/"},
                           headers={"HX-Request": "true"})
    assert elsewhere.status_code == 200 and "Location" not in elsewhere.headers
    stranger = app.test_client().get(page_url)
    assert stranger.status_code == 303 and "/j/" in stranger.headers["Location"]
    assert phone.get(f"/t/{table.code}/play/extra/nothing").status_code == 404


def cube(block_id: str, x: int, y: int, z: int = 0) -> dict[str, Any]:
    return {"id": block_id, "kind": "cube", "top": "red", "x": x, "y": y, "z": z, "w": 2,
            "d": 2, "h": 2}


def test_a_rebuild_builds_from_the_table_up_each_block_against_one_standing(app):
    """The tower as it stands after blocks moved: a cube placed against one later moved
    away and back (C2, before C3 that it now touches), one on top (C4, on C1 and C3). The
    rebuild takes C3 before C2, and C4 once both under it stand; a part standing apart
    (a tower split by a block moved) is said to stand apart, naming no block."""
    placed = [cube("C1", 0, 0), cube("C2", 4, 0), cube("C3", 2, 0), cube("C4", 1, 0, 2)]
    assert [b["id"] for b in rebuild_order(placed)] == ["C1", "C3", "C2", "C4"]
    assert [b["id"] for b in rebuild_order([placed[3], *placed[:3]])] == [
        "C1", "C3", "C4", "C2"]
    split = [cube("C1", 0, 0), cube("C2", 5, 0)]
    assert rebuild_order(split) == split
    with app.test_request_context(), drawing_in("en"):
        words = BuildWords(ClimbersHelpers().colour, ClimbersHelpers().kind)
        said = words.step(split, 2, "ahead")
        assert said.place == "On the table, apart from the blocks standing, as the picture shows"
        assert said.named == ()
