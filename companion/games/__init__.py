"""The rules of each game, one package per game, each implementing ``base.Game``; the
games offered are listed in ``registry``.
"""
