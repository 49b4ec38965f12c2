"""Work that only its caller waits for.

Under gunicorn's gevent worker every request, websocket and push of every table shares one
thread: a call that holds that thread stops them all. A call that waits on something else
(SQLite's flush at a commit, which takes 50-70 ms at times) runs in a thread of gevent's
pool instead, while its caller's greenlet waits for it and the others go on. Work that
needs the processor (drawing The Climbers' start tower, a tenth of a second) is not sent
there: a thread computing holds Python's lock for 5 ms at a time, and every socket call
of the pushes then waits for it; it runs in its caller's greenlet and lets the others run
between its steps. Without gevent (the tests' and the development servers) both run in
place.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def under_gevent() -> bool:
    """Whether this process serves under gevent (its threads made greenlets)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def waiting_only_the_caller(work: Callable[[], T]) -> T:
    """``work()``, run so that only the caller waits for it (see the module's docstring)."""
    if under_gevent():
        from gevent import get_hub

        result: T = get_hub().threadpool.apply(work)
        return result
    return work()


#: How long ``let_others_run`` waits: long enough that the event loop polls its sockets
#: and timers (``sleep(0)`` only runs the greenlets already woken), short enough to add
#: little to the work itself (a few milliseconds to The Climbers' 35 blocks).
PAUSE = 0.0001


def let_others_run() -> None:
    """Between two steps of a long computation: under gevent, every other greenlet that is
    ready or whose socket or timer is (a push, a request) runs before the next step;
    without gevent, nothing."""
    if under_gevent():
        from gevent import sleep

        sleep(PAUSE)
