"""`python -m companion serve`: print where to find the companion, then serve it."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion.network import lan_address, qr_text

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the companion on the local network")
    serve.add_argument("--port", type=int, default=int(os.environ.get("COMPANION_PORT", 5000)))
    serve.add_argument("--bind", default="0.0.0.0")
    args = parser.parse_args(argv)

    url = f"http://{os.environ.get('COMPANION_HOST') or lan_address()}:{args.port}/"
    print("Table Companion")
    print(f"Open {url} on this laptop to set up a table;")
    print("each table screen then shows its own QR code for the phones to join.")
    print(qr_text(url))
    print(url, flush=True)
    os.environ["COMPANION_PORT"] = str(args.port)
    os.environ["COMPANION_BIND"] = f"{args.bind}:{args.port}"
    os.chdir(ROOT)
    os.execvp(sys.executable, [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                               "companion:create_app()"])


if __name__ == "__main__":
    main()
