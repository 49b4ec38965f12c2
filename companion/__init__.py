"""Table Companion: phones as private controllers for physical board games.

``create_app`` (the app factory, in ``companion.app``) is loaded when first asked for, so
that the rules engines import without Flask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from companion.app import create_app

        return create_app
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
