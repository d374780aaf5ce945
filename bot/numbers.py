"""Numbers as people type them: a reply that repeats a number someone typed keeps it short."""

from __future__ import annotations


def shorten(number: str, keep: int = 12) -> str:
    """A typed number as a reply repeats it: at most `keep` digits, then how many there were in all."""
    return number if len(number) <= keep else f"{number[:keep]}… ({len(number)} digits)"
