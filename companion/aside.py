"""Work that only its caller waits for.

Under gunicorn's gevent worker every request, websocket and push of every table shares one
thread: a call that holds that thread (SQLite's flush at a commit, which takes 50-70 ms
at times; drawing The Climbers' start tower, a quarter of a second) stops them all. Such
work runs in a thread of gevent's pool instead, while its caller's greenlet waits for it
and the others go on (work that needs the processor shares it with them). Without gevent
(the tests' and the development servers) it runs in place.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def waiting_only_the_caller(work: Callable[[], T]) -> T:
    """``work()``, run so that only the caller waits for it (see the module's docstring)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        from gevent import get_hub

        result: T = get_hub().threadpool.apply(work)
        return result
    return work()
