"""The climbed face of the building: positions, free holes, climbs, drops and knock-ons.

Each section is ``levels`` rows of holes high and a climber fills two rows, so it stands on
``levels - 1`` positions per section. A position is ``(level, lane)``: ``level`` counts
positions from the ground (0, where every climber starts and any number may stand; lane 0)
up through the lower, middle and upper sections; the roof is one level above the top.
Lanes are numbered from 1 in each section. Two climbers overlap when they share a lane and
a section and stand less than 2 levels apart.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import State
from companion.games.skyrunner.data import PASS_MIN

#: A climb under way: level, lane, the climbers being passed, equipment cards used so far.
Climb = tuple[int, int, frozenset[int], int]
GROUND = 0


def per_section(state: State) -> int:
    return state["building"]["levels"] - 1


def roof(state: State) -> int:
    return 3 * per_section(state) + 1


def section_of(state: State, level: int) -> int | None:
    """0 (lower), 1 (middle), 2 (upper); None on the ground or the roof."""
    if level <= GROUND or level >= roof(state):
        return None
    return (level - 1) // per_section(state)


def face_section(state: State, level: int) -> int:
    """The section of a level on the building's face (neither the ground nor the roof)."""
    section = section_of(state, level)
    assert section is not None, f"level {level} is not on the face"
    return section


def lanes(state: State, section: int) -> int:
    return state["building"]["lanes"][section]


def top_of_section(state: State, level: int) -> bool:
    return level % per_section(state) == 0


def position(state: State, seat: int) -> tuple[int, int]:
    spot = state["positions"][str(seat)]
    return spot["level"], spot["lane"]


def overlaps(state: State, level: int, lane: int, other: tuple[int, int]) -> bool:
    other_level, other_lane = other
    section = section_of(state, level)
    return (section is not None and other_lane == lane
            and section_of(state, other_level) == section and abs(other_level - level) < 2)


def blockers(state: State, seat: int, level: int, lane: int) -> list[int]:
    """The other climbers a figure at (level, lane) would overlap."""
    return [other for other in range(state["players"]) if other != seat
            and overlaps(state, level, lane, position(state, other))]


def climbs(state: State, seat: int, points: int, equipment: int,
           pass_min: int = PASS_MIN) -> dict[tuple[int, int], int]:
    """Every place ``seat`` can end a climb of up to ``points`` steps, with the fewest
    equipment cards it needs (at most ``equipment``): {(level, lane): equipment}.

    A step goes one level up or one lane sideways (1 point each). Crossing a ledge (onto
    the first level of the next section, in any lane) and reaching the roof need an
    equipment card; so does passing a climber in your lane, straight up through it, which
    also needs a card of at least ``pass_min`` points (4, ``sr.climb.pass``). A climb ends
    on a free place (or the roof, or where it began); sideways steps never go through a
    climber.
    """
    start = position(state, seat)
    top = roof(state)
    best: dict[tuple[int, int], int] = {start: 0}
    # Breadth-first by steps: each state (place, climbers being passed, equipment used) is
    # expanded once, at the fewest steps that reach it.
    frontier: list[Climb] = [(start[0], start[1], frozenset(), 0)]
    seen = set(frontier)
    for _ in range(points):
        following = []
        for level, lane, inside, used in frontier:
            if level == top:
                continue
            for to_level, to_lane, needs in _steps(state, level, lane):
                state_: Climb
                if to_level == top:
                    state_ = (top, 0, frozenset(), used + needs)
                else:
                    # Sideways means along a level; over a ledge any lane is an upward step.
                    sideways = to_level == level
                    if inside and sideways:
                        continue  # no sideways step in the middle of passing
                    hit = frozenset(blockers(state, seat, to_level, to_lane))
                    if hit and (sideways or points < pass_min):
                        continue
                    state_ = (to_level, to_lane, hit, used + needs + len(hit - inside))
                if state_[3] > equipment or state_ in seen:
                    continue
                seen.add(state_)
                following.append(state_)
                if not state_[2] and state_[3] < best.get(state_[:2], equipment + 1):
                    best[state_[:2]] = state_[3]
        frontier = following
    return best


def _steps(state: State, level: int, lane: int) -> list[tuple[int, int, int]]:
    """(level, lane, equipment the step itself needs) for every step from a place."""
    if level == GROUND:
        return [(1, to, 0) for to in range(1, lanes(state, 0) + 1)]
    section = face_section(state, level)
    steps: list[tuple[int, int, int]] = []
    if not top_of_section(state, level):
        steps.append((level + 1, lane, 0))
    elif section == 2:
        steps.append((roof(state), 0, 1))
    else:
        steps += [(level + 1, to, 1) for to in range(1, lanes(state, section + 1) + 1)]
    steps += [(level, to, 0) for to in (lane - 1, lane + 1) if 1 <= to <= lanes(state, section)]
    return steps


