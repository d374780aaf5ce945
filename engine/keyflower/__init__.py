"""Keyflower: the rules engine (GAME implements engine.core.Game)."""

from engine.keyflower.game import GAME

__all__ = ["GAME"]
