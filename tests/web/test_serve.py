"""`python -m companion serve` (what scripts/serve runs) prints where to go, and serves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.web.server_process import ROOT, free_port

pytestmark = pytest.mark.slow


def test_serve_prints_the_address_and_a_qr_code_then_serves(tmp_path):
    port = free_port()
    env = dict(os.environ, COMPANION_HOST="127.0.0.1",
               COMPANION_DATABASE=str(tmp_path / "serve.sqlite"))
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port),
                                "--bind", "127.0.0.1"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               start_new_session=True)
    try:
        lines = []
        url = f"http://127.0.0.1:{port}/"
        while url not in lines:
            line = process.stdout.readline()
            assert line, "serve stopped before printing its address"
            lines.append(line.strip())
        printed = "\n".join(lines)
        assert "█" in printed or "▀" in printed  # the QR code, drawn with blocks
        deadline = time.monotonic() + 20
        while True:
            try:
                page = urllib.request.urlopen(url, timeout=1).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the companion never answered"
                time.sleep(0.1)
        assert "In 7th Heaven" in page
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
