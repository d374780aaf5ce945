"""Keythedral: the rules engine (GAME implements engine.core.Game)."""

from engine.keythedral.game import GAME

__all__ = ["GAME"]
