"""gunicorn settings, shared by the Procfile and `companion serve`
(``gunicorn -c python:companion.gunicorn_config``).

One process by default (tables live in its memory); with Redis, one per core or
``COMPANION_WORKERS`` (``companion.config.worker_count``), which tell each other of every
change through it (``companion/peers.py``, docs/scaling.md). Each is a gevent worker, where
each websocket and each push sender is a greenlet: docs/performance.md compares it with
gthread and tells how many phones it serves.
"""

import gc
import os
import sys

from companion.collector import collect_when_idle
from companion.config import listen_address, worker_count

bind = listen_address()
workers = worker_count()
# gunicorn's gevent worker, with the limits a guest on the wifi meets (companion/worker.py).
worker_class = "companion.worker.CompanionWorker"
# Open connections at most (each phone and table screen holds one websocket).
worker_connections = int(os.environ.get("COMPANION_CONNECTIONS", "2000"))
# Only for a thread worker (`-k gthread`, as bench/load.py compares): each websocket then
# holds a thread for its life.
threads = int(os.environ.get("COMPANION_THREADS", "512"))
timeout = 120
graceful_timeout = 5
keepalive = 5
accesslog = None
# No shared control socket under ~/.gunicorn: several companions (or tests) may run at once.
control_socket_disable = True


#: The collector's thresholds in the worker. A young collection runs once this many more
#: container objects were made than freed (Python's default is 700): rendering a push makes
#: thousands, and each drawing of a template leaves cycles (Jinja's macros and contexts)
#: that only a collection frees. A collection stops every table at once and lasts about in
#: proportion to what it walks and frees: at 16 busy tables (``bench/load.py --gc``,
#: docs/performance.md) a young collection at 50,000 freed 12,000-36,000 objects in 26-114
#: ms of CPU, at 10,000 about 4,000 in 8 ms at the median. The middle generation is collected
#: after every 5 young ones rather than 20, so it holds less each time (25 ms of CPU at the
#: median rather than 55-66). A full collection walks everything the tables keep (270 ms of
#: CPU for 167,000 objects at 24 tables after 4 minutes): it comes after 1,000 young ones
#: (5 x 200), as many objects made as the 200 young ones of 50,000 before. The worker
#: collects on these thresholds while it has nothing else to do (``companion/collector.py``),
#: not in the middle of a move's pushes.
THRESHOLDS = (10_000, 5, 200)


def post_worker_init(worker: object) -> None:
    """Freeze what the app loaded at start out of the collector's sight, after a collection
    so that nothing left over is frozen with it; then collect on ``THRESHOLDS`` while idle."""
    gc.collect()
    gc.freeze()
    collect_when_idle(THRESHOLDS)


def worker_exit(server: object, worker: object) -> None:
    """The worker has stopped serving; only the interpreter's teardown is left, where
    gevent's patched locks are already gone and each logging handler's finaliser reports a
    meaningless ``TypeError: 'NoneType' object is not callable`` (gevent's open issue 2148)
    as a traceback in the server's log at every stop. Nothing reported then can be acted on,
    so it is not reported."""
    sys.unraisablehook = lambda unraisable: None
