"""Fixtures of the Discord tests (defined in tests/discord/__init__.py)."""

from tests.discord import env

__all__ = ["env"]
