"""Starting the companion: `scripts/serve` with no network once installed, a clear message
on a first start without one, and the settings the README names (the newcomer's path, a
fresh copy and a wheel, is tests/web/test_newcomer.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from support.checkout import ROOT, copy_checkout
from support.server_process import free_port, stop_group, wait_until_served

pytestmark = pytest.mark.slow


def offline_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This environment with pip's registry on a closed port of this machine, and no local
    package folders: nothing can be downloaded."""
    closed = f"http://127.0.0.1:{free_port()}"
    env = {key: value for key, value in os.environ.items()
           if not key.upper().startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=f"{closed}/simple",
               PIP_NO_CACHE_DIR="1",
               COMPANION_DATABASE=str(tmp_path / "companion.sqlite"), **extra)
    return env


def test_an_installed_checkout_serves_within_10_s_with_no_network(tmp_path):
    subprocess.run([ROOT / "scripts" / "install"], check=True, cwd=ROOT)  # installs once
    port = free_port()
    env = offline_env(tmp_path, COMPANION_BIND=f"127.0.0.1:{port}", COMPANION_HOST="127.0.0.1")
    started = time.monotonic()
    process = subprocess.Popen([ROOT / "scripts" / "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        page = wait_until_served(f"http://127.0.0.1:{port}/", process, 10)
        assert "In 7th Heaven" in page
        assert time.monotonic() - started < 10
    finally:
        stop_group(process)


def test_a_first_start_with_no_network_says_what_is_missing(tmp_path):
    checkout = copy_checkout(tmp_path / "checkout")
    result = subprocess.run([checkout / "scripts" / "install"], cwd=checkout,
                            env=offline_env(tmp_path), capture_output=True, text=True,
                            timeout=240)
    assert result.returncode != 0
    assert "could not install" in result.stderr
    assert "needs the internet once" in result.stderr


def test_companion_serve_listens_where_companion_bind_says(tmp_path):
    port = free_port()
    env = dict(os.environ, COMPANION_BIND=f"127.0.0.1:{port}", COMPANION_HOST="127.0.0.1",
               COMPANION_DATABASE=str(tmp_path / "serve.sqlite"))
    env.pop("COMPANION_PORT", None)
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               start_new_session=True)
    try:
        lines = []
        url = f"http://127.0.0.1:{port}/"
        while url not in lines:
            line = process.stdout.readline()
            assert line, "serve stopped before printing its address"
            lines.append(line.strip())
        assert "█" in "\n".join(lines) or "▀" in "\n".join(lines)  # the QR code
        assert "In 7th Heaven" in wait_until_served(url, process, 20)
    finally:
        stop_group(process)


def test_the_companion_is_mit_licensed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
