"""Keyper (R&D Games, 2017): the rules engine."""

from engine.keyper.game import GAME, KeyperGame

__all__ = ["GAME", "KeyperGame"]
