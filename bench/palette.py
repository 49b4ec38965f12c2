"""The games' colours as colour-blind players see them (support/palette.py measures them).

Run: .venv/bin/python bench/palette.py [--markdown]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.palette import main

if __name__ == "__main__":
    sys.exit(main())
