"""`companion serve` (or `python -m companion serve`): print where to find the companion,
then serve it with gunicorn."""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from companion.config import listen_address, public_port, worker_count
from companion.network import join_host, qr_text

#: What the terminal says when phones cannot reach the printed address (the table screen
#: says it too, in its reader's language).
UNREACHABLE = {
    "loopback": "Phones cannot join: this laptop serves only itself. Start it with "
                "./scripts/serve --bind 0.0.0.0 or set COMPANION_HOST.",
    "no-network": "Phones cannot join: this laptop has no address on a local network. "
                  "Connect it to the wifi the phones are on, or set COMPANION_HOST.",
}


def package_version() -> str:
    try:
        return version("table-companion")
    except PackageNotFoundError:
        return "unknown"


def serve_address(bind: str | None, port: int | None) -> str:
    """host:port to listen on: ``--bind`` (a host, or host:port), else ``COMPANION_BIND``,
    else every interface on the default port; ``--port`` replaces the port."""
    host, _, port_text = listen_address().rpartition(":")
    if bind:
        bind_host, sep, bind_port = bind.rpartition(":")
        if sep and bind_port.isdigit():
            host, port_text = bind_host, bind_port
        else:
            host = bind
    return f"{host}:{port or port_text}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the companion on the local network")
    serve.add_argument("--bind", help="address[:port] to listen on "
                       "(default: $COMPANION_BIND, else 0.0.0.0:$PORT, else 0.0.0.0:5000)")
    serve.add_argument("--port", type=int, help="port to listen on (replaces --bind's)")
    serve.add_argument("--redis", metavar="URL",
                       help="Redis (redis://host:port) through which several processes "
                       "serve the same tables (default: $COMPANION_REDIS, else none)")
    serve.add_argument("--workers", type=int, metavar="N",
                       help="server processes (default: $COMPANION_WORKERS, else one per "
                       "core with --redis, else one)")
    serve.add_argument("--database", metavar="PATH_OR_URL",
                       help="the store: a SQLite file, or PostgreSQL (postgresql://…) shared "
                       "by several machines (default: $COMPANION_DATABASE, else "
                       "instance/companion.sqlite)")
    args = parser.parse_args(argv)
    if args.database:
        os.environ["COMPANION_DATABASE"] = args.database
    if args.redis:
        os.environ["COMPANION_REDIS"] = args.redis
    if args.workers is not None:
        os.environ["COMPANION_WORKERS"] = str(args.workers)
    try:
        workers = worker_count()
    except ValueError as refusal:
        parser.error(str(refusal))

    address = serve_address(args.bind, args.port)
    os.environ["COMPANION_BIND"] = address
    host, _, _ = address.rpartition(":")
    joined = join_host(host, os.environ.get("COMPANION_HOST"))
    url = f"http://{joined.host}:{public_port()}/"
    os.environ.setdefault("COMPANION_PORT", str(public_port()))
    print("Table Companion")
    print(f"Open {url} on this laptop to set up a table;")
    print("each table screen then shows its own QR code for the phones to join.")
    if joined.unreachable:
        print(UNREACHABLE[joined.unreachable])
    print(qr_text(url))
    if workers > 1:
        print(f"{workers} processes, telling each other of every move through Redis.")
    print(url, flush=True)
    os.execvp(sys.executable, [sys.executable, "-m", "gunicorn", "-c",
                               "python:companion.gunicorn_config", "companion:create_app()"])


if __name__ == "__main__":
    main()
