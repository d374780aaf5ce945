"""docs/rules/keyper.md speaks to players: no notes about the project's sources, and the format bot/rules.py reads
(`## Title`, then `Source:`, then `Keywords:`)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "keyper.md"

# Phrases of notes written for the project's engineers rather than for players.
INTERNAL = ("our text", "text we work from", "icons were lost", "were lost", "lost from the rulebook",
            "a reconstruction", "reconstructed data", "data pack", "keywood's data defines")


def sections() -> list[str]:
    """The text after each '## ' heading."""
    return re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]


def test_the_summary_has_no_internal_notes() -> None:
    """The summary is what /rules shows players: it explains rules and Keywood's choices in players' words,
    never how the project's rule sources were damaged (e.g. the discount build, rulebook p.13 note 4)."""
    text = DOC.read_text(encoding="utf-8").lower()
    assert [phrase for phrase in INTERNAL if phrase in text] == []


def test_every_section_keeps_the_source_and_keywords_lines() -> None:
    """bot/rules.py reads each section as a title line, a 'Source:' line, a 'Keywords:' line and a body."""
    found = sections()
    assert len(found) > 20
    for chunk in found:
        title, source, keywords, *_ = chunk.split("\n")
        assert source.startswith("Source: ") and keywords.startswith("Keywords: "), title


def test_the_discount_build_says_what_a_player_pays() -> None:
    """rulebook p.13 note 4 and ruling K-20: the summary says the discount leaves out one item the player names."""
    build = next(chunk for chunk in sections() if chunk.startswith("Build and discount build"))
    assert "less one item of your choice" in build and "-clay" in build
