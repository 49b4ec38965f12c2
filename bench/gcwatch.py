"""The companion with a watch on its garbage collector, for ``bench/load.py --gc``.

The collector stops the one worker, every table at once, while it walks the objects it
tracks: its pauses are a floor under every push's tail. This app is the companion's own
(or ``bench/floor.py``'s) with a ``gc.callbacks`` timer, and one more route,
``GET /bench/gc``: the pauses per generation since the last call (count, median and max
in wall-clock and in the worker's CPU milliseconds, and the objects freed), then forgets
them. The CPU time is what the collector itself spent: on a machine shared with other
work it moves less than the wall-clock time, which also counts the waits for a core.
With ``?objects=1`` it also says what the collector tracks now: the objects in each
generation, how many are frozen out of its sight (``gc.freeze``), and the types whose
objects hold the most references (what a collection of them walks). The route exists only
in this benchmark's app.
"""

from __future__ import annotations

import gc
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue


@dataclass
class Pause:
    wall: float
    cpu: float
    collected: int


@dataclass
class Pauses:
    """The collector's pauses, by generation, as timed by ``gc.callbacks``."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _started: tuple[float, float] = (0.0, 0.0)
    _pauses: dict[int, list[Pause]] = field(default_factory=lambda: {0: [], 1: [], 2: []})

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
            return
        wall, cpu = self._started
        pause = Pause(time.perf_counter() - wall, time.thread_time() - cpu, info["collected"])
        with self._lock:
            self._pauses[info["generation"]].append(pause)

    def take(self) -> dict[str, dict[str, float]]:
        """Each generation's pauses since the last ``take``."""
        with self._lock:
            taken = {generation: list(pauses) for generation, pauses in self._pauses.items()}
            for pauses in self._pauses.values():
                pauses.clear()
        return {str(generation): summary(pauses) for generation, pauses in taken.items()}


def summary(pauses: list[Pause]) -> dict[str, float]:
    """Count, median and max (milliseconds, wall and CPU), and the objects freed."""
    wall = [pause.wall * 1000 for pause in pauses]
    cpu = [pause.cpu * 1000 for pause in pauses]
    return {"count": len(pauses),
            "median": statistics.median(wall) if wall else 0.0,
            "max": max(wall, default=0.0),
            "total": sum(wall),
            "cpu_median": statistics.median(cpu) if cpu else 0.0,
            "cpu_max": max(cpu, default=0.0),
            "cpu_total": sum(cpu),
            "collected": sum(pause.collected for pause in pauses)}


def tracked(top: int = 8) -> dict[str, Any]:
    """What the collector walks now: objects per generation, the frozen ones, and the types
    whose objects hold the most references."""
    counts = []
    walked: Counter[str] = Counter()
    for generation in range(3):
        objects = gc.get_objects(generation)
        counts.append(len(objects))
        for obj in objects:
            walked[type(obj).__name__] += len(gc.get_referents(obj))
        del objects
    return {"generations": counts,
            "frozen": gc.get_freeze_count(),
            "threshold": list(gc.get_threshold()),
            "walked": walked.most_common(top)}


def watched(app: Flask) -> Flask:
    """``app`` with the collector's pauses timed and served at ``/bench/gc``."""
    pauses = Pauses()
    gc.callbacks.append(pauses)

    @app.get("/bench/gc")
    def collector_report() -> ResponseReturnValue:
        report: dict[str, Any] = {"pauses": pauses.take()}
        if request.args.get("objects"):
            report["objects"] = tracked()
        return jsonify(report)

    return app


def create_app(floor: bool = False) -> Flask:
    if floor:
        from bench.floor import create_app as create_floor
        return watched(create_floor())
    from companion import create_app as create_companion
    return watched(create_companion())
