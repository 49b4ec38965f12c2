"""The worker's garbage collector (``companion/gunicorn_config.py``): what the app left
over at start is collected, not frozen, and the rest is frozen out of the collector's
sight. Run in a process of its own: freezing changes the whole interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER_START = textwrap.dedent("""
    import gc, weakref
    gc.disable()
    from companion import create_app
    from companion import gunicorn_config

    class Node:
        pass

    app = create_app()
    left_over = Node()
    left_over.itself = left_over  # a cycle only a collection frees
    gone = weakref.ref(left_over)
    del left_over
    gc.enable()
    gunicorn_config.post_worker_init(None)
    assert gone() is None, "a cycle left over at start was frozen, never to be freed"
    assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()
    assert gc.get_count()[0] < 100, gc.get_count()
    assert gc.get_threshold() == gunicorn_config.THRESHOLDS
    print("ok")
""")


def test_the_worker_collects_then_freezes_what_the_app_loaded(tmp_path):
    done = subprocess.run([sys.executable, "-c", WORKER_START], cwd=ROOT, text=True,
                          capture_output=True, timeout=60,
                          env={"COMPANION_DATABASE": str(tmp_path / "db.sqlite"),
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
