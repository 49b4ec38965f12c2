"""What the app keeps between drawings of its pages and pushes: the regions drawn (by what
they read), the log lines drawn, and what a game's helpers worked out from a view."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.lru import LRU
from companion.web.memo import RegionMemo

#: Log lines kept rendered, shared by every viewer who sees the same line.
LINES_KEPT = 4096
#: What games' helpers worked out from views, kept (``Caches.worked_out``).
WORKED_OUT_KEPT = 256


@dataclass
class Caches:
    """The drawings an app keeps, shared by its pages and its pushes."""

    #: Regions and fragments drawn, by what they read (``companion.web.memo``).
    memo: RegionMemo = field(default_factory=RegionMemo)
    #: Log lines drawn, shared by the viewers who see the same move.
    log_lines: LRU[tuple[Any, ...], str] = field(default_factory=lambda: LRU(LINES_KEPT))
    log_lines_lock: threading.Lock = field(default_factory=threading.Lock)
    #: What a game's helpers worked out once from a view and shared by every viewer of its
    #: state (The Climbers' words for a tower, its squares), by what it is
    #: (``companion.games.climbers.web.words.worked_out``).
    worked_out: LRU[tuple[Any, ...], Any] = field(default_factory=lambda: LRU(WORKED_OUT_KEPT))
    worked_out_lock: threading.Lock = field(default_factory=threading.Lock)
