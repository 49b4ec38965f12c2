"""Under gunicorn's gevent worker, Python's garbage collector runs while the server has
nothing else to do, not in the middle of a move's pushes (``companion/collector.py``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from companion.collector import BACKSTOP, due

ROOT = Path(__file__).resolve().parents[1]


def test_the_oldest_generation_past_its_threshold_is_due() -> None:
    thresholds = (700, 10, 10)
    assert due((700, 10, 10), thresholds) is None
    assert due((701, 3, 0), thresholds) == 0
    assert due((701, 11, 0), thresholds) == 1
    assert due((0, 11, 11), thresholds) == 2


BUSY_SERVER = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import gc
    import gevent
    from companion.collector import collect_when_idle

    collections = []
    drawing = []  # set while a push is being drawn (no yield in between)

    def timed(phase, info):
        if phase == "stop":
            collections.append((info["generation"], bool(drawing)))

    gc.callbacks.append(timed)
    collect_when_idle((1000, 10, 10))
    print(*gc.get_threshold())

    def pushes():
        for _ in range(30):
            drawing.append(True)
            made = [[] for _ in range(1500)]  # more than the young threshold
            for item in made:
                item.append(item)  # a cycle: only a collection frees it
            del made
            drawing.clear()
            gevent.sleep(0.03)  # the pushes are sent: the server waits for the next move

    gevent.spawn(pushes).join()
    gevent.sleep(0.2)
    print(len(collections), sum(1 for _, in_push in collections if in_push),
          max((generation for generation, _ in collections), default=-1))
""")


def test_under_gevent_the_collector_waits_until_nothing_else_is_ready() -> None:
    done = subprocess.run([sys.executable, "-c", BUSY_SERVER], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    thresholds, counts = done.stdout.splitlines()
    assert thresholds.split() == [str(1000 * BACKSTOP), "10", "10"]
    collections, in_pushes, oldest = map(int, counts.split())
    assert collections >= 10, done.stdout  # 45,000 objects made, a collection per 1,000
    assert in_pushes == 0, done.stdout  # never while a push was being drawn
    assert oldest >= 1, done.stdout  # the older generations on their own thresholds too
