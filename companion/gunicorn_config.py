"""gunicorn settings, shared by the Procfile and `companion serve`
(``gunicorn -c python:companion.gunicorn_config``).

One process (tables live in its memory); a gevent worker, where each websocket and each
push sender is a greenlet: docs/performance.md compares it with gthread and tells how many
phones it serves.
"""

import gc
import os
import sys

from companion.config import listen_address

bind = listen_address()
workers = 1
worker_class = "gevent"
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


def post_worker_init(worker: object) -> None:
    """Collect garbage less often: rendering a push allocates thousands of short-lived
    objects, and at Python's default threshold (700) the collector ran every few hundred
    microseconds of rendering and went through the kept renderings again and again
    (docs/performance-history.md: 10 % of the worker's time, and its slowest pushes). What the app
    loaded at start is frozen out of the collector's sight."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


def worker_exit(server: object, worker: object) -> None:
    """The worker has stopped serving; only the interpreter's teardown is left, where
    gevent's patched locks are already gone and each logging handler's finaliser reports a
    meaningless ``TypeError: 'NoneType' object is not callable`` (gevent's open issue 2148)
    as a traceback in the server's log at every stop. Nothing reported then can be acted on,
    so it is not reported."""
    sys.unraisablehook = lambda unraisable: None
