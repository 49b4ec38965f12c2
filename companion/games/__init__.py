"""The rules of each game, one package per game, each implementing ``base.Game``.

Which games the companion offers is the web layer's registry (``companion.web.games``).
"""
