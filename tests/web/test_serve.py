"""Starting the companion: `scripts/serve` with no network once installed, a clear message
on a first start without one, the settings the README names, the Procfile's $PORT, and an
installed wheel that works outside the checkout."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.web.server_process import ROOT, free_port, procfile_command

pytestmark = pytest.mark.slow


def offline_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This environment with pip's and npm's registries on a closed port of this machine,
    and no local package folders: nothing can be downloaded."""
    closed = f"http://127.0.0.1:{free_port()}"
    env = {key: value for key, value in os.environ.items()
           if not key.upper().startswith(("PIP_", "NPM_CONFIG_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=f"{closed}/simple",
               PIP_NO_CACHE_DIR="1", npm_config_registry=f"{closed}/",
               npm_config_cache=str(tmp_path / "npm-cache"), npm_config_userconfig=os.devnull,
               COMPANION_DATABASE=str(tmp_path / "companion.sqlite"), **extra)
    return env


def wait_for(url: str, process: subprocess.Popen, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return urllib.request.urlopen(url, timeout=1).read().decode()
        except OSError:
            assert process.poll() is None, f"the server stopped (exit {process.returncode})"
            assert time.monotonic() < deadline, f"{url} did not answer within {seconds} s"
            time.sleep(0.05)


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=10)


def test_an_installed_checkout_serves_within_10_s_with_no_network(tmp_path):
    subprocess.run([ROOT / "scripts" / "install"], check=True, cwd=ROOT)  # installs once
    port = free_port()
    env = offline_env(tmp_path, COMPANION_BIND=f"127.0.0.1:{port}", COMPANION_HOST="127.0.0.1")
    started = time.monotonic()
    process = subprocess.Popen([ROOT / "scripts" / "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        page = wait_for(f"http://127.0.0.1:{port}/", process, 10)
        assert "In 7th Heaven" in page
        assert time.monotonic() - started < 10
    finally:
        stop(process)


def test_a_first_start_with_no_network_says_what_is_missing(tmp_path):
    checkout = tmp_path / "checkout"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
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
        assert "In 7th Heaven" in wait_for(url, process, 20)
    finally:
        stop(process)


def test_the_procfile_binds_to_port_when_it_is_set(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("COMPANION_")}
    env.update(PORT=str(port), COMPANION_DATABASE=str(tmp_path / "procfile.sqlite"))
    command = procfile_command()
    command[0] = str(Path(sys.executable).with_name(command[0]))
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        page = wait_for(f"http://127.0.0.1:{port}/", process, 20)
        assert "In 7th Heaven" in page
    finally:
        stop(process)


def test_a_built_wheel_is_a_working_companion(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path / "dist"), str(ROOT)], check=True,
                   capture_output=True)
    wheel = next((tmp_path / "dist").glob("table_companion-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("companion/templates/base.html", "companion/static/vendor/htmx.min.js",
                   "companion/static/vendor/hx-ws.js", "companion/static/css/companion.css",
                   "companion/seeds/table.toml", "companion/seeds/climbers.toml",
                   "companion/translations/fr/LC_MESSAGES/messages.mo",
                   "companion/games/climbers/geometry.py", "companion/web/games/climbers.py"):
        assert needed in names, needed
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    # Run from elsewhere, so the checkout is not on the path: only the installed package.
    env = dict(os.environ, PYTHONPATH=str(site), COMPANION_DATABASE=str(tmp_path / "w.sqlite"))
    check = (
        "import companion, sys\n"
        "assert companion.__file__.startswith(sys.argv[1]), companion.__file__\n"
        "client = companion.create_app({'TESTING': True}).test_client()\n"
        "page = client.get('/').get_data(as_text=True)\n"
        "assert 'In 7th Heaven' in page\n"
        "script = page.split('src=\"')[1].split('\"')[0].replace('&amp;', '&')\n"
        "assert client.get(script).status_code == 200, script\n"
        "french = client.get('/rules/climbers', headers={'Accept-Language': 'fr'})\n"
        "assert 'Règles' in french.get_data(as_text=True)\n"
    )
    subprocess.run([sys.executable, "-c", check, str(site)], cwd=tmp_path, env=env, check=True)
    version = subprocess.run([site / "bin" / "companion", "--version"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert version.strip() == f"companion {project['version']}"


def test_the_companion_is_mit_licensed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
