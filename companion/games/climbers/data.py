"""The Climbers' components, read from ``seeds/climbers.toml``: colours and the block set."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import load_seed

GAME_ID = "climbers"
SEED = load_seed(GAME_ID)

#: Player colours in seat order; grey (like the table) is neutral.
COLOURS: tuple[str, ...] = tuple(SEED["colours"])
GREY = "grey"
OPPOSITE_PAIRS: tuple[tuple[str, str], ...] = tuple(tuple(pair) for pair in SEED["opposite"])
ALL_COLOURS: tuple[str, ...] = tuple(colour for pair in OPPOSITE_PAIRS for colour in pair)

SHORT_LADDER: frozenset[int] = frozenset(SEED["ladders"]["short"])
LONG_LADDER: frozenset[int] = frozenset(SEED["ladders"]["long"])
FREE_STEP: int = SEED["ladders"]["step"]
LADDERS = ("short", "long")


@dataclass(frozen=True)
class BlockKind:
    """One of the four kinds of block. ``size`` is its three edges, smallest first."""

    name: str
    size: tuple[int, int, int]


@dataclass(frozen=True)
class Block:
    """One block of the set. ``square_pair`` is the colour pair on its two square faces
    (half-cubes and double cubes; None for cubes and the all-grey foundations)."""

    id: str
    kind: BlockKind
    square_pair: tuple[str, str] | None

    @property
    def grey_all_over(self) -> bool:
        return self.kind.name == "foundation"


def _blocks() -> dict[str, Block]:
    found: dict[str, Block] = {}
    for name in ("foundation", "double", "cube", "half"):
        spec = SEED["kinds"][name]
        kind = BlockKind(name, tuple(spec["size"]))
        pairs = spec.get("square_pairs")
        for index in range(spec["count"]):
            pair = OPPOSITE_PAIRS[pairs[index]] if pairs else None
            block_id = f"{spec['prefix']}{index + 1}"
            found[block_id] = Block(block_id, kind, pair)
    return found


BLOCKS: dict[str, Block] = _blocks()
FOUNDATIONS: tuple[str, ...] = tuple(b for b, block in BLOCKS.items()
                                     if block.kind.name == "foundation")


def opposite(colour: str) -> str:
    """The colour on the face opposite ``colour``."""
    for a, b in OPPOSITE_PAIRS:
        if colour == a:
            return b
        if colour == b:
            return a
    raise KeyError(colour)
