"""gunicorn settings, shared by the Procfile and `companion serve`
(``gunicorn -c python:companion.gunicorn_config``).

One process (tables live in its memory); gthread workers, where each websocket holds a
thread: see docs/performance.md for how many phones that serves.
"""

import os

from companion.config import listen_address

bind = listen_address()
workers = 1
worker_class = "gthread"
# Each websocket holds a thread for its life: 512 serves 32 tables of four with room to spare.
threads = int(os.environ.get("COMPANION_THREADS", "512"))
timeout = 120
graceful_timeout = 5
keepalive = 5
accesslog = None
# No shared control socket under ~/.gunicorn: several companions (or tests) may run at once.
control_socket_disable = True
