"""What a phone's tower lights up for the question asked now: the blocks that may move, the
tops the figure can walk to, the places a block may go (ghost blocks), and what each tap
adds to the pick. ``static/js/games/climbers/`` reads it from ``#cl-ask`` and draws it in place.

Pure Python (no Flask): the words come from the caller.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from companion.games.base import has_values
from companion.games.climbers.data import BLOCKS
from companion.games.climbers.geometry import footprint, parse_square, shape
from companion.games.climbers.web.words import Words, worked_out

#: The confirm form's values for a move: {"move_json", "client_move_id", …}.
Offer = Callable[[dict[str, Any]], dict[str, Any]]
#: The questions a ghost tapped answers at once: where the block goes and how it lies.
PLACE_KEYS = ("x", "y", "long")
#: How a ghost's way of lying travels: the axis of its long side, or "-" for none.
NO_LONG = "-"
#: Once a block to move or a walk's top is chosen, a tap on another block, or another top,
#: chooses anew (``anew-pick``: the pick it starts from), except where the question itself
#: asks for a block or a top.
ANEW_KINDS = ("block", "walk")
ANEW_KEYS = ("type", "block", "to")


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def _heights(view: dict[str, Any]) -> dict[tuple[int, int], tuple[int, str]]:
    """Each square's height and the block whose top it is, worked out once for a view."""
    found: dict[tuple[int, int], tuple[int, str]] = \
        worked_out("heights", view.get("cells") or [], _cell_heights)
    return found


def _cell_heights(cells: list[dict[str, Any]]) -> dict[tuple[int, int], tuple[int, str]]:
    return {(c["x"], c["y"]): (c["height"], c["block"]) for c in cells}


#: The ladders a walk may use, cheapest first: each leaves the figure every climb the
#: ones after it leave (the long ladder climbs every step the short one does, and more).
LADDER_COST = ("", "short", "long", "short+long")


def real_ways(ladders: list[str], lower: list[str]) -> list[str]:
    """The ways to one top that are a choice, cheapest first: the cheapest, and where that
    one goes lower than the turn began, the cheapest that never does. Every other way
    spends more of the ladders for nothing more (it is still offered on the phone's
    buttons: "Move your figure", the top, the ladder)."""
    ordered = sorted(ladders, key=lambda way: LADDER_COST.index(way)
                     if way in LADDER_COST else len(LADDER_COST))
    kept = ordered[:1]
    if kept and kept[0] in lower:
        kept.extend([way for way in ordered if way not in lower][:1])
    return kept


def _reach(view: dict[str, Any], names: list[Any], words: Words,
           offer: Offer | None = None, every_way: bool = False) -> dict[str, str]:
    """The tops lit for a walk, with their words; with ``offer``, the walk a tap on each
    makes at once ("move-json client-id", else empty): where only one way gets there, or
    with ``every_way`` the cheapest way, and where a dearer way never goes lower than the
    turn began while the cheapest does, that way as a target of its own (``ways``)."""
    heights = _heights(view)
    squares = []
    for name in names:
        square = parse_square(name)
        if square is not None:
            squares.append((name, square))

    def at(square: tuple[int, int]) -> str:
        return f"{square[0]},{square[1]},{heights.get(square, (0, ''))[0]}"

    ways = view.get("reach") or {}
    lower = view.get("reach_lower") or {}
    said, made, ladders = [], [], []
    seconds, second_said, second_made = [], [], []
    for name, square in squares:
        options = list(ways.get(name) or [])
        going_lower = list(lower.get(name) or [])
        kept = real_ways(options, going_lower) if every_way else options
        if offer is None or not kept or (len(options) > 1 and not every_way):
            said.append(words.square(view, name))  # the ladder is asked next
            made.append("")
            ladders.append("")
            continue
        tap = kept[0]
        if len(kept) > 1:
            said.append(words.walk(view, name, tap, tap in going_lower))
        else:
            said.append(words.walk(view, name, tap, None) if tap else words.square(view, name))
        made.append(_made(offer, name, tap))
        ladders.append(tap)
        for way in kept[1:]:
            seconds.append(f"{at(square)},{way}")
            second_said.append(words.walk(view, name, way, False))
            second_made.append(_made(offer, name, way))
    found = {"reach": " ".join(at(square) for _, square in squares),
             "reach-names": "|".join(said)}
    if offer is not None:
        found["reach-moves"] = "|".join(made)
        found["reach-ladders"] = "|".join(ladders)
    if seconds:
        found.update({"ways": " ".join(seconds), "way-names": "|".join(second_said),
                      "way-moves": "|".join(second_made)})
    return found


def _made(offer: Offer | None, to: str, ladders: str) -> str:
    """What a tap sends to make the walk: "move-json client-id"."""
    assert offer is not None
    walk = offer({"type": "walk", "to": to, "ladders": ladders})
    return f"{walk['move_json']} {walk['client_move_id']}"


def _stones(view: dict[str, Any], moves: list[dict[str, Any]], words: Words,
            offer: Offer) -> dict[str, str]:
    """The blocks the blocking stone may go on, each laying it in one tap, drawn in the
    colour of the stone of the seat to move."""
    placed = {b["id"] for b in view.get("blocks") or []}
    spots = [m["block"] for m in moves if m.get("type") == "stone" and m.get("block") in placed]
    if not spots:
        return {}
    made = []
    for block in spots:
        stone = offer({"type": "stone", "block": block})
        made.append(f"{stone['move_json']} {stone['client_move_id']}")
    colours = view.get("colours") or []
    seat = view.get("seat")
    return {"stones": " ".join(spots),
            "stone-names": "|".join(words.stone(view, block) for block in spots),
            "stone-moves": "|".join(made),
            "stone-colour": str(colours[seat]) if isinstance(seat, int)
            and 0 <= seat < len(colours) else "grey"}


