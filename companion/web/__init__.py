"""The web layer: blueprints by page kind, each a thin shell over ``companion.tables``.

This package imports nothing itself: ``companion.web.assembly`` puts the layer on an app."""
