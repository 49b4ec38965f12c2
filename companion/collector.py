"""Python's garbage collector, run while the server has nothing else to do.

A collection stops every table at once. Left to itself, Python collects once enough
objects were made, and most are made while a move's pushes are drawn: that move, and every
push then in flight, waits for the whole collection. Under gunicorn's gevent worker a
greenlet of its own (``collect_when_idle``) collects instead, the same generations on the
same thresholds, as soon as the event loop has nothing ready to run. Python's own
collection stays on, at ``BACKSTOP`` times the young threshold, for a server that is never
idle. Without gevent (the tests' and the development servers) Python collects as usual.
"""

from __future__ import annotations

import gc

from companion.aside import under_gevent

#: Python collects by itself only past this many times the young threshold: the idle
#: collector comes first whenever the server pauses.
BACKSTOP = 4
#: How often the idle collector looks at the counts, in seconds: well under the time
#: between two moves of a busy night, so that Python's backstop is seldom reached.
LOOK_EVERY = 0.02


def due(counts: tuple[int, int, int], thresholds: tuple[int, int, int]) -> int | None:
    """The generation Python would collect now, from the oldest whose count passed its
    threshold (``gc.get_count``, ``gc.get_threshold``); None when none is due."""
    for generation in (2, 1, 0):
        if counts[generation] > thresholds[generation]:
            return generation
    return None


def collect_when_idle(thresholds: tuple[int, int, int]) -> None:
    """Under gevent: collect on ``thresholds`` whenever the event loop is idle, Python's own
    collection kept as the backstop. Without gevent: Python collects on ``thresholds``."""
    if not under_gevent():
        gc.set_threshold(*thresholds)
        return
    import gevent

    gc.set_threshold(thresholds[0] * BACKSTOP, thresholds[1], thresholds[2])
    gevent.spawn(_collect_forever, thresholds)


def _collect_forever(thresholds: tuple[int, int, int]) -> None:
    import gevent

    while True:
        gevent.sleep(LOOK_EVERY)
        if due(gc.get_count(), thresholds) is None:
            continue
        gevent.idle()  # every greenlet ready to run (a push, a request) goes first
        generation = due(gc.get_count(), thresholds)
        if generation is not None:
            gc.collect(generation)