def _lit(view: dict[str, Any], blocks: list[Any], words: Words) -> dict[str, str]:
    placed = {b["id"] for b in view.get("blocks") or []}
    shown = [block for block in blocks if isinstance(block, str) and block in placed]
    return {"lit": " ".join(shown),
            "lit-names": "|".join(words.block(view, block) for block in shown)}


def dims(block_id: str, long: str | None) -> tuple[int, int, int] | None:
    """The footprint and height of ``block_id`` lying ``long`` (whatever colour is on top:
    the way it lies decides the shape)."""
    block = BLOCKS.get(block_id)
    if block is None:
        return None
    for top in ("red", "yellow", "dark-blue", "light-blue", "violet", "grey"):
        found = shape(block, top, long)
        if found is not None:
            return found
    return None


def ghosts(view: dict[str, Any], moves: list[dict[str, Any]],
           chosen: dict[str, Any]) -> list[str]:
    """Each place the chosen block may go, one for each footprint and way of lying:
    "x_y_long:x:y:z:w:d:h", z where it comes to rest on the tower without it."""
    block_id = chosen.get("block")
    heights = _heights(view)
    current = next((b for b in view.get("blocks") or [] if b["id"] == block_id), None)
    own = set(footprint(current["x"], current["y"], current["w"], current["d"])) \
        if current is not None else set()
    found: dict[tuple[int, int, str | None], str] = {}
    for move in moves:
        if "x" not in move or move.get("block") != block_id or not has_values(move, chosen):
            continue
        place = (move["x"], move["y"], move["long"])
        if place in found:
            continue
        size = dims(block_id, move["long"]) if isinstance(block_id, str) else None
        if size is None:
            continue
        w, d, h = size
        z = 0
        for square in footprint(move["x"], move["y"], w, d):
            height, top_block = heights.get(square, (0, ""))
            if square in own and top_block == block_id and current is not None:
                height = current["z"]
            z = max(z, height)
        long = move["long"] or NO_LONG
        found[place] = f"{move['x']}_{move['y']}_{long}:{move['x']}:{move['y']}:{z}:{w}:{d}:{h}"
    return list(found.values())


def ask(view: dict[str, Any], pick: Any, moves: list[dict[str, Any]] | None,
        words: Words, offer: Offer | None = None) -> dict[str, str]:
    """The data attributes of ``#cl-ask`` for the question ``pick`` asks now (None: none);
    ``offer`` makes a move's confirm values, for a tap that makes the move at once."""
    key = getattr(pick, "key", None)
    chosen: dict[str, Any] = dict(getattr(pick, "chosen", None) or {})
    values = list(getattr(pick, "values", None) or [])
    settled = getattr(pick, "move", None)
    out = _targets(view, key, chosen, values, moves or [], words, offer)
    if isinstance(chosen.get("block"), str):
        out["chosen"] = chosen["block"]
    if key not in ANEW_KEYS and chosen.get("type") in ANEW_KINDS:
        out["anew-pick"] = _json({"type": chosen["type"]})
    out.update(_places(view, key, chosen, settled, moves or []))
    walk = settled if settled is not None and settled.get("type") == "walk" else chosen
    if walk.get("type") == "walk" and isinstance(walk.get("to"), str) and walk["to"] != "table":
        if "reach" not in out:
            out.update(_reach(view, [walk["to"]], words))
        out["square"] = walk["to"]
    return out


def _targets(view: dict[str, Any], key: str | None, chosen: dict[str, Any],
             values: list[Any], moves: list[dict[str, Any]], words: Words,
             offer: Offer | None) -> dict[str, str]:
    """What the tower lights for the question ``key``: the tops a walk reaches, the blocks
    a stone may lie on, the blocks that may move."""
    out: dict[str, str] = {}
    if key == "type" and "walk" in values:
        out.update(_reach(view, [name for name in view.get("reach") or {} if name != "table"],
                          words, offer, every_way=True))
        out["reach-pick"] = _json({"type": "walk"})
    if key == "type" and "stone" in values and offer is not None:
        out.update(_stones(view, moves, words, offer))
    if key == "type" and "block" in values:
        out.update(_lit(view, list(view.get("movable") or []), words))
        out["block-pick"] = _json({"type": "block"})
    elif key == "to":
        out.update(_reach(view, [name for name in values if name != "table"], words,
                          offer if set(chosen) == {"type"} else None))
        out["reach-pick"] = _json(chosen)
    elif key == "block":
        out.update(_lit(view, values, words))
        out["block-pick"] = _json(chosen)
    return out


def _places(view: dict[str, Any], key: str | None, chosen: dict[str, Any],
            settled: dict[str, Any] | None, moves: list[dict[str, Any]]) -> dict[str, str]:
    """The ghost places of the block chosen, while its place is asked or once it is
    settled, and the one to mark when only one (or the settled one) is left."""
    out: dict[str, str] = {}
    placing = settled if settled is not None and "x" in settled else None
    if key in PLACE_KEYS or (placing is None and key == "top" and "block" in chosen):
        found = ghosts(view, moves, chosen)
        out["ghosts"] = " ".join(found)
        if key in PLACE_KEYS:
            out["ghost-pick"] = _json(chosen)
        elif len(found) == 1:
            out["ghost"] = found[0].split(":")[0]
    if placing is not None:
        out["ghosts"] = " ".join(ghosts(view, moves, placing))
        out["ghost"] = f"{placing['x']}_{placing['y']}_{placing['long'] or NO_LONG}"
    return out
