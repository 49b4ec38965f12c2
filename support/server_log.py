"""What a test server said that no test may let pass: a traceback or an ERROR line.

Servers run as processes (gunicorn, ``scripts/serve``) write a log file that their test
reads when it ends; servers inside the test process log through ``logging``, which
``tests/conftest.py`` watches. A test that provokes an error on purpose is marked
``@pytest.mark.server_errors``.
"""

from __future__ import annotations

import re
from pathlib import Path

#: A Python traceback, gunicorn's ``[ERROR]``, logging's ``ERROR in app:`` or ``ERROR:name:``.
ERROR_LINE = re.compile(r"Traceback \(most recent call last\)|\bERROR\b|\bCRITICAL\b")


def errors_in(text: str) -> list[str]:
    """The lines of a server's log that report an error."""
    return [line for line in text.splitlines() if ERROR_LINE.search(line)]


def assert_clean_log(path: Path) -> None:
    """Fail, quoting the log, if the server that wrote ``path`` reported an error."""
    text = path.read_text(errors="replace") if path.exists() else ""
    found = errors_in(text)
    assert not found, f"the server's log {path} reports errors:\n" + text[-4000:]