def drop_lanes(state: State, seat: int, distance: int) -> list[int]:
    """The lanes a climber dropped ``distance`` levels may end in: straight down, or, past a
    ledge, the lane to the left or right too (the nearest lane where straight down does not
    exist). On the ground: lane 0."""
    level, lane = position(state, seat)
    target = max(GROUND, level - distance)
    if target == GROUND:
        return [0]
    section = face_section(state, target)
    if section == section_of(state, level):
        return [lane]
    count = lanes(state, section)
    straight = min(lane, count)
    return sorted({to for to in (straight - 1, straight, straight + 1) if 1 <= to <= count}
                  | {straight})


def path_lanes(state: State, start: tuple[int, int], target: int, landing_lane: int,
               level: int) -> set[int]:
    """The lanes a climber falling from ``start`` to ``target`` passes through on ``level``:
    its own lane in its own section; below a ledge, the lane straight below it (the same
    number, or the last lane where there are fewer) and the lane it lands in."""
    start_level, start_lane = start
    section = section_of(state, level)
    if section is None:
        return set()
    if section == section_of(state, start_level):
        return {start_lane}
    passed = {min(start_lane, lanes(state, section))}
    if target != GROUND and section == section_of(state, target):
        passed.add(landing_lane)
    return passed


def drop(state: State, seat: int, distance: int, lane: int) -> list[dict[str, Any]]:
    """Drop ``seat`` by ``distance`` levels into ``lane`` (see drop_lanes), and every climber
    it falls onto by the same distance (each into the lane nearest its own).

    A climber is fallen onto when it stands in the faller's path, judged from where everyone
    stood before (``_in_path``): it overlaps a place the faller passes through or lands on,
    in a lane the faller passes through (``path_lanes``): its own lane above a ledge; below
    it, the lane straight below and the lane it lands in, whichever lane it chose. This
    holds at both ledges, for a Sabotage and a Fall alike. Each climber falls once, and a
    faller that would land in a climber it dragged comes to rest on top of it. Changes the
    positions; returns the falls, the first one first: [{"seat", "from", "to"}] with
    positions as dicts."""
    before = {other: position(state, other) for other in range(state["players"])}
    falls: list[dict[str, Any]] = []
    queue = [(seat, lane)]
    while queue:
        faller, to_lane = queue.pop(0)
        level, old_lane = before[faller]
        target = max(GROUND, level - distance)
        landing = {"level": target, "lane": to_lane if target else 0}
        state["positions"][str(faller)] = landing
        falls.append({"seat": faller, "from": {"level": level, "lane": old_lane},
                      "to": dict(landing)})
        falling = {fall["seat"] for fall in falls} | {queued for queued, _ in queue}
        hit = [other for other, spot in before.items()
               if other not in falling and spot[0] != GROUND
               and _in_path(state, (level, old_lane), target, landing["lane"], spot)]
        for other in sorted(hit, key=lambda s: -before[s][0]):
            nearest = min(drop_lanes(state, other, distance),
                          key=lambda to: abs(to - before[other][1]))
            queue.append((other, nearest))
    _settle(state, falls)
    return falls


def _in_path(state: State, start: tuple[int, int], target: int, landing_lane: int,
             other: tuple[int, int]) -> bool:
    """Whether a climber at ``other`` stands in the way of one falling from ``start`` to
    ``target``: it overlaps a place the faller passes through or lands on, in a lane the
    faller passes through there (``path_lanes``). Overlapping keeps to one section, so a
    faller landing just above a ledge never touches the climber just under it."""
    other_level, other_lane = other
    return any(other_lane in path_lanes(state, start, target, landing_lane, passed)
               and overlaps(state, passed, other_lane, other)
               for passed in range(max(target, other_level - 1),
                                   min(start[0], other_level + 2)))


def _settle(state: State, falls: list[dict[str, Any]]) -> None:
    """Fallers that overlap a climber below them (one that stood across a ledge from them
    and was dragged the same distance) rest on top of it: they move back up, lowest first,
    until free, never above where they fell from. Only a climber at or below a faller holds
    it up: the one underneath never moves back up into the one that fell onto it."""
    for fall in sorted(falls, key=lambda f: f["to"]["level"]):
        seat = fall["seat"]
        level, lane = position(state, seat)
        start = (fall["from"]["level"], fall["from"]["lane"])
        while level != GROUND and any(position(state, other)[0] <= level
                                      for other in blockers(state, seat, level, lane)):
            level += 1
            if level >= start[0]:
                level, lane = start
                break
            lane = min(lane, lanes(state, face_section(state, level)))
        state["positions"][str(seat)] = {"level": level, "lane": lane}
        fall["to"] = {"level": level, "lane": lane}
